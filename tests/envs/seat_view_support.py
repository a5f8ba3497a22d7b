"""Seat-view round trips, shared by the game test folders."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import numpy as np


def views_of_random_episode(env: Any, seed: int) -> Iterator[tuple[str, dict]]:
    """(agent, JSON view) for every seat still in, at every step of one random episode, the end included."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    while True:
        for agent in env.agents:
            yield agent, json.loads(json.dumps(env.observe_json(agent)))
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            if env.game.is_terminal(env.state) or env.game.is_truncated(env.state):
                return
            env.step(None)
            continue
        env.step(rng.choice([action["id"] for action in env.observe_json(agent)["legal_actions"]]))


def check_round_trips(env: Any, rebuilt: Any, seed: int) -> None:
    """A state rebuilt from each view gives that seat the same observation, turn, legal actions and view."""
    for agent, view in views_of_random_episode(env, seed):
        state = rebuilt.game.state_from_view(view)
        seat = view["seat"]
        assert np.array_equal(rebuilt.encoder.observation(state, seat), env.encoder.observation(env.state, seat))
        assert rebuilt.game.current_player(state) == env.game.current_player(env.state)
        if env.game.current_player(env.state) == seat:
            assert rebuilt.game.legal_actions(state) == env.game.legal_actions(env.state)
        assert rebuilt.load_view(view) == agent
        assert rebuilt.observe_json(agent) == view
