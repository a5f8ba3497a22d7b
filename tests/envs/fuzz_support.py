"""Mutated game states and seat views for the state-check fuzz: real states (and seat views of
them) from random play, changed as a careless or hostile writer of a state file would change
them, and the judgement of what the game makes of each.

A mutated state must either be refused with StateError, or load into an environment that plays
it to its end with random legal actions: every seat observed, its view and its legal actions
read, the state's JSON read back equal, `conserved` unchanged by every move and its cards each
once in the deck, within `max_decisions` moves. Anything else (another exception, a broken
invariant) is a failure. A mutated seat view must be refused with SeatViewError or StateError,
or give a state that plays out the same way. A mutated hand record (a line of a record file) must
be refused with RecordFileError when read or replayed, or replay to the events and returns it holds.
"""

from __future__ import annotations

import copy
import json
import pathlib
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardarena.envs.core.errors import SeatViewError, StateError
from cardarena.envs.core.registry import make

from cardarena.records import RecordFileError, hand_records, read_records, replayed

ODD_VALUES = (-1, 2**31, 2**63, 1e30, float("nan"), None, "x", [], {}, True)
ROUND_TRIP_EVERY = 7  # moves between two state JSON round trips while a loaded state plays out

Path = tuple[Any, ...]


@dataclass
class Tally:
    """What the fuzz found: states refused, states loaded and played out, and failures (described)."""

    refused: int = 0
    played: int = 0
    failures: list[str] = field(default_factory=list)

    def attempt(self, stage: str, refusals: tuple[type[Exception], ...], call: Callable[[], Any]) -> tuple[bool, Any]:
        """(True, what `call()` returned), or (False, None) once a refusal is counted refused or any
        other exception a failure at `stage`."""
        try:
            return True, call()
        except refusals:
            self.refused += 1
        except Exception as err:  # any other exception is what the fuzz reports
            self.failures.append(f"{stage}: {type(err).__name__}: {err}")
        return False, None


def real_states(name: str, config: dict[str, Any], rng: random.Random, count: int) -> list[dict[str, Any]]:
    """`count` states of random play (`state_to_json` at random moves of random episodes)."""
    env = make(name, **config)
    states: list[dict[str, Any]] = []
    while len(states) < count:
        env.reset(seed=rng.getrandbits(32))
        taken = 0
        while env.agents and taken < 3:
            if rng.random() < 0.15:
                states.append(json.loads(json.dumps(env.game.state_to_json(env.state))))
                taken += 1
            _random_move(env, rng)
    return states[:count]


def _random_move(env: Any, rng: random.Random) -> None:
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        env.step(None)
    else:
        env.step(rng.choice(env.game.legal_actions(env.state)))


def _nodes(value: Any, path: Path = ()) -> list[Path]:
    """The path of every value inside `value` (list indices and object keys), `value` itself first."""
    found = [path]
    if isinstance(value, list):
        for index, item in enumerate(value):
            found += _nodes(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            found += _nodes(item, (*path, key))
    return found


def _get(data: Any, path: Path) -> Any:
    for step in path:
        data = data[step]
    return data


def _pick(data: dict[str, Any], rng: random.Random, accept: Callable[[Any], bool]) -> Path | None:
    """A random path below one random top-level field whose value passes `accept`."""
    keys = [key for key in data if key != "game"]
    for _ in range(20):
        key = rng.choice(keys)
        paths = [path for path in _nodes(data[key], (key,)) if accept(_get(data, path))]
        if paths:
            return rng.choice(paths)
    return None


def _is_int(value: Any) -> bool:
    return type(value) is int


def _replace(data: dict[str, Any], rng: random.Random) -> str:
    path = _pick(data, rng, lambda value: True)
    new = copy.deepcopy(rng.choice(ODD_VALUES))
    _get(data, path[:-1])[path[-1]] = new
    return f"{_name(path)} = {new!r}"


def _nudge(data: dict[str, Any], rng: random.Random) -> str:
    path = _pick(data, rng, _is_int)
    if path is None:
        return _replace(data, rng)
    step = rng.choice((-1, 1))
    _get(data, path[:-1])[path[-1]] += step
    return f"{_name(path)} {step:+d}"


def _copy_int(data: dict[str, Any], rng: random.Random) -> str:
    """One int leaf (a card id, most often) set to another's value: a card in two places."""
    source, target = _pick(data, rng, _is_int), _pick(data, rng, _is_int)
    if source is None or target is None:
        return _replace(data, rng)
    _get(data, target[:-1])[target[-1]] = _get(data, source)
    return f"{_name(target)} = {_name(source)}"


def _swap(data: dict[str, Any], rng: random.Random) -> str:
    """Two int leaves swap values: cards trade places."""
    first, second = _pick(data, rng, _is_int), _pick(data, rng, _is_int)
    if first is None or second is None:
        return _replace(data, rng)
    a, b = _get(data, first), _get(data, second)
    _get(data, first[:-1])[first[-1]], _get(data, second[:-1])[second[-1]] = b, a
    return f"swap {_name(first)}, {_name(second)}"


def _resize(data: dict[str, Any], rng: random.Random) -> str:
    """A list loses an item, gains a copy of one, or is cut short."""
    path = _pick(data, rng, lambda value: isinstance(value, list) and value)
    if path is None:
        return _replace(data, rng)
    items = _get(data, path)
    index = rng.randrange(len(items))
    how = rng.choice(("drop", "duplicate", "cut"))
    if how == "drop":
        del items[index]
    elif how == "duplicate":
        items.insert(rng.randrange(len(items) + 1), copy.deepcopy(items[index]))
    else:
        del items[index:]
    return f"{how} {_name(path)}[{index}]"


def _delete_key(data: dict[str, Any], rng: random.Random) -> str:
    path = _pick(data, rng, lambda value: isinstance(value, dict) and value) or ()
    holder = _get(data, path)
    key = rng.choice([key for key in holder if key != "game"])
    del holder[key]
    return f"delete {_name((*path, key))}"


MUTATIONS = (_replace, _nudge, _copy_int, _copy_int, _swap, _swap, _resize, _resize, _delete_key)


def mutated(data: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """A changed deep copy of `data` (one to three mutations) and what was changed."""
    twin = copy.deepcopy(data)
    changes = [rng.choice(MUTATIONS)(twin, rng) for _ in range(rng.choice((1, 1, 2, 3)))]
    return twin, "; ".join(changes)


def _name(path: Path) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")


def judge(name: str, config: dict[str, Any], data: dict[str, Any], rng: random.Random, tally: Tally) -> None:
    """Load `data` and, unless refused with StateError, play it out; any other outcome is a failure."""
    env = make(name, **config)
    loaded, state = tally.attempt("load", (StateError,), lambda: env.game.state_from_json(data))
    if loaded:
        _judge_play(env, state, rng, tally)


def _judge_play(env: Any, state: Any, rng: random.Random, tally: Tally) -> None:
    """Play a loaded state out and count it played, or its failure."""
    try:
        problem = _play_out(env, state, rng)
    except Exception as err:  # any exception is what the fuzz reports
        problem = f"play: {type(err).__name__}: {err}"
    if problem:
        tally.failures.append(problem)
    else:
        tally.played += 1


def _play_out(env: Any, state: Any, rng: random.Random) -> str | None:
    """Play a loaded state to its end; what breaks an invariant, or None."""
    game = env.game
    env.load_state(state)
    start = game.conserved(env.state)
    cards = start.get("cards", [])
    if len(set(cards)) != len(cards) or not all(0 <= card < len(game.deck) for card in cards):
        return f"accepted a state whose cards are not each once in the deck: {cards}"
    for move in range(game.max_decisions() + len(env.possible_agents) + 1):
        if not env.agents:
            return None
        for agent in env.agents:
            env.observe(agent)
            env.observe_json(agent)
        if move % ROUND_TRIP_EVERY == 0:
            written = game.state_to_json(env.state)
            if game.state_to_json(game.state_from_json(written)) != written:
                return f"move {move}: the state's JSON reads back different"
        _random_move(env, rng)
        if game.conserved(env.state) != start:
            return f"move {move}: conserved quantities changed"
    return "the episode did not end within max_decisions"


def real_views(name: str, config: dict[str, Any], rng: random.Random, count: int) -> list[dict[str, Any]]:
    """`count` seat views of random play: `observe_json` of a random seat still playing in each of
    `count` real states."""
    env, views = make(name, **config), []
    while len(views) < count:
        for data in real_states(name, config, rng, count - len(views)):
            env.load_state(env.game.state_from_json(data))
            if env.agents:
                views.append(json.loads(json.dumps(env.observe_json(rng.choice(env.agents)))))
    return views


def view_fuzz(name: str, config: dict[str, Any], view: dict[str, Any], rng: random.Random, tally: Tally) -> None:
    """Load a (mutated) seat view as a table's client would send it (`CardGameEnv.load_view`) and,
    unless refused with SeatViewError or StateError, play the state it gives out; any other
    outcome is a failure."""
    env = make(name, **config)
    loaded, _ = tally.attempt("load view", (SeatViewError, StateError), lambda: env.load_view(view))
    if loaded:
        _judge_play(env, env.state, rng, tally)


def real_records(name: str, config: dict[str, Any], rng: random.Random, count: int) -> list[dict[str, Any]]:
    """`count` hand records (record-file lines) of random episodes."""
    env, records = make(name, **config), []
    while len(records) < count:
        env.reset(seed=rng.getrandbits(32))
        while env.agents:
            _random_move(env, rng)
        records += [json.loads(json.dumps(record)) for record in hand_records(env)]
    return records[:count]


def record_fuzz(name: str, config: dict[str, Any], record: dict[str, Any], rng: random.Random, tally: Tally) -> None:
    """Read a (mutated) record as a record file's line (`read_records`) and replay it (`replayed`, as
    `cardarena replay` does): refused with RecordFileError, or replayed; any other outcome is a failure."""
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / f"{name}.jsonl"
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        replayed_it, _ = tally.attempt("record", (RecordFileError,), lambda: _replay_file(path))
    if replayed_it:
        tally.played += 1


def _replay_file(path: pathlib.Path) -> None:
    """The one record of a record file read and replayed, as `cardarena replay` does."""
    ((line, read),) = read_records(path)
    replayed(path, line, read)
