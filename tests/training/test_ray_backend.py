"""The Ray backend on a local two-CPU cluster: training, asynchronous training that learns and
resumes after its process is killed, a killed rollout worker, tournaments equal to the local
backend's bit for bit (also when a worker dies mid-tournament), and expert iteration whose search
games on Ray record the local data and whose run resumes as a local one.

These tests start Ray, so they run only where the loopback interface is the only one (a network
namespace of their own), and carry the `ray` marker: CI runs them with
`unshare -n sh -c 'ip link set lo up && .venv/bin/pytest -m ray'`.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from cardarena.agents import load
from cardarena.envs import register
from cardarena.envs.core.errors import ClusterError
from cardarena.training import cluster, expert
from cardarena.training.config import load_train_config
from cardarena.training.league import league_tables
from cardarena.training.tournament import LocalBackend, Tournament, chunks_of, run_tournaments, work_units
from cardarena.training.train import Trainer, run_checkpoints
from ray_toy_game import DEATHS
from typer.testing import CliRunner

from cardarena.cli import app

ray = pytest.importorskip("ray", reason='the Ray backend tests need the ray extra: pip install -e ".[ray]"')
pytestmark = pytest.mark.ray
torch.set_num_threads(1)
runner = CliRunner()

TINY = [
    "n_envs=4",
    "ppo.n_steps=128",
    "ppo.batch_size=128",
    "ppo.n_epochs=1",
    "ppo.net_arch=[16]",
    "eval.episodes=6",
    "opponents.snapshot_every=512",
    "pretrain.teacher=null",
]
TESTS = Path(__file__).parents[1]
# Ray's workers import the toy game highcard (tests/envs/highcard.py) and register it, as this process does.
RUNTIME_ENV = {
    "env_vars": {"PYTHONPATH": os.pathsep.join([str(TESTS / "envs"), str(TESTS / "training")])},
    "worker_process_setup_hook": "ray_toy_game.register_highcard",
}
HIGHCARD_RUN = [
    "n_envs=4",
    "ppo.n_steps=64",
    "ppo.batch_size=256",
    "ppo.n_epochs=4",
    "ppo.learning_rate=3e-3",
    "ppo.net_arch=[16]",
    "total_steps=6144",
    "checkpoint_every=1024",
    "eval.every=100000",
    "eval.episodes=4",
    "eval.final_episodes=2000",
    "opponents.snapshot_every=1024",
    "ray.tables=4",
]


@pytest.fixture(scope="module", autouse=True)
def local_cluster(tmp_path_factory):
    """A two-CPU Ray instance for this module, on loopback only, shut down at its end; the folder
    of its workers' death tokens (`ray_toy_game.MortalRandom`)."""
    interfaces = sorted(name for _, name in socket.if_nameindex())
    if interfaces != ["lo"]:
        pytest.fail(
            f"the Ray tests start a cluster and must run where loopback is the only interface, not {interfaces}: "
            "unshare -n sh -c 'ip link set lo up && .venv/bin/pytest -m ray' (as root)"
        )
    deaths = tmp_path_factory.mktemp("deaths")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={**RUNTIME_ENV, "env_vars": {**RUNTIME_ENV["env_vars"], DEATHS: str(deaths)}},
        _temp_dir=str(tmp_path_factory.mktemp("ray")),
    )
    yield deaths
    ray.shutdown()


@pytest.fixture
def death_tokens(local_cluster):
    """Lays `count` death tokens for the workers' MortalRandom agents; those left are cleared after the test."""

    def lay(count):
        for index in range(count):
            (local_cluster / f"death-{index}").touch()

    yield lay
    for token in local_cluster.glob("death-*"):
        token.unlink()
    assert not any(local_cluster.glob("death-*"))


def invoke(*args):
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


def overrides(*extra):
    return [arg for setting in [*TINY, *extra] for arg in ("--set", setting)]


def test_a_ray_trained_bot_loads_and_plays_and_its_run_resumes(tmp_path):
    run = tmp_path / "run"
    invoke(
        "train",
        "yokir",
        "--backend",
        "ray",
        "--workers",
        2,
        "--run-dir",
        run,
        *overrides("total_steps=1024", "checkpoint_every=512", "eval.every=512"),
    )
    for name in ("model.zip", "policy.npz", "card.json", "trainer_state.json", "pool.pt"):
        assert (run / "final" / name).is_file()
    state = json.loads((run / "final" / "trainer_state.json").read_text())
    assert len(state["worker_states"]) == 2 and all(state["worker_states"])
    assert json.loads((run / "final" / "card.json").read_text())["steps"] == 1024
    bot = load(str(run / "final"), game="yokir")
    assert bot.name == "final"
    report = tmp_path / "eval.json"
    invoke(
        "eval",
        "yokir",
        "--agents",
        f"{run / 'final'},heuristic,heuristic",
        "--episodes",
        30,
        "--backend",
        "ray",
        "--json",
        report,
    )
    assert {score["name"] for score in json.loads(report.read_text())["scores"]} == {str(run / "final"), "heuristic"}

    resumed = invoke("train", "yokir", "--backend", "ray", "--workers", 2, "--resume", run, "--set", "total_steps=2048")
    assert "from step 1,024" in resumed.output
    card = json.loads((run / "final" / "card.json").read_text())
    assert card["steps"] == 2048
    assert [row["steps"] for row in map(json.loads, (run / "history.jsonl").read_text().splitlines())] == [
        512,
        1024,
        1536,
        2048,
    ]


KILLABLE_RUN = """
import json, sys
from pathlib import Path
import ray
import ray_toy_game
from cardarena.training.cluster import RayWorkers
from cardarena.training.config import load_train_config
from cardarena.training.train import Trainer
ray_toy_game.register_highcard()
address, run, settings, runtime_env = sys.argv[1], Path(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
ray.init(address=address, log_to_driver=False, runtime_env=runtime_env)
Trainer.start(load_train_config("highcard", overrides=settings), run, workers=RayWorkers(2)).run()
"""


@pytest.fixture
def highcard(own_registry, monkeypatch):
    """The toy game highcard_v1 registered here (Ray's workers register it themselves: RUNTIME_ENV)."""
    monkeypatch.syspath_prepend(str(TESTS / "envs"))
    import highcard

    register(highcard.ENV_ID, highcard.MODULE)
    return highcard.ENV_ID


def test_asynchronous_training_beats_random_on_a_toy_game_and_resumes_after_its_process_is_killed(highcard, tmp_path):
    run = tmp_path / "run"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([RUNTIME_ENV["env_vars"]["PYTHONPATH"], os.environ.get("PYTHONPATH", "")]),
    }
    args = [ray.get_runtime_context().gcs_address, run, json.dumps(HIGHCARD_RUN), json.dumps(RUNTIME_ENV)]
    trainer = subprocess.Popen([sys.executable, "-c", KILLABLE_RUN, *map(str, args)], env=env)
    try:
        while len(run_checkpoints(run)) < 2 and trainer.poll() is None:  # step 0 and one more
            time.sleep(0.2)
    finally:
        trainer.send_signal(signal.SIGKILL)
        trainer.wait()
    assert not (run / "final").exists()

    resumed = Trainer.resume(run, workers=cluster.RayWorkers(2))
    assert resumed.resume_point.checkpoint is not None and resumed.steps >= 1024
    result = resumed.run()
    assert result.steps == 6144
    versus_random = result.evaluation["random"]
    assert versus_random["mean"] - versus_random["ci95"] > 0, versus_random


class KillingWorkers(cluster.RayWorkers):
    """Rollout workers whose first one is killed as the second update asks for its rollout.

    The worker is then playing that rollout or has it done and the next one queued: either way
    exactly one rollout it owes is lost, whatever the machine's speed."""

    def __init__(self, count):
        super().__init__(count)
        self.collects = 0

    def collect(self, policy, pool, steps):
        self.collects += 1
        if self.collects == 2:
            ray.kill(self.actors[0], no_restart=True)
        return super().collect(policy, pool, steps)


def test_a_killed_worker_is_replaced_and_its_unfinished_episodes_are_not_counted(tmp_path):
    settings = [
        *TINY,
        "n_envs=8",
        "ppo.n_steps=256",
        "total_steps=6144",
        "eval.every=100000",
        "checkpoint_every=100000",
    ]
    config = load_train_config("yokir", overrides=settings)
    calm = Trainer.start(config, tmp_path / "calm", workers=cluster.RayWorkers(2))
    calm.run()
    killing = KillingWorkers(2)
    killed = Trainer.start(config, tmp_path / "killed", workers=killing)
    killed.run()
    assert killing.replaced == 1
    assert killed.steps == calm.steps == 6144
    assert killed.pool.records() == calm.pool.records()
    for before, after in zip(calm.model.policy.parameters(), killed.model.policy.parameters(), strict=True):
        assert torch.equal(before, after)


def test_eval_on_ray_gives_the_local_numbers_bit_for_bit(tmp_path):
    files = {}
    for backend in ("local", "ray"):
        files[backend] = tmp_path / f"{backend}.json"
        invoke(
            "eval",
            "yokir",
            "--agents",
            "heuristic,random,random",
            "--episodes",
            1300,
            "--seed",
            5,
            "--backend",
            backend,
            *(["--workers", 2] if backend == "ray" else []),
            "--json",
            files[backend],
        )
    local, remote = (json.loads(files[backend].read_text()) for backend in ("local", "ray"))
    assert local == remote
    assert local["scores"][0]["deals"] == 434  # three chunks of deals


def test_an_eval_on_ray_resumes_from_its_state_file(tmp_path):
    state, whole, resumed = tmp_path / "state.json", tmp_path / "whole.json", tmp_path / "resumed.json"
    command = ["eval", "yokir", "--agents", "heuristic,random,random", "--episodes", 1300, "--seed", 5]
    command += ["--backend", "ray", "--workers", 2, "--state", state]
    invoke(*command, "--json", whole)
    document = json.loads(state.read_text())
    assert len(document["chunks"]) == 3
    document["chunks"] = document["chunks"][1:]  # as if stopped before the first chunk was saved
    state.write_text(json.dumps(document))
    invoke(*command, "--json", resumed)
    assert json.loads(resumed.read_text()) == json.loads(whole.read_text())
    assert len(json.loads(state.read_text())["chunks"]) == 3


def test_a_league_on_ray_gives_the_local_numbers_bit_for_bit():
    tables = league_tables("piktas", ["heuristic", "random", "field-heuristic"], [2, 4])
    tournaments = [Tournament("piktas_v1", seating, 40, 3, {"num_players": len(seating)}) for seating in tables]
    local = run_tournaments(tournaments, LocalBackend(), chunk_deals=4)
    remote = run_tournaments(tournaments, cluster.RayBackend(2), chunk_deals=4)
    for (local_result, local_tally), (remote_result, remote_tally) in zip(local, remote, strict=True):
        assert local_result.to_dict() == remote_result.to_dict()
        assert np.array_equal(local_tally.deal_means(), remote_tally.deal_means())


def test_work_units_keep_every_worker_busy_biggest_first():
    long, short = Tournament("yokir_v1", ["heuristic", "random"], 40_000), Tournament("yokir_v1", ["random"] * 3, 300)
    chunks = [*chunks_of(long), *chunks_of(short)]
    units = work_units(chunks, 2)
    assert sorted(index for unit in units for index in unit) == list(range(len(chunks)))
    assert 2 < len(units) < len(chunks)
    for unit in units:
        assert unit == list(range(unit[0], unit[-1] + 1))
        assert len({chunks[index].tournament.episodes for index in unit}) == 1
    sizes = [sum(chunks[index].episodes for index in unit) for unit in units]
    assert sizes == sorted(sizes, reverse=True)


def test_too_many_workers_and_an_unreachable_cluster_are_named():
    with pytest.raises(ClusterError, match="--workers 3 needs 3 CPUs, but the Ray cluster has 2"):
        cluster.connect(None, 3)
    result = runner.invoke(app, ["eval", "yokir", "--backend", "ray", "--workers", "3", "--episodes", "3"])
    assert result.exit_code == 2 and "needs 3 CPUs" in result.output
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ClusterError, match=f"no Ray cluster answers at 127.0.0.1:{port}"):
        cluster._check_reachable(f"127.0.0.1:{port}")


MORTAL_TABLE = ["heuristic", "ray_toy_game:MortalRandom", "random"]


def test_a_tournament_worker_that_dies_is_replaced_and_the_numbers_stay_the_local_ones(death_tokens, local_cluster):
    tournaments = [Tournament("yokir_v1", MORTAL_TABLE, 60, 7)]
    local = run_tournaments(tournaments, LocalBackend(), chunk_deals=4)
    death_tokens(1)
    backend = cluster.RayBackend(2)
    remote = run_tournaments(tournaments, backend, chunk_deals=4)
    assert backend.replaced == 1 and not any(local_cluster.glob("death-*"))  # one worker died mid-chunk
    [(local_result, local_tally)], [(remote_result, remote_tally)] = local, remote
    assert local_result.to_dict() == remote_result.to_dict()
    assert np.array_equal(local_tally.deal_means(), remote_tally.deal_means())


def test_a_tournament_worker_that_keeps_dying_is_a_clear_error(death_tokens):
    death_tokens(2)
    unit = rf"chunks \d+ to \d+ of the table {', '.join(MORTAL_TABLE)}"
    with pytest.raises(ClusterError, match=f"a Ray worker died 2 times playing {unit}"):
        run_tournaments([Tournament("yokir_v1", MORTAL_TABLE, 60, 7)], cluster.RayBackend(1), chunk_deals=4)


EXPERT_TINY = [
    "algo=expert-iteration",
    "n_envs=1",
    "ppo.net_arch=[16]",
    "pretrain.teacher=null",
    "eval.episodes=4",
    "eval.final_episodes=4",
    "expert.games=4",
    "expert.iterations=8",
    "expert.gate_episodes=8",
]


def test_expert_iteration_search_games_on_ray_record_the_local_data_bit_for_bit(tmp_path):
    config = load_train_config("yokir", overrides=EXPERT_TINY)
    policy = Trainer(config, tmp_path).model.policy
    here = expert.collect_search_data(config, policy, generation=3)
    played = []
    on_ray = expert.collect_search_data(config, policy, 3, played.append, cluster.RaySearch(2))
    assert len(here) > 0 and played == [1, 2, 3, 4]
    for name in ("observations", "masks", "policies", "returns"):
        assert np.array_equal(getattr(here, name), getattr(on_ray, name)), name


def test_an_expert_iteration_run_on_ray_resumes_and_learns_what_a_local_run_learns(highcard, tmp_path):
    local = Trainer.start(load_train_config(highcard, overrides=[*EXPERT_TINY, "expert.generations=2"]), tmp_path / "a")
    local.run()
    run = tmp_path / "ray"
    config = load_train_config(highcard, overrides=[*EXPERT_TINY, "expert.generations=1"])
    Trainer.start(config, run, workers=cluster.RayWorkers(2)).run()
    resumed = Trainer.resume(run, {"expert": {"generations": 2}}, workers=cluster.RayWorkers(2))
    assert resumed.generation == 1
    resumed.run()

    def generations(folder):
        rows = map(json.loads, (folder / "history.jsonl").read_text().splitlines())
        return [row["expert"] for row in rows if "expert" in row]

    assert [row["generation"] for row in generations(run)] == [1, 2]
    assert generations(run) == generations(tmp_path / "a")
    for here, there in zip(local.model.policy.parameters(), resumed.model.policy.parameters(), strict=True):
        assert torch.equal(here, there)
