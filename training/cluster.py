"""The Ray backend: joining a cluster, tournament chunks, expert iteration's search games and
rollout workers on Ray actors.

Ray is an optional extra (`pip install -e ".[ray]"`); this module imports it only when a command
asks for `--backend ray`. Every actor takes one CPU. The learner stays in this process: it sends
the policy and the opponent pool out once per PPO update (`ray.put`) and gets whole episodes
back (`training/rollouts.py`), up to `ray.max_lag` updates behind the weights it sent.
Tournament chunks and search games are units of work that long-lived actors play (`Actors`); a
unit whose actor dies is played again by a new one, and its result is the same, as it depends on
its seeds alone.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cardarena.envs.core.errors import ClusterError

from .config import TrainConfig
from .evaluate import Tally
from .expert import SearchData, search_games
from .rollouts import Episode, RolloutWorker
from .selfplay import OpponentPool
from .tournament import Chunk, ChunkDone, Progress, UnitTallies, play_chunks, work_units

INSTALL_HINT = 'pip install -e ".[ray]"'
CONNECT_TIMEOUT_S = 5.0
MAX_DEATHS_PER_UPDATE = 3
IN_FLIGHT = 2
RETRIES = 1  # a unit of work whose actor died is sent once more, to a new actor

Unit = TypeVar("Unit")


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


class Actors(Generic[Unit]):
    """`count` long-lived Ray actors made by `spawn`, fed units of work, `IN_FLIGHT` at a time each
    so that none waits for its next one.

    An actor that dies (killed, out of memory, its node lost) is replaced by a new one, which is
    sent again the units the dead one had not returned; a unit whose actor dies a second time is
    a ClusterError naming it. `replaced` counts the actors replaced.
    """

    def __init__(self, spawn: Callable[[], Any], count: int):
        self.spawn = spawn
        self.actors = [spawn() for _ in range(count)]
        self.replaced = 0

    def run(
        self,
        units: Sequence[Unit],
        send: Callable[[Any, Unit], Any],
        receive: Callable[[Unit, Any], None],
        describe: Callable[[Unit], str],
    ) -> None:
        """`send(actor, unit)` (a Ray call's ref) each unit, in order, and `receive(unit, result)`
        each result as it comes."""
        ray = import_ray()
        waiting = list(range(len(units)))
        running: dict[Any, tuple[int, Any, int]] = {}  # ref -> (actor slot, actor, unit)
        deaths = [0] * len(units)

        def dispatch(slot: int, unit: int) -> None:
            actor = self.actors[slot]
            running[send(actor, units[unit])] = (slot, actor, unit)

        for slot in [*range(len(self.actors))] * IN_FLIGHT:
            if waiting:
                dispatch(slot, waiting.pop(0))
        while running:
            [done], _ = ray.wait(list(running), num_returns=1)
            slot, actor, unit = running.pop(done)
            try:
                result = _result(ray, done)
            except ray.exceptions.RayActorError as err:
                deaths[unit] += 1
                if deaths[unit] > RETRIES:
                    raise ClusterError(
                        f"a Ray worker died {deaths[unit]} times playing {describe(units[unit])}, the last time: "
                        f"{str(err).splitlines()[0]}; see the workers' logs (ray logs) for why, e.g. memory"
                    ) from None
                if self.actors[slot] is actor:
                    self.actors[slot] = self.spawn()
                    self.replaced += 1
                dispatch(slot, unit)
                continue
            receive(units[unit], result)
            if waiting:
                dispatch(slot, waiting.pop(0))

    def kill(self) -> None:
        """End every actor, freeing its CPU."""
        ray = import_ray()
        for actor in self.actors:
            ray.kill(actor)


class ChunkPlayer:
    """A Ray actor that plays tournament chunks: it imports the project once, then plays unit after unit."""

    def play(self, chunks: list[Chunk]) -> list[Tally]:
        return play_chunks(chunks)


class RayBackend:
    """Plays tournament chunks on `workers` long-lived Ray actors (`Actors`), in units of work
    (`work_units`) pulled biggest first. `replaced` counts the actors that died and were replaced."""

    def __init__(self, workers: int):
        self.workers = workers
        self.replaced = 0

    def play(self, chunks: Sequence[Chunk], on_progress: Progress, on_chunk: ChunkDone | None = None) -> list[Tally]:
        if not chunks:
            return []
        ray = import_ray()
        players: Actors[list[int]] = Actors(
            lambda: ray.remote(num_cpus=1, max_restarts=0)(ChunkPlayer).remote(), self.workers
        )
        received = UnitTallies(chunks, on_progress, on_chunk)

        def describe(unit: list[int]) -> str:
            first, last = chunks[unit[0]], chunks[unit[-1]]
            table = ", ".join(first.tournament.names)
            return f"chunks {first.index} to {last.index} of the table {table} (seed {first.tournament.seed})"

        try:
            players.run(
                work_units(chunks, self.workers),
                lambda player, unit: player.play.remote([chunks[index] for index in unit]),
                received.receive,
                describe,
            )
        finally:
            self.replaced += players.replaced
            players.kill()
        return received.in_order()


class SearchPlayer:
    """A Ray actor that plays expert iteration's search games (`expert.search_games`) with one policy."""

    def __init__(self, config: TrainConfig, policy: bytes):
        self.games = search_games(config, policy)

    def play(self, generation: int, index: int) -> SearchData:
        return self.games.play(generation, index)


class RaySearch:
    """Expert iteration's search games on `workers` Ray actors (`expert.SearchPlayers`), one game a
    unit. The actors live for one generation's games, so that their CPUs are free for the rollout
    workers of `expert.ppo_steps` afterwards. `replaced` counts the actors that died and were replaced."""

    def __init__(self, workers: int):
        self.workers = workers
        self.replaced = 0

    def play(
        self, config: TrainConfig, policy: bytes, games: list[tuple[int, int]], on_game: Callable[[int], None]
    ) -> list[SearchData]:
        ray = import_ray()
        shared = ray.put(policy)
        players: Actors[tuple[int, int]] = Actors(
            lambda: ray.remote(num_cpus=1, max_restarts=0)(SearchPlayer).remote(config, shared), self.workers
        )
        parts: dict[tuple[int, int], SearchData] = {}

        def receive(game: tuple[int, int], part: SearchData) -> None:
            parts[game] = part
            on_game(len(parts))

        try:
            players.run(
                games,
                lambda player, game: player.play.remote(*game),
                receive,
                lambda game: f"search game {game[1]} of generation {game[0]}",
            )
        finally:
            self.replaced += players.replaced
            players.kill()
        return [parts[game] for game in games]


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
