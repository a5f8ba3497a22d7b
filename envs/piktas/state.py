"""A Piktas episode's state: what game.py plays and view.py rebuilds from a seat's view."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

EXCHANGE, BETTING, OVER = range(3)
PHASE_NAMES = ("exchange", "betting", "over")


@dataclass(slots=True)
class PiktasState:
    """Everything about one episode. Cards are deck indices; hands are sorted (slot order, 4.6)."""

    deal_seed: int
    dealer: int
    chips: list[int]
    scores: list[int]
    active: list[bool]  # not eliminated (gambling matches)
    round_number: int = 0
    deck: list[int] = dataclasses.field(default_factory=list)
    hands: list[list[int]] = dataclasses.field(default_factory=list)
    field: list[list[int]] = dataclasses.field(
        default_factory=list
    )  # positions in deal order, each a stack bottom -> top
    phase: int = EXCHANGE
    cycle: int = 1
    order: list[int] = dataclasses.field(default_factory=list)  # active seats, clockwise from the dealer's left
    turn: int = 0  # index into `order` during an exchange cycle
    exchanges: list[list[int]] = dataclasses.field(
        default_factory=list
    )  # [seat, position or -1 (pass), card given, card taken or -1]
    taken: list[list[int]] = dataclasses.field(default_factory=list)  # field cards each seat took and still holds
    pot: int = 0
    round_start_chips: list[int] = dataclasses.field(default_factory=list)
    bets: dict[str, Any] | None = None  # the open betting round (its rules.BETTING_STATE fields)
    folded: list[bool] = dataclasses.field(default_factory=list)
    showdowns: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # one per finished round
    returns: list[float] = dataclasses.field(default_factory=list)
    terminal: bool = False
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the hand history (core history.py)
