"""Tilt: four-card draw poker on the Voyage deck, with a Hazard from the Void deck changing each hand's rules."""

from .env import env, raw_env
from .game import TiltConfig, TiltGame

metadata = raw_env.metadata

__all__ = ["TiltConfig", "TiltGame", "env", "metadata", "raw_env"]
