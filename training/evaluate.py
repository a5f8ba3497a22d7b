"""Evaluation tournaments: agents seated in rotation over duplicate deals, mean reward with 95% CIs,
per-seat means and OpenSkill ratings."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from cardarena.agents import Agent
from cardarena.envs import lookup, make
from cardarena.envs.core.errors import ConfigError
from cardarena.envs.core.table import Table

Z_95 = 1.959963984540054
RATING_MODEL = "openskill.PlackettLuce"
MU = 25.0  # PlackettLuce's defaults: a new player is rated 25 +- 25/3
SIGMA = MU / 3


@dataclass
class AgentScore:
    """One agent's results over every seat it held: mean episode reward with a 95% confidence
    interval, its mean reward in each seat, and its OpenSkill rating at the end of the tournament."""

    name: str
    mean: float
    ci95: float
    deals: int
    mu: float = MU
    sigma: float = SIGMA
    seat_means: list[float | None] = field(default_factory=list)  # None: never sat there
    seat_episodes: list[int] = field(default_factory=list)
    win_rate: float = 0.0  # share of its seats that finished above the table's mean reward

    @property
    def low(self) -> float:
        return self.mean - self.ci95

    @property
    def high(self) -> float:
        return self.mean + self.ci95

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma: what leaderboards sort by."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view; an infinite interval (a single deal) is written as null."""
        return {
            "name": self.name,
            "mean": self.mean,
            "ci95": _finite(self.ci95),
            "low": _finite(self.low),
            "high": _finite(self.high),
            "deals": self.deals,
            "win_rate": self.win_rate,
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
            "seats": [
                {"seat": seat, "mean": mean, "episodes": count}
                for seat, (mean, count) in enumerate(zip(self.seat_means, self.seat_episodes))
            ],
        }


@dataclass
class EvalResult:
    """One tournament at one table size. `game` is the game's name, `env_id` its versioned id."""

    game: str
    config: dict[str, Any]
    episodes: int
    seed: int
    scores: list[AgentScore] = field(default_factory=list)
    env_id: str = ""
    num_players: int = 0
    seating: list[str] = field(default_factory=list)  # the agent in each seat before rotation
    rating_model: str = RATING_MODEL

    def score_of(self, name: str) -> AgentScore:
        return next(score for score in self.scores if score.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "env_id": self.env_id,
            "config": self.config,
            "num_players": self.num_players,
            "episodes": self.episodes,
            "seed": self.seed,
            "seating": self.seating,
            "rating_model": self.rating_model,
            "scores": [score.to_dict() for score in self.scores],
        }


def seat_names(game: str, names: Sequence[str], table_size: int) -> list[str]:
    """The agent for each seat of a `table_size` table of `game`: seat i gets names[i % len(names)].

    Raises ConfigError when the game is not played at that size.
    """
    entry = lookup(game)
    counts = entry.player_counts
    if table_size not in counts:
        allowed = str(counts.start) if len(counts) == 1 else f"{counts.start} to {counts.stop - 1}"
        raise ConfigError(f"table size {table_size} is not playable in {entry.env_id}: it seats {allowed} players")
    if not names:
        raise ValueError("at least one agent is needed to fill a table")
    return [names[seat % len(names)] for seat in range(table_size)]


def evaluate(
    game: str,
    agents: Sequence[tuple[str, Agent]],
    episodes: int,
    seed: int = 0,
    config: dict[str, Any] | None = None,
    on_episode: Callable[[int], None] | None = None,
) -> EvalResult:
    """Play `episodes` episodes of `game` with `agents` (one (name, agent) per seat; the table
    size is `config["num_players"]` or the game's default).

    Duplicate deals: each deal is replayed once per distinct cyclic rotation of the agents over
    the seats, so every agent plays every seat of the same cards (rotations that only swap two
    agents of the same name are skipped: they would replay an identical table). An agent named
    more than once (e.g. two "random") is pooled as one player. The confidence interval treats
    deals as the independent samples: each deal contributes the agent's mean reward over its
    seats and rotations.

    Ratings: after every episode the names at the table are rated with OpenSkill's Plackett-Luce
    model, ranked by episode reward (equal rewards share a rank). A name in several seats is one
    player whose score is its mean reward over those seats. Ratings depend only on the episodes,
    so a fixed seed and deterministic agents give fixed ratings.
    """
    config = dict(config or {})
    env = make(game, **config)
    num_seats = len(env.possible_agents)
    if len(agents) != num_seats:
        raise ValueError(f"{game} is played by {num_seats} seats here, but {len(agents)} agents were given")
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    seating = [name for name, _ in agents]
    tally = _Tally(list(dict.fromkeys(seating)), num_seats)
    rotations = distinct_rotations(seating)
    deal_rng = random.Random(seed)
    played = 0
    while played < episodes:
        deal_seed = deal_rng.getrandbits(63)
        for rotation in rotations[: episodes - played]:
            seated = [agents[(seat - rotation) % num_seats] for seat in range(num_seats)]
            rewards = play_episode(env, [agent for _, agent in seated], deal_seed)
            tally.add_episode([name for name, _ in seated], rewards)
            played += 1
            if on_episode is not None:
                on_episode(played)
        tally.end_deal()
    return EvalResult(
        game=env.game.name,
        config=config,
        episodes=played,
        seed=seed,
        scores=tally.scores(),
        env_id=env.game.env_id,
        num_players=num_seats,
        seating=seating,
    )


def distinct_rotations(seating: Sequence[str]) -> list[int]:
    """The cyclic shifts of `seating` that give distinct tables (by name), smallest shift first."""
    seen: set[tuple[str, ...]] = set()
    shifts = []
    for shift in range(len(seating)):
        table = tuple(seating[(seat - shift) % len(seating)] for seat in range(len(seating)))
        if table not in seen:
            seen.add(table)
            shifts.append(shift)
    return shifts


def play_episode(env, seated: Sequence[Agent], seed: int) -> list[float]:
    """One episode with `seated[s]` in seat s; returns each seat's total reward."""
    table = Table(env)
    table.reset(seed=seed)
    for agent in seated:
        agent.reset()
    table.advance(dict(enumerate(seated)))
    return table.totals


class _Tally:
    """Running sums of a tournament: per-deal means, per-seat sums and ratings, keyed by agent name."""

    def __init__(self, names: list[str], num_seats: int):
        self.names = names
        self.per_deal: dict[str, list[float]] = {name: [] for name in names}
        self.deal: dict[str, list[float]] = {name: [] for name in names}
        self.seat_sums = {name: [0.0] * num_seats for name in names}
        self.seat_counts = {name: [0] * num_seats for name in names}
        self.wins = {name: 0 for name in names}
        self.model = PlackettLuce(mu=MU, sigma=SIGMA)
        self.ratings = {name: self.model.rating(name=name) for name in names}

    def add_episode(self, seated: list[str], rewards: list[float]) -> None:
        episode: dict[str, list[float]] = {}
        table_mean = sum(rewards) / len(rewards)
        for seat, (name, reward) in enumerate(zip(seated, rewards)):
            self.deal[name].append(reward)
            self.seat_sums[name][seat] += reward
            self.seat_counts[name][seat] += 1
            episode.setdefault(name, []).append(reward)
            self.wins[name] += reward > table_mean + 1e-9
        self._rate({name: sum(rewards) / len(rewards) for name, rewards in episode.items()})

    def end_deal(self) -> None:
        for name in self.names:
            self.per_deal[name].append(sum(self.deal[name]) / len(self.deal[name]))
            self.deal[name] = []

    def _rate(self, score: dict[str, float]) -> None:
        if len(score) < 2:
            return
        players = list(score)
        rated = self.model.rate([[self.ratings[name]] for name in players], scores=[score[name] for name in players])
        for name, (rating,) in zip(players, rated):
            self.ratings[name] = rating

    def scores(self) -> list[AgentScore]:
        scores = []
        for name in self.names:
            score = _score(name, self.per_deal[name])
            score.mu, score.sigma = self.ratings[name].mu, self.ratings[name].sigma
            counts = self.seat_counts[name]
            score.seat_episodes = list(counts)
            score.seat_means = [total / n if n else None for total, n in zip(self.seat_sums[name], counts)]
            score.win_rate = self.wins[name] / sum(counts)
            scores.append(score)
        return scores


def _score(name: str, samples: list[float]) -> AgentScore:
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return AgentScore(name, mean, math.inf, n)
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1)
    return AgentScore(name, mean, Z_95 * math.sqrt(variance / n), n)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
