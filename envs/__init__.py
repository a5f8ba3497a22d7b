"""cardarena environments: one PettingZoo AEC environment per game, created by name.

Each game is registered here, once; its module is imported only when its environment is needed
(see `cardarena.envs.core.registry` for what an entry holds). `single_agent(game, opponents=...)`
gives a game as a single-agent Gymnasium env (`cardarena.envs.single_agent_env`).
"""

from importlib import import_module
from typing import Any

from .core.errors import ConfigError, IllegalActionError, UnknownGameError
from .core.registry import GAMES, lookup, make, register, registered

register(
    "piktas_v1",
    "cardarena.envs.piktas",
    agents={
        "heuristic": "cardarena.agents.piktas_heuristic:heuristic",
        "field-heuristic": "cardarena.agents.piktas_heuristic:field_heuristic",
    },
)
register("scarp_v1", "cardarena.envs.scarp", agents={"heuristic": "cardarena.agents.scarp_heuristic:heuristic"})
register(
    "paradigm_v2", "cardarena.envs.paradigm", agents={"heuristic": "cardarena.agents.paradigm_heuristic:heuristic"}
)
register("tilt_v2", "cardarena.envs.tilt", agents={"heuristic": "cardarena.agents.tilt_heuristic:heuristic"})
register("dividha_v1", "cardarena.envs.dividha", agents={"heuristic": "cardarena.agents.dividha_heuristic:heuristic"})
register("yokir_v1", "cardarena.envs.yokir", agents={"heuristic": "cardarena.agents.yokir_heuristic:heuristic"})
register(
    "antipoker_v1", "cardarena.envs.antipoker", agents={"heuristic": "cardarena.agents.antipoker_heuristic:heuristic"}
)

_SINGLE_AGENT_NAMES = ("SingleAgentEnv", "single_agent")


def __getattr__(name: str) -> Any:
    # imported on first use: the single-agent env loads its opponents through the agents, which import this package
    if name in _SINGLE_AGENT_NAMES:
        return getattr(import_module(".single_agent_env", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GAMES",
    "ConfigError",
    "IllegalActionError",
    "SingleAgentEnv",
    "UnknownGameError",
    "lookup",
    "make",
    "register",
    "registered",
    "single_agent",
]
