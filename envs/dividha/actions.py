"""Dividha's action table: one `Discrete(58)` at every table size and in every configuration.

| ids    | action                                   |
|--------|------------------------------------------|
| 0      | FOLD                                     |
| 1      | CHECK                                    |
| 2-4    | CALL(split): 2 + s                       |
| 5-16   | RAISE(option, split): 5 + 3*o + s        |
| 17-27  | TRADE(c): 17 + c (free trading)          |
| 28-57  | PAID_TRADE(c, split): 28 + 3*(c-1) + s   |

Splits s: 0 WIN, 1 EVEN, 2 LOSE; raise options o: 0 MIN, 1 HALF_POT, 2 POT, 3 ALL_IN; trade
choices c: the 11 subsets of at most two of the slots P1 P2 U1 U2, in `TRADE_CHOICES` order.
"""

from __future__ import annotations

from typing import NamedTuple

from cardarena.envs.core import betting

from .state import SLOT_NAMES

SPLITS = ("WIN", "EVEN", "LOSE")
WIN, EVEN, LOSE = range(3)
RAISE_OPTIONS = ("MIN", "HALF_POT", "POT", "ALL_IN")
TRADE_CHOICES: tuple[tuple[int, ...], ...] = (
    (),
    (0,),
    (1,),
    (2,),
    (3,),
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 2),
    (1, 3),
    (2, 3),
)
FOLD, CHECK, CALL, RAISE, TRADE, PAID_TRADE = 0, 1, 2, 5, 17, 28
NUM_ACTIONS = 58

FOLD_KIND, CHECK_KIND, CALL_KIND, RAISE_KIND, TRADE_KIND = "fold", "check", "call", "raise", "trade"


class Move(NamedTuple):
    """One action id decoded: its kind, raise option, split and trade choice (None where not part of it)."""

    kind: str
    option: int | None = None
    split: int | None = None
    choice: int | None = None


def call_id(split: int) -> int:
    return CALL + split


def raise_id(option: int, split: int) -> int:
    return RAISE + 3 * option + split


def trade_id(choice: int) -> int:
    return TRADE + choice


def paid_trade_id(choice: int, split: int) -> int:
    return PAID_TRADE + 3 * (choice - 1) + split


def _meaning(action: int) -> Move:
    if action == FOLD:
        return Move(FOLD_KIND)
    if action == CHECK:
        return Move(CHECK_KIND)
    if action < RAISE:
        return Move(CALL_KIND, split=action - CALL)
    if action < TRADE:
        option, split = divmod(action - RAISE, 3)
        return Move(RAISE_KIND, option=option, split=split)
    if action < PAID_TRADE:
        return Move(TRADE_KIND, choice=action - TRADE)
    choice, split = divmod(action - PAID_TRADE, 3)
    return Move(TRADE_KIND, split=split, choice=choice + 1)


MOVES = tuple(_meaning(action) for action in range(NUM_ACTIONS))


def decode(action: int) -> Move:
    """The meaning of an action id; ValueError outside 0..57."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is not a Dividha action id (0..{NUM_ACTIONS - 1})")
    return MOVES[action]


_ENGINE_ACTIONS = {FOLD_KIND: betting.FOLD, CHECK_KIND: betting.CHECK, CALL_KIND: betting.CALL}


def engine_action(move: Move) -> str:
    """The core betting engine's name of a betting move."""
    if move.kind == RAISE_KIND:
        assert move.option is not None  # a raise names its option
        return betting.RAISES[move.option]
    return _ENGINE_ACTIONS[move.kind]


def choice_slots(choice: int) -> list[str]:
    """The slot names a trade choice trades in, in the order P1 P2 U1 U2."""
    return [SLOT_NAMES[slot] for slot in TRADE_CHOICES[choice]]


def action_name(action: int) -> str:
    """The action table's name of an id, e.g. RAISE(POT, LOSE) or TRADE([P2,U1])."""
    move = decode(action)
    if move.kind in (FOLD_KIND, CHECK_KIND):
        return move.kind.upper()
    if move.kind in (CALL_KIND, RAISE_KIND):
        assert move.split is not None  # a call or a raise names its split
        if move.kind == CALL_KIND:
            return f"CALL({SPLITS[move.split]})"
        assert move.option is not None  # a raise names its option
        return f"RAISE({RAISE_OPTIONS[move.option]}, {SPLITS[move.split]})"
    assert move.choice is not None  # what is left is a trade, which names its choice
    slots = f"[{','.join(choice_slots(move.choice))}]"
    return f"TRADE({slots})" if move.split is None else f"PAID_TRADE({slots}, {SPLITS[move.split]})"


ACTION_NAMES = tuple(action_name(action) for action in range(NUM_ACTIONS))


class Decision(NamedTuple):
    """One betting decision, computed once: the raise options' increments (`betting.raise_options`,
    None where not offered), the engine's legal actions with their raise increments, the legal ids,
    and the increments with 0 where not offered (the observation's raise sizes)."""

    increments: list[int | None]
    choices: dict[str, int]
    ids: list[int]
    raise_sizes: tuple[int, ...]
