"""What a spectator sees of a table: built from the hand history as no seat knows it, never from a
seat's view, so it holds no seat's private cards or labels.

`public_view(table)` is the table now: who is to act, whether it is over, the last finished hand's
result and the events of the hand in progress. `whole_table=True` keeps every private field, for
whoever may see the whole table (e.g. the creator of a table where no client holds a seat).
"""

from __future__ import annotations

import copy
from typing import Any

from . import history
from .table import Table
from .views import table_settings


def public_view(table: Table, whole_table: bool = False) -> dict[str, Any]:
    """The table as a spectator sees it: its game and settings, the seat to act, whether it is
    finished and each seat's total reward once it is, the last finished hand's `"result"` event,
    and the events since that result (the hand in progress), in card codes."""
    env = table.env
    log = env.game.event_log(env.state)
    events = log if whole_table else history.seen_by(log, None)
    results = [number for number, event in enumerate(events) if event["kind"] == history.RESULT]
    since = results[-1] + 1 if results else 0
    return {
        "game": env.game.env_id,
        "settings": table_settings(env.config),
        "to_act": table.to_act,
        "finished": table.finished,
        "rewards": list(table.totals) if table.finished else None,
        "last_hand": copy.deepcopy(events[results[-1]]) if results else None,
        "events": copy.deepcopy(events[since:]),
    }
