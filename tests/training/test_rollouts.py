"""Rollout workers and the learner they feed, in this process (the Ray actors run the same code)."""

import json
import math

import numpy as np
import pytest
import torch
from cardarena.agents.policy import export_policy
from cardarena.training.config import load_train_config
from cardarena.training.rollouts import Episode, RolloutWorker, lay_out
from cardarena.training.train import Trainer, WorkerPPO
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
            self.workers = [RolloutWorker(self.config, index, self.states[index]) for index in range(self.count)]
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
