"""Publish a trained checkpoint as a shipped bot: evaluate it against the baselines over many
duplicate-dealt hands and write a light checkpoint: its actor and critic as arrays (float16 by
default) and its card with the results, without the model's optimizer state."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardarena.agents import load
from cardarena.envs import lookup

from .checkpoint import read_actor_critic, verify_checkpoint, write_policy_checkpoint
from .evaluate import evaluate

BOT = "bot"


def evaluate_against_baselines(
    checkpoint: Path,
    baselines: list[str],
    episodes: int,
    seed: int = 0,
    on_episode: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The checkpoint in one seat, a baseline in every other, per baseline: mean, CI, win rate."""
    card = verify_checkpoint(checkpoint)
    entry = lookup(card["env_id"])
    config = card.get("config", {}).get("env", {})
    seats = len(entry.env_cls(**config).possible_agents)
    results = {}
    for baseline in baselines:
        lineup = [(BOT, load(checkpoint))] + [
            (baseline, load(baseline, game=entry.name, seed=seat)) for seat in range(1, seats)
        ]
        result = evaluate(entry.env_id, lineup, episodes, seed, config, on_episode)
        score = result.score_of(BOT)
        results[baseline] = {
            "episodes": result.episodes,
            "seed": seed,
            "mean": score.mean,
            "ci95": score.ci95,
            "low": score.low,
            "high": score.high,
            "win_rate": score.win_rate,
        }
    return results


def publish(source: Path, destination: Path, evaluation: dict[str, Any], precision: str = "float16") -> Path:
    """Write `source`'s actor and critic, stored in `precision`, as a light checkpoint at `destination`
    (no model, no resume state), with `evaluation` on its card. `destination` may be `source` itself."""
    card = verify_checkpoint(source)
    return write_policy_checkpoint(
        destination,
        read_actor_critic(source),
        env_id=card["env_id"],
        config=card["config"],
        steps=card["steps"],
        evaluation=evaluation,
        precision=precision,
    )
