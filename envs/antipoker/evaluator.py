"""The compiled Antipoker hand evaluator: the fast implementation of the hand value (rules.breakdowns).

It mirrors evaluator_reference.py, the plain hand value a reader learns the rule from: `row_parts`
gives that module's `parts`, `effective_values` its `effective_value` for each card.

Kept apart from rules.py so that importing the game loads no numba: rules.py imports it the
first time a hand is valued. A hand is a row of six deck indices padded with NO_CARD.
"""

from __future__ import annotations

import numpy as np
from cardarena.envs.core.decks.scarp import DECK, ESSENCE, GHOST, NUMBER_INDEX, SUIT_INDEX, SUITS
from numba import njit

from .rows import NO_CARD

NUM_SUITS = len(SUITS)
GHOST_INDEX = DECK.index_of(GHOST)
FACE = np.array([*NUMBER_INDEX, 0], dtype=np.int64)
SUIT = np.array([*(s if s >= 0 else NUM_SUITS for s in SUIT_INDEX), NUM_SUITS], dtype=np.int64)  # NUM_SUITS: none
IS_ESSENCE = np.isin(np.arange(NO_CARD + 1), [DECK.index_of(code) for code in ESSENCE.values()]).astype(np.int64)
IS_WHITE = np.array([1 if suit in ("L", "D") else 0 for suit in SUITS] + [0], dtype=np.int64)
IS_BLACK = np.array([1 if suit in ("S", "H") else 0 for suit in SUITS] + [0], dtype=np.int64)
ESSENCE_VALUE = 10  # an Essence's value in an Essence triple or quad (R15)


@njit("int64(int64, int64)", cache=True)  # one compile for constant and computed counts alike
def _force(count, total):
    """A colour's Force: x3 for five cards, x4 for six (R12)."""
    if count == 5:
        return 3 * total
    if count == 6:
        return 4 * total
    return 0


@njit("int64(int64, int64)", cache=True)  # one compile for constant and computed counts alike
def _set(count, total):
    """A triple is worth its sum squared, a quad its sum cubed (R14, R15)."""
    if count == 3:
        return total * total
    if count == 4:
        return total * total * total
    return 0


@njit(cache=True)
def _doublings(row):
    """The Ghost's factor (1 or 2) and, per suit, 1 where its Essence is held."""
    ghost = 1
    held = np.zeros(NUM_SUITS + 1, dtype=np.int64)
    for card in row:
        if card == GHOST_INDEX:
            ghost = 2
        if IS_ESSENCE[card]:
            held[SUIT[card]] = 1
    return ghost, held


@njit(cache=True)
def _effective(card, ghost, held):
    """A card's effective value: its face doubled by its suit's Essence (R7), then by the Ghost (R8); 0 without
    a face."""
    return FACE[card] * (1 + held[SUIT[card]]) * ghost


@njit(cache=True)
def effective_values(row):
    """The effective value of each card of one hand."""
    ghost, held = _doublings(row)
    values = np.zeros(row.shape[0], dtype=np.int64)
    for k in range(row.shape[0]):
        values[k] = _effective(row[k], ghost, held)
    return values


@njit(cache=True)
def row_parts(row, out):
    """Write the (cards, force, elements, sets) parts of one hand into `out`."""
    ghost, held = _doublings(row)
    essences = 0
    for card in row:
        essences += IS_ESSENCE[card]
    suit_count = np.zeros(NUM_SUITS + 1, dtype=np.int64)
    suit_value = np.zeros(NUM_SUITS + 1, dtype=np.int64)
    face_count = np.zeros(11, dtype=np.int64)
    face_value = np.zeros(11, dtype=np.int64)
    cards = 0
    for card in row:
        suit, face = SUIT[card], FACE[card]
        value = _effective(card, ghost, held)
        cards += value
        suit_count[suit] += 1
        suit_value[suit] += value
        face_count[face] += 1
        face_value[face] += value
    white_count = black_count = white_value = black_value = elements = 0
    for suit in range(NUM_SUITS):
        white_count += IS_WHITE[suit] * suit_count[suit]
        white_value += IS_WHITE[suit] * suit_value[suit]
        black_count += IS_BLACK[suit] * suit_count[suit]
        black_value += IS_BLACK[suit] * suit_value[suit]
        if suit_count[suit] >= 3:
            elements += suit_count[suit] * suit_value[suit]
    sets = _set(essences, essences * ESSENCE_VALUE * ghost)
    for face in range(1, 11):
        sets += _set(face_count[face], face_value[face])
    out[0] = cards
    out[1] = _force(white_count, white_value) + _force(black_count, black_value)
    out[2] = elements
    out[3] = sets


@njit(cache=True)
def breakdowns(hands):
    """The parts of each row of `hands` (int64, rows x 6), as an int64 array rows x 4."""
    out = np.zeros((hands.shape[0], 4), dtype=np.int64)
    for k in range(hands.shape[0]):
        row_parts(hands[k], out[k])
    return out


@njit(cache=True)
def hand_values(hands):
    """The total value of each row of `hands`."""
    parts = breakdowns(hands)
    return parts.sum(axis=1)


@njit(cache=True)
def value_features(row, log_largest):
    """One hand's value segment of the observation: log1p of its total, then of each part, over
    `log_largest`, capped at 1 (float32). Mirrors `evaluator_reference.value_features`."""
    parts = np.zeros(4, dtype=np.int64)
    row_parts(row, parts)
    features = np.empty(5, dtype=np.float32)
    features[0] = min(np.log1p(parts.sum()) / log_largest, 1.0)
    for k in range(4):
        features[k + 1] = min(np.log1p(parts[k]) / log_largest, 1.0)
    return features
