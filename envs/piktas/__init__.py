"""Piktas: up to eleven players around one field of swaps and voids, scored by the best arrangement of a pool."""

from .env import env, raw_env
from .game import PiktasConfig, PiktasGame

metadata = raw_env.metadata

__all__ = ["PiktasConfig", "PiktasGame", "env", "metadata", "raw_env"]
