"""Validated game configs: an unknown key or a bad value is a ConfigError naming key, value and what is allowed."""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo

from .errors import ConfigError

MAX_CHIPS = 1_000_000
"""The most chips a chip setting (stack, ante, buy-in, bet) may name: every total at the largest table stays an
exact integer in a float32 observation (11 seats x 10^6 < 2^24) and far from overflow in compiled code."""

MAX_HANDS = 10_000
"""The most hands, turns or match points a length setting (`num_hands`, `max_hands`, `max_turns`, `target_score`)
may name."""

MAX_BETS = 100
"""The most bets and raises a betting round's cap (`max_bets`) may allow."""

MAX_REWARD = 1_000_000.0
"""The largest magnitude a reward setting (`illegal_reward`) may have: finite, so returns stay finite."""


class GameConfig(BaseModel):
    """Settings every game shares. Each game subclasses it with its own rulebook flags.

    `on_illegal="raise"` (default) raises IllegalActionError on an illegal action;
    `"penalize"` ends the episode instead, giving the offender `illegal_reward` and
    every other seat 0 (what PettingZoo's TerminateIllegalWrapper does), for training: a match
    ends with the others at 0, whatever its standing. A public `"penalty"` event in the hand
    history records the offender, the action, `illegal_reward` and the returns before it.
    `retired_seats` says what happens to a seat a game retires before the end (an eliminated seat,
    `Game.seats_leave`): `"leave"` (default) gives it its final step at once and removes it from `agents`;
    `"stay"` keeps it in `agents`, never selected and not terminated, until the episode ends, where it
    takes its final step with the others (for libraries that read any agent's final step as the episode's end).
    Every numeric setting of every game is bounded (`MAX_CHIPS`, `MAX_HANDS`, `MAX_BETS`, `MAX_REWARD`),
    so an extreme value is a ConfigError here, never an overflow later.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    on_illegal: Literal["raise", "penalize"] = "raise"
    illegal_reward: Annotated[float, Field(ge=-MAX_REWARD, le=MAX_REWARD, allow_inf_nan=False)] = -1.0
    retired_seats: Literal["leave", "stay"] = "leave"

    renamed: ClassVar[dict[str, str]] = {}
    """A game's former setting names -> the suite's names (design.md, "Settings"); an old name is refused."""

    @classmethod
    def build(cls, **settings: Any) -> GameConfig:
        """Validate `settings` into a config, turning pydantic's errors into one ConfigError."""
        old = sorted(set(settings) & set(cls.renamed))
        if old:
            raise ConfigError(f"{cls.game_label()}: config key {old[0]!r} is now called {cls.renamed[old[0]]!r}")
        unknown = sorted(set(settings) - set(cls.model_fields))
        if unknown:
            allowed = ", ".join(sorted(cls.model_fields))
            raise ConfigError(f"{cls.game_label()}: unknown config key {unknown[0]!r}; allowed keys: {allowed}")
        try:
            return cls(**settings)
        except ValidationError as err:
            raise ConfigError(_describe(cls, err)) from None

    @classmethod
    def game_label(cls) -> str:
        return cls.__name__.removesuffix("Config").lower() or "game"

    @classmethod
    def describe_fields(cls, variants_only: bool = False) -> list[tuple[str, str, Any]]:
        """(key, type, default) of every setting (or only the game's own), for docs and `cardarena games`."""
        shared = GameConfig.model_fields if variants_only else {}
        return [
            (name, _field_type_name(field), field.default)
            for name, field in cls.model_fields.items()
            if name not in shared
        ]


def _describe(cls: type[GameConfig], err: ValidationError) -> str:
    problems = []
    for issue in err.errors():
        if not issue["loc"]:  # a rule across several keys: its message names them
            problems.append(issue["msg"].removeprefix("Value error, "))
            continue
        key = ".".join(str(part) for part in issue["loc"])
        field = cls.model_fields.get(str(issue["loc"][0])) if issue["loc"] else None
        allowed = f" (allowed: {_field_type_name(field)})" if field is not None else ""
        problems.append(f"{key}={issue.get('input')!r}: {issue['msg']}{allowed}")
    return f"{cls.game_label()}: bad config value " + "; ".join(problems)


def _field_type_name(field: FieldInfo) -> str:
    return _type_name(field.annotation, field.metadata)


_BOUNDS = (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"))


def _type_name(annotation: Any, metadata: Sequence[Any] = ()) -> str:
    """A type as a person reads it: 'int >= 1', "'relative' or 'points'", 'int >= 0, <= 2 or None'."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        extra = [m for arg in args[1:] for m in (arg.metadata if isinstance(arg, FieldInfo) else [arg])]
        return _type_name(args[0], [*extra, *metadata])
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(arg) for arg in args)
    if origin is Literal:
        return " or ".join(repr(arg) for arg in args)
    name = "None" if annotation is type(None) else getattr(annotation, "__name__", str(annotation))
    bounds = [
        f"{sign} {getattr(m, attr)}" for m in metadata for attr, sign in _BOUNDS if getattr(m, attr, None) is not None
    ]
    return f"{name} {', '.join(bounds)}" if bounds else name
