"""Soak: random play of every registered game and mode over many hands, counting what breaks.

    python benchmarks/soak.py [--hands 100000] [--game yokir_v1 --game ...] [--seed 0] [--markdown]

For each registered environment and each mode its game declares (`Game.conformance_modes`),
episodes are played with uniformly random legal actions at its smallest, default and largest
table in turn (`cardarena.envs.core.conformance.modes`) until `--hands` hands are done. Each
episode runs the conformance invariants of `cardarena.envs.core.conformance.play_random_episode`
at every decision: the action mask is the legal set, cards (and chips, where the game has chips)
are conserved (`Game.conserved`), the episode ends within `Game.max_decisions`, the rewards paid
add up to the returns and the returns sum as the game says (`Game.returns_total`).

Columns: hands and decisions played; exceptions (episodes that raised; the first traceback of
each row is printed after the table); card and chip conservation failures ("-": the game has no
chips); other broken invariants (mask, bound, rewards, returns, end); seconds of wall time.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

import typer
from cardarena.envs import GAMES, make
from cardarena.envs.core.conformance import modes, play_random_episode
from rich.console import Console
from rich.table import Table

from cardarena.terminal import progress_bar

CONSERVED = ("cards", "chips")


@dataclass
class Row:
    """One game and mode's totals."""

    env_id: str
    mode: dict
    hands: int = 0
    decisions: int = 0
    exceptions: int = 0
    broken: dict[str, int] = field(default_factory=dict)
    conserves: set[str] = field(default_factory=set)
    seconds: float = 0.0
    first_traceback: str = ""

    @property
    def cells(self) -> list[str]:
        conserved = [str(self.broken.get(name, 0)) if name in self.conserves else "-" for name in CONSERVED]
        other = sum(n for name, n in self.broken.items() if name not in CONSERVED)
        mode = " ".join(f"{key}={value}" for key, value in self.mode.items()) or "default"
        return [
            self.env_id,
            mode,
            f"{self.hands:,}",
            f"{self.decisions:,}",
            str(self.exceptions),
            *conserved,
            str(other),
            f"{self.seconds:.1f}",
        ]


HEADERS = ["game", "mode", "hands", "decisions", "exceptions", "cards", "chips", "other", "seconds"]


def soak(row: Row, sizes: list[int], hands: int, seed: int, advance) -> None:
    """Play episodes of one game and mode, table sizes in turn, until `hands` hands are done."""
    start, episode = time.perf_counter(), 0
    game = make(row.env_id, **row.mode).game
    row.conserves = set(game.conserved(game.new_state(seed)))
    while row.hands < hands:
        env = make(row.env_id, num_players=sizes[episode % len(sizes)], **row.mode)
        advance(_episode(row, env, seed + episode))
        episode += 1
    row.seconds = time.perf_counter() - start


def _episode(row: Row, env, seed: int) -> int:
    """Play one episode into `row`; the hands it finished."""
    try:
        report = play_random_episode(env, seed)
    except Exception:
        row.exceptions += 1
        row.first_traceback = row.first_traceback or f"{row.env_id} {row.mode} seed {seed}:\n{traceback.format_exc()}"
        done = max(env.game.hands_played(env.state), 1)
        row.hands += done
        return done
    for invariant, _message in report.broken:
        row.broken[invariant] = row.broken.get(invariant, 0) + 1
    done = max(report.hands, 1)
    row.hands += done
    row.decisions += report.decisions
    return done


def main(
    hands: int = typer.Option(10_000, min=1, help="Hands per game and mode."),
    game: list[str] = typer.Option(None, help="Registered env ids to soak (default: every one)."),
    seed: int = typer.Option(0, help="Seed of the first episode; episode k of a row uses seed + k."),
    markdown: bool = typer.Option(False, help="Print the table as Markdown, each row as soon as it is done."),
) -> None:
    console = Console()
    rows = []
    if markdown:
        _print_markdown(HEADERS, ["---"] * len(HEADERS))
    with progress_bar(console) as progress:
        for env_id in game or GAMES:
            for mode, sizes in modes(env_id):
                row = Row(env_id, mode)
                task = progress.add_task(f"{env_id} {mode or ''}", total=hands)
                soak(row, sizes, hands, seed, lambda done, task=task: progress.advance(task, done))
                rows.append(row)
                if markdown:
                    _print_markdown(row.cells)
    if not markdown:
        table = Table(*HEADERS, title="Soak: random play, invariants checked at every decision")
        for row in rows:
            table.add_row(*row.cells)
        console.print(table)
    for row in rows:
        if row.first_traceback:
            console.print(row.first_traceback)


def _print_markdown(*lines: list[str]) -> None:
    for cells in lines:
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    typer.run(main)
