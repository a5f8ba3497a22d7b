"""States as a client sends them, shared by the games' state-check tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def played_state(env: Any, moves: int, choose: Callable[[list[int]], int] = lambda legal: legal[0]) -> dict:
    """The state's JSON, through a JSON text as a client sends it, after `env.reset(seed=3)` and
    `moves` moves, each `choose(legal actions)`."""
    env.reset(seed=3)
    for _ in range(moves):
        env.step(choose(env.game.legal_actions(env.state)))
    return json.loads(json.dumps(env.game.state_to_json(env.state)))
