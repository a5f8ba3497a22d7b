"""Rollouts played apart from the learner: whole self-play episodes returned as arrays.

A `RolloutWorker` holds several `SelfPlayEnv` tables and its own copy of the opponent pool. For
each rollout it receives the learner's policy (numpy arrays, `export_policy`) and the pool's
shared state, plays whole episodes until it has the steps asked of it, sampling the learner's
moves in numpy, one batch across its tables, and returns them (`Batch`) with the games each
opponent played against the learner and its RNG state. `lay_out` places the episodes in the
learner's rollout buffer. The worker needs no torch and no stable-baselines3; `cluster.RayWorkers`
runs workers as Ray actors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from cardarena.agents.policy import PolicyAgent
from cardarena.envs.core.errors import ConfigError

from .config import TrainConfig, validate_train_config
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


TABLE_SEED_STRIDE = 1_000_003
WORKER_STATE_KEYS = ("env_rngs", "episodes", "pool", "learner_rng")


def worker_seed(seed: int, index: int) -> int:
    """The seed of rollout worker `index` (the local backend's env `index` has the same)."""
    return seed * 1_000 + index


def buffer_columns(config: TrainConfig, workers: int) -> int:
    """The rollout buffer's columns with `workers` rollout workers: `ray.columns_per_worker` for
    each worker, else `n_envs`."""
    per_worker = config.ray.columns_per_worker
    return config.n_envs if per_worker is None else per_worker * workers


class _Table:
    """One self-play env of a worker and the learner episode being played at it."""

    def __init__(self, env: SelfPlayEnv):
        self.env = env
        self.start()

    def start(self) -> None:
        observation, _ = self.env.reset()
        self.observations: list[np.ndarray] = [observation]
        self.masks: list[np.ndarray] = []
        self.actions: list[int] = []
        self.log_probs: list[float] = []
        self.rewards: list[float] = []
        self.mask = self.env.action_masks()

    def step(self, action: int, log_prob: float) -> Episode | None:
        """Play the learner's move; the episode if it ended."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.masks.append(self.mask)
        self.actions.append(action)
        self.log_probs.append(log_prob)
        self.rewards.append(reward)
        self.observations.append(observation)
        if not (terminated or truncated):
            self.mask = self.env.action_masks()
            return None
        return Episode(
            np.asarray(self.observations, np.float32),
            np.asarray(self.masks, bool),
            np.asarray(self.actions, np.int64),
            np.asarray(self.log_probs, np.float32),
            np.asarray(self.rewards, np.float32),
            bool(truncated),
            info["outcome"],
        )


class RolloutWorker:
    """Plays self-play episodes at `tables` tables at once with a numpy copy of the learner (one
    batched pass for the learner's moves at every table) and of the opponent pool."""

    def __init__(self, config: dict[str, Any], index: int, state: dict[str, Any] | None = None, tables: int = 1):
        settings = validate_train_config(config)
        seed = worker_seed(settings.seed, index)
        self.pool = OpponentPool(settings.game, settings.opponents, seed=seed)
        self.envs = [
            SelfPlayEnv(
                settings.game, settings.env, settings.env_sampling, self.pool, seed=seed + table * TABLE_SEED_STRIDE
            )
            for table in range(tables)
        ]
        self.rng = np.random.default_rng(seed)
        self._pending_state = state

    def play(self, shared: dict[str, Any], steps: int) -> Batch:
        """Whole episodes of at least `steps` learner steps in all, with `shared["policy"]` as the
        learner and `shared["pool"]` (`OpponentPool.shared_state`) as its opponents. Once the
        episodes ended hold `steps`, no table starts another; the episodes under way are finished."""
        self.pool.follow(shared["pool"])
        if self._pending_state is not None:
            self._set_state(self._pending_state)
            self._pending_state = None
        learner = PolicyAgent(shared["policy"], deterministic=False, name="learner")
        learner.rng = self.rng
        before = self.pool.records()
        episodes: list[Episode] = []
        played = 0
        tables = [_Table(env) for env in self.envs]
        while tables:
            observations = np.stack([table.observations[-1] for table in tables])
            actions, log_probs = learner.sample_batch(observations, np.stack([table.mask for table in tables]))
            playing = []
            for table, action, log_prob in zip(tables, actions, log_probs, strict=True):
                episode = table.step(int(action), float(log_prob))
                if episode is None:
                    playing.append(table)
                    continue
                episodes.append(episode)
                played += episode.steps
                if played < steps:
                    table.start()
                    playing.append(table)
            tables = playing
        records = {
            name: [now - then for now, then in zip(counts, before[name], strict=True)]
            for name, counts in self.pool.records().items()
        }
        return Batch(episodes, records, self.state())

    def state(self) -> dict[str, Any]:
        """The worker's RNGs and episode counts, JSON-ready: a new worker given it plays on from here."""
        return {
            "env_rngs": [env.rng_state() for env in self.envs],
            "episodes": [env.episodes for env in self.envs],
            "pool": self.pool.rng_state(),
            "learner_rng": self.rng.bit_generator.state,
        }

    def _set_state(self, state: dict[str, Any]) -> None:
        """Continue from `state`, one that `checked_worker_state` passed for this worker's tables."""
        for env, rng, count in zip(self.envs, state["env_rngs"], state["episodes"], strict=True):
            env.set_rng_state(rng)
            env.episodes = count
        self.pool.set_rng_state(state["pool"])
        self.rng.bit_generator.state = state["learner_rng"]


def checked_worker_state(state: Any, tables: int) -> dict[str, Any] | None:
    """A saved `RolloutWorker.state` (None: the worker had returned nothing) for a worker of
    `tables` tables. A state written before workers played several tables (one "env_rng" and an
    episode count) is that of one table. ValueError naming what is missing or malformed; a
    ConfigError when the state is another number of tables', saying which `ray.tables` fits it."""
    if state is None:
        return None
    if not isinstance(state, dict):
        raise ValueError(f"a rollout worker's state is a {type(state).__name__}, not a mapping")
    if "env_rng" in state and "env_rngs" not in state:
        state = {**state, "env_rngs": [state["env_rng"]], "episodes": [state.get("episodes")]}
        del state["env_rng"]
    missing = [key for key in WORKER_STATE_KEYS if key not in state]
    if missing:
        raise ValueError(f"a rollout worker's state lacks {', '.join(missing)} (it has {', '.join(sorted(state))})")
    rngs, episodes = state["env_rngs"], state["episodes"]
    if not isinstance(rngs, list) or not isinstance(episodes, list) or len(rngs) != len(episodes):
        raise ValueError("a rollout worker's state needs as many episode counts as table RNG states, in two lists")
    if len(rngs) != tables:
        raise ConfigError(
            f"the run's Ray workers were saved playing ray.tables={len(rngs)}, which ray.tables={tables} "
            f"cannot continue: resume with --set ray.tables={len(rngs)}"
        )
    return state


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
