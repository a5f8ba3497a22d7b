"""Piktas: up to eleven players around one field of swaps and voids, scored by the best arrangement of a pool."""

from .config import PiktasConfig
from .env import env, raw_env
from .game import PiktasGame

metadata = raw_env.metadata

__all__ = ["PiktasConfig", "PiktasGame", "env", "metadata", "raw_env"]
