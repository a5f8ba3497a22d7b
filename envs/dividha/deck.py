"""The Dividha deck and the packed hand key (rulebook 2, 5.4): constants and per-card tables.

Kept apart from evaluator.py so that importing the game loads no numba: the compiled evaluator
loads on first use (rules.py imports it inside its index-level functions).

Deck index layout (2.2): Humans 0-9, Demi-Humans 10-19, Beasts 20-29 (ranks A K Q J 7 6 5 4 3 2
each), Heaven 30-41 (A K Q J 7 6V1 6V2 6V3 5 4 3 2), Hell 42-53 (A K Q J 7 MIN RAL SAN 5 4 3 2),
then GOD 54 and SATAN 55.

A hand key is packed into one int64 so that integer order is key order (5.4):
`category << 30 | providence << 29 | immortal << 26 | majority_sum << 20 | high`, where `high`
holds the five high values in 4-bit fields from the top (bits 16-19 for the highest card), 0 for
a missing card: a shorter tuple that is a prefix of a longer one packs smaller, as in tuple order.
"""

from __future__ import annotations

import numpy as np

SUITS = "HDBVL"
MORTAL_SUITS = "HDB"
RANKS = "AKQJ765432"
HIGH_VALUES = (14, 13, 12, 11, 7, 6, 5, 4, 3, 2)  # per rank of RANKS (2.3)
SUM_VALUES = (1, 10, 9, 8, 7, 6, 5, 4, 3, 2)
HEAVEN_SIXES = ("6V1", "6V2", "6V3")
THE_THREE_CODES = ("MIN", "RAL", "SAN")


def _suit_codes(suit: str, sixes: tuple[str, ...] = ()) -> list[str]:
    codes = [rank + suit for rank in RANKS]
    return codes[:5] + list(sixes) + codes[6:] if sixes else codes


DECK: tuple[str, ...] = tuple(
    [code for suit in MORTAL_SUITS for code in _suit_codes(suit)]
    + _suit_codes("V", HEAVEN_SIXES)
    + _suit_codes("L", THE_THREE_CODES)
    + ["GOD", "SATAN"]
)
DECK_SIZE = len(DECK)  # 56
FIRST_HEAVEN, FIRST_HELL = DECK.index("AV"), DECK.index("AL")  # 30, 42
GOD, SATAN = DECK.index("GOD"), DECK.index("SATAN")  # 54, 55
DEUCE_OF_HEAVEN, DEUCE_OF_HELL = DECK.index("2V"), DECK.index("2L")  # 41, 53
THE_THREE = tuple(DECK.index(code) for code in THE_THREE_CODES)  # 47, 48, 49
HEAVEN_SIDE = tuple(range(FIRST_HEAVEN, FIRST_HELL)) + (GOD,)
HELL_SIDE = tuple(range(FIRST_HELL, GOD)) + (SATAN,)
MAX_HAND = 5  # cards played at most
MAX_CARDS = 6  # cards held at showdown

CATEGORY_NAMES = (
    "High Card",
    "One Pair",
    "Two Pair",
    "Three-of-a-Kind",
    "Straight",
    "Pure",
    "Full House",
    "Four-of-a-Kind",
    "Pure Straight",
    "Five-of-a-Kind",
    "Pureblood Straight",
    "Pure Five-of-a-Kind",
    "Divine Intervention",
)
(
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    PURE,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    PURE_STRAIGHT,
    FIVE_OF_A_KIND,
    PUREBLOOD_STRAIGHT,
    PURE_FIVE_OF_A_KIND,
    DIVINE_INTERVENTION,
) = range(13)

CATEGORY_SHIFT, PROVIDENCE_SHIFT, IMMORTAL_SHIFT, SUM_SHIFT = 30, 29, 26, 20
HIGH_FIELD_BITS = 4
DIVINE_KEY = DIVINE_INTERVENTION << CATEGORY_SHIFT | 1 << PROVIDENCE_SHIFT | 2 << IMMORTAL_SHIFT

NO_SUIT = -1
MORTAL, HEAVEN, HELL = 0, 1, 2  # sides
SUIT_OF_HELL = SUITS.index("L")
ACE_HIGH, ACE_LOW, DEUCE = 14, 1, 2
ACE_SUM, DEUCE_SUM = 1, 2


def _rank_mask(values: tuple[int, ...]) -> int:
    return sum(1 << value for value in values)


_RUN = (14, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14)  # A 2 3 4 5 6 7 J Q K A (2.3)
STRAIGHT_MASKS = np.array([_rank_mask(_RUN[i : i + 5]) for i in range(7)], np.int64)
ACE_LOW_STRAIGHT = int(STRAIGHT_MASKS[0])
PUREBLOOD_MASK = int(STRAIGHT_MASKS[6])
WILD_RANKS = np.array(HIGH_VALUES, np.int64)


def _card_tables() -> tuple[np.ndarray, ...]:
    """Per deck index: high value, sum value, suit (NO_SUIT for the wild cards), side."""
    high = np.zeros(DECK_SIZE, np.int64)
    total = np.zeros(DECK_SIZE, np.int64)
    suit = np.full(DECK_SIZE, NO_SUIT, np.int64)
    side = np.full(DECK_SIZE, MORTAL, np.int64)
    for index, code in enumerate(DECK[:GOD]):
        rank = "6" if code in HEAVEN_SIXES + THE_THREE_CODES else code[0]
        high[index] = HIGH_VALUES[RANKS.index(rank)]
        total[index] = SUM_VALUES[RANKS.index(rank)]
        suit[index] = SUITS.index("V" if code in HEAVEN_SIXES else "L" if code in THE_THREE_CODES else code[-1])
    side[list(HEAVEN_SIDE)] = HEAVEN
    side[list(HELL_SIDE)] = HELL
    return high, total, suit, side


HIGH, SUM, SUIT, SIDE = _card_tables()


def pack_key(key: tuple[int, int, int, int, tuple[int, ...]]) -> int:
    """The packed key of a key tuple (category, providence, immortal, majority_sum, high): an int
    whose order is the tuples' order, the high values four bits each, highest place first."""
    category, providence, immortal, majority_sum, high = key
    fields = 0
    for place in range(MAX_HAND):
        fields = fields << HIGH_FIELD_BITS | (high[place] if place < len(high) else 0)
    return (
        category << CATEGORY_SHIFT
        | providence << PROVIDENCE_SHIFT
        | immortal << IMMORTAL_SHIFT
        | majority_sum << SUM_SHIFT
        | fields
    )


def unpack_key(packed: int) -> tuple[int, int, int, int, tuple[int, ...]]:
    """The key tuple (category, providence, immortal, majority_sum, high) of a packed key."""
    fields = [packed >> (HIGH_FIELD_BITS * place) & 0xF for place in range(MAX_HAND - 1, -1, -1)]
    return (
        packed >> CATEGORY_SHIFT,
        packed >> PROVIDENCE_SHIFT & 1,
        packed >> IMMORTAL_SHIFT & 0x7,
        packed >> SUM_SHIFT & 0x3F,
        tuple(value for value in fields if value),
    )
