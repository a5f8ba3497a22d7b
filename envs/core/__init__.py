"""Machinery shared by every game.

The registry, configs, the AEC base, the table driver, betting, picks, cards and errors."""

from .errors import (
    CardArenaError,
    CheckpointError,
    ConfigError,
    EpisodeOverError,
    IllegalActionError,
    NoEpisodeError,
    NotFoundError,
    ObservationError,
    SeatViewError,
    StateError,
    UnknownAgentError,
    UnknownGameError,
    UnknownPlayerError,
)

__all__ = [
    "CardArenaError",
    "CheckpointError",
    "ConfigError",
    "EpisodeOverError",
    "IllegalActionError",
    "NoEpisodeError",
    "NotFoundError",
    "ObservationError",
    "SeatViewError",
    "StateError",
    "UnknownAgentError",
    "UnknownGameError",
    "UnknownPlayerError",
]
