"""Paradigm: a pile-control game on the Scarp deck for two to four players, with public hands,
table wipes and Error cancel windows."""

from .env import env, raw_env
from .game import ParadigmConfig, ParadigmGame

metadata = raw_env.metadata

__all__ = ["ParadigmConfig", "ParadigmGame", "env", "metadata", "raw_env"]
