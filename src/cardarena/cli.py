"""The `cardarena` command line: games, play, eval.

Heavy imports (torch, SB3) stay inside the commands that need them, so `--help`, `games`
and `play` start fast.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
import yaml
from rich.console import Console
from rich.table import Table

from cardarena.envs.core.errors import CardArenaError

app = typer.Typer(help="cardarena: card-game environments, bots and tournaments.", no_args_is_help=True)
console = Console()

SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Game config override KEY=VALUE (repeatable), e.g. --set match=true."),
]


def _parse_settings(settings: list[str] | None) -> dict[str, Any]:
    """KEY=VALUE pairs with YAML-typed values (true, 3, null, relative)."""
    config: dict[str, Any] = {}
    for item in settings or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--set")
        config[key.strip()] = yaml.safe_load(value)
    return config


def _fail(err: Exception) -> None:
    console.print(f"[bold red]error:[/] {err}")
    raise typer.Exit(code=2)


@app.command()
def games() -> None:
    """List the registered games: version, player counts and config settings."""
    from cardarena.envs import registered

    table = Table(title="cardarena games")
    for column in ("game", "env id", "players", "settings (default)"):
        table.add_column(column)
    for entry in registered():
        counts = entry.player_counts
        players = str(counts.start) if len(counts) == 1 else f"{counts.start}-{counts.stop - 1}"
        settings = ", ".join(f"{key}={default!r}" for key, _, default in entry.variants)
        table.add_row(entry.name, entry.env_id, players, settings)
    console.print(table)


@app.command(name="eval")
def evaluate_command(
    game: Annotated[str, typer.Argument(help="Game name, e.g. yokir or yokir_v1.")],
    agents: Annotated[
        str | None,
        typer.Option(help="Comma-separated agent per seat, e.g. heuristic,random,random (default: the game's heuristic against random)."),
    ] = None,
    episodes: Annotated[int, typer.Option(min=1, help="Episodes to play (seats rotate over duplicate deals).")] = 3000,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 0,
    settings: SetOption = None,
    json_out: Annotated[str | None, typer.Option("--json", help="Write the results as JSON to this file.")] = None,
) -> None:
    """Play a tournament and print mean reward per agent with 95% confidence intervals."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from cardarena.agents import load
    from cardarena.envs import lookup
    from cardarena.training.evaluate import evaluate

    try:
        config = _parse_settings(settings)
        entry = lookup(game)
        num_seats = entry.env_cls(**config).game.num_players
        names = agents.split(",") if agents else ["heuristic"] + ["random"] * (num_seats - 1)
        seated = [(name, load(name, game=entry.name, seed=seed + seat)) for seat, name in enumerate(names)]
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(f"{entry.env_id} eval", total=episodes)
            result = evaluate(entry.env_id, seated, episodes, seed, config, lambda done: progress.update(task, completed=done))
    except (CardArenaError, ValueError) as err:
        _fail(err)
    _print_result(result)
    if json_out:
        _write_json(result, json_out)


def _print_result(result) -> None:
    table = Table(title=f"{result.game}: {result.episodes} episodes, duplicate deals, seats rotated (seed {result.seed})")
    for column in ("agent", "mean reward", "95% CI", "deals"):
        table.add_column(column, justify="right" if column != "agent" else "left")
    for score in sorted(result.scores, key=lambda s: -s.mean):
        table.add_row(score.name, f"{score.mean:+.4f}", f"[{score.low:+.4f}, {score.high:+.4f}]", str(score.deals))
    console.print(table)


def _write_json(result, path: str) -> None:
    import dataclasses
    import json

    with open(path, "w") as handle:
        json.dump(dataclasses.asdict(result), handle, indent=2)
    console.print(f"results written to {path}")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game name, e.g. yokir.")],
    seat: Annotated[int, typer.Option(help="Your seat (0-based).")] = 0,
    opponents: Annotated[str | None, typer.Option(help="Comma-separated agents for the other seats (default: the game's heuristic).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the deal (default: random).")] = None,
    settings: SetOption = None,
) -> None:
    """Play one seat yourself in the terminal against agents. Type an action id or its label."""
    from cardarena.agents import load
    from cardarena.envs import lookup

    try:
        config = _parse_settings(settings)
        entry = lookup(game)
        env = entry.env_cls(**config)
        num_seats = env.game.num_players
        if not 0 <= seat < num_seats:
            raise ValueError(f"seat must be 0..{num_seats - 1}, got {seat}")
        names = opponents.split(",") if opponents else ["heuristic"] * (num_seats - 1)
        if len(names) != num_seats - 1:
            raise ValueError(f"{entry.env_id} needs {num_seats - 1} opponents here, got {len(names)}: {names}")
        bots = iter(load(name, game=entry.name) for name in names)
        seated = {s: None if s == seat else next(bots) for s in range(num_seats)}
    except (CardArenaError, ValueError) as err:
        _fail(err)
    env.reset(seed=seed)
    you = env.possible_agents[seat]
    your_reward = 0.0
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        player = seated[env.possible_agents.index(agent)]
        if player is None:
            console.print(env.render(seat=seat), highlight=False)
            env.step(_ask_action(env, you))
        else:
            action = player.act(observation)
            console.print(f"[dim]{agent}: {env.action_label(action)}[/]")
            env.step(action)
        your_reward += env.rewards.get(you, 0.0)
    console.print(env.render(seat=seat), highlight=False)
    console.print(f"[bold]your reward: {your_reward:+.3f}[/]")


def _ask_action(env, agent: str) -> int:
    """Prompt until the person types a legal action id or label."""
    legal = env.observe_json(agent)["legal_actions"]
    by_text = {str(a["id"]): a["id"] for a in legal} | {a["label"].lower(): a["id"] for a in legal}
    by_text |= {a["label"].split()[-1].lower(): a["id"] for a in legal if len(a["label"].split()) > 1}
    menu = "  ".join(f"[{a['id']}] {a['label']}" for a in legal)
    while True:
        console.print(f"your move: {menu}", highlight=False)
        answer = typer.prompt(">", prompt_suffix=" ").strip().lower()
        if answer in by_text:
            return by_text[answer]
        console.print(f"[red]{answer!r} is not a legal move here; type one of the ids or labels above[/]")
