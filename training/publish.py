"""Publish a trained checkpoint as a shipped bot: evaluate it against the baselines over many
duplicate-dealt hands and write a clean checkpoint (model, policy, card with the results)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardarena.agents import load
from cardarena.envs import lookup

from .checkpoint import load_model, verify_checkpoint, write_checkpoint
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


def publish(source: Path, destination: Path, evaluation: dict[str, Any]) -> Path:
    """Write `source`'s model as a clean checkpoint at `destination` (no resume state), with `evaluation` on its
    card."""
    card = verify_checkpoint(source)
    model = load_model(source)
    return write_checkpoint(
        destination, model, env_id=card["env_id"], config=card["config"], steps=card["steps"], evaluation=evaluation
    )
