"""A Tilt episode's state: what game.py plays, encode.py shows and view.py rebuilds from a seat's view.

Cards are Voyage deck indices (0-35), Void cards Void deck indices (0-22). Piles are lists whose
last element is the top card. `plan` holds the steps left in the hand (game.py, STEPS); `phase`
says which decision is open, `AUTO` when none is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardarena.envs.core.betting import BettingRound

AUTO, BET, EXCHANGE, SABOTAGE, SHARE_PASS, SHARE_DISCARD, HAUL, OVER = (
    "auto",
    "bet",
    "exchange",
    "sabotage",
    "share_pass",
    "share_discard",
    "haul",
    "over",
)
PHASES = (AUTO, BET, EXCHANGE, SABOTAGE, SHARE_PASS, SHARE_DISCARD, HAUL, OVER)
CARD_PHASES = (EXCHANGE, SABOTAGE, SHARE_PASS, SHARE_DISCARD, HAUL)
MOVE_FIELDS = 4  # bytes a public move takes in `TiltState.moves` (its JSON: one list of four integers a move)
# Steps of a hand's plan (4.1), run in order by game.py.
STEPS = ("deal", "bet1", "hazard1", "exchange", "bet2", "armory", "hazard2", "bet3", "showdown", "settle")


@dataclass(slots=True)
class TiltState:
    """Everything about one episode (the hand in progress and the match around it)."""

    deal_seed: int
    dealer: int
    stacks: list[int]
    carry: list[int]  # chips left unpaid by the previous hand, recorded per seat (R29)
    hand_number: int = 0
    shuffles: int = 0  # random events so far this hand (each seeds its own shuffle)
    # cards
    thumbs: list[list[int]] = field(default_factory=list)
    palms: list[list[int]] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    void_deck: list[int] = field(default_factory=list)
    row: list[int] = field(default_factory=list)  # face-up Void cards in force, in the order revealed
    gravity: bool = False  # Inexorable Gravity carried from the previous hand, in force all hand
    signal: int = -1  # the face-down Distress Signal, -1 if none
    fine: list[int] = field(default_factory=list)  # the Fine Print hand
    chicken: list[int] = field(default_factory=list)  # the Chicken card (0 or 1 card)
    tariffs: list[int] = field(default_factory=list)
    grid: list[int] = field(default_factory=list)  # the Haul grid, positions 0-8
    sabotage_pile: list[int] = field(default_factory=list)
    revealed: bool = False  # showdown reached: live hands, Fine Print and Chicken card face up
    # chips of the hand
    contributions: list[int] = field(default_factory=list)  # this hand: ante and bets
    folded: list[bool] = field(default_factory=list)  # folded, or not dealt in (no chips)
    in_hand: list[bool] = field(default_factory=list)  # dealt in this hand
    # flow
    plan: list[str] = field(default_factory=list)
    phase: str = AUTO
    order: list[int] = field(default_factory=list)  # seats of the open card decision, in turn
    turn: int = 0
    exchange_kind: str = ""  # the Void code modifying the next exchange, "" for the standard one
    paycheck_unit: int = -1  # the bet unit of a pending Paycheck round, -1 if none
    betting_round: int = 0
    bets: BettingRound | None = None  # the open betting round (the core engine's; JSON as its to_json())
    bet_rules: list[Any] = field(default_factory=list)  # [unit, max_bets, fold] of the open round
    committed: list[int] = field(default_factory=list)  # contributions before the open round
    last_bettor: int = -1  # last BET or RAISE of the last finished betting round, -1 if none
    counts: list[int] = field(default_factory=list)  # per seat: cards chosen at the open card decision
    keeps: list[int] = field(default_factory=list)  # per seat: the card kept at a Haul, -1 if not chosen
    # what seats know
    moves: bytearray = field(
        default_factory=bytearray
    )  # public, MOVE_FIELDS bytes a move end to end: PHASES index, betting round, seat, action id or cards moved
    own_discards: list[list[int]] = field(default_factory=list)  # per seat: cards it put on a pile
    passed: list[list[int]] = field(default_factory=list)  # per seat: cards it passed (Shares)
    received: list[list[int]] = field(default_factory=list)  # per seat: cards passed to it
    thumb_discards: list[int] = field(default_factory=list)  # public: Thumb cards seen going to the discards
    # outcome
    returns: list[float] = field(default_factory=list)
    terminal: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)  # the hand history (core history.py)
