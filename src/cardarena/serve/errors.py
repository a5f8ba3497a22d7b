"""The server's own error types, and the HTTP status and short kind of every error a client can cause."""

from __future__ import annotations

from cardarena.envs.core.errors import (
    CardArenaError,
    ConfigError,
    IllegalActionError,
    NotFoundError,
    SeatViewError,
    UnknownAgentError,
    UnknownGameError,
)


class UnknownTableError(NotFoundError):
    """A table id this server does not hold."""


class TableTokenError(CardArenaError, PermissionError):
    """A table token that does not open what it was used for: a seat, or the table's deletion."""


class TableRunningError(CardArenaError):
    """What a table gives only once it has ended (its whole history), asked for before."""


class StaleViewError(CardArenaError):
    """A move made on a view the table has moved past: the move number it echoes is not the current one."""


class TableLimitError(CardArenaError):
    """The server, or the request's API key, holds as many unfinished tables as it may."""


class ApiKeyError(CardArenaError, PermissionError):
    """A request without an API key, or with a key the server does not accept."""


class ApiKeyFileError(CardArenaError, ValueError):
    """An API key file that cannot be read, or a line of it that is not a key."""


# (error type, status, kind); the first match wins, so subclasses come first.
_ERRORS: list[tuple[type[CardArenaError], int, str]] = [
    (UnknownTableError, 404, "unknown_table"),
    (UnknownGameError, 404, "unknown_game"),
    (UnknownAgentError, 404, "unknown_bot"),
    (ApiKeyError, 401, "bad_api_key"),
    (TableTokenError, 403, "bad_token"),
    (StaleViewError, 409, "stale_view"),
    (IllegalActionError, 409, "illegal_action"),
    (TableRunningError, 409, "table_running"),
    (TableLimitError, 429, "too_many_tables"),
    (SeatViewError, 422, "bad_seat_view"),
    (ConfigError, 422, "bad_config"),
    (CardArenaError, 400, "bad_request"),
]


def status_and_kind(error: CardArenaError) -> tuple[int, str]:
    """The HTTP status and the ErrorBody kind of `error`."""
    return next((status, kind) for error_type, status, kind in _ERRORS if isinstance(error, error_type))
