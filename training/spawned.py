"""Pools of worker processes spawned on this machine, each ending with the process that spawned it."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

PARENT_POLL = 0.5  # seconds between a worker's checks that the process that spawned it is alive


@contextmanager
def worker_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
) -> Iterator[ProcessPoolExecutor]:
    """`workers` spawned processes; each runs `initializer(*initargs)` first and ends once this process
    has. Leaving the block waits for the work in hand; leaving it by an error first drops the work
    not yet started, so the error is not held back until every queued task has run."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, context, _start_worker, (os.getpid(), initializer, initargs))
    try:
        yield pool
    except BaseException:
        pool.shutdown(cancel_futures=True)
        raise
    finally:
        pool.shutdown()


def _start_worker(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    threading.Thread(target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _exit_with_parent(parent: int) -> None:
    """End this worker once the process that spawned it has ended. One killed by a signal to its own
    process (`kill PID`, not Ctrl-C, which reaches the whole process group) never closes the pool,
    and a spawned worker holds both ends of the pool's queue, so it would wait for work forever."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)
