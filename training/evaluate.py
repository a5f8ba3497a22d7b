"""Evaluation tournaments: agents seated in rotation over duplicate deals, mean reward with 95% CIs."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardarena.agents import Agent
from cardarena.envs import make

Z_95 = 1.959963984540054


@dataclass
class AgentScore:
    """Mean episode reward of one agent over every seat it held, with a 95% confidence interval."""

    name: str
    mean: float
    ci95: float
    deals: int

    @property
    def low(self) -> float:
        return self.mean - self.ci95

    @property
    def high(self) -> float:
        return self.mean + self.ci95


@dataclass
class EvalResult:
    game: str
    config: dict[str, Any]
    episodes: int
    seed: int
    scores: list[AgentScore] = field(default_factory=list)

    def score_of(self, name: str) -> AgentScore:
        return next(score for score in self.scores if score.name == name)


def evaluate(
    game: str,
    agents: Sequence[tuple[str, Agent]],
    episodes: int,
    seed: int = 0,
    config: dict[str, Any] | None = None,
    on_episode: Callable[[int], None] | None = None,
) -> EvalResult:
    """Play `episodes` episodes of `game` with `agents` (one (name, agent) per seat).

    Duplicate deals: each deal is replayed once per cyclic rotation of the agents over the
    seats, so every agent plays every seat of the same cards. An agent named more than once
    (e.g. two "random") is pooled. The confidence interval treats deals as the independent
    samples: each deal contributes the agent's mean reward over its seats and rotations.
    """
    config = dict(config or {})
    env = make(game, **config)
    num_seats = len(env.possible_agents)
    if len(agents) != num_seats:
        raise ValueError(f"{game} is played by {num_seats} seats here, but {len(agents)} agents were given")
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    names = list(dict.fromkeys(name for name, _ in agents))
    per_deal: dict[str, list[float]] = {name: [] for name in names}
    deal_rng = random.Random(seed)
    played = 0
    while played < episodes:
        deal_seed = deal_rng.getrandbits(63)
        totals = {name: [] for name in names}
        for rotation in range(min(num_seats, episodes - played)):
            seating = [agents[(seat - rotation) % num_seats] for seat in range(num_seats)]
            rewards = play_episode(env, [agent for _, agent in seating], deal_seed)
            for (name, _), reward in zip(seating, rewards):
                totals[name].append(reward)
            played += 1
            if on_episode is not None:
                on_episode(played)
        for name in names:
            per_deal[name].append(sum(totals[name]) / len(totals[name]))
    scores = [_score(name, samples) for name, samples in per_deal.items()]
    return EvalResult(game=env.game.env_id, config=config, episodes=played, seed=seed, scores=scores)


def play_episode(env, seated: Sequence[Agent], seed: int) -> list[float]:
    """One episode with `seated[s]` in seat s; returns each seat's total reward."""
    env.reset(seed=seed)
    for agent in seated:
        agent.reset()
    totals = [0.0] * len(seated)
    seat_of = {agent: seat for seat, agent in enumerate(env.possible_agents)}
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        action = None if termination or truncation else seated[seat_of[agent]].act(observation)
        env.step(action)
        for name, reward in env.rewards.items():
            totals[seat_of[name]] += reward
    return totals


def _score(name: str, samples: list[float]) -> AgentScore:
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return AgentScore(name, mean, math.inf, n)
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1)
    return AgentScore(name, mean, Z_95 * math.sqrt(variance / n), n)
