"""Rollout workers and the learner they feed, in this process (the Ray actors run the same code)."""

import hashlib
import json
import math

import numpy as np
import pytest
import torch
import yaml
from cardarena.agents.policy import export_policy
from cardarena.envs.core.errors import ConfigError
from cardarena.training.config import load_train_config
from cardarena.training.rollouts import Episode, RolloutWorker, checked_worker_state, lay_out
from cardarena.training.train import Trainer, WorkerPPO, run_checkpoints
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from test_train import TINY as TRAIN_TINY

torch.set_num_threads(1)

TINY = [*TRAIN_TINY, "pretrain.teacher=null"]


class InProcessWorkers:
    """`cluster.RayWorkers` without Ray: the same workers, played one after the other here."""

    def __init__(self, count):
        self.count = count
        self.states = [None] * count
        self.workers = []
        self.config = None

    def start(self, config, states=()):
        self.config = config.model_dump()
        self.states = [*states, *[None] * self.count][: self.count]

    def stop(self):
        self.workers = []

    def collect(self, policy, pool, steps):
        if not self.workers:
            tables = self.config["ray"]["tables"]
            self.workers = [RolloutWorker(self.config, index, state, tables) for index, state in enumerate(self.states)]
        shared = {"policy": policy, "pool": pool.shared_state()}
        batches = [worker.play(shared, math.ceil(steps / self.count)) for worker in self.workers]
        for index, batch in enumerate(batches):
            pool.add_records(batch.records)
            self.states[index] = batch.state
        return [episode for batch in batches for episode in batch.episodes]


def episode(steps, start, truncated=False):
    """An episode whose observations count up from `start` (one column of 2 values)."""
    observations = np.arange(start, start + steps + 1, dtype=np.float32)[:, None].repeat(2, axis=1)
    return Episode(
        observations,
        np.ones((steps, 3), bool),
        np.arange(steps),
        np.zeros(steps, np.float32),
        np.arange(1, steps + 1, dtype=np.float32),
        truncated,
        {"reward": float(steps)},
    )


def test_lay_out_fills_columns_with_whole_episodes_and_cuts_the_last():
    layout = lay_out(
        [episode(3, 0), episode(2, 10), episode(4, 20), episode(5, 30), episode(1, 40)], n_steps=4, n_envs=2
    )
    assert layout.observations[:, :, 0].T.tolist() == [[0, 1, 2, 10], [20, 21, 22, 23]]
    assert layout.starts.T.tolist() == [[True, False, False, True], [True, False, False, False]]
    assert layout.last_observations[:, 0].tolist() == [11, 24]
    assert layout.last_dones.tolist() == [False, True]
    assert [(row, column, ep.outcome["reward"]) for row, column, ep in layout.ends] == [(2, 0, 3.0), (3, 1, 4.0)]
    with pytest.raises(ValueError, match="needs more steps"):
        lay_out([episode(3, 0)], n_steps=4, n_envs=1)


def test_a_worker_given_its_state_plays_on_as_it_would_have(tmp_path):
    config = load_train_config("yokir", overrides=TINY)
    trainer = Trainer(config, tmp_path)
    policy = export_policy(trainer.model.policy)
    trainer.pool.add_snapshot(policy, 0)
    shared = {"policy": policy, "pool": trainer.pool.shared_state()}
    worker = RolloutWorker(config.model_dump(), 0)
    worker.play(shared, 50)
    resumed = RolloutWorker(config.model_dump(), 0, json.loads(json.dumps(worker.state())))
    expected, replayed = worker.play(shared, 50), resumed.play(shared, 50)
    assert [e.actions.tolist() for e in expected.episodes] == [e.actions.tolist() for e in replayed.episodes]
    assert expected.records == replayed.records and sum(games for games, _ in expected.records.values()) > 0


def test_workers_feed_the_learner_its_logs_and_a_resumable_checkpoint(tmp_path):
    run = tmp_path / "run"
    config = load_train_config("yokir", overrides=[*TINY, "total_steps=384", "eval.every=256", "checkpoint_every=256"])
    trainer = Trainer.start(config, run, workers=InProcessWorkers(2))
    assert isinstance(trainer.model, WorkerPPO)
    result = trainer.run()
    assert result.steps == 384
    scalars = EventAccumulator(str(run / "tb"))
    scalars.Reload()
    expected = {
        "rollout/ep_rew_mean",
        "rollout/ep_len_mean",
        "selfplay/win_rate",
        "selfplay/learner_reward",
        "train/value_loss",
        "eval/rating_mu",
    }
    assert expected <= set(scalars.Tags()["scalars"])
    assert sum(record.games for record in trainer.pool.baselines + trainer.pool.snapshots) > 0

    workers = InProcessWorkers(2)
    resumed = Trainer.resume(run, {"total_steps": 512}, workers=workers)
    assert resumed.steps == 384 and isinstance(resumed.model, WorkerPPO)
    assert workers.states == json.loads(json.dumps(trainer.workers.states))
    assert resumed.pool.records() == trainer.pool.records()
    assert resumed.run().steps == 512


def as_written_before_tables(run):
    """`run` as the Ray backend wrote it before its workers played several tables: no `ray`
    settings in config.yaml, and each worker's state one table's ("env_rng" and an episode count)."""
    config = yaml.safe_load((run / "config.yaml").read_text())
    del config["ray"]
    (run / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    for checkpoint in run_checkpoints(run):
        path = checkpoint / "trainer_state.json"
        state = json.loads(path.read_text())
        for worker in filter(None, state["worker_states"]):
            [worker["env_rng"]], [worker["episodes"]] = worker.pop("env_rngs"), worker["episodes"]
        path.write_text(json.dumps(state))
        card = json.loads((checkpoint / "card.json").read_text())
        card["files"][path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        (checkpoint / "card.json").write_text(json.dumps(card))


def test_a_ray_run_written_before_workers_had_several_tables_resumes_with_one_table_each(tmp_path):
    run = tmp_path / "run"
    settings = [*TINY, "total_steps=256", "checkpoint_every=128", "eval.every=100000", "ray.tables=1", "ray.max_lag=0"]
    trainer = Trainer.start(load_train_config("yokir", overrides=settings), run, workers=InProcessWorkers(2))
    trainer.run()
    saved = json.loads(json.dumps(trainer.workers.states))
    as_written_before_tables(run)

    workers = InProcessWorkers(2)
    resumed = Trainer.resume(run, {"total_steps": 384}, workers=workers)
    assert resumed.resume_point.checkpoint == run / "final", resumed.resume_point
    assert (resumed.config.ray.tables, resumed.config.ray.max_lag) == (1, 0)
    assert workers.states == saved
    assert resumed.run().steps == 384

    with pytest.raises(ConfigError, match=r"saved playing ray.tables=1, .*resume with --set ray.tables=1"):
        Trainer.resume(run, {"ray": {"tables": 4}}, workers=InProcessWorkers(2))


def test_a_worker_state_that_lacks_a_part_is_named():
    with pytest.raises(ValueError, match="a rollout worker's state lacks pool, learner_rng"):
        checked_worker_state({"env_rngs": [{}], "episodes": [0]}, tables=1)
    with pytest.raises(ValueError, match="not a mapping"):
        checked_worker_state([1, 2], tables=1)
