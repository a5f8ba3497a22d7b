"""A Paradigm episode's state and the numbers that name its parts: what game.py plays,
encode.py shows and view.py rebuilds from a seat's view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from . import rules

MIN_PLAYERS, MAX_PLAYERS = 2, 4

# Action table (4.0), Discrete(105).
FIRST_SUIT = 0
FIRST_CARD = 4
HAND_ID = 49
NEW_PILE_ID = 50
FIRST_ON_TOP = 51
PASS_ID = 96
FIRST_CANCEL = 97
NUM_ACTIONS = FIRST_CANCEL + 8

SUIT_PHASE, START, PROCESS, CANCEL, PLAY, PLACE, OVER = range(7)
PhaseName = Literal["suit", "start", "process", "cancel", "play", "place", "over"]
PHASE_NAMES: tuple[PhaseName, ...] = get_args(PhaseName)

# What a pending move is: a revealed card being processed, a card played from hand, an Essence.
PROCESSING, FROM_HAND, ESSENCE = range(3)
PendingName = Literal["process", "play", "essence"]
PENDING_NAMES: tuple[PendingName, ...] = get_args(PendingName)
# Where a pending card goes: a pile top's card id, or one of these.
UNDECIDED, TO_HAND, TO_NEW_PILE = -3, -2, -1


@dataclass(slots=True)
class ParadigmState:
    """Everything about one episode. Card ids are Scarp deck indices; -1 means none.

    `pending` is [kind, card, mover, destination] while a revealed card is processed, a card
    from hand is placed or a cancel window is open (mover -1 for an Essence), else [].
    """

    seed: int
    num_players: int
    suits: list[int]  # per seat: suit position in SUITS, -1 before it is chosen
    deck: list[int]  # the draw deck, its top card last
    phase: int = SUIT_PHASE
    to_act: int = 0
    setup_revealed: list[int] = field(default_factory=list)  # the setup reveal, until the picks
    table: list[list[int]] = field(default_factory=list)  # piles, bottom first
    hands: list[list[int]] = field(default_factory=list)  # ascending
    discard: list[int] = field(default_factory=list)  # in the order cards went there
    turn: int = 0
    revealed: int = -1  # this turn's revealed card
    pending: list[int] = field(default_factory=list)
    window_start: int = -1  # the seat a cancel window is asked from
    round_seat: int = -1  # the seat whose play-round opportunity is current
    returns: list[float] = field(default_factory=list)
    terminal: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)  # the hand history (core history.py)


def lead_seat(state: ParadigmState) -> int:
    return state.turn % state.num_players


def current_scores(state: ParadigmState) -> list[int]:
    return [rules.score_ids(state.table, suit) for suit in state.suits]
