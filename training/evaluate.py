"""Evaluation tournaments: agents seated in rotation over duplicate deals, mean reward with 95% CIs,
win rates, per-seat means and a Bradley-Terry rating fitted on duplicate reward margins."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from cardarena.agents import Agent
from cardarena.envs import lookup, make
from cardarena.envs.core.env import CardGameEnv
from cardarena.envs.core.errors import ConfigError
from cardarena.envs.core.table import Table

Z_95 = 1.959963984540054
SERIES_DF = 100  # t_quantile_95: the exact series up to these degrees of freedom, the expansion above
RATING_MODEL = "bradley-terry on duplicate margins"
RATING_CENTER = 1500.0
ELO_PER_LOGIT = 400 / math.log(10)  # the Elo scale: 400 points are odds of 10 to 1
ROUNDING = 1e-12  # relative size of a deal margin that is float rounding, not play
WIN_MARGIN = 1e-9  # float noise: a reward must beat the table's mean by more than this to be a win

LEGEND = {
    "mean": "mean reward per episode over the agent's seats; ci95 is the half-width of its 95% confidence "
    "interval (low, high its ends), the deals being the samples",
    "win_rate": "share of the agent's seats, each seat in each episode, whose reward beat the table's mean reward",
    "rating": "Bradley-Terry strength on the Elo scale (mean 1500), fitted on how much each "
    "agent out-scored each other one on the same deals, not on finishing order; a gap of 191 points is a 75% "
    "score, where a pair scores 1/2 + (mean reward difference) / (2 margin_scale); sigma is its standard error, "
    "ordinal mu - 3 sigma",
}


class Rated:
    """An agent's rating on the Elo scale: mu with its standard error sigma (see `duplicate_ratings`)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def rating(self) -> dict[str, float | None]:
        """mu, sigma and ordinal, JSON-ready (an infinite sigma is written as null)."""
        return {"mu": self.mu, "sigma": finite_or_none(self.sigma), "ordinal": finite_or_none(self.ordinal)}


@dataclass
class AgentScore(Rated):
    """One agent's results over every seat it held: mean episode reward with a 95% confidence
    interval, its win rate, its mean reward in each seat, and its rating (mu, on the Elo scale, with
    its standard error sigma; see `duplicate_ratings`). `LEGEND` defines each figure."""

    name: str
    mean: float
    ci95: float
    deals: int
    mu: float = RATING_CENTER
    sigma: float = 0.0
    seat_means: list[float | None] = field(default_factory=list)  # None: never sat there
    seat_episodes: list[int] = field(default_factory=list)
    win_rate: float = 0.0

    @property
    def low(self) -> float:
        return self.mean - self.ci95

    @property
    def high(self) -> float:
        return self.mean + self.ci95

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view; an infinite interval (a single deal) is written as null."""
        return {
            "name": self.name,
            "mean": self.mean,
            "ci95": finite_or_none(self.ci95),
            "low": finite_or_none(self.low),
            "high": finite_or_none(self.high),
            "deals": self.deals,
            "win_rate": self.win_rate,
            "rating": self.rating(),
            "seats": [
                {"seat": seat, "mean": mean, "episodes": count}
                for seat, (mean, count) in enumerate(zip(self.seat_means, self.seat_episodes, strict=True))
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
    margin_scale: float = 0.0  # the rating's D: see `duplicate_ratings`

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
            "margin_scale": self.margin_scale,
            "legend": LEGEND,
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
    on_played: Callable[[CardGameEnv, list[str]], None] | None = None,
) -> EvalResult:
    """Play `episodes` episodes of `game` with `agents` (one (name, agent) per seat; the table
    size is `config["num_players"]` or the game's default).

    Duplicate deals: each deal is replayed once per distinct cyclic rotation of the agents over
    the seats, so every agent plays every seat of the same cards (rotations that only swap two
    agents of the same name are skipped: they would replay an identical table). An agent named
    more than once (e.g. two "random") is pooled as one player. The confidence interval treats
    deals as the independent samples: each deal contributes the agent's mean reward over its
    seats and rotations.

    Win rate: each seat an agent held counts once per episode, and wins when its reward beats the
    table's mean reward. Ratings: `duplicate_ratings` over each deal's mean rewards, so they
    order the agents exactly as their mean rewards do, and a fixed seed and deterministic agents
    give fixed ratings.

    `on_played(env, names)`, if given, is called after each episode with the environment that
    played it (`records.hand_records(env)` are its hands) and the agent name in each seat.
    """
    config = dict(config or {})
    env = make(game, **config)
    num_seats = len(env.possible_agents)
    if len(agents) != num_seats:
        raise ValueError(f"{game} is played by {num_seats} seats here, but {len(agents)} agents were given")
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    seating = [name for name, _ in agents]
    seeds = deal_seeds(seed, deal_count(episodes, len(distinct_rotations(seating))))
    tally = play_deals(env, agents, seeds, episodes, on_episode, on_played)
    return summarise(env, config, seating, seed, tally)


def deal_count(episodes: int, rotations: int) -> int:
    """Deals needed for `episodes` episodes when each deal is replayed `rotations` times (the last may be partial)."""
    return -(-episodes // rotations)


def deal_seeds(seed: int, count: int) -> list[int]:
    """The seeds of a tournament's first `count` deals: one stream per tournament seed."""
    deal_rng = random.Random(seed)
    return [deal_rng.getrandbits(63) for _ in range(count)]


def play_deals(
    env: CardGameEnv,
    agents: Sequence[tuple[str, Agent]],
    seeds: Sequence[int],
    episodes: int,
    on_episode: Callable[[int], None] | None = None,
    on_played: Callable[[CardGameEnv, list[str]], None] | None = None,
) -> Tally:
    """Play each deal of `seeds` once per distinct rotation of `agents`, `episodes` episodes in all
    (the last deal may stop before its last rotations), and tally them."""
    num_seats = len(agents)
    seating = [name for name, _ in agents]
    tally = Tally(list(dict.fromkeys(seating)), num_seats)
    rotations = distinct_rotations(seating)
    for deal_seed in seeds:
        for rotation in rotations[: episodes - tally.episodes]:
            seated = [agents[(seat - rotation) % num_seats] for seat in range(num_seats)]
            rewards = play_episode(env, [agent for _, agent in seated], deal_seed)
            if on_played is not None:
                on_played(env, [name for name, _ in seated])
            tally.add_episode([name for name, _ in seated], rewards)
            if on_episode is not None:
                on_episode(tally.episodes)
        tally.end_deal()
    return tally


def summarise(env: CardGameEnv, config: dict[str, Any], seating: list[str], seed: int, tally: Tally) -> EvalResult:
    """The tournament's result from its tally: scores, win rates and ratings."""
    ratings = duplicate_ratings(tally.deal_means())
    return EvalResult(
        game=env.game.name,
        config=config,
        episodes=tally.episodes,
        seed=seed,
        scores=tally.scores(ratings),
        env_id=env.game.env_id,
        num_players=len(seating),
        seating=seating,
        margin_scale=ratings.margin_scale,
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


class Tally:
    """Running sums of a tournament: per-deal means, per-seat sums and wins, keyed by agent name.
    Tallies of consecutive deals merge (`merge`) into the tally of all of them."""

    def __init__(self, names: list[str], num_seats: int):
        self.names = names
        self.episodes = 0
        self.per_deal: dict[str, list[float]] = {name: [] for name in names}
        self.deal: dict[str, list[float]] = {name: [] for name in names}
        self.seat_sums = {name: [0.0] * num_seats for name in names}
        self.seat_counts = {name: [0] * num_seats for name in names}
        self.wins = {name: 0 for name in names}

    def add_episode(self, seated: list[str], rewards: list[float]) -> None:
        table_mean = sum(rewards) / len(rewards)
        for seat, (name, reward) in enumerate(zip(seated, rewards, strict=True)):
            self.deal[name].append(reward)
            self.seat_sums[name][seat] += reward
            self.seat_counts[name][seat] += 1
            self.wins[name] += reward > table_mean + WIN_MARGIN
        self.episodes += 1

    def end_deal(self) -> None:
        for name in self.names:
            self.per_deal[name].append(sum(self.deal[name]) / len(self.deal[name]))
            self.deal[name] = []

    def merge(self, later: Tally) -> None:
        """Add the tally of the deals that follow this tally's."""
        for name in self.names:
            self.per_deal[name] += later.per_deal[name]
            self.seat_sums[name] = [a + b for a, b in zip(self.seat_sums[name], later.seat_sums[name], strict=True)]
            self.seat_counts[name] = [
                a + b for a, b in zip(self.seat_counts[name], later.seat_counts[name], strict=True)
            ]
            self.wins[name] += later.wins[name]
        self.episodes += later.episodes

    def to_dict(self) -> dict[str, Any]:
        """The tally of finished deals as JSON data (`from_dict` reads it back exactly)."""
        return {
            "names": self.names,
            "episodes": self.episodes,
            "per_deal": self.per_deal,
            "seat_sums": self.seat_sums,
            "seat_counts": self.seat_counts,
            "wins": self.wins,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tally:
        """The tally of `to_dict`'s data; ValueError naming what is missing or malformed."""
        try:
            names = [str(name) for name in data["names"]]
            tally = cls(names, len(data["seat_sums"][names[0]]) if names else 0)
            tally.episodes = int(data["episodes"])
            for name in names:
                tally.per_deal[name] = [float(mean) for mean in data["per_deal"][name]]
                tally.seat_sums[name] = [float(total) for total in data["seat_sums"][name]]
                tally.seat_counts[name] = [int(count) for count in data["seat_counts"][name]]
                tally.wins[name] = int(data["wins"][name])
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise ValueError(f"not a tally of deals ({type(err).__name__}: {err})") from None
        return tally

    def deal_means(self) -> np.ndarray:
        """Each deal's mean reward of each name: one row per deal, one column per name."""
        return np.array([self.per_deal[name] for name in self.names]).T

    def scores(self, ratings: DuplicateRatings) -> list[AgentScore]:
        scores = []
        for column, name in enumerate(self.names):
            score = mean_with_ci(name, self.per_deal[name])
            score.mu, score.sigma = float(ratings.mu[column]), float(ratings.sigma[column])
            counts = self.seat_counts[name]
            score.seat_episodes = list(counts)
            score.seat_means = [total / n if n else None for total, n in zip(self.seat_sums[name], counts, strict=True)]
            score.win_rate = self.wins[name] / sum(counts)
            scores.append(score)
        return scores


@dataclass(frozen=True)
class DuplicateRatings:
    """Bradley-Terry ratings on the Elo scale, one per agent, with their standard errors."""

    mu: np.ndarray
    sigma: np.ndarray
    margin_scale: float  # D: a pair whose mean rewards differ by D scores a full win


def duplicate_ratings(deal_means: np.ndarray) -> DuplicateRatings:
    """Rate agents from their mean reward on each deal (an array: one row per deal, one column per agent).

    Every pair of agents meets on every deal; over the tournament agent i scores
    1/2 + (mean_i - mean_j) / (2 D) against j, so equal means are a draw and the margin counts,
    not only who finished ahead. D is the largest root mean square of a pair's deal margins, which
    keeps every score in [0, 1]; margins no larger than float rounding (agents that played alike,
    their deal means summing thirds) are draws, every rating the centre. One extra draw per pair
    keeps ratings finite when a score is 0 or 1.
    The Bradley-Terry strengths maximise the likelihood of these scores under
    P(i beats j) = 1 / (1 + exp(theta_j - theta_i)), sum(theta) = 0, and are returned as
    1500 + theta * 400 / ln 10. As every pair meets equally often, the ratings order the agents
    exactly as their mean rewards do. sigma propagates the deal-to-deal covariance of the means
    through the fit (D held fixed); it is infinite with a single deal.
    """
    rewards = np.asarray(deal_means, dtype=float)
    deals, agents = rewards.shape
    margins = rewards[:, :, None] - rewards[:, None, :]
    scale = float(np.sqrt((margins**2).mean(axis=0)).max()) if agents > 1 else 0.0
    if scale <= ROUNDING * max(1.0, float(np.abs(rewards).max(initial=0.0))):  # every margin 0 but for rounding
        return DuplicateRatings(np.full(agents, RATING_CENTER), np.zeros(agents), 0.0)
    games = deals + 1
    scores = deals * (0.5 + margins.mean(axis=0) / (2 * scale)) + 0.5
    np.fill_diagonal(scores, 0.0)
    theta, information = bradley_terry(scores, games)
    if deals < 2:
        return DuplicateRatings(RATING_CENTER + ELO_PER_LOGIT * theta, np.full(agents, np.inf), scale)
    spread = np.cov(rewards, rowvar=False) / deals
    sensitivity = np.linalg.pinv(information) @ (deals / (2 * scale) * (agents * np.eye(agents) - 1.0))
    variance = np.diag(sensitivity @ spread @ sensitivity.T).clip(0.0)
    return DuplicateRatings(RATING_CENTER + ELO_PER_LOGIT * theta, ELO_PER_LOGIT * np.sqrt(variance), scale)


def bradley_terry(scores: np.ndarray, games: int | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood strengths (summing to 0) for `scores[i, j]` won by i against j out of
    `games` per pair (a number, or a matrix of them), by Newton steps with backtracking; and the
    Fisher information at them."""
    theta = np.zeros(len(scores))
    wins = scores.sum(axis=1)
    for _ in range(100):
        beats = _beat_probabilities(theta)
        step = np.linalg.pinv(_information(beats, games)) @ (wins - (games * beats).sum(axis=1))
        if np.abs(step).max() < 1e-12:
            break
        current = _log_likelihood(theta, scores)
        while _log_likelihood(theta + step, scores) < current and np.abs(step).max() > 1e-12:
            step = step / 2
        theta = theta + step - step.mean()
    return theta, _information(_beat_probabilities(theta), games)


def _beat_probabilities(theta: np.ndarray) -> np.ndarray:
    """P(i beats j) for every pair i != j (0 on the diagonal)."""
    beats = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    np.fill_diagonal(beats, 0.0)
    return beats


def _information(beats: np.ndarray, games: int | np.ndarray) -> np.ndarray:
    weights = games * beats * beats.T
    return np.diag(weights.sum(axis=1)) - weights


def _log_likelihood(theta: np.ndarray, scores: np.ndarray) -> float:
    return -float((scores * np.logaddexp(0.0, theta[None, :] - theta[:, None])).sum())


def mean_with_ci(name: str, samples: list[float]) -> AgentScore:
    """The mean of `samples` with the half-width of its 95% confidence interval (infinite for one sample):
    Student's t with n - 1 degrees of freedom, which a few deals need (at 4 deals 3.18 standard errors, not 1.96)."""
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return AgentScore(name, mean, math.inf, n)
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1)
    return AgentScore(name, mean, t_quantile_95(n - 1) * math.sqrt(variance / n), n)


@functools.cache
def t_quantile_95(df: int) -> float:
    """The t with P(|T| < t) = 0.95 for Student's T with `df` degrees of freedom (1.96 as df grows).

    Up to `SERIES_DF` degrees of freedom it solves the exact finite series for P(|T| < t) (Abramowitz and
    Stegun 26.7.3 and 26.7.4) by bisection; above, the Cornish-Fisher expansion around the normal quantile
    (26.7.5), whose error there is below 1e-9.
    """
    if df < 1:
        raise ValueError(f"Student's t needs at least one degree of freedom, got {df}")
    if df > SERIES_DF:
        return _t_expansion(Z_95, df)
    low, high = 0.0, 20.0  # t(1) = 12.71, the widest
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if _t_central_probability(middle, df) < 0.95 else (low, middle)
    return (low + high) / 2


def _t_central_probability(t: float, df: int) -> float:
    """P(|T| < t) for Student's T with `df` degrees of freedom, by the finite series in cos(theta)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    term, total = 1.0, 1.0
    if df % 2:  # odd: (2/pi) (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...)), df - 3 in the last factor
        for k in range(1, (df - 1) // 2):
            term *= cos2 * (2 * k) / (2 * k + 1)
            total += term
        tail = math.sin(theta) * math.cos(theta) * total if df > 1 else 0.0
        return 2 / math.pi * (theta + tail)
    for k in range(1, df // 2):  # even: sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...), df - 3 in the last factor
        term *= cos2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def _t_expansion(z: float, df: int) -> float:
    """The t quantile at the normal quantile `z` for many degrees of freedom (Cornish-Fisher, 26.7.5)."""
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def finite_or_none(value: float) -> float | None:
    return value if math.isfinite(value) else None
