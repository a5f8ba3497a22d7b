"""The compiled part of Dividha's observation (encode.py): the table's numbers written from one
int64 row. Kept apart so that importing the game loads no numba: the encoder imports it when built."""

from __future__ import annotations

from numba import njit

from .encode import (  # the segment and row positions: constants to the compiled code
    _ALL_IN,
    _ANTE,
    _CALLS,
    _DEALER,
    _FOLDED,
    _FORFEIT,
    _HAND_NUMBER,
    _IN_MATCH,
    _IN_ROUND,
    _PAID,
    _PHASE,
    _RAISE_SIZES,
    _RAISES,
    _ROUND,
    _ROW_ANTE,
    _ROW_BETS,
    _ROW_CURRENT_BET,
    _ROW_DEALER,
    _ROW_FORFEIT,
    _ROW_HAND_NUMBER,
    _ROW_LOSE,
    _ROW_MIN_RAISE,
    _ROW_OWN_BET,
    _ROW_PHASE,
    _ROW_POT,
    _ROW_RAISE_SIZES,
    _ROW_ROUND,
    _ROW_ROUND_TO_ACT,
    _ROW_SEAT,
    _ROW_SEATS,
    _ROW_TRADING_TO_ACT,
    _ROW_WIN,
    _SEAT_BLOCKS,
    _STACKS,
    _TABLET,
    _TO_ACT,
    _TO_CALL,
    COUNT_SCALE,
)


@njit(cache=True)
def write_table(obs, row, scales):
    """Write the table's numbers (`DividhaEncoder._table_row`) into an observation holding the
    seat's card segments. `scales`: per chip, the bets_made cap, starting stack, max hands (0: no match)."""
    per_chip, cap, starting, max_hands = scales[0], scales[1], scales[2], scales[3]
    n = (row.shape[0] - _ROW_SEATS) // _SEAT_BLOCKS
    seat = row[_ROW_SEAT]
    obs[_PHASE + row[_ROW_PHASE]] = 1.0
    obs[_DEALER + (row[_ROW_DEALER] - seat) % n] = 1.0
    betting = row[_ROW_ROUND] >= 0
    for other in range(n):
        r = (other - seat) % n
        at = _ROW_SEATS + other
        chips = row[at]
        obs[_STACKS + r] = chips * per_chip
        obs[_PAID + r] = row[at + n] * per_chip
        if betting:
            obs[_IN_ROUND + r] = row[at + 2 * n] * per_chip
        if row[at + 3 * n]:
            obs[_IN_MATCH + r] = 1.0
            if row[at + 4 * n]:
                obs[_FOLDED + r] = 1.0
            elif chips == 0:
                obs[_ALL_IN + r] = 1.0
        for block, start in ((5, _RAISES), (6, _CALLS)):
            count = row[at + block * n]
            if count:
                obs[start + r] = count / COUNT_SCALE if count < COUNT_SCALE else 1.0
    obs[_TABLET] = row[_ROW_WIN] * per_chip
    obs[_TABLET + 1] = row[_ROW_LOSE] * per_chip
    obs[_TABLET + 2] = row[_ROW_POT] * per_chip  # pot
    obs[_FORFEIT] = row[_ROW_FORFEIT] * per_chip
    if betting:
        current = row[_ROW_CURRENT_BET]
        obs[_ROUND + row[_ROW_ROUND]] = 1.0
        obs[_TO_ACT + (row[_ROW_ROUND_TO_ACT] - seat) % n] = 1.0
        obs[_TO_CALL] = (current - row[_ROW_OWN_BET]) * per_chip
        obs[_TO_CALL + 1] = current * per_chip  # current_bet
        obs[_TO_CALL + 2] = row[_ROW_MIN_RAISE] * per_chip  # min_raise
        obs[_TO_CALL + 3] = min(row[_ROW_BETS] / cap, 1.0)  # bets_made
        for option in range(4):
            increment = row[_ROW_RAISE_SIZES + option]
            if increment:
                obs[_RAISE_SIZES + option] = increment * per_chip
    if row[_ROW_TRADING_TO_ACT] >= 0:
        obs[_TO_ACT + (row[_ROW_TRADING_TO_ACT] - seat) % n] = 1.0
    obs[_ANTE] = min(row[_ROW_ANTE] / starting, 1.0)
    if max_hands:
        obs[_HAND_NUMBER] = row[_ROW_HAND_NUMBER] / max_hands
