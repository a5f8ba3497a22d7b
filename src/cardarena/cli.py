"""The `cardarena` command line: games, play, watch, replay, eval, train, serve, bot.

Imports stay inside the commands that need them (games register lazily, torch and SB3 load only
to train or read a checkpoint), so `--help` loads no game, numpy or torch, and `games` and `play`
start fast.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardarena.envs.core.errors import CardArenaError
from cardarena.files import write_text_atomically

if TYPE_CHECKING:
    from pathlib import Path

    from cardarena.envs.core.registry import GameEntry
    from cardarena.training.resumable import EvalState
    from cardarena.training.tournament import Backend
    from cardarena.training.train import ResumePoint

# plain help: typer's rich help formatter alone costs about 0.1 s at every start
app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)
console = Console()


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        console.print(f"cardarena {version('cardarena')}", highlight=False)
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the package version and exit."),
    ] = False,
) -> None:
    """cardarena: card-game environments, bots and tournaments."""


SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Game config override KEY=VALUE (repeatable), e.g. --set match=true."),
]


class BackendName(StrEnum):
    local = "local"
    ray = "ray"


BackendOption = Annotated[
    BackendName,
    typer.Option(
        "--backend", help="Where episodes are played: local (this machine) or ray (a Ray cluster, docs/scaling.md)."
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        help="With --backend ray: the cluster's head as HOST:PORT, or auto for the one `ray start` runs here "
        "(default: start Ray on this machine)."
    ),
]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        min=1, help="With --backend ray: Ray workers at once, one CPU each (default: one per CPU of the cluster)."
    ),
]
TournamentWorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help="Workers playing the deals at once, one CPU each: processes of this machine with --backend local "
        "(default 1, this process), Ray workers with --backend ray (default: one per CPU of the cluster). "
        "The numbers are the same either way.",
    ),
]


def _ray_workers(backend: BackendName, address: str | None, workers: int | None) -> int | None:
    """The number of Ray workers for --backend ray (joining the cluster), None for local; --address
    and --workers only go with --backend ray."""
    if backend is BackendName.local:
        if address is not None or workers is not None:
            raise ValueError("--address and --workers are options of --backend ray; add --backend ray or drop them")
        return None
    from cardarena.training.cluster import connect

    return connect(address, workers)


def _tournament_backend(backend: BackendName, address: str | None, workers: int | None):
    """The backend that plays tournament chunks: this process, `workers` spawned processes of this
    machine (--backend local --workers N), or Ray actors (--backend ray, joining the cluster)."""
    from cardarena.training.tournament import LocalBackend, ProcessBackend

    if backend is BackendName.local:
        if address is not None:
            raise ValueError("--address is an option of --backend ray; add --backend ray or drop it")
        return LocalBackend() if workers in (None, 1) else ProcessBackend(workers)
    from cardarena.training.cluster import RayBackend, connect

    return RayBackend(connect(address, workers))


def _parse_settings(settings: list[str] | None) -> dict[str, Any]:
    """KEY=VALUE pairs with YAML-typed values (true, 3, null, relative)."""
    import yaml

    config: dict[str, Any] = {}
    for item in settings or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--set")
        config[key.strip()] = yaml.safe_load(value)
    return config


def _fail(err: Exception | str) -> None:
    from rich.markup import escape

    console.print(f"[bold red]error:[/] {escape(str(err))}", soft_wrap=True, highlight=False)
    raise typer.Exit(code=2)


def _check_writable(path: str, option: str, *, folder: bool = False) -> None:
    """Refuse, before a long command starts, an output it could not write at its end.

    A file needs an existing folder it can write in; a folder is created with its parents, so
    its nearest existing ancestor must be a folder it can write in.
    """
    import tempfile
    from pathlib import Path

    target = Path(path)
    if target.exists() and target.is_dir() != folder:
        raise typer.BadParameter(f"{path} exists and is not a {'folder' if folder else 'file'}", param_hint=option)
    where = target if folder else target.parent
    while folder and not where.exists():
        where = where.parent
    if not where.is_dir():
        kind = "is not a folder" if where.exists() else "does not exist"
        raise typer.BadParameter(f"cannot write {path}: {where} {kind}", param_hint=option)
    try:
        with tempfile.TemporaryFile(dir=where):
            pass
    except OSError as err:
        raise typer.BadParameter(
            f"cannot write {path}: the folder {where} is not writable ({err.strerror})", param_hint=option
        ) from None


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
        settings = ", ".join(f"{key}={default!r}" for key, default in entry.setting_defaults.items())
        table.add_row(entry.name, entry.env_id, players, settings)
    console.print(table)


@app.command(name="eval")
def evaluate_command(
    game: Annotated[str, typer.Argument(help="A registered game (see `cardarena games`), by name or env id.")],
    agents: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated agent per seat, e.g. heuristic,random,random "
            "(default: the game's first registered agent against random)."
        ),
    ] = None,
    table_sizes: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated table sizes, e.g. 3,4,5: one tournament per size, the agents cycled over the seats "
            "(seat i gets agent i mod the number of agents). Default: the game's table size, one agent per seat."
        ),
    ] = None,
    episodes: Annotated[
        int, typer.Option(min=1, help="Episodes to play per table size (seats rotate over duplicate deals).")
    ] = 3000,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 0,
    settings: SetOption = None,
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json", help='Write the results as JSON to this file (with --table-sizes: {"results": [one per size]}).'
        ),
    ] = None,
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            help="Write every episode's hands to this folder, one JSON-lines file per table size (<env id>-<n>p.jsonl, "
            "one hand per line), for `cardarena replay`.",
        ),
    ] = None,
    backend: BackendOption = BackendName.local,
    address: AddressOption = None,
    workers: TournamentWorkersOption = None,
    state: Annotated[
        str | None,
        typer.Option(
            help="A resumable state file: every finished chunk of deals (200 deals) is saved to it, and a rerun "
            "with the same settings plays only the chunks it lacks. The results are those of an unbroken run.",
        ),
    ] = None,
) -> None:
    """Play a tournament: mean reward per agent with its 95% confidence interval, win rate, and a
    Bradley-Terry rating fitted on reward margins over duplicate deals. The deals are played in
    seeded chunks, so --backend ray gives the local backend's numbers for the same seed, and a
    stopped run given --state resumes where it stopped."""
    from pathlib import Path

    from cardarena.envs import lookup
    from cardarena.training.resumable import EvalSettings, EvalState
    from cardarena.training.tournament import Tournament, check_agents

    if json_out:
        _check_writable(json_out, "--json")
    if record:
        _check_writable(record, "--record", folder=True)
    if state:
        with contextlib.suppress(OSError):  # an unwritable folder is named just below
            Path(state).parent.mkdir(parents=True, exist_ok=True)
        _check_writable(state, "--state")
    try:
        if record and (backend is BackendName.ray or (workers or 1) > 1):
            raise ValueError(
                "--record writes hands as this process plays them: use it with --backend local and one worker"
            )
        if record and state:
            raise ValueError(
                "--record writes every hand as it is played, so a resumed run would miss some: drop --state"
            )
        config = _parse_settings(settings)
        entry = lookup(game)
        names = agents.split(",") if agents else None
        tables = _eval_tables(entry, names, table_sizes, config)
        tournaments = [
            Tournament(entry.env_id, seat_names, episodes, seed, table_config) for table_config, seat_names in tables
        ]
        check_agents(tournaments)
        savers: list[_EvalSaver | None] = [None] * len(tournaments)
        if state:
            resumed = EvalState.resumed(_read_state(Path(state), "an evaluation"), EvalSettings.of(tournaments), state)
            savers = [_EvalSaver(resumed, position, state) for position in range(len(tournaments))]
        players = _tournament_backend(backend, address, workers)
        results = [
            _run_tournament(tournament, players, record, saver)
            for tournament, saver in zip(tournaments, savers, strict=True)
        ]
    except (CardArenaError, ValueError, NotImplementedError) as err:
        _fail(err)
    for result in results:
        _print_result(result)
    _print_legend()
    if json_out:
        _write_json(results if table_sizes else results[0], json_out)


def _eval_tables(
    entry, names: list[str] | None, table_sizes: str | None, config: dict[str, Any]
) -> list[tuple[dict[str, Any], list[str]]]:
    """(config, agent per seat) of each table to evaluate; every size is checked before any is played."""
    from cardarena.training.evaluate import seat_names

    if table_sizes is None:
        num_seats = entry.env_cls(**config).game.num_players
        names = names or _default_lineup(entry.name, num_seats)
        if len(names) != num_seats:
            raise ValueError(
                f"{entry.env_id} is played by {num_seats} seats here, but {len(names)} agents were given; "
                "use --table-sizes to cycle fewer agents over the seats"
            )
        return [(config, names)]
    if "num_players" in config:
        raise ValueError("give the table size with --table-sizes or with --set num_players, not both")
    sizes = _table_sizes(table_sizes)
    return [
        ({**config, "num_players": size}, seat_names(entry.env_id, names or _default_lineup(entry.name, size), size))
        for size in sizes
    ]


def _default_lineup(game: str, num_seats: int) -> list[str]:
    """The game's default opponent (its first registered agent, else random) against random."""
    from cardarena.agents.loading import RANDOM, default_opponent

    return [default_opponent(game)] + [RANDOM] * (num_seats - 1)


class _EvalSaver:
    """Keeps the chunks of one table of an evaluation state (`EvalState`): those played before, and each
    one played now, the whole state written atomically to its file after every chunk."""

    def __init__(self, state: EvalState, table: int, path: str):
        self.state, self.table, self.path = state, table, path

    def kept(self) -> dict[tuple[int, int], Any]:
        return self.state.kept(self.table)

    def __call__(self, key: tuple[int, int], tally: Any) -> None:
        import json

        self.state.chunks[(self.table, key[1])] = tally
        try:
            write_text_atomically(self.path, json.dumps(self.state.to_dict(), allow_nan=False))
        except OSError as err:
            raise ValueError(f"the finished chunks could not be saved to {self.path}: {err}") from None


def _run_tournament(tournament, backend, record: str | None = None, saver: _EvalSaver | None = None):
    """The tournament's result; with `record`, every episode's hands written to a file in that folder
    (as the local backend plays them); with `saver`, the chunks it kept are not played again, and
    every chunk played is saved."""
    from pathlib import Path

    from cardarena.records import SUFFIX, RecordWriter
    from cardarena.training.tournament import LocalBackend

    label = f"{tournament.env_id} eval, {len(tournament.names)} players"
    if not record:
        return _play_tournaments([tournament], backend, label, saver)[0][0]
    path = Path(record) / f"{tournament.env_id}-{len(tournament.names)}p{SUFFIX}"
    path.parent.mkdir(parents=True, exist_ok=True)
    with RecordWriter(path) as writer:
        recording = LocalBackend(lambda env, names: writer.add_episode(env, seats=names))
        result = _play_tournaments([tournament], recording, label)[0][0]
    console.print(f"{result.episodes} episodes' hands written to {path}", highlight=False)
    return result


def _play_tournaments(tournaments, backend, label: str, saver: _EvalSaver | None = None):
    """`run_tournaments` under a progress bar counting every tournament's episodes; `saver`: see `_run_tournament`."""
    from cardarena.terminal import progress_bar
    from cardarena.training.tournament import run_tournaments

    with progress_bar(console, transient=True) as progress:
        task = progress.add_task(label, total=sum(tournament.episodes for tournament in tournaments))
        kept, on_chunk = (saver.kept(), saver) if saver else (None, None)
        return run_tournaments(
            tournaments, backend, lambda done: progress.advance(task, done), kept=kept, on_chunk=on_chunk
        )


def _print_result(result) -> None:
    title = (
        f"{result.env_id}, {result.num_players} players: {result.episodes} episodes on "
        f"{result.scores[0].deals} duplicate deals, seats rotated (seed {result.seed})"
    )
    table = Table(title=title)
    for column in ("agent", "mean reward [95% CI]", "win rate", "rating mu ± sigma"):
        table.add_column(column, justify="right" if column != "agent" else "left")
    for score in sorted(result.scores, key=lambda s: -s.mean):
        interval = f"{score.mean:+.3f} [{score.low:+.3f}, {score.high:+.3f}]"
        table.add_row(score.name, interval, f"{score.win_rate:.3f}", f"{score.mu:.0f} ± {score.sigma:.0f}")
    console.print(table)


def _print_legend() -> None:
    """What each column of the eval table measures (the definitions its JSON carries too)."""
    from cardarena.training.evaluate import LEGEND

    for key, meaning in LEGEND.items():
        console.print(f"[bold]{key}[/]: {meaning}", style="dim", highlight=False)


def _write_json(results, path: str) -> None:
    """One EvalResult as its dict, or a list of them as {"results": [...]}."""
    _write_payload(
        {"results": [result.to_dict() for result in results]} if isinstance(results, list) else results.to_dict(), path
    )


def _write_payload(payload: dict[str, Any], path: str) -> None:
    """A JSON document written atomically to `path`; an error names the file."""
    import json

    try:
        write_text_atomically(path, json.dumps(payload, indent=2, allow_nan=False))
    except OSError as err:
        _fail(f"the results above could not be written to {path}: {err}")
    console.print(f"results written to {path}")


@app.command()
def league(
    game: Annotated[str, typer.Argument(help="A registered game (see `cardarena games`), by name or env id.")],
    agents: Annotated[
        str, typer.Option(help="Comma-separated agents, at least two, e.g. ppo-selfplay,heuristic,random.")
    ],
    table_sizes: Annotated[
        str | None,
        typer.Option(help="Comma-separated table sizes (default: every size the game seats)."),
    ] = None,
    episodes: Annotated[int, typer.Option(min=1, help="Episodes per table (seats rotate over duplicate deals).")] = 600,
    seed: Annotated[int, typer.Option(help="Seed of the deals (every table plays the same deals).")] = 0,
    settings: SetOption = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write every table's results and the standings as JSON to this file.")
    ] = None,
    backend: BackendOption = BackendName.local,
    address: AddressOption = None,
    workers: TournamentWorkersOption = None,
) -> None:
    """Round robin: every agent against every other at every table size (all of them cycled over
    the seats, or each group of as many as the table seats), then one rating over every table."""
    from cardarena.envs import lookup
    from cardarena.training.league import LEAGUE_RATING_MODEL, league_standings, league_tables
    from cardarena.training.tournament import Tournament, check_agents

    if json_out:
        _check_writable(json_out, "--json")
    try:
        config = _parse_settings(settings)
        if "num_players" in config:
            raise ValueError("a league plays every table size; choose them with --table-sizes, not --set num_players")
        entry = lookup(game)
        names = agents.split(",")
        tables = league_tables(entry.env_id, names, _table_sizes(table_sizes) if table_sizes is not None else None)
        tournaments = [
            Tournament(entry.env_id, seating, episodes, seed, {**config, "num_players": len(seating)})
            for seating in tables
        ]
        check_agents(tournaments)
        players = _tournament_backend(backend, address, workers)
        played = _play_tournaments(tournaments, players, f"{entry.env_id} league, {len(tournaments)} tables")
    except (CardArenaError, ValueError, NotImplementedError) as err:
        _fail(err)
    for result, _ in played:
        _print_result(result)
    standings = league_standings(names, played)
    _print_standings(f"{entry.env_id} league: {len(played)} tables, {episodes} episodes each (seed {seed})", standings)
    _print_legend()
    if json_out:
        league_report = {"game": entry.name, "env_id": entry.env_id, "seed": seed, "rating_model": LEAGUE_RATING_MODEL}
        league_report |= {
            "standings": [s.to_dict() for s in standings],
            "results": [result.to_dict() for result, _ in played],
        }
        _write_payload(league_report, json_out)


def _print_standings(title: str, standings) -> None:
    """League standings, strongest first: rating, ordinal, tables and deals."""
    table = Table(title=title)
    for column in ("agent", "rating mu ± sigma", "ordinal", "tables", "deals"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for standing in sorted(standings, key=lambda s: -s.mu):
        table.add_row(
            standing.name,
            f"{standing.mu:.0f} ± {standing.sigma:.0f}",
            f"{standing.ordinal:.0f}",
            str(standing.tables),
            str(standing.deals),
        )
    console.print(table)


@app.command()
def ladder(
    game: Annotated[
        str,
        typer.Argument(
            help="A registered game (see `cardarena games`), by name or env id, or `all`: every registered game's "
            "ladder in turn, each resuming from its own state file runs/ladder-GAME.json."
        ),
    ],
    agents: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated agents replacing the default roster (random, the game's heuristics, pimc, ismcts, "
            "pimc:rollout=heuristic, its shipped bots and GAME/expert when there is one)."
        ),
    ] = None,
    add: Annotated[
        str | None,
        typer.Option(help="Comma-separated agents added to the roster: names, checkpoint folders or module:callable."),
    ] = None,
    deals: Annotated[
        int, typer.Option(min=1, help="Duplicate deals per pairing (each played in every rotation).")
    ] = 50,
    seed: Annotated[int, typer.Option(help="Seed of the deals (every pairing plays the same deals).")] = 0,
    settings: SetOption = None,
    state: Annotated[
        str | None,
        typer.Option(help="The resumable state file: finished pairings (default: runs/ladder-GAME.json)."),
    ] = None,
    docs: Annotated[str, typer.Option(help="The Markdown file whose GAME section gets the ladder.")] = "docs/ladder.md",
    readme: Annotated[str, typer.Option(help="The file whose top-three block is rebuilt from --docs.")] = "README.md",
    backend: BackendOption = BackendName.local,
    address: AddressOption = None,
    workers: TournamentWorkersOption = None,
) -> None:
    """Every agent of a roster against every other at the game's default table (one seat against
    the other seats, duplicate deals), rated together; written to --docs and --readme. A stopped
    ladder resumes from --state, pairing by pairing."""
    from cardarena.envs import lookup, registered
    from cardarena.envs.core.errors import ConfigError

    try:
        if game == "all":
            for option, value in (("--agents", agents), ("--state", state), ("--set", settings)):
                if value:
                    raise ConfigError(
                        f"{option} belongs to one game's ladder: give a game, not all (--add works with all)"
                    )
            entries = [lookup(name) for name in dict.fromkeys(entry.name for entry in registered())]
        else:
            entries = [lookup(game)]
        players = _tournament_backend(backend, address, workers)
    except (CardArenaError, ValueError, NotImplementedError) as err:
        _fail(err)
    for entry in entries:
        _one_ladder(entry, agents, add, deals, seed, settings, state, docs, readme, players)


def _one_ladder(
    entry: GameEntry,
    agents: str | None,
    add: str | None,
    deals: int,
    seed: int,
    settings: list[str] | None,
    state: str | None,
    docs: str,
    readme: str,
    players: Backend,
) -> None:
    """One game's ladder (`cardarena ladder`'s options), played to its end and written to `docs` and `readme`."""
    import json
    import shlex
    import time
    from datetime import date
    from pathlib import Path

    from cardarena.training.ladder import (
        Ladder,
        LadderSettings,
        default_roster,
        ladder_section,
        machine,
        play_ladder,
        top_three_block,
        with_section,
        with_top_three,
    )
    from cardarena.training.resumable import agent_fingerprints
    from cardarena.training.tournament import check_agents

    try:
        config = _parse_settings(settings)
        config["num_players"] = entry.env_cls(**config).game.num_players
        roster = (agents.split(",") if agents else default_roster(entry.name)) + (add.split(",") if add else [])
        ladder_settings = LadderSettings(entry.env_id, roster, deals, seed, config, agent_fingerprints(roster))
        state_path = Path(state or f"runs/ladder-{entry.name}.json")
        ladder_state = _read_state(state_path, "a ladder")
        run = Ladder.resumed(ladder_state, ladder_settings, str(state_path))
        check_agents([ladder_settings.tournament(*pair) for pair in run.remaining()])
        readme_text = Path(readme).read_text(encoding="utf-8") if Path(readme).is_file() else ""
        with_top_three(readme_text, "", readme)
    except (CardArenaError, ValueError, NotImplementedError) as err:
        _fail(err)
    if state is None:
        state_path.parent.mkdir(parents=True, exist_ok=True)
    _check_writable(str(state_path), "--state")
    _check_writable(docs, "--docs")
    try:
        play_ladder(
            run,
            lambda tournament, label: _play_tournaments([tournament], players, label)[0],
            lambda done: write_text_atomically(str(state_path), json.dumps(done.to_dict(), indent=1)),
            time.monotonic,
        )
    except (CardArenaError, ValueError, NotImplementedError) as err:
        _fail(err)
    _print_standings(f"{entry.env_id} ladder: {deals} duplicate deals a pairing (seed {seed})", run.standings())
    command = ["cardarena", "ladder", entry.name, "--deals", str(deals), "--seed", str(seed)]
    command += [*(["--agents", agents] if agents else []), *(["--add", add] if add else [])]
    command += [part for item in settings or [] for part in ("--set", item)]
    section = ladder_section(run, shlex.join(command), date.today().isoformat(), machine())
    document = with_section(Path(docs).read_text(encoding="utf-8") if Path(docs).is_file() else "", entry.name, section)
    write_text_atomically(docs, document)
    readme_text = Path(readme).read_text(encoding="utf-8") if Path(readme).is_file() else ""
    write_text_atomically(readme, with_top_three(readme_text, top_three_block(document), readme))
    console.print(f"{entry.name} ladder written to {docs} and its top three to {readme}", highlight=False)


def _read_state(path: Path, what: str) -> dict[str, Any] | None:
    """The JSON document of the state file of `what` (e.g. "a ladder"), None when there is none yet."""
    import json

    if not path.exists():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(
            f"{path} cannot be read as the state file of {what} ({err}); delete it or give another --state"
        ) from None
    if not isinstance(document, dict):
        raise ValueError(f"{path} is not the state file of {what}; delete it or give another --state")
    return document


def _table_sizes(table_sizes: str) -> list[int]:
    """The sizes of --table-sizes."""
    try:
        return [int(size) for size in table_sizes.split(",")]
    except ValueError:
        raise typer.BadParameter(
            f"expected comma-separated integers, got {table_sizes!r}", param_hint="--table-sizes"
        ) from None


@app.command()
def plot(
    run_dir: Annotated[str, typer.Argument(help="A training run's folder, holding history.jsonl.")],
) -> None:
    """Draw a training run's learning curve (reward, win rate, rating vs steps) to RUN_DIR/learning_curve.png."""
    from pathlib import Path

    from cardarena.training.plots import plot_learning_curve, read_history

    try:
        path = plot_learning_curve(read_history(Path(run_dir) / "history.jsonl"), Path(run_dir) / "learning_curve.png")
    except (CardArenaError, ValueError, OSError) as err:
        _fail(err)
    console.print(f"learning curve written to {path}")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="A registered game (see `cardarena games`).")],
    seat: Annotated[int, typer.Option(help="Your seat (0-based).")] = 0,
    opponents: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated agents for the other seats (default: the game's first registered agent, else random)."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the deal (default: random).")] = None,
    settings: SetOption = None,
) -> None:
    """Play one seat yourself in the terminal against agents: every event your seat may know, as it
    happens, and your legal moves as "id label". Type an action id or its label."""
    from cardarena.agents import default_opponent
    from cardarena.envs import lookup
    from cardarena.envs.core.table import Table as TableDriver
    from cardarena.terminal import Narrator, seat_names

    try:
        config = _parse_settings(settings)
        entry = lookup(game)
        env = entry.env_cls(**config)
        num_seats = env.game.num_players
        if not 0 <= seat < num_seats:
            raise ValueError(f"seat must be 0..{num_seats - 1}, got {seat}")
        names: list[str | None] = (
            list(opponents.split(",")) if opponents else [default_opponent(entry.name)] * (num_seats - 1)
        )
        if len(names) != num_seats - 1:
            raise ValueError(f"{entry.env_id} needs {num_seats - 1} opponents here, got {len(names)}: {names}")
        names.insert(seat, None)
        bots = _seat_agents(entry.name, names)
    except (CardArenaError, ValueError) as err:
        _fail(err)
    table = TableDriver(env)
    table.reset(seed=seed)
    narrator = Narrator(console, seat_names(names, you=seat))
    narrator.seating(entry.env_id)
    while table.advance(bots) is not None:
        narrator.follow(_log_seen_by(env, seat))
        console.print(env.render(seat=seat), markup=False, highlight=False)
        table.play(_ask_action(env, env.possible_agents[seat]))
    narrator.follow(_log_seen_by(env, seat))
    console.print(f"[bold]your reward: {table.totals[seat]:+.3f}[/]")


def _seat_agents(game: str, names: list[str | None]) -> dict[int, Any]:
    """The agent loaded for each seat with a name (a seat named None is a person's)."""
    from cardarena.agents import load

    return {seat: load(name, game=game) for seat, name in enumerate(names) if name is not None}


def _log_seen_by(env, seat: int | None) -> list[dict[str, Any]]:
    """The episode's hand history as `seat` knows it (None: the public history)."""
    return env.public_history() if seat is None else env.history(seat)


def _ask_action(env, agent: str) -> int:
    """Prompt until the person types a legal action: its id, its label, or its cards (`typed_move`)."""
    from cardarena.terminal import move_menu, typed_move

    legal = env.observe_json(agent)["legal_actions"]
    while True:
        console.print("your move (type its number, its label, or the cards it names):")
        console.print(move_menu(legal))
        answer = typer.prompt(">", prompt_suffix=" ")
        move = typed_move(answer, legal)
        if move is not None:
            return move
        console.print(
            f"{answer.strip().lower()!r} is not a legal move here; type one of the numbers or labels above",
            style="red",
            markup=False,
            highlight=False,
        )


@app.command()
def watch(
    game: Annotated[str, typer.Argument(help="A registered game (see `cardarena games`).")],
    agents: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated agent per seat, e.g. heuristic,random,random "
            "(default: the game's first registered agent, else random, in every seat)."
        ),
    ] = None,
    delay: Annotated[float, typer.Option(min=0, help="Seconds to wait after each event.")] = 0.5,
    seed: Annotated[int | None, typer.Option(help="Seed of the deal (default: random).")] = None,
    seat: Annotated[
        int | None,
        typer.Option(help="Follow one seat: the public events and that seat's own (default: the public events only)."),
    ] = None,
    settings: SetOption = None,
) -> None:
    """Watch agents play each other in the terminal, one event at a time: what a spectator sees."""
    from cardarena.agents import default_opponent
    from cardarena.envs import lookup
    from cardarena.envs.core.table import Table as TableDriver
    from cardarena.terminal import Narrator, seat_names

    try:
        config = _parse_settings(settings)
        entry = lookup(game)
        env = entry.env_cls(**config)
        num_seats = env.game.num_players
        names = agents.split(",") if agents else [default_opponent(entry.name)] * num_seats
        if len(names) != num_seats:
            raise ValueError(
                f"{entry.env_id} is played by {num_seats} seats here, but {len(names)} agents were given: {names}"
            )
        if seat is not None and not 0 <= seat < num_seats:
            raise ValueError(f"seat must be 0..{num_seats - 1}, got {seat}")
        bots = _seat_agents(entry.name, list(names))
    except (CardArenaError, ValueError) as err:
        _fail(err)
    table = TableDriver(env)
    table.reset(seed=seed)
    narrator = Narrator(console, seat_names(names), delay=delay)
    narrator.seating(entry.env_id)
    narrator.follow(_log_seen_by(env, seat))
    while not table.finished:
        table.advance(bots, max_moves=1)
        narrator.follow(_log_seen_by(env, seat))
    _print_rewards(narrator.names, table.totals)


def _print_rewards(names: list[str], rewards: list[float]) -> None:
    console.print(
        "rewards: " + ", ".join(f"{name} {reward:+.3f}" for name, reward in zip(names, rewards, strict=True)),
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


@app.command()
def replay(
    file: Annotated[
        str,
        typer.Argument(help="A record file: JSON lines, one hand per line (from `eval --record` or `serve --record`)."),
    ],
    hand: Annotated[
        int | None,
        typer.Option(
            min=1, help="Replay only the hand on this line of the file (counted from 1); default: every line in turn."
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(
            min=0, help="Show one seat's view: only what that seat knew (default: the whole table, every seat's cards)."
        ),
    ] = None,
    delay: Annotated[float, typer.Option(min=0, help="Seconds to wait after each event.")] = 0.5,
    step: Annotated[bool, typer.Option(help="Wait for enter after each event instead.")] = False,
) -> None:
    """Step through recorded hands in the terminal; each is first played again and checked to give
    the events and returns it records."""
    from cardarena.envs.core.history import seen_by
    from cardarena.records import RecordFileError, read_records, replayed
    from cardarena.terminal import Narrator, seat_names

    try:
        checked = [(line, record, replayed(file, line, record)) for line, record in read_records(file, hand)]
        for line, _, env in checked:
            if seat is not None and seat >= env.game.num_players:
                raise RecordFileError(
                    f"{file} line {line} is a {env.game.num_players}-seat table: it has no seat {seat}"
                )
    except CardArenaError as err:
        _fail(err)
    for line, record, env in checked:
        names = seat_names(record.get("seats") or [None] * env.game.num_players)
        narrator = Narrator(console, names, delay=delay, step=step)
        narrator.seating(
            f"{file} line {line}, {record['game']}" + ("" if seat is None else f", as {names[seat]} saw it")
        )
        narrator.tell(record["log"] if seat is None else seen_by(record["log"], seat))
        console.print(
            f"line {line} replayed: its events and returns are the record's", style="dim", markup=False, highlight=False
        )


@app.command()
def train(
    game: Annotated[str, typer.Argument(help="A registered game to train (see `cardarena games`).")],
    config_file: Annotated[
        str | None, typer.Option("--config", help="YAML config layered over configs/<game>.yaml.")
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", help="Training config override KEY=VALUE, dotted for nested keys (repeatable)."),
    ] = None,
    resume: Annotated[
        str | None, typer.Option(help="Continue the run in this directory from its newest checkpoint.")
    ] = None,
    run_dir: Annotated[
        str | None, typer.Option(help="Where the run writes (default runs/<game>/<name>-<time>).")
    ] = None,
    backend: BackendOption = BackendName.local,
    address: AddressOption = None,
    workers: WorkersOption = None,
    device: Annotated[
        str, typer.Option(help="Torch device of the learner, e.g. cuda (the rollouts always run on CPUs).")
    ] = "cpu",
) -> None:
    """Train a bot by self-play (MaskablePPO), then print its evaluation against the baselines.
    With --backend ray, rollout workers on a Ray cluster play the episodes and this process learns."""
    from pathlib import Path

    from cardarena.envs import lookup
    from cardarena.training.config import load_train_config, parse_overrides
    from cardarena.training.train import Trainer, check_device

    for output, option in ((resume, "--resume"), (run_dir, "--run-dir")):
        if output:
            _check_writable(output, option, folder=True)
    try:
        check_device(device)
        count = _ray_workers(backend, address, workers)
        rollout_workers = None
        if count is not None:
            from cardarena.training.cluster import RayWorkers

            rollout_workers = RayWorkers(count)
        if resume:
            trainer = Trainer.resume(Path(resume), parse_overrides(settings or []), device, rollout_workers)
            if lookup(trainer.config.game).name != lookup(game).name:
                raise ValueError(f"{resume} is a {trainer.config.game} run, not {game}")
        else:
            config = load_train_config(game, config_file, settings)
            trainer = Trainer.start(config, Path(run_dir) if run_dir else None, device, rollout_workers)
    except (CardArenaError, ValueError) as err:
        _fail(err)
    if trainer.resume_point is not None:
        _report_resume_point(trainer.resume_point, trainer.run_dir)
    config = trainer.config
    where = f" on {count} Ray workers" if count is not None else ""
    length = {
        "expert-iteration": f"{config.expert.generations} generations of expert iteration",
        "critic": f"a critic refitted to {config.expert.value_games:,} games of its own",
    }.get(config.algo, f"{config.total_steps:,} steps")
    console.print(
        f"training {trainer.env_id} for {length} in {trainer.run_dir} (from step {trainer.steps:,}){where}",
        soft_wrap=True,
    )
    try:
        result = _with_progress(trainer.run)
    except CardArenaError as err:  # e.g. Ray workers that keep dying
        _fail(err)
    minutes = result.seconds / 60
    console.print(
        f"done: {result.steps:,} steps in {minutes:.1f} min; final checkpoint {result.final_checkpoint}", soft_wrap=True
    )
    episodes = config.eval.final_episodes or config.eval.episodes
    table = Table(
        title=f"{trainer.env_id}: the trained bot against each baseline ({episodes:,} duplicate-dealt episodes each)"
    )
    for column in ("opponents", "bot mean reward", "95% CI", "bot win rate"):
        table.add_column(column, justify="left" if column == "opponents" else "right")
    for name, score in result.evaluation.items():
        low, high = score["mean"] - score["ci95"], score["mean"] + score["ci95"]
        table.add_row(name, f"{score['mean']:+.4f}", f"[{low:+.4f}, {high:+.4f}]", f"{score['win_rate']:.3f}")
    console.print(table)


def _report_resume_point(point: ResumePoint, run_dir: Path) -> None:
    """Which checkpoint `train --resume` continues from, and each newer one it skipped and why."""
    from rich.markup import escape

    for skipped in point.skipped:
        console.print(f"[bold yellow]skipped a damaged checkpoint:[/] {escape(skipped.problem)}", soft_wrap=True)
    if point.checkpoint is None:
        console.print(f"{run_dir} has no checkpoint yet: the run starts again from step 0", soft_wrap=True)
    else:
        console.print(f"resuming from the checkpoint {point.checkpoint}", soft_wrap=True)


def _with_progress(run: Callable[..., Any]) -> Any:
    """`run(on_progress=...)` with a progress bar per phase (demonstrations, training): count, rate, latest
    win rates."""
    from rich.progress import TaskProgressColumn, TextColumn

    from cardarena.terminal import progress_bar

    rate_and_wins = TextColumn("{task.fields[rate]:>6.0f}/s  {task.fields[wins]}")
    tasks: dict[str, Any] = {}
    clock = {"time": time.perf_counter(), "done": 0, "rate": 0.0}

    def report(phase: str, done: int, total: int, latest: dict[str, float]) -> None:
        if phase not in tasks:
            tasks[phase] = progress.add_task(phase, total=total, completed=done, rate=0.0, wins="")
            clock.update(time=time.perf_counter(), done=done, rate=0.0)
        now = time.perf_counter()
        if now - clock["time"] >= 1.0:
            clock["rate"] = (done - clock["done"]) / (now - clock["time"])
            clock.update(time=now, done=done)
        wins = "  ".join(f"{name} {rate:.2f}" for name, rate in latest.items())
        progress.update(tasks[phase], completed=done, rate=clock["rate"], wins=wins)

    with progress_bar(console, TaskProgressColumn(), rate_and_wins) as progress:
        return run(on_progress=report)


@app.command()
def exploit(
    game: Annotated[str, typer.Argument(help="A registered game (see `cardarena games`).")],
    agent: Annotated[
        str, typer.Option(help="The frozen agent to exploit, e.g. heuristic, ppo-selfplay, pimc:worlds=8.")
    ],
    steps: Annotated[
        int, typer.Option(min=1, help="Training budget of the best response, in its decisions.")
    ] = 300_000,
    episodes: Annotated[
        int, typer.Option(min=1, help="Duplicate-dealt episodes of the final measurement of the gain.")
    ] = 3000,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", help="Training config override KEY=VALUE for the best response (repeatable)."),
    ] = None,
    run_dir: Annotated[
        str | None, typer.Option(help="Where the run writes (default runs/<game>/exploit-<time>).")
    ] = None,
) -> None:
    """Train a best response (MaskablePPO, from scratch) against a table of the frozen agent and
    report its gain: how exploitable the agent is, with a 95% CI over duplicate deals."""
    from pathlib import Path

    from cardarena.training.config import parse_overrides
    from cardarena.training.exploit import exploit as run_exploit
    from cardarena.training.exploit import exploit_config
    from cardarena.training.train import Trainer

    if run_dir:
        _check_writable(run_dir, "--run-dir", folder=True)
    try:
        config = exploit_config(game, agent, steps, parse_overrides(settings or []))
        trainer = Trainer.start(config, Path(run_dir) if run_dir else None)
    except (CardArenaError, ValueError) as err:
        _fail(err)
    console.print(
        f"training a best response to {agent} at {trainer.env_id} for {steps:,} steps in {trainer.run_dir}",
        soft_wrap=True,
    )
    report = _with_progress(lambda on_progress: run_exploit(trainer, agent, episodes, on_progress))
    table = Table(
        title=f"{report['game']}: the best response's mean reward against {agent} (learning curve, then the gain)"
    )
    for column in ("steps", "mean reward", "95% CI"):
        table.add_column(column, justify="right")
    for point in report["curve"]:
        table.add_row(f"{point['steps']:,}", f"{point['mean']:+.4f}", f"±{point['ci95']:.4f}")
    gain = report["gain"]
    table.add_row(
        f"gain, {episodes:,} episodes",
        f"{gain['mean']:+.4f}",
        f"[{gain['low']:+.4f}, {gain['high']:+.4f}]",
        style="bold",
    )
    console.print(table)
    console.print(
        f"report: {Path(report['run_dir']) / 'exploit.json'}; curve: {Path(report['run_dir']) / 'learning_curve.png'}",
        soft_wrap=True,
    )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bots to serve besides the built-ins, e.g. <game>/ppo-selfplay "
            "(default: every shipped bot)."
        ),
    ] = None,
    table_ttl: Annotated[
        float, typer.Option(min=1, help="Seconds without a read or a move after which a table is removed.")
    ] = 600,
    max_tables: Annotated[int, typer.Option(min=1, help="Tables the server holds at most.")] = 1_000,
    api_keys: Annotated[
        str | None,
        typer.Option(
            help="A file of API keys, one per line (optionally followed by its table cap): "
            "/v1 requests then need one in X-API-Key."
        ),
    ] = None,
    tables_per_key: Annotated[
        int, typer.Option(min=1, help="Open tables each API key may hold (a cap in the key file wins).")
    ] = 100,
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            help="Write each table's hands to this folder when it ends (<table id>.jsonl, one hand per line), "
            "for `cardarena replay`.",
        ),
    ] = None,
    search_processes: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Processes in which search bots at tables (pimc, ismcts, <game>/expert) think, leaving the "
            "server's own process free to answer (default: one per core); 0: they think in its threads.",
        ),
    ] = None,
) -> None:
    """Serve bots (POST /v1/act) and tables of bots and clients (/v1/tables) over HTTP; docs/protocol.md."""
    from pathlib import Path

    from cardarena.serve.app import serve as run_server
    from cardarena.serve.bots import Roster
    from cardarena.serve.keys import ApiKeys
    from cardarena.serve.search_pool import SEARCH_PROCESSES

    if record:
        _check_writable(record, "--record", folder=True)
        Path(record).mkdir(parents=True, exist_ok=True)
    try:
        keys = ApiKeys.load(api_keys, tables_per_key) if api_keys else None
        if keys is not None:
            keys.check_caps(max_tables)
        roster = Roster.serving(bots.split(",") if bots else None)
    except (CardArenaError, ValueError) as err:
        _fail(err)
    console.print(
        f"serving {', '.join(roster.bots)} on http://{host}:{port} (API docs at /docs)", soft_wrap=True, highlight=False
    )
    if keys is not None:
        console.print(
            f"API keys: {len(keys.keys)} from {api_keys}; every /v1 request needs one in the X-API-Key header",
            soft_wrap=True,
            highlight=False,
        )
    if record:
        console.print(f"recording every table's hands in {record}", soft_wrap=True, highlight=False)
    run_server(
        host,
        port,
        roster,
        max_tables=max_tables,
        table_ttl=table_ttl,
        api_keys=keys,
        record_dir=Path(record) if record else None,
        search_processes=SEARCH_PROCESSES if search_processes is None else search_processes,
    )


@app.command()
def bot(
    agent: Annotated[str, typer.Option(help="The bot to play, e.g. <game>/ppo-selfplay.")],
) -> None:
    """Answer /v1/act requests on stdio: one JSON request per line in, one JSON line out."""
    import sys

    from cardarena.serve.stdio import run

    raise typer.Exit(code=run(agent, sys.stdin, sys.stdout))


@app.command()
def publish(
    checkpoint: Annotated[str, typer.Argument(help="A checkpoint folder, e.g. runs/<game>/<run>/final.")],
    name: Annotated[
        str, typer.Option(help="Name of the shipped bot: written to checkpoints/<game>/<name>.")
    ] = "ppo-selfplay",
    episodes: Annotated[
        int, typer.Option(min=1, help="Episodes against each baseline (duplicate deals, seats rotated).")
    ] = 10_002,
    baselines: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated baselines to evaluate against (default: random and the game's registered agents)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 0,
    root: Annotated[str, typer.Option(help="Folder of shipped bots.")] = "checkpoints",
) -> None:
    """Evaluate a checkpoint against the baselines and ship it as checkpoints/<game>/<name> with the results on
    its card."""
    from pathlib import Path

    from cardarena.agents.checkpoint import read_card
    from cardarena.terminal import progress_bar
    from cardarena.training.config import default_eval_opponents
    from cardarena.training.publish import evaluate_against_baselines
    from cardarena.training.publish import publish as publish_checkpoint

    try:
        game = read_card(checkpoint)["game"]
        _check_writable(str(Path(root) / game / name), "--root", folder=True)
        names = baselines.split(",") if baselines else default_eval_opponents(game)
        with progress_bar(console, remaining=False, transient=True) as progress:
            task = progress.add_task("evaluating", total=episodes * len(names))
            done = {"before": 0}

            def advance(count: int) -> None:
                progress.update(task, completed=done["before"] + count)
                if count == episodes:
                    done["before"] += episodes

            evaluation = evaluate_against_baselines(Path(checkpoint), names, episodes, seed, advance)
        destination = publish_checkpoint(Path(checkpoint), Path(root) / game / name, evaluation)
    except (CardArenaError, ValueError, OSError) as err:
        _fail(err)
    table = Table(title=f"{game}/{name}: one seat against the baseline in every other seat")
    for column in ("opponents", "episodes", "mean reward", "95% CI", "win rate"):
        table.add_column(column, justify="left" if column == "opponents" else "right")
    for baseline, score in evaluation.items():
        table.add_row(
            baseline,
            str(score["episodes"]),
            f"{score['mean']:+.4f}",
            f"[{score['low']:+.4f}, {score['high']:+.4f}]",
            f"{score['win_rate']:.3f}",
        )
    console.print(table)
    console.print(f"shipped to {destination}", soft_wrap=True)


if __name__ == "__main__":
    app()
