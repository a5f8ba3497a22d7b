"""Training end to end: smoke runs for every registered game, checkpoints, and resuming a killed run."""

import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from cardarena.agents import load
from cardarena.agents.loading import checkpoint_folder
from cardarena.agents.policy import PolicyAgent
from cardarena.envs import GAMES, make
from cardarena.envs.core.errors import CheckpointError, UnknownAgentError
from cardarena.training.checkpoint import read_actor_critic
from cardarena.training.config import load_train_config
from cardarena.training.train import ResumePoint, Trainer, latest_checkpoint
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from typer.testing import CliRunner

from cardarena.cli import app

torch.set_num_threads(1)
runner = CliRunner()

TINY = [
    "n_envs=2",
    "ppo.n_steps=64",
    "ppo.batch_size=64",
    "ppo.n_epochs=1",
    "ppo.net_arch=[16]",
    "eval.episodes=6",
    "eval.final_episodes=6",
    "opponents.snapshot_every=128",
    "pretrain.episodes=60",
    "pretrain.epochs=1",
]


def tiny_config(game, *extra):
    return load_train_config(game, overrides=[*TINY, *extra])


@pytest.mark.parametrize("game", GAMES)
def test_smoke_training_writes_a_playable_checkpoint(game, tmp_path):
    config = tiny_config(game, "total_steps=384", "eval.every=256", "checkpoint_every=256")
    trainer = Trainer.start(config, tmp_path / "run")
    result = trainer.run()
    assert result.steps >= 384
    assert (result.final_checkpoint / "card.json").is_file()
    assert sorted(p.name for p in (tmp_path / "run" / "checkpoints").iterdir()) == [
        "step_0000000000",
        "step_0000000256",
    ]
    assert latest_checkpoint(tmp_path / "run").name == "final"
    history = [json.loads(line) for line in (tmp_path / "run" / "history.jsonl").read_text().splitlines()]
    assert [row["steps"] for row in history][-1] == result.steps
    assert set(history[-1]["results"]) == {"random", "heuristic"}
    assert (
        0 <= history[-1]["rating"]["sigma"] < float("inf")
    )  # 0 where every deal ended alike (a seat that always folds)
    assert (tmp_path / "run" / "learning_curve.png").stat().st_size > 1000
    scalars = EventAccumulator(str(tmp_path / "run" / "tb"))
    scalars.Reload()
    expected = {
        "eval/random/win_rate",
        "eval/heuristic/mean",
        "eval/rating_mu",
        "rollout/ep_rew_mean",
        "rollout/ep_len_mean",
        "throughput/env_steps_per_s",
        "train/value_loss",
        "train/policy_gradient_loss",
        "pretrain/accuracy",
    }
    assert expected <= set(scalars.Tags()["scalars"])
    assert len(trainer.pool.snapshots) >= 3

    bot = load(str(result.final_checkpoint), game=game.rsplit("_v", 1)[0])
    env = make(game)
    for episode in range(5):
        env.reset(seed=episode)
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation else bot.act(observation))


def test_card_records_the_run(tmp_path):
    trainer = Trainer.start(tiny_config("yokir", "total_steps=128", "eval.every=100000"), tmp_path / "run")
    result = trainer.run()
    card = json.loads((result.final_checkpoint / "card.json").read_text())
    assert card["env_id"] == "yokir_v1"
    assert card["steps"] == result.steps
    assert card["config"]["ppo"]["net_arch"] == [16]
    assert set(card["evaluation"]) == {"random", "heuristic"}


def test_a_run_directory_is_not_overwritten(tmp_path):
    Trainer.start(tiny_config("yokir", "total_steps=64"), tmp_path / "run")
    with pytest.raises(Exception, match="already holds a run"):
        Trainer.start(tiny_config("yokir", "total_steps=64"), tmp_path / "run")


@pytest.mark.parametrize("game", ["yokir", "paradigm"])  # a plain MLP actor; an actor with an action-feature head
def test_resume_restores_steps_pool_and_model(game, tmp_path):
    run = tmp_path / "run"
    first = Trainer.start(tiny_config(game, "total_steps=256", "checkpoint_every=128", "eval.every=100000"), run)
    first.run()
    checkpoint = latest_checkpoint(run)
    assert checkpoint.name == "final"
    resumed = Trainer.resume(run, {"total_steps": 512})
    assert resumed.steps == 256
    assert [s.name for s in resumed.pool.snapshots] == [s.name for s in first.pool.snapshots]
    saved, restored = first.pool.state_dict()["policies"], resumed.pool.state_dict()["policies"]
    assert saved.keys() == restored.keys()
    for name, policy in saved.items():
        agents = PolicyAgent(policy), PolicyAgent(restored[name])
        probe = np.random.default_rng(1).random(agents[0].observation_size).astype(np.float32)
        assert np.array_equal(agents[0].logits(probe), agents[1].logits(probe))
    observation = np.random.default_rng(0).random(make(game).unwrapped.encoder.observation_size).astype(np.float32)
    with torch.no_grad():
        before = first.model.policy.predict_values(torch.as_tensor(observation[None]))
        after = resumed.model.policy.predict_values(torch.as_tensor(observation[None]))
    assert torch.allclose(before, after)
    assert checkpoint is not None
    result = resumed.run()
    assert result.steps >= 512


def test_a_search_agent_in_the_pool_is_checkpointed_and_resumed_with_its_rng(tmp_path):
    run = tmp_path / "run"
    settings = ["total_steps=128", "checkpoint_every=64", "eval.every=100000", "opponents.baselines=[pimc:worlds=1]"]
    first = Trainer.start(tiny_config("yokir", *settings, "opponents.baseline_share=1.0"), run)
    first.run()
    searcher = first.pool.baselines[0].agent
    assert isinstance(searcher.rng, random.Random)
    resumed = Trainer.resume(run, {"total_steps": 192})
    assert resumed.pool.baselines[0].agent.rng.getstate() == searcher.rng.getstate()
    assert resumed.run().steps >= 192


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished run with checkpoints at steps 0, 128 and 256 (final)."""
    run = tmp_path_factory.mktemp("finished") / "run"
    Trainer.start(tiny_config("yokir", "total_steps=256", "checkpoint_every=128", "eval.every=100000"), run).run()
    return run


@pytest.fixture
def run_copy(finished_run, tmp_path):
    return Path(shutil.copytree(finished_run, tmp_path / "run"))


def _truncate(file):
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])


def _vouch_for(checkpoint, name):
    """Record the file's current sha256 on the card: damage that `verify_checkpoint` cannot see."""
    card = json.loads((checkpoint / "card.json").read_text())
    card["files"][name] = hashlib.sha256((checkpoint / name).read_bytes()).hexdigest()
    (checkpoint / "card.json").write_text(json.dumps(card))


def _pool_with_an_array(checkpoint):
    saved = torch.load(checkpoint / "pool.pt", weights_only=True)
    torch.save({**saved, "extra": np.zeros(3)}, checkpoint / "pool.pt")


def test_resume_skips_a_truncated_newest_model_and_says_which_checkpoint_it_uses(run_copy):
    _truncate(run_copy / "final" / "model.zip")
    result = runner.invoke(app, ["train", "yokir", "--resume", str(run_copy)])
    output = " ".join(result.output.split())
    assert result.exit_code == 0, output
    assert f"skipped a damaged checkpoint: {run_copy / 'final'}: sha256 mismatch in model.zip" in output
    assert f"resuming from the checkpoint {run_copy / 'checkpoints' / 'step_0000000128'}" in output
    assert "(from step 128)" in output
    assert json.loads((run_copy / "final" / "card.json").read_text())["steps"] == 256


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda c: (c / "trainer_state.json").write_text("{not json"), "trainer_state.json is not valid JSON"),
        (lambda c: (c / "trainer_state.json").write_text("[]"), "trainer_state.json holds a list, not an object"),
        (
            lambda c: (c / "trainer_state.json").write_text("{}"),
            r"its resume state \(trainer_state.json, pool.pt\) is malformed \(KeyError: .env_rngs.",
        ),
        (lambda c: _truncate(c / "pool.pt"), "pool.pt cannot be read, the file is corrupt"),
        (_pool_with_an_array, "pool.pt holds objects other than tensors"),
    ],
    ids=["state-not-json", "state-not-an-object", "state-without-fields", "pool-truncated", "pool-not-only-tensors"],
)
def test_resume_falls_back_past_resume_state_that_verifies_but_does_not_load(run_copy, damage, problem):
    final = run_copy / "final"
    damage(final)
    _vouch_for(final, "trainer_state.json")
    _vouch_for(final, "pool.pt")
    resumed = Trainer.resume(run_copy)
    assert resumed.steps == 128
    assert resumed.resume_point.checkpoint == run_copy / "checkpoints" / "step_0000000128"
    [skipped] = resumed.resume_point.skipped
    assert skipped.folder == final
    assert re.match(f"{re.escape(str(final))}: {problem}", skipped.problem)


def test_resume_with_every_checkpoint_damaged_names_each_and_does_not_start_over(run_copy):
    folders = [run_copy / "final", *sorted((run_copy / "checkpoints").iterdir(), reverse=True)]
    for folder in folders:
        _truncate(folder / "model.zip")
    with pytest.raises(CheckpointError, match="none of its 3 checkpoints can be resumed from") as refused:
        Trainer.resume(run_copy)
    for folder in folders:
        assert f"{folder}: sha256 mismatch in model.zip" in str(refused.value)
    result = runner.invoke(app, ["train", "yokir", "--resume", str(run_copy)])
    assert result.exit_code == 2
    assert "none of its 3 checkpoints" in result.output and "from step" not in result.output


def test_a_run_killed_before_its_first_checkpoint_resumes_from_step_0_and_says_so(tmp_path):
    run = tmp_path / "run"
    Trainer.start(tiny_config("yokir", "total_steps=64", "eval.every=100000"), run)
    resumed = Trainer.resume(run)
    assert resumed.steps == 0 and resumed.resume_point == ResumePoint(None)
    result = runner.invoke(app, ["train", "yokir", "--resume", str(run)])
    output = " ".join(result.output.split())
    assert result.exit_code == 0, output
    assert f"{run} has no checkpoint yet: the run starts again from step 0" in output
    assert (run / "final" / "card.json").is_file()


def test_a_killed_run_resumes_from_its_last_checkpoint(tmp_path):
    run = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "cardarena.cli",
        "train",
        "yokir",
        "--run-dir",
        str(run),
        *[arg for setting in TINY for arg in ("--set", setting)],
        "--set",
        "total_steps=4096",
        "--set",
        "checkpoint_every=256",
        "--set",
        "eval.every=100000",
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    log = open(tmp_path / "train.log", "w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    deadline = time.monotonic() + 120
    try:
        while latest_checkpoint(run) is None or latest_checkpoint(run).name < "step_0000000512":
            assert process.poll() is None, (tmp_path / "train.log").read_text()
            assert time.monotonic() < deadline, "no checkpoint within 120 s"
            time.sleep(0.2)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        log.close()
    assert not (run / "final").exists()
    killed_at = json.loads((latest_checkpoint(run) / "card.json").read_text())["steps"]
    assert 512 <= killed_at < 4096

    resumed = subprocess.run(
        [sys.executable, "-m", "cardarena.cli", "train", "yokir", "--resume", str(run)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"from step {killed_at:,}" in resumed.stdout
    card = json.loads((run / "final" / "card.json").read_text())
    assert card["steps"] >= 4096


def test_resume_overrides_merge_into_nested_settings(tmp_path):
    run = tmp_path / "run"
    Trainer.start(tiny_config("yokir", "total_steps=64", "ppo.learning_rate=0.001"), run)
    resumed = Trainer.resume(run, {"ppo": {"n_epochs": 2}, "total_steps": 128})
    assert resumed.config.ppo.n_epochs == 2
    assert resumed.config.ppo.learning_rate == 0.001
    assert resumed.config.ppo.net_arch == [16]
    assert resumed.config.total_steps == 128


def test_the_final_evaluation_plays_final_episodes_against_each_baseline(tmp_path):
    totals: dict[str, set[int]] = {}
    trainer = Trainer.start(
        tiny_config("yokir", "total_steps=64", "eval.every=100000", "eval.final_episodes=9"), tmp_path / "run"
    )
    trainer.run(on_progress=lambda phase, done, total, latest: totals.setdefault(phase, set()).add(total))
    assert totals["evaluation"] == {3 * 9}  # random, heuristic and the table of both, 9 episodes each
    assert load_train_config("yokir").eval.final_episodes == 20001  # the README's main job resolves its edge


def test_start_from_a_shipped_bot_begins_with_its_weights(tmp_path):
    config = load_train_config(
        "yokir", overrides=[*TINY, "ppo.net_arch=[256,256]", "start_from=yokir/ppo-selfplay", "total_steps=64"]
    )
    Trainer.start(config, tmp_path / "run").run()
    start = read_actor_critic(tmp_path / "run" / "checkpoints" / "step_0000000000")
    shipped = read_actor_critic(checkpoint_folder("yokir/ppo-selfplay", "yokir"))
    assert (start["format"], start["activation"]) == (shipped["format"], shipped["activation"])
    for part in (start, start["value"]):
        assert part["weights"][0].dtype == np.float32
    np.testing.assert_equal(
        [start["weights"], start["biases"], start["value"]],
        [shipped["weights"], shipped["biases"], shipped["value"]],
    )


def test_start_from_a_checkpoint_of_another_shape_or_name_is_a_clear_error(tmp_path):
    mismatched = load_train_config("yokir", overrides=[*TINY, "start_from=yokir/ppo-selfplay", "total_steps=64"])
    with pytest.raises(CheckpointError, match=r"does not fit this run's \(the checkpoint's net_arch \[256, 256\]"):
        Trainer.start(mismatched, tmp_path / "a").run()
    with pytest.raises(UnknownAgentError, match="'yokir/nobody' is neither a shipped checkpoint of 'yokir'"):
        Trainer.start(load_train_config("yokir", overrides=["start_from=yokir/nobody"]), tmp_path / "b")
    assert not (tmp_path / "b").exists()
    with pytest.raises(UnknownAgentError, match="plays 'scarp', not 'yokir'"):
        Trainer.start(load_train_config("yokir", overrides=["start_from=scarp/ppo-selfplay"]), tmp_path / "c")
    scarp_folder = str(checkpoint_folder("scarp/ppo-selfplay", "scarp"))
    with pytest.raises(CheckpointError, match="this checkpoint plays 'scarp', not 'yokir'"):
        Trainer.start(load_train_config("yokir", overrides=[f"start_from={scarp_folder}"]), tmp_path / "d")
    assert not (tmp_path / "d").exists()
