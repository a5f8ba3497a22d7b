"""cardarena environments: one PettingZoo AEC environment per game, created by name.

Each game is registered here, once; its module is imported only when its environment is needed
(see `cardarena.envs.core.registry` for what an entry holds).
"""

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
register("dividha_v1", "cardarena.envs.dividha", agents={"heuristic": "cardarena.agents.dividha_heuristic:heuristic"})
register("yokir_v1", "cardarena.envs.yokir", agents={"heuristic": "cardarena.agents.yokir_heuristic:heuristic"})

__all__ = ["GAMES", "ConfigError", "IllegalActionError", "UnknownGameError", "lookup", "make", "register", "registered"]
