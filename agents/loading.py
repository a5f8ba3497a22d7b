"""Load any agent by name or path.

`load` resolves, in order: a generic agent ("random", the search agents "pimc" and "ismcts"
with their parameters, see search.py), a game's search tier ("<game>/expert", see expert.py),
an agent its game registers
("<game>/heuristic", see `cardarena.envs.core.registry`), a shipped checkpoint
("<game>/ppo-selfplay", from `cardarena.checkpoints/<game>/<name>/`), the path of a
checkpoint folder, then a user's agent as "module:callable" (a class or factory called with the
seed, e.g. "mybots:Greedy"). A short name works within `game`: `load("heuristic", game="<game>")`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from importlib import import_module, resources
from pathlib import Path
from typing import Any

from cardarena.envs import lookup, registered
from cardarena.envs.core.errors import CheckpointError, UnknownAgentError

from .base import Agent, RandomAgent
from .checkpoint import CARD_FILE, load_policy_agent, read_card
from .expert import EXPERT, TIERS, expert_agent, expert_card
from .search import ISMCTS, PIMC, search_agent

AgentFactory = Callable[[int | None], Agent]
RANDOM = "random"

_GENERIC: dict[str, AgentFactory] = {RANDOM: lambda seed: RandomAgent(seed)}
_USER_FACTORY = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def _own_agents(game: str) -> dict[str, str]:
    """Short name -> "module:callable" of the agents `game` registers (none for an unknown game)."""
    return dict(lookup(game).agents) if game in _games() else {}


def default_opponent(game: str) -> str:
    """The first agent `game` registers (e.g. its heuristic), or "random" for a game that registers none."""
    return next(iter(_own_agents(game)), RANDOM)


def _build(target: str, seed: int | None) -> Agent:
    """The agent that a registered "module:callable" factory makes for `seed`."""
    module, _, factory = target.partition(":")
    return getattr(import_module(module), factory)(seed)


def _build_user_agent(target: str, seed: int | None) -> Agent:
    """The agent a user's "module:callable" makes for `seed`; UnknownAgentError naming what is missing."""
    module_name, _, attribute = target.partition(":")
    try:
        factory: Any = import_module(module_name)
    except ImportError as err:
        raise UnknownAgentError(f"agent {target!r}: cannot import module {module_name!r} ({err})") from None
    for part in attribute.split("."):
        if not hasattr(factory, part):
            raise UnknownAgentError(f"agent {target!r}: module {module_name!r} has no {attribute!r}")
        factory = getattr(factory, part)
    if not callable(factory):
        raise UnknownAgentError(f"agent {target!r}: {attribute!r} is not a class or function")
    agent = factory(seed)
    if not callable(getattr(agent, "act", None)):
        raise UnknownAgentError(f"agent {target!r}: {attribute}(seed) gave {type(agent).__name__}, not an agent")
    return agent


def _shipped_root() -> Path:
    """The folder of the checkpoints installed with cardarena: one sub-folder per game."""
    return Path(str(resources.files("cardarena.checkpoints")))


def _shipped(game: str) -> dict[str, Path]:
    """Name -> folder of every shipped checkpoint of `game`."""
    folder = _shipped_root() / game
    if not folder.is_dir():
        return {}
    return {card.parent.name: card.parent for card in sorted(folder.glob(f"*/{CARD_FILE}"))}


def _shipped_folder(game: str, name: str) -> Path | None:
    """The folder of `game`'s shipped checkpoint `name`, None if `game` is not registered or has none."""
    return _shipped(game).get(name) if game in _games() else None


def _games() -> list[str]:
    """The names of the registered games."""
    return list(dict.fromkeys(entry.name for entry in registered()))


def available(game: str | None = None) -> list[str]:
    """Full names of the agents that `load` knows (built-ins and shipped checkpoints), optionally for one game."""
    names = [*_GENERIC, PIMC, ISMCTS]
    for game_name in _games():
        if game is None or game == game_name:
            own = _own_agents(game_name)
            shipped = _shipped(game_name)
            names += [f"{game_name}/{agent}" for agent in own]
            names += [f"{game_name}/{agent}" for agent in shipped if agent not in own]
            tier = TIERS.get(game_name)
            names += [f"{game_name}/{EXPERT}"] if tier is not None and tier.guide in shipped else []
    return names


def load(name_or_path: str | os.PathLike[str], game: str | None = None, seed: int | None = None) -> Agent:
    """The agent called `name_or_path`, or the checkpoint folder at that path.

    Raises UnknownAgentError for a name that matches nothing, CheckpointError for a checkpoint
    that is missing, corrupt, or made for another game or version.
    """
    if isinstance(name_or_path, os.PathLike):
        return _load_checkpoint_path(Path(name_or_path), game, seed)
    name = name_or_path
    _check_named(name, game)
    if name in _GENERIC:
        return _GENERIC[name](seed)
    searcher = search_agent(name, seed, load)
    if searcher is not None:
        if game is not None:
            searcher.load_rollout(game)
        return searcher
    expert = expert_agent(name, game, seed, load)
    if expert is not None:
        if game is not None and expert.name != f"{game}/{EXPERT}":
            raise UnknownAgentError(f"agent {name!r} plays {expert.name.partition('/')[0]!r}, not {game!r}")
        return expert
    game_name, _, agent_name = name.rpartition("/")
    game_name = game_name or game or ""
    factory = _own_agents(game_name).get(agent_name)
    shipped = _shipped_folder(game_name, agent_name)
    if (factory is not None or shipped is not None) and game is not None and game_name != game:
        raise UnknownAgentError(f"agent {name!r} plays {game_name!r}, not {game!r}")
    if factory is not None:
        return _build(factory, seed)
    if shipped is not None:
        return _load_checkpoint(shipped, game_name, seed, f"{game_name}/{agent_name}")
    if Path(name).expanduser().exists():
        return _load_checkpoint_path(Path(name).expanduser(), game, seed)
    if _USER_FACTORY.fullmatch(name):
        return _build_user_agent(name, seed)
    raise _unknown(f"unknown agent {name!r}", game or (game_name if game_name in _games() else None))


def checkpoint_folder(name: str, game: str) -> Path:
    """The folder of the checkpoint `name`: a shipped checkpoint of `game` (`GAME/NAME` or `NAME`)
    or a checkpoint folder's path. UnknownAgentError when it is neither."""
    _check_named(name, game)
    game_name, _, agent_name = name.rpartition("/")
    shipped = _shipped_folder(game_name or game, agent_name)
    if shipped is not None:
        if game_name and game_name != game:
            raise UnknownAgentError(f"checkpoint {name!r} plays {game_name!r}, not {game!r}")
        return shipped
    if Path(name).expanduser().is_dir():
        return Path(name).expanduser()
    shipped_names = ", ".join(f"{game}/{agent}" for agent in _shipped(game)) or "none"
    raise UnknownAgentError(
        f"{name!r} is neither a shipped checkpoint of {game!r} ({shipped_names}) nor a checkpoint folder"
    )


def _check_named(name: str, game: str | None) -> None:
    """UnknownAgentError for a name that is not a string, or empty (which would read as the current folder)."""
    if not isinstance(name, str):
        raise _unknown(f"an agent is named by a string or a path, not {name!r}", game)
    if not name.strip():
        raise _unknown(f"the agent name is empty ({name!r})", game)


def _unknown(problem: str, game: str | None) -> UnknownAgentError:
    """The error for a name that matches nothing, listing the agents of its game (all of them if unknown)."""
    known = ", ".join(available(game))
    return UnknownAgentError(f"{problem}; available: {known} (or the path of a checkpoint folder)")


def describe(name: str) -> dict[str, Any]:
    """What `load(name)` gives, for listing: `{"name", "game", "kind", "card"}`.

    `kind` is "built-in" (`card` None; `game` None when it plays every game, like `random`),
    "search tier" (`GAME/expert`, `card` its search and budget) or "checkpoint" (`card` its
    card.json). Raises like `load`.
    """
    _check_named(name, None)
    if name in _GENERIC or search_agent(name, None) is not None:
        return {"name": name, "game": None, "kind": "built-in", "card": None}
    tier = expert_card(name)
    if tier is not None:
        return {"name": name, "game": tier["game"], "kind": "search tier", "card": tier}
    game_name, _, agent_name = name.rpartition("/")
    if agent_name in _own_agents(game_name):
        return {"name": name, "game": game_name, "kind": "built-in", "card": None}
    folder = _shipped_folder(game_name, agent_name)
    if folder is None and not Path(name).expanduser().exists():
        raise _unknown(f"unknown agent {name!r}", None)
    card = read_card(folder or Path(name).expanduser())
    return {"name": name, "game": card["game"], "kind": "checkpoint", "card": card}


def _load_checkpoint_path(path: Path, game: str | None, seed: int | None) -> Agent:
    return _load_checkpoint(path, game, seed, path.name)


def _load_checkpoint(folder: Path, game: str | None, seed: int | None, name: str) -> Agent:
    card_game = read_card(folder)["game"]
    if game is not None and card_game != game:
        raise CheckpointError(f"{folder}: this checkpoint plays {card_game!r}, not {game!r}")
    return load_policy_agent(folder, seed=seed, name=name)
