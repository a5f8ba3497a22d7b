"""Invariants every game keeps under random play, checked one episode at a time.

The conformance suite (tests/envs/test_conformance.py) asserts them and benchmarks/soak.py
counts their failures over many hands, both in the `modes` of every registered environment.
Each episode is played through the standard AEC loop
with uniformly random legal actions and checks, at every decision: the action mask is the
game's legal set; the quantities of `Game.conserved` (cards, chips) never change; the episode
ends within `Game.max_decisions`. At the end: the rewards the environment paid add up to
`Game.returns`, and the returns sum to `Game.returns_total` where the game fixes one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .env import CardGameEnv
from .registry import lookup, make


def modes(env_id: str) -> list[tuple[dict[str, Any], list[int]]]:
    """Each mode a registered environment's game declares (`Game.conformance_modes`), with the
    table sizes to play it at: the smallest, the default and the largest."""
    counts, game = lookup(env_id).player_counts, make(env_id).game
    sizes = sorted({counts[0], game.num_players, counts[-1]})
    return [(dict(mode), sizes) for mode in type(game).conformance_modes]


@dataclass
class EpisodeReport:
    """What one episode did, and each invariant it broke as (invariant, message)."""

    hands: int = 0
    decisions: int = 0
    broken: list[tuple[str, str]] = field(default_factory=list)

    def fail(self, invariant: str, message: str) -> None:
        self.broken.append((invariant, f"decision {self.decisions}: {message}"))


Visit = Callable[[CardGameEnv, random.Random], Any]


def play_random_episode(env: CardGameEnv, seed: int, visit: Visit | None = None) -> EpisodeReport:
    """Reset `env` with `seed` and `play_on` with random actions drawn from the same seed."""
    env.reset(seed=seed)
    return play_on(env, random.Random(seed), visit)


def play_on(env: CardGameEnv, rng: random.Random, visit: Visit | None = None) -> EpisodeReport:
    """Play `env` from its state to the end with random legal actions and check the invariants;
    `visit(env, rng)` runs before each decision and once at the end (for more checks)."""
    game, report = env.game, EpisodeReport()
    start, bound = game.conserved(env.state), game.max_decisions()
    paid = dict(zip(env.possible_agents, game.returns(env.state)))
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        paid[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if report.decisions == bound:
            report.fail("bound", f"the episode is still running after max_decisions() = {bound}")
            return report
        legal = game.legal_actions(env.state)
        _check_decision(observation["action_mask"], legal, report)
        _check_conserved(game, env.state, start, report)
        if visit is not None:
            visit(env, rng)
        env.step(rng.choice(legal))
        report.decisions += 1
    if visit is not None:
        visit(env, rng)
    _check_conserved(game, env.state, start, report)
    _check_end(game, env.state, paid, env.possible_agents, report)
    return report


def _check_decision(mask: Any, legal: list[int], report: EpisodeReport) -> None:
    if not legal:
        report.fail("mask", "a seat must act but has no legal action")
    if mask.nonzero()[0].tolist() != legal:
        report.fail("mask", f"action mask {mask.nonzero()[0].tolist()} differs from legal_actions {legal}")


def _check_conserved(game: Any, state: Any, start: dict[str, Any], report: EpisodeReport) -> None:
    for name, now in game.conserved(state).items():
        if now != start.get(name):
            report.fail(name, f"{name} not conserved: {start.get(name)} at the start, {now} now")


def _check_end(game: Any, state: Any, paid: dict[str, float], agents: list[str], report: EpisodeReport) -> None:
    report.hands = game.hands_played(state)
    returns = list(game.returns(state))
    if not (game.is_terminal(state) or game.is_truncated(state)):
        report.fail("end", "every agent is done, but the game is neither terminal nor truncated")
    if not all(math.isclose(paid[agent], r, abs_tol=1e-9) for agent, r in zip(agents, returns)):
        report.fail(
            "rewards", f"the rewards paid add up to {[paid[agent] for agent in agents]}, the returns are {returns}"
        )
    total = game.returns_total()
    if total is not None and not math.isclose(sum(returns), total, abs_tol=1e-9):
        report.fail("returns", f"the returns {returns} sum to {sum(returns)}, not {total}")
