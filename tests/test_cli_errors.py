"""The command line refuses, before any long work starts, an output it could not write, and names
an empty agent name; results files are written whole or not at all."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import cardarena.training.publish as publishing
import pytest
from cardarena.agents import available
from typer.testing import CliRunner

import cardarena.cli as cli
from cardarena.cli import app
from cardarena.files import write_text_atomically

runner = CliRunner()
SHIPPED_BOT = Path(str(resources.files("cardarena.checkpoints"))) / "yokir" / "ppo-selfplay"


def said(result) -> str:
    """The command's output (stdout and stderr) on one line, however the terminal wrapped it."""
    return " ".join(result.output.split())


@pytest.fixture
def no_long_work(monkeypatch):
    """Fail the test if an evaluation or a training run starts."""

    def started(*args, **kwargs):
        raise AssertionError("the long work started before the output was checked")

    monkeypatch.setattr(cli, "_run_tournament", started)
    monkeypatch.setattr(publishing, "evaluate_against_baselines", started)
    monkeypatch.setattr("cardarena.training.train.Trainer.start", started)


def test_eval_refuses_a_json_file_in_a_missing_folder_before_playing(no_long_work, tmp_path):
    target = tmp_path / "nonexistent" / "dir" / "r.json"
    result = runner.invoke(app, ["eval", "yokir", "--episodes", "3", "--json", str(target)])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --json: cannot write {target}: {target.parent} does not exist" in said(result)


def test_eval_refuses_a_json_path_that_is_a_folder(no_long_work, tmp_path):
    result = runner.invoke(app, ["eval", "yokir", "--episodes", "3", "--json", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert f"{tmp_path} exists and is not a file" in said(result)


def test_eval_replaces_its_json_file_whole_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("old results")
    result = runner.invoke(
        app, ["eval", "yokir", "--agents", "random,random,random", "--episodes", "3", "--json", str(target)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text())["episodes"] == 3
    assert [path.name for path in tmp_path.iterdir()] == ["r.json"]


def test_a_results_file_that_cannot_be_written_leaves_the_old_one_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "r.json"
    target.write_text("old results")

    def refuse(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_text_atomically(str(target), '{"new": 1}')
    assert target.read_text() == "old results"
    assert [path.name for path in tmp_path.iterdir()] == ["r.json"]


def test_train_refuses_a_run_dir_under_a_file_before_training(no_long_work, tmp_path):
    (tmp_path / "notes.txt").write_text("")
    run_dir = tmp_path / "notes.txt" / "run"
    result = runner.invoke(app, ["train", "yokir", "--run-dir", str(run_dir)])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --run-dir: cannot write {run_dir}: {tmp_path / 'notes.txt'} is not a folder" in said(
        result
    )


def test_publish_refuses_a_root_it_cannot_write_before_evaluating(no_long_work, tmp_path):
    (tmp_path / "shipped").write_text("")
    result = runner.invoke(app, ["publish", str(SHIPPED_BOT), "--root", str(tmp_path / "shipped"), "--episodes", "3"])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --root: cannot write {tmp_path / 'shipped' / 'yokir' / 'ppo-selfplay'}" in said(result)


@pytest.mark.parametrize("agents", [",,", "heuristic,,random"])
def test_eval_names_an_empty_agent_name_and_lists_the_game_agents(no_long_work, agents):
    result = runner.invoke(app, ["eval", "yokir", "--agents", agents, "--episodes", "3"])
    assert result.exit_code == 2, result.output
    assert f"the agent name is empty (''); available: {', '.join(available('yokir'))}" in said(result)
    assert "card.json" not in said(result)


def test_eval_lists_the_game_agents_for_an_unknown_one(no_long_work):
    result = runner.invoke(app, ["eval", "yokir", "--agents", "heuristik,random,random", "--episodes", "3"])
    assert result.exit_code == 2, result.output
    assert f"unknown agent 'heuristik'; available: {', '.join(available('yokir'))}" in said(result)
