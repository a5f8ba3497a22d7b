"""Golden episodes of piktas_v1: seeded random-legal-play logs that must not change.

Each file under golden/ records, for every step, the acting agent, the action and its label, the
legal ids, the acting seat's observation (sha256 of the float32 bytes and its nonzero entries), a
sha256 of every seat's observation and of the acting seat's JSON view, and the rewards and
terminations after the step (an eliminated agent's step with None is logged too). Any difference
is a behaviour change of the environment: observations, actions and rules are frozen within one
version.

To change behaviour on purpose: bump the env version (piktas_v1 -> piktas_v2), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/piktas/test_piktas_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from golden_support import check_golden, decision_words, recorded_episodes
from piktas_env_support import ENV_ID, make

GOLDEN = Path(__file__).parent / "golden"
MAX_BYTES = 300_000

EPISODES = {
    "casual_seed0": ({}, 0),
    "casual_win_match_seed3": ({"num_players": 3, "num_hands": 2, "reward_mode": "win", "dealer": 2}, 3),
    "gambling_seed5": ({"num_players": 3, "mode": "gambling"}, 5),
    "gambling_match_seed8": ({"num_players": 5, "mode": "gambling", "num_hands": 4, "starting_stack": 20}, 8),
    "eleven_variants_seed2": ({"num_players": 11, "wild_voids": True, "trump_multi_unit": False}, 2),
    "two_no_voids_seed4": ({"num_players": 2, "use_voids": False, "highest_unit_only": True}, 4),
}


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    check_golden(GOLDEN, name, make(**config), seed)


def test_golden_files_are_small_and_cover_every_kind_of_decision():
    episodes = recorded_episodes(GOLDEN, EPISODES, ENV_ID, MAX_BYTES)
    eliminated = False
    for episode in episodes:
        decisions = [n for n, step in enumerate(episode["steps"]) if step["action"] is not None]
        eliminated |= any(step["action"] is None for step in episode["steps"][: decisions[-1]])
        assert all(episode["steps"][decisions[-1]]["terminations"].values())
        assert episode["steps"][-1]["terminations"] == {}
    # together the episodes exercise every kind of decision and an elimination in a match
    assert decision_words(episodes, ":") == {"pass", "swap", "void", "stay", "match", "raise", "fold"}
    assert eliminated
