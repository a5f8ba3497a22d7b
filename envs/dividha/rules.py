"""Dividha rules as pure functions over canonical card codes (rulebook section 12, Checkable API).

Each public function validates its input and delegates to an index-level twin that game.py calls
on its hot path (deck indices in, packed keys out):

- `key_ids(cards)`: the packed key (an int; integer order is key order) of the best hand;
- `showdown_ids(cards)`: the packed key and the deck indices of `best_cards`;
- `is_legal_ids(cards)`: the Syncretic Rule for cards played together;
- `unpack_key`, `category_of`, `hand_name_of`: a packed key's tuple, category id and name;
- `settle_keys(win, lose, keys, dealer)`: settlement from packed keys (None for a folded seat).

The deck layout is in deck.py; the evaluator, compiled with numba, is in evaluator.py and loads on
first use (importing the game loads no numba), evaluator_reference.py standing in for it while it
compiles; betting sizes and the layered settlement
are the core engine's (`envs/core/betting.py`, `envs/core/settlement.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np
from cardarena.envs.core import betting, settlement
from cardarena.envs.core.cards import Deck
from cardarena.envs.core.compiling import Background, in_numba_cache

from . import evaluator_reference
from .deck import (  # noqa: F401  (the deck's constants, imported from here by the game)
    CATEGORY_NAMES,
    CATEGORY_SHIFT,
    DECK,
    DECK_SIZE,
    DEUCE_OF_HEAVEN,
    DEUCE_OF_HELL,
    DIVINE_INTERVENTION,
    GOD,
    HEAVEN_SIDE,
    HELL_SIDE,
    MAX_CARDS,
    MAX_HAND,
    RANKS,
    SATAN,
    SUITS,
    THE_THREE,
    pack_key,
    unpack_key,
)

Key = tuple[int, int, int, int, tuple[int, ...]]
CARDS = Deck(DECK)
SPLITS = ("WIN", "EVEN", "LOSE")
LIMITS = betting.LIMITS


# ---------------------------------------------------------------- index level (hot path)


def _compile() -> ModuleType:
    from numba import types

    from . import evaluator

    cards, flag = types.int64[::1], types.boolean
    evaluator.showdown.compile((cards, flag))
    evaluator.legal_hand.compile((cards, flag))
    return evaluator


def _cached() -> bool:
    from . import evaluator

    return in_numba_cache(evaluator.showdown, evaluator.legal_hand)


# the compiled evaluator, loaded on first use, not with the game: compiled in a background thread,
# or read at once from a warm numba cache (core/compiling.py); until then evaluator_reference.py,
# which tests hold equal to it, gives the same keys
COMPILED = Background("dividha", _compile, _cached)


def _sorted_ids(cards: Sequence[int]) -> np.ndarray:
    return np.array(sorted(cards), np.int64)


def showdown_ids(cards: Sequence[int], divine_intervention: bool = False) -> tuple[int, list[int]]:
    """Packed key of the best legal hand of at most five of 1 to 6 distinct deck indices, and its cards in deck
    order."""
    evaluator = COMPILED.ready()
    if evaluator is None:
        key, shown = evaluator_reference.showdown(cards, bool(divine_intervention))
        return pack_key(key), shown
    ids = _sorted_ids(cards)
    packed, mask = evaluator.showdown(ids, bool(divine_intervention))
    return int(packed), [int(ids[position]) for position in range(len(ids)) if mask >> position & 1]


def key_ids(cards: Sequence[int], divine_intervention: bool = False) -> int:
    """Packed key of the best hand of 1 to 6 distinct deck indices (larger is better; `unpack_key` gives the tuple)."""
    evaluator = COMPILED.ready()
    if evaluator is None:
        return pack_key(evaluator_reference.showdown(cards, bool(divine_intervention))[0])
    return int(evaluator.showdown(np.array(cards, np.int64), bool(divine_intervention))[0])  # the key ignores order


def is_legal_ids(cards: Sequence[int], divine_intervention: bool = False) -> bool:
    """Whether distinct deck indices may be played together under the Syncretic Rule (5.1); no size check."""
    evaluator = COMPILED.ready()
    if evaluator is None:
        return evaluator_reference.is_legal(cards, bool(divine_intervention))
    return bool(evaluator.legal_hand(np.array(cards, np.int64), bool(divine_intervention)))


def category_of(packed: int) -> int:
    """Category id (5.3) of a packed key."""
    return packed >> CATEGORY_SHIFT


def hand_name_of(packed: int) -> str:
    """Category name (5.3) of a packed key."""
    return CATEGORY_NAMES[category_of(packed)]


def settle_keys(
    win_stakes: Sequence[int],
    lose_stakes: Sequence[int],
    keys: Sequence[int | None],
    dealer: int,
    forfeit: int = 0,
) -> list[int]:
    """Chips each seat receives (6.6) given each seat's hand key, None for a folded seat.

    The Win column goes to the best key, the Lose column to the worst, layer by layer through the
    core's column settlement; folded seats' chips above every live stake are shared on their own
    (6.6: `rest`); odd chips go clockwise from the dealer's left; the forfeit to the best key.
    """
    folded = [key is None for key in keys]
    columns: tuple[tuple[Sequence[int], settlement.Pick], ...] = ((win_stakes, "best"), (lose_stakes, "worst"))
    first_seat = (dealer + 1) % len(keys)
    return [
        int(chips)
        for chips in settlement.settle_columns(
            columns, folded, keys, first_seat, forfeit=forfeit, rest_apart=True
        ).payouts
    ]


# ---------------------------------------------------------------- Checkable API (section 12)


def _ids(cards: Sequence[str], least: int = 1, most: int = MAX_CARDS, what: str = "cards") -> list[int]:
    """Deck indices of distinct codes, between `least` and `most` of them; ValueError naming the problem."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise ValueError(f"{what} must be a list of card codes, got {cards!r}")
    if not least <= len(cards) <= most:
        raise ValueError(f"{what} must hold {least} to {most} cards, got {len(cards)}: {list(cards)!r}")
    return CARDS.indices_of(cards)


def evaluate(cards: list[str], divine_intervention: bool = False) -> Key:
    """Key (category, providence, immortal, majority_sum, high) of the best legal hand of at most five of
    `cards` (5.4)."""
    return unpack_key(key_ids(_ids(cards), divine_intervention))


def best_cards(cards: list[str], divine_intervention: bool = False) -> list[str]:
    """The cards shown at showdown: the largest hand reaching the best key, lowest indices first on ties; deck order."""
    return CARDS.codes_of(showdown_ids(_ids(cards), divine_intervention)[1])


def hand_name(cards: list[str], divine_intervention: bool = False) -> str:
    """Name of the best hand's category, as in 5.3."""
    return hand_name_of(key_ids(_ids(cards), divine_intervention))


def compare(a: list[str], b: list[str], divine_intervention: bool = False) -> int:
    """1 if `a`'s best hand beats `b`'s, -1 if it loses, 0 on a tie (each evaluated on its own)."""
    key_a = key_ids(_ids(a, what="a"), divine_intervention)
    key_b = key_ids(_ids(b, what="b"), divine_intervention)
    return (key_a > key_b) - (key_a < key_b)


def is_legal_hand(cards: list[str], divine_intervention: bool = False) -> bool:
    """Whether 1 to 5 cards may be played together (Syncretic Rule, 5.1)."""
    return is_legal_ids(_ids(cards, most=MAX_HAND), divine_intervention)


def split_chips(amount: int, split: str) -> tuple[int, int]:
    """(win_part, lose_part) of a payment: WIN all to Win, LOSE all to Lose, EVEN half each with an odd chip to Win."""
    _require_chips("amount", amount)
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; splits are {', '.join(SPLITS)}")
    win = win_part(amount, SPLITS.index(split))
    return win, amount - win


def win_part(amount: int, split: int) -> int:
    """The chips of a payment written in Win, by split index (WIN, EVEN, LOSE): all of them, half
    with the odd chip, none. No validation: the game's hot path calls it with chips it moved."""
    return amount if split == 0 else (amount + 1) // 2 if split == 1 else 0


def raise_options(limit: str, pot: int, to_call: int, stack: int, min_raise: int) -> list[int | None]:
    """Increments of the raise options [MIN, HALF_POT, POT, ALL_IN], None where not legal (6.3)."""
    for name, value in (("pot", pot), ("to_call", to_call), ("stack", stack), ("min_raise", min_raise)):
        _require_chips(name, value)
    return betting.raise_options(limit, pot, to_call, stack, min_raise)


def settle(
    win_stakes: list[int],
    lose_stakes: list[int],
    hands: list[list[str] | None],
    dealer: int,
    divine_intervention: bool = False,
    forfeit: int = 0,
) -> list[int]:
    """Chips each seat receives (6.6); `hands[s]` is None for a folded seat, else its 1 to 6 cards."""
    for name, values in (("win_stakes", win_stakes), ("lose_stakes", lose_stakes), ("hands", hands)):
        if isinstance(values, str) or not isinstance(values, Sequence):
            raise ValueError(f"{name} must be a list with one entry per seat, got {values!r}")
    n = len(hands)
    if not len(win_stakes) == len(lose_stakes) == n:
        raise ValueError(
            f"win_stakes ({len(win_stakes)}), lose_stakes ({len(lose_stakes)}) and hands ({n}) need one entry per seat"
        )
    for name, values in (("win_stakes", win_stakes), ("lose_stakes", lose_stakes)):
        for value in values:
            _require_chips(name, value)
    _require_chips("forfeit", forfeit)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ValueError(f"dealer={dealer!r} must be a seat from 0 to {n - 1}")
    ids = [None if hand is None else _ids(hand, what=f"hands[{seat}]") for seat, hand in enumerate(hands)]
    held = [card for hand in ids if hand is not None for card in hand]
    if not held:
        raise ValueError("settlement needs at least one seat that has not folded (a hand that is not None)")
    if len(set(held)) != len(held):
        raise ValueError("the hands of different seats share a card")
    contested = sum(hand is not None for hand in ids) > 1
    keys = [None if hand is None else key_ids(hand, divine_intervention) if contested else 0 for hand in ids]
    return settle_keys(win_stakes, lose_stakes, keys, dealer, forfeit)


def _require_chips(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} must hold whole chips >= 0, got {value!r}")
