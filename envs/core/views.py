"""Reading a JSON seat view back: shape checks shared by every game's `Game.state_from_view`,
and the table settings every seat view carries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .cards import Deck
from .config import GameConfig
from .errors import ConfigError, SeatViewError

ViewT = TypeVar("ViewT", bound=BaseModel)


class Table(Protocol):
    """What reading a seat view needs of a game: its id and its config (a `Game` has both)."""

    @property
    def env_id(self) -> str: ...

    @property
    def config(self) -> GameConfig: ...


class SeenLegalAction(BaseModel):
    """One entry of a seat view's `legal_actions` (as `env.observe_json` lists them): the id, its
    label and its details (`Game.action_details`: `kind`, `cards`, and any key the game adds)."""

    model_config = ConfigDict(extra="allow", strict=True)
    id: int
    label: str
    kind: str
    cards: list[str]


def table_settings(config: GameConfig) -> dict[str, Any]:
    """The settings that shape a seat view: every setting of the game's config but the
    environment's own (`on_illegal`, `illegal_reward`, `retired_seats`), as JSON values."""
    return config.model_dump(mode="json", exclude=set(GameConfig.model_fields))


def view_settings(config_cls: type[GameConfig], view: Any) -> dict[str, Any]:
    """A seat view's `settings`, checked: every setting of the game (`table_settings`), none
    other, each a value the game takes. SeatViewError naming the field otherwise."""
    settings = view.get("settings") if isinstance(view, dict) else None
    if not isinstance(settings, dict):
        raise SeatViewError(
            "seat view field 'settings' must be an object of the table's settings, as env.observe_json gives them"
        )
    names = [name for name in config_cls.model_fields if name not in GameConfig.model_fields]
    for key in settings:
        if key not in names:
            raise SeatViewError(
                f"seat view field 'settings.{key}' is not a setting of {config_cls.game_label()}; "
                f"its settings: {', '.join(names)}"
            )
    missing = [name for name in names if name not in settings]
    if missing:
        raise SeatViewError(f"seat view field 'settings' lacks {missing[0]!r}: a view gives every setting of its table")
    try:
        config_cls.build(**settings)
    except ConfigError as err:
        raise SeatViewError(f"seat view field 'settings': {err}") from None
    return settings


def read_view(model: type[ViewT], view: dict[str, Any], game: Table) -> ViewT:
    """The view's fields checked against the game's pydantic model, and its `settings` against
    the game's config; SeatViewError names each bad field. The fields every view shares that the
    environment reads itself (`settings`, `last_hand`) are not the model's."""
    try:
        seen = model.model_validate({key: value for key, value in view.items() if key not in ("settings", "last_hand")})
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in issue['loc']) or 'view'}: {issue['msg']}" for issue in err.errors()[:5]
        )
        raise SeatViewError(f"seat view does not fit {game.env_id}: {problems}") from None
    seen_game = getattr(seen, "game", game.env_id)
    if seen_game != game.env_id:
        raise SeatViewError(f"seat view is for {seen_game!r}, not {game.env_id}")
    settings, table = view_settings(type(game.config), view), table_settings(game.config)
    for key, value in table.items():
        if settings[key] != value:
            raise SeatViewError(f"seat view field 'settings.{key}' is {settings[key]!r}, but this table has {value!r}")
    return seen


def view_card(deck: Deck, code: str, field: str) -> int:
    """Deck index of a card code found in seat view field `field`; SeatViewError if it is not a card."""
    try:
        return deck.index_of(code)
    except ValueError:
        raise SeatViewError(
            f"seat view field {field!r}: {code!r} is not a card code (e.g. {deck.codes[0]}, {deck.codes[-1]})"
        ) from None


def require_seats(seen: BaseModel, n: int, per_seat: Iterable[str], seats: Iterable[str]) -> None:
    """Each field named in `per_seat` holds one entry per seat of an `n`-seat table, and each
    field named in `seats` is null or a seat of it; SeatViewError naming the field otherwise."""
    for key in per_seat:
        if len(getattr(seen, key)) != n:
            raise SeatViewError(f"seat view field {key!r} needs one entry per seat ({n})")
    for key in seats:
        value = getattr(seen, key)
        if value is not None and value >= n:
            raise SeatViewError(f"seat view field {key!r} is {value}, not a seat of this {n}-seat table")
