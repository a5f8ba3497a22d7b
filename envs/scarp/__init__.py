"""Scarp: the two-player challenge-and-answer game on the Scarp deck."""

from .env import env, raw_env
from .game import ScarpConfig, ScarpGame

metadata = raw_env.metadata

__all__ = ["ScarpConfig", "ScarpGame", "env", "metadata", "raw_env"]
