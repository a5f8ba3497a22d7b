"""Tilt's action table, observation vector, JSON seat view and rendering.

Action table (rulebook 4.9), `Discrete(131)` at every table size:

| ids          | action                                                                      | when                  |
|--------------|-----------------------------------------------------------------------------|-----------------------|
| 0            | fold                                                                        | betting, facing a bet |
| 1            | check or call                                                               | betting               |
| 2            | bet or raise                                                                | betting               |
| 3 + m        | card set m, m = 0..127: bit i selects slot i, the i-th of the seat's own     | card decisions        |
|              | cards (Thumb and Palm) sorted by card index; its `cards` detail names them   |                       |

Card decisions: the exchange and the Saboteur discard (`discard`), the Shares pass (`pass`) and
discard-down (`discard`), the Haul keep (`keep`). Observation: float32 vector in [0, 1],
seat-relative ("rel" = seats counted clockwise from the observer, 0 = self), padded to six seats;
`SLICES` names every segment and docs/games/tilt.md tables them. It holds the seat's own hand
strength (the best key it can form now, category one-hot), computed once per decision and cached.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
from cardarena.envs.core.game import Encoder, segment_slices

from . import rules
from .game import (
    CARD_CODES,
    EXCHANGE_HAZARDS,
    FIRST_SET,
    MAX_OWN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_VOIDS,
    VOID_CODES,
    TiltGame,
    codes,
)  # fmt: skip
from .state import BET, CARD_PHASES, HAUL, MOVE_FIELDS, PHASES, TiltState

NUM_CATEGORIES = max(len(table) for table in rules.CATEGORIES.values())
EXCHANGE_KINDS = ("", *EXCHANGE_HAZARDS)
GRID_SIZE = rules.GRID_SIZE

ACTION_NAMES = ["fold", "check or call", "bet or raise"] + [f"card set {m}" for m in range(NUM_ACTIONS - FIRST_SET)]

_SEGMENTS = [
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

SLICES = segment_slices(_SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_START = {name: piece.start for name, piece in SLICES.items()}
_AT_OWN_THUMB = _START["own_thumb"]
_AT_OWN_PALM = _START["own_palm"]
_AT_SLOTS = _START["slots"]
_AT_FACE_UP = _START["face_up"]
_AT_PALM_SIZES = _START["palm_sizes"]
_AT_STACKS = _START["stacks"]
_AT_HAND_CONTRIBUTIONS = _START["hand_contributions"]
_AT_ROUND_CONTRIBUTIONS = _START["round_contributions"]
_AT_CARRIED = _START["carried"]
_AT_FOLDED = _START["folded"]
_AT_ALL_IN = _START["all_in"]
_AT_IN_HAND = _START["in_hand"]
_AT_DEALER = _START["dealer"]
_AT_TO_ACT = _START["to_act"]
_AT_BETS_MADE = _START["bets_made"]
_AT_CARDS_MOVED = _START["cards_moved"]
_AT_POT = _START["pot"]
_AT_TO_CALL = _START["to_call"]
_AT_ROUND_BETS = _START["round_bets"]
_AT_UNIT = _START["unit"]
_AT_PAYCHECK = _START["paycheck"]
_AT_PHASE = _START["phase"]
_AT_BETTING_ROUND = _START["betting_round"]
_AT_EXCHANGE_KIND = _START["exchange_kind"]
_AT_EXCHANGE_LIMIT = _START["exchange_limit"]
_AT_HAZARD_ROW = _START["hazard_row"]
_AT_GRAVITY_CARRIED = _START["gravity_carried"]
_AT_FACE_DOWN = _START["face_down"]
_AT_FINE_PRINT = _START["fine_print"]
_AT_CHICKEN = _START["chicken"]
_AT_TARIFFS = _START["tariffs"]
_AT_GRID = _START["grid"]
_AT_OWN_DISCARDS = _START["own_discards"]
_AT_PASSED = _START["passed"]
_AT_RECEIVED = _START["received"]
_AT_THUMB_DISCARDS = _START["thumb_discards"]
_AT_OWN_KEEP = _START["own_keep"]
_AT_PILES = _START["piles"]
_AT_HAND_CATEGORY = _START["hand_category"]
_AT_HAND_TIER = _START["hand_tier"]
_AT_HAND_FLAGS = _START["hand_flags"]
_AT_HAND_TOP = _START["hand_top"]
_AT_TABLE_SIZE = _START["table_size"]
_AT_MATCH = _START["match"]
_AT_SET_FEATURES = _START[SET_FEATURES[0]]
_PHASE_INDEX = {phase: index for index, phase in enumerate(PHASES)}
_EXCHANGE_KIND_INDEX = {kind: index for index, kind in enumerate(EXCHANGE_KINDS)}
_BET_INDEX, _HAUL_INDEX = PHASES.index(BET), PHASES.index(HAUL)


def _card_row(card: int, paired: bool, flags: int) -> tuple[Any, ...]:
    """What one own card adds to SET_FEATURES when a set gives it up (before the / 7); `paired`:
    another own card has its rank."""
    reversed_order = bool(flags & rules.MUTI)
    rank, command = rules.RANK[card], rules.is_command(card)
    wild = (flags & rules.BINY and rank == 2 and not command) or (flags & rules.EXPD and command)
    paired = not wild and paired
    strength = 0.0 if wild else ((12 - rank) if reversed_order else rank) / 12
    return (
        1.0,
        float(reversed_order),
        strength,
        paired and not reversed_order,
        paired and reversed_order,
        command and not wild and not reversed_order,
        bool(wild),
    )


_ROW_FLAGS = rules.MUTI | rules.BINY | rules.EXPD  # the Hazards the card rows depend on
# _CARD_ROWS[flags & _ROW_FLAGS][2 * card + paired]: `_card_row` / 7, as float32
_CARD_ROWS = {
    flags: np.array(
        [_card_row(card, paired, flags) for card in range(NUM_CARDS) for paired in (False, True)], np.float32
    )
    / MAX_OWN
    for flags in range(_ROW_FLAGS + 1)
    if flags & _ROW_FLAGS == flags
}


# What `write_observation` (observation_writer.py) reads. `numbers`: int64s, six blocks of one
# value a seat (_PER_SEAT), then the table's values (_TABLE, at 6 * table size + offset).
_STACKS, _CONTRIBUTIONS, _CARRIED, _FOLDED, _IN_HAND, _BET_CONTRIBUTIONS = _PER_SEAT = range(6)
(
    _DEALER, _TO_ACT, _PHASE, _BETTING_ROUND, _EXCHANGE_KIND, _GRAVITY, _SIGNAL, _REVEALED, _STOCK, _DISCARDS, _VOIDS,
    _HAND_NUMBER, _PAYCHECK, _BETTING, _UNIT, _CAP, _CURRENT_BET, _ROUND_BETS, _KEEP, _EXCHANGE_LIMIT,
    _HELD, _ORBIT, _TIER, _BASE, _TOP,  # the seat's hand strength, _HELD 0 for none
) = _TABLE = range(25)  # fmt: skip
_NO_STRENGTH = (0,) * len(_TABLE[_HELD:])
# `cards`: each seat's Thumb, each seat's Palm, then these piles (their index after the Palms), the
# last the Hazard row (Void cards)
_FINE, _CHICKEN, _GRID, _TARIFFS, _THUMB_DISCARDS, _OWN_DISCARDS, _PASSED, _RECEIVED, _ROW = range(9)
_PUBLIC_PILES = (
    (_TARIFFS, _AT_TARIFFS),
    (_THUMB_DISCARDS, _AT_THUMB_DISCARDS),
    (_OWN_DISCARDS, _AT_OWN_DISCARDS),
    (_PASSED, _AT_PASSED),
    (_RECEIVED, _AT_RECEIVED),
)


class TiltEncoder(Encoder[TiltState]):
    observation_size = OBSERVATION_SIZE
    action_feature_slices = tuple(SLICES[name] for name in SET_FEATURES)
    game: TiltGame

    def __init__(self, game: TiltGame):
        super().__init__(game)
        config, n = game.config, game.num_players
        blank = np.zeros(OBSERVATION_SIZE, np.float32)  # what every observation at this table starts from
        blank[_AT_TABLE_SIZE + n - MIN_PLAYERS] = 1.0
        if config.num_hands > 1:
            blank[_AT_MATCH + 1] = 1.0
        self._blank = blank
        # what `write_observation` scales by: table size, chip scales, match scale (0 for one hand), bet scales
        match_scale = config.num_hands if config.num_hands > 1 else 0
        self._scales = np.array(
            [n, config.starting_stack, config.starting_stack * n, match_scale, config.max_bets, config.big_bet],
            np.int64,
        )
        self._no_bets = [0] * n
        self._pack_numbers = struct.Struct(f"={len(_PER_SEAT) * n + len(_TABLE)}q").pack
        from .observation_writer import compiled_writers  # here, not at import: importing the game loads no numba

        self._write, self._write_card_sets = compiled_writers()

    def observation(self, state: TiltState, seat: int) -> np.ndarray:
        """The state handed to compiled code (`write_observation`) as four flat buffers, which it
        writes into a copy of the blank vector; then, at the seat's card decision, the card-set features.

        The buffers, in `write_observation`'s order: the numbers (int64s: the _PER_SEAT blocks, the
        _TABLE values, the seat's hand strength last: how many cards it holds, 0 for none, and its
        best key's Orbit, tier, base category and first tie-break rank); the length of each card
        list; the card lists end to end (the Thumbs, the Palms, then the piles _FINE to _ROW); the
        public moves' four fields end to end (the state's own bytearray, not copied). Built in one
        function: a helper call per buffer costs about 0.4 µs a decision step (docs/benchmarks.md).
        """
        vector = self._blank.copy()
        folded = state.folded
        if folded[seat]:
            own, strength, limit = (), _NO_STRENGTH, -1
        else:
            own = tuple(sorted(state.thumbs[seat] + state.palms[seat]))
            key = self.game.best_key_of(state, own)
            strength, limit = (len(own), key[0], key[1], key[3], key[4]), self.game.exchange_limit(state, seat)
        cards = [
            *state.thumbs,
            *state.palms,
            state.fine,
            state.chicken,
            state.grid,
            state.tariffs,
            state.thumb_discards,
        ]
        cards += (state.own_discards[seat], state.passed[seat], state.received[seat], state.row)
        end_to_end: list[int] = []
        for pile in cards:
            end_to_end += pile  # faster than bytes(chain.from_iterable(cards)), one list extension a pile
        phase, bets = state.phase, state.bets
        if bets is None:
            bet_contributions, unit, cap, current_bet, round_bets, paycheck = (
                self._no_bets,
                0,
                1,
                0,
                0,
                state.paycheck_unit >= 0,
            )
        else:
            bet_contributions, current_bet, round_bets = bets.contributions, bets.current_bet, bets.bets
            unit, cap, fold = state.bet_rules
            paycheck = state.paycheck_unit >= 0 or fold == "never"
        card_phase = phase in CARD_PHASES
        to_act = bets.to_act[0] if phase == BET else state.order[state.turn] if card_phase else -1
        keep = state.keeps[seat] if state.keeps else -1
        numbers = self._pack_numbers(
            *state.stacks, *state.contributions, *state.carry, *folded, *state.in_hand, *bet_contributions,
            state.dealer, to_act, _PHASE_INDEX[phase], state.betting_round, _EXCHANGE_KIND_INDEX[state.exchange_kind],
            state.gravity, state.signal >= 0, state.revealed, len(state.stock), len(state.discards), len(state.void_deck),
            state.hand_number, paycheck, bets is not None, unit, cap, current_bet, round_bets, keep, limit, *strength,
        )  # fmt: skip
        self._write(vector, seat, numbers, bytes(map(len, cards)), bytes(end_to_end), state.moves, self._scales)
        if own and card_phase and to_act == seat:
            self._encode_card_sets(vector, state, own)
        return vector

    def _encode_card_sets(self, vector: np.ndarray, state: TiltState, own: tuple[int, ...]) -> None:
        """Per card set over the held slots: what it gives up (SET_FEATURES), in compiled code."""
        rows = _CARD_ROWS[self.game.hazard_flags(state) & _ROW_FLAGS]
        self._write_card_sets(vector, bytes(own), rows, state.phase == HAUL)

    # ------------------------------------------------------------ JSON seat view and text

    def seat_view(self, state: TiltState, seat: int) -> dict[str, Any]:
        """The seat's view in card codes: docs/protocol.md lists its fields."""
        game = self.game
        n = game.num_players
        to_act = game.current_player(state)
        shown = [
            codes(game.own_cards(state, other)) if state.revealed and not state.folded[other] else None
            for other in range(n)
        ]
        moves = state.moves
        return {
            "game": game.env_id,
            "seat": seat,
            "hand_number": state.hand_number,
            "dealer": state.dealer,
            "phase": state.phase,
            "plan": list(state.plan),
            "to_act": to_act if to_act >= 0 else None,
            "stacks": list(state.stacks),
            "contributions": list(state.contributions),
            "carried": list(state.carry),
            "folded": list(state.folded),
            "in_hand": list(state.in_hand),
            "thumbs": [codes(cards) for cards in state.thumbs],
            "palm": codes(state.palms[seat]),
            "palm_sizes": [len(cards) for cards in state.palms],
            "shown": shown,
            "stock": len(state.stock),
            "discard_pile": len(state.discards),
            "void_deck": len(state.void_deck),
            "hazards": [VOID_CODES[void] for void in state.row],
            "gravity_carried": state.gravity,
            "signal_face_down": state.signal >= 0,
            "fine_print": codes(state.fine) if state.revealed else len(state.fine),
            "chicken": codes(state.chicken) if state.revealed else len(state.chicken),
            "tariffs": codes(state.tariffs),
            "grid": [CARD_CODES[card] for card in state.grid],
            "sabotage_pile": len(state.sabotage_pile),
            "exchange_kind": state.exchange_kind or None,
            "paycheck_unit": state.paycheck_unit if state.paycheck_unit >= 0 else None,
            "betting_round": state.betting_round,
            "betting": _betting_json(state),
            "last_bettor": state.last_bettor if state.last_bettor >= 0 else None,
            "order": list(state.order),
            "turn": state.turn,
            "counts": list(state.counts),
            "keep": CARD_CODES[state.keeps[seat]] if state.keeps and state.keeps[seat] >= 0 else None,
            "moves": [
                {"phase": PHASES[moves[at]], "round": moves[at + 1], "seat": moves[at + 2], "value": moves[at + 3]}
                for at in range(0, len(moves), MOVE_FIELDS)
            ],
            "own_discards": codes(state.own_discards[seat]),
            "passed": codes(state.passed[seat]),
            "received": codes(state.received[seat]),
            "thumb_discards": codes(state.thumb_discards),
            "returns": list(state.returns) if state.terminal else None,
        }

    def render(self, state: TiltState, seat: int | None) -> str:
        game = self.game
        config = game.config
        to_act = game.current_player(state)
        header = f"{game.env_id}  hand {min(state.hand_number + 1, config.num_hands)}/{config.num_hands}  dealer seat {state.dealer}  phase {state.phase}"
        hazards = " ".join(VOID_CODES[void] for void in state.row) + (" GRAV(carried)" if state.gravity else "")
        lines = [header, f"hazards: {hazards or '-'}" + ("  signal face down" if state.signal >= 0 else "")]
        table = [f"tariffs {' '.join(codes(state.tariffs))}"] if state.tariffs else []
        table += [f"grid {' '.join(CARD_CODES[c] for c in state.grid)}"] if state.grid else []
        table += (
            [
                f"fine print {' '.join(codes(state.fine)) if state.revealed else '[' + str(len(state.fine)) + ' face down]'}"
            ]
            if state.fine
            else []
        )
        table += (
            [f"chicken {' '.join(codes(state.chicken)) if state.revealed else '[face down]'}"] if state.chicken else []
        )
        if table:
            lines.append("table: " + "  ".join(table))
        for other in range(game.num_players):
            visible = seat is None or other == seat or (state.revealed and not state.folded[other])
            palm = " ".join(codes(state.palms[other])) if visible else " ".join(["??"] * len(state.palms[other]))
            status = "folded" if state.folded[other] else ("all-in" if state.stacks[other] == 0 else "")
            marker = ">" if other == to_act else " "
            lines.append(
                f"{marker} seat {other}: thumb {' '.join(codes(state.thumbs[other])) or '-':<8} palm {palm or '-':<18}"
                f" stack {state.stacks[other]:<4} in {state.contributions[other]:<3} {status}"
            )
        lines.append(
            f"pot {sum(state.contributions) + sum(state.carry)}  stock {len(state.stock)}  discards {len(state.discards)}"
        )
        if state.terminal:
            lines.append("result: " + ", ".join(f"seat {s} {r:+.0f}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def _betting_json(state: TiltState) -> dict[str, Any] | None:
    if state.bets is None:
        return None
    unit, cap, fold = state.bet_rules
    return {"unit": unit, "max_bets": cap, "fold": fold, "committed": list(state.committed), **state.bets.to_json()}
