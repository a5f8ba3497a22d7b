"""Search agents on the core game contract alone: Perfect Information Monte Carlo (`pimc`).

A search agent chooses from the table it sits at, not from an observation vector: at each
decision it samples worlds consistent with what its seat knows (`Game.resample_hidden`: every
card the seat cannot see dealt again), plays each legal action in each world, finishes the
episode with a rollout policy, and takes the action with the best mean return for its seat.
It reads nothing of the true state but through `resample_hidden`, and uses only `clone`,
`legal_actions`, `current_player`, `apply`, `returns`, `is_terminal` and `is_truncated`, so it
plays every registered game with no game-specific code.

Named by `pimc` with parameters after colons, e.g. `pimc:worlds=32:rollout=heuristic` (no commas, so
the name fits in a comma-separated list of agents):

| parameter | default | meaning |
|---|---|---|
| `worlds` | 16 | worlds sampled per decision (each legal action is tried in every world) |
| `rollout` | `random` | who plays every seat after the tried action: `random`, or an agent of the game (e.g. `heuristic`) |
| `ms` | 0 | when above 0, a time budget per decision in milliseconds: worlds are sampled until it is spent (at least one) |

With a seed and no `ms` budget, the agent's choices are a function of the seed and of what its
seat knows (`resample_hidden` draws the same worlds from any two states the seat cannot tell
apart): a seed replays a game. A time budget makes the number of worlds depend on the
machine's speed, so such a game does not replay.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.envs.core.errors import ConfigError

PIMC = "pimc"
DEFAULTS = {"worlds": 16, "rollout": "random", "ms": 0}


class PIMCAgent:
    """Perfect Information Monte Carlo: the best mean return over sampled worlds and rollouts."""

    name = PIMC

    def __init__(self, worlds: int = 16, rollout: str = "random", ms: float = 0, seed: int | None = None):
        if worlds < 1 or ms < 0:
            raise ConfigError(f"pimc needs worlds >= 1 and ms >= 0, got worlds={worlds}, ms={ms}")
        self.worlds, self.rollout, self.ms, self.seed = worlds, rollout, ms, seed
        self.rng = random.Random(seed)
        self._policies: dict[str, Callable[[Any, Any, Any, int], int]] = {}

    def reset(self) -> None:
        """Start the episode from the seed again: a seeded agent replays the same game."""
        self.rng = random.Random(self.seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        raise TypeError("pimc searches the table it sits at: drive it through a Table or cardarena.envs.core.table.decide, not act(observation)")

    def act_in(self, env: Any, seat: int) -> int:
        """The move of `seat`, the seat to act at `env`'s table."""
        game, state = env.game, env.state
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        rollout = self._policy(env)
        totals = [0.0] * len(legal)
        deadline = time.perf_counter() + self.ms / 1000 if self.ms else None
        sampled = 0
        while sampled < self.worlds if deadline is None else (sampled == 0 or time.perf_counter() < deadline):
            world = game.resample_hidden(state, seat, self.rng)
            for index, action in enumerate(legal):
                trial = game.clone(world)
                game.apply(trial, action)
                totals[index] += self._finish(env, trial, rollout)[seat]
            sampled += 1
        return legal[max(range(len(legal)), key=totals.__getitem__)]

    def _finish(self, env: Any, state: Any, rollout: Callable[[Any, Any, Any, int], int]) -> list[float]:
        """Play `state` to the end of its episode with the rollout policy in every seat; the returns."""
        game = env.game
        while not (game.is_terminal(state) or game.is_truncated(state)):
            player = game.current_player(state)
            game.apply(state, rollout(env, state, game.legal_actions(state), player))
        return game.returns(state)

    def _policy(self, env: Any) -> Callable[[Any, Any, Any, int], int]:
        """The rollout policy for `env`'s game: random picks need no observation, an agent reads one."""
        game_name = env.game.name
        policy = self._policies.get(game_name)
        if policy is None:
            policy = self._policies[game_name] = self._build_policy(game_name)
        return policy

    def _build_policy(self, game_name: str) -> Callable[[Any, Any, Any, int], int]:
        if self.rollout == "random":
            return lambda env, state, legal, player: legal[self.rng.randrange(len(legal))]
        from .loading import load

        agent = load(self.rollout, game=game_name, seed=self.seed)

        def agent_move(env: Any, state: Any, legal: list[int], player: int) -> int:
            mask = np.zeros(env.game.num_actions, np.int8)
            mask[legal] = 1
            return int(agent.act({"observation": env.encoder.observation(state, player), "action_mask": mask}))

        return agent_move


def parse_search_name(name: str) -> dict[str, Any] | None:
    """The parameters of a search agent's name (`pimc` or `pimc:key=value:...`), None if it names none.

    ConfigError for an unknown parameter or a value of the wrong type, naming it.
    """
    kind, *parts = name.split(":")
    if kind != PIMC:
        return None
    params: dict[str, Any] = dict(DEFAULTS)
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in DEFAULTS:
            raise ConfigError(f"{name!r}: pimc takes {', '.join(f'{k}=...' for k in DEFAULTS)}, not {part!r}")
        try:
            params[key] = type(DEFAULTS[key])(value) if key != "ms" else float(value)
        except ValueError:
            raise ConfigError(f"{name!r}: {key} must be a {type(DEFAULTS[key]).__name__}, got {value!r}") from None
    return params


def search_agent(name: str, seed: int | None) -> PIMCAgent | None:
    """The search agent `name` names, or None when it names none."""
    params = parse_search_name(name)
    return None if params is None else PIMCAgent(seed=seed, **params)
