"""Antipoker hand-value throughput on random six-card hands, one core.

    python benchmarks/antipoker_evaluator.py [--hands 100000] [--seconds 2] [--repeat 3] [--seed 0]

Rows:
- `hand_value (codes)`: the rule function, card codes in, validation included, one hand a call.
- `value_of_ids`: one hand of deck indices a call, as the environment values a showdown.
- `hand_values, batches of 64`: rows of deck indices valued together, the size of the heuristic's
  batch of keeps per sample.
- `hand_values, one batch`: every hand in one call of the compiled evaluator.

Each row is timed `--repeat` times (rows interleaved, each pass at least `--seconds` long, looping
over the hands); the table shows hand values per second of the slowest, median and fastest pass.
The compiled evaluator is loaded (from numba's cache) before timing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import typer
from cardarena.envs.antipoker import rules
from rich.console import Console
from rich.table import Table

Row = Callable[[], int]  # values some hands, returns how many


def random_hands(count: int, seed: int) -> np.ndarray:
    """`count` random six-card hands as rows of deck indices."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, len(rules.DECK))), axis=1)[:, : rules.HAND_SIZE].astype(np.int64)


def rows(hands: np.ndarray) -> dict[str, Row]:
    codes = [[rules.DECK.codes[card] for card in hand] for hand in hands[:20_000]]
    ids = [list(map(int, hand)) for hand in hands[:20_000]]
    batches = [hands[k : k + 64] for k in range(0, len(hands), 64)]

    def by_code() -> int:
        for hand in codes:
            rules.hand_value(hand)
        return len(codes)

    def by_ids() -> int:
        for hand in ids:
            rules.value_of_ids(hand)
        return len(ids)

    def in_batches() -> int:
        for batch in batches:
            rules.hand_values(batch)
        return len(hands)

    def at_once() -> int:
        return len(rules.hand_values(hands))

    return {
        "hand_value (codes), one hand a call": by_code,
        "value_of_ids, one hand a call": by_ids,
        "hand_values, batches of 64": in_batches,
        "hand_values, one batch": at_once,
    }


def timed(row: Row, seconds: float) -> float:
    """Hand values per second over at least `seconds`."""
    valued, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        valued += row()
    return valued / elapsed


def main(
    hands: int = typer.Option(100_000, min=1_000, help="Random hands valued per pass of a batched row."),
    seconds: float = typer.Option(2.0, min=0.1, help="Least seconds per pass."),
    repeat: int = typer.Option(3, min=1, help="Passes per row."),
    seed: int = typer.Option(0, help="Seed of the hands."),
) -> None:
    """Hand values per second of the compiled Antipoker evaluator."""
    sample = random_hands(hands, seed)
    table_rows = rows(sample)
    rules.hand_values(sample[:10])  # load the compiled evaluator before timing
    passes: dict[str, list[float]] = {name: [] for name in table_rows}
    for _ in range(repeat):
        for name, row in table_rows.items():
            passes[name].append(timed(row, seconds))
    table = Table(title=f"Antipoker hand values, one core: {hands:,} random hands, {repeat} passes")
    for column in ("row", "values/s (min)", "values/s (median)", "values/s (max)"):
        table.add_column(column, justify="left" if column == "row" else "right")
    for name, rates in passes.items():
        ranked = sorted(rates)
        table.add_row(name, f"{ranked[0]:,.0f}", f"{ranked[(len(ranked) - 1) // 2]:,.0f}", f"{ranked[-1]:,.0f}")
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
