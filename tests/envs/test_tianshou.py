"""Tianshou's PettingZooEnv plays elimination matches to their end with `retired_seats="stay"`.

Tianshou ends an episode at the first terminal step it reads, so a seat that leaves when it is eliminated
(`retired_seats="leave"`, the default) ends the match for it.
"""

from __future__ import annotations

import numpy as np
import pytest
from elimination_matches import ELIMINATION_MATCHES, at_its_end, check_matches_reach_their_end, elimination_match

PettingZooEnv = pytest.importorskip("tianshou.env", reason="needs the test extra (tianshou)").PettingZooEnv

MATCHES = 4


def play_with_tianshou(env, seed: int) -> list[float]:
    """Random legal actions until Tianshou's episode ends; each seat's rewards as Tianshou reported them."""
    wrapped = PettingZooEnv(env)
    observation, _info = wrapped.reset(seed=seed)
    paid = np.array(env.game.returns(env.state), dtype=float)
    rng = np.random.default_rng(seed)
    done = False
    while not done:
        observation, rewards, terminated, truncated, _info = wrapped.step(
            rng.choice(np.flatnonzero(observation["mask"]))
        )
        paid += rewards
        done = terminated or truncated
    return paid.tolist()


@pytest.mark.parametrize("name", ELIMINATION_MATCHES)
def test_every_match_reaches_its_end_when_retired_seats_stay(name: str):
    check_matches_reach_their_end(elimination_match(name, "stay"), play_with_tianshou, MATCHES)


@pytest.mark.parametrize("name", ELIMINATION_MATCHES)
def test_tianshou_cuts_a_match_short_when_retired_seats_leave(name: str):
    env = elimination_match(name, "leave")
    ended = []
    for seed in range(MATCHES):
        play_with_tianshou(env, seed)
        ended.append(at_its_end(env))
    assert not all(ended)
