"""The standing features: each legal action's change to the acting seat's score minus the best
other score, worked by hand and checked against scoring the whole table after every move."""

from __future__ import annotations

import math
import random

import pytest
from cardarena.envs.paradigm.encode import SCORE_SCALE, SLICES, ParadigmEncoder
from cardarena.envs.paradigm.game import CANCEL, FIRST_CARD, FIRST_ON_TOP, NEW_PILE_ID, PASS_ID, PLAY
from cardarena.envs.paradigm.rules import VALUE
from cardarena.envs.paradigm.standing import GAIN_PHASES, carried_out, placed, standing, standing_and_gains
from paradigm_support import ACTION, between_turns, env_at_turn, legal_names, make


def test_a_revealed_card_worked_by_hand():
    # L 3 + S2·L5 = 13, S 6, D 0, H D4·H9 = 36: seat 0 (L) stands at 13 - 36 = -23 with L7 to place.
    env = env_at_turn(between_turns(piles=("L3", "S2 L5", "D4 H9", "S6"), top="L7"))
    now, gains = standing_and_gains(env.state, env.game.legal_actions(env.state))
    assert now == -23
    named = {name: gains[ACTION[name]] for name in legal_names(env)}
    # new pile: L 20; on L3: L 21 + 10; on L5: 3 + 70; on S6 (captured): 13 + 42
    assert named == {"HAND": 0, "NEW_PILE": 7, "ON_TOP(L3)": 18, "ON_TOP(L5)": 60, "ON_TOP(S6)": 42}


def test_the_observation_carries_them_to_the_seat_to_act_only_as_action_features():
    assert ParadigmEncoder.action_feature_slices == (SLICES["action_gain"], SLICES["action_gap"])
    env = env_at_turn(between_turns(piles=("L3", "S2 L5", "D4 H9", "S6"), top="L7"))
    acting, other = env.observe("player_0")["observation"], env.observe("player_1")["observation"]
    gain = acting[SLICES["action_gain"]]
    assert gain[ACTION["HAND"]] == 0.5
    assert gain[ACTION["ON_TOP(L5)"]] == pytest.approx(0.5 + 0.5 * math.log1p(60) / SCORE_SCALE)
    assert acting[SLICES["standing"]][0] == pytest.approx(0.5 - 0.5 * math.log1p(23) / SCORE_SCALE)
    assert gain[ACTION["CANCEL(1)"]] == 0.0  # not legal
    gap = acting[SLICES["action_gap"]]
    assert gap[ACTION["ON_TOP(L5)"]] == 0.0  # the best placement
    assert gap[ACTION["NEW_PILE"]] == pytest.approx(math.log1p(60 - 7) / SCORE_SCALE)
    assert (
        not other[SLICES["action_gain"]].any()
        and not other[SLICES["action_gap"]].any()
        and not other[SLICES["standing"]].any()
    )


def _expected(state, action: int) -> int:
    """The change found by scoring whole tables, the seat to act first."""
    n, seat = state.num_players, state.to_act
    suits = [state.suits[(seat + k) % n] for k in range(n)]
    now = standing(state.table, suits)
    if state.phase == CANCEL:
        after = carried_out(state.table, *[state.pending[k] for k in (0, 1, 3)]) if action == PASS_ID else state.table
        return standing(after, suits) - now
    if state.phase == PLAY:
        if action == PASS_ID:
            return 0
        card = action - FIRST_CARD
        options = [NEW_PILE_ID] + [FIRST_ON_TOP + pile[-1] for pile in state.table if VALUE[pile[-1]] < VALUE[card]]
        return max(standing(placed(state.table, card, option), suits) for option in options) - now
    if action < NEW_PILE_ID:
        return 0
    return standing(placed(state.table, state.pending[1], action), suits) - now


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_decision_of_random_games_agrees_with_scoring_the_whole_table(n):
    env, rng, checked = make(num_players=n), random.Random(n), 0
    for seed in range(25):
        env.reset(seed=seed)
        while not env.game.is_terminal(env.state):
            state, legal = env.state, env.game.legal_actions(env.state)
            if state.phase in GAIN_PHASES:
                _now, gains = standing_and_gains(state, legal)
                assert gains == {action: _expected(state, action) for action in legal}
                checked += 1
            env.step(rng.choice(legal))
    assert checked > 100


def test_outside_a_turn_there_is_nothing_to_read():
    env = make()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="phase"):
        standing_and_gains(env.state, env.game.legal_actions(env.state))
