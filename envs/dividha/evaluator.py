"""The exact Dividha best-hand evaluator (rulebook 5), compiled with numba; the deck and the key layout are in deck.py.

It mirrors evaluator_reference.py, the plain evaluator a reader learns the rule from: `showdown`
gives that module's `showdown` (as a packed key and a position mask), `legal_hand` its `is_legal`.

Method. Only *maximal* legal hands are scored: legal hands of five cards, or of fewer when no
further card of the six may join them. That is exact: a hand S of at most four cards has no
five-card category, so the suits of its readings never matter, and adding a card c that keeps the
hand legal keeps every reading of S (a deuce that c crosses may still be read as a 2 without a
suit; Corruption only makes more cards immortal) while rank counts, the immortal count, the sum
and the high tuple can only grow: the category rises or, if it stays, its combination cards stay
and every later key field is at least as large. So some maximal hand reaches the best key, and
the largest hand with it (the one `best_cards` shows) is maximal.

Each maximal hand is scored over its readings (5.2): the wild card (at most one, since GOD and
SATAN together are either illegal or Divine Intervention) takes each of the ten ranks and the suit
of the hand's other cards (suits only matter to Pure categories), and each crossed deuce is a
suitless 2 or Ace.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .deck import (
    ACE_HIGH,
    ACE_LOW,
    ACE_LOW_STRAIGHT,
    ACE_SUM,
    CATEGORY_SHIFT,
    DEUCE,
    DEUCE_OF_HEAVEN,
    DEUCE_OF_HELL,
    DEUCE_SUM,
    DIVINE_KEY,
    FIVE_OF_A_KIND,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    GOD,
    HEAVEN,
    HELL,
    HIGH,
    HIGH_FIELD_BITS,
    IMMORTAL_SHIFT,
    MAX_HAND,
    MORTAL,
    NO_SUIT,
    ONE_PAIR,
    PROVIDENCE_SHIFT,
    PURE,
    PURE_FIVE_OF_A_KIND,
    PURE_STRAIGHT,
    PUREBLOOD_MASK,
    PUREBLOOD_STRAIGHT,
    SATAN,
    SIDE,
    STRAIGHT,
    STRAIGHT_MASKS,
    SUIT,
    SUIT_OF_HELL,
    SUM,
    SUM_SHIFT,
    THE_THREE,
    THREE_OF_A_KIND,
    TWO_PAIR,
    WILD_RANKS,
)


@njit(cache=True)
def _sides(cards, divine_intervention):
    """Position bits of the cards that conflict under the Syncretic Rule (5.1), and GOD's and SATAN's bits."""
    heavenly = hellish = god = satan = 0
    for position in range(len(cards)):
        card, bit = cards[position], 1 << position
        if SIDE[card] == HEAVEN and card != DEUCE_OF_HEAVEN:
            heavenly |= bit
        elif SIDE[card] == HELL and card != DEUCE_OF_HELL:
            hellish |= bit
        if card == GOD:
            god = bit
        elif card == SATAN:
            satan = bit
    if not divine_intervention:
        god = satan = 0
    return heavenly, hellish, god, satan


@njit(cache=True)
def _legal(mask, heavenly, hellish, god, satan):
    """Whether the cards at the positions of `mask` may be played together (5.1)."""
    heaven, hell = mask & heavenly, mask & hellish
    return heaven == 0 or hell == 0 or (god != 0 and heaven == god and hell == satan)


@njit(cache=True)
def legal_hand(cards, divine_intervention):
    """Whether all of `cards` (deck indices) may be played together (5.1)."""
    heavenly, hellish, god, satan = _sides(cards, divine_intervention)
    return _legal((1 << len(cards)) - 1, heavenly, hellish, god, satan)


@njit(cache=True)
def _reading_key(high, suit, immortal, total, wild, n, counts):
    """Packed key (5.4) of one concrete reading of `n` cards; `counts` is a zeroed scratch array per rank."""
    rank_mask = 0
    for i in range(n):
        counts[high[i]] += 1
        rank_mask |= 1 << high[i]
    largest = paired = 0
    any_wild = False
    for i in range(n):
        largest = max(largest, counts[high[i]])
        paired += counts[high[i]] == 2
        any_wild |= wild[i]
    flush = n == MAX_HAND and suit[0] != NO_SUIT
    for i in range(1, n):
        flush &= suit[i] == suit[0]
    if largest == 5:
        category = PURE_FIVE_OF_A_KIND if flush and not any_wild else FIVE_OF_A_KIND
    elif largest == 4:
        category = FOUR_OF_A_KIND
    elif largest == 3:
        category = FULL_HOUSE if paired == 2 else THREE_OF_A_KIND
    else:
        category = paired // 2  # TWO_PAIR, ONE_PAIR or HIGH_CARD
    straight = False
    if n == MAX_HAND and largest == 1:
        for run in STRAIGHT_MASKS:
            straight |= rank_mask == run
    if straight:
        category = (PUREBLOOD_STRAIGHT if rank_mask == PUREBLOOD_MASK else PURE_STRAIGHT) if flush else STRAIGHT
    elif flush and category < PURE:
        category = PURE
    combination = 0  # cards of the rank count that forms the combination; 0 = every card (5.3)
    if category == FOUR_OF_A_KIND or category == THREE_OF_A_KIND:
        combination = largest
    elif category == TWO_PAIR or category == ONE_PAIR:
        combination = 2
    providence = immortals = majority_sum = 0
    ace = ACE_LOW if straight and rank_mask == ACE_LOW_STRAIGHT else ACE_HIGH
    values = np.zeros(MAX_HAND, np.int64)
    for i in range(n):
        if combination == 0 or counts[high[i]] == combination:
            providence |= wild[i]
            immortals += immortal[i]
        majority_sum += total[i]
        value = ace if high[i] == ACE_HIGH else high[i]
        j = i
        while j > 0 and values[j - 1] < value:  # insertion sort, highest first
            values[j] = values[j - 1]
            j -= 1
        values[j] = value
    for i in range(n):
        counts[high[i]] = 0
    packed = np.int64(0)
    for high_value in values:
        packed = packed << HIGH_FIELD_BITS | high_value
    return (
        category << CATEGORY_SHIFT
        | providence << PROVIDENCE_SHIFT
        | immortals << IMMORTAL_SHIFT
        | majority_sum << SUM_SHIFT
        | packed
    )


@njit(cache=True)
def _hand_key(cards, mask, divine_intervention, counts):
    """Best packed key over every reading (5.2) of the cards at the positions of `mask`."""
    hand = np.empty(MAX_HAND, np.int64)
    n = np.int64(0)  # typed: a literal 0 would compile `_reading_key` once more for it
    heaven_side = hell_side = False
    three = 0  # cards of The Three
    for position in range(len(cards)):
        if mask >> position & 1:
            card = cards[position]
            hand[n] = card
            n += 1
            heaven_side |= SIDE[card] == HEAVEN
            hell_side |= SIDE[card] == HELL
            three += card == THE_THREE[0] or card == THE_THREE[1] or card == THE_THREE[2]
    high = np.empty(MAX_HAND, np.int64)
    suit = np.empty(MAX_HAND, np.int64)
    immortal = np.empty(MAX_HAND, np.int64)
    total = np.empty(MAX_HAND, np.int64)
    wild = np.zeros(MAX_HAND, np.bool_)
    wild_at = first_deuce = second_deuce = -1
    wild_cards = 0
    for i in range(n):
        card = hand[i]
        high[i], suit[i], total[i] = HIGH[card], SUIT[card], SUM[card]
        immortal[i] = SIDE[card] != MORTAL
        if card == GOD or card == SATAN:
            wild[i] = True
            wild_at = i
            wild_cards += 1
            total[i] = 0
        elif (card == DEUCE_OF_HEAVEN and hell_side) or (card == DEUCE_OF_HELL and heaven_side):
            suit[i] = NO_SUIT
            if first_deuce < 0:
                first_deuce = i
            else:
                second_deuce = i
        elif three == 3 and SIDE[card] == MORTAL:  # Corruption
            suit[i] = SUIT_OF_HELL
            immortal[i] = 1
    if wild_cards == 2 and divine_intervention:
        return DIVINE_KEY
    if wild_at >= 0:
        suit[wild_at] = suit[1] if wild_at == 0 and n > 1 else suit[0]
    best = -1
    for wild_rank in range(len(WILD_RANKS) if wild_at >= 0 else 1):
        if wild_at >= 0:
            high[wild_at] = WILD_RANKS[wild_rank]
        for first in range(2 if first_deuce >= 0 else 1):
            if first_deuce >= 0:
                high[first_deuce] = ACE_HIGH if first else DEUCE
                total[first_deuce] = ACE_SUM if first else DEUCE_SUM
            for second in range(2 if second_deuce >= 0 else 1):
                if second_deuce >= 0:
                    high[second_deuce] = ACE_HIGH if second else DEUCE
                    total[second_deuce] = ACE_SUM if second else DEUCE_SUM
                best = max(best, _reading_key(high, suit, immortal, total, wild, n, counts))
    return best


@njit(cache=True)
def _lower_cards(mask, other):
    """Whether `mask`'s positions, as a sorted list, come before `other`'s of the same size."""
    differ = mask ^ other
    return mask & differ & -differ != 0


@njit(cache=True)
def showdown(cards, divine_intervention):
    """Best packed key of 1 to 6 distinct deck indices sorted ascending, and the position mask of `best_cards`."""
    n = len(cards)
    heavenly, hellish, god, satan = _sides(cards, divine_intervention)
    counts = np.zeros(ACE_HIGH + 1, np.int64)
    full = (1 << n) - 1
    best_key, best_mask, best_size = -1, 0, 0  # best_mask goes to `_lower_cards` as an int64, not a literal 0
    for mask in range(1, full + 1):
        size = 0
        for position in range(n):
            size += mask >> position & 1
        if size > MAX_HAND or not _legal(mask, heavenly, hellish, god, satan):
            continue
        if size < min(n, MAX_HAND) and _extendable(mask, n, heavenly, hellish, god, satan):
            continue
        key = _hand_key(cards, mask, divine_intervention, counts)
        if (
            key > best_key
            or key == best_key
            and (size > best_size or size == best_size and _lower_cards(mask, np.int64(best_mask)))
        ):
            best_key, best_mask, best_size = key, mask, size
    return best_key, best_mask


@njit(cache=True)
def _extendable(mask, n, heavenly, hellish, god, satan):
    """Whether one more of the n cards may legally join the hand `mask`."""
    for position in range(n):
        bit = 1 << position
        if not mask & bit and _legal(mask | bit, heavenly, hellish, god, satan):
            return True
    return False
