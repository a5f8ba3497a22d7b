"""Piktas's settings (rulebook sections 3.1 and 8)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from cardarena.envs.core.config import MAX_BETS, MAX_CHIPS, MAX_HANDS, GameConfig
from pydantic import Field, model_validator

from .rules import MAX_PLAYERS, MIN_PLAYERS


class PiktasConfig(GameConfig):
    """Piktas's settings (rulebook sections 3.1 and 8), in the suite's vocabulary."""

    renamed: ClassVar[dict[str, str]] = {
        "first_dealer": "dealer",
        "starting_chips": "starting_stack",
        "raise_amount": "bet_size",
        "max_raises": "max_bets",
        "num_rounds": "num_hands",
        "casual_reward": "reward_mode",
    }

    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 4
    mode: Literal["casual", "gambling"] = "casual"
    num_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 1
    dealer: Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)] = 0
    reward_mode: Literal["score_diff", "win"] = "score_diff"
    starting_stack: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 100
    buy_in: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 10
    bet_size: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 10
    max_bets: Annotated[int, Field(ge=0, le=MAX_BETS)] = 3
    use_voids: bool = True
    wild_voids: bool = False
    trump_multi_unit: bool = True
    highest_unit_only: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> PiktasConfig:
        if self.dealer >= self.num_players:
            raise ValueError(f"dealer={self.dealer} must be a seat from 0 to {self.num_players - 1}")
        if self.starting_stack < self.buy_in:
            raise ValueError(f"starting_stack={self.starting_stack} must be at least buy_in={self.buy_in}")
        if self.wild_voids and not self.use_voids:
            raise ValueError("wild_voids=True needs use_voids=True")
        return self

    @property
    def scoring_flags(self) -> tuple[bool, bool, bool]:
        return self.trump_multi_unit, self.highest_unit_only, self.wild_voids
