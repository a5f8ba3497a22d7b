"""Search processes: where a server's search bots think, so that their searching leaves the server's
interpreter (its event loop and request threads) the GIL.

A task is plain data (`SearchTask`): the bot's name and time budget, the game and its config, the
table's state as JSON, the seat and the decision's seed; the answer is an action id. A process loads
bots and environments by value (a name and budget; an env id and config) and keeps them for its
next tasks. Each process has a courier: a thread of the server that hands it one task at a time and
waits for its answer without holding the GIL. Processes start at the first task, by `spawn` (the
server has threads, which `fork` does not copy safely), which imports the program's main module
again: a script that starts a server keeps its work under `if __name__ == "__main__":`.

A process that raises fails its task with the traceback and goes on; one that dies fails its task
alone and is replaced at its courier's next task. `shutdown` kills the processes, whatever they
are thinking, so a server stops within seconds.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import queue
import signal
import threading
import traceback
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from typing import Any

from cardarena.envs import lookup
from cardarena.envs.core.env import CardGameEnv
from cardarena.envs.core.table import decide

from .bots import Agent, for_decision, load_served_agent


def _cores() -> int:
    """The cores this process may run on (at least 1)."""
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    return max(len(usable), 1)


SEARCH_PROCESSES = _cores()  # a server's default: one search process per core
_CACHED = 32  # bots, and environments, a search process keeps loaded
_STOP_WAIT = 2.0  # seconds a stopped process, and a courier, get to end


class SearchProcessError(RuntimeError):
    """A search process failed a task: it raised (the message holds its traceback) or died."""


@dataclass(frozen=True)
class SearchTask:
    """One search bot's decision, as plain data a search process reads: the bot as the roster loads it
    (`load_served_agent(bot, search_ms)`), the table (env id, config, state as `state_to_json` writes
    it, in JSON text), the seat to act and the seed the decision draws from."""

    bot: str
    search_ms: float
    env_id: str
    config: dict[str, Any]
    state: str
    seat: int
    seed: int


def think(task: SearchTask) -> int:
    """The bot's move for the task: the same in any process, for a bot searching within a count of
    worlds or iterations (a time budget depends on the machine's speed)."""
    env = _env(task.env_id, json.dumps(task.config, sort_keys=True))
    env.load_state(env.game.state_from_json(json.loads(task.state)))
    return int(decide(for_decision(_served_agent(task.bot, task.search_ms), task.seed), env, task.seat))


@functools.lru_cache(_CACHED)
def _served_agent(name: str, search_ms: float) -> Agent:
    return load_served_agent(name, search_ms)


@functools.lru_cache(_CACHED)
def _env(env_id: str, config: str) -> CardGameEnv:
    return lookup(env_id).env_cls(**json.loads(config))


def _answer_tasks(connection: Connection) -> None:
    """A search process: answer each task from the server (`("move", id)` or `("error", traceback)`)
    until the server closes its end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the server's process group: the server stops us
    while True:
        try:
            task = connection.recv()
        except EOFError:
            return
        try:
            answer: tuple[str, Any] = ("move", think(task))
        except Exception:
            answer = ("error", traceback.format_exc())
        connection.send(answer)


class _Process:
    """One search process and the server's end of its pipe; only its courier asks it and closes it."""

    def __init__(self, context: SpawnContext):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_answer_tasks, args=(theirs,), name="cardarena-search", daemon=True)
        self.process.start()
        theirs.close()  # the process holds the only other end: its death reads as the end of the pipe here

    @property
    def running(self) -> bool:
        return self.process.is_alive()

    def ask(self, task: SearchTask) -> int:
        """The process's move for `task`; SearchProcessError when it raised, or died (it is then closed)."""
        try:
            self.connection.send(task)
            kind, value = self.connection.recv()
        except (EOFError, OSError):
            self.close()
            raise SearchProcessError(
                f"search process {self.process.pid} died while thinking (exit code {self.process.exitcode})"
            ) from None
        if kind == "error":
            raise SearchProcessError(f"search process {self.process.pid} raised:\n{value}")
        return value

    def kill(self) -> None:
        """Stop the process now, whatever it is doing (from any thread): its courier reads the end of the pipe."""
        self.process.terminate()

    def close(self) -> None:
        self.connection.close()
        self.process.join(_STOP_WAIT)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(_STOP_WAIT)


class SearchPool:
    """`processes` search processes and their couriers, started at the first `submit`."""

    def __init__(self, processes: int = SEARCH_PROCESSES):
        if processes < 1:
            raise ValueError(f"a search pool needs at least 1 process, got {processes}")
        self.size = processes
        self._context = multiprocessing.get_context("spawn")
        self._tasks: queue.SimpleQueue[tuple[SearchTask, Future[int]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()  # over the couriers, the running processes and `_closed`
        self._couriers: list[threading.Thread] = []
        self._processes: set[_Process] = set()
        self._closed = False

    def submit(self, task: SearchTask) -> Future[int]:
        """The future move for `task`: its result the action id, or a SearchProcessError.
        RuntimeError once the pool is shut down."""
        answer: Future[int] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the search pool is shut down")
            if not self._couriers:
                self._couriers = [
                    threading.Thread(target=self._courier, name=f"cardarena-search-{number}", daemon=True)
                    for number in range(self.size)
                ]
                for courier in self._couriers:
                    courier.start()
            self._tasks.put((task, answer))
        return answer

    def shutdown(self) -> None:
        """Cancel the waiting tasks and kill the processes, whatever they are thinking (their tasks
        fail); returns once the couriers have ended, within seconds."""
        with self._lock:
            self._closed = True
            processes, couriers = list(self._processes), list(self._couriers)
        while True:
            try:
                waiting = self._tasks.get_nowait()
            except queue.Empty:
                break
            if waiting is not None:
                waiting[1].cancel()
        for _ in couriers:
            self._tasks.put(None)
        for process in processes:
            process.kill()
        for courier in couriers:
            courier.join(_STOP_WAIT)

    def _courier(self) -> None:
        """Hand tasks to a process of this courier's own, one at a time, until told to stop (None)."""
        process: _Process | None = None
        while (waiting := self._tasks.get()) is not None:
            task, answer = waiting
            if not answer.set_running_or_notify_cancel():
                continue
            try:
                process = process or self._start()
                move = process.ask(task)
            except Exception as err:
                answer.set_exception(err if isinstance(err, SearchProcessError) else SearchProcessError(str(err)))
                if process is not None and not process.running:
                    self._forget(process)
                    process = None
            else:
                answer.set_result(move)
        if process is not None:
            process.close()
            self._forget(process)

    def _start(self) -> _Process:
        with self._lock:
            if self._closed:
                raise SearchProcessError("the search pool is shut down")
            process = _Process(self._context)
            self._processes.add(process)
        return process

    def _forget(self, process: _Process) -> None:
        with self._lock:
            self._processes.discard(process)
