"""States read from JSON are checked (`Game.check_state`): real states of random play, mutated
(fuzz_support.py), are refused with StateError or play out consistently, for every registered
game; unmutated ones are accepted. Mutated seat views of real states are refused with
SeatViewError or StateError, or give a state that plays out the same way. The default run fuzzes
a few hundred states and views and some records per game, the `slow` run thousands."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from cardarena.envs.core.registry import make, registered
from fuzz_support import Tally, judge, mutated, real_records, real_states, real_views, record_fuzz, view_fuzz

GAMES = [entry.name for entry in registered()]
"""Every registered game: each writes its `check_state` (docs/architecture.md, "Checked states")."""


def _fuzz(name: str, seed: int, cases: int, collect: Callable = real_states, judged: Callable = judge) -> Tally:
    """`cases` mutations of real inputs (`collect`: states or seat views) of every mode, each `judged`."""
    rng, tally = random.Random(seed), Tally()
    modes = make(name).game.conformance_modes
    per_mode = -(-cases // len(modes))
    for mode in modes:
        originals = collect(name, mode, rng, max(1, per_mode // 4))
        for number in range(per_mode):
            data, change = mutated(originals[number % len(originals)], rng)
            failures = len(tally.failures)
            judged(name, mode, data, rng, tally)
            if len(tally.failures) > failures:
                tally.failures[-1] = f"{mode} {change}: {tally.failures[-1]}"
    return tally


@pytest.mark.parametrize("name", GAMES)
def test_real_states_load(name: str) -> None:
    for mode in make(name).game.conformance_modes:
        env = make(name, **mode)
        for data in real_states(name, mode, random.Random(7), 40):
            env.load_state(env.game.state_from_json(data))


def _fuzz_clean(name: str, seed: int, cases: int, collect: Callable = real_states, judged: Callable = judge) -> Tally:
    """`_fuzz`, asserting that every mutation was refused or played out."""
    tally = _fuzz(name, seed, cases, collect, judged)
    assert tally.failures == [], f"{len(tally.failures)} failures, e.g. {tally.failures[:5]}"
    return tally


def _runs(quick: int, many: int) -> list:
    """(seed, cases) of a quick fuzz and of a long one for the slow suite."""
    return [pytest.param(1, quick, id="quick"), pytest.param(2, many, id="many", marks=pytest.mark.slow)]


@pytest.mark.parametrize(("seed", "cases"), _runs(300, 2000))
@pytest.mark.parametrize("name", GAMES)
def test_mutated_states_are_refused_or_play_out(name: str, seed: int, cases: int) -> None:
    assert _fuzz_clean(name, seed, cases).refused > 0


@pytest.mark.parametrize(("seed", "cases"), _runs(300, 2000))
@pytest.mark.parametrize("name", GAMES)
def test_mutated_views(name: str, seed: int, cases: int) -> None:
    tally = _fuzz_clean(name, seed, cases, real_views, view_fuzz)
    assert tally.refused > 0 and tally.played > 0


@pytest.mark.parametrize(("seed", "cases"), _runs(60, 300))
@pytest.mark.parametrize("name", GAMES)
def test_mutated_records(name: str, seed: int, cases: int) -> None:
    assert _fuzz_clean(name, seed, cases, real_records, record_fuzz).refused > 0
