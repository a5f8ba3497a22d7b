"""Reading a JSON seat view back: shape checks shared by every game's `Game.state_from_view`."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .cards import Deck
from .errors import SeatViewError

ViewT = TypeVar("ViewT", bound=BaseModel)


class SeenLegalAction(BaseModel):
    """One entry of a seat view's `legal_actions` (as `env.observe_json` lists them)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    id: int
    label: str


def read_view(model: type[ViewT], view: dict[str, Any], env_id: str) -> ViewT:
    """The view's fields checked against the game's pydantic model; SeatViewError names each bad field."""
    try:
        seen = model.model_validate(view)
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in issue['loc']) or 'view'}: {issue['msg']}" for issue in err.errors()[:5]
        )
        raise SeatViewError(f"seat view does not fit {env_id}: {problems}") from None
    if getattr(seen, "game", env_id) != env_id:
        raise SeatViewError(f"seat view is for {getattr(seen, 'game')!r}, not {env_id}")
    return seen


def view_card(deck: Deck, code: str, field: str) -> int:
    """Deck index of a card code found in seat view field `field`; SeatViewError if it is not a card."""
    try:
        return deck.index_of(code)
    except ValueError:
        raise SeatViewError(
            f"seat view field {field!r}: {code!r} is not a card code (e.g. {deck.codes[0]}, {deck.codes[-1]})"
        ) from None
