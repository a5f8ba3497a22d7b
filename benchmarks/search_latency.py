"""Search agents' time per decision in every game, at their default budgets.

    python benchmarks/search_latency.py [--decisions 30] [--seed 0] [--agents pimc,ismcts] [--only yokir]

Each row times `--decisions` decisions of one agent at a game's default table: the states are the
decisions of random play over successive deals (random actions between them), the same states for
every agent. The table shows the median and the mean milliseconds per decision and how many legal
actions those decisions had on average (a decision with one legal action is answered at once and
is counted too).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Annotated

import typer
from cardarena.agents import load
from cardarena.envs import lookup, make, registered
from cardarena.envs.core.compiling import wait_all
from cardarena.envs.core.table import Table, decide
from rich.console import Console
from rich.table import Table as TextTable


def decision_points(game: str, count: int, seed: int) -> list[tuple[int, int]]:
    """(deal seed, random moves before the decision) for `count` decisions of random play."""
    rng = random.Random(seed)
    return [(rng.getrandbits(32), rng.randrange(12)) for _ in range(count)]


def time_decisions(game: str, agent_name: str, points: list[tuple[int, int]]) -> tuple[list[float], float]:
    """Milliseconds per decision of `agent_name` at each point, and the mean number of legal actions."""
    env = make(lookup(game).env_id)
    table = Table(env)
    agent = load(agent_name, game=game, seed=0)
    table.reset(seed=0)
    decide(agent, env, table.to_act)  # a first decision starts what compiles in the background
    wait_all()  # and the timing waits for the compiled paths
    times, widths = [], []
    for deal, moves in points:
        table.reset(seed=deal)
        rng = random.Random(deal)
        for _ in range(moves):
            legal = env.game.legal_actions(env.state)
            table.play(rng.choice(legal))
            if table.finished:
                table.reset(seed=deal)  # an episode shorter than the moves: time its first decision
                break
        seat = table.to_act
        widths.append(len(env.game.legal_actions(env.state)))
        started = time.perf_counter()
        decide(agent, env, seat)
        times.append((time.perf_counter() - started) * 1000)
    return times, statistics.fmean(widths)


def main(
    decisions: Annotated[int, typer.Option(min=1, help="Decisions timed per agent and game.")] = 30,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the moves between decisions.")] = 0,
    agents: Annotated[str, typer.Option(help="Comma-separated agents to time.")] = "pimc,ismcts",
    only: Annotated[list[str] | None, typer.Option(help="Only these games (repeatable).")] = None,
) -> None:
    games = [
        entry.name
        for entry in registered()
        if entry.module.startswith("cardarena.") and (not only or entry.name in only)
    ]
    table = TextTable(
        title=f"search agents, ms per decision at the default table ({decisions} decisions each, seed {seed})"
    )
    for column in ("game", "agent", "median ms", "mean ms", "legal actions (mean)"):
        table.add_column(column, justify="left" if column in ("game", "agent") else "right")
    for game in games:
        points = decision_points(game, decisions, seed)
        for name in agents.split(","):
            times, width = time_decisions(game, name, points)
            table.add_row(
                game, name, f"{statistics.median(times):.1f}", f"{statistics.fmean(times):.1f}", f"{width:.1f}"
            )
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
