"""The game registry: every game registers once, by env id, and is imported only when needed.

A game plugs in with one call, `register(env_id, module, agents, players, settings)`:

- `env_id`: `"<game>_v<N>"`, e.g. `"coinflip_v1"`; the game's name is the part before `_v`.
- `module`: the dotted path of the module that exposes `raw_env`, the game's `CardGameEnv`
  subclass (its `game_cls` must have the same name and version), e.g. `"cardarena.envs.coinflip"`.
- `agents`: the game's own agents, short name -> `"module:callable"`, where the callable takes a
  seed (`int | None`) and returns an agent, e.g. `{"heuristic": "mygame.agents:heuristic"}`.
  `cardarena.agents.load` finds them as `"<game>/<short name>"`. They are the default training
  baselines, and the first is the default opponent of `cardarena play` and `eval` and the
  pretraining teacher; a game without agents gets random opponents and no teacher.
- `players` and `settings` (optional, given together): the table sizes as `(min, max)` and each of
  the game's own config settings -> its default, in the config's order, e.g. `(2, 2)` and
  `{"num_players": 2}`. They let `cardarena games` list the game without importing it; they must
  equal what the game's classes say (the shipped games' are checked by a test). A game registered
  without them is imported to list it.

Registering imports nothing: `GAMES`, `registered()` and `lookup()` read the entries alone, and the
game's module is imported the first time its environment class is needed (`make`, `env_cls`,
`variants`, and `player_counts` and `setting_defaults` of a game registered without them).
Registering the same entry again changes nothing; registering another entry under a registered env
id is a ValueError.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .errors import UnknownGameError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .env import CardGameEnv

_ENV_ID = re.compile(r"(?P<name>[a-z][a-z0-9_]*)_v(?P<version>[0-9]+)")
_OBJECT = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


@dataclass(frozen=True)
class GameEntry:
    """One registered environment version: its id, the module that holds it, and its agents."""

    env_id: str
    module: str
    agents: Mapping[str, str] = field(default_factory=dict, hash=False)
    players: tuple[int, int] | None = None
    settings: Mapping[str, Any] | None = field(default=None, hash=False)

    @property
    def name(self) -> str:
        return self.env_id.rsplit("_v", 1)[0]

    @property
    def version(self) -> int:
        return int(self.env_id.rsplit("_v", 1)[1])

    @cached_property
    def env_cls(self) -> type[CardGameEnv]:
        """The game's `raw_env` class (imports the game's module)."""
        env_cls = import_module(self.module).raw_env
        game = env_cls.game_cls
        if f"{game.name}_v{game.version}" != self.env_id:
            raise ValueError(
                f"{self.module}.raw_env plays {game.name}_v{game.version}, but it is registered as {self.env_id}"
            )
        return env_cls

    @property
    def player_counts(self) -> range:
        """The table sizes the game seats (from the registered metadata when given)."""
        low, high = self.players or (self.env_cls.game_cls.min_players, self.env_cls.game_cls.max_players)
        return range(low, high + 1)

    @property
    def setting_defaults(self) -> Mapping[str, Any]:
        """The game's own config settings -> default (from the registered metadata when given)."""
        if self.settings is not None:
            return self.settings
        return {key: default for key, _, default in self.variants}

    @property
    def variants(self) -> list[tuple[str, str, Any]]:
        """(key, type, default) of the game's own config settings (rulebook variants)."""
        return self.env_cls.game_cls.config_cls.describe_fields(variants_only=True)


_ENTRIES: dict[str, GameEntry] = {}

GAMES: list[str] = []
"""The registered env ids, by name then version; registering updates this same list."""


def register(
    env_id: str,
    module: str,
    agents: dict[str, str] | None = None,
    players: tuple[int, int] | None = None,
    settings: dict[str, Any] | None = None,
) -> None:
    """Register a game version; see this module's docstring for the arguments."""
    if not _ENV_ID.fullmatch(env_id):
        raise ValueError(
            f"env id {env_id!r} must be <game>_v<N>: lower-case letters, digits and _, then _v and a number"
        )
    for agent, target in (agents or {}).items():
        if "/" in agent or not agent or not _OBJECT.fullmatch(target):
            raise ValueError(
                f"{env_id} agent {agent!r}: expected a short name (no '/') -> 'module:callable', got {target!r}"
            )
    _check_listing(env_id, players, settings)
    entry = GameEntry(
        env_id,
        module,
        MappingProxyType(dict(agents or {})),
        None if players is None else (players[0], players[1]),
        None if settings is None else MappingProxyType(dict(settings)),
    )
    known = _ENTRIES.get(env_id)
    if known is not None and known != entry:
        raise ValueError(f"{env_id} is already registered from {known.module!r} with agents {dict(known.agents)}")
    _ENTRIES[env_id] = entry
    GAMES[:] = [entry.env_id for entry in registered()]


def _check_listing(env_id: str, players: Any, settings: Any) -> None:
    """Refuse listing metadata that is half given or of the wrong shape."""
    if (players is None) != (settings is None):
        raise ValueError(f"{env_id}: give players and settings together, or neither")
    if players is None:
        return
    counts = tuple(players) if isinstance(players, (tuple, list)) else ()
    if len(counts) != 2 or not all(type(count) is int for count in counts) or not 1 <= counts[0] <= counts[1]:
        raise ValueError(f"{env_id} players: expected (min, max) table sizes with 1 <= min <= max, got {players!r}")
    if not isinstance(settings, dict) or not all(isinstance(key, str) for key in settings):
        raise ValueError(f"{env_id} settings: expected a dict of setting name -> default, got {settings!r}")


@contextmanager
def scoped_registrations() -> Iterator[None]:
    """Registrations made inside the block are undone at its end (tests, trying a plug-in)."""
    entries = dict(_ENTRIES)
    try:
        yield
    finally:
        _ENTRIES.clear()
        _ENTRIES.update(entries)
        GAMES[:] = [entry.env_id for entry in registered()]


def registered() -> list[GameEntry]:
    """Every registered environment version, by name then version."""
    return sorted(_ENTRIES.values(), key=lambda entry: (entry.name, entry.version))


def lookup(name: str) -> GameEntry:
    """The entry for `name_vN`, or the newest version of `name`; UnknownGameError lists what exists."""
    if not isinstance(name, str):
        raise UnknownGameError(
            f"a game is named by a string (its name or env id), not {name!r} ({type(name).__name__}); "
            f"registered games: {', '.join(GAMES)}"
        )
    if name in _ENTRIES:
        return _ENTRIES[name]
    versions = [entry for entry in registered() if entry.name == name]
    if versions:
        return versions[-1]
    known = ", ".join(GAMES)
    base = name.rsplit("_v", 1)[0]
    if any(entry.name == base for entry in registered()):
        raise UnknownGameError(f"unknown version {name!r}; registered versions: {known}")
    raise UnknownGameError(f"unknown game {name!r}; registered games: {known}")


def make(name: str, render_mode: str | None = None, **config: Any) -> CardGameEnv:
    """Create a registered environment with a validated config."""
    return lookup(name).env_cls(render_mode=render_mode, **config)
