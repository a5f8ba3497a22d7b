"""The Ray backend: joining a cluster, tournament chunks and rollout workers on Ray actors.

Ray is an optional extra (`pip install -e ".[ray]"`); this module imports it only when a command
asks for `--backend ray`. Every actor takes one CPU. The learner stays in this process: it sends
the policy and the opponent pool out once per PPO update (`ray.put`) and gets whole episodes
back (`training/rollouts.py`), up to `ray.max_lag` updates behind the weights it sent.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardarena.envs.core.errors import ClusterError

from .config import TrainConfig
from .evaluate import Tally
from .rollouts import Episode, RolloutWorker
from .selfplay import OpponentPool
from .tournament import Chunk, Progress, play_chunk, work_units

INSTALL_HINT = 'pip install -e ".[ray]"'
CONNECT_TIMEOUT_S = 5.0
MAX_DEATHS_PER_UPDATE = 3
IN_FLIGHT = 2


def import_ray() -> Any:
    """The `ray` module, or a ClusterError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError(
            f"--backend ray needs Ray, an optional extra of cardarena: install it with {INSTALL_HINT}"
        ) from None
    return ray


def connect(address: str | None, workers: int | None) -> int:
    """Join the Ray cluster at `address` (None: start one on this machine; "auto": the one that
    `ray start` runs here) unless this process has joined one; returns the number of workers,
    by default one per CPU of the cluster."""
    ray = import_ray()
    if not ray.is_initialized():
        _check_reachable(address)
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="warning")
        except ConnectionError as err:
            raise ClusterError(f"cannot join a Ray cluster at {address!r}: {err}") from None
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if workers is None:
        return max(cpus, 1)
    if workers > cpus:
        raise ClusterError(
            f"--workers {workers} needs {workers} CPUs, but the Ray cluster has {cpus}; give --workers {cpus} or fewer"
        )
    return workers


def _check_reachable(address: str | None) -> None:
    """A ClusterError at once for a HOST:PORT nobody answers on (Ray itself retries for minutes)."""
    if address is None or address == "auto" or "://" in address:
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"--address {address!r} is not HOST:PORT (e.g. 10.0.0.5:6379), auto, or a ray:// address")
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as err:
        raise ClusterError(
            f"no Ray cluster answers at {address} ({err.strerror or err}); start its head with `ray start --head` there"
        ) from None


def _result(ray: Any, ref: Any) -> Any:
    """`ray.get(ref)`, raising a task's own exception rather than Ray's wrapper of it."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as err:
        raise (err.cause or err) from None


class ChunkPlayer:
    """A Ray actor that plays tournament chunks: it imports the project once, then plays unit after unit."""

    def play(self, chunks: list[Chunk]) -> list[Tally]:
        return [play_chunk(chunk) for chunk in chunks]


class RayBackend:
    """Plays tournament chunks on `workers` long-lived Ray actors, in units of work (`work_units`)
    pulled biggest first; each actor holds `IN_FLIGHT` units so that it never waits for the next."""

    def __init__(self, workers: int):
        self.workers = workers

    def play(self, chunks: Sequence[Chunk], on_progress: Progress) -> list[Tally]:
        ray = import_ray()
        players = [ray.remote(num_cpus=1, max_restarts=0)(ChunkPlayer).remote() for _ in range(self.workers)]
        try:
            return self._play(ray, players, chunks, on_progress)
        finally:
            for player in players:
                ray.kill(player)

    def _play(self, ray: Any, players: list[Any], chunks: Sequence[Chunk], on_progress: Progress) -> list[Tally]:
        tallies: list[Tally | None] = [None] * len(chunks)
        waiting = work_units(chunks, self.workers)
        running: dict[Any, tuple[Any, list[int]]] = {}

        def send(player: Any) -> None:
            unit = waiting.pop(0)
            running[player.play.remote([chunks[index] for index in unit])] = (player, unit)

        for player in players * IN_FLIGHT:
            if waiting:
                send(player)
        while running:
            [done], _ = ray.wait(list(running), num_returns=1)
            player, unit = running.pop(done)
            for index, tally in zip(unit, _result(ray, done), strict=True):
                tallies[index] = tally
            on_progress(sum(chunks[index].episodes for index in unit))
            if waiting:
                send(player)
        return [tally for tally in tallies if tally is not None]  # every chunk's, in chunk order


@dataclass
class _Round:
    """One rollout sent to every worker: the shared weights and pool it was played with, the
    steps asked of each worker, and each worker's pending result."""

    shared: Any
    share: int
    results: dict[int, Any]


class RayWorkers:
    """Rollout workers as Ray actors, playing `config.ray.max_lag` rollouts ahead of the learner.

    With a lag of 1 each `collect` sends the next rollout, played with the weights just given,
    before it gathers the one sent the call before: the workers play while the learner updates,
    on weights one update old (docs/scaling.md). A worker that dies is replaced by a new one that
    starts from its last returned RNG state and plays again the rollouts it had not returned, so
    the episodes are those a calm run gets. `states` holds those RNG states (resume state).
    """

    def __init__(self, count: int):
        self.count = count
        self.states: list[dict[str, Any] | None] = [None] * count
        self.replaced = 0
        self.actors: list[Any] = []
        self._config: dict[str, Any] = {}
        self._rounds: list[_Round] = []

    def start(self, config: TrainConfig, states: Sequence[dict[str, Any] | None] = ()) -> None:
        """Configure the workers (they start at the first `collect`), resuming from `states` where given."""
        self._config = config.model_dump()
        self.states = [*states[: self.count], *[None] * (self.count - len(states[: self.count]))]

    def collect(self, policy: dict[str, Any], pool: OpponentPool, steps: int) -> list[Episode]:
        """At least `steps` learner steps of whole episodes, worker by worker in order, from the
        oldest rollout under way; the games they played are added to `pool`'s records."""
        ray = import_ray()
        if not self.actors:
            self.actors = [self._spawn(index) for index in range(self.count)]
        shared = ray.put({"policy": policy, "pool": pool.shared_state()})
        share = math.ceil(steps / self.count)
        while len(self._rounds) <= self._config["ray"]["max_lag"]:
            rollout = _Round(shared, share, {})
            for index, actor in enumerate(self.actors):
                rollout.results[index] = actor.play.remote(shared, share)
            self._rounds.append(rollout)
        batches = self._gather(ray, self._rounds.pop(0))
        for batch in batches:
            pool.add_records(batch.records)
        return [episode for batch in batches for episode in batch.episodes]

    def stop(self) -> None:
        """End the worker actors, freeing their CPUs, and drop the rollouts under way (a later
        `collect` starts new workers from `states`)."""
        ray = import_ray()
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []
        self._rounds = []

    def _gather(self, ray: Any, rollout: _Round) -> list[Any]:
        """The workers' batches of `rollout`, replacing each worker that died on the way."""
        running = {ref: index for index, ref in rollout.results.items()}
        batches: list[Any] = [None] * self.count
        deaths = 0
        while running:
            [done], _ = ray.wait(list(running), num_returns=1)
            index = running.pop(done)
            try:
                batch = _result(ray, done)
            except ray.exceptions.RayActorError as err:
                deaths += 1
                if deaths > MAX_DEATHS_PER_UPDATE:
                    raise ClusterError(f"rollout workers died {deaths} times in one update; the last: {err}") from None
                running[self._replace(index, rollout)] = index
                continue
            batches[index] = batch
            self.states[index] = batch.state
        return batches

    def _replace(self, index: int, rollout: _Round) -> Any:
        """A new worker `index` that plays `rollout` again and then the rollouts sent after it."""
        self.replaced += 1
        self.actors[index] = actor = self._spawn(index)
        again = actor.play.remote(rollout.shared, rollout.share)
        for later in self._rounds:
            later.results[index] = actor.play.remote(later.shared, later.share)
        return again

    def _spawn(self, index: int) -> Any:
        ray = import_ray()
        actor = ray.remote(num_cpus=1, max_restarts=0)(RolloutWorker)
        return actor.remote(self._config, index, self.states[index], self._config["ray"]["tables"])
