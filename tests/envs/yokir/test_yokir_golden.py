"""Golden episodes of yokir_v1: seeded random-legal-play logs that must not change.

Each file under golden/ records, for every step, the acting agent, the action and its label,
the acting seat's observation (sha256 of the float32 bytes and its nonzero entries), a sha256 of
all three seats' observations and of the acting seat's JSON view, the legal ids, and the rewards,
terminations and truncations after the step. Any difference is a behaviour change of the
environment: observations, actions and rules are frozen within one version.

To change behaviour on purpose: bump the env version (yokir_v1 -> yokir_v2), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/yokir/test_yokir_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from golden_support import check_golden, decision_words, recorded_episodes
from yokir_support import ENV_ID, make

GOLDEN = Path(__file__).parent / "golden"
MAX_BYTES = 200_000

EPISODES = {
    "single_seed0": ({}, 0),
    "single_seed4_points_dealer2": ({"reward_mode": "points", "dealer": 2}, 4),
    "single_seed21_dealer1": ({"dealer": 1}, 21),
    "match_seed3_target3": ({"match": True, "target_score": 3}, 3),
    "match_seed8_max_hands3": ({"match": True, "max_hands": 3}, 8),
}


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    check_golden(GOLDEN, name, make(**config), seed)


def test_golden_files_are_small_and_cover_the_phases():
    episodes = recorded_episodes(GOLDEN, EPISODES, ENV_ID, MAX_BYTES)
    endings = set()
    for episode in episodes:
        last = next(step for step in reversed(episode["steps"]) if step["action"] is not None)
        ending = (
            "terminated"
            if all(last["terminations"].values())
            else "truncated"
            if all(last["truncations"].values())
            else "open"
        )
        endings.add(ending)
    # together the episodes exercise every kind of decision and both ways a match can end
    assert {"reject", "accept", "discard", "pass", "call", "play"} <= decision_words(episodes)
    assert endings == {"terminated", "truncated"}
