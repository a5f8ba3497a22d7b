"""Antipoker's settings (the rulebook's variants)."""

from __future__ import annotations

from typing import Annotated, ClassVar

from cardarena.envs.core.config import MAX_BETS, MAX_CHIPS, MAX_HANDS, GameConfig
from pydantic import Field

from .rules import MAX_PLAYERS, MIN_PLAYERS


class AntipokerConfig(GameConfig):
    """Antipoker's settings (the rulebook's variants), in the suite's vocabulary."""

    renamed: ClassVar[dict[str, str]] = {"bet_cap": "max_bets"}

    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 2
    num_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 1
    betting: bool = True
    ante: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 1
    bet_size: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 2
    max_bets: Annotated[int, Field(ge=1, le=MAX_BETS)] = 4
