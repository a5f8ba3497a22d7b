"""An Antipoker episode's state: what game.py plays, encode.py shows and view.py rebuilds from a seat's view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from cardarena.envs.core import betting

DRAW, BETTING, OVER = range(3)
PhaseName = Literal["draw", "betting", "over"]
PHASE_NAMES: tuple[PhaseName, ...] = get_args(PhaseName)


@dataclass(slots=True)
class AntipokerState:
    """Everything about one episode. Cards are deck indices; hands are kept sorted."""

    deal_seed: int
    dealer: int
    hand_number: int = 0
    hands: list[list[int]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # top card first
    pile: list[int] = field(default_factory=list)  # the discard pile, bottom first
    pile_owner: list[int] = field(default_factory=list)  # who discarded each pile card
    picked: list[int] = field(default_factory=list)  # the drawing seat's picks so far, in order
    discarded: list[list[int]] = field(default_factory=list)  # each seat's discards this hand (its own secret)
    drawn: list[int] = field(default_factory=list)  # cards each seat discarded and drew; -1 before its draw
    reshuffles: list[list[int]] = field(default_factory=list)  # [drawing seat, cards shuffled into the deck]
    phase: int = DRAW
    to_act: int = -1
    bets: betting.BettingRound | None = None  # the betting round, kept after it ends until the next hand
    contributed: list[int] = field(default_factory=list)  # chips each seat put in this hand, ante included
    folded: list[bool] = field(default_factory=list)
    pot: int = 0
    revealed: list[int] = field(default_factory=list)  # seats whose hands were shown at the last showdown
    returns: list[float] = field(default_factory=list)  # net chips so far (the running totals)
    terminal: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)  # the hand history (core history.py)
