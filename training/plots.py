"""Learning curves of a training run: reward and win rate against each baseline, and the rating.

A run's history holds one row per evaluation, as a trainer logs it:
`{"steps": 20480, "results": {"random": {"mean": 0.31, "ci95": 0.04, "win_rate": 0.62}, ...},
"rating": {"mu": 27.1, "sigma": 1.9}}`; "rating", "ci95" and "win_rate" may be absent.
"""

from __future__ import annotations

import json
import math
import numbers
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def read_history(path: str | os.PathLike) -> list[dict[str, Any]]:
    """The rows of a `history.jsonl` file (one JSON object per line; blank lines skipped)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no history at {path}: a training run writes one JSON row per evaluation there")
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}, line {number}: not JSON ({err.msg})") from None
        _check_row(row, f"{path}, line {number}")
        rows.append(row)
    if not rows:
        raise ValueError(f"{path} is empty: no evaluation has been logged yet")
    return rows


def plot_learning_curve(history: Sequence[Mapping[str, Any]], path: str | os.PathLike) -> Path:
    """Save a PNG at `path`: mean reward (with its 95% CI band) and win rate against each baseline
    by training steps, and the rating (mu +- sigma) in a third panel when rows have one."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if not history:
        raise ValueError("the history is empty: nothing to plot")
    for number, row in enumerate(history):
        _check_row(row, f"history row {number}")
    rows = sorted(history, key=lambda row: row["steps"])
    baselines = list(dict.fromkeys(name for row in rows for name in row["results"]))
    rated = [row for row in rows if row.get("rating")]

    figure = Figure(figsize=(8, 3 * (3 if rated else 2)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(3 if rated else 2, 1, sharex=True, squeeze=False)[:, 0]
    reward_axes, win_axes = axes[0], axes[1]
    for name in baselines:
        points = [(row["steps"], row["results"][name]) for row in rows if name in row["results"]]
        steps = [step for step, _ in points]
        means = [result["mean"] for _, result in points]
        (line,) = reward_axes.plot(steps, means, marker="o", label=f"vs {name}")
        half_widths = [_number(result.get("ci95")) for _, result in points]
        lows = [mean - ci for mean, ci in zip(means, half_widths, strict=True)]
        highs = [mean + ci for mean, ci in zip(means, half_widths, strict=True)]
        reward_axes.fill_between(steps, lows, highs, color=line.get_color(), alpha=0.2, linewidth=0)
        wins = [(step, result["win_rate"]) for step, result in points if result.get("win_rate") is not None]
        if wins:
            win_axes.plot(*zip(*wins, strict=True), marker="o", color=line.get_color(), label=f"vs {name}")
    reward_axes.set(ylabel="mean reward", title="learning curve")
    reward_axes.axhline(0.0, color="grey", linewidth=0.8)
    win_axes.set(ylabel="win rate", ylim=(0.0, 1.0))
    for ax in (reward_axes, win_axes):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="best")
        ax.grid(alpha=0.3)
    if rated:
        steps = [row["steps"] for row in rated]
        mus = [row["rating"]["mu"] for row in rated]
        sigmas = [_number(row["rating"].get("sigma")) for row in rated]
        rating_axes = axes[2]
        rating_axes.plot(steps, mus, marker="o", color="black", label="mu")
        rating_axes.fill_between(
            steps,
            [m - s for m, s in zip(mus, sigmas, strict=True)],
            [m + s for m, s in zip(mus, sigmas, strict=True)],
            color="grey",
            alpha=0.3,
            label="mu +- sigma",
        )
        rating_axes.set(ylabel="rating")
        rating_axes.legend(loc="best")
        rating_axes.grid(alpha=0.3)
    axes[-1].set_xlabel("training steps")

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", dpi=100)
    return path


def _check_row(row: Any, where: str) -> None:
    if (
        not isinstance(row, Mapping)
        or not isinstance(row.get("steps"), numbers.Integral)
        or not isinstance(row.get("results"), Mapping)
    ):
        raise ValueError(f'{where}: expected an object with integer "steps" and a "results" object, got {row!r}')
    for name, result in row["results"].items():
        if not isinstance(result, Mapping) or not isinstance(result.get("mean"), numbers.Real):
            raise ValueError(f'{where}: results[{name!r}] needs a numeric "mean", got {result!r}')


def _number(value: Any) -> float:
    """A CI half-width or sigma, NaN (drawn as a gap) where missing or infinite."""
    return float(value) if isinstance(value, numbers.Real) and math.isfinite(value) else math.nan
