"""cardarena agents: every agent loads by name through `load`."""

from .base import Agent, RandomAgent
from .loading import available, default_opponent, describe, load

__all__ = ["Agent", "RandomAgent", "available", "default_opponent", "describe", "load"]
