"""Hand histories: one event log per episode in one JSON format for every game, each seat's share
of it, and records that replay a hand or an episode bit for bit.

An event is a JSON object in canonical card codes and action labels, e.g.

    {"hand": 0, "kind": "deal", "seat": 1, "count": 2, "private": {"cards": ["C4", "C9"]}}
    {"hand": 0, "kind": "action", "seat": 2, "label": "discard", "private": {"label": "discard C7"}}

`hand` counts the hands finished before the event's hand (`Game.hands_played`); `kind` says what
happened, in the game's words ("start", "deal", "action", "trick", "result", ...); `seat` is the
seat the event concerns, None for the whole table. Every field is public except those under
`private`, which only `seat` sees: its own cards, the full label of an action whose public label
hides something. `seen_by(log, seat)` is the log as one seat knows it: every other seat's
`private` fields removed (seat None: all of them, what a spectator knows).

The environment logs each action as it steps (`play`): its public label (`Game.public_label`) and,
when the actor's own label says more, that label under `private`. The game logs everything else
itself, appending with `emit` to the event list its state keeps (`Game.event_log`): deals, cards
turned up, trick winners, reveals, eliminations, and one `"result"` event closing each hand that
holds the hand's outcome whole (it is the seat view's `last_hand`). Kept in the state, the log
survives `state_to_json`, `clone` and `load_state`; a logged event is never changed.

A record (`episode_record`, `hand_records`) is one JSON object holding the state a hand or an
episode started from, its action ids and its log: `replay` plays it again in a fresh environment
and checks that the log and the returns come out the same.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .errors import EpisodeOverError, IllegalActionError, SeatViewError, StateError
from .registry import make

if TYPE_CHECKING:
    from collections.abc import Iterator

    from .env import CardGameEnv
    from .game import Game

Event = dict[str, Any]

ACTION = "action"
RESULT = "result"
RECORD_FORMAT = "cardarena.record/1"
_RECORD_FIELDS = {"format", "game", "config", "hand", "start", "actions", "log", "returns"}


def emit(
    log: list[Event],
    hand: int,
    kind: str,
    seat: int | None = None,
    private: dict[str, Any] | None = None,
    **public: Any,
) -> None:
    """Append one event to `log`: the public fields, and the `private` ones only `seat` sees."""
    event: Event = {"hand": hand, "kind": kind, "seat": seat, **public}
    if private:
        event["private"] = private
    log.append(event)


def play(game: Game[Any], state: Any, action: int) -> None:
    """Play a legal `action` by the game's rules, logging it first."""
    label = game.action_label(state, action)
    public = game.public_label(state, action, label)
    hidden = {"label": label} if label != public else None
    emit(game.event_log(state), game.hands_played(state), ACTION, game.current_player(state), hidden, label=public)
    game.apply(state, action)


def seen_by(log: list[Event], seat: int | None) -> list[Event]:
    """The log as `seat` knows it: the public events and fields, and its own private fields
    (seat None: the public log). Events the seat sees whole are shared, not copied."""
    return [_public_part(event) if "private" in event and event["seat"] != seat else event for event in log]


def _public_part(event: Event) -> Event:
    return {key: value for key, value in event.items() if key != "private"}


def last_hand(log: list[Event], seat: int) -> Event | None:
    """The last finished hand's `"result"` event, until `seat` has acted after it (a copy)."""
    for event in reversed(log):
        if event["kind"] == RESULT:
            return copy.deepcopy(event)
        if event["kind"] == ACTION and event["seat"] == seat:
            return None
    return None


def restore_last_hand(log: list[Event], result: Any) -> None:
    """Make the log of a state rebuilt from a seat view hold only that view's `last_hand`."""
    if result is not None and not (isinstance(result, dict) and result.get("kind") == RESULT):
        raise SeatViewError(
            'seat view field \'last_hand\' must be a hand\'s result event (an object with "kind": "result") or null'
        )
    log[:] = [] if result is None else [copy.deepcopy(result)]


# ---------------------------------------------------------------- records


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
        play(game, state, action)
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
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT or not _RECORD_FIELDS <= set(record):
        raise StateError(
            f"not a {RECORD_FORMAT} record: a JSON object with the fields {', '.join(sorted(_RECORD_FIELDS))}"
        )
    env = make(record["game"], **record["config"])
    env.load_state(env.game.state_from_json(record["start"]))
    yield env
    for number, action in enumerate(record["actions"]):
        while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(None)
        try:
            env.step(action)
        except (IllegalActionError, EpisodeOverError) as err:
            raise StateError(f"the record's action {number} ({action!r}) cannot be played: {err}") from None
        yield env


def replay(record: Event) -> CardGameEnv:
    """The record played again in a fresh environment; StateError if its log or returns differ
    from the record's (another version of the game, or an altered record)."""
    for env in replay_steps(record):
        pass
    log = env.history()
    if record["hand"] is not None:
        log = [event for event in log if event["hand"] == record["hand"]]
    if log != record["log"]:
        first = next(
            (n for n, (got, want) in enumerate(zip(log, record["log"])) if got != want),
            min(len(log), len(record["log"])),
        )
        raise StateError(f"the record replays to another log: event {first} differs")
    if list(env.game.returns(env.state)) != record["returns"]:
        raise StateError(f"the record replays to the returns {env.game.returns(env.state)}, not {record['returns']}")
    return env
