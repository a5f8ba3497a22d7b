"""Rollouts played apart from the learner: whole self-play episodes returned as arrays.

A `RolloutWorker` holds a `SelfPlayEnv` and its own copy of the opponent pool. For each PPO
update it receives the learner's policy (numpy arrays, `export_policy`) and the pool's shared
state, plays whole episodes until it has the steps asked of it, sampling the learner's moves in
numpy, and returns them (`Batch`) with the games each opponent played against the learner and its
RNG state. `lay_out` places the episodes in the learner's rollout buffer. The worker needs no
torch and no stable-baselines3; `cluster.RayWorkers` runs workers as Ray actors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from cardarena.agents.policy import PolicyAgent

from .config import validate_train_config
from .selfplay import OpponentPool, SelfPlayEnv


@dataclass
class Episode:
    """One learner episode: `observations` holds one more row than there are steps (the
    observation after the last step), `outcome` is `SelfPlayEnv`'s."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    rewards: np.ndarray
    truncated: bool
    outcome: dict[str, Any]

    @property
    def steps(self) -> int:
        return len(self.actions)


@dataclass
class Batch:
    """A worker's episodes for one update, the games its opponents played (name -> [games, beat
    the learner]) and the worker's RNG state after them."""

    episodes: list[Episode]
    records: dict[str, list[int]]
    state: dict[str, Any]


def worker_seed(seed: int, index: int) -> int:
    """The seed of rollout worker `index` (the local backend's env `index` has the same)."""
    return seed * 1_000 + index


class RolloutWorker:
    """Plays self-play episodes with a numpy copy of the learner and of the opponent pool."""

    def __init__(self, config: dict[str, Any], index: int, state: dict[str, Any] | None = None):
        settings = validate_train_config(config)
        seed = worker_seed(settings.seed, index)
        self.pool = OpponentPool(settings.game, settings.opponents, seed=seed)
        self.env = SelfPlayEnv(settings.game, settings.env, settings.env_sampling, self.pool, seed=seed)
        self.rng = np.random.default_rng(seed)
        self._pending_state = state

    def play(self, shared: dict[str, Any], steps: int) -> Batch:
        """Whole episodes of at least `steps` learner steps in all, with `shared["policy"]` as the
        learner and `shared["pool"]` (`OpponentPool.shared_state`) as its opponents."""
        self.pool.follow(shared["pool"])
        if self._pending_state is not None:
            self._set_state(self._pending_state)
            self._pending_state = None
        learner = PolicyAgent(shared["policy"], deterministic=False, name="learner")
        learner.rng = self.rng
        before = self.pool.records()
        episodes: list[Episode] = []
        while sum(episode.steps for episode in episodes) < steps:
            episodes.append(self._episode(learner))
        records = {
            name: [now - then for now, then in zip(counts, before[name], strict=True)]
            for name, counts in self.pool.records().items()
        }
        return Batch(episodes, records, self.state())

    def state(self) -> dict[str, Any]:
        """The worker's RNGs and episode count, JSON-ready: a new worker given it plays on from here."""
        return {
            "env_rng": self.env.rng_state(),
            "episodes": self.env.episodes,
            "pool": self.pool.rng_state(),
            "learner_rng": self.rng.bit_generator.state,
        }

    def _set_state(self, state: dict[str, Any]) -> None:
        self.env.set_rng_state(state["env_rng"])
        self.env.episodes = state["episodes"]
        self.pool.set_rng_state(state["pool"])
        self.rng.bit_generator.state = state["learner_rng"]

    def _episode(self, learner: PolicyAgent) -> Episode:
        observation, _ = self.env.reset()
        observations, masks, actions, log_probs, rewards = [observation], [], [], [], []
        while True:
            mask = self.env.action_masks()
            action, log_prob = learner.sample({"observation": observation, "action_mask": mask})
            observation, reward, terminated, truncated, info = self.env.step(action)
            observations.append(observation)
            masks.append(mask)
            actions.append(action)
            log_probs.append(log_prob)
            rewards.append(reward)
            if terminated or truncated:
                return Episode(
                    np.asarray(observations, np.float32),
                    np.asarray(masks, bool),
                    np.asarray(actions, np.int64),
                    np.asarray(log_probs, np.float32),
                    np.asarray(rewards, np.float32),
                    bool(truncated),
                    info["outcome"],
                )


@dataclass
class Layout:
    """Episodes laid into a rollout buffer of `n_steps` rows and `n_envs` columns.

    Each column holds whole episodes one after the other from its first row; the episode that
    reaches the last row is cut there (its value at `last_observations` bootstraps the rest,
    which is not used). `ends` lists (row, column, episode) of every episode that ends inside.
    """

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    rewards: np.ndarray
    starts: np.ndarray
    last_observations: np.ndarray
    last_dones: np.ndarray
    ends: list[tuple[int, int, Episode]]


def lay_out(episodes: list[Episode], n_steps: int, n_envs: int) -> Layout:
    """The buffer's columns filled with `episodes` in order (they must hold n_steps * n_envs steps)."""
    if sum(episode.steps for episode in episodes) < n_steps * n_envs:
        raise ValueError(f"a rollout of {n_steps} x {n_envs} steps needs more steps than the episodes hold")
    first = episodes[0]
    layout = Layout(
        observations=np.zeros((n_steps, n_envs, first.observations.shape[1]), np.float32),
        masks=np.zeros((n_steps, n_envs, first.masks.shape[1]), bool),
        actions=np.zeros((n_steps, n_envs), np.int64),
        log_probs=np.zeros((n_steps, n_envs), np.float32),
        rewards=np.zeros((n_steps, n_envs), np.float32),
        starts=np.zeros((n_steps, n_envs), bool),
        last_observations=np.zeros((n_envs, first.observations.shape[1]), np.float32),
        last_dones=np.zeros(n_envs, bool),
        ends=[],
    )
    row, column = 0, 0
    for episode in episodes:
        if column == n_envs:
            break
        take = min(episode.steps, n_steps - row)
        rows = slice(row, row + take)
        layout.observations[rows, column] = episode.observations[:take]
        layout.masks[rows, column] = episode.masks[:take]
        layout.actions[rows, column] = episode.actions[:take]
        layout.log_probs[rows, column] = episode.log_probs[:take]
        layout.rewards[rows, column] = episode.rewards[:take]
        layout.starts[row, column] = True
        if take == episode.steps:
            layout.ends.append((row + take - 1, column, episode))
        row += take
        if row == n_steps:
            layout.last_observations[column] = episode.observations[take]
            layout.last_dones[column] = take == episode.steps
            row, column = 0, column + 1
    return layout
