"""Tournaments by agent name in seeded chunks, the league, and the Ray backend's optional import."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from cardarena.agents import load
from cardarena.envs.core.errors import ConfigError, UnknownAgentError
from cardarena.training.evaluate import EvalResult, Tally, evaluate
from cardarena.training.league import league_standings, league_tables
from cardarena.training.tournament import (
    LocalBackend,
    ProcessBackend,
    Tournament,
    chunks_of,
    run_tournaments,
    seated_agents,
)
from spawned_workers import HAS_PROC, spawned_workers, workers_left_after_killing
from typer.testing import CliRunner

from cardarena.cli import app

runner = CliRunner()


def test_chunks_cover_every_deal_and_episode_once():
    tournament = Tournament("yokir_v1", ["heuristic", "random", "random"], episodes=3 * 11 - 1, seed=4)
    chunks = chunks_of(tournament, chunk_deals=4)
    assert [len(chunk.seeds) for chunk in chunks] == [4, 4, 3]
    assert [chunk.episodes for chunk in chunks] == [12, 12, 8]
    assert [seed for chunk in chunks for seed in chunk.seeds] == [seed for seed in chunks_of(tournament, 100)[0].seeds]


def test_one_chunk_plays_as_evaluate_does_with_agents_seeded_seed_plus_seat():
    names = ["heuristic", "random", "random"]
    [(chunked, _)] = run_tournaments([Tournament("yokir_v1", names, 90, seed=7)], LocalBackend())
    direct = evaluate(
        "yokir_v1", [(name, load(name, game="yokir", seed=7 + seat)) for seat, name in enumerate(names)], 90, seed=7
    )
    assert chunked.to_dict() == direct.to_dict()


def test_each_chunk_loads_its_agents_with_seeds_of_its_own():
    tournament = Tournament("yokir_v1", ["random", "random", "heuristic"], 30, seed=1)
    draws = [
        [agent.rng.integers(2**62) for name, agent in seated_agents(tournament, chunk) if name == "random"]
        for chunk in (0, 1)
    ]
    assert draws[0] == [load("random", seed=1).rng.integers(2**62), load("random", seed=2).rng.integers(2**62)]
    assert draws[0] != draws[1]


def test_processes_of_this_machine_give_the_local_backends_numbers():
    tournaments = [
        Tournament("yokir_v1", ["heuristic", "random", "random"], 3 * 7, seed=3),
        Tournament("yokir_v1", ["random", "heuristic", "heuristic"], 3 * 5, seed=5),
    ]
    done = []
    local = run_tournaments(tournaments, LocalBackend(), chunk_deals=2)
    spawned = run_tournaments(tournaments, ProcessBackend(2), done.append, chunk_deals=2)
    assert [result.to_dict() for result, _ in spawned] == [result.to_dict() for result, _ in local]
    assert sum(done) == 36 and len(done) > 2  # progress as units finish


@pytest.mark.skipif(not HAS_PROC, reason="finds the workers in /proc")
def test_tournament_workers_end_when_their_eval_is_killed_alone():
    command = "from cardarena.cli import app; app()"
    agents = "pimc,heuristic,heuristic,heuristic"
    eval_args = ["eval", "tilt", "--agents", agents, "--episodes", "3000", "--workers", "2"]
    process = subprocess.Popen(
        [sys.executable, "-c", command, *eval_args], stdout=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while len(workers := spawned_workers(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) == 2, "the eval spawned no two workers"
        alive = workers_left_after_killing(process, workers)
        assert alive == [], f"tournament workers {alive} outlived their eval"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_kept_chunks_are_not_played_again_and_give_an_unbroken_runs_result():
    tournament = Tournament("yokir_v1", ["heuristic", "random", "random"], 3 * 10, seed=5)
    saved: dict = {}
    [(whole, _)] = run_tournaments([tournament], LocalBackend(), chunk_deals=3, on_chunk=saved.__setitem__)
    assert sorted(saved) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    kept = {key: Tally.from_dict(json.loads(json.dumps(saved[key].to_dict()))) for key in [(0, 0), (0, 2)]}
    played, progress = {}, []
    [(resumed, _)] = run_tournaments(
        [tournament], ProcessBackend(2), progress.append, chunk_deals=3, kept=kept, on_chunk=played.__setitem__
    )
    assert sorted(played) == [(0, 1), (0, 3)]
    assert {key: tally.to_dict() for key, tally in played.items()} == {key: saved[key].to_dict() for key in played}
    assert resumed.to_dict() == whole.to_dict()
    assert progress[0] == 18 and sum(progress) == 30  # the kept chunks' episodes count at once


EVAL = ["eval", "yokir", "--agents", "heuristic,random,random", "--seed", "2"]


@pytest.mark.skipif(not HAS_PROC, reason="kills a running eval")
def test_an_eval_killed_midway_resumes_from_its_state_file(tmp_path):
    state, whole, resumed = tmp_path / "state.json", tmp_path / "whole.json", tmp_path / "resumed.json"
    episodes = ["--episodes", str(3 * 200 * 12)]  # twelve chunks
    command = [sys.executable, "-c", "from cardarena.cli import app; app()", *EVAL, *episodes, "--state", str(state)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (state.exists() and json.loads(state.read_text())["chunks"]) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        process.kill()
        process.wait()
    saved = len(json.loads(state.read_text())["chunks"])
    assert 1 <= saved < 12, f"the eval was killed with {saved} chunks saved"
    assert runner.invoke(app, [*EVAL, *episodes, "--state", str(state), "--json", str(resumed)]).exit_code == 0
    assert runner.invoke(app, [*EVAL, *episodes, "--json", str(whole)]).exit_code == 0
    assert json.loads(resumed.read_text()) == json.loads(whole.read_text())
    assert len(json.loads(state.read_text())["chunks"]) == 12


def test_a_resumed_eval_uses_its_kept_chunks(tmp_path):
    state, first = tmp_path / "state.json", tmp_path / "first.json"
    episodes = ["--episodes", str(3 * 200 + 30)]
    assert runner.invoke(app, [*EVAL, *episodes, "--state", str(state), "--json", str(first)]).exit_code == 0
    document = json.loads(state.read_text())
    document["chunks"][0]["tally"]["wins"]["heuristic"] = 0  # had it been played again, its wins would be back
    state.write_text(json.dumps(document))
    again = tmp_path / "again.json"
    assert runner.invoke(app, [*EVAL, *episodes, "--state", str(state), "--json", str(again)]).exit_code == 0
    [before, after] = [
        {score["name"]: score["win_rate"] for score in json.loads(path.read_text())["scores"]}
        for path in (first, again)
    ]
    assert after["heuristic"] < before["heuristic"] and after["random"] == before["random"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--seed", "3"], "made with seed 2, not 3"),
        (["--episodes", "90"], "made with episodes 60, not 90"),
        (["--agents", "random,heuristic,random"], "made with tables"),
    ],
)
def test_an_eval_state_resumes_only_under_its_settings(tmp_path, change, message):
    state = tmp_path / "state.json"
    assert runner.invoke(app, [*EVAL, "--episodes", "60", "--state", str(state)]).exit_code == 0
    result = runner.invoke(app, [*EVAL, "--episodes", "60", *change, "--state", str(state)])
    assert result.exit_code == 2 and message in result.output.replace("\n", "")


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (
            lambda doc: doc.update(chunks=[{"tournament": 0, "chunk": 7, "tally": doc["chunks"][0]["tally"]}]),
            "does not fit",
        ),
        (lambda doc: doc["chunks"][0]["tally"].pop("wins"), "chunk entry 0 is malformed"),
        (lambda doc: doc.update(chunks="all"), "holds no list of chunks"),
        (lambda doc: doc.update(version=99), "is not an evaluation state file"),
    ],
)
def test_a_corrupt_eval_state_is_refused_by_name(tmp_path, corrupt, message):
    state = tmp_path / "state.json"
    assert runner.invoke(app, [*EVAL, "--episodes", "60", "--state", str(state)]).exit_code == 0
    document = json.loads(state.read_text())
    corrupt(document)
    state.write_text(json.dumps(document))
    result = runner.invoke(app, [*EVAL, "--episodes", "60", "--state", str(state)])
    assert result.exit_code == 2 and message in result.output.replace("\n", "")


def test_a_tally_reads_back_exactly_from_json():
    tally = Tally(["a", "b"], 2)
    tally.add_episode(["a", "b"], [0.1, -0.1])
    tally.add_episode(["b", "a"], [1 / 3, -1 / 3])
    tally.end_deal()
    again = Tally.from_dict(json.loads(json.dumps(tally.to_dict())))
    assert again.to_dict() == tally.to_dict() and again.episodes == 2
    with pytest.raises(ValueError, match="not a tally"):
        Tally.from_dict({"names": ["a"]})


def test_recording_hands_needs_one_local_worker(tmp_path):
    result = runner.invoke(app, ["eval", "yokir", "--workers", "2", "--record", str(tmp_path), "--episodes", "3"])
    assert result.exit_code == 2
    assert "use it with --backend local and one worker" in result.output


def test_recording_hands_cannot_resume(tmp_path):
    result = runner.invoke(app, [*EVAL, "--record", str(tmp_path), "--state", str(tmp_path / "s.json")])
    assert result.exit_code == 2 and "drop --state" in result.output


def test_an_unknown_agent_fails_before_any_deal():
    with pytest.raises(UnknownAgentError, match="unknown agent 'nobody'"):
        run_tournaments([Tournament("yokir_v1", ["heuristic", "nobody", "random"], 30)], LocalBackend())


def test_league_tables_cover_every_size_and_every_group():
    assert league_tables("yokir", ["a", "b"]) == [["a", "b", "a"]]
    assert league_tables("piktas", ["a", "b", "c"], [2, 5]) == [
        ["a", "b"],
        ["a", "c"],
        ["b", "c"],
        ["a", "b", "c", "a", "b"],
    ]
    with pytest.raises(ConfigError, match="at least two different agents"):
        league_tables("yokir", ["a", "a"])
    with pytest.raises(ConfigError, match="table size 4 is not playable"):
        league_tables("yokir", ["a", "b"], [4])
    with pytest.raises(ConfigError, match="more than 2 tables"):
        league_tables("piktas", ["a", "b", "c"], [2], limit=2)


def test_league_standings_pool_every_table():
    names = ["heuristic", "random", "field-heuristic"]
    tables = league_tables("piktas", names, [2, 3])
    played = run_tournaments(
        [Tournament("piktas_v1", seating, 60, 0, {"num_players": len(seating)}) for seating in tables], LocalBackend()
    )
    standings = {standing.name: standing for standing in league_standings(names, played)}
    assert sum(standing.mu for standing in standings.values()) == pytest.approx(1500 * 3)
    assert standings["random"].tables == 3 and standings["random"].deals == 30 + 30 + 20
    assert all(0 < standing.sigma < 200 for standing in standings.values())


def test_a_league_of_one_table_ranks_as_its_mean_rewards():
    names = ["heuristic", "random", "yokir/ppo-selfplay"]
    [(result, tally)] = played = run_tournaments([Tournament("yokir_v1", names, 300, 0)], LocalBackend())
    by_mean = [score.name for score in sorted(result.scores, key=lambda score: -score.mean)]
    assert [standing.name for standing in sorted(league_standings(names, played), key=lambda s: -s.mu)] == by_mean


def test_a_table_whose_agents_played_alike_counts_as_draws_in_the_league():
    """A margin scale of 0 (every deal level) is a draw on every deal, not a pair that never met."""

    def table(names, means, scale):
        tally = Tally(names, 2)
        tally.per_deal = {name: list(column) for name, column in zip(names, means, strict=True)}
        result = EvalResult("scarp", {"num_players": 2}, 0, 0)
        result.margin_scale = scale
        return result, tally

    level = table(["a", "b"], [[0.0] * 20, [0.0] * 20], 0.0)
    beaten = table(["b", "c"], [[1.0, 0.0] * 10, [-1.0, 0.0] * 10], 1.0)
    standings = {standing.name: standing for standing in league_standings(["a", "b", "c"], [level, beaten])}
    assert standings["a"].mu == pytest.approx(standings["b"].mu, abs=1.0)
    assert standings["c"].mu < standings["b"].mu - 50


def test_league_command_writes_tables_and_standings(tmp_path):
    target = tmp_path / "league.json"
    result = runner.invoke(
        app, ["league", "yokir", "--agents", "heuristic,random", "--episodes", "6", "--json", str(target)]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(target.read_text())
    assert [standing["name"] for standing in report["standings"]] == ["heuristic", "random"]
    assert report["results"][0]["seating"] == ["heuristic", "random", "heuristic"]
    assert "yokir_v1 league: 1 tables" in result.output


@pytest.mark.parametrize(
    "command",
    [
        ["eval", "yokir", "--backend", "ray", "--episodes", "3"],
        ["league", "yokir", "--agents", "heuristic,random", "--backend", "ray"],
        ["train", "yokir", "--backend", "ray"],
    ],
)
def test_without_ray_the_ray_backend_says_how_to_install_it(monkeypatch, command):
    monkeypatch.setitem(sys.modules, "ray", None)
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    assert 'pip install -e ".[ray]"' in result.output


def test_ray_options_need_the_ray_backend():
    result = runner.invoke(app, ["eval", "yokir", "--address", "auto", "--episodes", "3"])
    assert result.exit_code == 2
    assert "--address is an option of --backend ray" in result.output
    result = runner.invoke(app, ["train", "yokir", "--workers", "2"])
    assert result.exit_code == 2
    assert "--address and --workers are options of --backend ray" in result.output
    result = runner.invoke(app, ["train", "yokir", "--backend", "ray", "--workers", "0"])
    assert result.exit_code == 2 and "--workers" in result.output


def test_a_device_torch_lacks_is_refused():
    result = runner.invoke(app, ["train", "yokir", "--device", "tpu9"])
    assert result.exit_code == 2 and "--device 'tpu9' is not a torch device" in result.output
