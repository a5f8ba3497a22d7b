"""The compiled part of Tilt's observation (encode.py): every segment, written from flat buffers of
the state (`write_observation`), the card-set features from the seat's own cards (`write_card_sets`).
Both mirror `reference_observation` (observation_reference.py) bit for bit; positions and buffer
fields come from layout.py. Kept apart so that importing the game loads no numba: the encoder
imports it when built."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, typeof, types

from .layout import (  # the segment and buffer positions, the card ranks: constants to the compiled code
    AT_ALL_IN,
    AT_BETS_MADE,
    AT_BETTING_ROUND,
    AT_CARDS_MOVED,
    AT_CARRIED,
    AT_CHICKEN,
    AT_DEALER,
    AT_EXCHANGE_KIND,
    AT_EXCHANGE_LIMIT,
    AT_FACE_DOWN,
    AT_FACE_UP,
    AT_FINE_PRINT,
    AT_FOLDED,
    AT_GRAVITY_CARRIED,
    AT_GRID,
    AT_HAND_CATEGORY,
    AT_HAND_CONTRIBUTIONS,
    AT_HAND_FLAGS,
    AT_HAND_TIER,
    AT_HAND_TOP,
    AT_HAZARD_ROW,
    AT_IN_HAND,
    AT_MATCH,
    AT_OWN_KEEP,
    AT_OWN_PALM,
    AT_OWN_THUMB,
    AT_PALM_SIZES,
    AT_PAYCHECK,
    AT_PHASE,
    AT_PILES,
    AT_POT,
    AT_ROUND_BETS,
    AT_ROUND_CONTRIBUTIONS,
    AT_SET_FEATURES,
    AT_SLOTS,
    AT_STACKS,
    AT_TO_ACT,
    AT_TO_CALL,
    AT_UNIT,
    BASE,
    BET_CONTRIBUTIONS,
    BET_INDEX,
    BETTING,
    BETTING_ROUND,
    CAP,
    CARRIED,
    CHICKEN,
    CONTRIBUTIONS,
    CURRENT_BET,
    DEALER,
    DISCARDS,
    EXCHANGE_KIND,
    EXCHANGE_LIMIT,
    FINE,
    FIRST_SET,
    FOLDED,
    GRAVITY,
    GRID,
    HAND_NUMBER,
    HAUL_INDEX,
    HELD,
    IN_HAND,
    KEEP,
    MAX_OWN,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_VOIDS,
    ORBIT,
    PAYCHECK,
    PHASE,
    PUBLIC_PILES,
    RANKS,
    REVEALED,
    ROUND_BETS,
    ROW,
    SIGNAL,
    STACKS,
    STOCK,
    TIER,
    TO_ACT,
    TOP,
    UNIT,
    VOIDS,
)

_BYTES = types.Bytes(types.uint8, 1, "C", readonly=True)


@njit(cache=True)
def write_observation(
    out: np.ndarray, seat: int, packed_numbers: bytes, lens: bytes, cards: bytes, moves: bytearray, scales: np.ndarray
) -> None:
    """Write every segment but the card-set features (`write_card_sets`) into `out`, a blank vector:
    `reference_observation` (observation_reference.py) without its `write_card_sets`, from buffers.

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
    revealed = numbers[table + REVEALED]
    owned = np.zeros(NUM_CARDS, np.bool_)
    for part, at in ((seat, AT_OWN_THUMB), (n + seat, AT_OWN_PALM)):
        for i in range(start[part], start[part + 1]):
            out[at + cards[i]] = 1.0
            owned[cards[i]] = True
    slot = 0
    for card in range(NUM_CARDS):
        if owned[card]:
            out[AT_SLOTS + slot * NUM_CARDS + card] = 1.0
            slot += 1
    for other in range(n):
        r = (other - seat) % n
        at = AT_FACE_UP + r * NUM_CARDS
        for i in range(start[other], start[other + 1]):
            out[at + cards[i]] = 1.0
        folded = numbers[FOLDED * n + other]
        if revealed and not folded:
            for i in range(start[n + other], start[n + other + 1]):
                out[at + cards[i]] = 1.0
        chips, carried = numbers[STACKS * n + other], numbers[CARRIED * n + other]
        out[AT_PALM_SIZES + r] = lens[n + other] / MAX_OWN
        out[AT_STACKS + r] = chips / bank
        contributed = numbers[CONTRIBUTIONS * n + other] / starting
        out[AT_HAND_CONTRIBUTIONS + r] = contributed if contributed < 1.0 else 1.0
        if carried:
            out[AT_CARRIED + r] = carried / bank
        if folded:
            out[AT_FOLDED + r] = 1.0
        elif chips == 0:
            out[AT_ALL_IN + r] = 1.0
        if numbers[IN_HAND * n + other]:
            out[AT_IN_HAND + r] = 1.0
    if revealed:
        for part, at in ((piles + FINE, AT_FINE_PRINT), (piles + CHICKEN, AT_CHICKEN)):
            for i in range(start[part], start[part + 1]):
                out[at + cards[i]] = 1.0
    else:
        if lens[piles + FINE]:
            out[AT_FACE_DOWN + 1] = 1.0
        if lens[piles + CHICKEN]:
            out[AT_FACE_DOWN + 2] = 1.0
    grid = piles + GRID
    for i in range(start[grid], start[grid + 1]):
        out[AT_GRID + (i - start[grid]) * NUM_CARDS + cards[i]] = 1.0
    for pile, at in PUBLIC_PILES:
        for i in range(start[piles + pile], start[piles + pile + 1]):
            out[at + cards[i]] = 1.0
    out[AT_DEALER + (numbers[table + DEALER] - seat) % n] = 1.0
    if numbers[table + TO_ACT] >= 0:
        out[AT_TO_ACT + (numbers[table + TO_ACT] - seat) % n] = 1.0
    out[AT_PHASE + numbers[table + PHASE]] = 1.0
    if numbers[table + BETTING_ROUND]:
        out[AT_BETTING_ROUND + numbers[table + BETTING_ROUND] - 1] = 1.0
    out[AT_EXCHANGE_KIND + numbers[table + EXCHANGE_KIND]] = 1.0
    for i in range(start[piles + ROW], start[piles + ROW + 1]):
        out[AT_HAZARD_ROW + cards[i]] = 1.0
    if numbers[table + GRAVITY]:
        out[AT_GRAVITY_CARRIED] = 1.0
    if numbers[table + SIGNAL]:
        out[AT_FACE_DOWN] = 1.0
    in_pots = 0  # the hand's contributions and the carried chips
    for i in range(CONTRIBUTIONS * n, (CARRIED + 1) * n):
        in_pots += numbers[i]
    pot = in_pots / bank
    out[AT_POT] = pot if pot < 1.0 else 1.0
    if numbers[table + PAYCHECK]:
        out[AT_PAYCHECK] = 1.0
    if numbers[table + BETTING]:
        unit, cap = numbers[table + UNIT], numbers[table + CAP]
        scale = max(unit * cap, 1)
        for other in range(n):
            chips = numbers[BET_CONTRIBUTIONS * n + other]
            if chips:
                share = chips / scale
                out[AT_ROUND_CONTRIBUTIONS + (other - seat) % n] = share if share < 1.0 else 1.0
        to_call = (numbers[table + CURRENT_BET] - numbers[BET_CONTRIBUTIONS * n + seat]) / (unit if unit > 1 else 1)
        out[AT_TO_CALL] = to_call if to_call < 1.0 else 1.0
        out[AT_ROUND_BETS] = numbers[table + ROUND_BETS] / cap
        unit_share = unit / big_bet
        out[AT_UNIT] = unit_share if unit_share < 1.0 else 1.0
    if numbers[table + KEEP] >= 0:
        out[AT_OWN_KEEP + numbers[table + KEEP]] = 1.0
    if numbers[table + EXCHANGE_LIMIT] >= 0:
        out[AT_EXCHANGE_LIMIT] = numbers[table + EXCHANGE_LIMIT] / 3
    out[AT_PILES] = numbers[table + STOCK] / NUM_CARDS
    out[AT_PILES + 1] = numbers[table + DISCARDS] / NUM_CARDS
    out[AT_PILES + 2] = numbers[table + VOIDS] / NUM_VOIDS
    held = numbers[table + HELD]
    if held:
        tier, base, top = numbers[table + TIER], numbers[table + BASE], abs(numbers[table + TOP]) / 12
        out[AT_HAND_CATEGORY + abs(base)] = 1.0
        out[AT_HAND_TIER + abs(tier)] = 1.0
        out[AT_HAND_FLAGS] = numbers[table + ORBIT]
        out[AT_HAND_FLAGS + 1] = base < 0 or tier < 0
        out[AT_HAND_FLAGS + 2] = held < 3
        out[AT_HAND_TOP] = top if top < 1.0 else 1.0
    if numbers[table + HAND_NUMBER] and match_scale:
        out[AT_MATCH] = numbers[table + HAND_NUMBER] / match_scale
    step = 1.0 / max_bets
    for i in range(0, len(moves), 4):
        phase, round_number, actor, value = moves[i], moves[i + 1], moves[i + 2], moves[i + 3]
        if phase == BET_INDEX:
            if value == 2:  # a bet or raise
                at = AT_BETS_MADE + (round_number - 1) * MAX_PLAYERS + (actor - seat) % n
                out[at] = out[at] + step
        elif phase != HAUL_INDEX:
            at = AT_CARDS_MOVED + (actor - seat) % n
            out[at] = out[at] + value / MAX_OWN


@njit(cache=True)
def write_card_sets(out: np.ndarray, own: bytes, rows: np.ndarray, haul: bool) -> None:
    """The card-set features of the seat to decide, into `out`: for each card set m over the held
    slots (`own`, the own cards by card index), the sum of `rows` (encode.py, CARD_ROWS: `card_row`
    of each card, paired or not) over the cards it gives up: the cards it names, or at a Haul the
    cards it does not name. Mirrors `write_card_sets` of observation_reference.py."""
    held, features = len(own), rows.shape[1]
    given_up = np.empty((held, features), np.float32)  # each own card's row
    for slot in range(held):
        paired = 0
        for other in range(held):
            if other != slot and RANKS[own[other]] == RANKS[own[slot]]:
                paired = 1
        given_up[slot] = rows[2 * own[slot] + paired]
    for feature in range(features):
        everything = np.float32(0.0)
        for slot in range(held):
            everything += given_up[slot, feature]
        at = AT_SET_FEATURES + feature * NUM_ACTIONS + FIRST_SET
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
