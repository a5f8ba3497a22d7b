"""Pools of spawned workers (`training/spawned.py`): an error drops the work not yet started."""

import time
from pathlib import Path

import pytest
from cardarena.training.spawned import worker_pool


def test_an_error_in_the_block_drops_the_queued_work(tmp_path):
    marks = [tmp_path / f"task_{index}" for index in range(20)]
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="stop"), worker_pool(1) as pool:
        pool.submit(time.sleep, 2)
        for mark in marks:
            pool.submit(Path.touch, mark)
        raise RuntimeError("stop")
    assert sum(mark.exists() for mark in marks) <= 2  # at most those already handed to the worker
    assert time.monotonic() - started < 30


def test_the_initializer_runs_in_each_worker_before_its_tasks(tmp_path):
    mark = tmp_path / "initialised"
    with worker_pool(1, Path.touch, (mark,)) as pool:
        assert pool.submit(Path.exists, mark).result(timeout=60)
