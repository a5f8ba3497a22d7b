"""Piktas's observation vector, JSON seat view, rendering and action table.

Action table (rulebook 4.6, R45), `Discrete(35)` at every table size:

| ids            | action                                                     | when                 |
|----------------|------------------------------------------------------------|----------------------|
| 0              | pass                                                       | exchange turn        |
| 1 + 5*i + j    | hand slot i onto field position j: swap, or void when      | exchange turn        |
|                | slot i holds a void (slot = hand sorted by deck index)     |                      |
| 31, 32, 33, 34 | stay, match, raise, fold                                   | betting round        |

Observation: float32 vector in [0, 1], seat-relative ("rel" = seats counted clockwise from the
observer, 0 = self), padded to 11 seats; `SLICES` names every segment, docs/games/piktas.md
tables them. It includes the seat's own `evaluate` tuple and, for every exchange action, the
*secured* score after it: the score of the hand with only the covered field cards, which no
opponent can take away.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from cardarena.envs.core.game import Encoder

from . import kernels, reference, rules
from .exchange import ACTION_POSITION, ACTION_SLOT, EXCHANGE_POSITIONS, legal_exchange_ids
from .game import NUM_ACTIONS, NUM_CYCLES, PiktasGame
from .history import betting_actions, showdown_json
from .layout import (
    FACE_SCALE,
    NUM_CARDS,
    OBSERVATION_SIZE,
    SCORE_SCALE,
    SLICES,
    UNIT_SCALE,
)
from .rules import DECK, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from .state import EXCHANGE, OVER, PHASE_NAMES, PiktasState

_EVALUATION_SCALES = (SCORE_SCALE, UNIT_SCALE, FACE_SCALE, FACE_SCALE)

ACTION_NAMES = (
    ["pass"]
    + [f"slot {slot} -> position {position}" for slot in range(HAND_SIZE) for position in range(EXCHANGE_POSITIONS)]
    + ["stay", "match", "raise", "fold"]
)
assert len(ACTION_NAMES) == NUM_ACTIONS

_BLANK = np.zeros(OBSERVATION_SIZE, np.float32)
_START = {name: piece.start for name, piece in SLICES.items()}
# a seat's count of passes, swaps or voids laid k: 1/3 added k times in float32 (the largest k
# any list of exchanges can give, a seat view's included)
_THIRDS = list(itertools.accumulate([np.float32(1.0 / NUM_CYCLES)] * 3 * MAX_PLAYERS, initial=np.float32(0.0)))


class PiktasEncoder(Encoder[PiktasState]):
    observation_size = OBSERVATION_SIZE
    action_feature_slices = tuple(
        SLICES[name]
        for name in ("secured_after", "full_after", "closeness_after", "secured_gap", "full_gap", "closeness_gap")
    )
    game: PiktasGame

    def observation(self, state: PiktasState, seat: int) -> np.ndarray:
        obs = _BLANK.copy()
        n = self.game.num_players
        rel = [(other - seat) % n for other in range(n)]
        self._encode_cards(obs, state, seat)
        self._encode_exchanges(obs, state, seat, rel)
        for other in range(n):
            obs[_START["hand_sizes"] + rel[other]] = len(state.hands[other]) / HAND_SIZE
            obs[_START["in_round"] + rel[other]] = float(state.active[other])
        obs[_START["table_size"] + n - MIN_PLAYERS] = 1.0
        obs[_START["dealer"] + rel[state.dealer]] = 1.0
        to_act = self.game.current_player(state)
        if to_act >= 0:
            obs[_START["to_act"] + rel[to_act]] = 1.0
        obs[_START["phase"] + state.phase] = 1.0
        if state.phase == EXCHANGE:
            obs[_START["cycle"] + state.cycle - 1] = 1.0
        obs[_START["deck_left"]] = len(state.deck) / NUM_CARDS
        if self.game.config.mode == "gambling":
            self._encode_chips(obs, state, seat, rel)
        self._encode_match(obs, state, rel)
        return obs

    def _encode_cards(self, obs: np.ndarray, state: PiktasState, seat: int) -> None:
        hand = state.hands[seat]
        ones = [_START["hand_slots"] + slot * NUM_CARDS + card for slot, card in enumerate(hand)]
        ones += [_START["pool"] + card for card in hand if not rules.is_void(card)]
        for position, stack in enumerate(state.field):
            ones.append(_START["position_exists"] + position)
            if stack and not rules.is_void(stack[0]):
                ones += (_START["field_positions"] + position * NUM_CARDS + stack[0], _START["pool"] + stack[0])
            if len(stack) > 1 or (stack and rules.is_void(stack[0])):
                ones.append(_START["position_covered"] + position)
        held = [card for other, holdings in enumerate(state.taken) if other != seat for card in holdings]
        ones += [_START["held_by_opponents"] + card for card in held]
        obs[ones] = 1.0
        evaluation: tuple[int, ...]
        if state.phase == EXCHANGE and self.game.current_player(state) == seat:
            evaluation = self._encode_exchange_outcomes(obs, hand, state.field)
        else:
            evaluation = self._evaluation(state, seat)
        start = _START["evaluation"]
        obs[start : start + len(evaluation)] = [
            min(value / scale, 1.0) for value, scale in zip(evaluation, _EVALUATION_SCALES)
        ]

    def _evaluation(self, state: PiktasState, seat: int) -> tuple[int, ...]:
        """The seat's evaluate tuple; once the episode is over, as its showdown recorded it."""
        shown = state.showdowns[-1]["evaluations"] if state.phase == OVER else {}
        return tuple(shown[str(seat)]) if str(seat) in shown else self.game.evaluate(state, seat)

    def _encode_exchange_outcomes(
        self, obs: np.ndarray, hand: list[int], positions: list[list[int]]
    ) -> tuple[int, int, int, int]:
        """Write the per-action features of the seat's exchange turn; return its evaluate tuple,
        which the same search gives: the compiled one (scoring.exchange_outcomes) once it is
        compiled, reference.py's until then (kernels.py)."""
        legal = legal_exchange_ids(hand, positions)
        flags = self.game.config.scoring_flags
        compiled = kernels.COMPILED.ready()
        if compiled is None:
            standing, secured, full, near = reference.exchange_outcomes(hand, positions, legal, *flags)
            for name, row in reference.exchange_features(legal, secured, full, near).items():
                obs[SLICES[name]] = row
            return (*standing, rules.hand_high(hand))
        legal_ids = np.array(legal, np.int64)
        field_cards = np.array([card for stack in positions for card in stack], np.int64)
        field_positions = np.array([position for position, stack in enumerate(positions) for _ in stack], np.int64)
        standing, secured, full, near = compiled.exchange_outcomes(
            np.array(hand, np.int64), field_cards, field_positions, legal_ids, ACTION_SLOT, ACTION_POSITION, *flags
        )
        compiled.write_exchange_features(obs, legal_ids, secured, full, near)
        return (*standing, rules.hand_high(hand))

    def _encode_exchanges(self, obs: np.ndarray, state: PiktasState, seat: int, rel: list[int]) -> None:
        for other, holdings in enumerate(state.taken):
            obs[_START["taken_counts"] + rel[other]] = len(holdings) / HAND_SIZE
        counts: dict[int, int] = {}
        for actor, position, given, _taken in state.exchanges:
            index = _START["exchanges"] + 3 * rel[actor] + (0 if position < 0 else (2 if rules.is_void(given) else 1))
            counts[index] = counts.get(index, 0) + 1
        for index, count in counts.items():
            obs[index] = _THIRDS[count]

    def _encode_chips(self, obs: np.ndarray, state: PiktasState, seat: int, rel: list[int]) -> None:
        config, n = self.game.config, self.game.num_players
        bank = config.starting_stack * n
        bet_scale = config.bet_size * (config.max_bets + 1)
        contributions = state.bets["contributions"] if state.bets else [0] * n
        current_bet = state.bets["current_bet"] if state.bets else 0
        for other in range(n):
            obs[_START["chips"] + rel[other]] = state.chips[other] / bank
            obs[_START["contributions"] + rel[other]] = contributions[other] / bet_scale
            obs[_START["folded"] + rel[other]] = float(state.folded[other]) if state.folded else 0.0
        obs[_START["pot"]] = min(state.pot / bank, 1.0)
        obs[_START["to_match"]] = (current_bet - contributions[seat]) / bet_scale
        if config.max_bets:
            obs[_START["raises"]] = current_bet // config.bet_size / config.max_bets
        obs[_START["gambling"]] = 1.0

    def _encode_match(self, obs: np.ndarray, state: PiktasState, rel: list[int]) -> None:
        config = self.game.config
        if config.num_hands == 1:
            return
        for other, total in enumerate(state.scores):
            obs[_START["match_scores"] + rel[other]] = min(total / (SCORE_SCALE * config.num_hands), 1.0)
        obs[_START["round"]] = state.round_number / config.num_hands
        obs[_START["match"]] = 1.0

    def seat_view(self, state: PiktasState, seat: int) -> dict[str, Any]:
        config = self.game.config
        to_act = self.game.current_player(state)
        bets = state.bets
        return {
            "game": self.game.env_id,
            "seat": seat,
            "round": state.round_number,
            "dealer": state.dealer,
            "phase": PHASE_NAMES[state.phase],
            "cycle": state.cycle if state.phase == EXCHANGE else None,
            "to_act": to_act if to_act >= 0 else None,
            "hand": [DECK[c] for c in state.hands[seat]],
            "field": [[DECK[c] for c in stack] for stack in state.field],
            "hand_sizes": [len(hand) for hand in state.hands],
            "deck_size": len(state.deck),
            "in_round": list(state.active),
            "exchanges": [_exchange_record(entry) for entry in state.exchanges],
            "held_from_field": [[DECK[c] for c in sorted(holdings)] for holdings in state.taken],
            "evaluation": list(self.game.evaluate(state, seat)),
            "scores": list(state.scores),
            "chips": list(state.chips) if config.mode == "gambling" else None,
            "pot": state.pot if config.mode == "gambling" else None,
            "betting": None
            if bets is None
            else {
                "current_bet": bets["current_bet"],
                "contributions": list(bets["contributions"]),
                "folded": list(state.folded),
                "actions": betting_actions(bets["history"]),
            },
            "showdowns": [showdown_json(record) for record in state.showdowns],
            "returns": list(state.returns) if state.terminal else None,
        }

    def render(self, state: PiktasState, seat: int | None) -> str:
        game = self.game
        config = game.config
        to_act = game.current_player(state)
        shown_round = min(state.round_number + 1, config.num_hands)
        header = f"{game.env_id}  round {shown_round}/{config.num_hands}  dealer seat {state.dealer}"
        header += f"  phase {PHASE_NAMES[state.phase]}" + (f" (cycle {state.cycle})" if state.phase == EXCHANGE else "")
        lines = [header, "field: " + "  ".join(_position_text(j, stack) for j, stack in enumerate(state.field))]
        shown = state.showdowns[-1]["evaluations"] if state.phase == OVER else {}  # folded hands are never shown
        for s in range(game.num_players):
            if not state.active[s]:
                lines.append(f"  seat {s}: eliminated")
                continue
            visible = seat is None or s == seat or str(s) in shown
            hand = " ".join(DECK[c] for c in state.hands[s]) if visible else " ".join(["??"] * len(state.hands[s]))
            marker = ">" if s == to_act else " "
            extra = f"  chips {state.chips[s]}" if config.mode == "gambling" else f"  score {state.scores[s]}"
            if visible and state.phase != OVER:
                extra += f"  evaluate {game.evaluate(state, s)}"
            if state.folded and state.folded[s]:
                extra += "  folded"
            lines.append(f"{marker} seat {s}: {hand:<26}{extra}")
        if config.mode == "gambling":
            lines.append(f"pot {state.pot}")
        if state.showdowns:
            last = state.showdowns[-1]
            results = ", ".join(f"seat {s} {tuple(e)}" for s, e in last["evaluations"].items())
            lines.append(f"last showdown: {results or 'no hands shown'}; winners {last['winners']}")
        if state.terminal:
            lines.append("result: " + ", ".join(f"seat {s} {r:+.3f}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def _position_text(position: int, stack: list[int]) -> str:
    if not stack:
        return f"[{position}] -"
    cards = " ".join(DECK[c] for c in stack)
    return f"[{position}] {cards}" + (" (covered)" if len(stack) > 1 or rules.is_void(stack[0]) else "")


def _exchange_record(entry: list[int]) -> dict[str, Any]:
    seat, position, given, taken = entry
    if position < 0:
        return {"seat": seat, "action": "pass"}
    if rules.is_void(given):
        return {"seat": seat, "action": "void", "void": DECK[given], "position": position}
    return {"seat": seat, "action": "swap", "given": DECK[given], "taken": DECK[taken], "position": position}
