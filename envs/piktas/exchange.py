"""Piktas's exchange actions (rulebook 4.2 and 4.6): the one decoding of an exchange id, the legal
ids of a turn, and what an id does to a hand and the field.

Id 0 is `pass`; id 1 + 5*slot + position puts hand slot `slot` (the hand sorted by deck index,
voids last) onto field position `position` (positions in deal order): a swap, or a void laid on
the position's card when the slot holds a void. Which moves are legal is one rule,
`rules.exchange_targets`; compiled code reads the decoding from `ACTION_SLOT` and
`ACTION_POSITION`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import rules
from .rules import HAND_SIZE

PASS = 0
FIRST_EXCHANGE = 1
EXCHANGE_POSITIONS = 5  # at most five positions exist during the exchange turns (4.6)
NUM_EXCHANGE_ACTIONS = FIRST_EXCHANGE + HAND_SIZE * EXCHANGE_POSITIONS


def exchange_id(slot: int, position: int) -> int:
    """The id that puts hand slot `slot` onto field position `position`."""
    return FIRST_EXCHANGE + EXCHANGE_POSITIONS * slot + position


def slot_and_position(action: int) -> tuple[int, int]:
    """(hand slot, field position) of an exchange id other than pass."""
    return divmod(action - FIRST_EXCHANGE, EXCHANGE_POSITIONS)


def _decoding_tables() -> tuple[np.ndarray, np.ndarray]:
    slots = np.full(NUM_EXCHANGE_ACTIONS, -1, np.int64)
    positions = np.full(NUM_EXCHANGE_ACTIONS, -1, np.int64)
    for action in range(FIRST_EXCHANGE, NUM_EXCHANGE_ACTIONS):
        slots[action], positions[action] = slot_and_position(action)
    return slots, positions


ACTION_SLOT, ACTION_POSITION = _decoding_tables()  # per id: its hand slot and field position (-1: pass)
_IDS = [[exchange_id(slot, position) for position in range(EXCHANGE_POSITIONS)] for slot in range(HAND_SIZE)]


def legal_exchange_ids(hand: list[int], positions: list[list[int]]) -> list[int]:
    """The legal ids of an exchange turn, ascending: pass, then every legal move (4.2) the
    action table can name (a sixth position is dealt only after the last exchange turn)."""
    targets = [position for position in rules.exchange_targets(positions) if position < EXCHANGE_POSITIONS]
    return [PASS] + [_IDS[slot][position] for slot in range(len(hand)) for position in targets]


def play_exchange(hand: list[int], positions: list[list[int]], action: int) -> tuple[int, int]:
    """Play a legal exchange id on a sorted hand and the field positions, in place (4.2).

    Returns (card given, card taken): (-1, -1) for pass, (void, -1) for a void laid.
    """
    if action == PASS:
        return -1, -1
    slot, position = slot_and_position(action)
    given, stack = hand.pop(slot), positions[position]
    if rules.is_void(given):
        stack.append(given)
        return given, -1
    taken, stack[0] = stack[0], given
    hand.append(taken)
    hand.sort()
    return given, taken


def describe_exchange(hand: list[int], positions: list[list[int]], action: int) -> tuple[str, dict[str, Any]]:
    """An exchange id at this turn: its label in the rulebook's words (pass, swap:<hand card>:<field
    card> or void:<void>:<field card>; an id that is not legal here says why) and its details
    (kind pass, swap or void; cards the hand card and the field card; the field position)."""
    if action == PASS:
        return "pass", {"kind": "pass", "cards": []}
    slot, position = slot_and_position(action)
    if action not in legal_exchange_ids(hand, positions):
        unknown = f"hand slot {slot} onto field position {position} (no card there, or none it can take)"
        return unknown, {"kind": "unknown", "cards": []}
    card, target = hand[slot], positions[position][0]
    label = rules.move_label(card, target)
    details = {"kind": label.partition(":")[0], "cards": [rules.DECK[card], rules.DECK[target]], "position": position}
    return label, details
