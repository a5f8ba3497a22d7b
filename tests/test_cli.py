"""The `cardarena` command line, driven through typer's runner (and in a fresh interpreter where
what it imports matters)."""

import json
import subprocess
import sys

import pytest
from cardarena.envs import registered
from typer.testing import CliRunner

from cardarena.cli import app

runner = CliRunner()
HEAVY = ("numpy", "numba", "torch", "stable_baselines3", "pettingzoo", "gymnasium", "cardarena.training")
PROBE = """
import json, sys
listing = sys.argv.pop()
from cardarena.cli import app
try:
    app()
finally:
    with open(listing, "w") as out:
        json.dump(sorted(sys.modules), out)
"""


def imported_by(tmp_path, *args: str) -> set[str]:
    """Every module loaded once `cardarena ARGS` has run in a fresh interpreter."""
    listing = tmp_path / "modules.json"
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args, str(listing)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return set(json.loads(listing.read_text()))


def within(modules: set[str], packages) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def shipped_games():
    """The games cardarena registers (a test may register a toy game in this process only)."""
    return [entry for entry in registered() if entry.module.startswith("cardarena.")]


def game_modules() -> set[str]:
    """The modules of every shipped game and of its agents."""
    entries = shipped_games()
    return {entry.module for entry in entries} | {
        target.split(":")[0] for entry in entries for target in entry.agents.values()
    }


def test_help_imports_no_game_and_no_numeric_code(tmp_path):
    modules = imported_by(tmp_path, "--help")
    assert "typer" in modules and "cardarena.envs" in modules
    assert within(modules, HEAVY) == []
    assert within(modules, game_modules()) == []


def test_games_lists_every_game_from_its_registration_without_importing_it(tmp_path):
    modules = imported_by(tmp_path, "games")
    assert within(modules, HEAVY) == []
    assert within(modules, game_modules()) == []


def test_games_lists_a_plugged_in_game(coinflip_game):
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "coinflip_v1" in result.output and "num_players=2" in result.output


def test_version_prints_the_installed_package_version():
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"cardarena {version('cardarena')}"


@pytest.mark.parametrize("table_sizes", [[], ["--table-sizes", "2"]])
def test_eval_of_a_game_without_agents_seats_random(coinflip_game, tmp_path, table_sizes):
    out = tmp_path / "eval.json"
    result = runner.invoke(app, ["eval", "coinflip", "--episodes", "8", "--json", str(out), *table_sizes])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    scores = (data["results"][0] if table_sizes else data)["scores"]
    assert [score["name"] for score in scores] == ["random"]


def test_play_of_a_game_without_agents_faces_random(coinflip_game):
    result = runner.invoke(app, ["play", "coinflip", "--seat", "1", "--seed", "3"], input="heads\n")
    assert result.exit_code == 0, result.output
    assert "coinflip_v1: seat 0 (random), you (seat 1)" in result.output and "your reward" in result.output


def test_games_lists_yokir_with_players_and_variants():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "yokir_v1" in result.output
    assert "target_score=10" in result.output


def test_eval_prints_table_and_writes_json(tmp_path):
    out = tmp_path / "eval.json"
    result = runner.invoke(
        app, ["eval", "yokir", "--agents", "heuristic,random,random", "--episodes", "300", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "95% CI" in result.output
    data = json.loads(out.read_text())
    assert data["episodes"] == 300
    assert {score["name"] for score in data["scores"]} == {"heuristic", "random"}
    heuristic = next(score for score in data["scores"] if score["name"] == "heuristic")
    assert heuristic["deals"] == 100


def test_eval_rejects_unknown_agent_game_and_config():
    unknown_agent = runner.invoke(app, ["eval", "yokir", "--agents", "nobody,random,random"])
    assert unknown_agent.exit_code == 2
    assert "unknown agent 'nobody'" in unknown_agent.output
    unknown_game = runner.invoke(app, ["eval", "chess"])
    assert unknown_game.exit_code == 2
    assert "unknown game 'chess'" in unknown_game.output and "yokir_v1" in unknown_game.output
    bad_config = runner.invoke(app, ["eval", "yokir", "--set", "dealer=7"])
    assert bad_config.exit_code == 2
    assert "dealer=7" in bad_config.output
    wrong_seats = runner.invoke(app, ["eval", "yokir", "--agents", "random,random"])
    assert wrong_seats.exit_code == 2
    assert "3 seats" in wrong_seats.output


def test_play_reprompts_on_bad_input_and_finishes_the_hand():
    every_id_in_turn = "".join(f"{action}\n" for action in range(29)) * 25
    result = runner.invoke(
        app,
        ["play", "yokir", "--seat", "1", "--opponents", "random,random", "--seed", "5"],
        input="bogus\n" + every_id_in_turn,
    )
    assert result.exit_code == 0, result.output
    assert "'bogus' is not a legal move" in result.output
    assert "table: hand 1 result" in result.output
    assert "your reward" in result.output


def test_play_accepts_labels_and_rejects_a_bad_seat():
    answers = "reject\npass\n" + "".join(f"{action}\n" for action in range(24)) * 10
    result = runner.invoke(
        app, ["play", "yokir", "--seat", "0", "--opponents", "random,random", "--seed", "1"], input=answers
    )
    assert result.exit_code == 0, result.output
    bad_seat = runner.invoke(app, ["play", "yokir", "--seat", "3"])
    assert bad_seat.exit_code == 2
    assert "seat must be 0..2" in bad_seat.output


def test_eval_table_sizes_conflicts_and_fewer_agents_hint():
    both = runner.invoke(app, ["eval", "yokir", "--table-sizes", "3", "--set", "num_players=3", "--episodes", "3"])
    assert both.exit_code == 2
    assert "--table-sizes or with --set num_players" in both.output
    not_numbers = runner.invoke(app, ["eval", "yokir", "--table-sizes", "3,x"])
    assert not_numbers.exit_code == 2
    assert "comma-separated integers" in not_numbers.output
    cycled = runner.invoke(
        app, ["eval", "yokir", "--agents", "heuristic,random", "--table-sizes", "3", "--episodes", "9"]
    )
    assert cycled.exit_code == 0, cycled.output
    assert "3 players" in cycled.output and "mu" in cycled.output and "sigma" in cycled.output


def test_plot_refuses_an_empty_history(tmp_path):
    (tmp_path / "history.jsonl").write_text("")
    result = runner.invoke(app, ["plot", str(tmp_path)])
    assert result.exit_code == 2
    assert "is empty: no evaluation has been logged" in " ".join(result.output.split())
    assert not (tmp_path / "learning_curve.png").exists()


def test_train_names_bad_input(tmp_path):
    unknown_game = runner.invoke(app, ["train", "chess"])
    assert unknown_game.exit_code == 2 and "unknown game 'chess'" in unknown_game.output
    bad_key = runner.invoke(app, ["train", "yokir", "--set", "ppo.bogus=1"])
    assert bad_key.exit_code == 2 and "ppo.bogus" in bad_key.output
    not_a_run = runner.invoke(app, ["train", "yokir", "--resume", str(tmp_path)])
    assert not_a_run.exit_code == 2 and "not a training run" in not_a_run.output


def test_a_typed_move_is_an_id_a_label_or_the_cards_it_names():
    from cardarena.terminal import typed_move

    legal = [
        {"id": 3, "label": "discard nothing", "kind": "discard", "cards": []},
        {"id": 4, "label": "discard C2", "kind": "discard", "cards": ["C2"]},
        {"id": 11, "label": "discard K10", "kind": "discard", "cards": ["K10"]},
        {"id": 12, "label": "discard C2 K10", "kind": "discard", "cards": ["C2", "K10"]},
    ]
    assert typed_move("12", legal) == 12 and typed_move("Discard C2 K10", legal) == 12
    assert typed_move("k10 c2", legal) == 12 and typed_move("K10, C2", legal) == 12
    assert typed_move("K10", legal) == 11 and typed_move("nothing", legal) == 3
    assert typed_move("C2 P7", legal) is None and typed_move("130", legal) is None
    assert typed_move("pass", [{"id": 0, "label": "pass", "kind": "pass", "cards": []}]) == 0
