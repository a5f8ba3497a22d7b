"""Dividha's observation layout: the segments, their start positions, the scales and the table row.

The one home of these constants, read by the encoder (encode.py), its compiled writer
(table_writer.py) and the plain reference (observation_reference.py). Segment starts are plain
module integers so that numba compiles them in as constants.
"""

from __future__ import annotations

from cardarena.envs.core.game import segment_slices

from .game import LAST_ROUND, MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS
from .state import NUM_SLOTS, PHASE_NAMES

NUM_CATEGORIES = 13
HIGH_CARDS = 5
IMMORTAL_SCALE = 5.0
SUM_SCALE = 50.0
HIGH_SCALE = 14.0
COUNT_SCALE = 8.0  # calls or raises of one seat in a hand
NUM_RAISE_SIZES = 4  # MIN HALF_POT POT ALL_IN

SEGMENTS = [
    ("own_slots", NUM_SLOTS * NUM_CARDS),  # slot k (P1 P2 U1 U2 P3 P4): the card in it
    ("public_cards", MAX_PLAYERS * NUM_CARDS),  # per rel seat: its face-up cards (U1, U2)
    ("gone", NUM_CARDS),  # cards known to be out of play: public cards traded in, own cards traded in
    ("held", 1),  # own cards held / 6
    ("category", NUM_CATEGORIES),  # own best hand now: category one-hot (none before a deal)
    ("key", 3 + HIGH_CARDS),  # providence, immortal / 5, majority sum / 50, high values / 14
    ("table_size", MAX_PLAYERS - MIN_PLAYERS + 1),  # one-hot, 2..7
    ("dealer", MAX_PLAYERS),  # rel seat
    ("to_act", MAX_PLAYERS),  # rel seat
    ("phase", len(PHASE_NAMES)),  # betting, trading, over
    ("round", LAST_ROUND + 1),  # betting round: Demon's Wager, 1, 2, 3
    ("stacks", MAX_PLAYERS),
    ("paid", MAX_PLAYERS),  # chips put in this hand
    ("in_round", MAX_PLAYERS),  # chips put in this betting round
    ("folded", MAX_PLAYERS),
    ("all_in", MAX_PLAYERS),
    ("in_match", MAX_PLAYERS),
    ("traded_slots", MAX_PLAYERS * 4),  # per rel seat: P1 P2 U1 U2 traded in
    ("has_traded", MAX_PLAYERS),
    ("raises", MAX_PLAYERS),  # bets and raises this hand / 8
    ("calls", MAX_PLAYERS),  # calls this hand / 8
    ("tablet", 2),  # own Win and Lose stakes
    ("pot", 1),
    ("forfeit", 1),
    ("to_call", 1),
    ("current_bet", 1),
    ("min_raise", 1),
    ("bets_made", 1),  # bets and raises this round / max_bets (fixed) or / 8
    ("raise_sizes", NUM_RAISE_SIZES),  # seat to act: chips each raise option adds (0: no such option)
    ("ante", 1),  # / starting_stack
    ("hand_number", 1),  # hands played / max_hands (match)
    ("match", 1),
]

SLICES = segment_slices(SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in SEGMENTS)
OWN_AT = SLICES["own_slots"].start
PUBLIC_AT = SLICES["public_cards"].start
GONE_AT = SLICES["gone"].start
HELD_AT = SLICES["held"].start
CATEGORY_AT = SLICES["category"].start
KEY_AT = SLICES["key"].start
TABLE_SIZE_AT = SLICES["table_size"].start
DEALER_AT = SLICES["dealer"].start
TO_ACT_AT = SLICES["to_act"].start
PHASE_AT = SLICES["phase"].start
ROUND_AT = SLICES["round"].start
STACKS_AT = SLICES["stacks"].start
PAID_AT = SLICES["paid"].start
IN_ROUND_AT = SLICES["in_round"].start
FOLDED_AT = SLICES["folded"].start
ALL_IN_AT = SLICES["all_in"].start
IN_MATCH_AT = SLICES["in_match"].start
TRADED_SLOTS_AT = SLICES["traded_slots"].start
HAS_TRADED_AT = SLICES["has_traded"].start
RAISES_AT = SLICES["raises"].start
CALLS_AT = SLICES["calls"].start
TABLET_AT = SLICES["tablet"].start
POT_AT = SLICES["pot"].start
FORFEIT_AT = SLICES["forfeit"].start
TO_CALL_AT = SLICES["to_call"].start
CURRENT_BET_AT = SLICES["current_bet"].start
MIN_RAISE_AT = SLICES["min_raise"].start
BETS_MADE_AT = SLICES["bets_made"].start
RAISE_SIZES_AT = SLICES["raise_sizes"].start
ANTE_AT = SLICES["ante"].start
HAND_NUMBER_AT = SLICES["hand_number"].start
MATCH_AT = SLICES["match"].start
HAND_FEATURES = 1 + NUM_CATEGORIES + 3 + HIGH_CARDS  # held, category and key, written at once from HELD_AT
assert (CATEGORY_AT, KEY_AT + 3 + HIGH_CARDS) == (HELD_AT + 1, HELD_AT + HAND_FEATURES)

# positions in the encoder's int64 table row (read by table_writer.py); the per-seat blocks start at ROW_SEATS
(
    ROW_SEAT,
    ROW_PHASE,
    ROW_DEALER,
    ROW_ROUND,
    ROW_ROUND_TO_ACT,
    ROW_CURRENT_BET,
    ROW_OWN_BET,
    ROW_MIN_RAISE,
    ROW_BETS,
    ROW_TRADING_TO_ACT,
    ROW_WIN,
    ROW_LOSE,
    ROW_POT,
    ROW_FORFEIT,
    ROW_ANTE,
    ROW_HAND_NUMBER,
    ROW_RAISE_SIZES,
) = range(17)
ROW_SEATS = ROW_RAISE_SIZES + NUM_RAISE_SIZES
SEAT_BLOCKS = 7  # stacks, paid, in_round, in_match, folded, raises, calls
