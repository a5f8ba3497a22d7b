"""Scarp answer-enumeration throughput: the legal answer picks for a ten-card hand, one core.

    python benchmarks/scarp_evaluator.py [--hands 20000] [--repeat 5] [--seed 0]

A case is a random ten-card hand (from the shuffled 45-card deck), a challenge number 1..10 and a
challenge suit: what a responder's mask needs at the start of her answer. Rows:
- `answer_options (codes)`: the Checkable API, card codes in, validation included.
- `answer_picks_ids`: the index-level twin the environment's masks call.
- `environment mask (PickRule)`: the answer's `PickRule` and `PickActions.legal_actions`, as
  `ScarpGame.legal_actions` computes the mask at a response.
- the same on twenty-card pools (a responder with access to the challenger's hand), and one pick
  into an answer (the mask after the first card).

Each row is timed `--repeat` times over the same cases (rows interleaved); the table shows
enumerations per second of the slowest (min), median and fastest (max) pass, and the median and
worst single enumeration of the median pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import typer
from cardarena.envs.core.picks import PickState
from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp import rules
from rated_passes import print_rates

Case = tuple[list[int], list[int], int, int]  # pool, chosen, number, suit


def random_cases(rng: random.Random, count: int, size: int, picked: bool = False) -> list[Case]:
    cases = []
    while len(cases) < count:
        pool = rng.sample(range(len(rules.DECK)), size)
        number, suit = rng.randint(1, 10), rng.randrange(len(rules.SUITS))
        chosen: list[int] = []
        if picked:
            picks = rules.answer_picks_ids(pool, [], number, suit)
            if not picks:
                continue
            chosen = [rng.choice(picks)]
        cases.append((pool, chosen, number, suit))
    return cases


def environment_mask(case: Case) -> list[int]:
    """The response mask's answer part as the environment builds it."""
    pool, chosen, number, suit = case
    state = scarp.ScarpState(seed=0, hands=[pool, []], to_act=0, phase=scarp.RESPONSE)
    lay = [number - 1, suit]  # the Light card of that number (indices 0..9 are L1..L10)
    state.challenge, state.stage, state.picks = lay, scarp.ORDINARY, PickState(list(chosen))
    rule = scarp.answer_rule(state)
    return scarp.PICKS.legal_actions(rule, state.picks)


def rows(
    ten: list[Case], twenty: list[Case], one_picked: list[Case]
) -> dict[str, tuple[Callable[[Case], object], list[Case]]]:
    codes = {
        id(case): (rules.DECK.codes_of(case[0]), rules.DECK.codes_of(case[1]), case[2], rules.SUITS[case[3]])
        for case in ten
    }

    def by_ids(case: Case) -> object:
        return rules.answer_picks_ids(*case)

    return {
        "answer_options (codes), ten-card hand": (lambda case: rules.answer_options(*codes[id(case)]), ten),
        "answer_picks_ids, ten-card hand": (by_ids, ten),
        "environment mask (PickRule), ten-card hand": (environment_mask, ten),
        "answer_picks_ids, twenty-card pool": (by_ids, twenty),
        "environment mask (PickRule), twenty-card pool": (environment_mask, twenty),
        "answer_picks_ids, ten-card hand, one card picked": (by_ids, one_picked),
    }


def main(
    hands: int = typer.Option(20000, min=100, help="Cases per row."),
    repeat: int = typer.Option(5, min=1, help="Passes per row."),
    seed: int = typer.Option(0, help="Seed of the cases."),
) -> None:
    """Legal-answer enumerations per second for Scarp's responder."""
    rng = random.Random(seed)
    table_rows = rows(
        random_cases(rng, hands, 10), random_cases(rng, hands, 20), random_cases(rng, hands, 10, picked=True)
    )
    title = f"Scarp answer enumeration, one core: {hands:,} cases per row, {repeat} passes"
    print_rates(title, table_rows, repeat, "cases", "per s", width=130)


if __name__ == "__main__":
    typer.run(main)
