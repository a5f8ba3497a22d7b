"""A Scarp game's state: what game.py plays, encode.py shows and view.py rebuilds from a seat's view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from cardarena.envs.core.picks import PickState

NAMING, MAIN, COMBO, EMP_PILE, DECK_PICK, STRIP, QUAKE_DISCARD, REVERSE_CHALLENGE, RESPONSE, OVER = range(10)
PhaseName = Literal[
    "naming",
    "main",
    "combo",
    "emp_pile",
    "deck_pick",
    "strip",
    "quake_discard",
    "reverse_challenge",
    "response",
    "over",
]
PHASE_NAMES: tuple[PhaseName, ...] = get_args(PhaseName)
NO_STAGE, ORDINARY, REVERSED, ORIGINAL = range(4)
StageName = Literal["none", "ordinary", "reverse", "original"]
STAGE_NAMES: tuple[StageName, ...] = get_args(StageName)
"""Which challenge is answered: none yet; the original, reversible; the reverse; the original after a reverse."""
Effect = Literal["essence_draw", "essence_strip", "ghost_draw", "emp", "quake", "double_shrike"]
EFFECTS: tuple[Effect, ...] = get_args(Effect)
ComboKind = Literal["emp", "quake", "shrike", "reverse"]  # what `ScarpState.combo` names
COMBO_KINDS: tuple[ComboKind, ...] = get_args(ComboKind)


@dataclass(slots=True)
class ScarpState:
    """Everything about one game. Card ids are deck indices; -1 means none."""

    seed: int
    draws: int = 0  # random events drawn so far from the seeded stream
    hands: list[list[int]] = field(default_factory=lambda: [[], []])  # sorted
    deck: list[int] = field(default_factory=list)  # top card last
    pile: list[int] = field(default_factory=list)  # the discard pile, sorted (unordered, face up)
    aside: list[int] = field(default_factory=list)  # cards spent on the effect in progress
    table: list[int] = field(default_factory=list)  # Challenge cards laid and not yet resolved
    known: list[list[int]] = field(
        default_factory=lambda: [[], []]
    )  # known[s]: cards of the other hand seat s has seen there
    named: list[int] = field(default_factory=lambda: [-1, -1])
    revealed: list[int] = field(default_factory=list)
    first_challenger: int = -1
    challenger: int = -1
    turn: int = 0
    phase: int = NAMING
    to_act: int = 0
    effect: str = ""
    combo: str = ""  # the combination kind being picked
    pick_size: int = 0  # cards a fixed-size pick (strip, quake discard) takes
    picks: PickState = field(default_factory=PickState)
    shrike_played: bool = False
    quake_used: bool = False
    double_used: bool = False
    challenge: list[int] = field(default_factory=list)  # [card, suit] of the original challenge
    reverse: list[int] = field(default_factory=list)  # [card, suit] of the reverse challenge
    stage: int = NO_STAGE
    access: bool = False  # the responder sees and may use the challenger's hand
    reverse_failed: bool = False
    winner: int = -1  # the winning seat, -1 for a draw (once over)
    reason: str = ""
    returns: list[float] = field(default_factory=lambda: [0.0, 0.0])
    log: list[dict[str, Any]] = field(default_factory=list)
