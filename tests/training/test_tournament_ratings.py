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


def test_ratings_change_with_the_seed_and_a_lone_name_is_never_rated():
    assert [s.mu for s in tournament(seed=1, episodes=30).scores] != [s.mu for s in tournament(seed=2, episodes=30).scores]
    alone = evaluate("yokir", [("random", RandomAgent(seed)) for seed in range(3)], episodes=5)
    assert alone.score_of("random").mu == 25.0 and alone.score_of("random").sigma == 25 / 3
    assert alone.score_of("random").deals == 5  # one distinct rotation per deal


def test_seat_means_of_a_pooled_name_sum_to_zero_over_the_table():
    result = evaluate("yokir", [("a", RandomAgent(1)), ("b", RandomAgent(2)), ("b", RandomAgent(3))], episodes=30, seed=5)
    a, b = result.score_of("a"), result.score_of("b")
    assert a.seat_episodes == [10, 10, 10] and b.seat_episodes == [20, 20, 20]
    total = sum(10 * a_mean + 20 * b_mean for a_mean, b_mean in zip(a.seat_means, b.seat_means))
    assert total == pytest.approx(0.0, abs=1e-9)


def test_an_unheld_seat_has_no_mean_and_the_json_has_no_infinity():
    result = evaluate("yokir", [("x", RandomAgent(1)), ("y", RandomAgent(2)), ("z", RandomAgent(3))], episodes=1)
    x = result.score_of("x")
    assert x.seat_episodes == [1, 0, 0] and x.seat_means[1:] == [None, None]
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert (data["game"], data["env_id"], data["num_players"], data["seating"]) == ("yokir", "yokir_v1", 3, ["x", "y", "z"])
    assert data["scores"][0]["ci95"] is None
    assert data["scores"][0]["seats"][0] == {"seat": 0, "mean": x.seat_means[0], "episodes": 1}


def test_periodic_seatings_rotate_only_over_their_period():
    assert distinct_rotations(["a", "b", "a", "b"]) == [0, 1]
    names = seat_names("yokir", ["heuristic", "random"], 3)
    seated = [(name, load(name, game="yokir", seed=seat)) for seat, name in enumerate(names)]
    result = evaluate("yokir", seated, episodes=12, seed=1, config={"num_players": 3})
    assert result.num_players == 3 and result.seating == ["heuristic", "random", "heuristic"]
    assert result.score_of("heuristic").seat_episodes == [8, 8, 8]
    assert result.score_of("random").seat_episodes == [4, 4, 4]
