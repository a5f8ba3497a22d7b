"""Dividha's settings (the rulebook's configuration table)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from cardarena.envs.core.config import MAX_BETS, MAX_CHIPS, MAX_HANDS, GameConfig
from pydantic import Field, model_validator

MIN_PLAYERS, MAX_PLAYERS = 2, 7


class DividhaConfig(GameConfig):
    """Dividha's settings (the rulebook's configuration table), in the suite's vocabulary."""

    renamed: ClassVar[dict[str, str]] = {"max_bets_per_round": "max_bets"}

    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 4
    dealer: Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)] | None = None
    match: bool = False
    max_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 100
    starting_stack: Annotated[int, Field(ge=2, le=MAX_CHIPS)] = 100
    ante: Annotated[int, Field(ge=2, le=MAX_CHIPS)] = 2
    ante_increase_every: Annotated[int, Field(ge=0, le=MAX_HANDS)] = 0
    bet_size: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 2
    limit: Literal["fixed", "pot", "no"] = "fixed"
    max_bets: Annotated[int, Field(ge=1, le=MAX_BETS)] = 4
    demons_wager: bool = False
    pay_to_trade: bool = False
    divine_intervention: bool = False
    all_in_unsplit: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> DividhaConfig:
        if self.ante % 2:
            raise ValueError(f"ante={self.ante} must be even (it is split evenly between Win and Lose)")
        if self.starting_stack < self.ante:
            raise ValueError(f"starting_stack={self.starting_stack} must be at least ante={self.ante}")
        if self.dealer is not None and self.dealer >= self.num_players:
            raise ValueError(f"dealer={self.dealer} must be a seat from 0 to {self.num_players - 1}")
        return self
