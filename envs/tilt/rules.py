"""Tilt rules as pure functions over canonical codes (rulebook section 12, Checkable API).

Cards are the Voyage codes (`C1` ... `H8`, `K9` ... `K12`), Hazards the Void codes (`FINE` ...
`ENGB`). Each public function validates its codes and delegates to an index-level twin that
game.py calls on its hot path, so every rule is written once:

- `hazard_flags_ids(void_ids)` -> the int of evaluation flags every twin takes;
- `evaluate_ids(card_ids, flags)`, `best_key_ids(own, flags, shared, tariffs, grid)` (evaluator.py);
- `winners_of_keys(keys, flags)`, `settle_keys(...)`, `category_of(key, flags)`.

Deck index = position in `CARD_CODES` (section 2.1); Void index = position in `VOID_CODES` (2.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardarena.envs.core import settlement
from cardarena.envs.core.cards import Deck
from cardarena.envs.tilt.evaluator import (
    BINY,
    CATEGORIES,
    COMMAND_TYPE,
    ENGB,
    EXPD,
    FIRST_COMMAND,
    GRAV,
    GRID_LINES,
    HULL,
    JUMP,
    MUTI,
    NUM_CARDS,
    PRINTED_SUIT,
    RANK,
    STSH,
    TEAM,
    TRST,
    Key,
    best_key_ids,
    card_rank,
    category_of,
    evaluate_ids,
    is_command,
    printed_suit,
    table_size,
)

__all__ = [
    "BINY", "CARDS", "CARD_CODES", "CATEGORIES", "COMMAND_TYPE", "CREW", "ENGB", "EXPD", "FIRST_COMMAND",
    "GRAV", "GRID_LINES", "GRID_SIZE", "HAZARD_FLAG", "HULL", "JUMP", "MUTI", "NUM_CARDS", "PLANETS",
    "PRINTED_SUIT", "RANK", "SHIPS", "STARS", "STSH", "SUITS", "SUIT_NAMES", "TEAM", "TRST", "VOID_CODES",
    "VOID_INDEX", "VOID_NAMES", "TiltSettlement", "best_key", "best_key_ids", "card_rank", "category",
    "category_of", "compare", "evaluate", "evaluate_ids", "hazard_flags", "hazard_flags_ids",
    "is_command", "printed_suit", "settle", "settle_keys", "table_size", "void_index", "winners", "winners_of_keys",
]  # fmt: skip  # the names a few to a line

SUITS = ("C", "P", "S", "H")
SUIT_NAMES = ("Crew", "Planets", "Stars", "Ships")
CREW, PLANETS, STARS, SHIPS = range(len(SUITS))
CARD_CODES: tuple[str, ...] = tuple(f"{suit}{value}" for suit in SUITS for value in range(1, 9)) + tuple(
    f"K{rank}" for rank in range(9, 13)
)
CARDS = Deck(CARD_CODES)
GRID_SIZE = 9

VOID_CODES = (
    "FINE", "LEAK", "MUTI", "DIST", "STSH", "ARMR", "BINY", "HULL", "GRAV", "TEAM", "TRST", "GALY",
    "HAUL", "CHKN", "JUMP", "PAYC", "TRIK", "EXPD", "TAXS", "VOTE", "SABO", "SHAR", "ENGB",
)  # fmt: skip  # the codes in deck order, a few to a line
VOID_NAMES = (
    "The Fine Print", "Leak in the Fuel Line", "Mutinous Days", "Always Answer Distress Signals",
    "Captain's Reserve Stash", "Well-Stocked Armory", "Binary System", "Hull Breach", "Inexorable Gravity",
    "The Value of Teamwork", "Trust Your People", "Fine Galley", "Counting the Haul", "Game of Chicken",
    "Wild Jump", "Corporate Paycheck", "Always Have Another Trick", "Expendable Ranks", "Import Taxes",
    "Vote of No Confidence", "Saboteur in the Ranks", "Dividing the Shares", "Engine Breach",
)  # fmt: skip  # the names in deck order, a few to a line
VOID_INDEX = {code: index for index, code in enumerate(VOID_CODES)}
HAZARD_FLAG = {
    "HULL": HULL, "TRST": TRST, "BINY": BINY, "EXPD": EXPD, "JUMP": JUMP,
    "MUTI": MUTI, "TEAM": TEAM, "GRAV": GRAV, "STSH": STSH, "ENGB": ENGB,
}  # fmt: skip  # the flags a few to a line
VOID_FLAG = tuple(HAZARD_FLAG.get(code, 0) for code in VOID_CODES)


# ---------------------------------------------------------------- validation


def void_index(code: object) -> int:
    """Void deck index of one Void code; ValueError naming the code if it is not one."""
    try:
        return VOID_INDEX[code]  # type: ignore[index]  # any object: a miss is the ValueError below
    except (KeyError, TypeError):
        raise ValueError(f"unknown Void code {code!r}; Void codes are {', '.join(VOID_CODES)}") from None


def hazard_flags_ids(void_ids: Iterable[int]) -> int:
    """Evaluation flags of the Void cards in force (by Void index); Void cards without an evaluation effect add none."""
    flags = 0
    for void in void_ids:
        flags |= VOID_FLAG[void]
    if flags & STSH and flags & ENGB:
        raise ValueError("STSH and ENGB cannot both be in force (six-card and three-card tables)")
    return flags


# Keyed by the Void codes in force (a tuple of strings): their flags depend on them alone.
_FLAGS: dict[tuple[Any, ...], int] = {}


def hazard_flags(hazards: Iterable[str]) -> int:
    """Evaluation flags of a list of Void codes (validated)."""
    if isinstance(hazards, str):
        raise ValueError(f"hazards must be a list of Void codes, got the string {hazards!r}")
    hazards = tuple(hazards)
    try:
        found = _FLAGS.get(hazards)
    except TypeError:  # an unhashable entry: reported as an unknown code below
        found = None
    if found is None:
        found = hazard_flags_ids(void_index(code) for code in hazards)
        _FLAGS[hazards] = found
    return found


def _cards(cards: Iterable[str], what: str = "hand") -> list[int]:
    if isinstance(cards, str):
        raise ValueError(f"{what} must be a list of card codes, got the string {cards!r}")
    try:
        ids = [CARDS.index[code] for code in cards]
    except (KeyError, TypeError):
        ids = [CARDS.index_of(code) for code in cards]  # raises, naming the code
    if len(set(ids)) != len(ids):
        raise ValueError(f"card listed twice in {what} {list(cards)!r}")
    return ids


def _hand(cards: Iterable[str], flags: int) -> list[int]:
    ids = _cards(cards)
    table = table_size(flags)
    if len(ids) > table:
        raise ValueError(f"a hand has at most {table} cards under these Hazards, got {len(ids)}: {list(cards)!r}")
    return ids


# ---------------------------------------------------------------- Checkable API


def evaluate(cards: list[str], hazards: list[str] = []) -> tuple[int, ...]:  # noqa: B006 - the rulebook's signature
    """Key `(orbit, tier, eff, base, t1, ..., tT)` of one made hand, best wild assignment applied (5.5)."""
    flags = hazard_flags(hazards)
    return evaluate_ids(_hand(cards, flags), flags)


def category(cards: list[str], hazards: list[str] = []) -> str:  # noqa: B006 - the rulebook's signature; never mutated
    """Name of the base category of the hand's best reading in the table in force (5.3)."""
    flags = hazard_flags(hazards)
    return category_of(evaluate_ids(_hand(cards, flags), flags), flags)


def compare(a: list[str], b: list[str], hazards: list[str] = []) -> int:  # noqa: B006 - the rulebook's signature; never mutated
    """1 if `a` beats `b`, -1 if `b` beats `a`, 0 if equal (the hands may share cards)."""
    flags = hazard_flags(hazards)
    key_a, key_b = evaluate_ids(_hand(a, flags), flags), evaluate_ids(_hand(b, flags), flags)
    return (key_a > key_b) - (key_a < key_b)


def winners_of_keys(keys: Sequence[Key], flags: int) -> list[int]:
    """Indices of the maximum key; [] under GRAV when that key has no Orbit."""
    top = max(keys)
    if flags & GRAV and top[0] == 0:
        return []
    return [index for index, key in enumerate(keys) if key == top]


def winners(hands: list[list[str]], hazards: list[str] = []) -> list[int]:  # noqa: B006 - the rulebook's signature; never mutated
    """Indices (ascending) of the hands holding the maximum key; [] if GRAV and that key has no Orbit."""
    flags = hazard_flags(hazards)
    if not hands:
        raise ValueError("winners needs at least one hand")
    return winners_of_keys([evaluate_ids(_hand(hand, flags), flags) for hand in hands], flags)


def best_key(
    own: list[str],
    hazards: list[str] = [],  # noqa: B006 - the rulebook's signature; never mutated
    shared: list[str] = [],  # noqa: B006 - the rulebook's signature; never mutated
    tariffs: list[str] = [],  # noqa: B006 - the rulebook's signature; never mutated
    grid: list[str] = [],  # noqa: B006 - the rulebook's signature; never mutated
) -> tuple[int, ...]:
    """Key of the best hand a seat can form (5.1) from its own cards, the Chicken card, Tariffs, Haul grid."""
    flags = hazard_flags(hazards)
    parts = [_cards(own, "own"), _cards(shared, "shared"), _cards(tariffs, "tariffs"), _cards(grid, "grid")]
    every = [card for part in parts for card in part]
    if len(set(every)) != len(every):
        raise ValueError(f"a card appears twice among own, shared, tariffs and grid: {[CARD_CODES[c] for c in every]}")
    if grid and len(grid) != GRID_SIZE:
        raise ValueError(f"the Haul grid has {GRID_SIZE} cards, got {len(grid)}")
    if len(tariffs) > 2:
        raise ValueError(f"there are at most two Tariffs, got {len(tariffs)}")
    if "TAXS" in hazards and not tariffs:
        raise ValueError("TAXS is in force but no Tariffs were given")
    own_ids, shared_ids, tariff_ids, grid_ids = parts
    return best_key_ids(own_ids, flags, shared_ids, tariff_ids, grid_ids)


@dataclass(frozen=True, slots=True)
class TiltSettlement:
    """Chips each seat takes, chips per seat of pots not paid, each pot's winners ([] if not paid),
    and whether a pot went unpaid for lack of an Orbit (Gravity then stays in play, R29)."""

    payouts: list[int]
    unawarded: list[int]
    winners: list[list[int]]
    orbitless: bool


def settle_keys(
    contributions: Sequence[int],
    folded: Sequence[bool],
    keys: Sequence[Key | None],
    flags: int,
    dealer: int,
    carry: Sequence[int] | None = None,
    dummy_key: Key | None = None,
) -> TiltSettlement:
    """Pot settlement of 6.6 from hand keys (None for folded seats) through the core settlement.

    A contested pot is not paid when GRAV is in force and its best key has no Orbit, or when
    `dummy_key` (the Fine Print hand's key) is strictly greater than its best key.
    """
    n = len(contributions)
    if not 0 <= dealer < n:
        raise ValueError(f"dealer={dealer} is not a seat (0 to {n - 1})")
    orbitless = []

    def pays(key: Key) -> bool:
        if flags & GRAV and key[0] == 0:
            orbitless.append(True)
            return False
        return dummy_key is None or not dummy_key > key

    done = settlement.settle(contributions, folded, keys, (dealer + 1) % n, carry=carry, pays=pays)
    return TiltSettlement([int(chips) for chips in done.payouts], done.unpaid, done.winners, bool(orbitless))


def _chips(values: Sequence[Any], name: str) -> None:
    if any(isinstance(value, bool) or not isinstance(value, int) for value in values):
        raise ValueError(f"{name} must be whole chip counts, got {list(values)!r}")
    if any(value < 0 for value in values):
        raise ValueError(f"{name} cannot be negative, got {list(values)!r}")


def settle(
    contributions: list[int],
    folded: list[bool],
    hands: list[list[str] | None],
    hazards: list[str] = [],  # noqa: B006 - the rulebook's signature; never mutated
    dealer: int = 0,
    carry: list[int] | None = None,
    dummy: list[str] | None = None,
) -> dict:
    """Pot settlement of 6.6: `{"payouts": [...], "unawarded": [...]}` per seat (unawarded = unpaid shares)."""
    flags = hazard_flags(hazards)
    n = len(contributions)
    lengths = {"folded": len(folded), "hands": len(hands)} | ({"carry": len(carry)} if carry is not None else {})
    if any(length != n for length in lengths.values()):
        raise ValueError(f"contributions has {n} seats but {lengths} disagree")
    _chips(contributions, "contributions")
    _chips(carry or [], "carry")
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise ValueError(f"dealer={dealer!r} is not a seat number")
    live = [seat for seat in range(n) if not folded[seat]]
    if not live:
        raise ValueError("settle needs at least one live (not folded) seat")
    missing = [seat for seat in live if hands[seat] is None]
    if len(live) > 1 and missing:
        raise ValueError(f"live seats {missing} have no hand")
    keys = [
        None if folded[seat] or (hand := hands[seat]) is None else evaluate_ids(_hand(hand, flags), flags)
        for seat in range(n)
    ]
    dummy_key = None if dummy is None else best_key_ids(_cards(dummy, "dummy"), flags)
    done = settle_keys(contributions, folded, keys, flags, dealer, carry, dummy_key)
    return {"payouts": done.payouts, "unawarded": done.unawarded}
