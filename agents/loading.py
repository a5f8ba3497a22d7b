"""Load any agent by name: `load("random")`, `load("yokir/heuristic")`, or `load("heuristic", game="yokir")`."""

from __future__ import annotations

from collections.abc import Callable

from cardarena.envs.core.errors import UnknownAgentError

from .base import Agent, RandomAgent

AgentFactory = Callable[[int | None], Agent]


def _yokir_heuristic(seed: int | None) -> Agent:
    from .yokir_heuristic import YokirHeuristic

    return YokirHeuristic()


_GENERIC: dict[str, AgentFactory] = {"random": lambda seed: RandomAgent(seed)}
_PER_GAME: dict[str, dict[str, AgentFactory]] = {"yokir": {"heuristic": _yokir_heuristic}}


def available(game: str | None = None) -> list[str]:
    """Full names of the agents that `load` knows, optionally for one game only."""
    names = list(_GENERIC)
    for game_name, agents in _PER_GAME.items():
        if game is None or game == game_name:
            names += [f"{game_name}/{agent}" for agent in agents]
    return names


def load(name: str, game: str | None = None, seed: int | None = None) -> Agent:
    """The agent called `name`: a generic one ("random"), "<game>/<agent>", or a short name within `game`."""
    if name in _GENERIC:
        return _GENERIC[name](seed)
    game_name, _, agent_name = name.rpartition("/")
    game_name = game_name or game or ""
    if game is not None and game_name != game:
        raise UnknownAgentError(f"agent {name!r} plays {game_name!r}, not {game!r}")
    factory = _PER_GAME.get(game_name, {}).get(agent_name)
    if factory is None:
        known = ", ".join(available(game))
        raise UnknownAgentError(f"unknown agent {name!r}; available: {known}")
    return factory(seed)
