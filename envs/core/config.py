"""Validated game configs: an unknown key or a bad value is a ConfigError naming key, value and what is allowed."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import ConfigError


class GameConfig(BaseModel):
    """Settings every game shares. Each game subclasses it with its own rulebook flags.

    `on_illegal="raise"` (default) raises IllegalActionError on an illegal action;
    `"penalize"` ends the episode instead, giving the offender `illegal_reward` and
    every other seat 0 (what PettingZoo's TerminateIllegalWrapper does), for training.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    on_illegal: Literal["raise", "penalize"] = "raise"
    illegal_reward: float = -1.0

    @classmethod
    def build(cls, **settings: Any) -> "GameConfig":
        """Validate `settings` into a config, turning pydantic's errors into one ConfigError."""
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
            (name, _type_name(field.annotation), field.default)
            for name, field in cls.model_fields.items()
            if name not in shared
        ]


def _describe(cls: type[GameConfig], err: ValidationError) -> str:
    problems = []
    for issue in err.errors():
        key = ".".join(str(part) for part in issue["loc"]) or "<config>"
        field = cls.model_fields.get(str(issue["loc"][0])) if issue["loc"] else None
        allowed = f" (allowed: {_type_name(field.annotation)})" if field is not None else ""
        problems.append(f"{key}={issue.get('input')!r}: {issue['msg']}{allowed}")
    return f"{cls.game_label()}: bad config value " + "; ".join(problems)


def _type_name(annotation: Any) -> str:
    text = getattr(annotation, "__name__", None) if not getattr(annotation, "__args__", None) else None
    return text or str(annotation).replace("typing.", "")
