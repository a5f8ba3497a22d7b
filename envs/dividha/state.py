"""A Dividha episode's state: what game.py plays and view.py rebuilds from a seat's view."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from cardarena.envs.core.betting import BettingRound

BETTING, TRADING, OVER = range(3)
PHASE_NAMES = ("betting", "trading", "over")
WAGER_ROUND = 0  # Demon's Wager: the betting round before any card is dealt; rounds 1..3 follow the deals
TRADING_ROUND = 2  # trading follows betting round 2; a trade's record carries this round number
NUM_SLOTS = 6
SLOT_NAMES = ("P1", "P2", "U1", "U2", "P3", "P4")
PUBLIC_SLOTS = (2, 3)
EMPTY = -1  # a slot not dealt (yet)
LAST_ROUND = 3
DEALS = {1: (0, 1), 2: (2, 3), LAST_ROUND: (4, 5)}  # the slots dealt before each betting round


@dataclass(slots=True)
class DividhaState:
    """Everything about one episode. Cards are deck indices; `cards[s]` holds seat s's six slots
    in the order P1 P2 U1 U2 P3 P4 (EMPTY where nothing is dealt)."""

    deal_seed: int
    dealer: int
    stacks: list[int]
    in_match: list[bool]  # not eliminated
    hand_number: int = 0  # hands finished before this one
    ante: int = 0  # this hand's ante
    stock: list[int] = dataclasses.field(default_factory=list)  # undealt cards, the next one first
    cards: list[list[int]] = dataclasses.field(default_factory=list)
    discards: list[list[int]] = dataclasses.field(default_factory=list)  # cards each seat traded in, in order
    trades: list[int] = dataclasses.field(default_factory=list)  # each seat's trade choice c, -1 before it trades
    phase: int = BETTING
    betting_round: int = 1
    turn: int = 0  # index into the trading order
    folded: list[bool] = dataclasses.field(default_factory=list)  # out of this hand (eliminated seats too)
    win: list[int] = dataclasses.field(default_factory=list)  # the tablets: each seat's Win and Lose stakes
    lose: list[int] = dataclasses.field(default_factory=list)
    paid: list[int] = dataclasses.field(default_factory=list)  # every chip each seat put in this hand
    pot: int = 0
    forfeit: int = 0  # eliminated seats' stacks, set aside for this hand's best hand
    bets: BettingRound | None = None  # the open betting round (the core engine's; JSON as its to_json())
    actions: list[list[Any]] = dataclasses.field(
        default_factory=list
    )  # [seat, round, kind, chips, split, stack after] this hand
    showdown: dict[str, Any] | None = None  # the last settled hand's public outcome
    returns: list[float] = dataclasses.field(default_factory=list)
    terminal: bool = False
    truncated: bool = False
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the hand history (core history.py)
