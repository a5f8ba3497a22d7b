"""Dividha's fast paths against the plain references in the package, over states of random play:
the compiled evaluator (evaluator.py) against evaluator_reference.py, the encoder and its compiled
writer (encode.py, table_writer.py) against observation_reference.py, bit for bit."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from cardarena.envs.dividha import evaluator_reference, observation_reference, rules
from cardarena.envs.dividha.encode import DividhaEncoder
from cardarena.envs.dividha.game import DividhaConfig, DividhaGame
from cardarena.envs.dividha.state import EMPTY, DividhaState


def random_episodes(episodes: int, seed: int) -> Iterator[tuple[DividhaGame, list[DividhaState]]]:
    """Random episodes over every conformance mode and 2 to 7 seats: the game and every state, the end included.
    The compiled evaluator is ready first: it, not the reference it stands in for while compiling, is compared."""
    rules.COMPILED.wait()
    rng = random.Random(seed)
    for episode in range(episodes):
        mode = DividhaGame.conformance_modes[episode % len(DividhaGame.conformance_modes)]
        game = DividhaGame(DividhaConfig(num_players=rng.randint(2, 7), **mode))
        state = game.new_state(rng.randrange(1 << 30))
        states = [game.clone(state)]
        while game.current_player(state) >= 0 and len(states) < 300:
            game.apply(state, rng.choice(game.legal_actions(state)))
            states.append(game.clone(state))
        yield game, states


def bits(vector: np.ndarray) -> np.ndarray:
    return np.asarray(vector, np.float32).view(np.uint32)


def assert_observations_match(episodes: int, seed: int) -> int:
    """Observe every seat of every state in play order with one encoder per game; the count of observations."""
    observed = 0
    for game, states in random_episodes(episodes, seed):
        encoder = DividhaEncoder(game)
        for state in states:
            for seat in range(game.num_players):
                expected = observation_reference.observation(game, state, seat)
                assert np.array_equal(bits(encoder.observation(state, seat)), bits(expected)), (game.config, seat)
                observed += 1
    return observed


def assert_evaluator_matches(episodes: int, seed: int) -> int:
    """Every seat's cards in every state, under both Divine Intervention settings; the count of hands."""
    hands = {
        tuple(card for card in slots if card != EMPTY)
        for _, states in random_episodes(episodes, seed)
        for state in states
        for slots in state.cards
        if any(card != EMPTY for card in slots)
    }
    for cards in sorted(hands):
        for divine in (False, True):
            packed, shown = rules.showdown_ids(cards, divine)
            expected_key, expected_shown = evaluator_reference.showdown(cards, divine)
            assert (rules.unpack_key(packed), shown) == (expected_key, expected_shown), (cards, divine)
            assert rules.pack_key(expected_key) == packed
            assert rules.is_legal_ids(cards, divine) == evaluator_reference.is_legal(cards, divine)
    return len(hands)


def test_encoder_matches_the_reference_bit_for_bit():
    assert assert_observations_match(episodes=12, seed=1) > 600


def test_evaluator_matches_the_reference_on_dealt_hands():
    assert assert_evaluator_matches(episodes=12, seed=2) > 200


def test_encoder_matches_the_reference_observing_out_of_order():
    rng = random.Random(3)
    for game, states in random_episodes(episodes=4, seed=3):
        encoder = DividhaEncoder(game)
        for state in rng.sample(states, min(len(states), 60)):
            seat = rng.randrange(game.num_players)
            expected = observation_reference.observation(game, state, seat)
            assert np.array_equal(bits(encoder.observation(state, seat)), bits(expected))


def test_a_state_edited_in_place_is_observed_afresh():
    """The encoder keeps no value by the state's identity: editing its cards, trades and actions in
    place and observing again gives what a fresh encoder gives."""
    game, state = next(
        (game, state)
        for game, states in random_episodes(episodes=6, seed=4)
        for state in states
        if state.bets is not None and state.cards and state.cards[0][2] != EMPTY
    )
    encoder = DividhaEncoder(game)
    before = encoder.observation(state, 0).copy()
    spare = next(card for card in state.stock if card not in state.cards[0])
    state.cards[0][0] = spare
    state.cards[1][2], state.cards[1][3] = state.cards[1][3], state.cards[1][2]
    state.actions.append([1, state.betting_round, "raise", 2, 0, state.stacks[1]])
    after = encoder.observation(state, 0)
    fresh = DividhaEncoder(game).observation(state, 0)
    assert np.array_equal(bits(after), bits(fresh))
    assert np.array_equal(bits(after), bits(observation_reference.observation(game, state, 0)))
    assert not np.array_equal(bits(after), bits(before))
    state.trades[1] = 0
    state.discards[1] = [state.cards[1][0]]
    assert np.array_equal(bits(encoder.observation(state, 0)), bits(DividhaEncoder(game).observation(state, 0)))


@pytest.mark.slow
def test_many_states_match_the_references():
    assert assert_observations_match(episodes=80, seed=10) > 5000
    assert assert_evaluator_matches(episodes=160, seed=11) > 3000
