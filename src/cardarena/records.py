"""Hand records and files of them.

A record (`episode_record`, `hand_records`) is one JSON object holding the state a hand or an
episode started from, its action ids and its events in the core's hand history (history.py):
`replay` plays it again in a fresh environment and checks that the log and the returns come out
the same.

A record file holds JSON lines, one hand per line, that `cardarena replay` plays again bit for bit.
`cardarena eval --record` writes one whole (`RecordWriter`); `cardarena serve --record` appends each
table's hands as they end (`HandAppender`), so a killed server leaves every finished hand readable.
Both add to each record who sat where (`seats`).
"""

from __future__ import annotations

import copy
import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from cardarena.envs.core.errors import CardArenaError, EpisodeOverError, IllegalActionError, StateError
from cardarena.envs.core.history import Event
from cardarena.envs.core.registry import make

if TYPE_CHECKING:
    from cardarena.envs.core.env import CardGameEnv

logger = logging.getLogger(__name__)

SUFFIX = ".jsonl"
TEMPORARY_SUFFIX = ".tmp"
RECORD_FORMAT = "cardarena.record/1"
_RECORD_FIELDS = {"format", "game", "config", "hand", "start", "actions", "log", "returns"}


def episode_record(env: CardGameEnv) -> Event:
    """The episode the environment has played since it started (`env.episode_start()`), as one
    record: the state it started from, its action ids, its whole log and the returns."""
    game = env.game
    return _record(
        env,
        None,
        game.state_to_json(env.episode_start()),
        env.played,
        game.event_log(env.state),
        game.returns(env.state),
    )


def hand_records(env: CardGameEnv) -> list[Event]:
    """One record per hand the environment has finished since its episode started: the state the
    hand started from (its log cut to the hand's events), the hand's action ids and its events."""
    game = env.game
    state = env.episode_start()
    start, actions, records = game.clone(state), [], []
    for action in env.played:
        hand = game.hands_played(state)
        game.play(state, action)
        actions.append(action)
        if game.hands_played(state) > hand:
            records.append(_hand_record(env, hand, start, actions, state))
            start, actions = game.clone(state), []
    return records


def _hand_record(env: CardGameEnv, hand: int, start: Any, actions: list[int], state: Any) -> Event:
    game = env.game
    log = game.event_log(start)
    log[:] = [event for event in log if event["hand"] == hand]
    events = [event for event in game.event_log(state) if event["hand"] == hand]
    return _record(env, hand, game.state_to_json(start), actions, events, game.returns(state))


def _record(
    env: CardGameEnv, hand: int | None, start: Event, actions: list[int], log: list[Event], returns: list[float]
) -> Event:
    return {
        "format": RECORD_FORMAT,
        "game": env.game.env_id,
        "config": env.config.model_dump(mode="json", exclude_defaults=True),
        "hand": hand,
        "start": start,
        "actions": list(actions),
        "log": copy.deepcopy(log),
        "returns": list(returns),
    }


def replay_steps(record: Event) -> Iterator[CardGameEnv]:
    """A fresh environment set at the record's start, then after each of its actions (the same
    environment each time): for stepping through a recorded hand."""
    env = started(record)
    yield env
    for number, action in enumerate(record["actions"]):
        while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(None)
        try:
            env.step(action)
        except (IllegalActionError, EpisodeOverError) as err:
            raise StateError(f"the record's action {number} ({action!r}) cannot be played: {err}") from None
        yield env


def started(record: Any) -> CardGameEnv:
    """A fresh environment at the record's start state, its action ids checked to be the game's;
    StateError naming the field of the record, or of its start state, that does not fit."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT or not _RECORD_FIELDS <= set(record):
        raise StateError(
            f"not a {RECORD_FORMAT} record: a JSON object with the fields {', '.join(sorted(_RECORD_FIELDS))}"
        )
    if not isinstance(record["config"], dict):
        raise StateError(f"the record's config must be an object, got {type(record['config']).__name__}")
    env = make(record["game"], **record["config"])
    actions, num_actions = record["actions"], env.game.num_actions
    if not isinstance(actions, list):
        raise StateError(f"the record's actions must be a list of action ids, got {type(actions).__name__}")
    for number, action in enumerate(actions):
        if type(action) is not int or not 0 <= action < num_actions:
            raise StateError(f"the record's action {number} must be an action id 0..{num_actions - 1}, got {action!r}")
    try:
        env.load_state(env.game.state_from_json(record["start"]))
    except StateError as err:
        raise StateError(f"the record's start state does not fit {env.game.env_id}: {err}") from None
    return env


def replay(record: Event) -> CardGameEnv:
    """The record played again in a fresh environment; StateError if its log or returns differ
    from the record's (another version of the game, or an altered record)."""
    *_, env = replay_steps(record)
    log = env.history()
    if record["hand"] is not None:
        log = [event for event in log if event["hand"] == record["hand"]]
    if log != record["log"]:
        first = next(
            (n for n, (got, want) in enumerate(zip(log, record["log"], strict=False)) if got != want),
            min(len(log), len(record["log"])),
        )
        raise StateError(f"the record replays to another log: event {first} differs")
    if list(env.game.returns(env.state)) != record["returns"]:
        raise StateError(f"the record replays to the returns {env.game.returns(env.state)}, not {record['returns']}")
    return env


class RecordFileError(CardArenaError, ValueError):
    """A record file that cannot be read, or a line of it that is not a record that replays."""


def hand_lines(env: CardGameEnv, **about: Any) -> list[str]:
    """The hands `env` has finished since its episode started, one JSON line each, `about`
    (e.g. `seats`) added to every record."""
    return [json.dumps({**record, **about}, allow_nan=False) + "\n" for record in hand_records(env)]


def _temporary_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}{TEMPORARY_SUFFIX}")


def remove_orphans(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files a killed `RecordWriter` left in `folder`; the paths removed."""
    orphans = sorted(Path(folder).glob(f".*{SUFFIX}.*{TEMPORARY_SUFFIX}"))
    for orphan in orphans:
        orphan.unlink(missing_ok=True)
    return orphans


class RecordWriter:
    """One record file, written whole or not at all: lines go to a temporary file beside it, which
    `close` renames over it; leaving the `with` block on an error removes the temporary file."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.episodes = 0
        self._temporary = _temporary_path(self.path)
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


class HandAppender:
    """A record file that grows by one flushed line per hand of one episode, appended as the hand
    ends (`add_finished_hand` after every move), so a kill loses at most the hand in play. The
    file is made with the first finished hand."""

    def __init__(self, path: str | os.PathLike[str], env: CardGameEnv, **about: Any):
        self.path = Path(path)
        self._env = env
        self._about = {"episode": 0, **about}
        self._start = env.game.clone(env.state)
        self._played = len(env.played)

    def add_finished_hand(self) -> None:
        """Append the hand the last move finished, if it finished one (OSError if it cannot be written)."""
        env, game = self._env, self._env.game
        hand = game.hands_played(self._start)
        if game.hands_played(env.state) == hand:
            return
        record = _hand_record(env, hand, self._start, env.played[self._played :], env.state)
        self._start, self._played = game.clone(env.state), len(env.played)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps({**record, **self._about}, allow_nan=False) + "\n")


def read_records(path: str | os.PathLike[str], line: int | None = None) -> list[tuple[int, Any]]:
    """The records of a file with their line numbers (counted from 1), or only line `line`'s;
    RecordFileError naming the file, and the line of one that is not JSON or not a record whose
    start state and action ids fit its game (`started`). A last line cut short (no newline, not
    JSON: a writer killed mid-line) is skipped with a warning naming the file."""
    try:
        content = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordFileError(f"cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
    lines = content.splitlines()
    if lines and not content.endswith("\n") and _torn(lines[-1]):
        logger.warning(
            "%s: its last line (%d) is cut short, a hand whose writing was interrupted; skipped", path, len(lines)
        )
        del lines[-1]
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
            record = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordFileError(
                f"{path} line {number} is not a JSON record ({err.msg} at column {err.colno})"
            ) from None
        try:
            started(record)
        except CardArenaError as err:
            raise RecordFileError(f"{path} line {number} does not replay: {err}") from None
        records.append((number, record))
    return records


def _torn(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return True
    return False


def _count(lines: list[str]) -> int:
    return sum(1 for text in lines if text.strip())


def replayed(path: str | os.PathLike[str], line: int, record: Any) -> CardGameEnv:
    """The record of `path`'s line `line` played again (`replay`); RecordFileError naming
    the line when it is not a record, or does not replay to the events and returns it holds."""
    try:
        return replay(record)
    except (CardArenaError, NotImplementedError, TypeError, ValueError, KeyError, IndexError, AttributeError) as err:
        raise RecordFileError(f"{path} line {line} does not replay: {err}") from None
