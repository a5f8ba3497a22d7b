"""Antipoker's compiled hand evaluator (evaluator.py) against the plain reference in the package
(evaluator_reference.py), over the hands of random play: every part, every effective value and the
observation's value features."""

from __future__ import annotations

import random

import numpy as np
import pytest
from cardarena.envs.antipoker import evaluator, evaluator_reference, rules
from cardarena.envs.antipoker.encode import _LOG_LARGEST as LOG_LARGEST
from cardarena.envs.antipoker.game import AntipokerConfig, AntipokerGame
from cardarena.envs.core.decks.scarp import DECK


def dealt_hands(episodes: int, seed: int) -> set[tuple[int, ...]]:
    """Every hand held in every state of random episodes over every conformance mode and 2 to 6 seats."""
    rng = random.Random(seed)
    hands: set[tuple[int, ...]] = set()
    for episode in range(episodes):
        mode = AntipokerGame.conformance_modes[episode % len(AntipokerGame.conformance_modes)]
        game = AntipokerGame(AntipokerConfig(num_players=rng.randint(2, 6), **mode))
        state = game.new_state(rng.randrange(1 << 30))
        while True:
            hands.update(tuple(hand) for hand in state.hands)
            if game.current_player(state) < 0:
                break
            game.apply(state, rng.choice(game.legal_actions(state)))
    return hands


def assert_like_reference(hands: set[tuple[int, ...]]) -> None:
    for cards in sorted(hands):
        row = np.array(rules.hand_row(cards), np.int64)
        assert tuple(int(part) for part in rules.breakdowns(row)[0]) == evaluator_reference.parts(cards), cards
        values = [int(value) for value in evaluator.effective_values(row)[: len(cards)]]
        codes = [DECK.codes[card] for card in cards]
        assert values == [evaluator_reference.effective_value(code, codes) for code in codes], cards
        expected = np.array(evaluator_reference.value_features(cards, LOG_LARGEST), np.float32)
        assert evaluator.value_features(row, LOG_LARGEST).tobytes() == expected.tobytes(), cards


def test_evaluator_matches_the_reference_on_dealt_hands():
    hands = dealt_hands(episodes=30, seed=1)
    assert len(hands) > 300
    assert_like_reference(hands)


def test_evaluator_matches_the_reference_on_special_cards():
    """Essences and the Ghost drawn often: Essence sets, doubled values and Forces with the Ghost."""
    rng = random.Random(2)
    specials = [DECK.index_of(code) for code in ("SUN", "STONE", "KNIFE", "ROSE", "GHOST")]
    numbered = [card for card in range(len(DECK.codes)) if card not in specials]
    hands = set()
    for _ in range(400):
        chosen = rng.sample(specials, rng.randint(1, 5))
        hands.add(tuple(sorted(chosen + rng.sample(numbered, 6 - len(chosen)))))
    assert_like_reference(hands)


@pytest.mark.slow
def test_many_dealt_hands_match_the_reference():
    hands = dealt_hands(episodes=400, seed=10)
    assert len(hands) > 3000
    assert_like_reference(hands)
