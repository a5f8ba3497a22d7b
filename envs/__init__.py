"""cardarena environments: one PettingZoo AEC environment per game, created by name."""

from .core.errors import ConfigError, IllegalActionError, UnknownGameError
from .core.registry import lookup, make, register, registered
from .piktas import raw_env as _piktas_env
from .yokir import raw_env as _yokir_env

register(_piktas_env)
register(_yokir_env)

GAMES: list[str] = [entry.env_id for entry in registered()]

__all__ = ["GAMES", "ConfigError", "IllegalActionError", "UnknownGameError", "lookup", "make", "registered"]
