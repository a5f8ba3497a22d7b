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
`SLICES` (layout.py) names every segment and docs/games/tilt.md tables them. It holds the seat's own hand
strength (the best key it can form now, category one-hot), computed once per decision and cached.
`TiltEncoder.observation` is the fast path; `reference_observation` (observation_reference.py) is
the plain one it mirrors bit for bit, and the place to read what each segment means.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np
from cardarena.envs.core.compiling import Background, in_numba_cache
from cardarena.envs.core.game import Encoder

from .game import CARD_CODES, FIRST_SET, NUM_ACTIONS, NUM_CARDS, VOID_CODES, TiltGame, codes
from .layout import (
    AT_MATCH,
    AT_TABLE_SIZE,
    EXCHANGE_KIND_INDEX,
    MIN_PLAYERS,
    NO_STRENGTH,
    OBSERVATION_SIZE,
    PER_SEAT,
    PHASE_INDEX,
    SET_FEATURES,
    SLICES,
    TABLE,
)
from .observation_reference import ROW_FLAGS, card_row, reference_observation
from .state import BET, CARD_PHASES, HAUL, MOVE_FIELDS, PHASES, TiltState

ACTION_NAMES = ["fold", "check or call", "bet or raise"] + [f"card set {m}" for m in range(NUM_ACTIONS - FIRST_SET)]

# CARD_ROWS[flags & ROW_FLAGS][2 * card + paired]: `card_row` of every own card, paired or not
CARD_ROWS = {
    flags: np.array([card_row(card, paired, flags) for card in range(NUM_CARDS) for paired in (False, True)])
    for flags in range(ROW_FLAGS + 1)
    if flags & ROW_FLAGS == flags
}


def _compile() -> tuple[Callable[..., None], Callable[..., None]]:
    from .observation_writer import compiled_writers  # here, not at import: importing the game loads no numba

    return compiled_writers()


def _cached() -> bool:
    from .observation_writer import write_card_sets, write_observation

    return in_numba_cache(write_observation, write_card_sets)


# the compiled observation writers: compiled in a background thread when first asked for, or read
# at once from a warm numba cache (core/compiling.py)
COMPILED = Background("tilt", _compile, _cached)


class TiltEncoder(Encoder[TiltState]):
    observation_size = OBSERVATION_SIZE
    action_feature_slices = tuple(SLICES[name] for name in SET_FEATURES)
    game: TiltGame
    _write_card_sets: Callable[..., None]  # set with `_write`

    def __init__(self, game: TiltGame):
        super().__init__(game)
        config, n = game.config, game.num_players
        blank = np.zeros(OBSERVATION_SIZE, np.float32)  # what every observation at this table starts from
        blank[AT_TABLE_SIZE + n - MIN_PLAYERS] = 1.0
        if config.num_hands > 1:
            blank[AT_MATCH + 1] = 1.0
        self._blank = blank
        # what `write_observation` scales by: table size, chip scales, match scale (0 for one hand), bet scales
        match_scale = config.num_hands if config.num_hands > 1 else 0
        self._scales = np.array(
            [n, config.starting_stack, config.starting_stack * n, match_scale, config.max_bets, config.big_bet],
            np.int64,
        )
        self._no_bets = [0] * n
        self._pack_numbers = struct.Struct(f"={len(PER_SEAT) * n + len(TABLE)}q").pack
        self._write: Callable[..., None] | None = None  # the compiled writers, set once compiled (COMPILED)

    def observation(self, state: TiltState, seat: int) -> np.ndarray:
        """The state handed to compiled code (`write_observation`) as four flat buffers, which it
        writes into a copy of the blank vector; then, at the seat's card decision, the card-set features.

        The buffers, in `write_observation`'s order: the numbers (int64s: the PER_SEAT blocks, the
        TABLE values (layout.py), the seat's hand strength last: how many cards it holds, 0 for none, and its
        best key's Orbit, tier, base category and first tie-break rank); the length of each card
        list; the card lists end to end (the Thumbs, the Palms, then the piles FINE to ROW); the
        public moves' four fields end to end (the state's own bytearray, not copied). Built in one
        function: a helper call per buffer costs about 0.4 µs a decision step (docs/benchmarks.md).
        Until the writers are compiled (COMPILED), the observation is `reference_observation`'s.
        """
        write = self._write
        if write is None:
            compiled = COMPILED.ready()
            if compiled is None:
                return reference_observation(self.game, state, seat)
            write, self._write_card_sets = compiled
            self._write = write
        vector = self._blank.copy()
        folded = state.folded
        own: tuple[int, ...]
        if folded[seat]:
            own, strength, limit = (), NO_STRENGTH, -1
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
        to_act = bets.to_act[0] if phase == BET and bets is not None else state.order[state.turn] if card_phase else -1
        keep = state.keeps[seat] if state.keeps else -1
        numbers = self._pack_numbers(
            *state.stacks, *state.contributions, *state.carry, *folded, *state.in_hand, *bet_contributions,
            state.dealer, to_act, PHASE_INDEX[phase], state.betting_round, EXCHANGE_KIND_INDEX[state.exchange_kind],
            state.gravity, state.signal >= 0, state.revealed, len(state.stock), len(state.discards),
            len(state.void_deck), state.hand_number, paycheck, bets is not None, unit, cap, current_bet, round_bets,
            keep, limit, *strength,
        )  # fmt: skip  # the packed row's fields, a few to a line rather than one a line
        write(vector, seat, numbers, bytes(map(len, cards)), bytes(end_to_end), state.moves, self._scales)
        if own and card_phase and to_act == seat:
            self._encode_card_sets(vector, state, own)
        return vector

    def _encode_card_sets(self, vector: np.ndarray, state: TiltState, own: tuple[int, ...]) -> None:
        """Per card set over the held slots: what it gives up (SET_FEATURES), in compiled code."""
        rows = CARD_ROWS[self.game.hazard_flags(state) & ROW_FLAGS]
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
        header = (
            f"{game.env_id}  hand {min(state.hand_number + 1, config.num_hands)}/{config.num_hands}"
            f"  dealer seat {state.dealer}  phase {state.phase}"
        )
        hazards = " ".join(VOID_CODES[void] for void in state.row) + (" GRAV(carried)" if state.gravity else "")
        lines = [header, f"hazards: {hazards or '-'}" + ("  signal face down" if state.signal >= 0 else "")]
        table = [f"tariffs {' '.join(codes(state.tariffs))}"] if state.tariffs else []
        table += [f"grid {' '.join(CARD_CODES[c] for c in state.grid)}"] if state.grid else []
        if state.fine:
            fine = " ".join(codes(state.fine)) if state.revealed else f"[{len(state.fine)} face down]"
            table.append(f"fine print {fine}")
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
        pot = sum(state.contributions) + sum(state.carry)
        lines.append(f"pot {pot}  stock {len(state.stock)}  discards {len(state.discards)}")
        if state.terminal:
            lines.append("result: " + ", ".join(f"seat {s} {r:+.0f}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def _betting_json(state: TiltState) -> dict[str, Any] | None:
    if state.bets is None:
        return None
    unit, cap, fold = state.bet_rules
    return {"unit": unit, "max_bets": cap, "fold": fold, "committed": list(state.committed), **state.bets.to_json()}
