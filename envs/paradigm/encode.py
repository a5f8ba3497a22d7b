"""Paradigm's observation vector, JSON seat view, rendering and action table.

Action table (rulebook 4.0), `Discrete(105)`:

| ids    | action      | when                                                                   |
|--------|-------------|------------------------------------------------------------------------|
| 0-3    | SUIT(s)     | choose suit L, S, D, H (setup)                                         |
| 4-48   | CARD(c)     | id = 4 + deck index: a starting card (setup) or a card from hand (play round) |
| 49     | HAND        | the revealed card goes into one's hand                                 |
| 50     | NEW_PILE    | the card starts a new pile                                             |
| 51-95  | ON_TOP(x)   | id = 51 + deck index of x: the card goes on the pile whose top is x    |
| 96     | PASS        | decline (play round, cancel window)                                    |
| 97-104 | CANCEL(v)   | v = 1..8: spend the Error v, v+1, v+2 to cancel the pending move       |

Observation: float32 vector in [0, 1], seat-relative ("rel" = seats counted clockwise from the
observer, 0 = self, padded to four seats); `SLICES` names every segment, docs/games/paradigm.md
tables them. Everything in it is public (hands too): only the deck's order is hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import log, log1p
from typing import Any

import numpy as np
from cardarena.envs.core.game import Encoder, segment_slices

from . import rules
from .rules import DECK, NUM_NUMBERED, SUIT, SUITS, VALUE
from .standing import GAIN_PHASES, standing_and_gains
from .state import (
    FIRST_CANCEL,
    FIRST_CARD,
    FIRST_ON_TOP,
    FIRST_SUIT,
    HAND_ID,
    MAX_PLAYERS,
    NEW_PILE_ID,
    NUM_ACTIONS,
    OVER,
    PASS_ID,
    PENDING_NAMES,
    PHASE_NAMES,
    TO_HAND,
    TO_NEW_PILE,
    UNDECIDED,
    ParadigmState,
    current_scores,
    lead_seat,
)

ACTION_NAMES = [
    *(f"SUIT({suit})" for suit in SUITS),
    *(f"CARD({code})" for code in DECK.codes),
    "HAND",
    "NEW_PILE",
    *(f"ON_TOP({code})" for code in DECK.codes),
    "PASS",
    *(f"CANCEL({v})" for v in range(1, 9)),
]
assert len(ACTION_NAMES) == NUM_ACTIONS
assert (
    ACTION_NAMES[FIRST_SUIT] == "SUIT(L)" and ACTION_NAMES[FIRST_CARD] == "CARD(L1)" and ACTION_NAMES[HAND_ID] == "HAND"
)
assert ACTION_NAMES[NEW_PILE_ID] == "NEW_PILE" and ACTION_NAMES[FIRST_ON_TOP] == "ON_TOP(L1)"
assert ACTION_NAMES[PASS_ID] == "PASS" and ACTION_NAMES[FIRST_CANCEL] == "CANCEL(1)"

CARDS = len(DECK)
SEATS = MAX_PLAYERS
ERRORS = 8
SCORE_SCALE = log(4 * 3_628_800 + 1)  # log1p of a score: above it would take four full piles

_SEGMENTS = [
    ("seated", SEATS),  # per rel seat: a player sits there
    ("suit", SEATS * len(SUITS)),  # per rel seat: its suit (none before it is chosen)
    ("unowned", len(SUITS)),  # suits no seat has (yet) chosen
    ("hand", SEATS * 10),  # per rel seat: the values of the cards in its hand (all hands are public)
    ("errors", SEATS * ERRORS),  # per rel seat: v such that its hand holds the Error v, v+1, v+2
    ("on_table", NUM_NUMBERED),  # per numbered card: on the table
    ("height", NUM_NUMBERED),  # per numbered card on the table: its position in its pile, bottom 0.1 .. 1.0
    ("below_suit", NUM_NUMBERED * len(SUITS)),  # per numbered card on the table: the suit of the card under it
    ("below_value", NUM_NUMBERED),  # per numbered card on the table: the value / 10 of the card under it (0: bottom)
    ("top", SEATS * NUM_NUMBERED),  # per rel seat, per numbered card: the top of a pile that seat controls
    ("pile_value", NUM_NUMBERED),  # at each pile's top card: log of the pile's value / log 10!
    ("discard", CARDS),  # cards in the discard pile
    ("deck", CARDS),  # cards still in the draw deck (its contents are known, its order is not)
    ("setup_revealed", CARDS),  # the setup reveal, until the starting cards are picked
    ("revealed", CARDS),  # this turn's revealed card
    ("pending_card", CARDS),  # the card being processed or placed, or the Essence, of the pending move
    ("pending_kind", len(PENDING_NAMES)),  # process, play (from hand), essence
    ("pending_mover", SEATS),  # rel seat whose move is pending
    ("pending_destination", 2 + NUM_NUMBERED),  # hand, new pile, or on top of the pile with this top card
    ("phase", len(PHASE_NAMES)),  # suit, start, process, cancel, play, place, over
    ("to_act", SEATS),  # rel seat
    ("lead", SEATS),  # rel seat leading this turn
    ("window_start", SEATS),  # rel seat a cancel window is asked from
    ("round_seat", SEATS),  # rel seat whose play-round opportunity is current
    ("scores", SEATS),  # per rel seat: log1p(score) / log1p(4 * 10!)
    ("deck_size", 1),  # cards in the deck / 45
    ("turn", 1),  # turn counter / 45
    ("standing", 1),  # to the seat to act: its score minus the best other score, squashed to [0, 1]
    ("action_gain", NUM_ACTIONS),  # to the seat to act, per legal action: its change to the standing, squashed
    (
        "action_gap",
        NUM_ACTIONS,
    ),  # to the seat to act, per legal action: how far its change falls short of the best one's
]

SLICES = segment_slices(_SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_BLANK = np.zeros(OBSERVATION_SIZE, np.float32)
(_SEATED, _SUIT, _UNOWNED, _HAND, _ERRORS, _ON_TABLE, _HEIGHT_AT, _BELOW_SUIT, _BELOW_VALUE, _TOP, _PILE_VALUE) = (
    SLICES[name].start
    for name in (
        "seated",
        "suit",
        "unowned",
        "hand",
        "errors",
        "on_table",
        "height",
        "below_suit",
        "below_value",
        "top",
        "pile_value",
    )
)
(_DISCARD, _DECK, _SETUP_REVEALED, _REVEALED, _PENDING_CARD, _PENDING_KIND, _PENDING_MOVER, _DESTINATION_START) = (
    SLICES[name].start
    for name in (
        "discard",
        "deck",
        "setup_revealed",
        "revealed",
        "pending_card",
        "pending_kind",
        "pending_mover",
        "pending_destination",
    )
)
(
    _PHASE,
    _TO_ACT,
    _LEAD,
    _WINDOW_START,
    _ROUND_SEAT,
    _SCORES,
    _DECK_SIZE,
    _TURN,
    _STANDING,
    _ACTION_GAIN,
    _ACTION_GAP,
) = (
    SLICES[name].start
    for name in (
        "phase",
        "to_act",
        "lead",
        "window_start",
        "round_seat",
        "scores",
        "deck_size",
        "turn",
        "standing",
        "action_gain",
        "action_gap",
    )
)
_LOG_MAX_PILE = log(3_628_800)
_HEIGHT = [(position + 1) / 10 for position in range(10)]
_TENTH = [value / 10 for value in VALUE]
_NO_OWNER = [-1] * (len(SUITS) + 1)  # by suit, and a last entry that a seat without a suit (-1) writes


class ParadigmEncoder(Encoder[ParadigmState]):
    observation_size = OBSERVATION_SIZE
    action_feature_slices = (SLICES["action_gain"], SLICES["action_gap"])
    has_acting_observation = True

    def observation(self, state: ParadigmState, seat: int) -> np.ndarray:
        return self._encode(state, seat, None)

    def acting_observation(self, state: ParadigmState, seat: int, legal: Sequence[int]) -> np.ndarray:
        return self._encode(state, seat, legal)

    def _encode(self, state: ParadigmState, seat: int, legal: Sequence[int] | None) -> np.ndarray:
        """The observation; `legal` are the acting seat's legal actions where the caller has them."""
        obs = _BLANK.copy()
        # item writes through a memoryview cost less than numpy's
        cells: memoryview[float] = memoryview(obs)  # type: ignore[arg-type]  # numpy types ndarray as a buffer from Python 3.12 only
        n = state.num_players
        for player in range(n):
            rel = (player - seat) % n
            cells[_SEATED + rel] = 1.0
            suit = state.suits[player]
            if suit >= 0:
                cells[_SUIT + len(SUITS) * rel + suit] = 1.0
            hand = state.hands[player]
            if hand:
                row, held = _HAND + 10 * rel - 1, 0
                for card in hand:
                    cells[row + VALUE[card]] = 1.0
                    held |= rules.VALUE_BIT[card]
                for v in rules.ERROR_STARTS[held]:
                    cells[_ERRORS + ERRORS * rel + v - 1] = 1.0
        for suit in range(len(SUITS)):
            if suit not in state.suits:
                cells[_UNOWNED + suit] = 1.0
        products = _encode_table(cells, state, seat)
        for start, cards in ((_DISCARD, state.discard), (_DECK, state.deck), (_SETUP_REVEALED, state.setup_revealed)):
            for card in cards:
                cells[start + card] = 1.0
        if state.revealed >= 0:
            cells[_REVEALED + state.revealed] = 1.0
        if state.pending:
            _encode_pending(cells, state, seat)
        cells[_PHASE + state.phase] = 1.0
        for start, player in (
            (_TO_ACT, state.to_act),
            (_WINDOW_START, state.window_start),
            (_ROUND_SEAT, state.round_seat),
        ):
            if player >= 0:
                cells[start + (player - seat) % n] = 1.0
        cells[_LEAD + (lead_seat(state) - seat) % n] = 1.0
        cells[_DECK_SIZE] = len(state.deck) / CARDS
        cells[_TURN] = min(state.turn / CARDS, 1.0)
        if seat == state.to_act and state.phase in GAIN_PHASES:
            _encode_gains(cells, state, self.game.legal_actions(state) if legal is None else legal, products)
        return obs

    def seat_view(self, state: ParadigmState, seat: int) -> dict[str, Any]:
        codes = DECK.codes
        return {
            "game": self.game.env_id,
            "seat": seat,
            "phase": PHASE_NAMES[state.phase],
            "to_act": state.to_act if state.to_act >= 0 else None,
            "turn": state.turn,
            "lead": lead_seat(state),
            "suits": [SUITS[suit] if suit >= 0 else None for suit in state.suits],
            "unowned": [suit for number, suit in enumerate(SUITS) if number not in state.suits],
            "deck_size": len(state.deck),
            "setup_revealed": [codes[card] for card in state.setup_revealed],
            "table": [[codes[card] for card in pile] for pile in state.table],
            "controllers": [_controller(state, pile) for pile in state.table],
            "hands": [[codes[card] for card in hand] for hand in state.hands],
            "discard": [codes[card] for card in state.discard],
            "revealed": codes[state.revealed] if state.revealed >= 0 else None,
            "pending": pending_view(state),
            "window_start": state.window_start if state.window_start >= 0 else None,
            "round_seat": state.round_seat if state.round_seat >= 0 else None,
            "scores": current_scores(state),
            "returns": list(state.returns) if state.phase == OVER else None,
        }

    def render(self, state: ParadigmState, seat: int | None) -> str:
        view = self.seat_view(state, 0)
        lines = [
            f"{self.game.env_id}  turn {state.turn}  lead seat {view['lead']}"
            f"  phase {view['phase']}  deck {view['deck_size']}"
        ]
        if view["revealed"]:
            lines.append(f"revealed {view['revealed']}")
        if view["setup_revealed"]:
            lines.append("setup reveal: " + " ".join(view["setup_revealed"]))
        for player in range(state.num_players):
            marker = ">" if player == state.to_act else " "
            suit = view["suits"][player] or "-"
            hand = " ".join(view["hands"][player]) or "-"
            lines.append(f"{marker} seat {player} ({suit}): hand {hand:<24} score {view['scores'][player]}")
        for pile, controller in zip(view["table"], view["controllers"]):
            owner = f"seat {controller}" if controller is not None else "nobody"
            lines.append(f"  pile {' '.join(pile):<30} {owner}, worth {rules.pile_product(pile)}")
        if view["pending"]:
            pending = view["pending"]
            mover = f"seat {pending['mover']}" if pending["mover"] is not None else "the table"
            lines.append(f"pending: {pending['kind']} {pending['card']} by {mover} -> {pending['destination'] or '?'}")
        if view["discard"]:
            lines.append("discard: " + " ".join(view["discard"]))
        if state.phase == OVER:
            lines.append("result: " + ", ".join(f"seat {s} {r:+.3f}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def _controller(state: ParadigmState, pile: list[int]) -> int | None:
    suit = rules.SUIT[pile[-1]]
    return state.suits.index(suit) if suit in state.suits else None


def destination_code(destination: int) -> str | None:
    """A pending move's destination as the seat view writes it: "HAND", "NEW_PILE", a top card, or None."""
    if destination == UNDECIDED:
        return None
    if destination == TO_HAND:
        return rules.HAND
    if destination == TO_NEW_PILE:
        return rules.NEW_PILE
    return DECK.codes[destination]


def pending_view(state: ParadigmState) -> dict[str, Any] | None:
    if not state.pending:
        return None
    kind, card, mover, destination = state.pending
    return {
        "kind": PENDING_NAMES[kind],
        "card": DECK.codes[card],
        "mover": mover if mover >= 0 else None,
        "destination": destination_code(destination),
    }


# Keyed by the pile, a tuple of cards; the code is immutable tuples, safe to share.
@lru_cache(maxsize=1 << 14)
def _pile_code(pile: tuple[int, ...]) -> tuple[tuple[tuple[int, float], ...], int]:
    """A pile's entries with their values (each card, its height, the card under it, the value at
    its top), and the pile's value."""
    entries: list[tuple[int, float]] = []
    below = -1
    for position, card in enumerate(pile):
        entries += [(_ON_TABLE + card, 1.0), (_HEIGHT_AT + card, _HEIGHT[position])]
        if below >= 0:
            entries += [
                (_BELOW_SUIT + len(SUITS) * card + rules.SUIT[below], 1.0),
                (_BELOW_VALUE + card, _TENTH[below]),
            ]
        below = card
    value = rules.pile_product_ids(pile)
    entries.append((_PILE_VALUE + below, log(value) / _LOG_MAX_PILE))
    return tuple(entries), value


def _encode_gains(
    cells: memoryview[float], state: ParadigmState, legal: Sequence[int], products: dict[int, int]
) -> None:
    """The acting seat's standing, each legal action's change to it (`standing.py`) and how far
    that falls short of the best action's, squashed."""
    now, gains = standing_and_gains(state, legal, products)
    cells[_STANDING] = _squash(now)
    best = max(gains.values())
    for action, gain in gains.items():
        cells[_ACTION_GAIN + action] = _squash(gain)
        cells[_ACTION_GAP + action] = _shortfall(best - gain)


# Keyed by an int: a pure function of it.
@lru_cache(maxsize=1 << 12)
def _squash(points: int) -> float:
    """A signed score difference into [0, 1]: 0.5 for none, log-scaled up to 4 full piles either way."""
    return 0.5 + 0.5 * min(log1p(abs(points)) / SCORE_SCALE, 1.0) * (1 if points >= 0 else -1)


# Keyed by an int: a pure function of it.
@lru_cache(maxsize=1 << 12)
def _shortfall(points: int) -> float:
    """A shortfall (never negative) from the best action's gain, squashed into [0, 1]."""
    return 2 * _squash(points) - 1


def _encode_table(cells: memoryview[float], state: ParadigmState, seat: int) -> dict[int, int]:
    """The piles (each card, its height, the card under it; each top's controller and value) and
    the scores; returns each pile's product by its top card (`standing.pile_products`)."""
    rel_of_suit = _NO_OWNER.copy()  # by suit: its owner's rel seat
    for rel, suit in enumerate(state.suits[seat:] + state.suits[:seat]):
        rel_of_suit[suit] = rel
    scores = [0] * state.num_players
    products = {}
    for pile in state.table:
        entries, value = _pile_code(tuple(pile))
        for index, entry in entries:
            cells[index] = entry
        top = pile[-1]
        products[top] = value
        rel = rel_of_suit[SUIT[top]]
        if rel >= 0:
            cells[_TOP + NUM_NUMBERED * rel + top] = 1.0
            scores[rel] += value
    for rel, score in enumerate(scores):
        if score:
            cells[_SCORES + rel] = _score_cell(score)
    return products


# Keyed by an int: a pure function of it.
@lru_cache(maxsize=1 << 12)
def _score_cell(score: int) -> float:
    return min(log(score + 1) / SCORE_SCALE, 1.0)


def _encode_pending(cells: memoryview[float], state: ParadigmState, seat: int) -> None:
    kind, card, mover, destination = state.pending
    cells[_PENDING_CARD + card] = 1.0
    cells[_PENDING_KIND + kind] = 1.0
    if mover >= 0:
        cells[_PENDING_MOVER + (mover - seat) % state.num_players] = 1.0
    if destination == TO_HAND:
        cells[_DESTINATION_START] = 1.0
    elif destination == TO_NEW_PILE:
        cells[_DESTINATION_START + 1] = 1.0
    elif destination >= 0:
        cells[_DESTINATION_START + 2 + destination] = 1.0
