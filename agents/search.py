"""Search agents on the core game contract alone: Perfect Information Monte Carlo (`pimc`) and
information-set Monte Carlo tree search (`ismcts`).

A search agent chooses from the table it sits at, not from an observation vector: at each
decision it samples worlds consistent with what its seat knows (`Game.resample_hidden`: every
card the seat cannot see dealt again), plays each legal action in each world, finishes the
episode with a rollout policy, and takes the action with the best mean return for its seat.
It reads nothing of the true state but through `resample_hidden`, and uses only `clone`,
`legal_actions`, `current_player`, `apply`, `returns`, `is_terminal` and `is_truncated`, so it
plays every registered game with no game-specific code.

`ismcts` (single-observer ISMCTS) grows one tree per decision over information sets: each
iteration samples one world, walks down the tree by UCT over the actions legal in that world
(counting each action's availability), keyed at every node by the acting seat and the searching
seat's `Game.information_key` (what it has seen), adds one node, finishes the episode with the
rollout policy and backs up each acting seat's return. The root action visited most is played.

Parameters follow the name, each after a colon (no commas, so the name fits in a comma-separated
list of agents), e.g. `pimc:worlds=32:rollout=heuristic` or `ismcts:iterations=400`:

| parameter | agent | default | meaning |
|---|---|---|---|
| `worlds` | pimc | 16 | worlds sampled per decision (each legal action is tried in every world) |
| `iterations` | ismcts | 200 | iterations per decision (one sampled world each) |
| `c` | ismcts | 0.7 | UCT exploration constant, on returns scaled to the spread seen so far |
| `rollout` | both | `random` | who plays every seat to the end: `random`, or an agent of the game (e.g. `heuristic`) |
| `ms` | both | 0 | when above 0, a time budget per decision in milliseconds instead: worlds or iterations until it is spent (at least one) |

With a seed and no `ms` budget, the agent's choices are a function of the seed and of what its
seat knows (`resample_hidden` draws the same worlds from any two states the seat cannot tell
apart): a seed replays a game. A time budget makes the number of worlds depend on the
machine's speed, so such a game does not replay.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.envs.core import history
from cardarena.envs.core.errors import ConfigError

PIMC, ISMCTS = "pimc", "ismcts"
_KINDS = {int: "a whole number", float: "a number", str: "a name"}
DEFAULTS: dict[str, dict[str, Any]] = {
    PIMC: {"worlds": 16, "rollout": "random", "ms": 0.0},
    ISMCTS: {"iterations": 200, "c": 0.7, "rollout": "random", "ms": 0.0},
}


class SearchAgent:
    """What both search agents share: the seed, the rollout policy, the budget, the episode's end."""

    name = ""

    def __init__(self, rollout: str, ms: float, seed: int | None):
        if ms < 0:
            raise ConfigError(f"{self.name} needs ms >= 0, got ms={ms}")
        self.rollout, self.ms, self.seed = rollout, ms, seed
        self.rng = random.Random(seed)
        self._policies: dict[str, Callable[[Any, Any, list[int], int], int]] = {}

    def reset(self) -> None:
        """Start the episode from the seed again: a seeded agent replays the same game."""
        self.rng = random.Random(self.seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        raise TypeError(f"{self.name} searches the table it sits at: drive it through a Table or cardarena.envs.core.table.decide, not act(observation)")

    def _budget(self, count: int) -> Callable[[int], bool]:
        """Whether to go on after `done` samples: `count` of them, or until the time budget is spent (at least one)."""
        if not self.ms:
            return lambda done: done < count
        deadline = time.perf_counter() + self.ms / 1000
        return lambda done: done == 0 or time.perf_counter() < deadline

    def _finish(self, env: Any, state: Any) -> list[float]:
        """Play `state` to the end of its episode with the rollout policy in every seat; the returns."""
        game, rollout = env.game, self._policy(env)
        while not (game.is_terminal(state) or game.is_truncated(state)):
            game.apply(state, rollout(env, state, game.legal_actions(state), game.current_player(state)))
        return game.returns(state)

    def _policy(self, env: Any) -> Callable[[Any, Any, list[int], int], int]:
        """The rollout policy for `env`'s game: random picks need no observation, an agent reads one."""
        game_name = env.game.name
        policy = self._policies.get(game_name)
        if policy is None:
            policy = self._policies[game_name] = self._build_policy(game_name)
        return policy

    def _build_policy(self, game_name: str) -> Callable[[Any, Any, list[int], int], int]:
        if self.rollout == "random":
            return lambda env, state, legal, player: legal[self.rng.randrange(len(legal))]
        from .loading import load

        agent = load(self.rollout, game=game_name, seed=self.seed)

        def agent_move(env: Any, state: Any, legal: list[int], player: int) -> int:
            mask = np.zeros(env.game.num_actions, np.int8)
            mask[legal] = 1
            return int(agent.act({"observation": env.encoder.observation(state, player), "action_mask": mask}))

        return agent_move


class PIMCAgent(SearchAgent):
    """Perfect Information Monte Carlo: the best mean return over sampled worlds and rollouts."""

    name = PIMC

    def __init__(self, worlds: int = 16, rollout: str = "random", ms: float = 0, seed: int | None = None):
        if worlds < 1:
            raise ConfigError(f"pimc needs worlds >= 1, got worlds={worlds}")
        super().__init__(rollout, ms, seed)
        self.worlds = worlds

    def act_in(self, env: Any, seat: int) -> int:
        """The move of `seat`, the seat to act at `env`'s table."""
        game, state = env.game, env.state
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        totals = [0.0] * len(legal)
        more, sampled = self._budget(self.worlds), 0
        while more(sampled):
            world = game.resample_hidden(state, seat, self.rng)
            for index, action in enumerate(legal):
                trial = game.clone(world)
                game.apply(trial, action)
                totals[index] += self._finish(env, trial)[seat]
            sampled += 1
        return legal[max(range(len(legal)), key=totals.__getitem__)]


class _Node:
    """One information set of the tree: per action its visits, summed return and availability."""

    __slots__ = ("visits", "value", "available")

    def __init__(self) -> None:
        self.visits: dict[int, int] = {}
        self.value: dict[int, float] = {}
        self.available: dict[int, int] = {}


class ISMCTSAgent(SearchAgent):
    """Single-observer information-set MCTS: UCT over information sets, one sampled world per iteration."""

    name = ISMCTS

    def __init__(self, iterations: int = 200, c: float = 0.7, rollout: str = "random", ms: float = 0, seed: int | None = None):
        if iterations < 1 or c < 0:
            raise ConfigError(f"ismcts needs iterations >= 1 and c >= 0, got iterations={iterations}, c={c}")
        super().__init__(rollout, ms, seed)
        self.iterations, self.c = iterations, c

    def act_in(self, env: Any, seat: int) -> int:
        """The move of `seat`, the seat to act at `env`'s table."""
        game, state = env.game, env.state
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        tree: dict[tuple[int, str], _Node] = {}
        spread = [math.inf, -math.inf]  # the lowest and highest return seen, to scale exploration
        more, done = self._budget(self.iterations), 0
        while more(done):
            self._iterate(env, game.resample_hidden(state, seat, self.rng), seat, tree, spread)
            done += 1
        root = tree[(seat, game.information_key(state, seat))]
        return max(legal, key=lambda action: (root.visits.get(action, 0), -action))

    def _iterate(self, env: Any, world: Any, seat: int, tree: dict[tuple[int, str], _Node], spread: list[float]) -> None:
        """One iteration: select and expand down the tree in `world`, roll out, back up."""
        game = env.game
        path: list[tuple[_Node, int, int]] = []
        while not (game.is_terminal(world) or game.is_truncated(world)):
            player = game.current_player(world)
            key = (player, game.information_key(world, seat))
            node = tree.get(key)
            expanding = node is None
            if expanding:
                node = tree[key] = _Node()
            action = self._select(node, game.legal_actions(world), spread)
            path.append((node, player, action))
            history.play(game, world, action)  # logged: the next node's key must see the move
            if expanding:
                break
        returns = self._finish(env, world)
        spread[0], spread[1] = min(spread[0], *returns), max(spread[1], *returns)
        for node, player, action in path:
            node.visits[action] = node.visits.get(action, 0) + 1
            node.value[action] = node.value.get(action, 0.0) + returns[player]

    def _select(self, node: _Node, legal: list[int], spread: list[float]) -> int:
        """An untried legal action at random, else UCT over the legal ones (with their availability)."""
        for action in legal:
            node.available[action] = node.available.get(action, 0) + 1
        untried = [action for action in legal if action not in node.visits]
        if untried:
            return untried[self.rng.randrange(len(untried))]
        scale = spread[1] - spread[0] if spread[1] > spread[0] else 1.0

        def score(action: int) -> float:
            visits = node.visits[action]
            mean = node.value[action] / visits / scale
            return mean + self.c * math.sqrt(math.log(node.available[action]) / visits)

        return max(legal, key=score)


def parse_search_name(name: str) -> tuple[str, dict[str, Any]] | None:
    """The kind and parameters of a search agent's name (`pimc`, `ismcts:key=value:...`), None if it names none.

    ConfigError for an unknown parameter or a value of the wrong type, naming it.
    """
    kind, *parts = name.split(":")
    defaults = DEFAULTS.get(kind)
    if defaults is None:
        return None
    params = dict(defaults)
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in defaults:
            raise ConfigError(f"{name!r}: {kind} takes {', '.join(f'{k}=...' for k in defaults)}, not {part!r}")
        try:
            params[key] = type(defaults[key])(value)
        except ValueError:
            raise ConfigError(f"{name!r}: {key} must be {_KINDS[type(defaults[key])]}, got {value!r}") from None
    return kind, params


def search_agent(name: str, seed: int | None) -> SearchAgent | None:
    """The search agent `name` names, or None when it names none."""
    parsed = parse_search_name(name)
    if parsed is None:
        return None
    kind, params = parsed
    return (PIMCAgent if kind == PIMC else ISMCTSAgent)(seed=seed, **params)
