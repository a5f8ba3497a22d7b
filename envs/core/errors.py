"""The error types of cardarena: one per kind of bad input, raised at the boundary."""


class CardArenaError(Exception):
    """Base class of every error cardarena raises on purpose."""


class ConfigError(CardArenaError, ValueError):
    """A game or training configuration has an unknown key or a bad value."""


class UnknownGameError(CardArenaError, KeyError):
    """A game name or version that is not registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class IllegalActionError(CardArenaError, ValueError):
    """An action that is not legal at the current decision point."""


class CheckpointError(CardArenaError, ValueError):
    """A checkpoint that is missing, corrupt or made for another game or version."""


class UnknownAgentError(CardArenaError, KeyError):
    """An agent name that no loader knows."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class SeatViewError(CardArenaError, ValueError):
    """A JSON seat view that does not fit its game: a bad shape, card code or history, or a card twice."""
