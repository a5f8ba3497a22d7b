"""Piktas scorer throughput: `rules.evaluate` on the pools of random deals, one core.

    python benchmarks/piktas_scorer.py [--pools 20000] [--repeat 5] [--seed 0]

A pool is a seat's 6-card hand (voids included, as dealt) with a field of 6 non-void cards, both
drawn from a shuffled 72-card deck: what `evaluate` scores at a 4-seat showdown. Rows:
- `evaluate (codes)`: the Checkable API, card codes in, validation included.
- `evaluate_ids`: the index-level twin the environment calls at every showdown and observation.
- the same on *rich* pools (cards of two suits and trumps only: long runs, many layouts), and
  with each scoring variant (`trump_multi_unit=False`, `highest_unit_only`, `wild_voids`).

Each row is timed `--repeat` times over the same pools (rows interleaved); the table shows
evaluations per second of the slowest (min), median and fastest (max) pass, and the median and
worst single evaluation of the median pass. The compiled scorer is warmed up (and its cache filled) first.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import typer
from cardarena.envs.piktas import rules
from rated_passes import print_rates

Pool = tuple[list[int], list[int]]


def random_deal_pools(rng: random.Random, count: int) -> list[Pool]:
    pools = []
    for _ in range(count):
        deck = rng.sample(range(len(rules.DECK)), len(rules.DECK))
        hand = deck[:6]
        field = [card for card in deck[6:] if not rules.is_void(card)][:6]
        pools.append((hand, field))
    return pools


def rich_pools(rng: random.Random, count: int) -> list[Pool]:
    """Pools of two suits' pips and the trumps: the hardest arrangements to search."""
    pools = []
    for _ in range(count):
        suits = rng.sample(range(len(rules.SUITS)), 2)
        cards = [10 * suit + value for suit in suits for value in range(10)] + list(
            range(rules.FIRST_TRUMP, rules.FIRST_VOID)
        )
        chosen = rng.sample(cards, 12)
        pools.append((chosen[:6], chosen[6:]))
    return pools


def rows(random_pools: list[Pool], hard_pools: list[Pool]) -> dict[str, tuple[Callable[[Pool], object], list[Pool]]]:
    codes = [([rules.DECK[c] for c in hand], [rules.DECK[c] for c in field]) for hand, field in random_pools]
    by_code = dict(zip(map(id, random_pools), codes, strict=True))

    def ids(flags: tuple[bool, bool, bool]) -> Callable[[Pool], object]:
        return lambda pool: rules.evaluate_ids(pool[0], pool[1], *flags)

    return {
        "evaluate (codes), random deals": (lambda pool: rules.evaluate(*by_code[id(pool)]), random_pools),
        "evaluate_ids, random deals": (ids((True, False, False)), random_pools),
        "evaluate_ids, rich pools (two suits + trumps)": (ids((True, False, False)), hard_pools),
        "evaluate_ids, trump_multi_unit=False": (ids((False, False, False)), random_pools),
        "evaluate_ids, highest_unit_only=True": (ids((True, True, False)), random_pools),
        "evaluate_ids, wild_voids=True": (ids((True, False, True)), random_pools),
    }


def main(
    pools: int = typer.Option(20000, min=100, help="Pools per row."),
    repeat: int = typer.Option(5, min=1, help="Passes per row."),
    seed: int = typer.Option(0, help="Seed of the deals."),
) -> None:
    """Evaluations per second of the exact Piktas scorer."""
    rng = random.Random(seed)
    table_rows = rows(random_deal_pools(rng, pools), rich_pools(rng, pools))
    print_rates(
        f"Piktas scorer, one core: {pools:,} pools per row, {repeat} passes", table_rows, repeat, "pools", "evals/s"
    )


if __name__ == "__main__":
    typer.run(main)
