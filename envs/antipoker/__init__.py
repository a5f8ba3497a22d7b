"""Antipoker: six-card draw on the Scarp deck, valued by a formula, with one fixed-limit betting round."""

from .config import AntipokerConfig
from .env import env, raw_env
from .game import AntipokerGame

metadata = raw_env.metadata

__all__ = ["AntipokerConfig", "AntipokerGame", "env", "metadata", "raw_env"]
