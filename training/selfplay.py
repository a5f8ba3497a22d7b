"""Self-play: one learning seat as a Gymnasium env, the other seats drawn from an opponent pool.

The learner's seat rotates over the table each episode; the other seats are filled per episode
from the pool (earlier snapshots of the learner, the game's heuristic, random). The learner's
reward is its own seat's reward, summed over everything that happened since its last decision
and credited at its next decision or at the end of the episode. The learner's episode ends when
the game is over or when its seat leaves the game for good (eliminated from a match), with the
opponents' totals as they stand at that moment in its outcome.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

import gymnasium as gym
import numpy as np
from cardarena.agents import Agent, load
from cardarena.agents.policy import PolicyAgent
from cardarena.envs import lookup
from cardarena.envs.core.table import Table

from .config import OpponentSettings


@dataclass
class OpponentRecord:
    """An opponent in the pool and how it has fared against the learner."""

    name: str
    agent: Agent
    games: int = 0
    beat_learner: int = 0

    @property
    def beat_rate(self) -> float:
        """Smoothed share of games where this opponent out-scored the learner."""
        return (self.beat_learner + 1) / (self.games + 2)


class OpponentPool:
    """Snapshots of the learner plus baselines, sampled per opponent seat.

    Strategies: `latest` (the newest snapshot), `uniform` (any snapshot), `prioritized`
    (snapshots weighted by beat_rate ** priority_power, so those that still beat the learner
    come back more often). With probability `baseline_share` a seat gets a baseline instead.
    """

    def __init__(self, game: str, settings: OpponentSettings, seed: int = 0):
        self.settings = settings
        self.game = lookup(game).name
        self._rng = random.Random(seed)
        self.baselines = [OpponentRecord(name, load(name, game=self.game, seed=seed)) for name in settings.baselines]
        self.snapshots: list[OpponentRecord] = []
        self._policies: dict[str, dict[str, Any]] = {}

    def add_snapshot(self, policy: dict[str, Any], steps: int) -> None:
        """Add the learner's policy as it is at `steps`; the oldest snapshot goes beyond max_snapshots."""
        name = f"snapshot@{steps}"
        self._policies[name] = policy
        self.snapshots.append(_snapshot_record(name, policy))
        if len(self.snapshots) > self.settings.max_snapshots:
            dropped = self.snapshots.pop(0)
            del self._policies[dropped.name]

    def follow(self, shared: dict[str, Any]) -> None:
        """Mirror the snapshots and records of another pool, given by its `shared_state` (a rollout
        worker's copy of the learner's pool), keeping this pool's RNGs and its snapshots' agents."""
        kept = {record.name: record for record in self.snapshots}
        self._policies = {name: shared["policies"][name] for name in shared["order"]}
        self.snapshots = [kept.get(name) or _snapshot_record(name, self._policies[name]) for name in shared["order"]]
        self._set_records(shared["records"])

    def shared_state(self) -> dict[str, Any]:
        """What a copy of this pool needs to follow it: snapshots and records (see `follow`)."""
        return {"policies": self._policies, "order": [r.name for r in self.snapshots], "records": self.records()}

    def records(self) -> dict[str, list[int]]:
        """Games and wins against the learner of every opponent, by name."""
        return {r.name: [r.games, r.beat_learner] for r in self.baselines + self.snapshots}

    def add_records(self, counts: dict[str, list[int]]) -> None:
        """Add games and wins against the learner played elsewhere (by a rollout worker)."""
        for record in self.baselines + self.snapshots:
            games, beat = counts.get(record.name, [0, 0])
            record.games += games
            record.beat_learner += beat

    def rng_state(self) -> dict[str, Any]:
        """The sampling RNG and every opponent agent's RNG."""
        agent_rngs = {
            r.name: r.agent.rng.bit_generator.state for r in self.baselines + self.snapshots if hasattr(r.agent, "rng")
        }
        return {"rng": self._rng.getstate(), "agent_rngs": agent_rngs}

    def set_rng_state(self, state: dict[str, Any]) -> None:
        self._rng.setstate(rng_state_from_json(state["rng"]))
        for record in self.baselines + self.snapshots:
            if record.name in state.get("agent_rngs", {}) and hasattr(record.agent, "rng"):
                record.agent.rng.bit_generator.state = state["agent_rngs"][record.name]

    def sample(self) -> OpponentRecord:
        if not self.snapshots or (self.baselines and self._rng.random() < self.settings.baseline_share):
            return self._rng.choice(self.baselines)
        strategy = self.settings.strategy
        if strategy == "latest":
            return self.snapshots[-1]
        if strategy == "uniform":
            return self._rng.choice(self.snapshots)
        weights = [record.beat_rate**self.settings.priority_power for record in self.snapshots]
        return self._rng.choices(self.snapshots, weights=weights)[0]

    def record(self, opponent: OpponentRecord, opponent_reward: float, learner_reward: float) -> None:
        opponent.games += 1
        opponent.beat_learner += opponent_reward > learner_reward

    def state_dict(self) -> dict[str, Any]:
        """What resuming needs: snapshots, their records, the sampling RNG."""
        return {**self.shared_state(), **self.rng_state()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.snapshots, self._policies = [], {}
        for name in state["order"]:
            steps = int(name.rsplit("@", 1)[1])
            self.add_snapshot(state["policies"][name], steps)
        self._set_records(state["records"])
        self.set_rng_state(state)

    def _set_records(self, records: dict[str, list[int]]) -> None:
        for record in self.baselines + self.snapshots:
            record.games, record.beat_learner = records.get(record.name, [0, 0])


def _snapshot_record(name: str, policy: dict[str, Any]) -> OpponentRecord:
    """A pool entry playing `policy` (sampling, seeded by the snapshot's step count)."""
    steps = int(name.rsplit("@", 1)[1])
    return OpponentRecord(name, PolicyAgent(policy, deterministic=False, seed=steps, name=name))


class SelfPlayEnv(gym.Env):
    """A Gymnasium view of a cardarena game from one learning seat, with `action_masks()` for MaskablePPO."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: str,
        env_config: dict[str, Any],
        env_sampling: dict[str, list[Any]],
        pool: OpponentPool,
        seed: int = 0,
    ):
        self._entry = lookup(game)
        self._base_config = dict(env_config)
        self._sampling = {key: list(values) for key, values in env_sampling.items()}
        self.pool = pool
        self._rng = random.Random(seed)
        self._tables: dict[tuple, Table] = {}
        table = self._table_for(self._base_config)
        first = table.env.possible_agents[0]
        self.observation_space = cast(gym.spaces.Dict, table.env.observation_space(first))["observation"]
        self.action_space = cast(gym.spaces.Discrete, table.env.action_space(first))
        self.episodes = 0
        self.table = table
        self._mask = np.zeros(self.action_space.n, np.int8)
        self.last_outcome: dict[str, Any] | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self._rng = random.Random(seed)
        while True:
            self._start_episode()
            if self._play_opponents():
                return self._learner_observation(), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The learner's move; the episode ends when the learner's seat is done for good
        (eliminated, with its final reward) or the game is over."""
        table = self.table
        table.play(int(action))
        self._decisions += 1
        learner_to_act = self._play_opponents()
        reward = table.totals[self.learner_seat] - self._credited
        self._credited += reward
        if learner_to_act:
            return self._learner_observation(), reward, False, False, {}
        info = {"outcome": self._finish_episode()}
        return table.observe(self.learner_seat)["observation"], reward, not table.truncated, table.truncated, info

    def action_masks(self) -> np.ndarray:
        return self._mask.astype(bool)

    def rng_state(self) -> Any:
        return self._rng.getstate()

    def set_rng_state(self, state: Any) -> None:
        self._rng.setstate(rng_state_from_json(state))

    def _table_for(self, config: dict[str, Any]) -> Table:
        key = tuple(sorted(config.items()))
        if key not in self._tables:
            self._tables[key] = Table(self._entry.env_cls(**config))
        return self._tables[key]

    def _start_episode(self) -> None:
        config = {**self._base_config, **{key: self._rng.choice(values) for key, values in self._sampling.items()}}
        table = self.table = self._table_for(config)
        seats = len(table.env.possible_agents)
        self.learner_seat = self.episodes % seats
        self.episodes += 1
        self._opponents = {seat: self.pool.sample() for seat in range(seats) if seat != self.learner_seat}
        self._opponent_agents = {seat: opponent.agent for seat, opponent in self._opponents.items()}
        table.reset(seed=self._rng.getrandbits(63))
        for opponent in self._opponents.values():
            opponent.agent.reset()
        self._credited = 0.0
        self._decisions = 0

    def _play_opponents(self) -> bool:
        """Let the other seats move until the learner must decide (True) or its episode is over (False)."""
        return self.table.advance(self._opponent_agents, stop_at=self.learner_seat) is not None

    def _learner_observation(self) -> np.ndarray:
        observation = self.table.observe(self.learner_seat)
        self._mask = observation["action_mask"]
        return observation["observation"]

    def _finish_episode(self) -> dict[str, Any]:
        totals = self.table.totals
        learner_total = totals[self.learner_seat]
        for seat, opponent in self._opponents.items():
            self.pool.record(opponent, totals[seat], learner_total)
        others = [total for seat, total in enumerate(totals) if seat != self.learner_seat]
        self.last_outcome = {
            "reward": learner_total,
            "won": learner_total > max(others),
            "decisions": self._decisions,
            "seats": len(totals),
            "opponents": sorted({opponent.name for opponent in self._opponents.values()}),
        }
        return self.last_outcome


def rng_state_from_json(state: Any) -> tuple:
    """A random.Random state from its JSON form (lists) or as it is."""
    version, internal, gauss = state
    return (version, tuple(internal), gauss)
