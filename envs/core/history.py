"""Hand histories: one event log per episode in one JSON format for every game, and each seat's
share of it.

An event is a JSON object in canonical card codes and action labels, e.g.

    {"hand": 0, "kind": "deal", "seat": 1, "count": 2, "private": {"cards": ["C4", "C9"]}}
    {"hand": 0, "kind": "action", "seat": 2, "label": "discard", "private": {"label": "discard C7"}}

`hand` counts the hands finished before the event's hand (`Game.hands_played`); `kind` says what
happened, in the game's words ("start", "deal", "action", "trick", "result", ...); `seat` is the
seat the event concerns, None for the whole table. Every field is public except those under
`private`, which only `seat` sees: its own cards, the full label of an action whose public label
hides something. `seen_by(log, seat)` is the log as one seat knows it: every other seat's
`private` fields removed (seat None: all of them, what a spectator knows).

The environment logs each action as it steps (`Game.play`): its public label (`Game.public_label`) and,
when the actor's own label says more, that label under `private`. The game logs everything else
itself, appending with `emit` to the event list its state keeps (`Game.event_log`): deals, cards
turned up, trick winners, reveals, eliminations, and one `"result"` event closing each hand that
holds the hand's outcome whole (it is the seat view's `last_hand`). Under `on_illegal="penalize"` the
environment closes an episode an illegal action ends with a public `"penalty"` event: the offender
(`seat`), the `action` id it tried (None when not an integer), the `illegal_reward` it was paid and the
game's `returns_before` the penalty (a match's standing is in its hands' `"result"` events). Kept in the state, the log
survives `state_to_json`, `clone` and `load_state`; a logged event is never changed.

Records that replay a hand or an episode from its log live above the core, in `cardarena.records`.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import SeatViewError

Event = dict[str, Any]

ACTION = "action"
RESULT = "result"
PENALTY = "penalty"


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
