"""Golden episodes of dividha_v1: seeded random-legal-play logs that must not change.

Each file under golden/ records, for every step, the acting agent, the action and its label, the
legal ids, the acting seat's observation (sha256 of the float32 bytes and its nonzero entries), a
sha256 of every seat's observation and of the acting seat's JSON view, and the rewards and
terminations after the step (an eliminated agent's step with None is logged too). Any difference
is a behaviour change of the environment: observations, actions and rules are frozen within one
version.

To change behaviour on purpose: bump the env version (dividha_v1 -> dividha_v2), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/dividha/test_dividha_golden.py
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
    "two_no_limit_wager_seed3": ({"num_players": 2, "limit": "no", "demons_wager": True, "all_in_unsplit": True}, 3),
    "seven_pot_paid_trades_seed5": (
        {"num_players": 7, "limit": "pot", "pay_to_trade": True, "divine_intervention": True},
        5,
    ),
    "match_seed8": (
        {"num_players": 3, "match": True, "starting_stack": 12, "ante_increase_every": 2, "limit": "no", "dealer": 1},
        8,
    ),
}


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    check_golden(GOLDEN, name, make("dividha_v1", **config), seed)


def test_golden_files_are_small_and_cover_every_kind_of_decision():
    episodes = recorded_episodes(GOLDEN, EPISODES, "dividha_v1", MAX_BYTES)
    for episode in episodes:
        assert episode["steps"][-1]["terminations"] == {}
    decisions = [[n for n, step in enumerate(episode["steps"]) if step["action"] is not None] for episode in episodes]
    assert decision_words(episodes) == {"fold", "check", "call", "raise", "trade"}
    assert any(
        step["action"] is None for episode, made in zip(episodes, decisions) for step in episode["steps"][: made[-1]]
    )
