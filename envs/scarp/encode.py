"""Scarp's observation vector, JSON seat view (and reading it back), rendering and action table.

Action table (`Discrete(147)`, the rulebook's numbering):

| ids     | action            | when                                                              |
|---------|-------------------|-------------------------------------------------------------------|
| 0-3     | NAME(s)           | setup: name L, S, D or H (seat 1: not seat 0's suit)              |
| 4-83    | CHALLENGE(c, w)   | 4 + 2 * index(c) + w: lay numbered c, suit opposite_suits(c)[w]   |
| 84-128  | PICK(x)           | 84 + index(x): a card in the pick context at hand                 |
| 129     | DONE              | close a valid answer                                              |
| 130     | DECLINE           | do not answer                                                     |
| 131     | GHOST_ANSWER      | discard the Ghost, gain access to the challenger's hand           |
| 132     | REVERSE           | start a reverse challenge (three picks of a Shrike follow)        |
| 133-136 | ESSENCE_DRAW(e)   | SUN, STONE, KNIFE, ROSE: discard e, draw three                    |
| 137-140 | ESSENCE_STRIP(e)  | SUN, STONE, KNIFE, ROSE: discard e, the opponent discards half    |
| 141     | GHOST_DRAW        | discard the Ghost, draw five                                      |
| 142-144 | EMP, QUAKE, DOUBLE_SHRIKE | start a combination (three picks follow)                  |
| 145     | DRAW_PASS         | draw one and end the turn (no numbered card in hand)              |
| 146     | FOLD              | concede                                                           |

Observation: float32 vector in [0, 1], seat-relative (self, then the opponent); `SLICES` names
every segment and docs/games/scarp.md tables them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from cardarena.envs.core.game import Encoder, segment_slices

from . import game as scarp
from .game import ScarpGame, pick_context
from .rules import DECK, NUM_PLAYERS, SUITS
from .state import COMBO, COMBO_KINDS, DECK_PICK, OVER, PHASE_NAMES, STAGE_NAMES, ScarpState

ACTION_NAMES = list(scarp.ACTION_LABELS)
CARDS = len(DECK)
OUTCOMES = ("won", "lost", "drawn")

_SEGMENTS = [
    ("hand", CARDS),  # own cards
    ("opponent_known", CARDS),  # cards of the opponent's hand this seat has seen there
    ("known_by_opponent", CARDS),  # own cards the opponent has seen
    ("pile", CARDS),  # the discard pile, face up
    ("aside", CARDS),  # cards spent on the effect in progress
    ("challenge", CARDS),  # the original Challenge card of this turn
    ("challenge_suit", 4),  # L, S, D, H
    ("reverse", CARDS),  # the reverse Challenge card of this turn
    ("reverse_suit", 4),
    ("picked", CARDS),  # the cards picked so far in the pick context at hand
    ("deck_seen", CARDS),  # the deck's contents during this seat's deck pick
    ("revealed", CARDS),  # the setup reveal
    ("named", 2 * 4),  # the suit each rel seat named
    ("phase", len(PHASE_NAMES)),
    ("combo", len(COMBO_KINDS)),  # the combination being picked
    ("stage", len(STAGE_NAMES)),
    ("flags", 3),  # shrike_played, quake_used, double_used
    ("access", 1),  # the responder sees the challenger's hand
    ("is_challenger", 1),
    ("to_act", 1),
    ("first_challenger", 1),
    ("hand_sizes", 2),  # per rel seat, / 45
    ("deck_size", 1),  # / 45
    ("pile_size", 1),  # / 45
    ("turn", 1),  # turns played / max_turns
    ("pick_size", 1),  # cards a strip or quake discard takes, / 45
    ("outcome", len(OUTCOMES)),  # once over: won, lost, drawn
    ("enemy_variant", 1),  # challenge_suit="enemy"
]
SLICES = segment_slices(_SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_BLANK = np.zeros(OBSERVATION_SIZE, np.float32)
_AT = {name: piece.start for name, piece in SLICES.items()}
_HAND, _OPPONENT_KNOWN, _KNOWN_BY_OPPONENT, _PILE, _ASIDE, _PICKED, _REVEALED, _DECK_SEEN = (
    _AT[name]
    for name in ("hand", "opponent_known", "known_by_opponent", "pile", "aside", "picked", "revealed", "deck_seen")
)
_CHALLENGE, _CHALLENGE_SUIT, _REVERSE, _REVERSE_SUIT, _NAMED, _PHASE, _STAGE, _COMBO, _OUTCOME, _FLAGS = (
    _AT[name]
    for name in (
        "challenge",
        "challenge_suit",
        "reverse",
        "reverse_suit",
        "named",
        "phase",
        "stage",
        "combo",
        "outcome",
        "flags",
    )
)
_HAND_SIZES, _DECK_SIZE, _PILE_SIZE, _TURN, _PICK_SIZE, _ENEMY_VARIANT = (
    _AT[name] for name in ("hand_sizes", "deck_size", "pile_size", "turn", "pick_size", "enemy_variant")
)


class ScarpEncoder(Encoder[ScarpState]):
    game: ScarpGame
    observation_size = OBSERVATION_SIZE

    def observation(self, state: ScarpState, seat: int) -> np.ndarray:
        obs = _BLANK.copy()
        # item writes through a memoryview cost less than numpy's
        cells: memoryview[float] = memoryview(obs)  # type: ignore[arg-type]  # numpy types ndarray as a buffer from Python 3.12 only
        other = 1 - seat
        for start, cards in (
            (_HAND, state.hands[seat]),
            (_OPPONENT_KNOWN, state.known[seat]),
            (_KNOWN_BY_OPPONENT, state.known[other]),
            (_PILE, state.pile),
            (_ASIDE, state.aside),
            (_PICKED, state.picks.picked),
            (_REVEALED, state.revealed),
        ):
            for card in cards:
                cells[start + card] = 1.0
        phase = state.phase
        if phase == DECK_PICK and state.to_act == seat:
            for card in state.deck:
                cells[_DECK_SEEN + card] = 1.0
        if state.challenge:
            cells[_CHALLENGE + state.challenge[0]] = cells[_CHALLENGE_SUIT + state.challenge[1]] = 1.0
        if state.reverse:
            cells[_REVERSE + state.reverse[0]] = cells[_REVERSE_SUIT + state.reverse[1]] = 1.0
        for rel, player in enumerate((seat, other)):
            if state.named[player] >= 0:
                cells[_NAMED + 4 * rel + state.named[player]] = 1.0
        cells[_PHASE + phase] = cells[_STAGE + state.stage] = 1.0
        if phase == COMBO:
            cells[_COMBO + COMBO_KINDS.index(state.combo)] = 1.0
        elif phase == OVER:
            cells[_OUTCOME + (2 if state.winner < 0 else (0 if state.winner == seat else 1))] = 1.0
        flags = (
            state.shrike_played,
            state.quake_used,
            state.double_used,
            state.access,
            state.challenger == seat,
            state.to_act == seat,
            state.first_challenger == seat,
        )
        for index, flag in enumerate(flags, _FLAGS):
            if flag:
                cells[index] = 1.0
        config = self.game.config
        cells[_HAND_SIZES] = len(state.hands[seat]) / CARDS
        cells[_HAND_SIZES + 1] = len(state.hands[other]) / CARDS
        cells[_DECK_SIZE] = len(state.deck) / CARDS
        cells[_PILE_SIZE] = len(state.pile) / CARDS
        cells[_TURN] = state.turn / config.max_turns
        cells[_PICK_SIZE] = state.pick_size / CARDS
        if config.challenge_suit == "enemy":
            cells[_ENEMY_VARIANT] = 1.0
        return obs

    def seat_view(self, state: ScarpState, seat: int) -> dict[str, Any]:
        codes = DECK.codes
        over = state.phase == OVER
        return {
            "game": self.game.env_id,
            "seat": seat,
            "phase": PHASE_NAMES[state.phase],
            "to_act": state.to_act if state.to_act >= 0 else None,
            "turn": state.turn,
            "challenger": state.challenger if state.challenger >= 0 else None,
            "first_challenger": state.first_challenger if state.first_challenger >= 0 else None,
            "named": [SUITS[s] if s >= 0 else None for s in state.named],
            "revealed": [codes[card] for card in state.revealed],
            "hand": DECK.codes_of(state.hands[seat]),
            "hand_sizes": [len(hand) for hand in state.hands],
            "opponent_known": DECK.codes_of(state.known[seat]),
            "known_by_opponent": DECK.codes_of(state.known[1 - seat]),
            "deck_size": len(state.deck),
            "deck": DECK.codes_of(state.deck) if state.phase == DECK_PICK and state.to_act == seat else None,
            "pile": DECK.codes_of(state.pile),
            "aside": DECK.codes_of(state.aside),
            "table": DECK.codes_of(state.table),
            "effect": state.effect or None,
            "pick": pick_context(state),
            "combo": state.combo or None,
            "picked": [codes[card] for card in state.picks.picked],
            "pick_size": state.pick_size,
            "shrike_played": state.shrike_played,
            "quake_used": state.quake_used,
            "double_used": state.double_used,
            "challenge": _laid(state.challenge),
            "reverse": _laid(state.reverse),
            "stage": STAGE_NAMES[state.stage],
            "access": state.access,
            "reverse_failed": state.reverse_failed,
            "winner": (state.winner if state.winner >= 0 else None) if over else None,
            "reason": state.reason or None,
            "returns": list(state.returns) if over else None,
        }

    def render(self, state: ScarpState, seat: int | None) -> str:
        view = self.seat_view(state, 0 if seat is None else seat)
        lines = [f"{self.game.env_id}  turn {state.turn}  phase {view['phase']}  challenger {view['challenger']}"]
        for player in range(NUM_PLAYERS):
            shown = seat is None or player == seat
            hand = " ".join(DECK.codes_of(state.hands[player])) if shown else f"{len(state.hands[player])} cards"
            marker = ">" if player == state.to_act else " "
            lines.append(f"{marker} seat {player}: {hand}")
        lines.append(f"deck {len(state.deck)}  pile {' '.join(view['pile']) or '-'}")
        for name in ("challenge", "reverse"):
            if view[name]:
                lines.append(f"{name}: {view[name]['card']} suit {view[name]['suit']}")
        if view["picked"]:
            lines.append(f"picked ({view['pick']}): {' '.join(view['picked'])}")
        if state.phase == OVER:
            lines.append(f"result: {state.reason}, winner {view['winner']}, returns {state.returns}")
        return "\n".join(lines)


def _laid(laid: list[int]) -> dict[str, str] | None:
    return {"card": DECK.codes[laid[0]], "suit": SUITS[laid[1]]} if laid else None


# ---------------------------------------------------------------- reading a seat view back
