"""The compiled part of Tilt's observation (encode.py): every segment, written from flat buffers of
the state (`write_observation`), the card-set features from the seat's own cards (`write_card_sets`).
Kept apart so that importing the game loads no numba: the encoder imports it when built."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, typeof, types

from .encode import (  # the segment and buffer positions: constants to the compiled code
    _AT_ALL_IN,
    _AT_BETS_MADE,
    _AT_BETTING_ROUND,
    _AT_CARDS_MOVED,
    _AT_CARRIED,
    _AT_CHICKEN,
    _AT_DEALER,
    _AT_EXCHANGE_KIND,
    _AT_EXCHANGE_LIMIT,
    _AT_FACE_DOWN,
    _AT_FACE_UP,
    _AT_FINE_PRINT,
    _AT_FOLDED,
    _AT_GRAVITY_CARRIED,
    _AT_GRID,
    _AT_HAND_CATEGORY,
    _AT_HAND_CONTRIBUTIONS,
    _AT_HAND_FLAGS,
    _AT_HAND_TIER,
    _AT_HAND_TOP,
    _AT_HAZARD_ROW,
    _AT_IN_HAND,
    _AT_MATCH,
    _AT_OWN_KEEP,
    _AT_OWN_PALM,
    _AT_OWN_THUMB,
    _AT_PALM_SIZES,
    _AT_PAYCHECK,
    _AT_PHASE,
    _AT_PILES,
    _AT_POT,
    _AT_ROUND_BETS,
    _AT_ROUND_CONTRIBUTIONS,
    _AT_SET_FEATURES,
    _AT_SLOTS,
    _AT_STACKS,
    _AT_TO_ACT,
    _AT_TO_CALL,
    _AT_UNIT,
    _BASE,
    _BET_CONTRIBUTIONS,
    _BET_INDEX,
    _BETTING,
    _BETTING_ROUND,
    _CAP,
    _CARRIED,
    _CHICKEN,
    _CONTRIBUTIONS,
    _CURRENT_BET,
    _DEALER,
    _DISCARDS,
    _EXCHANGE_KIND,
    _EXCHANGE_LIMIT,
    _FINE,
    _FOLDED,
    _GRAVITY,
    _GRID,
    _HAND_NUMBER,
    _HAUL_INDEX,
    _HELD,
    _IN_HAND,
    _KEEP,
    _ORBIT,
    _PAYCHECK,
    _PHASE,
    _PUBLIC_PILES,
    _REVEALED,
    _ROUND_BETS,
    _ROW,
    _SIGNAL,
    _STACKS,
    _STOCK,
    _TIER,
    _TO_ACT,
    _TOP,
    _UNIT,
    _VOIDS,
)
from .game import FIRST_SET, MAX_OWN, MAX_PLAYERS, NUM_ACTIONS, NUM_CARDS, NUM_VOIDS
from .rules import RANK

_RANK = np.array(RANK, np.int64)
_BYTES = types.Bytes(types.uint8, 1, "C", readonly=True)


@njit(cache=True)
def write_observation(
    out: np.ndarray, seat: int, packed_numbers: bytes, lens: bytes, cards: bytes, moves: bytearray, scales: np.ndarray
) -> None:
    """Write every segment but the card-set features (`write_card_sets`) into `out`, a blank vector.

    `packed_numbers` (int64s) and `cards` as laid out in encode.py (`TiltEncoder.observation`),
    `lens` the length of each part of `cards`; `moves` the public moves' four fields end to end; `scales`
    the table size, starting stack, chips in play, match length (0 for one hand), max bets, big bet.
    """
    n, starting, bank, match_scale, max_bets, big_bet = scales[0], scales[1], scales[2], scales[3], scales[4], scales[5]
    numbers = np.frombuffer(packed_numbers, np.int64)
    start = np.zeros(len(lens) + 1, np.int64)  # where each part of `cards` starts
    for part in range(len(lens)):
        start[part + 1] = start[part] + lens[part]
    piles, table = 2 * n, 6 * n
    revealed = numbers[table + _REVEALED]
    owned = np.zeros(NUM_CARDS, np.bool_)
    for part, at in ((seat, _AT_OWN_THUMB), (n + seat, _AT_OWN_PALM)):
        for i in range(start[part], start[part + 1]):
            out[at + cards[i]] = 1.0
            owned[cards[i]] = True
    slot = 0
    for card in range(NUM_CARDS):
        if owned[card]:
            out[_AT_SLOTS + slot * NUM_CARDS + card] = 1.0
            slot += 1
    for other in range(n):
        r = (other - seat) % n
        at = _AT_FACE_UP + r * NUM_CARDS
        for i in range(start[other], start[other + 1]):
            out[at + cards[i]] = 1.0
        folded = numbers[_FOLDED * n + other]
        if revealed and not folded:
            for i in range(start[n + other], start[n + other + 1]):
                out[at + cards[i]] = 1.0
        chips, carried = numbers[_STACKS * n + other], numbers[_CARRIED * n + other]
        out[_AT_PALM_SIZES + r] = lens[n + other] / MAX_OWN
        out[_AT_STACKS + r] = chips / bank
        contributed = numbers[_CONTRIBUTIONS * n + other] / starting
        out[_AT_HAND_CONTRIBUTIONS + r] = contributed if contributed < 1.0 else 1.0
        if carried:
            out[_AT_CARRIED + r] = carried / bank
        if folded:
            out[_AT_FOLDED + r] = 1.0
        elif chips == 0:
            out[_AT_ALL_IN + r] = 1.0
        if numbers[_IN_HAND * n + other]:
            out[_AT_IN_HAND + r] = 1.0
    if revealed:
        for part, at in ((piles + _FINE, _AT_FINE_PRINT), (piles + _CHICKEN, _AT_CHICKEN)):
            for i in range(start[part], start[part + 1]):
                out[at + cards[i]] = 1.0
    else:
        if lens[piles + _FINE]:
            out[_AT_FACE_DOWN + 1] = 1.0
        if lens[piles + _CHICKEN]:
            out[_AT_FACE_DOWN + 2] = 1.0
    grid = piles + _GRID
    for i in range(start[grid], start[grid + 1]):
        out[_AT_GRID + (i - start[grid]) * NUM_CARDS + cards[i]] = 1.0
    for pile, at in _PUBLIC_PILES:
        for i in range(start[piles + pile], start[piles + pile + 1]):
            out[at + cards[i]] = 1.0
    out[_AT_DEALER + (numbers[table + _DEALER] - seat) % n] = 1.0
    if numbers[table + _TO_ACT] >= 0:
        out[_AT_TO_ACT + (numbers[table + _TO_ACT] - seat) % n] = 1.0
    out[_AT_PHASE + numbers[table + _PHASE]] = 1.0
    if numbers[table + _BETTING_ROUND]:
        out[_AT_BETTING_ROUND + numbers[table + _BETTING_ROUND] - 1] = 1.0
    out[_AT_EXCHANGE_KIND + numbers[table + _EXCHANGE_KIND]] = 1.0
    for i in range(start[piles + _ROW], start[piles + _ROW + 1]):
        out[_AT_HAZARD_ROW + cards[i]] = 1.0
    if numbers[table + _GRAVITY]:
        out[_AT_GRAVITY_CARRIED] = 1.0
    if numbers[table + _SIGNAL]:
        out[_AT_FACE_DOWN] = 1.0
    in_pots = 0  # the hand's contributions and the carried chips
    for i in range(_CONTRIBUTIONS * n, (_CARRIED + 1) * n):
        in_pots += numbers[i]
    pot = in_pots / bank
    out[_AT_POT] = pot if pot < 1.0 else 1.0
    if numbers[table + _PAYCHECK]:
        out[_AT_PAYCHECK] = 1.0
    if numbers[table + _BETTING]:
        unit, cap = numbers[table + _UNIT], numbers[table + _CAP]
        scale = max(unit * cap, 1)
        for other in range(n):
            chips = numbers[_BET_CONTRIBUTIONS * n + other]
            if chips:
                share = chips / scale
                out[_AT_ROUND_CONTRIBUTIONS + (other - seat) % n] = share if share < 1.0 else 1.0
        to_call = (numbers[table + _CURRENT_BET] - numbers[_BET_CONTRIBUTIONS * n + seat]) / (unit if unit > 1 else 1)
        out[_AT_TO_CALL] = to_call if to_call < 1.0 else 1.0
        out[_AT_ROUND_BETS] = numbers[table + _ROUND_BETS] / cap
        unit_share = unit / big_bet
        out[_AT_UNIT] = unit_share if unit_share < 1.0 else 1.0
    if numbers[table + _KEEP] >= 0:
        out[_AT_OWN_KEEP + numbers[table + _KEEP]] = 1.0
    if numbers[table + _EXCHANGE_LIMIT] >= 0:
        out[_AT_EXCHANGE_LIMIT] = numbers[table + _EXCHANGE_LIMIT] / 3
    out[_AT_PILES] = numbers[table + _STOCK] / NUM_CARDS
    out[_AT_PILES + 1] = numbers[table + _DISCARDS] / NUM_CARDS
    out[_AT_PILES + 2] = numbers[table + _VOIDS] / NUM_VOIDS
    held = numbers[table + _HELD]
    if held:
        tier, base, top = numbers[table + _TIER], numbers[table + _BASE], abs(numbers[table + _TOP]) / 12
        out[_AT_HAND_CATEGORY + abs(base)] = 1.0
        out[_AT_HAND_TIER + abs(tier)] = 1.0
        out[_AT_HAND_FLAGS] = numbers[table + _ORBIT]
        out[_AT_HAND_FLAGS + 1] = base < 0 or tier < 0
        out[_AT_HAND_FLAGS + 2] = held < 3
        out[_AT_HAND_TOP] = top if top < 1.0 else 1.0
    if numbers[table + _HAND_NUMBER] and match_scale:
        out[_AT_MATCH] = numbers[table + _HAND_NUMBER] / match_scale
    step = 1.0 / max_bets
    for i in range(0, len(moves), 4):
        phase, round_number, actor, value = moves[i], moves[i + 1], moves[i + 2], moves[i + 3]
        if phase == _BET_INDEX:
            if value == 2:  # a bet or raise
                at = _AT_BETS_MADE + (round_number - 1) * MAX_PLAYERS + (actor - seat) % n
                out[at] = out[at] + step
        elif phase != _HAUL_INDEX:
            at = _AT_CARDS_MOVED + (actor - seat) % n
            out[at] = out[at] + value / MAX_OWN


@njit(cache=True)
def write_card_sets(out: np.ndarray, own: bytes, rows: np.ndarray, haul: bool) -> None:
    """The card-set features of the seat to decide, into `out`: for each card set m over the held
    slots (`own`, the own cards by card index), the sum of `rows` (encode.py, _CARD_ROWS) over the
    cards it gives up: the cards it names, or at a Haul the cards it does not name."""
    held, features = len(own), rows.shape[1]
    given_up = np.empty((held, features), np.float32)  # each own card's row
    for slot in range(held):
        paired = 0
        for other in range(held):
            if other != slot and _RANK[own[other]] == _RANK[own[slot]]:
                paired = 1
        given_up[slot] = rows[2 * own[slot] + paired]
    for feature in range(features):
        everything = np.float32(0.0)
        for slot in range(held):
            everything += given_up[slot, feature]
        at = _AT_SET_FEATURES + feature * NUM_ACTIONS + FIRST_SET
        for m in range(1 << held):
            named = np.float32(0.0)
            for slot in range(held):
                if m >> slot & 1:
                    named += given_up[slot, feature]
            out[at + m] = everything - named if haul else named


def compiled_writers() -> tuple[Callable[..., None], Callable[..., None]]:
    """`write_observation` and `write_card_sets` compiled (or read from numba's cache) for the
    argument types the encoder passes, as their compiled entry points: a call then skips the
    dispatcher's typing of every argument (about 0.2 µs an observation). An argument of another
    type is refused with a TypeError."""
    vector = types.float32[::1]
    return (
        write_observation.compile((vector, types.int64, _BYTES, _BYTES, _BYTES, typeof(bytearray()), types.int64[::1])),
        write_card_sets.compile((vector, _BYTES, types.float32[:, ::1], types.boolean)),
    )
