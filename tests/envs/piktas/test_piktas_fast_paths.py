"""The compiled scorer and feature writer (scoring.py, features.py) agree with their plain
reference (reference.py) on the pools and exchange turns of random play, in every scoring variant.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from cardarena.envs import make
from cardarena.envs.piktas import reference, rules
from cardarena.envs.piktas.exchange import ACTION_POSITION, ACTION_SLOT, legal_exchange_ids
from cardarena.envs.piktas.features import write_exchange_features
from cardarena.envs.piktas.game import field_cards
from cardarena.envs.piktas.layout import OBSERVATION_SIZE, SLICES
from cardarena.envs.piktas.scoring import exchange_outcomes, score_pool
from cardarena.envs.piktas.state import EXCHANGE

CONFIGS = [
    {},
    {"num_players": 2, "wild_voids": True},
    {"num_players": 3, "wild_voids": True, "trump_multi_unit": False},
    {"num_players": 7, "trump_multi_unit": False},
    {"num_players": 11, "highest_unit_only": True},
]


def _exchange_turns(config: dict, episodes: int, seed: int) -> Iterator[tuple[tuple[bool, ...], list, list, int]]:
    """(scoring flags, hands, field positions, acting seat) at every exchange turn of random play."""
    env, rng = make("piktas_v1", **config), random.Random(seed)
    flags = env.game.config.scoring_flags
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        while env.state.phase == EXCHANGE:
            state = env.state
            yield (
                flags,
                [list(hand) for hand in state.hands],
                [list(stack) for stack in state.field],
                env.game.current_player(state),
            )
            env.step(rng.choice(env.game.legal_actions(state)))


def _check_pools(config: dict, episodes: int, seed: int) -> int:
    """Compare the scorers on every seat's pool at every exchange turn; return how many pools."""
    checked = 0
    for (multi, highest, wild), hands, positions, _ in _exchange_turns(config, episodes, seed):
        for hand in hands:
            items, hand_mask, full_hand_allowed = rules.pool_items(hand, field_cards(positions), highest, wild)
            compiled = score_pool(np.array(items, np.int64), hand_mask, full_hand_allowed, multi, highest)
            expected = reference.score_pool(items, hand_mask, full_hand_allowed, multi, highest)
            assert tuple(int(value) for value in compiled) == expected, (hand, positions)
            checked += 1
    return checked


def _check_exchange_turns(config: dict, episodes: int, seed: int, every: int) -> int:
    """Compare the exchange outcomes and the features written from them at every `every`-th turn."""
    checked = 0
    for turn, (flags, hands, positions, seat) in enumerate(_exchange_turns(config, episodes, seed)):
        if turn % every:
            continue
        hand = hands[seat]
        legal = np.array(legal_exchange_ids(hand, positions))
        standing, secured, full, near = exchange_outcomes(
            np.array(hand, np.int64),
            np.array(field_cards(positions), np.int64),
            np.array([position for position, stack in enumerate(positions) for _ in stack], np.int64),
            legal,
            ACTION_SLOT,
            ACTION_POSITION,
            *flags,
        )
        expected = reference.exchange_outcomes(hand, positions, legal.tolist(), *flags)
        assert (tuple(int(value) for value in standing), secured.tolist(), full.tolist(), near.tolist()) == expected
        obs = np.zeros(OBSERVATION_SIZE, np.float32)
        write_exchange_features(obs, legal, secured, full, near)
        rows = reference.exchange_features(legal.tolist(), *expected[1:])
        for name, row in rows.items():
            assert obs[SLICES[name]].tobytes() == row.tobytes(), name
        checked += 1
    return checked


@pytest.mark.parametrize("config", CONFIGS)
def test_scorer_matches_its_reference_on_played_pools(config):
    assert _check_pools(config, episodes=5, seed=100) >= 50


@pytest.mark.parametrize("config", CONFIGS)
def test_exchange_outcomes_and_features_match_their_reference(config):
    assert _check_exchange_turns(config, episodes=3, seed=200, every=2) >= 9


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_fast_paths_match_their_reference_over_many_episodes(config):
    assert _check_pools(config, episodes=100, seed=1000) >= 1000
    assert _check_exchange_turns(config, episodes=20, seed=2000, every=1) >= 100


def test_reference_reproduces_the_rulebook_pools():
    """E12, E17 and E28b (rulebook section 11) on the reference scorer."""
    codes = rules.CARDS.indices_of
    e12 = (codes(["O3", "O4", "O5", "O6", "O7", "TOW1"]), codes(["TOW2", "W1", "W3", "W5", "W7", "W9"]))
    assert reference.evaluate_ids(*e12, True, False, False) == (41, 26, 9, 7)
    assert reference.evaluate_ids(*e12, False, False, False) == (31, 22, 9, 7)
    assert reference.evaluate_ids(*e12, True, True, False) == (26, 26, 7, 7)
    e17 = (codes(["U3", "K5"]), codes(["O3", "W3", "O7", "W7", "K7", "O5"]))
    assert reference.evaluate_ids(*e17, True, False, False) == (7, 3, 5, 5)
    e28 = (codes(["O3", "O4", "O5", "O6", "TOW1", "V1"]), codes(["K9"]))
    assert reference.evaluate_ids(*e28, True, False, True) == (24, 22, 7, 6)
    assert reference.evaluate_ids(*e28, True, False, False) == (0, 0, 0, 6)


def test_closeness_counts_suits_values_neighbours_and_trump_pairs():
    """Suits 2^2 (Stone: O3, O4) + 1 (Water: W4) + 2 trumps x 2 suits; values 2 * (1 + 2^2); one pair of neighbours."""
    cards = rules.CARDS.indices_of(["O3", "O4", "W4", "TKU1", "TKU2", "V1"])
    assert reference.closeness(cards) == 2**2 + 1 + 2**2 + 2**2 + 2 * (1 + 2**2) + 3 + 4
