"""Machinery shared by every game: registry, configs, the AEC base, cards and errors."""

from .errors import (
    CardArenaError,
    CheckpointError,
    ConfigError,
    IllegalActionError,
    SeatViewError,
    UnknownAgentError,
    UnknownGameError,
)

__all__ = [
    "CardArenaError",
    "CheckpointError",
    "ConfigError",
    "IllegalActionError",
    "SeatViewError",
    "UnknownAgentError",
    "UnknownGameError",
]
