"""Tilt's settings (rulebook sections 3, 6.1 and 8) and the sizes of its table and decks."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from cardarena.envs.core.config import MAX_BETS, MAX_CHIPS, MAX_HANDS, GameConfig
from pydantic import Field, model_validator

from . import rules

MIN_PLAYERS, MAX_PLAYERS = 2, 6
CARD_CODES, VOID_CODES, DECK, VOID = rules.CARD_CODES, rules.VOID_CODES, rules.CARDS, rules.VOID_INDEX
NUM_CARDS, NUM_VOIDS = len(CARD_CODES), len(VOID_CODES)


class TiltConfig(GameConfig):
    """Tilt's settings (rulebook sections 3, 6.1 and 8), in the suite's vocabulary."""

    renamed: ClassVar[dict[str, str]] = {"match_hands": "num_hands", "max_raises": "max_bets"}

    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 4
    dealer: Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)] | None = None
    num_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 1
    starting_stack: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 100
    ante: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 1
    small_bet: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 1
    big_bet: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 2
    max_bets: Annotated[int, Field(ge=1, le=MAX_BETS)] = 4
    reward_mode: Literal["chips"] = "chips"
    void_deck: bool = True
    void_cards: list[str] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TiltConfig:
        if self.dealer is not None and self.dealer >= self.num_players:
            raise ValueError(f"dealer={self.dealer} must be a seat from 0 to {self.num_players - 1}")
        if self.void_cards is not None:
            unknown = [code for code in self.void_cards if code not in VOID]
            if unknown:
                raise ValueError(f"void_cards: {unknown[0]!r} is not a Void card code (codes: {', '.join(VOID_CODES)})")
            twice = sorted({code for code in self.void_cards if self.void_cards.count(code) > 1})
            if twice:
                raise ValueError(f"void_cards lists {twice[0]!r} more than once")
        return self

    @property
    def void_indices(self) -> list[int]:
        """The Void deck in play: `void_cards` (all 23 when None), in Void index order."""
        if self.void_cards is None:
            return list(range(NUM_VOIDS))
        return sorted(VOID[code] for code in self.void_cards)
