"""The Ray backend: joining a cluster, tournament chunks as Ray tasks, rollout workers as Ray actors.

Ray is an optional extra (`pip install -e ".[ray]"`); this module imports it only when a command
asks for `--backend ray`. Every task and actor takes one CPU. The learner stays in this process:
it sends the policy and the opponent pool out once per PPO update (`ray.put`) and gets whole
episodes back (`training/rollouts.py`).
"""

from __future__ import annotations

import math
import socket
from collections.abc import Sequence
from typing import Any

from cardarena.envs.core.errors import ClusterError

from .config import TrainConfig
from .evaluate import Tally
from .rollouts import Episode, RolloutWorker
from .selfplay import OpponentPool
from .tournament import Chunk, Progress, play_chunk

INSTALL_HINT = 'pip install -e ".[ray]"'
CONNECT_TIMEOUT_S = 5.0
MAX_DEATHS_PER_UPDATE = 3


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


class RayBackend:
    """Plays tournament chunks as Ray tasks, at most `workers` at a time."""

    def __init__(self, workers: int):
        self.workers = workers

    def play(self, chunks: Sequence[Chunk], on_progress: Progress) -> list[Tally]:
        ray = import_ray()
        task = ray.remote(num_cpus=1)(play_chunk)
        tallies: dict[int, Tally] = {}
        waiting = list(enumerate(chunks))
        running: dict[Any, int] = {}
        while waiting or running:
            while waiting and len(running) < self.workers:
                index, chunk = waiting.pop(0)
                running[task.remote(chunk)] = index
            [done], _ = ray.wait(list(running), num_returns=1)
            index = running.pop(done)
            tallies[index] = _result(ray, done)
            on_progress(chunks[index].episodes)
        return [tallies[index] for index in range(len(chunks))]


class RayWorkers:
    """Rollout workers as Ray actors. Each update every worker plays its share of the steps; a
    worker that dies is replaced by a new one that starts from its last returned RNG state, and
    the episodes it had not returned are dropped. `states` holds those RNG states (resume state)."""

    def __init__(self, count: int):
        self.count = count
        self.states: list[dict[str, Any] | None] = [None] * count
        self.replaced = 0
        self.actors: list[Any] = []
        self._config: dict[str, Any] = {}

    def start(self, config: TrainConfig, states: Sequence[dict[str, Any] | None] = ()) -> None:
        """Configure the workers (they start at the first `collect`), resuming from `states` where given."""
        self._config = config.model_dump()
        self.states = [*states[: self.count], *[None] * (self.count - len(states[: self.count]))]

    def collect(self, policy: dict[str, Any], pool: OpponentPool, steps: int) -> list[Episode]:
        """At least `steps` learner steps of whole episodes, worker by worker in order; the games
        they played are added to `pool`'s records."""
        ray = import_ray()
        if not self.actors:
            self.actors = [self._spawn(index) for index in range(self.count)]
        shared = ray.put({"policy": policy, "pool": pool.shared_state()})
        share = math.ceil(steps / self.count)
        running = {actor.play.remote(shared, share): index for index, actor in enumerate(self.actors)}
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
                self.replaced += 1
                self.actors[index] = self._spawn(index)
                running[self.actors[index].play.remote(shared, share)] = index
                continue
            batches[index] = batch
            self.states[index] = batch.state
        for batch in batches:
            pool.add_records(batch.records)
        return [episode for batch in batches for episode in batch.episodes]

    def stop(self) -> None:
        """End the worker actors, freeing their CPUs (a later `collect` starts new ones from `states`)."""
        ray = import_ray()
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []

    def _spawn(self, index: int) -> Any:
        ray = import_ray()
        actor = ray.remote(num_cpus=1, max_restarts=0)(RolloutWorker)
        return actor.remote(self._config, index, self.states[index])
