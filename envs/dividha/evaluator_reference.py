"""The plain Dividha best-hand evaluator (rulebook 5): the reference that the compiled one (evaluator.py) mirrors.

Read this to learn the rule. Every subset of 1 to 5 of the cards is tried; an illegal one
(the Syncretic Rule, 5.1) is skipped; every card of a legal one is read every way it may be
(5.2: a wild card as each rank and suit, a crossed deuce as a suitless 2 or Ace, mortal cards
corrupted by The Three); the key of each reading (5.3, 5.4) is a plain tuple and the best one is
kept. Slow and literal: the compiled evaluator reaches the same keys by scoring only maximal
hands (see its docstring). Cards are deck indices (deck.py), keys the tuples of `deck.unpack_key`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product
from typing import NamedTuple

from .deck import (
    ACE_HIGH,
    ACE_LOW,
    ACE_LOW_STRAIGHT,
    ACE_SUM,
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
    HIGH_CARD,
    HIGH_VALUES,
    MAX_HAND,
    MORTAL,
    NO_SUIT,
    ONE_PAIR,
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
    SUITS,
    SUM,
    THE_THREE,
    THREE_OF_A_KIND,
    TWO_PAIR,
    unpack_key,
)

Key = tuple[int, int, int, int, tuple[int, ...]]
WILD_CARDS = (GOD, SATAN)
# the cards that form the combination (5.3), by how many of one rank they are; other categories count every card
COMBINATION_SIZE = {FOUR_OF_A_KIND: 4, THREE_OF_A_KIND: 3, TWO_PAIR: 2, ONE_PAIR: 2}


class Reading(NamedTuple):
    """One card read concretely (5.2): high value, suit (NO_SUIT: none), immortal, sum value, wild."""

    high: int
    suit: int
    immortal: bool
    sum_value: int
    wild: bool


def is_legal(cards: Sequence[int], divine_intervention: bool) -> bool:
    """The Syncretic Rule (5.1): no Heaven-side card but 2V with a Hell-side card but 2L, except GOD with SATAN."""
    heaven = [card for card in cards if SIDE[card] == HEAVEN and card != DEUCE_OF_HEAVEN]
    hell = [card for card in cards if SIDE[card] == HELL and card != DEUCE_OF_HELL]
    if not heaven or not hell:
        return True
    return divine_intervention and heaven == [GOD] and hell == [SATAN]


def readings(card: int, hand: Sequence[int]) -> list[Reading]:
    """Every way `card` may be read inside `hand` (5.2)."""
    if card in WILD_CARDS:
        return [Reading(high, suit, True, 0, True) for high in HIGH_VALUES for suit in range(len(SUITS))]
    crosses = {DEUCE_OF_HEAVEN: HELL, DEUCE_OF_HELL: HEAVEN}
    if card in crosses and any(SIDE[other] == crosses[card] for other in hand):
        return [Reading(DEUCE, NO_SUIT, True, DEUCE_SUM, False), Reading(ACE_HIGH, NO_SUIT, True, ACE_SUM, False)]
    if SIDE[card] == MORTAL and all(three in hand for three in THE_THREE):  # Corruption
        return [Reading(int(HIGH[card]), SUIT_OF_HELL, True, int(SUM[card]), False)]
    return [Reading(int(HIGH[card]), int(SUIT[card]), bool(SIDE[card] != MORTAL), int(SUM[card]), False)]


def reading_key(hand: Sequence[Reading]) -> Key:
    """The key (5.4) of a concretely read hand of 1 to 5 cards."""
    rank_counts = Counter(card.high for card in hand)
    counts = sorted(rank_counts.values(), reverse=True)
    suits = {card.suit for card in hand}
    five = len(hand) == MAX_HAND
    one_suit = five and len(suits) == 1 and NO_SUIT not in suits
    rank_mask = sum(1 << high for high in rank_counts)
    straight = five and counts[0] == 1 and rank_mask in STRAIGHT_MASKS
    any_wild = any(card.wild for card in hand)
    requirements = (  # 5.3, highest first: the first one met is the category
        (PURE_FIVE_OF_A_KIND, counts[0] == 5 and one_suit and not any_wild),
        (PUREBLOOD_STRAIGHT, straight and one_suit and rank_mask == PUREBLOOD_MASK),
        (FIVE_OF_A_KIND, counts[0] == 5),
        (PURE_STRAIGHT, straight and one_suit),
        (FOUR_OF_A_KIND, counts[0] == 4),
        (FULL_HOUSE, counts[:2] == [3, 2]),
        (PURE, one_suit),
        (STRAIGHT, straight),
        (THREE_OF_A_KIND, counts[0] == 3),
        (TWO_PAIR, counts[:2] == [2, 2]),
        (ONE_PAIR, counts[0] == 2),
    )
    category = next((category for category, met in requirements if met), HIGH_CARD)
    size = COMBINATION_SIZE.get(category)
    combination = [card for card in hand if size is None or rank_counts[card.high] == size]
    ace = ACE_LOW if straight and rank_mask == ACE_LOW_STRAIGHT else ACE_HIGH
    return (
        category,
        int(any(card.wild for card in combination)),
        sum(card.immortal for card in combination),
        sum(card.sum_value for card in hand),
        tuple(sorted((ace if card.high == ACE_HIGH else card.high for card in hand), reverse=True)),
    )


def hand_key(hand: Sequence[int], divine_intervention: bool) -> Key:
    """The best key over every reading of a legal hand (5.2), or Divine Intervention's fixed key."""
    if divine_intervention and all(wild in hand for wild in WILD_CARDS):
        return unpack_key(DIVINE_KEY)
    return max(reading_key(read) for read in product(*(readings(card, hand) for card in hand)))


def showdown(cards: Sequence[int], divine_intervention: bool) -> tuple[Key, list[int]]:
    """The best key of 1 to 6 distinct cards, and the cards shown (5.4): of the hands that reach
    it, the one with the most cards, then the lowest list of deck indices; in deck order."""
    legal = [
        hand
        for size in range(1, min(len(cards), MAX_HAND) + 1)
        for hand in combinations(sorted(cards), size)
        if is_legal(hand, divine_intervention)
    ]
    keys = {hand: hand_key(hand, divine_intervention) for hand in legal}
    best = max(keys.values())
    shown = min((hand for hand in legal if keys[hand] == best), key=lambda hand: (-len(hand), hand))
    return best, list(shown)
