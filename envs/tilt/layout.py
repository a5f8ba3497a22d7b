"""Tilt's observation layout: the segments of the vector and where each starts, and the flat buffers
through which `TiltEncoder.observation` (encode.py) hands the state to the compiled writer
(observation_writer.py). One home for both, imported by the encoder, the writer and the reference
(observation_reference.py); the segments are documented in docs/games/tilt.md."""

from __future__ import annotations

import numpy as np
from cardarena.envs.core.game import segment_slices

from . import rules
from .config import MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS, NUM_VOIDS
from .game import EXCHANGE_HAZARDS, FIRST_SET, MAX_OWN, NUM_ACTIONS
from .state import BET, HAUL, PHASES

# the game's sizes, re-exported: the compiled writer takes every constant from this module
__all__ = ["FIRST_SET", "MAX_OWN", "MAX_PLAYERS", "MIN_PLAYERS", "NUM_ACTIONS", "NUM_CARDS", "NUM_VOIDS"]

NUM_CATEGORIES = max(len(table) for table in rules.CATEGORIES.values())
EXCHANGE_KINDS = ("", *EXCHANGE_HAZARDS)
GRID_SIZE = rules.GRID_SIZE
RANKS = np.array(rules.RANK, np.int64)  # rank of each card index

SEGMENTS = [
    ("own_thumb", NUM_CARDS),
    ("own_palm", NUM_CARDS),
    ("slots", MAX_OWN * NUM_CARDS),  # slot i: the i-th own card by card index (the card-set bits)
    ("face_up", MAX_PLAYERS * NUM_CARDS),  # per rel seat: its Thumb cards; all its own cards once shown
    ("palm_sizes", MAX_PLAYERS),  # / 7
    ("stacks", MAX_PLAYERS),  # / (starting_stack * table size)
    ("hand_contributions", MAX_PLAYERS),  # this hand, / starting_stack, at most 1
    ("round_contributions", MAX_PLAYERS),  # this betting round, / (unit * max_bets)
    ("carried", MAX_PLAYERS),  # unpaid chips recorded per seat, / (starting_stack * table size)
    ("folded", MAX_PLAYERS),
    ("all_in", MAX_PLAYERS),
    ("in_hand", MAX_PLAYERS),  # dealt in this hand
    ("dealer", MAX_PLAYERS),
    ("to_act", MAX_PLAYERS),
    ("bets_made", 3 * MAX_PLAYERS),  # per betting round and rel seat: bets and raises / max_bets
    ("cards_moved", MAX_PLAYERS),  # per rel seat: cards discarded or passed this hand / 7
    ("pot", 1),  # / (starting_stack * table size)
    ("to_call", 1),  # / unit
    ("round_bets", 1),  # bets and raises this round / cap
    ("unit", 1),  # / big_bet
    ("paycheck", 1),  # the open or next betting round is a Paycheck round
    ("phase", len(PHASES)),
    ("betting_round", 3),
    ("exchange_kind", len(EXCHANGE_KINDS)),
    ("exchange_limit", 1),  # own exchange limit / 3
    ("hazard_row", NUM_VOIDS),  # face-up Void cards in force
    ("gravity_carried", 1),
    ("face_down", 3),  # a Signal, a Fine Print hand, a Chicken card lies face down
    ("fine_print", NUM_CARDS),  # once face up
    ("chicken", NUM_CARDS),  # once face up
    ("tariffs", NUM_CARDS),
    ("grid", GRID_SIZE * NUM_CARDS),
    ("own_discards", NUM_CARDS),
    ("passed", NUM_CARDS),
    ("received", NUM_CARDS),
    ("thumb_discards", NUM_CARDS),  # public: Thumb cards seen going to the discard pile
    ("own_keep", NUM_CARDS),  # the card this seat chose to keep at a Haul, until the choices take effect
    ("piles", 3),  # stock / 36, discard pile / 36, Void deck / 23
    ("hand_category", NUM_CATEGORIES),  # own best key: base category in the table in force
    ("hand_tier", 3),
    ("hand_flags", 3),  # orbit, reversed (Mutinous Days), short of cards
    ("hand_top", 1),  # first tie-break rank / 12
    ("table_size", MAX_PLAYERS - MIN_PLAYERS + 1),
    ("match", 2),  # hands played / num_hands, num_hands > 1
    # per action id, at the seat's card decisions, of the own cards the set gives up (each / 7):
    ("set_cards", NUM_ACTIONS),  # how many
    ("set_cards_reversed", NUM_ACTIONS),  # how many, under Mutinous Days
    (
        "set_strength",
        NUM_ACTIONS,
    ),  # summed rank strength of the natural ones (rank / 12; (12 - rank) / 12 under Mutinous Days)
    ("set_pairs", NUM_ACTIONS),  # natural cards sharing a rank with another own card
    ("set_pairs_reversed", NUM_ACTIONS),  # the same, under Mutinous Days
    ("set_commands", NUM_ACTIONS),  # natural Command cards (not under Mutinous Days)
    ("set_wilds", NUM_ACTIONS),  # wild cards (Binary System 2s, Expendable Ranks Commands)
]
SET_FEATURES = (
    "set_cards",
    "set_cards_reversed",
    "set_strength",
    "set_pairs",
    "set_pairs_reversed",
    "set_commands",
    "set_wilds",
)
SLICES = segment_slices(SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in SEGMENTS)

# where each segment starts, as plain ints: constants to the compiled writer
AT_OWN_THUMB = SLICES["own_thumb"].start
AT_OWN_PALM = SLICES["own_palm"].start
AT_SLOTS = SLICES["slots"].start
AT_FACE_UP = SLICES["face_up"].start
AT_PALM_SIZES = SLICES["palm_sizes"].start
AT_STACKS = SLICES["stacks"].start
AT_HAND_CONTRIBUTIONS = SLICES["hand_contributions"].start
AT_ROUND_CONTRIBUTIONS = SLICES["round_contributions"].start
AT_CARRIED = SLICES["carried"].start
AT_FOLDED = SLICES["folded"].start
AT_ALL_IN = SLICES["all_in"].start
AT_IN_HAND = SLICES["in_hand"].start
AT_DEALER = SLICES["dealer"].start
AT_TO_ACT = SLICES["to_act"].start
AT_BETS_MADE = SLICES["bets_made"].start
AT_CARDS_MOVED = SLICES["cards_moved"].start
AT_POT = SLICES["pot"].start
AT_TO_CALL = SLICES["to_call"].start
AT_ROUND_BETS = SLICES["round_bets"].start
AT_UNIT = SLICES["unit"].start
AT_PAYCHECK = SLICES["paycheck"].start
AT_PHASE = SLICES["phase"].start
AT_BETTING_ROUND = SLICES["betting_round"].start
AT_EXCHANGE_KIND = SLICES["exchange_kind"].start
AT_EXCHANGE_LIMIT = SLICES["exchange_limit"].start
AT_HAZARD_ROW = SLICES["hazard_row"].start
AT_GRAVITY_CARRIED = SLICES["gravity_carried"].start
AT_FACE_DOWN = SLICES["face_down"].start
AT_FINE_PRINT = SLICES["fine_print"].start
AT_CHICKEN = SLICES["chicken"].start
AT_TARIFFS = SLICES["tariffs"].start
AT_GRID = SLICES["grid"].start
AT_OWN_DISCARDS = SLICES["own_discards"].start
AT_PASSED = SLICES["passed"].start
AT_RECEIVED = SLICES["received"].start
AT_THUMB_DISCARDS = SLICES["thumb_discards"].start
AT_OWN_KEEP = SLICES["own_keep"].start
AT_PILES = SLICES["piles"].start
AT_HAND_CATEGORY = SLICES["hand_category"].start
AT_HAND_TIER = SLICES["hand_tier"].start
AT_HAND_FLAGS = SLICES["hand_flags"].start
AT_HAND_TOP = SLICES["hand_top"].start
AT_TABLE_SIZE = SLICES["table_size"].start
AT_MATCH = SLICES["match"].start
AT_SET_FEATURES = SLICES[SET_FEATURES[0]].start
PHASE_INDEX = {phase: index for index, phase in enumerate(PHASES)}
EXCHANGE_KIND_INDEX = {kind: index for index, kind in enumerate(EXCHANGE_KINDS)}
BET_INDEX, HAUL_INDEX = PHASES.index(BET), PHASES.index(HAUL)

# The buffers `write_observation` reads. `numbers`: int64s, six blocks of one value a seat
# (PER_SEAT, block b at b * table size), then the table's values (TABLE, at 6 * table size + field).
STACKS, CONTRIBUTIONS, CARRIED, FOLDED, IN_HAND, BET_CONTRIBUTIONS = PER_SEAT = range(6)
(
    DEALER, TO_ACT, PHASE, BETTING_ROUND, EXCHANGE_KIND, GRAVITY, SIGNAL, REVEALED, STOCK, DISCARDS, VOIDS,
    HAND_NUMBER, PAYCHECK, BETTING, UNIT, CAP, CURRENT_BET, ROUND_BETS, KEEP, EXCHANGE_LIMIT,
    HELD, ORBIT, TIER, BASE, TOP,  # the seat's hand strength, HELD 0 for none
) = TABLE = range(25)  # fmt: skip  # the packed row's fields in order, a few to a line
NO_STRENGTH = (0,) * len(TABLE[HELD:])
# `cards`: each seat's Thumb, each seat's Palm, then these piles (their index after the Palms), the
# last the Hazard row (Void cards)
FINE, CHICKEN, GRID, TARIFFS, THUMB_DISCARDS, OWN_DISCARDS, PASSED, RECEIVED, ROW = range(9)
PUBLIC_PILES = (
    (TARIFFS, AT_TARIFFS),
    (THUMB_DISCARDS, AT_THUMB_DISCARDS),
    (OWN_DISCARDS, AT_OWN_DISCARDS),
    (PASSED, AT_PASSED),
    (RECEIVED, AT_RECEIVED),
)
