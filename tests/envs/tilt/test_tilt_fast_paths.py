"""Tilt's fast paths against the plain references beside them, over states of real random play:
the compiled observation (`TiltEncoder.observation`) against `reference_observation`, bit for bit,
and the evaluator's hand tables (`tabled_key`) against the computed key (`computed_key`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest
from cardarena.envs.tilt import evaluator, rules
from cardarena.envs.tilt.encode import COMPILED, TiltEncoder
from cardarena.envs.tilt.game import TiltGame
from cardarena.envs.tilt.layout import SLICES
from cardarena.envs.tilt.observation_reference import reference_observation
from cardarena.envs.tilt.state import TiltState
from tilt_env_support import tilt

# table sizes, the simplified game, a match of short stacks, and Hazard sets that make each table
# card, table size, card-set row and exchange kind common
VARIANTS = {
    "2 seats": {"num_players": 2},
    "4 seats": {"num_players": 4},
    "6 seats": {"num_players": 6},
    "3 seats, no Void deck": {"num_players": 3, "void_deck": False},
    "5 seats, match of short stacks": {"num_players": 5, "num_hands": 8, "starting_stack": 9, "max_bets": 3},
    "six-card table": {"num_players": 3, "void_cards": ["STSH", "DIST", "TRST"]},
    "three-card table": {"num_players": 4, "void_cards": ["ENGB", "JUMP", "TEAM"]},
    "Haul grid": {"num_players": 3, "void_cards": ["HAUL", "ARMR", "BINY"]},
    "Tariffs and Chicken": {"num_players": 4, "void_cards": ["TAXS", "CHKN", "FINE"]},
    "Shares and Saboteur": {"num_players": 5, "void_cards": ["SHAR", "SABO", "GALY"]},
    "wild and reversed cards": {"num_players": 4, "void_cards": ["MUTI", "BINY", "EXPD", "HULL"]},
    "Armory, Trick, Vote, Paycheck": {"num_players": 3, "void_cards": ["ARMR", "TRIK", "VOTE", "PAYC", "LEAK"]},
    "Gravity in a match": {"num_players": 4, "num_hands": 5, "void_cards": ["GRAV", "FINE", "MUTI"]},
}


def random_play(game: TiltGame, seed: int) -> Iterator[TiltState]:
    """Every state of random legal episodes from `seed` on, terminal ones included."""
    rng = random.Random(seed)
    while True:
        state = game.new_state(rng.randrange(1 << 30))
        yield state
        while not state.terminal:
            game.apply(state, rng.choice(game.legal_actions(state)))
            yield state


def observed(game: TiltGame, seed: int, count: int) -> Iterator[tuple[TiltState, int]]:
    """`count` (state, seat) pairs of random play: every seat, at every state."""
    seen = 0
    for state in random_play(game, seed):
        for seat in range(game.num_players):
            yield state, seat
            seen += 1
            if seen == count:
                return


def differing_segments(fast: np.ndarray, reference: np.ndarray) -> list[str]:
    return [name for name, piece in SLICES.items() if fast[piece].tobytes() != reference[piece].tobytes()]


def check_observations(settings: dict, seed: int, count: int) -> None:
    COMPILED.wait()  # the compiled writers, not the reference they stand in for while compiling
    game = tilt(**settings)
    encoder = TiltEncoder(game)
    card_decisions = 0
    for state, seat in observed(game, seed, count):
        fast, reference = encoder.observation(state, seat), reference_observation(game, state, seat)
        assert fast.dtype == reference.dtype == np.float32
        assert fast.tobytes() == reference.tobytes(), (seat, state.phase, differing_segments(fast, reference))
        card_decisions += state.phase in ("exchange", "sabotage", "share_pass", "share_discard", "haul")
    assert card_decisions  # the card-set features were compared too


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_observation_is_the_reference(variant):
    check_observations(VARIANTS[variant], seed=7, count=1200)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_observation_is_the_reference_over_thousands_of_states(variant):
    check_observations(VARIANTS[variant], seed=2024, count=5000)


def played_hands(settings: dict, seed: int, count: int) -> Counter[tuple[tuple[int, ...], int]]:
    """Three- and four-card hands (sorted by card index) with the flags they were formed under,
    from every seat's candidate hands over random play: how often each came up."""
    game = tilt(**settings)
    hands: Counter[tuple[tuple[int, ...], int]] = Counter()
    for state, seat in observed(game, seed, count):
        own = game.own_cards(state, seat)
        flags = game.hazard_flags(state)
        table = rules.table_size(flags)
        if not own or table == 6:
            continue
        shared = state.chicken if state.revealed else []
        for hand in evaluator.candidate_hands(own, table, shared, state.tariffs, state.grid):
            if len(hand) in (3, 4):
                hands[tuple(sorted(hand)), flags] += 1
    return hands


def check_tables(variants: list[str], seed: int, count: int, tables: int, monkeypatch) -> None:
    """The `tables` most met (flags, size) tables, built fresh, give every played hand of theirs
    the computed key."""
    monkeypatch.setattr(evaluator, "_TABLES", {})
    hands: Counter[tuple[tuple[int, ...], int]] = Counter()
    for variant in variants:
        hands.update(played_hands(VARIANTS[variant], seed, count))
    met = Counter()
    for (hand, flags), times in hands.items():
        met[flags, len(hand)] += times
    chosen = {entry for entry, _ in met.most_common(tables)}
    checked = Counter()
    for hand, flags in hands:
        if (flags, len(hand)) in chosen and not (flags & rules.ENGB and len(hand) == 4):
            evaluator.hand_keys(flags, len(hand))
            assert evaluator.tabled_key(hand, flags) == evaluator.computed_key(hand, flags, rules.table_size(flags))
            checked[len(hand)] += 1
    assert checked[3] and checked[4]


def test_the_hand_tables_give_the_computed_keys(monkeypatch):
    variants = ["4 seats", "three-card table", "wild and reversed cards", "Tariffs and Chicken", "Haul grid"]
    check_tables(variants, seed=11, count=300, tables=8, monkeypatch=monkeypatch)


@pytest.mark.slow
def test_the_hand_tables_give_the_computed_keys_over_thousands_of_states(monkeypatch):
    check_tables(list(VARIANTS), seed=99, count=3000, tables=40, monkeypatch=monkeypatch)
