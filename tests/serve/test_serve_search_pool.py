"""The search pool: a task is answered in a spawned process, a process that raises or dies fails its
task alone and the next task is answered, and a stopped pool kills what it is thinking."""

from __future__ import annotations

import json
import time

import pytest
from cardarena.envs import make
from serve_support import DyingSearch

from cardarena.serve.search_pool import SearchPool, SearchProcessError, SearchTask

EXPERT = "yokir/expert:worlds=2"
WITHIN = 60.0  # seconds, generous: starting a search process takes about one on an idle machine


def task(bot: str, seed: int = 1) -> SearchTask:
    """The first decision of a Yokir hand dealt from `seed`, for `bot`."""
    env = make("yokir_v1")
    env.reset(seed=seed)
    state = json.dumps(env.game.state_to_json(env.state))
    seat = env.game.current_player(env.state)
    return SearchTask(bot, 1000.0, "yokir_v1", env.config.model_dump(), state, seat, seed)


def test_a_task_a_search_process_fails_names_the_error_and_the_pool_answers_the_next():
    pool = SearchPool(1)
    try:
        with pytest.raises(SearchProcessError, match="UnknownAgentError: unknown agent 'no-such-bot'"):
            pool.submit(task("no-such-bot")).result(WITHIN)
        with pytest.raises(SearchProcessError, match=r"died while thinking \(exit code 3\)"):
            pool.submit(task(DyingSearch.name)).result(WITHIN)
        env = make("yokir_v1")
        env.reset(seed=1)
        assert pool.submit(task(EXPERT)).result(WITHIN) in env.game.legal_actions(env.state)
    finally:
        pool.shutdown()


def test_a_stopped_pool_kills_a_search_in_progress_and_fails_its_task():
    pool = SearchPool(1)
    endless = pool.submit(task("yokir/expert:worlds=100000000"))
    while not endless.running():  # a courier has taken it to its process
        time.sleep(0.01)
    stopping = time.monotonic()
    pool.shutdown()
    assert time.monotonic() - stopping < 5
    with pytest.raises(SearchProcessError, match="died while thinking"):
        endless.result(5)
    with pytest.raises(RuntimeError, match="the search pool is shut down"):
        pool.submit(task(EXPERT))


def test_a_search_pool_needs_at_least_one_process():
    with pytest.raises(ValueError, match="a search pool needs at least 1 process, got 0"):
        SearchPool(0)
