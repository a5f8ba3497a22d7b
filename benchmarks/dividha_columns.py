"""Dividha's two columns in play: how each agent splits its chips and where it wins them.

    python benchmarks/dividha_columns.py --agents ppo-selfplay,heuristic [--hands 10000] [--seed 0]
                                          [--table-size 4]

Plays duplicate-dealt hands (`cardarena eval`'s deals: every deal in every seat rotation; seat i
gets agent i mod the number of agents) and reads each hand's history. Per agent:
- its decisions that carry a split (calls, bets and raises; paid trades) by split: WIN, EVEN, LOSE;
- the share of its hands it won uncontested (every other seat folded: it takes both columns);
- the share of its hands that reached a contested showdown with it, and of those the share in
  which a column paid it more than it staked there: the Win column (its hand was the best) and
  the Lose column (its hand was the worst, R21);
- the chips per hand each column nets it, all hands (received from the column minus staked in
  it; antes included).

A column's payout is the core settlement of that column alone, as the game settles it (6.6):
stakes layered by contribution, the Win column to the best hand, the Lose column to the worst,
keys from the hand's result event; a seat left alone when the others fold takes both.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import typer
from cardarena.agents import load
from cardarena.envs.core import settlement
from cardarena.envs.dividha.actions import SPLITS
from cardarena.envs.dividha.game import DividhaConfig
from cardarena.training.evaluate import evaluate, seat_names
from rich.console import Console
from rich.table import Table

GAME = "dividha"


def column_nets(result: dict[str, Any]) -> dict[str, list[int]]:
    """Chips each seat nets from the Win and from the Lose column of one settled hand (forfeits aside)."""
    n = len(result["win"])
    folded = [seat in result["folded"] for seat in range(n)]
    live = [seat for seat in range(n) if not folded[seat]]
    keys: list[Any] = [None] * n
    for seat in live:
        shown = result["shown"].get(str(seat))
        keys[seat] = 0 if shown is None else (*shown["key"][:4], tuple(shown["key"][4]))
    first_seat = (result["dealer"] + 1) % n
    nets = {}
    for column, pick in (("win", "best"), ("lose", "worst")):
        stakes = result[column]
        paid = settlement.settle(stakes, folded, keys, first_seat, pick=pick, rest_apart=True).payouts
        nets[column] = [int(received) - staked for received, staked in zip(paid, stakes, strict=True)]
    return nets


class Tally:
    """Splits chosen and column gains per agent name, over every seat it held."""

    def __init__(self) -> None:
        self.splits: dict[str, Counter[str]] = defaultdict(Counter)
        self.hands: Counter[str] = Counter()
        self.uncontested: Counter[str] = Counter()  # hands won with every other seat folded
        self.showdowns: Counter[str] = Counter()  # contested showdowns reached
        self.profits: dict[str, Counter[str]] = defaultdict(Counter)  # per column, at those showdowns
        self.chips: dict[str, Counter[str]] = defaultdict(Counter)

    def add(self, env: Any, names: list[str]) -> None:
        for event in env.history():
            if event["kind"] == "action":
                split = _split_of(event)
                if split:
                    self.splits[names[event["seat"]]][split] += 1
            elif event["kind"] == "result":
                self._add_result(event, names)

    def _add_result(self, result: dict[str, Any], names: list[str]) -> None:
        nets = column_nets(result)
        contested = len(result["shown"]) > 1
        for seat, name in enumerate(names):
            self.hands[name] += 1
            live = seat not in result["folded"]
            self.uncontested[name] += live and not contested
            self.showdowns[name] += live and contested
            for column in ("win", "lose"):
                net = nets[column][seat]
                self.chips[name][column] += net
                self.profits[name][column] += live and contested and net > 0


def _split_of(event: dict[str, Any]) -> str | None:
    """The split of a logged action: the last word in its private label's parentheses."""
    label = event.get("private", {}).get("label", "")
    words = label.partition(" (")[2].rstrip(")").split()
    return next((word.upper() for word in reversed(words) if word.upper() in SPLITS), None)


def main(
    agents: str = typer.Option(..., help="Comma-separated agents cycled over the seats, e.g. ppo-selfplay,heuristic."),
    hands: int = typer.Option(10_000, min=1, help="Hands to play (whole seat rotations of each deal)."),
    seed: int = typer.Option(0, help="Seed of the deals."),
    table_size: int = typer.Option(DividhaConfig().num_players, help="Seats at the table."),
) -> None:
    names = seat_names(GAME, agents.split(","), table_size)
    seated = [(name, load(name, game=GAME, seed=seed)) for name in names]
    tally = Tally()
    evaluate(GAME, seated, hands, seed=seed, config={"num_players": table_size}, on_played=tally.add)
    table = Table(title=f"dividha_v1, {table_size} seats, {hands:,} hands (seed {seed})")
    headers = (
        "agent",
        "WIN",
        "EVEN",
        "LOSE",
        "hands",
        "won uncontested",
        "showdowns",
        "Win profit at showdown",
        "Lose profit at showdown",
        "Win chips/hand",
        "Lose chips/hand",
    )
    for column in headers:
        table.add_column(column, justify="left" if column == "agent" else "right")
    for name in dict.fromkeys(names):
        splits, played = tally.splits[name], tally.hands[name]
        total = sum(splits.values()) or 1
        table.add_row(
            name,
            *(f"{splits[split]:,} ({splits[split] / total:.0%})" for split in SPLITS),
            f"{played:,}",
            f"{tally.uncontested[name] / played:.1%}",
            f"{tally.showdowns[name] / played:.1%}",
            *(f"{tally.profits[name][column] / max(tally.showdowns[name], 1):.1%}" for column in ("win", "lose")),
            *(f"{tally.chips[name][column] / played:+.2f}" for column in ("win", "lose")),
        )
    Console(width=180).print(table)


if __name__ == "__main__":
    typer.run(main)
