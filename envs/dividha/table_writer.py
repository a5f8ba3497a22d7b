"""The compiled part of Dividha's observation (encode.py): the table's numbers written from one
int64 row. Mirrors `observation_reference.table_numbers`, the plain reference a reader learns the
segments from. Kept apart so that importing the game loads no numba: the encoder imports it when built,
and that compiles it (its one signature given): then, before the game's first step, and not later
in the step while the evaluator compiles in the background (rules.py), which would hold numba's
compiler lock."""

from __future__ import annotations

from numba import njit, types

from .layout import (
    ALL_IN_AT,
    ANTE_AT,
    BETS_MADE_AT,
    CALLS_AT,
    COUNT_SCALE,
    CURRENT_BET_AT,
    DEALER_AT,
    FOLDED_AT,
    FORFEIT_AT,
    HAND_NUMBER_AT,
    IN_MATCH_AT,
    IN_ROUND_AT,
    MIN_RAISE_AT,
    NUM_RAISE_SIZES,
    PAID_AT,
    PHASE_AT,
    POT_AT,
    RAISE_SIZES_AT,
    RAISES_AT,
    ROUND_AT,
    ROW_ANTE,
    ROW_BETS,
    ROW_CURRENT_BET,
    ROW_DEALER,
    ROW_FORFEIT,
    ROW_HAND_NUMBER,
    ROW_LOSE,
    ROW_MIN_RAISE,
    ROW_OWN_BET,
    ROW_PHASE,
    ROW_POT,
    ROW_RAISE_SIZES,
    ROW_ROUND,
    ROW_ROUND_TO_ACT,
    ROW_SEAT,
    ROW_SEATS,
    ROW_TRADING_TO_ACT,
    ROW_WIN,
    SEAT_BLOCKS,
    STACKS_AT,
    TABLET_AT,
    TO_ACT_AT,
    TO_CALL_AT,
)

# the observation, the row (read-only: `np.frombuffer` of bytes), the scales
_SIGNATURE = types.void(types.float32[::1], types.Array(types.int64, 1, "C", readonly=True), types.float64[::1])


@njit(_SIGNATURE, cache=True)
def write_table(obs, row, scales):
    """Write the table's numbers (`DividhaEncoder._table_row`) into an observation holding the
    seat's card segments. `scales`: per chip, the bets_made cap, starting stack, max hands (0: no match)."""
    per_chip, cap, starting, max_hands = scales[0], scales[1], scales[2], scales[3]
    n = (row.shape[0] - ROW_SEATS) // SEAT_BLOCKS
    seat = row[ROW_SEAT]
    obs[PHASE_AT + row[ROW_PHASE]] = 1.0
    obs[DEALER_AT + (row[ROW_DEALER] - seat) % n] = 1.0
    betting = row[ROW_ROUND] >= 0
    for other in range(n):
        r = (other - seat) % n
        at = ROW_SEATS + other
        chips = row[at]
        obs[STACKS_AT + r] = chips * per_chip
        obs[PAID_AT + r] = row[at + n] * per_chip
        if betting:
            obs[IN_ROUND_AT + r] = row[at + 2 * n] * per_chip
        if row[at + 3 * n]:
            obs[IN_MATCH_AT + r] = 1.0
            if row[at + 4 * n]:
                obs[FOLDED_AT + r] = 1.0
            elif chips == 0:
                obs[ALL_IN_AT + r] = 1.0
        for block, start in ((5, RAISES_AT), (6, CALLS_AT)):
            count = row[at + block * n]
            if count:
                obs[start + r] = count / COUNT_SCALE if count < COUNT_SCALE else 1.0
    obs[TABLET_AT] = row[ROW_WIN] * per_chip
    obs[TABLET_AT + 1] = row[ROW_LOSE] * per_chip
    obs[POT_AT] = row[ROW_POT] * per_chip
    obs[FORFEIT_AT] = row[ROW_FORFEIT] * per_chip
    if betting:
        current = row[ROW_CURRENT_BET]
        obs[ROUND_AT + row[ROW_ROUND]] = 1.0
        obs[TO_ACT_AT + (row[ROW_ROUND_TO_ACT] - seat) % n] = 1.0
        obs[TO_CALL_AT] = (current - row[ROW_OWN_BET]) * per_chip
        obs[CURRENT_BET_AT] = current * per_chip
        obs[MIN_RAISE_AT] = row[ROW_MIN_RAISE] * per_chip
        obs[BETS_MADE_AT] = min(row[ROW_BETS] / cap, 1.0)
        for option in range(NUM_RAISE_SIZES):
            increment = row[ROW_RAISE_SIZES + option]
            if increment:
                obs[RAISE_SIZES_AT + option] = increment * per_chip
    if row[ROW_TRADING_TO_ACT] >= 0:
        obs[TO_ACT_AT + (row[ROW_TRADING_TO_ACT] - seat) % n] = 1.0
    obs[ANTE_AT] = min(row[ROW_ANTE] / starting, 1.0)
    if max_hands:
        obs[HAND_NUMBER_AT] = row[ROW_HAND_NUMBER] / max_hands
