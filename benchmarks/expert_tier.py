"""Each game's search tier against its shipped bot, and its time per decision in those games.

    python benchmarks/expert_tier.py [--episodes 300] [--seed 0] [--only dividha] [--agent expert:iterations=48]

One seat of `GAME/expert` (or `--agent`, a name within the game) against the guide's shipped bot
in every other seat at the game's default table, duplicate deals (`training.evaluate.evaluate`,
as `cardarena eval GAME --agents expert,ppo-selfplay,...` plays them): the tier's mean reward a
hand with its 95% CI, and the mean and median milliseconds of its decisions with more than one
legal action (a decision with one is answered at once and is not counted): wall time, and the
mean CPU time of the process (what a decision costs one core, however busy the machine is with
other work). `--json` writes the rows.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Annotated, Any

import typer
from cardarena.agents import load
from cardarena.agents.expert import TIERS, parse_expert_name
from cardarena.envs import lookup, make
from cardarena.training.evaluate import evaluate
from rich.console import Console
from rich.table import Table as TextTable


class Timed:
    """An agent that searches at the table, with the milliseconds of each decision it had to weigh."""

    def __init__(self, agent: Any):
        self.agent, self.name = agent, agent.name
        self.times: list[float] = []
        self.cpu_times: list[float] = []

    def act_in(self, env: Any, seat: int) -> int:
        started, cpu_started = time.perf_counter(), time.process_time()
        action = self.agent.act_in(env, seat)
        if len(env.game.legal_actions(env.state)) > 1:
            self.times.append((time.perf_counter() - started) * 1000)
            self.cpu_times.append((time.process_time() - cpu_started) * 1000)
        return action

    def reset(self) -> None:
        self.agent.reset()


def measure(game: str, name: str, episodes: int, seed: int) -> dict[str, Any]:
    """The row of `name` (a search tier of `game`) against the game's guide bot."""
    parsed = parse_expert_name(name, game)
    if parsed is None:
        raise typer.BadParameter(f"{name!r} names no search tier of {game}")
    guide = f"{game}/{parsed[1].guide}"
    seats = len(make(lookup(game).env_id).possible_agents)
    searcher = Timed(load(name, game=game, seed=seed))
    started = time.perf_counter()
    result = evaluate(game, [(name, searcher)] + [(guide, load(guide, game=game))] * (seats - 1), episodes, seed)
    score = result.score_of(name)
    return {
        "game": game,
        "agent": name,
        "seats": seats,
        "hands": episodes,
        "mean": score.mean,
        "ci95": [score.low, score.high],
        "ms_mean": statistics.fmean(searcher.times),
        "ms_median": statistics.median(searcher.times),
        "cpu_ms_mean": statistics.fmean(searcher.cpu_times),
        "decisions": len(searcher.times),
        "minutes": (time.perf_counter() - started) / 60,
    }


def main(
    episodes: Annotated[int, typer.Option(min=1, help="Hands per game (seats rotate over duplicate deals).")] = 300,
    seed: Annotated[int, typer.Option(help="Seed of the deals and of the search.")] = 0,
    only: Annotated[list[str] | None, typer.Option(help="Only these games (repeatable).")] = None,
    agent: Annotated[str, typer.Option(help="The search tier, named within the game.")] = "expert",
    json_path: Annotated[str | None, typer.Option("--json", help="Write the rows as JSON to this file.")] = None,
) -> None:
    rows = []
    table = TextTable(title=f"{agent} vs the shipped bot in every other seat ({episodes} hands a game, seed {seed})")
    for column in ("game", "seats", "hands", "mean", "95% CI", "ms mean", "ms median", "CPU ms mean", "minutes"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for game in [name for name in TIERS if not only or name in only]:
        row = measure(game, agent if "/" in agent else f"{game}/{agent}", episodes, seed)
        rows.append(row)
        low, high = row["ci95"]
        table.add_row(
            game,
            str(row["seats"]),
            str(row["hands"]),
            f"{row['mean']:+.4f}",
            f"[{low:+.4f}, {high:+.4f}]",
            f"{row['ms_mean']:.1f}",
            f"{row['ms_median']:.1f}",
            f"{row['cpu_ms_mean']:.1f}",
            f"{row['minutes']:.1f}",
        )
        if json_path:
            with open(json_path, "w", encoding="utf-8") as out:
                json.dump(rows, out, indent=1)
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
