"""Paradigm rules as pure functions over Scarp card codes (rulebook section 12, Checkable API).

Each public function validates its codes and delegates to an index-level twin (`*_ids`) that
game.py calls on its hot path, so every rule is written once. Card ids are Scarp deck indices
(`envs/core/decks/scarp.py`): L1..L10 = 0..9, S1..S10 = 10..19, D1..D10 = 20..29,
H1..H10 = 30..39, then SUN, STONE, KNIFE, ROSE, GHOST.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from cardarena.envs.core.decks.scarp import COLOUR, DECK, ESSENCE, GHOST, NUMBER_INDEX, NUMBERED, SUIT_INDEX, SUITS

HAND = "HAND"
NEW_PILE = "NEW_PILE"
NUM_NUMBERED = len(NUMBERED)
GHOST_ID = DECK.index_of(GHOST)
ESSENCE_IDS = tuple(DECK.index_of(ESSENCE[suit]) for suit in SUITS)
VALUE = NUMBER_INDEX
"""Per card id: the face value (0 for Essences and the Ghost)."""
SUIT = SUIT_INDEX
"""Per card id: the suit's position in SUITS (an Essence has its suit; -1 for the Ghost)."""
WHITE = tuple(COLOUR[SUITS[SUIT[card]]] == "white" if SUIT[card] >= 0 else False for card in range(len(DECK)))
"""Per card id: whether its colour is white (Light, Death and their Essences)."""
ERROR_LENGTH = 3
ERROR_STARTS = tuple(tuple(v for v in range(1, 9) if (held >> (v - 1)) & 0b111 == 0b111) for held in range(1 << 10))
"""Per set of values held (bit v - 1 for value v): the v of every Error v, v+1, v+2 in it."""
VALUE_BIT = tuple(1 << (value - 1) if value else 0 for value in VALUE)


def card_id(suit: int, value: int) -> int:
    """Id of the numbered card of suit position `suit` and face value `value`."""
    return 10 * suit + value - 1


# ---------------------------------------------------------------- index-level rules


def pile_product_ids(pile: Sequence[int]) -> int:
    """Product of the face values of a pile's cards (R16)."""
    return prod(VALUE[card] for card in pile)


def score_ids(piles: Sequence[Sequence[int]], suit: int) -> int:
    """Sum of the values of the piles whose top card is of suit position `suit` (section 5)."""
    return sum(pile_product_ids(pile) for pile in piles if SUIT[pile[-1]] == suit)


def covered_tops_ids(card: int, piles: Sequence[Sequence[int]]) -> list[int]:
    """Top cards, in deck order, of the piles `card` may be laid on: strictly lower value (R5)."""
    value = VALUE[card]
    return sorted(pile[-1] for pile in piles if VALUE[pile[-1]] < value)


def apply_essence_ids(piles: Sequence[Sequence[int]], essence: int) -> list[list[int]]:
    """The table once every card of the colour opposite to `essence`'s is removed (R9)."""
    kept = WHITE[essence]
    remaining = ([card for card in pile if WHITE[card] == kept] for pile in piles)
    return [pile for pile in remaining if pile]


def error_starts_ids(hand: Sequence[int]) -> list[int]:
    """Ascending v such that the hand (one suit) holds v, v+1 and v+2 (R12)."""
    held = 0
    for card in hand:
        held |= VALUE_BIT[card]
    return list(ERROR_STARTS[held])


def winners_of(scores: Sequence[int]) -> list[int]:
    """Ascending seats with the highest score (R18)."""
    top = max(scores)
    return [seat for seat, score in enumerate(scores) if score == top]


# ---------------------------------------------------------------- Checkable API


def pile_product(pile: list[str]) -> int:
    """Product of the face values of the pile's cards."""
    return pile_product_ids(_pile(pile, "pile"))


def scores(piles: list[list[str]], suits: list[str]) -> list[int]:
    """Score of each seat, where `suits[i]` is seat i's suit: the values of the piles its suit tops."""
    table = _table(piles)
    return [score_ids(table, SUITS.index(suit)) for suit in _suits(suits)]


def placement_options(card: str, piles: list[list[str]], from_hand: bool = False) -> list[str]:
    """Where `card` may go: "HAND" (a revealed card only), "NEW_PILE", then the top cards (deck
    order) of the piles whose top value is lower than the card's."""
    if not isinstance(from_hand, bool):
        raise ValueError(f"from_hand must be True or False, got {from_hand!r}")
    placed = _numbered(card, "card")
    table = _table(piles)
    if any(placed in pile for pile in table):
        raise ValueError(f"card {card!r} is already on the table")
    tops = DECK.codes_of(covered_tops_ids(placed, table))
    return ([] if from_hand else [HAND]) + [NEW_PILE] + tops


def apply_essence(piles: list[list[str]], essence: str) -> list[list[str]]:
    """The table after the Essence's effect: cards of the opposite colour removed card by card,
    the rest in order, piles in their original order, emptied piles dropped."""
    if essence not in ESSENCE.values():
        raise ValueError(f"{essence!r} is not an Essence: expected one of {', '.join(ESSENCE.values())}")
    return [[DECK.codes[card] for card in pile] for pile in apply_essence_ids(_table(piles), DECK.index_of(essence))]


def error_starts(hand: list[str]) -> list[int]:
    """Ascending v such that the hand holds v, v+1 and v+2 (a hand holds one suit)."""
    cards = _cards(hand, "hand")
    if len({SUIT[card] for card in cards}) > 1:
        raise ValueError(f"a hand holds cards of one suit only, got {list(hand)!r}")
    return error_starts_ids(cards)


def winners(scores: list[int]) -> list[int]:
    """Ascending seats with the highest score."""
    if not isinstance(scores, (list, tuple)) or not scores:
        raise ValueError(f"scores must be a non-empty list of ints, got {scores!r}")
    if any(type(score) is not int for score in scores):
        raise ValueError(f"scores must be ints, got {list(scores)!r}")
    return winners_of(scores)


# ---------------------------------------------------------------- validation


def _numbered(code: str, where: str) -> int:
    card = DECK.index_of(code)
    if VALUE[card] == 0:
        raise ValueError(f"{where}: {code!r} is not a numbered card (L1 .. H10)")
    return card


def _cards(codes: list[str], where: str) -> list[int]:
    if not isinstance(codes, (list, tuple)):
        raise ValueError(f"{where} must be a list of card codes, got {codes!r}")
    cards = [_numbered(code, where) for code in codes]
    if len(set(cards)) != len(cards):
        raise ValueError(f"{where}: a card is listed twice in {list(codes)!r}")
    return cards


def _pile(codes: list[str], where: str) -> list[int]:
    pile = _cards(codes, where)
    if not pile:
        raise ValueError(f"{where} is empty: a pile holds at least one card")
    if any(VALUE[low] >= VALUE[high] for low, high in zip(pile, pile[1:])):
        raise ValueError(f"{where} {list(codes)!r} is not strictly increasing from bottom to top")
    return pile


def _table(piles: list[list[str]]) -> list[list[int]]:
    if not isinstance(piles, (list, tuple)):
        raise ValueError(f"piles must be a list of piles, got {piles!r}")
    table = [_pile(pile, f"pile {number}") for number, pile in enumerate(piles)]
    cards = [card for pile in table for card in pile]
    if len(set(cards)) != len(cards):
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise ValueError(f"card {DECK.codes[card]!r} lies in two places on the table")
            seen.add(card)
    return table


def _suits(suits: list[str]) -> list[str]:
    if not isinstance(suits, (list, tuple)) or any(suit not in SUITS for suit in suits):
        raise ValueError(f"suits must be a list of suit codes among {', '.join(SUITS)}, got {suits!r}")
    if len(set(suits)) != len(suits):
        raise ValueError(f"suits must be distinct (one per seat), got {list(suits)!r}")
    return list(suits)
