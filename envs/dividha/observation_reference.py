"""Dividha's observation written plainly from the state: the reference that the encoder (encode.py)
and its compiled writer (table_writer.py) mirror, bit for bit.

Read this to learn what each segment holds (layout.py lists them; docs/games/dividha.md tables
them): every segment is set here in its own few lines, seats counted clockwise from the observer
("rel" seats), chips divided by the chips at the table. The seat's best hand comes from the plain
evaluator (evaluator_reference.py).
"""

from __future__ import annotations

import numpy as np

from . import evaluator_reference
from .actions import TRADE_CHOICES
from .game import MIN_PLAYERS, NUM_CARDS, DividhaGame, public_discards
from .layout import (
    ALL_IN_AT,
    ANTE_AT,
    BETS_MADE_AT,
    CALLS_AT,
    CATEGORY_AT,
    COUNT_SCALE,
    CURRENT_BET_AT,
    DEALER_AT,
    FOLDED_AT,
    FORFEIT_AT,
    GONE_AT,
    HAND_NUMBER_AT,
    HAS_TRADED_AT,
    HELD_AT,
    HIGH_SCALE,
    IMMORTAL_SCALE,
    IN_MATCH_AT,
    IN_ROUND_AT,
    KEY_AT,
    MATCH_AT,
    MIN_RAISE_AT,
    OBSERVATION_SIZE,
    OWN_AT,
    PAID_AT,
    PHASE_AT,
    POT_AT,
    PUBLIC_AT,
    RAISE_SIZES_AT,
    RAISES_AT,
    ROUND_AT,
    STACKS_AT,
    SUM_SCALE,
    TABLE_SIZE_AT,
    TABLET_AT,
    TO_ACT_AT,
    TO_CALL_AT,
    TRADED_SLOTS_AT,
)
from .state import EMPTY, NUM_SLOTS, PUBLIC_SLOTS, TRADING, DividhaState


def observation(game: DividhaGame, state: DividhaState, seat: int) -> np.ndarray:
    """The float32 observation of `seat`: its card segments, then the table's numbers."""
    vector = np.zeros(OBSERVATION_SIZE, np.float32)
    card_segments(game, state, seat, vector)
    table_numbers(game, state, seat, vector)
    return vector


def card_segments(game: DividhaGame, state: DividhaState, seat: int, vector: np.ndarray) -> None:
    """Write the segments that change only when cards move: table size and match flag, own and
    public cards, the own best hand, who traded which slots, the cards known gone."""
    n = game.num_players
    vector[TABLE_SIZE_AT + n - MIN_PLAYERS] = 1.0
    vector[MATCH_AT] = float(game.config.match)
    if state.cards:
        own = state.cards[seat]
        for slot, card in enumerate(own):
            if card != EMPTY:
                vector[OWN_AT + slot * NUM_CARDS + card] = 1.0
        for r in range(n):
            for slot in PUBLIC_SLOTS:
                card = state.cards[(seat + r) % n][slot]
                if card != EMPTY:
                    vector[PUBLIC_AT + r * NUM_CARDS + card] = 1.0
        held = [card for card in own if card != EMPTY]
        vector[HELD_AT] = len(held) / NUM_SLOTS
        if held:
            category, providence, immortal, total, high = evaluator_reference.showdown(
                held, game.config.divine_intervention
            )[0]
            vector[CATEGORY_AT + category] = 1.0
            vector[KEY_AT] = providence
            vector[KEY_AT + 1] = immortal / IMMORTAL_SCALE
            vector[KEY_AT + 2] = min(total / SUM_SCALE, 1.0)
            for place, value in enumerate(high):
                vector[KEY_AT + 3 + place] = value / HIGH_SCALE
    for r in range(n):
        other = (seat + r) % n
        choice = state.trades[other] if state.trades else -1
        if choice < 0:
            continue
        vector[HAS_TRADED_AT + r] = 1.0
        for slot in TRADE_CHOICES[choice]:
            vector[TRADED_SLOTS_AT + 4 * r + slot] = 1.0
        for card in state.discards[seat] if other == seat else public_discards(state, other):
            vector[GONE_AT + card] = 1.0


def table_numbers(game: DividhaGame, state: DividhaState, seat: int, vector: np.ndarray) -> None:
    """Write the table's numbers: phase, dealer, seat to act, chips, counts, the open betting round."""
    config, n = game.config, game.num_players
    per_chip = 1.0 / (config.starting_stack * n)  # multiplied, not divided by: the encoder's float64 rounding
    vector[PHASE_AT + state.phase] = 1.0
    vector[DEALER_AT + (state.dealer - seat) % n] = 1.0
    raises, calls = [0] * n, [0] * n
    for actor, _, kind, *_ in state.actions:
        if kind == "raise":
            raises[actor] += 1
        elif kind == "call":
            calls[actor] += 1
    bets = state.bets
    for other in range(n):
        r = (other - seat) % n
        vector[STACKS_AT + r] = state.stacks[other] * per_chip
        vector[PAID_AT + r] = state.paid[other] * per_chip
        if bets is not None:
            vector[IN_ROUND_AT + r] = bets.contributions[other] * per_chip
        if state.in_match[other]:
            vector[IN_MATCH_AT + r] = 1.0
            if state.folded[other]:
                vector[FOLDED_AT + r] = 1.0
            elif state.stacks[other] == 0:
                vector[ALL_IN_AT + r] = 1.0
        vector[RAISES_AT + r] = min(raises[other] / COUNT_SCALE, 1.0)
        vector[CALLS_AT + r] = min(calls[other] / COUNT_SCALE, 1.0)
    vector[TABLET_AT] = state.win[seat] * per_chip
    vector[TABLET_AT + 1] = state.lose[seat] * per_chip
    vector[POT_AT] = state.pot * per_chip
    vector[FORFEIT_AT] = state.forfeit * per_chip
    if bets is not None:
        to_act = bets.to_act[0]
        cap = config.max_bets if config.limit == "fixed" else COUNT_SCALE
        vector[ROUND_AT + state.betting_round] = 1.0
        vector[TO_ACT_AT + (to_act - seat) % n] = 1.0
        vector[TO_CALL_AT] = (bets.current_bet - bets.contributions[seat]) * per_chip
        vector[CURRENT_BET_AT] = bets.current_bet * per_chip
        vector[MIN_RAISE_AT] = bets.min_raise * per_chip
        vector[BETS_MADE_AT] = min(bets.bets / cap, 1.0)
        if to_act == seat:
            for option, chips in enumerate(game.decision(state).raise_sizes):
                vector[RAISE_SIZES_AT + option] = chips * per_chip
    if state.phase == TRADING:
        vector[TO_ACT_AT + (game.current_player(state) - seat) % n] = 1.0
    vector[ANTE_AT] = min(state.ante / config.starting_stack, 1.0)
    if config.match:
        vector[HAND_NUMBER_AT] = state.hand_number / config.max_hands
