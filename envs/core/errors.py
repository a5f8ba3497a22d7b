"""The error types of cardarena: one per kind of bad input, raised at the boundary."""


class CardArenaError(Exception):
    """Base class of every error cardarena raises on purpose."""


class NotFoundError(CardArenaError, KeyError):
    """A name looked up and not found; prints its message as written (a plain KeyError prints its repr)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class ConfigError(CardArenaError, ValueError):
    """A game or training configuration has an unknown key or a bad value."""


class ClusterError(CardArenaError, RuntimeError):
    """The Ray backend cannot run: Ray is not installed, no cluster answers, or it lacks the CPUs asked for."""


class UnknownGameError(NotFoundError):
    """A game name or version that is not registered."""


class IllegalActionError(CardArenaError, ValueError):
    """An action that is not legal at the current decision point."""


class CheckpointError(CardArenaError, ValueError):
    """A checkpoint that is missing, corrupt or made for another game or version."""


class UnknownAgentError(NotFoundError):
    """An agent name that no loader knows."""


class SeatViewError(CardArenaError, ValueError):
    """A JSON seat view that does not fit its game: a bad shape, card code or history, or a card twice."""


class UnknownPlayerError(NotFoundError):
    """An agent id (`player_<seat>`) that has no seat at this table."""


class NoEpisodeError(CardArenaError, RuntimeError):
    """An environment asked to step or observe before `reset()` dealt an episode."""


class EpisodeOverError(CardArenaError, RuntimeError):
    """An environment stepped, or asked for `last()`, after its episode ended and every agent left."""


class StateError(CardArenaError, ValueError):
    """A game state JSON that does not fit its game: another game's, not an object, or missing or unknown fields."""


class ObservationError(CardArenaError, ValueError):
    """An observation an agent cannot read: missing keys, or the shapes of another game or version."""
