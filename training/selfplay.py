"""Self-play: one learning seat as a Gymnasium env, the other seats drawn from an opponent pool.

The env runs the single-agent env's loop (`cardarena.envs.single_agent_env`) with its own choice
of each episode: the learner's seat rotates over the table each episode; the other seats are
filled per episode from the pool (earlier snapshots of the learner, the game's heuristic,
random). The learner's
reward is its own seat's reward, summed over everything that happened since its last decision
and credited at its next decision or at the end of the episode. The learner's episode ends when
the game is over or when its seat leaves the game for good (eliminated from a match), with the
opponents' totals as they stand at that moment in its outcome.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from cardarena.agents import Agent, load
from cardarena.agents.policy import PolicyAgent
from cardarena.envs import lookup
from cardarena.envs.core.table import Table
from cardarena.envs.single_agent_env import OneSeatEnv

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
            r.name: _agent_rng_state(r.agent.rng) for r in self.baselines + self.snapshots if hasattr(r.agent, "rng")
        }
        return {"rng": self._rng.getstate(), "agent_rngs": agent_rngs}

    def set_rng_state(self, state: dict[str, Any]) -> None:
        self._rng.setstate(rng_state_from_json(state["rng"]))
        for record in self.baselines + self.snapshots:
            if record.name in state.get("agent_rngs", {}) and hasattr(record.agent, "rng"):
                _set_agent_rng_state(record.agent.rng, state["agent_rngs"][record.name])

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


class SelfPlayEnv(OneSeatEnv):
    """A Gymnasium view of a cardarena game from one learning seat, with `action_masks()` for MaskablePPO."""

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
        self._use_spaces_of(self._table_for(self._base_config))
        self.episodes = 0
        self.last_outcome: dict[str, Any] | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        while not self._start_episode():
            pass
        return self._learner_observation(), self._info()

    def rng_state(self) -> Any:
        return self._rng.getstate()

    def set_rng_state(self, state: Any) -> None:
        self._rng.setstate(rng_state_from_json(state))

    def _table_for(self, config: dict[str, Any]) -> Table:
        key = tuple(sorted(config.items()))
        if key not in self._tables:
            self._tables[key] = Table(self._entry.env_cls(**config))
        return self._tables[key]

    def _start_episode(self) -> bool:
        """Deal the next episode: a sampled table, the next seat in turn, opponents from the pool; True
        once the learner is to act."""
        config = {**self._base_config, **{key: self._rng.choice(values) for key, values in self._sampling.items()}}
        table = self._table_for(config)
        seats = len(table.env.possible_agents)
        learner_seat = self.episodes % seats
        self.episodes += 1
        self._opponents = {seat: self.pool.sample() for seat in range(seats) if seat != learner_seat}
        actors = {seat: opponent.agent for seat, opponent in self._opponents.items()}
        return self._begin(table, learner_seat, actors, self._rng.getrandbits(63))

    def _episode_info(self) -> dict[str, Any]:
        return {"outcome": self._finish_episode()}

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


def _agent_rng_state(rng: Any) -> Any:
    """An opponent's RNG state: a numpy Generator's (networks, heuristics) or a random.Random's (search agents)."""
    return rng.bit_generator.state if hasattr(rng, "bit_generator") else rng.getstate()


def _set_agent_rng_state(rng: Any, state: Any) -> None:
    if hasattr(rng, "bit_generator"):
        rng.bit_generator.state = state
    else:
        rng.setstate(rng_state_from_json(state))


def rng_state_from_json(state: Any) -> tuple:
    """A random.Random state from its JSON form (lists) or as it is."""
    version, internal, gauss = state
    return (version, tuple(internal), gauss)
