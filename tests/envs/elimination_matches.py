"""Elimination matches for the multi-agent library tests: tables where seats are retired before the end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
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


def check_matches_reach_their_end(env: Any, play: Callable[[Any, int], list[float]], matches: int) -> None:
    """`play(env, seed)` plays each match to its end and reports each seat's rewards adding up to its return;
    some seat is eliminated in some match."""
    retired = 0
    for seed in range(matches):
        paid = play(env, seed)
        assert at_its_end(env), (
            f"seed {seed}: the library ended the match after {env.game.hands_played(env.state)} hands"
        )
        assert paid == pytest.approx(env.game.returns(env.state))
        retired += seats_retired(env)
    assert retired > 0, "no seat was eliminated: the matches test nothing"
