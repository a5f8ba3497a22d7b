"""Golden episodes of paradigm_v2: seeded random-legal-play logs that must not change.

Each file under golden/ records every step (golden_support.py). Any difference is a behaviour
change of the environment: observations, actions and rules are frozen within one version.

To change behaviour on purpose: bump the env version (paradigm_v2 -> paradigm_v3), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/paradigm/test_paradigm_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from golden_support import check_golden, decision_words, recorded_episodes
from paradigm_support import ENV_ID, make

GOLDEN = Path(__file__).parent / "golden"
MAX_BYTES = 400_000

EPISODES = {
    "two_seats_seed0": ({"num_players": 2}, 0),
    "three_seats_seed5": ({"num_players": 3}, 5),
    "four_seats_seed7": ({}, 7),
}


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    check_golden(GOLDEN, name, make(**config), seed)


def test_golden_files_are_small_and_cover_the_decisions():
    labels = decision_words(recorded_episodes(GOLDEN, EPISODES, ENV_ID, MAX_BYTES))
    assert {"suit", "hand", "new_pile", "on_top", "play", "pass"} <= labels
