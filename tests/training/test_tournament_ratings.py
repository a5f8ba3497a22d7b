"""Tournament extras: OpenSkill ratings, win rates, per-seat means, table sizes, JSON results."""

import json

import pytest
from typer.testing import CliRunner

from cardarena.agents import RandomAgent, load
from cardarena.cli import app
from cardarena.envs.core.errors import ConfigError
from cardarena.training.evaluate import distinct_rotations, evaluate, seat_names


class LowestLegal:
    """Always the lowest legal id: passes every bid and plays its lowest card."""

    def act(self, observation):
        return int(observation["action_mask"].nonzero()[0][0])

    def reset(self):
        pass


def tournament(seed=0, episodes=300):
    lineup = [("heuristic", load("yokir/heuristic")), ("random", RandomAgent(1)), ("lowest", LowestLegal())]
    return evaluate("yokir", lineup, episodes, seed=seed)


def test_ratings_order_agents_by_strength_and_are_deterministic():
    result = tournament()
    heuristic, random_, lowest = (result.score_of(name) for name in ("heuristic", "random", "lowest"))
    assert heuristic.mu > random_.mu
    assert heuristic.ordinal > max(random_.ordinal, lowest.ordinal)
    assert all(score.sigma < 25 / 3 for score in result.scores)
    again = tournament()
    assert [(s.mu, s.sigma) for s in again.scores] == [(s.mu, s.sigma) for s in result.scores]


def test_win_rate_and_seat_means_are_consistent_with_the_mean():
    result = tournament(episodes=150)
    for score in result.scores:
        assert 0.0 <= score.win_rate <= 1.0
        assert score.seat_episodes == [50, 50, 50]
        assert sum(score.seat_means) / 3 == pytest.approx(score.mean)
    assert result.score_of("heuristic").win_rate > result.score_of("lowest").win_rate


def test_duplicate_rotations_skip_identical_tables():
    assert distinct_rotations(["a", "b", "c"]) == [0, 1, 2]
    assert distinct_rotations(["a", "a", "a"]) == [0]


def test_table_sizes_cycle_agents_and_reject_unplayable_sizes():
    assert seat_names("yokir", ["heuristic", "random"], 3) == ["heuristic", "random", "heuristic"]
    with pytest.raises(ConfigError, match="table size 4 is not playable in yokir_v1: it seats 3 players"):
        seat_names("yokir", ["heuristic"], 4)


def test_cli_eval_with_table_sizes_writes_json_with_ratings(tmp_path):
    out = tmp_path / "results.json"
    runner = CliRunner()
    result = runner.invoke(app, ["eval", "yokir", "--agents", "heuristic,random", "--table-sizes", "3", "--episodes", "60", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "ordinal" in result.output
    data = json.loads(out.read_text())["results"]
    assert len(data) == 1 and data[0]["num_players"] == 3
    heuristic = next(s for s in data[0]["scores"] if s["name"] == "heuristic")
    assert set(heuristic["rating"]) == {"mu", "sigma", "ordinal"}
    assert len(heuristic["seats"]) == 3 and "win_rate" in heuristic
    bad = runner.invoke(app, ["eval", "yokir", "--agents", "heuristic", "--table-sizes", "3,4"])
    assert bad.exit_code == 2 and "table size 4" in bad.output
