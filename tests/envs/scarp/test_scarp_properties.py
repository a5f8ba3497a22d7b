"""Scarp under random play that never folds (so the special effects happen): the answer mask is
the brute-force completion, and the generic checks hold deep into a game."""

from __future__ import annotations

import itertools
import random

import pytest
from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp import rules
from conformance_support import (
    HiddenInformation,
    MovesSeenAsViewed,
    SeatViewRoundTrip,
    StateRoundTrip,
    check_legal_actions,
    check_masks,
)
from scarp_support import make, random_no_fold

MODES = [{}, {"challenge_suit": "enemy"}]


def brute_force_answer_actions(state) -> list[int]:
    """PICK ids of cards some valid answer holds with the picks so far, and DONE when they are valid."""
    card, suit = scarp.current_challenge(state)
    number, picked = rules.NUMBER[card], set(state.picks.picked)
    pool = [c for c in scarp.answer_pool(state) if rules.COLOUR[c] == suit % 2]
    answers = [
        set(subset)
        for size in range(1, len(pool) + 1)
        for subset in itertools.combinations(pool, size)
        if picked <= set(subset) and rules.is_valid_answer_ids(subset, number, suit)
    ]
    actions = sorted({scarp.FIRST_PICK + c for answer in answers for c in answer - picked})
    return actions + ([scarp.DONE] if picked in answers else [])


@pytest.mark.parametrize("mode", MODES, ids=["colour", "enemy"])
def test_answer_masks_are_the_brute_force_completions(mode):
    env, checked = make(**mode), 0

    def visit(env, rng):
        nonlocal checked
        state = env.game.clone(env.state)
        if state.phase == scarp.RESPONSE and len(scarp.answer_pool(state)) <= 16:
            answers = [a for a in env.game.legal_actions(state) if scarp.PICKS.is_pick(a) or a == scarp.DONE]
            assert answers == brute_force_answer_actions(state)
            checked += 1

    for seed in range(12):
        env.reset(seed=seed)
        random_no_fold(env, random.Random(seed), visit)
    assert checked > 100


@pytest.mark.parametrize("mode", MODES, ids=["colour", "enemy"])
def test_generic_checks_deep_into_games(mode):
    checks = [
        check_masks,
        check_legal_actions,
        StateRoundTrip((make(**mode), make(**mode)), horizon=5),
        SeatViewRoundTrip(make(**mode)),
        HiddenInformation(make(**mode), draws=2),
        MovesSeenAsViewed(make(**mode)),
    ]
    env = make(**mode)
    for seed in range(3):
        env.reset(seed=seed)
        start = env.game.conserved(env.state)

        def visit(env, rng, start=start):
            assert env.game.conserved(env.state) == start
            if rng.random() < 0.08:
                for check in checks:
                    check(env, rng)

        random_no_fold(env, random.Random(seed), visit)
        assert env.game.is_terminal(env.state)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES, ids=["colour", "enemy"])
def test_generic_checks_over_many_games(mode):
    checks = [
        check_masks,
        StateRoundTrip((make(**mode), make(**mode)), horizon=5),
        SeatViewRoundTrip(make(**mode)),
        HiddenInformation(make(**mode), draws=2),
        MovesSeenAsViewed(make(**mode)),
    ]
    env = make(**mode)
    for seed in range(300):
        env.reset(seed=seed)

        def visit(env, rng):
            if rng.random() < 0.02:
                for check in checks:
                    check(env, rng)

        random_no_fold(env, random.Random(seed), visit)
