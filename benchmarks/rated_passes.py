"""Timing a pure function over fixed cases, row by row, for the per-call throughput benchmarks.

`print_rates` warms each row up, times `repeat` passes of every row (the rows interleaved, so
that load from other processes falls on all of them alike) and prints calls per second of the
slowest, median and fastest pass, with the median and worst single call of the median pass.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

Row = tuple[Callable[[Any], object], Sequence[Any]]


def timed(call: Callable[[Any], object], cases: Sequence[Any]) -> tuple[float, list[float]]:
    """Seconds for the whole pass and each call's seconds."""
    each = []
    start = time.perf_counter()
    for case in cases:
        t = time.perf_counter()
        call(case)
        each.append(time.perf_counter() - t)
    return time.perf_counter() - start, each


def print_rates(
    title: str, rows: dict[str, Row], repeat: int, cases_label: str, rate_label: str, width: int = 120
) -> None:
    """Time every row `repeat` times and print the table of the module docstring."""
    for call, cases in rows.values():
        for case in cases[:200]:
            call(case)
    passes: dict[str, list[tuple[float, list[float]]]] = {name: [] for name in rows}
    for _ in range(repeat):
        for name, (call, cases) in rows.items():
            passes[name].append(timed(call, cases))
    table = Table(title=title)
    for column in (
        cases_label,
        f"{rate_label} (min)",
        f"{rate_label} (median)",
        f"{rate_label} (max)",
        "median µs",
        "worst ms",
    ):
        table.add_column(column, justify="left" if column == cases_label else "right")
    for name, results in passes.items():
        count = len(rows[name][1])
        ranked = sorted(results, key=lambda result: result[0])
        median_pass = ranked[(len(ranked) - 1) // 2]
        table.add_row(
            name,
            f"{count / ranked[-1][0]:,.0f}",
            f"{count / median_pass[0]:,.0f}",
            f"{count / ranked[0][0]:,.0f}",
            f"{statistics.median(median_pass[1]) * 1e6:.1f}",
            f"{max(median_pass[1]) * 1e3:.2f}",
        )
    Console(width=width).print(table)
