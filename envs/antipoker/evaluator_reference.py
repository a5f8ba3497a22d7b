"""The plain Antipoker hand value (rulebook 5): the reference that the compiled evaluator (evaluator.py) mirrors.

Read this to learn the rule: effective values, then the four parts (cards, Force, Elements, sets),
each written as the rulebook states it, over the card codes of the Scarp deck. A hand is a list of
at most six distinct deck indices (no padding).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardarena.envs.core.decks.scarp import DECK, ESSENCE, GHOST, colour_of, number_of, suit_of

ESSENCE_VALUE = 10  # an Essence's value in an Essence triple or quad (R15)
FORCE_FACTOR = {5: 3, 6: 4}  # a colour's Force by its number of cards (R12)
SET_POWER = {3: 2, 4: 3}  # a triple is worth its sum squared, a quad its sum cubed (R14)


def effective_value(card: str, hand: Sequence[str]) -> int:
    """A numbered card's face, doubled by its suit's Essence (R7), then by the Ghost (R8); 0 for the others."""
    face, suit = number_of(card), suit_of(card)
    if face is None or suit is None:
        return 0
    essence = 2 if ESSENCE[suit] in hand else 1
    ghost = 2 if GHOST in hand else 1
    return face * essence * ghost


def parts(cards: Sequence[int]) -> tuple[int, int, int, int]:
    """The (cards, force, elements, sets) parts of a hand of deck indices (rulebook 5)."""
    hand = [DECK.codes[card] for card in cards]
    value = {card: effective_value(card, hand) for card in hand}
    card_part = sum(value.values())
    force = 0
    for colour in ("white", "black"):
        members = [card for card in hand if card != GHOST and colour_of(card) == colour]
        force += FORCE_FACTOR.get(len(members), 0) * sum(value[card] for card in members)
    elements = 0
    for suit in ESSENCE:
        members = [card for card in hand if card != GHOST and suit_of(card) == suit]
        if len(members) >= 3:
            elements += len(members) * sum(value[card] for card in members)
    sets = 0
    for face in range(1, 11):
        members = [card for card in hand if number_of(card) == face]
        if len(members) in SET_POWER:
            sets += sum(value[card] for card in members) ** SET_POWER[len(members)]
    essences = [card for card in hand if card in ESSENCE.values()]
    if len(essences) in SET_POWER:
        ghost = 2 if GHOST in hand else 1
        sets += (len(essences) * ESSENCE_VALUE * ghost) ** SET_POWER[len(essences)]
    return card_part, force, elements, sets


def value_features(cards: Sequence[int], log_largest: float) -> list[float]:
    """A hand's value segment of the observation: log1p of its total value, then of each of its
    parts, over `log_largest`, capped at 1 (the encoder stores them as float32)."""
    hand_parts = parts(cards)
    return [min(math.log1p(value) / log_largest, 1.0) for value in (sum(hand_parts), *hand_parts)]
