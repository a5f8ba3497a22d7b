"""The 45-card Scarp deck: four suits of 1..10, one Essence per suit and the Ghost.

Canonical order (deck indices 0..44): L1..L10, S1..S10, D1..D10, H1..H10, SUN, STONE, KNIFE,
ROSE, GHOST. Every game on this deck imports its codes, suits and colours from here.
"""

from __future__ import annotations

from typing import Literal, get_args

from cardarena.envs.core.cards import Deck

Suit = Literal["L", "S", "D", "H"]
SUITS: tuple[Suit, ...] = get_args(Suit)
ESSENCE: dict[str, str] = {"L": "SUN", "S": "STONE", "D": "KNIFE", "H": "ROSE"}
GHOST = "GHOST"
COLOUR: dict[str, str] = {"L": "white", "S": "black", "D": "white", "H": "black"}
ENEMY: dict[str, str] = {"L": "S", "S": "L", "D": "H", "H": "D"}

NUMBERED: tuple[str, ...] = tuple(f"{suit}{number}" for suit in SUITS for number in range(1, 11))
DECK = Deck(NUMBERED + tuple(ESSENCE[suit] for suit in SUITS) + (GHOST,))

_SUIT_OF: dict[str, str | None] = {
    **{code: code[0] for code in NUMBERED},
    **{essence: suit for suit, essence in ESSENCE.items()},
    GHOST: None,
}
_NUMBER_OF: dict[str, int | None] = {code: (int(code[1:]) if code in NUMBERED else None) for code in DECK.codes}

SUIT_INDEX = tuple(SUITS.index(_SUIT_OF[code]) if _SUIT_OF[code] else -1 for code in DECK.codes)
"""Per deck index: the suit's position in SUITS, -1 for the Ghost."""
NUMBER_INDEX = tuple(_NUMBER_OF[code] or 0 for code in DECK.codes)
"""Per deck index: the face number, 0 for Essences and the Ghost."""


def check_card(card: str) -> str:
    """The card itself; ValueError naming it if it is not a Scarp-deck code."""
    DECK.index_of(card)
    return card


def check_suit(suit: str) -> str:
    """The suit itself; ValueError naming it if it is not L, S, D or H."""
    if suit not in COLOUR:
        raise ValueError(f"unknown suit {suit!r}: expected one of {', '.join(SUITS)}")
    return suit


def suit_of(card: str) -> str | None:
    """Suit code of a card (an Essence has its suit); None for the Ghost."""
    return _SUIT_OF[check_card(card)]


def number_of(card: str) -> int | None:
    """Face number 1..10 of a numbered card; None for Essences and the Ghost."""
    return _NUMBER_OF[check_card(card)]


def colour_of(card: str) -> str | None:
    """ "white" (Light, Death) or "black" (Shade, Life); None for the Ghost."""
    suit = suit_of(card)
    return None if suit is None else COLOUR[suit]


def is_numbered(card: str) -> bool:
    """True for L1..H10."""
    return number_of(card) is not None


def is_essence(card: str) -> bool:
    """True for SUN, STONE, KNIFE and ROSE."""
    return check_card(card) in _ESSENCES


def opposite_suits(suit: str) -> list[str]:
    """The two suits of the other colour, in suit order."""
    colour = COLOUR[check_suit(suit)]
    return [other for other in SUITS if COLOUR[other] != colour]


def enemy_of(suit: str) -> str:
    """The enemy suit: other colour and other border (L-S, D-H)."""
    return ENEMY[check_suit(suit)]


def essence_of(suit: str) -> str:
    """The Essence card of a suit."""
    return ESSENCE[check_suit(suit)]


_ESSENCES = frozenset(ESSENCE.values())
