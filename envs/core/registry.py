"""The game registry: environments are created by name, e.g. `make("yokir_v1")` or `make("yokir")`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .env import CardGameEnv
from .errors import UnknownGameError


@dataclass(frozen=True)
class GameEntry:
    """One registered environment version."""

    env_cls: type[CardGameEnv]

    @property
    def name(self) -> str:
        return self.env_cls.game_cls.name

    @property
    def version(self) -> int:
        return self.env_cls.game_cls.version

    @property
    def env_id(self) -> str:
        return f"{self.name}_v{self.version}"

    @property
    def player_counts(self) -> range:
        game = self.env_cls.game_cls
        return range(game.min_players, game.max_players + 1)

    @property
    def variants(self) -> list[tuple[str, str, Any]]:
        """(key, type, default) of the game's own config settings (rulebook variants)."""
        return self.env_cls.game_cls.config_cls.describe_fields(variants_only=True)


_REGISTRY: dict[str, GameEntry] = {}


def register(env_cls: type[CardGameEnv]) -> None:
    entry = GameEntry(env_cls)
    _REGISTRY[entry.env_id] = entry


def registered() -> list[GameEntry]:
    """Every registered environment version, by name then version."""
    return sorted(_REGISTRY.values(), key=lambda entry: (entry.name, entry.version))


def lookup(name: str) -> GameEntry:
    """The entry for `name_vN`, or the newest version of `name`; UnknownGameError lists what exists."""
    if name in _REGISTRY:
        return _REGISTRY[name]
    versions = [entry for entry in registered() if entry.name == name]
    if versions:
        return versions[-1]
    known = ", ".join(entry.env_id for entry in registered())
    base = name.rsplit("_v", 1)[0]
    if any(entry.name == base for entry in registered()):
        raise UnknownGameError(f"unknown version {name!r}; registered versions: {known}")
    raise UnknownGameError(f"unknown game {name!r}; registered games: {known}")


def make(name: str, render_mode: str | None = None, **config: Any) -> CardGameEnv:
    """Create a registered environment with a validated config."""
    return lookup(name).env_cls(render_mode=render_mode, **config)
