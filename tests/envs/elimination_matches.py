"""Elimination matches for the multi-agent library tests: tables where seats are retired before the end."""

from __future__ import annotations

from typing import Any

from cardarena.envs import make

ELIMINATION_MATCHES = {
    "piktas-gambling": ("piktas_v1", {"num_players": 4, "mode": "gambling", "num_hands": 8}),
    "dividha-match": ("dividha_v1", {"num_players": 4, "match": True}),
}


def elimination_match(name: str, retired_seats: str) -> Any:
    env_id, settings = ELIMINATION_MATCHES[name]
    return make(env_id, retired_seats=retired_seats, **settings)


def at_its_end(env: Any) -> bool:
    """The game's own end: its rules ended it (one seat left) or its cap did (`max_hands`)."""
    return env.game.is_terminal(env.state) or env.game.is_truncated(env.state)


def seats_retired(env: Any) -> int:
    return sum(env.game.seat_done(env.state, seat) for seat in range(env.game.num_players))
