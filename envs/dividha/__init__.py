"""Dividha: six-card poker on a 56-card deck of mortal and immortal suits, every chip staked on Win or on Lose."""

from .env import env, raw_env
from .game import DividhaConfig, DividhaGame

metadata = raw_env.metadata

__all__ = ["DividhaConfig", "DividhaGame", "env", "metadata", "raw_env"]
