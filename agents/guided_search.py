"""Search guided by a network: PUCT information-set MCTS whose prior is the network's policy and
whose leaves are valued by the network's value head instead of rolled out.

Each iteration samples one world consistent with what the searching seat knows
(`Game.resample_hidden`) and walks down a tree of information sets (keyed, as `ismcts` keys
them, by the acting seat and the searching seat's `Game.information_key`), choosing at each node
the legal action with the best `Q + c * P * sqrt(N) / (1 + n)`: Q the action's mean return for
the acting seat mapped onto [0, 1] by the lowest and highest leaf value seen (0 for an action not
yet tried), P the guide's prior, N the visits of the
node's legal actions, n the action's. The first node an iteration reaches is expanded: the guide
gives its prior (from the acting seat's observation in that world) and every seat's value (each
from its own observation), and each seat's leaf value is its reward so far plus its value. A
world that ends first is valued by its returns. The visit counts of the root's actions,
normalised, are the search's action distribution; the agent plays the action visited most, or,
with a `temperature` above 0, draws one in proportion to visits ** (1 / temperature).

The budget is a fixed number of iterations, so a seed replays a game.
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol, Self

import numpy as np
from cardarena.envs.core.errors import ConfigError

from .search import reseeded, table_only


class Guide(Protocol):
    """What guides the search: a network's policy and value, on batches of observation vectors."""

    def priors(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Action probabilities, one row per observation, zero where its mask is."""
        ...

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The return each observation's seat can expect from here to the end of the episode."""
        ...


class PolicyGuide:
    """The guide protocol over a trained policy (agents/policy.py, numpy): the masked softmax of its
    logits divided by `temperature` (above 1, a flatter prior that leaves the search more to try)
    and its critic."""

    def __init__(self, policy: Any, temperature: float = 1.0):
        if temperature <= 0:
            raise ConfigError(f"a guide's prior temperature must be above 0, got {temperature}")
        self.policy, self.temperature = policy, temperature

    def priors(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = np.where(np.asarray(masks, bool), self.policy.logits(observations) / self.temperature, -np.inf)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True)

    def values(self, observations: np.ndarray) -> np.ndarray:
        return np.asarray(self.policy.value(observations))


class _Node:
    """One information set: the guide's prior, and per action its visits and summed return."""

    __slots__ = ("prior", "visits", "value")

    def __init__(self, prior: np.ndarray):
        self.prior = prior
        self.visits: dict[int, int] = {}
        self.value: dict[int, float] = {}


class GuidedSearchAgent:
    """PUCT ISMCTS guided by `guide` with `iterations` iterations a decision (see the module docstring)."""

    name = "guided-search"

    def __init__(
        self, guide: Guide, iterations: int = 64, c: float = 1.5, temperature: float = 0.0, seed: int | None = None
    ):
        if iterations < 1 or c < 0 or temperature < 0:
            raise ConfigError(
                f"guided search needs iterations >= 1, c >= 0 and temperature >= 0, "
                f"got iterations={iterations}, c={c}, temperature={temperature}"
            )
        self.guide, self.iterations, self.c, self.temperature, self.seed = guide, iterations, c, temperature, seed
        self.rng = random.Random(seed)

    def reset(self) -> None:
        """Start the episode from the seed again: a seeded agent replays the same game."""
        self.rng = random.Random(self.seed)

    def reseeded(self, seed: int) -> Self:
        """A copy of this agent drawing from `seed`, sharing its guide (see `SearchAgent.reseeded`)."""
        return reseeded(self, seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        raise table_only(self.name)

    def act_in(self, env: Any, seat: int) -> int:
        """The move of `seat`, the seat to act at `env`'s table."""
        return self.search(env, seat)[0]

    def search(self, env: Any, seat: int) -> tuple[int, np.ndarray]:
        """The move of `seat` and the search's action distribution (normalised root visits)."""
        game, state = env.game, env.state
        legal = game.legal_actions(state)
        distribution = np.zeros(game.num_actions, np.float32)
        if len(legal) == 1:
            distribution[legal[0]] = 1.0
            return legal[0], distribution
        tree: dict[tuple[int, str], _Node] = {}
        spread = [math.inf, -math.inf]  # the lowest and highest leaf value seen, to scale Q
        seen = len(game.event_log(state))  # every world's history starts with these events
        for _ in range(self.iterations):
            self._iterate(env, game.resample_hidden(state, seat, self.rng), seat, seen, tree, spread)
        root = tree[(seat, game.information_key(state, seat, seen))]
        for action, visits in root.visits.items():
            distribution[action] = visits
        distribution /= distribution.sum()
        return self._choose(legal, distribution), distribution

    def _choose(self, legal: list[int], distribution: np.ndarray) -> int:
        if self.temperature == 0:
            return max(legal, key=lambda action: (distribution[action], -action))
        weights = [float(distribution[action]) ** (1 / self.temperature) for action in legal]
        return self.rng.choices(legal, weights=weights)[0]

    def _iterate(
        self, env: Any, world: Any, seat: int, seen: int, tree: dict[tuple[int, str], _Node], spread: list[float]
    ) -> None:
        """Select down the tree in `world`, expand one node and value it with the guide, back up."""
        game = env.game
        path: list[tuple[_Node, int, int]] = []
        leaf_values = None
        while not (game.is_terminal(world) or game.is_truncated(world)):
            player = game.current_player(world)
            key = (player, game.information_key(world, seat, seen))
            legal = game.legal_actions(world)
            node = tree.get(key)
            if node is None:
                prior, leaf_values = self._evaluate(env, world, player, legal)
                node = tree[key] = _Node(prior)
            action = self._select(node, legal, spread)
            path.append((node, player, action))
            if leaf_values is not None:
                break
            game.play(world, action)  # logged: the next node's key must see the move
        if leaf_values is None:
            leaf_values = game.returns(world)
        spread[0], spread[1] = min(spread[0], *leaf_values), max(spread[1], *leaf_values)
        for node, player, action in path:
            node.visits[action] = node.visits.get(action, 0) + 1
            node.value[action] = node.value.get(action, 0.0) + leaf_values[player]

    def _evaluate(self, env: Any, world: Any, player: int, legal: list[int]) -> tuple[np.ndarray, list[float]]:
        """The guide's prior at `player`'s decision in `world`, and each seat's reward so far plus its value."""
        game = env.game
        seats = len(game.returns(world))
        observations = np.stack([env.encoder.observation(world, other) for other in range(seats)])
        mask = np.zeros((1, game.num_actions), np.int8)
        mask[0, legal] = 1
        prior = np.asarray(self.guide.priors(observations[player : player + 1], mask)[0], np.float64)
        values = np.asarray(self.guide.values(observations), np.float64).reshape(seats)
        return prior, [so_far + value for so_far, value in zip(game.returns(world), values, strict=True)]

    def _select(self, node: _Node, legal: list[int], spread: list[float]) -> int:
        """PUCT over the legal actions, the prior renormalised over them (ties: the lowest action)."""
        prior = node.prior[legal]
        prior = prior / prior.sum() if prior.sum() > 0 else np.full(len(legal), 1 / len(legal))
        total = sum(node.visits.get(action, 0) for action in legal)
        low, scale = spread[0], spread[1] - spread[0] if spread[1] > spread[0] else 1.0
        exploration = self.c * math.sqrt(total + 1)

        def score(index: int) -> tuple[float, int]:
            action = legal[index]
            visits = node.visits.get(action, 0)
            mean = (node.value[action] / visits - low) / scale if visits else 0.0
            return mean + exploration * prior[index] / (1 + visits), -action

        return legal[max(range(len(legal)), key=score)]
