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

from typing import Annotated, Any, Literal

import numpy as np
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.game import Encoder, segment_slices
from cardarena.envs.core.picks import PickState
from cardarena.envs.core.views import SeenLegalAction, read_view, view_card
from pydantic import BaseModel, ConfigDict, Field

from . import game as scarp
from .game import COMBO, DECK_PICK, OVER, PHASE_NAMES, STAGE_NAMES, ScarpState, pick_context
from .rules import DECK, NUM_PLAYERS, SUITS

ACTION_NAMES = list(scarp.ACTION_LABELS)
CARDS = len(DECK)
COMBO_KINDS = ("emp", "quake", "shrike", "reverse")
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
    observation_size = OBSERVATION_SIZE

    def observation(self, state: ScarpState, seat: int) -> np.ndarray:
        obs = _BLANK.copy()
        cells = memoryview(obs)  # item writes through a memoryview cost less than numpy's
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

Seat = Annotated[int, Field(ge=0, le=NUM_PLAYERS - 1)]
Count = Annotated[int, Field(ge=0)]
Cards = list[str]
_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)


class SeenChallenge(BaseModel):
    model_config = _VIEW_MODEL
    card: str
    suit: Literal[SUITS]


class ScarpSeatView(BaseModel):
    """The shape of Scarp's JSON seat view (docs/protocol.md lists every field)."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    phase: Literal[PHASE_NAMES]
    to_act: Seat | None
    turn: Count
    challenger: Seat | None
    first_challenger: Seat | None
    named: Annotated[list[Literal[SUITS] | None], Field(min_length=2, max_length=2)]
    revealed: Cards
    hand: Cards
    hand_sizes: Annotated[list[Count], Field(min_length=2, max_length=2)]
    opponent_known: Cards
    known_by_opponent: Cards
    deck_size: Count
    deck: Cards | None
    pile: Cards
    aside: Cards
    table: Cards
    effect: Literal[scarp.EFFECTS] | None
    pick: str | None
    combo: Literal[COMBO_KINDS] | None
    picked: Cards
    pick_size: Count
    shrike_played: bool
    quake_used: bool
    double_used: bool
    challenge: SeenChallenge | None
    reverse: SeenChallenge | None
    stage: Literal[STAGE_NAMES]
    access: bool
    reverse_failed: bool
    winner: Seat | None
    reason: Literal["fold", "colour_win", "deck_out", "turn_limit"] | None
    returns: Annotated[list[float], Field(min_length=2, max_length=2)] | None
    legal_actions: list[SeenLegalAction] | None = None


def state_from_seat_view(game: scarp.ScarpGame, view: dict[str, Any]) -> ScarpState:
    """A state for the view's seat: its own cards and everything public as seen; the opponent
    holds the cards the seat has seen there (and her displayed picks) plus unseen cards to her
    hand size; the deck holds the rest (the seat's deck pick: the cards it sees)."""
    seen = read_view(ScarpSeatView, view, game)
    seat, other = seen.seat, 1 - seen.seat
    names = ("hand", "opponent_known", "known_by_opponent", "pile", "aside", "table", "revealed", "picked")
    cards = {name: _ids(getattr(seen, name), name) for name in names}
    deck_seen = _ids(seen.deck, "deck") if seen.deck is not None else None
    _check_places(cards, deck_seen)
    if not set(cards["known_by_opponent"]) <= set(cards["hand"]):
        raise SeatViewError("seat view field 'known_by_opponent' names a card that is not in 'hand'")
    opponent = sorted(set(cards["opponent_known"]) | (set(cards["picked"]) - set(cards["hand"])))
    placed = set(cards["hand"]) | set(opponent) | set(cards["pile"]) | set(cards["aside"]) | set(cards["table"])
    unseen = [card for card in range(CARDS) if card not in placed and (deck_seen is None or card not in deck_seen)]
    missing = seen.hand_sizes[other] - len(opponent)
    fill, deck = (
        (unseen, deck_seen) if deck_seen is not None else (unseen[: max(missing, 0)], unseen[max(missing, 0) :])
    )
    if missing != len(fill) or len(deck) != seen.deck_size:
        raise SeatViewError(
            f"seat view card counts do not add up to {CARDS}: hand_sizes {seen.hand_sizes}, deck_size {seen.deck_size}, "
            f"{len(placed)} cards in hands, pile, aside and table"
        )
    if len(cards["hand"]) != seen.hand_sizes[seat]:
        raise SeatViewError(
            f"seat view 'hand' holds {len(cards['hand'])} cards but hand_sizes gives {seen.hand_sizes[seat]}"
        )
    state = ScarpState(seed=0)
    state.hands[seat] = sorted(cards["hand"])
    state.hands[other] = sorted(opponent + fill)
    state.deck = list(deck)
    state.known[seat], state.known[other] = sorted(cards["opponent_known"]), sorted(cards["known_by_opponent"])
    for name in ("pile", "aside", "table"):
        setattr(state, name, sorted(cards[name]))
    state.revealed, state.picks = cards["revealed"], PickState(cards["picked"])
    state.named = [SUITS.index(s) if s is not None else -1 for s in seen.named]
    state.first_challenger = _seat(seen.first_challenger)
    state.challenger, state.to_act, state.turn = _seat(seen.challenger), _seat(seen.to_act), seen.turn
    state.phase, state.stage = PHASE_NAMES.index(seen.phase), STAGE_NAMES.index(seen.stage)
    state.effect, state.combo, state.pick_size = seen.effect or "", seen.combo or "", seen.pick_size
    state.shrike_played, state.quake_used, state.double_used = seen.shrike_played, seen.quake_used, seen.double_used
    state.challenge, state.reverse = _challenge(seen.challenge, "challenge"), _challenge(seen.reverse, "reverse")
    state.access, state.reverse_failed = seen.access, seen.reverse_failed
    state.reason = seen.reason or ""
    if seen.phase == PHASE_NAMES[OVER]:
        state.winner = _seat(seen.winner)
        state.returns = list(seen.returns or [0.0, 0.0])
    return state


def _seat(seat: int | None) -> int:
    return -1 if seat is None else seat


def _ids(codes: list[str], name: str) -> list[int]:
    return [view_card(DECK, code, name) for code in codes]


def _challenge(laid: SeenChallenge | None, name: str) -> list[int]:
    return [] if laid is None else [view_card(DECK, laid.card, f"{name}.card"), SUITS.index(laid.suit)]


def _check_places(cards: dict[str, list[int]], deck: list[int] | None) -> None:
    """No card in two places (the picks may lie in a hand; what a seat knows lies in a hand)."""
    found: dict[int, str] = {}
    places = ["hand", "opponent_known", "pile", "aside", "table"] + (["deck"] if deck is not None else [])
    for name in places:
        for card in deck if name == "deck" else cards[name]:
            if card in found:
                raise SeatViewError(f"seat view holds {DECK.codes[card]} twice: in {found[card]!r} and in {name!r}")
            found[card] = name
