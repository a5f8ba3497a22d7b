"""What the seat-view reader, the hidden-card dealer and the hand history need of the game (a
`DividhaGame`), so that they need not import it."""

from __future__ import annotations

from typing import Protocol

from cardarena.envs.core.views import Table

from .actions import Decision
from .config import DividhaConfig
from .state import DividhaState


class DividhaTable(Table, Protocol):
    @property
    def num_players(self) -> int: ...

    @property
    def config(self) -> DividhaConfig: ...

    def current_player(self, state: DividhaState) -> int: ...

    def order(self, state: DividhaState) -> list[int]: ...

    def decision(self, state: DividhaState) -> Decision: ...

    def trade_fee(self, state: DividhaState, choice: int) -> int: ...
