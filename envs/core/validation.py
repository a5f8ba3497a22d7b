"""Shared checks of a game state read from outside (`Game.check_state`): JSON types, ranges, list
sizes, card ids once across every place, seats and the hand history's shape.

Each helper raises StateError naming the field (its path in the state, e.g. `hands[1][2]`) and
what is wrong with it, and returns the checked value, so that a game's `check_state` reads as a
list of its fields. A game's own invariants (phases, turn order, scores) come after these checks,
so that the rules code it may call sees only values of the right types and ranges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import StateError

MAX_SEED = 2**64 - 1
_SHOWN = 60  # characters of a bad value quoted in an error


def _got(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def fail(field: str, problem: str) -> StateError:
    """The StateError for `field`: `state field 'field' problem`."""
    return StateError(f"state field {field!r} {problem}")


def integer(value: Any, field: str, low: int, high: int) -> int:
    """An int (not a bool) from `low` to `high`."""
    if type(value) is not int:
        raise fail(field, f"must be an integer, got {_got(value)}")
    if not low <= value <= high:
        raise fail(field, f"must be {low}..{high}, got {_got(value)}")
    return value


def flag(value: Any, field: str) -> bool:
    """A JSON true or false."""
    if type(value) is not bool:
        raise fail(field, f"must be true or false, got {_got(value)}")
    return value


def number(value: Any, field: str) -> float:
    """A finite real number (an int or a float, not a bool)."""
    if type(value) not in (int, float) or not math.isfinite(value):
        raise fail(field, f"must be a finite number, got {_got(value)}")
    return value


def text(value: Any, field: str, choices: Iterable[str]) -> str:
    """A string among `choices`."""
    allowed = tuple(choices)
    if type(value) is not str or value not in allowed:
        raise fail(field, f"must be one of {', '.join(map(repr, allowed))}, got {_got(value)}")
    return value


def items(value: Any, field: str, low: int = 0, high: int | None = None) -> list[Any]:
    """A list of `low` to `high` items (no upper bound when `high` is None)."""
    if type(value) is not list:
        raise fail(field, f"must be a list, got {_got(value)}")
    if len(value) < low or (high is not None and len(value) > high):
        size = f"{low}" if low == high else f"{low}..{high if high is not None else ''}"
        raise fail(field, f"must hold {size} items, got {len(value)}")
    return value


def integers(value: Any, field: str, low: int, high: int, size: tuple[int, int | None] = (0, None)) -> list[int]:
    """A list of `size` (least, most) ints, each from `low` to `high`."""
    for index, item in enumerate(items(value, field, *size)):
        integer(item, f"{field}[{index}]", low, high)
    return value


def numbers(value: Any, field: str, length: int) -> list[float]:
    """A list of `length` finite numbers."""
    for index, item in enumerate(items(value, field, length, length)):
        number(item, f"{field}[{index}]")
    return value


def flags(value: Any, field: str, length: int) -> list[bool]:
    """A list of `length` JSON trues and falses."""
    for index, item in enumerate(items(value, field, length, length)):
        flag(item, f"{field}[{index}]")
    return value


def seat(value: Any, field: str, num_players: int, none: bool = False) -> int:
    """A seat number, or -1 (no seat) where `none`."""
    return integer(value, field, -1 if none else 0, num_players - 1)


def card(value: Any, field: str, deck_size: int, none: bool = False) -> int:
    """A card id (a deck index), or -1 (no card) where `none`."""
    return integer(value, field, -1 if none else 0, deck_size - 1)


def cards(value: Any, field: str, deck_size: int, size: tuple[int, int | None] = (0, None)) -> list[int]:
    """A list of `size` (least, most) card ids."""
    return integers(value, field, 0, deck_size - 1, size)


def each_card_once(places: Mapping[str, Iterable[int]], deck_size: int, whole_deck: bool = True) -> None:
    """No card id in two places (or twice in one); with `whole_deck`, every card of the deck
    somewhere. `places` maps each place's field name to its (already checked) card ids."""
    found: dict[int, str] = {}
    for place, held in places.items():
        for held_card in held:
            if held_card in found:
                raise fail(place, f"holds card {held_card}, which {found[held_card]!r} holds too")
            found[held_card] = place
    if whole_deck and len(found) != deck_size:
        missing = sorted(set(range(deck_size)) - set(found))
        raise StateError(f"the state's cards miss {len(missing)} of the deck's {deck_size}: ids {_got(missing)}")


def hand_history(log: Any, num_players: int, field: str = "log") -> list[dict[str, Any]]:
    """A hand history (core history.py): a list of events, each an object with an integer `hand`
    (0 or more), a string `kind`, a `seat` that is null or a seat number, and `private`, when
    present, an object."""
    for index, event in enumerate(items(log, field)):
        where = f"{field}[{index}]"
        if type(event) is not dict:
            raise fail(where, f"must be an event object, got {_got(event)}")
        for key in ("hand", "kind", "seat"):
            if key not in event:
                raise fail(where, f"has no {key!r}")
        integer(event["hand"], f"{where}.hand", 0, MAX_SEED)
        if type(event["kind"]) is not str:
            raise fail(f"{where}.kind", f"must be a string, got {_got(event['kind'])}")
        if event["seat"] is not None:
            seat(event["seat"], f"{where}.seat", num_players)
        if "private" in event and type(event["private"]) is not dict:
            raise fail(f"{where}.private", f"must be an object, got {_got(event['private'])}")
    return log
