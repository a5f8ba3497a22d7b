"""Tilt evaluator throughput: `rules.evaluate` and `rules.best_key` on random deals, one core.

    python benchmarks/tilt_evaluator.py [--hands 20000] [--repeat 5] [--seed 0]

Rows:
- four-card hands without Hazards, through the Checkable API (`evaluate`, codes in, validation
  included) and through its index-level twin `evaluate_ids` that the game calls;
- four-card hands holding at least one wild 2 under Binary System (one wild in most, two or
  more in about one in seven), and every random hand under Binary System;
- six-card hands under Captain's Reserve Stash, and Wild Jump hands (one wild in every hand);
- `best_key` of a seat with a Chicken card, with two Tariffs, and with a Haul grid;
- the same four-card rows computed, never looked up (`computed_key`): the evaluator as it runs
  before a set of Hazards has been met often enough for its four-card table.

Each row is timed `--repeat` times over the same hands (rows interleaved); the table shows the
evaluations per second of the slowest and the median pass. Each row is warmed up on its first
200 hands (the evaluator fills its rank-pattern tables as it meets patterns), and the four-card
tables of the rows' Hazards are built before timing; a second table shows what each build took.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import typer
from cardarena.envs.tilt import evaluator, rules
from rich.console import Console
from rich.table import Table

Deal = list[str]
TWOS = {"C2", "P2", "S2", "H2"}


def deals(rng: random.Random, count: int, size: int, keep: Callable[[Deal], bool] = lambda deal: True) -> list[Deal]:
    found: list[Deal] = []
    while len(found) < count:
        deal = rng.sample(rules.CARD_CODES, size)
        if keep(deal):
            found.append(deal)
    return found


def rows(rng: random.Random, count: int) -> dict[str, tuple[Callable[[Deal], object], list[Deal]]]:
    plain = deals(rng, count, 4)
    wild = deals(rng, count, 4, lambda deal: bool(TWOS & set(deal)))
    six = deals(rng, count, 6)
    ten = deals(rng, count, 10)
    biny, jump = rules.hazard_flags(["BINY"]), rules.hazard_flags(["JUMP"])
    ids = {id(deal): rules.CARDS.indices_of(deal) for deal in plain + wild}
    return {
        "evaluate, no Hazard": (lambda deal: rules.evaluate(deal), plain),
        "evaluate_ids, no Hazard": (lambda deal: rules.evaluate_ids(ids[id(deal)], 0), plain),
        "evaluate, BINY, hands with a wild 2": (lambda deal: rules.evaluate(deal, ["BINY"]), wild),
        "evaluate_ids, BINY, hands with a wild 2": (lambda deal: rules.evaluate_ids(ids[id(deal)], biny), wild),
        "evaluate, BINY, random hands": (lambda deal: rules.evaluate(deal, ["BINY"]), plain),
        "computed_key, no Hazard": (lambda deal: evaluator.computed_key(ids[id(deal)], 0, 4), plain),
        "computed_key, BINY, hands with a wild 2": (lambda deal: evaluator.computed_key(ids[id(deal)], biny, 4), wild),
        "evaluate, JUMP (one wild per hand)": (lambda deal: rules.evaluate(deal, ["JUMP"]), plain),
        "computed_key, JUMP (one wild per hand)": (lambda deal: evaluator.computed_key(ids[id(deal)], jump, 4), plain),
        "evaluate, STSH six-card hands": (lambda deal: rules.evaluate(deal, ["STSH"]), six),
        "best_key, CHKN: 3 own + Chicken card": (
            lambda deal: rules.best_key(deal[:3], ["CHKN"], shared=deal[3:4]),
            ten,
        ),
        "best_key, TAXS: 4 own + 2 Tariffs": (lambda deal: rules.best_key(deal[:4], ["TAXS"], tariffs=deal[4:6]), ten),
        "best_key, HAUL: 1 kept + 9-card grid": (lambda deal: rules.best_key(deal[:1], ["HAUL"], grid=deal[1:10]), ten),
    }


def rate(evaluate: Callable[[Deal], object], sample: list[Deal]) -> float:
    """Evaluations per second over one pass of the sample."""
    start = time.perf_counter()
    for deal in sample:
        evaluate(deal)
    return len(sample) / (time.perf_counter() - start)


def main(
    hands: int = typer.Option(20000, min=200, help="Hands per row."),
    repeat: int = typer.Option(5, min=1, help="Passes per row."),
    seed: int = typer.Option(0, help="Seed of the deals."),
) -> None:
    """Evaluations per second of the exact Tilt evaluator."""
    table_rows = rows(random.Random(seed), hands)
    builds = table_builds()
    for evaluate, sample in table_rows.values():
        rate(evaluate, sample[:200])
    rates: dict[str, list[float]] = {name: [] for name in table_rows}
    for _ in range(repeat):
        for name, (evaluate, sample) in table_rows.items():
            rates[name].append(rate(evaluate, sample))
    table = Table(title=f"Tilt evaluator, one core: {hands:,} hands per row, {repeat} passes")
    for column in ("row", "evals/s (slowest pass)", "evals/s (median pass)", "µs per eval (median)"):
        table.add_column(column, justify="left" if column == "row" else "right")
    for name, found in rates.items():
        median = statistics.median(found)
        table.add_row(name, f"{min(found):,.0f}", f"{median:,.0f}", f"{1e6 / median:.1f}")
    console = Console(width=120)
    console.print(table)
    built = Table(title="four-card tables, built before timing")
    for column in ("Hazards", "seconds to build"):
        built.add_column(column, justify="left" if column == "Hazards" else "right")
    for name, seconds in builds.items():
        built.add_row(name, f"{seconds:.2f}")
    console.print(built)


def table_builds() -> dict[str, float]:
    """Seconds to build the four-card table of each set of Hazards the rows evaluate four-card hands under."""
    seconds = {}
    for hazards in ([], ["BINY"], ["JUMP"]):
        start = time.perf_counter()
        evaluator.hand_keys(rules.hazard_flags(hazards), 4)
        seconds[" ".join(hazards) or "none"] = time.perf_counter() - start
    return seconds


if __name__ == "__main__":
    typer.run(main)
