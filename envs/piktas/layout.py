"""The layout of Piktas's observation vector: its segments, their slices and the scales its values
are divided by, for the encoder (encode.py) and the compiled exchange features (features.py)."""

from __future__ import annotations

from cardarena.envs.core.game import segment_slices

from .exchange import NUM_EXCHANGE_ACTIONS
from .rules import DECK, FIELD_SIZE, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, NUM_CYCLES

NUM_CARDS = len(DECK)
MAX_POSITIONS = FIELD_SIZE  # one position per field deal
SCORE_SCALE = 60.0  # totals above this are rare; features are clipped to 1
UNIT_SCALE = 40.0
FACE_SCALE = 10.0
CLOSENESS_SCALE = 150.0  # of `scoring.closeness`
GAP_POINTS = 10.0
GAP_CLOSENESS = 30.0

SEGMENTS = [
    ("hand_slots", HAND_SIZE * NUM_CARDS),  # slot i: the i-th card of the sorted hand
    ("field_positions", MAX_POSITIONS * NUM_CARDS),  # position j: its non-void card (covered or not)
    ("position_covered", MAX_POSITIONS),  # a void lies on position j
    ("position_exists", MAX_POSITIONS),
    ("pool", NUM_CARDS),  # own pool: non-void hand cards and every field card
    ("held_by_opponents", NUM_CARDS),  # field cards opponents took and still hold (public history)
    ("evaluation", 4),  # own evaluate tuple: total, best_unit, best_card, hand_high
    ("secured_after", NUM_EXCHANGE_ACTIONS),  # secured score after each exchange action id (legal ones)
    ("closeness_after", NUM_EXCHANGE_ACTIONS),  # how near the secured cards are to scoring, per action id
    ("full_after", NUM_EXCHANGE_ACTIONS),  # score of the hand with the whole field after each action id
    ("secured_gap", NUM_EXCHANGE_ACTIONS),  # 1 - (best legal secured_after - this one) / 10 points, floor 0
    ("full_gap", NUM_EXCHANGE_ACTIONS),  # the same for full_after
    ("closeness_gap", NUM_EXCHANGE_ACTIONS),  # the same for closeness_after, / 30
    ("hand_sizes", MAX_PLAYERS),  # per rel seat, / 6
    ("taken_counts", MAX_PLAYERS),  # field cards each rel seat holds, / 6
    ("exchanges", 3 * MAX_PLAYERS),  # per rel seat: passes, swaps, voids laid this round, / 3
    ("in_round", MAX_PLAYERS),  # rel seat is dealt in this round (seated and not eliminated)
    ("table_size", MAX_PLAYERS - MIN_PLAYERS + 1),  # one-hot, 2..11
    ("dealer", MAX_PLAYERS),  # rel seat
    ("to_act", MAX_PLAYERS),  # rel seat
    ("phase", 3),  # exchange, betting, over
    ("cycle", NUM_CYCLES),
    ("deck_left", 1),  # / 72
    ("chips", MAX_PLAYERS),  # gambling: stack per rel seat, / (starting_stack * table size)
    ("contributions", MAX_PLAYERS),  # gambling: this betting round, / (bet_size * (max_bets + 1))
    ("folded", MAX_PLAYERS),
    ("pot", 1),  # / (starting_stack * table size)
    ("to_match", 1),  # chips the seat must add to match, / (bet_size * (max_bets + 1))
    ("raises", 1),  # raises made this betting round / max_bets
    ("gambling", 1),
    ("match_scores", MAX_PLAYERS),  # casual match: total score per rel seat / (60 * num_hands)
    ("round", 1),  # rounds played / num_hands
    ("match", 1),  # num_hands > 1
]

SLICES = segment_slices(SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in SEGMENTS)
