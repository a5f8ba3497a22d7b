"""Tournaments of agents given by name, played in seeded chunks of deals on a backend.

A tournament's deals are cut into chunks of `CHUNK_DEALS` consecutive deals. Each chunk loads
its agents afresh (`cardarena.agents.load`), seat s of chunk k with the seed
`seed + s + k * CHUNK_SEED_STRIDE` (chunk 0 is seeded as a whole tournament always was), plays
its deals with `evaluate.play_deals` and returns their `Tally`. The tallies are merged in chunk
order, so a tournament's statistics depend on its seed alone: the local backend, which plays the
chunks one after the other in this process, the process backend, which plays them in spawned
processes of this machine, and a Ray cluster (`training/cluster.py`), which plays them in
parallel, give the same numbers bit for bit. For the same reason a run may be given chunks played
before (`kept`) and play only the others: `cardarena eval --state` resumes that way
(`training/resumable.py`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardarena.agents import load
from cardarena.envs import lookup, make
from cardarena.envs.core.env import CardGameEnv

from .evaluate import EvalResult, Tally, deal_count, deal_seeds, distinct_rotations, play_deals, summarise
from .spawned import worker_pool

CHUNK_DEALS = 200
CHUNK_SEED_STRIDE = 1_000_003
UNITS_PER_WORKER = 4

Progress = Callable[[int], None]  # episodes just finished
ChunkDone = Callable[[int, Tally], None]  # a finished chunk's position in the chunks played, its tally
ChunkKey = tuple[int, int]  # (tournament's position in a run, chunk index)
Recorder = Callable[[CardGameEnv, list[str]], None]


@dataclass(frozen=True)
class Tournament:
    """One table: `names` gives the agent of each seat before rotation (see `evaluate.evaluate`)."""

    env_id: str
    names: list[str]
    episodes: int
    seed: int = 0
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return lookup(self.env_id).name


@dataclass(frozen=True)
class Chunk:
    """Consecutive deals of a tournament: the `index`-th chunk, its deal seeds and its episodes."""

    tournament: Tournament
    index: int
    seeds: list[int]
    episodes: int


class Backend(Protocol):
    """Plays chunks and returns their tallies in the order given; `on_chunk` sees each chunk as it
    finishes (in any order)."""

    def play(
        self, chunks: Sequence[Chunk], on_progress: Progress, on_chunk: ChunkDone | None = None
    ) -> list[Tally]: ...


def chunks_of(tournament: Tournament, chunk_deals: int = CHUNK_DEALS) -> list[Chunk]:
    """The tournament's deals cut into chunks of `chunk_deals` deals (the last may be shorter)."""
    rotations = len(distinct_rotations(tournament.names))
    seeds = deal_seeds(tournament.seed, deal_count(tournament.episodes, rotations))
    chunks = []
    for index, start in enumerate(range(0, len(seeds), chunk_deals)):
        part = seeds[start : start + chunk_deals]
        episodes = min(len(part) * rotations, tournament.episodes - start * rotations)
        chunks.append(Chunk(tournament, index, part, episodes))
    return chunks


def work_units(chunks: Sequence[Chunk], workers: int) -> list[list[int]]:
    """The chunks (by index) grouped into units of work for `workers` parallel workers, biggest first.

    A unit holds consecutive chunks of one tournament, about `UNITS_PER_WORKER` units per worker:
    few enough that the round trips of a unit cost little beside its deals, and more than the
    workers so that, the biggest units going first, no worker idles while the last ones finish.
    Grouping does not change the chunks, so the statistics stay those of the chunks alone.
    """
    size = max(1, len(chunks) // (workers * UNITS_PER_WORKER))
    units: list[list[int]] = []
    for index, chunk in enumerate(chunks):
        if units and len(units[-1]) < size and chunks[units[-1][-1]].tournament is chunk.tournament:
            units[-1].append(index)
        else:
            units.append([index])
    return sorted(units, key=lambda unit: -sum(chunks[index].episodes for index in unit))


def seated_agents(tournament: Tournament, chunk_index: int = 0) -> list[tuple[str, Any]]:
    """The agents of a chunk, loaded with its seeds (raises on an unknown or unloadable name)."""
    base = tournament.seed + chunk_index * CHUNK_SEED_STRIDE
    return [(name, load(name, game=tournament.game, seed=base + seat)) for seat, name in enumerate(tournament.names)]


def check_agents(tournaments: Sequence[Tournament]) -> None:
    """Load every agent of the tournaments once: an unknown or unloadable one raises here."""
    for tournament in tournaments:
        seated_agents(tournament)


def play_chunk(
    chunk: Chunk, on_episode: Callable[[int], None] | None = None, on_played: Recorder | None = None
) -> Tally:
    """Play one chunk here; `on_episode` gets the episodes played so far in the chunk."""
    tournament = chunk.tournament
    env = make(tournament.env_id, **tournament.config)
    agents = seated_agents(tournament, chunk.index)
    return play_deals(env, agents, chunk.seeds, chunk.episodes, on_episode, on_played)


class LocalBackend:
    """Plays the chunks one after the other in this process; `on_played` sees every episode."""

    def __init__(self, on_played: Recorder | None = None):
        self.on_played = on_played

    def play(self, chunks: Sequence[Chunk], on_progress: Progress, on_chunk: ChunkDone | None = None) -> list[Tally]:
        tallies = []
        for position, chunk in enumerate(chunks):
            reported = [0]

            def report(done: int, reported: list[int] = reported) -> None:
                on_progress(done - reported[0])
                reported[0] = done

            tallies.append(play_chunk(chunk, report, self.on_played))
            if on_chunk is not None:
                on_chunk(position, tallies[-1])
        return tallies


def run_tournaments(
    tournaments: Sequence[Tournament],
    backend: Backend,
    on_progress: Progress | None = None,
    chunk_deals: int = CHUNK_DEALS,
    kept: Mapping[ChunkKey, Tally] | None = None,
    on_chunk: Callable[[ChunkKey, Tally], None] | None = None,
) -> list[tuple[EvalResult, Tally]]:
    """Play every tournament's chunks on `backend`; each tournament's result and merged tally, in order.

    `kept` holds chunks played before, by (tournament's position, chunk index): they are not played
    again, and count at once as progress. `on_chunk` sees every chunk played here as it finishes,
    so a caller can keep them (`cardarena eval --state`). Every agent is loaded first
    (`check_agents`), so a bad name fails before any deal is played.
    """
    check_agents(tournaments)
    kept = kept or {}
    progress = on_progress or (lambda done: None)
    plans = [chunks_of(tournament, chunk_deals) for tournament in tournaments]
    todo = [
        (position, chunk)
        for position, plan in enumerate(plans)
        for chunk in plan
        if (position, chunk.index) not in kept
    ]
    progress(sum(tally.episodes for tally in kept.values()))

    def finished(at: int, tally: Tally) -> None:
        if on_chunk is not None:
            on_chunk((todo[at][0], todo[at][1].index), tally)

    tallies = backend.play([chunk for _, chunk in todo], progress, finished)
    played = {
        **kept,
        **{(position, chunk.index): tally for (position, chunk), tally in zip(todo, tallies, strict=True)},
    }
    results = []
    for position, (tournament, plan) in enumerate(zip(tournaments, plans, strict=True)):
        merged = [played[(position, chunk.index)] for chunk in plan]
        total = copy.deepcopy(merged[0])  # merging adds to it; the chunk's own tally stays as `on_chunk` saw it
        for later in merged[1:]:
            total.merge(later)
        env = make(tournament.env_id, **tournament.config)
        results.append((summarise(env, dict(tournament.config), list(tournament.names), tournament.seed, total), total))
    return results


class UnitTallies:
    """The tallies of units of chunks (`work_units`) as parallel workers return them: kept in chunk
    order, the progress reported a unit at a time."""

    def __init__(self, chunks: Sequence[Chunk], on_progress: Progress, on_chunk: ChunkDone | None = None):
        self.chunks, self.on_progress, self.on_chunk = chunks, on_progress, on_chunk
        self.slots: list[Tally | None] = [None] * len(chunks)

    def receive(self, unit: list[int], unit_tallies: list[Tally]) -> None:
        for index, tally in zip(unit, unit_tallies, strict=True):
            self.slots[index] = tally
            if self.on_chunk is not None:
                self.on_chunk(index, tally)
        self.on_progress(sum(self.chunks[index].episodes for index in unit))

    def in_order(self) -> list[Tally]:
        """Every chunk's tally received, in chunk order."""
        return [tally for tally in self.slots if tally is not None]


def play_chunks(chunks: list[Chunk]) -> list[Tally]:
    """Play a unit of chunks here, one after the other."""
    return [play_chunk(chunk) for chunk in chunks]


class ProcessBackend:
    """Plays the chunks in `workers` spawned processes of this machine (`spawned.worker_pool`), a unit
    of consecutive chunks at a time (`work_units`)."""

    def __init__(self, workers: int):
        self.workers = workers

    def play(self, chunks: Sequence[Chunk], on_progress: Progress, on_chunk: ChunkDone | None = None) -> list[Tally]:
        if not chunks:
            return []
        units = work_units(chunks, self.workers)
        received = UnitTallies(chunks, on_progress, on_chunk)
        with worker_pool(min(self.workers, len(units))) as pool:
            futures = {pool.submit(play_chunks, [chunks[index] for index in unit]): unit for unit in units}
            for future in as_completed(futures):
                received.receive(futures[future], future.result())
        return received.in_order()
