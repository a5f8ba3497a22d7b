"""Golden episodes of scarp_v1: seeded random-legal-play logs that must not change.

Each file under golden/ records every step (see tests/envs/golden_support.py). Any difference is a
behaviour change: observations, actions and rules are frozen within one version.

To change behaviour on purpose: bump the env version (scarp_v1 -> scarp_v2), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/scarp/test_scarp_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from golden_support import check_golden, decision_words, recorded_episodes
from scarp_support import ENV_ID, make

GOLDEN = Path(__file__).parent / "golden"
MAX_BYTES = 200_000

EPISODES = {
    "seed42": ({}, 42),
    "seed126": ({}, 126),
    "enemy_seed209": ({"challenge_suit": "enemy"}, 209),
    "enemy_seed50": ({"challenge_suit": "enemy"}, 50),
}


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    check_golden(GOLDEN, name, make(**config), seed)


def test_golden_files_are_small_and_cover_the_decisions():
    labels = decision_words(recorded_episodes(GOLDEN, EPISODES, ENV_ID, MAX_BYTES))
    assert {"name", "challenge", "pick", "decline", "fold"} <= labels
