"""Dividha evaluator throughput: best hand of six cards, one core.

    python benchmarks/dividha_evaluator.py [--seconds 2] [--repeat 3] [--hands 20000] [--seed 0]

Each row evaluates six-card hands for `--seconds` per pass, cycling through its hands, `--repeat`
passes (rows interleaved); the table shows evaluations per second of the slowest, median and
fastest pass and the mean µs per evaluation of the median pass. Hands:
- *random*: six cards of a shuffled 56-card deck, what a showdown evaluates;
- *immortal-rich*: six of the 26 immortal cards and four mortal ones, so that the Syncretic
  Rule, crossed deuces, wild cards and Corruption are at work in most hands.
Rows: `evaluate` (card codes in, validation included: the Checkable API), `key_ids` (deck
indices in, packed key out: the environment's hot path) and `showdown_ids` (also the cards shown).
The compiled evaluator is warmed up first (its compilation is cached on disk after the first run).
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Callable

import typer
from cardarena.envs.dividha import rules
from rich.console import Console
from rich.table import Table

Row = tuple[Callable[[list], object], list[list]]


def random_hands(rng: random.Random, count: int) -> list[list[int]]:
    return [rng.sample(range(rules.DECK_SIZE), 6) for _ in range(count)]


def immortal_rich_hands(rng: random.Random, count: int) -> list[list[int]]:
    immortal = list(rules.HEAVEN_SIDE + rules.HELL_SIDE)
    return [rng.sample(immortal + rng.sample(range(rules.DECK_SIZE - len(immortal)), 4), 6) for _ in range(count)]


def rows(rng: random.Random, count: int) -> dict[str, Row]:
    plain, rich = random_hands(rng, count), immortal_rich_hands(rng, count)

    def codes(hands: list[list[int]]) -> list[list[str]]:
        return [[rules.DECK[card] for card in hand] for hand in hands]

    def divine(hand: list[int]) -> object:
        return rules.key_ids(hand, divine_intervention=True)

    return {
        "evaluate (codes), random": (rules.evaluate, codes(plain)),
        "key_ids, random": (rules.key_ids, plain),
        "showdown_ids, random": (rules.showdown_ids, plain),
        "evaluate (codes), immortal-rich": (rules.evaluate, codes(rich)),
        "key_ids, immortal-rich": (rules.key_ids, rich),
        "key_ids, immortal-rich, divine_intervention": (divine, rich),
    }


def one_pass(evaluate: Callable[[list], object], hands: list[list], seconds: float) -> float:
    """Evaluations per second over at least `seconds`, checking the clock every 1,000 hands."""
    chunks = [hands[start : start + 1000] for start in range(0, len(hands), 1000)]
    done, start = 0, time.perf_counter()
    for chunk in itertools.cycle(chunks):
        for hand in chunk:
            evaluate(hand)
        done += len(chunk)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return done / elapsed


def main(
    seconds: float = typer.Option(2.0, min=0.1, help="Seconds per row and pass."),
    repeat: int = typer.Option(3, min=1, help="Passes per row."),
    hands: int = typer.Option(20000, min=1000, help="Distinct hands per row."),
    seed: int = typer.Option(0, help="Seed of the hands."),
) -> None:
    """Six-card best-hand evaluations per second of the Dividha evaluator."""
    table_rows = rows(random.Random(seed), hands)
    rules.COMPILED.wait()  # the compiled evaluator, not the reference the game plays on while it compiles
    for evaluate, sample in table_rows.values():
        for hand in sample[:200]:
            evaluate(hand)
    passes: dict[str, list[float]] = {name: [] for name in table_rows}
    for _ in range(repeat):
        for name, (evaluate, sample) in table_rows.items():
            passes[name].append(one_pass(evaluate, sample, seconds))
    table = Table(title=f"Dividha evaluator, six cards, one core: {seconds:g} s per row and pass, {repeat} passes")
    for column in ("hands", "evals/s (min)", "evals/s (median)", "evals/s (max)", "µs per eval"):
        table.add_column(column, justify="left" if column == "hands" else "right")
    for name, rates in passes.items():
        median = statistics.median(rates)
        table.add_row(name, f"{min(rates):,.0f}", f"{median:,.0f}", f"{max(rates):,.0f}", f"{1e6 / median:.1f}")
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
