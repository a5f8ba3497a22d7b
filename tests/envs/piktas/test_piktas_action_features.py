"""The per-action observation features agree with playing each exchange on a copy of the table.

The features, and the acting seat's own evaluation, are computed for every exchange of a turn at
once in compiled code (`scoring.exchange_outcomes`); these checks hold them to the game's own
`play_exchange` and `evaluate`.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from cardarena.envs import make
from cardarena.envs.piktas import rules
from cardarena.envs.piktas.exchange import play_exchange
from cardarena.envs.piktas.game import field_cards
from cardarena.envs.piktas.layout import CLOSENESS_SCALE, FACE_SCALE, SCORE_SCALE, SLICES, UNIT_SCALE
from cardarena.envs.piktas.scoring import closeness
from cardarena.envs.piktas.state import EXCHANGE


def _expected(env, hand, positions, action):
    hand, positions = list(hand), [list(stack) for stack in positions]
    play_exchange(hand, positions, action)
    flags = env.game.config.scoring_flags
    covered = [card for stack in positions if len(stack) > 1 for card in stack]
    secured = rules.evaluate_ids(hand, covered, *flags)[0]
    full = rules.evaluate_ids(hand, field_cards(positions), *flags)[0]
    return secured, full, closeness(np.array(hand + covered, np.int64))


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"num_players": 2, "wild_voids": True},
        {"num_players": 7, "trump_multi_unit": False},
        {"highest_unit_only": True},
    ],
)
def test_per_action_features_match_the_played_exchange(config):
    env, rng = make("piktas_v1", **config), random.Random(5)
    for episode in range(12):
        env.reset(seed=episode)
        while env.state.phase == EXCHANGE:
            seat = env.game.current_player(env.state)
            obs = env.observe(env.agent_selection)["observation"]
            legal = env.game.legal_actions(env.state)
            evaluation = env.game.evaluate(env.state, seat)
            scales = (SCORE_SCALE, UNIT_SCALE, FACE_SCALE, FACE_SCALE)
            assert obs[SLICES["evaluation"]] == pytest.approx(
                [min(v / scale, 1.0) for v, scale in zip(evaluation, scales, strict=True)]
            )
            for action in legal:
                secured, full, near = _expected(env, env.state.hands[seat], env.state.field, action)
                assert obs[SLICES["secured_after"]][action] == pytest.approx(min(secured / SCORE_SCALE, 1.0))
                assert obs[SLICES["full_after"]][action] == pytest.approx(min(full / SCORE_SCALE, 1.0))
                assert obs[SLICES["closeness_after"]][action] == pytest.approx(min(near / CLOSENESS_SCALE, 1.0))
            env.step(rng.choice(legal))
