"""Learning-curve plots of a training run, from code and from `cardarena plot`."""

import json

import pytest
from cardarena.training.plots import plot_learning_curve, read_history
from typer.testing import CliRunner

from cardarena.cli import app

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
HISTORY = [
    {
        "steps": steps,
        "results": {
            "random": {"mean": 0.1 + steps / 1e6, "ci95": 0.03, "win_rate": 0.5},
            "heuristic": {"mean": -0.1 + steps / 1e6, "ci95": 0.03, "win_rate": 0.3},
        },
        "rating": {"mu": 25 + steps / 1e4, "sigma": 2.0},
    }
    for steps in (0, 50_000, 100_000)
]


def test_plot_writes_a_png(tmp_path):
    path = plot_learning_curve(HISTORY, tmp_path / "curve.png")
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000


def test_plot_rejects_an_empty_history(tmp_path):
    with pytest.raises(ValueError, match="empty"):
        plot_learning_curve([], tmp_path / "curve.png")


def test_cli_plot_reads_the_run_history(tmp_path):
    (tmp_path / "history.jsonl").write_text("".join(json.dumps(row) + "\n" for row in HISTORY))
    assert len(read_history(tmp_path / "history.jsonl")) == 3
    result = CliRunner().invoke(app, ["plot", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "learning_curve.png").read_bytes().startswith(PNG_MAGIC)


def test_cli_plot_names_a_missing_history(tmp_path):
    result = CliRunner().invoke(app, ["plot", str(tmp_path)])
    assert result.exit_code == 2
    assert "no history" in result.output


def test_plot_without_ratings_or_intervals_writes_a_png(tmp_path):
    history = [
        {"steps": row["steps"], "results": {"random": {"mean": row["results"]["random"]["mean"]}}} for row in HISTORY
    ]
    data = plot_learning_curve(history[::-1], tmp_path / "nested" / "curve.png").read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000


def test_read_history_names_the_bad_line(tmp_path):
    path = tmp_path / "history.jsonl"
    path.write_text("\n")
    with pytest.raises(ValueError, match="is empty"):
        read_history(path)
    path.write_text(json.dumps(HISTORY[0]) + "\n{oops\n")
    with pytest.raises(ValueError, match="line 2: not JSON"):
        read_history(path)
    path.write_text(json.dumps({"results": {}}) + "\n")
    with pytest.raises(ValueError, match='line 1: expected an object with integer "steps"'):
        read_history(path)
