"""Yokir: three-player trick-taking with a lone caller, an Oracle and a Sage."""

from .env import env, raw_env
from .game import YokirConfig, YokirGame

metadata = raw_env.metadata

__all__ = ["YokirConfig", "YokirGame", "env", "metadata", "raw_env"]
