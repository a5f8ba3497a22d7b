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
| `ms` | both | 0 | above 0, a time budget per decision in ms instead: worlds or iterations until spent (one at least) |
| `margin` | pimc | 0 | above 0, keep the rollout agent's move unless another action's mean return beats it by more |

Rollouts: random ones draw no observation. A rollout agent reads an observation at each of its
moves; a trained policy (`act_batch`) is asked once per move round for every unfinished rollout:
PIMC plays its worlds' rollouts in lockstep, up to `LOCKSTEP_WORLDS` at a time (under a time budget
`BATCH_WORLDS`), so one forward pass of the network serves every world of a batch and a huge
`worlds` costs time, not memory. ISMCTS's iterations build on each
other, so its rollouts run one by one.

With a seed and no `ms` budget, the agent's choices are a function of the seed and of what its
seat knows (`resample_hidden` draws the same worlds from any two states the seat cannot tell
apart): a seed replays a game. A time budget makes the number of worlds depend on the
machine's speed, so such a game does not replay.
"""

from __future__ import annotations

import copy
import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Self

import numpy as np
from cardarena.envs.core.errors import ConfigError

PIMC, ISMCTS = "pimc", "ismcts"
BATCH_WORLDS = 8  # worlds searched together under a time budget when the rollout policy answers batches
LOCKSTEP_WORLDS = 64  # the most worlds searched together with a fixed number of worlds
_KINDS = {int: "a whole number", float: "a number", str: "a name"}
# `load(name, game=..., seed=...)` of cardarena.agents, handed in so that search needs no loading module
AgentLoader = Callable[..., Any]
DEFAULTS: dict[str, dict[str, Any]] = {
    PIMC: {"worlds": 16, "rollout": "random", "ms": 0.0, "margin": 0.0},
    ISMCTS: {"iterations": 200, "c": 0.7, "rollout": "random", "ms": 0.0},
}


class SearchAgent(ABC):
    """What both search agents share: the seed, the rollout policy, the budget, the episode's end."""

    name = ""

    def __init__(self, rollout: str, ms: float, seed: int | None, load_agent: AgentLoader | None):
        if ms < 0:
            raise ConfigError(f"{self.name} needs ms >= 0, got ms={ms}")
        self.rollout, self.ms, self.seed = rollout, ms, seed
        self._load_agent = load_agent
        self.rng = random.Random(seed)
        self._agents: dict[str, Any] = {}

    def reset(self) -> None:
        """Start the episode from the seed again: a seeded agent replays the same game."""
        self.rng = random.Random(self.seed)

    def reseeded(self, seed: int) -> Self:
        """A copy of this agent drawing from `seed`, sharing its loaded rollout agent: a decision made
        by a copy seeded for it alone replays wherever it is made (another thread, another process)."""
        return reseeded(self, seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        raise table_only(self.name)

    def act_in(self, env: Any, seat: int) -> int:
        """The move of `seat`, the seat to act at `env`'s table."""
        return self.search_in(env, seat)[0]

    @abstractmethod
    def search_in(self, env: Any, seat: int) -> tuple[int, dict[int, float]]:
        """The move of `seat`, the seat to act at `env`'s table, and the search's mean return for
        that seat of each legal action it tried (one legal action: that action, no values)."""

    def _budget(self, count: int) -> Callable[[int], bool]:
        """Whether to go on after `done` samples: `count` of them, or until the time budget is spent (at least one)."""
        if not self.ms:
            return lambda done: done < count
        deadline = time.perf_counter() + self.ms / 1000
        return lambda done: done == 0 or time.perf_counter() < deadline

    def _finish(self, env: Any, state: Any) -> list[float]:
        """Play `state` to the end of its episode with the rollout policy in every seat; the returns."""
        return self._finish_all(env, [state])[0]

    def _finish_all(self, env: Any, states: list[Any]) -> list[list[float]]:
        """Play every state to its episode's end with the rollout policy; their returns.

        Random rollouts draw no observation. An agent that answers a batch (`act_batch`, a trained
        policy) plays the states in lockstep, asked once a round for every unfinished one."""
        game = env.game
        agent = self._rollout_agent(game.name)
        if agent is None:
            return [self._finish_randomly(game, state) for state in states]
        live = [state for state in states if not _ended(game, state)]
        while live:
            players = [game.current_player(state) for state in live]
            masks = np.zeros((len(live), game.num_actions), np.int8)
            for row, state in enumerate(live):
                masks[row, game.legal_actions(state)] = 1
            observations = np.stack(
                [env.encoder.observation(state, player) for state, player in zip(live, players, strict=True)]
            )
            moves = _moves(agent, observations, masks)
            for state, move in zip(live, moves, strict=True):
                game.apply(state, int(move))
            live = [state for state in live if not _ended(game, state)]
        return [game.returns(state) for state in states]

    def _rollout_move(self, env: Any, seat: int, legal: list[int]) -> int:
        """The move the rollout agent would play for `seat` at the table's state."""
        mask = np.zeros((1, env.game.num_actions), np.int8)
        mask[0, legal] = 1
        return _moves(self._rollout_agent(env.game.name), env.encoder.observation(env.state, seat)[None], mask)[0]

    def _finish_randomly(self, game: Any, state: Any) -> list[float]:
        while not _ended(game, state):
            legal = game.legal_actions(state)
            game.apply(state, legal[self.rng.randrange(len(legal))])
        return game.returns(state)

    def _batches(self, env: Any) -> bool:
        """Whether the rollout policy answers many states at once (then worlds are searched together)."""
        return hasattr(self._rollout_agent(env.game.name), "act_batch")

    def load_rollout(self, game_name: str) -> None:
        """Load the rollout agent for the game now, so that a bad `rollout` name fails here (UnknownAgentError)."""
        self._rollout_agent(game_name)

    def _rollout_agent(self, game_name: str) -> Any:
        """The rollout agent for the game, loaded once; None for random rollouts."""
        if self.rollout == "random":
            return None
        agent = self._agents.get(game_name)
        if agent is None:
            if self._load_agent is None:
                raise ConfigError(f"{self.name}: the rollout agent {self.rollout!r} needs an agent loader (load_agent)")
            agent = self._agents[game_name] = self._load_agent(self.rollout, game=game_name, seed=self.seed)
        return agent


def _moves(agent: Any, observations: np.ndarray, masks: np.ndarray) -> list[int]:
    """The agent's moves for rows of observation vectors and action masks: one batch where it answers them."""
    if hasattr(agent, "act_batch"):
        return [int(move) for move in agent.act_batch(observations, masks)]
    return [
        agent.act({"observation": vector, "action_mask": mask})
        for vector, mask in zip(observations, masks, strict=True)
    ]


def reseeded(agent: Any, seed: int) -> Any:
    """A shallow copy of a search agent (it shares what the agent loaded), its seed and RNG set to `seed`."""
    twin = copy.copy(agent)
    twin.seed = seed
    twin.reset()
    return twin


def table_only(name: str) -> TypeError:
    """The error for asking an agent that searches the table for a move from an observation alone."""
    return TypeError(
        f"{name} searches the table it sits at: "
        "drive it through a Table or cardarena.envs.core.table.decide, not act(observation)"
    )


def _ended(game: Any, state: Any) -> bool:
    return game.is_terminal(state) or game.is_truncated(state)


class PIMCAgent(SearchAgent):
    """Perfect Information Monte Carlo: the best mean return over sampled worlds and rollouts. With a
    `margin`, the search overrules the rollout agent's own move only when another action's mean
    return beats that move's by more than the margin: few worlds estimate close actions noisily,
    and a strong rollout policy is then the better judge."""

    name = PIMC

    def __init__(
        self,
        worlds: int = 16,
        rollout: str = "random",
        ms: float = 0,
        seed: int | None = None,
        load_agent: AgentLoader | None = None,
        margin: float = 0.0,
    ):
        if worlds < 1 or margin < 0:
            raise ConfigError(f"pimc needs worlds >= 1 and margin >= 0, got worlds={worlds}, margin={margin}")
        if margin and rollout == "random":
            raise ConfigError(
                f"pimc: margin={margin} keeps the rollout agent's move, so it needs one, not random rollouts"
            )
        super().__init__(rollout, ms, seed, load_agent)
        self.worlds, self.margin = worlds, margin

    def search_in(self, env: Any, seat: int) -> tuple[int, dict[int, float]]:
        """The legal action with the best mean return over the sampled worlds (or, with a margin, the
        rollout agent's move unless it is beaten by more), and every action's mean."""
        game, state = env.game, env.state
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0], {}
        totals = [0.0] * len(legal)
        more, sampled = self._budget(self.worlds), 0
        batched = self._batches(env)
        while more(sampled):
            count = self._next_batch(sampled) if batched else 1
            worlds = [game.resample_hidden(state, seat, self.rng) for _ in range(count)]
            trials = []
            for world in worlds:
                for action in legal:
                    trial = game.clone(world)
                    game.apply(trial, action)
                    trials.append(trial)
            for index, returns in enumerate(self._finish_all(env, trials)):
                totals[index % len(legal)] += returns[seat]
            sampled += count
        best = legal[max(range(len(legal)), key=totals.__getitem__)]
        if self.margin:
            own = self._rollout_move(env, seat, legal)
            if totals[legal.index(best)] - totals[legal.index(own)] <= self.margin * sampled:
                best = own
        return best, {action: total / sampled for action, total in zip(legal, totals, strict=True)}

    def _next_batch(self, sampled: int) -> int:
        """How many worlds to search together next with a batched rollout policy, `sampled` done."""
        return BATCH_WORLDS if self.ms else min(self.worlds - sampled, LOCKSTEP_WORLDS)


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

    def __init__(
        self,
        iterations: int = 200,
        c: float = 0.7,
        rollout: str = "random",
        ms: float = 0,
        seed: int | None = None,
        load_agent: AgentLoader | None = None,
    ):
        if iterations < 1 or c < 0:
            raise ConfigError(f"ismcts needs iterations >= 1 and c >= 0, got iterations={iterations}, c={c}")
        super().__init__(rollout, ms, seed, load_agent)
        self.iterations, self.c = iterations, c

    def search_in(self, env: Any, seat: int) -> tuple[int, dict[int, float]]:
        """The root action visited most, and the mean return of each root action visited."""
        game, state = env.game, env.state
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0], {}
        tree: dict[tuple[int, str], _Node] = {}
        spread = [math.inf, -math.inf]  # the lowest and highest return seen, to scale exploration
        seen = len(game.event_log(state))  # every world's history starts with these events, as the seat saw them
        more, done = self._budget(self.iterations), 0
        while more(done):
            self._iterate(env, game.resample_hidden(state, seat, self.rng), seat, seen, tree, spread)
            done += 1
        root = tree[(seat, game.information_key(state, seat, seen))]
        best = max(legal, key=lambda action: (root.visits.get(action, 0), -action))
        return best, {action: root.value[action] / visits for action, visits in root.visits.items()}

    def _iterate(
        self, env: Any, world: Any, seat: int, seen: int, tree: dict[tuple[int, str], _Node], spread: list[float]
    ) -> None:
        """One iteration: select and expand down the tree in `world`, roll out, back up. Nodes are
        keyed by what the seat saw after the history's first `seen` events, which every world shares."""
        game = env.game
        path: list[tuple[_Node, int, int]] = []
        while not (game.is_terminal(world) or game.is_truncated(world)):
            player = game.current_player(world)
            key = (player, game.information_key(world, seat, seen))
            node = tree.get(key)
            expanding = node is None
            if node is None:
                node = tree[key] = _Node()
            action = self._select(node, game.legal_actions(world), spread)
            path.append((node, player, action))
            game.play(world, action)  # logged: the next node's key must see the move
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


def search_agent(name: str, seed: int | None, load_agent: AgentLoader | None = None) -> SearchAgent | None:
    """The search agent `name` names, or None when it names none; `load_agent` loads its rollout agent."""
    parsed = parse_search_name(name)
    if parsed is None:
        return None
    kind, params = parsed
    return (PIMCAgent if kind == PIMC else ISMCTSAgent)(seed=seed, load_agent=load_agent, **params)
