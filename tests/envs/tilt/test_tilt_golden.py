"""Golden episodes of tilt_v2: seeded random-legal-play logs that must not change.

Each file under golden/ records, for every step, the acting agent, the action and its label, the
legal ids, the acting seat's observation (sha256 of the float32 bytes and its nonzero entries), a
sha256 of every seat's observation and of the acting seat's JSON view, and the rewards and
terminations after the step. Any difference is a behaviour change of the environment:
observations, actions and rules are frozen within one version.

To change behaviour on purpose: bump the env version (tilt_v2 -> tilt_v3), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/tilt/test_tilt_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cardarena.envs import make
from golden_support import check_golden, decision_words, recorded_episodes

GOLDEN = Path(__file__).parent / "golden"
MAX_BYTES = 400_000

EPISODES = {
    "default_seed0": ({}, 0),
    "six_seats_seed3": ({"num_players": 6, "dealer": 5}, 3),
    "simplified_seed4": ({"num_players": 3, "void_deck": False}, 4),
    "match_gravity_fine_seed7": (
        {"num_players": 3, "num_hands": 4, "starting_stack": 10, "void_cards": ["GRAV", "FINE", "PAYC"]},
        7,
    ),
    "armory_haul_seed1": ({"num_players": 4, "void_cards": ["ARMR", "SHAR", "HAUL"]}, 1),
    "shares_seed0": ({"num_players": 3, "void_cards": ["ARMR", "SHAR"]}, 0),
    "signal_saboteur_seed2": ({"num_players": 2, "void_cards": ["DIST", "SABO", "TRIK", "VOTE"]}, 2),
}


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    check_golden(GOLDEN, name, make("tilt_v2", **config), seed)


def test_golden_files_are_small_and_cover_every_kind_of_decision():
    kinds = decision_words(recorded_episodes(GOLDEN, EPISODES, "tilt_v2", MAX_BYTES))
    assert kinds == {"fold", "check", "call", "bet", "raise", "discard", "pass", "keep"}
