"""Golden episodes of antipoker_v1: seeded random-legal-play logs that must not change.

Each file under golden/ records, for every step, the acting agent, the action and its label, the
acting seat's observation (sha256 and nonzero entries), a sha256 of every seat's observation and
of the acting seat's JSON view, the legal ids, and the rewards, terminations and truncations after
the step. Any difference is a behaviour change: observations, actions and rules are frozen within
one version.

To change behaviour on purpose: bump the env version (antipoker_v1 -> antipoker_v2), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/antipoker/test_antipoker_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from antipoker_support import ENV_ID, make
from golden_support import check_golden, decision_words, recorded_episodes

GOLDEN = Path(__file__).parent / "golden"
MAX_BYTES = 200_000

EPISODES = {
    "single_seed0": ({}, 0),
    "no_betting_seed3": ({"betting": False}, 3),
    "six_players_seed5": ({"num_players": 6}, 5),
    "match_seed1_three_hands": ({"num_players": 3, "num_hands": 3, "ante": 2, "bet_size": 3, "max_bets": 2}, 1),
}


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    check_golden(GOLDEN, name, make(**config), seed)


def test_golden_files_are_small_and_cover_every_kind_of_move():
    labels = decision_words(recorded_episodes(GOLDEN, EPISODES, ENV_ID, MAX_BYTES))
    assert {"pick", "done", "check", "bet", "call", "raise", "fold"} <= labels
