"""Files of hand records: JSON lines, one hand per line, each a record of the core's hand history
(the state the hand started from, its action ids and its events: `history.hand_records`) that
`cardarena replay` plays again bit for bit. `cardarena eval --record` and `cardarena serve --record`
write them, adding to each record who sat where (`seats`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from cardarena.envs.core import history
from cardarena.envs.core.errors import CardArenaError

if TYPE_CHECKING:
    from cardarena.envs.core.env import CardGameEnv

SUFFIX = ".jsonl"


class RecordFileError(CardArenaError, ValueError):
    """A record file that cannot be read, or a line of it that is not a record that replays."""


def hand_lines(env: CardGameEnv, **about: Any) -> list[str]:
    """The hands `env` has finished since its episode started, one JSON line each, `about`
    (e.g. `seats`) added to every record."""
    return [json.dumps({**record, **about}, allow_nan=False) + "\n" for record in history.hand_records(env)]


class RecordWriter:
    """One record file, written whole or not at all: lines go to a temporary file beside it, which
    `close` renames over it; leaving the `with` block on an error removes the temporary file."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.episodes = 0
        self._temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        self._file = self._temporary.open("w", encoding="utf-8")

    def add_episode(self, env: CardGameEnv, **about: Any) -> None:
        """The hands `env` has finished in its episode, each record with the episode's number in
        this file (`episode`, from 0) and `about`."""
        self._file.writelines(hand_lines(env, episode=self.episodes, **about))
        self.episodes += 1

    def close(self) -> None:
        self._file.close()
        os.replace(self._temporary, self.path)

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is None:
            self.close()
        else:
            self._file.close()
            self._temporary.unlink(missing_ok=True)


def read_records(path: str | os.PathLike[str], line: int | None = None) -> list[tuple[int, Any]]:
    """The records of a file with their line numbers (counted from 1), or only line `line`'s;
    RecordFileError naming the file, and the line of one that is not JSON."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise RecordFileError(f"cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
    numbered = [(number, text) for number, text in enumerate(lines, 1) if text.strip()]
    if line is not None:
        numbered = [(number, text) for number, text in numbered if number == line]
        if not numbered:
            raise RecordFileError(
                f"{path} has no hand on line {line}: its {len(lines)} lines hold {_count(lines)} hands"
            )
    if not numbered:
        raise RecordFileError(f"{path} holds no hand record")
    records = []
    for number, text in numbered:
        try:
            records.append((number, json.loads(text)))
        except json.JSONDecodeError as err:
            raise RecordFileError(
                f"{path} line {number} is not a JSON record ({err.msg} at column {err.colno})"
            ) from None
    return records


def _count(lines: list[str]) -> int:
    return sum(1 for text in lines if text.strip())


def replayed(path: str | os.PathLike[str], line: int, record: Any) -> CardGameEnv:
    """The record of `path`'s line `line` played again (`history.replay`); RecordFileError naming
    the line when it is not a record, or does not replay to the events and returns it holds."""
    try:
        return history.replay(record)
    except (CardArenaError, NotImplementedError, TypeError, ValueError, KeyError, IndexError, AttributeError) as err:
        raise RecordFileError(f"{path} line {line} does not replay: {err}") from None
