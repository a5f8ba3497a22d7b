"""Helpers shared by the serve tests: the bots served and seat views from random episodes.

Imported by the test modules of this folder (pytest puts a test file's folder on sys.path).
"""

from __future__ import annotations

import json
import os
import random
import socket
from concurrent.futures import Executor, Future

import httpx
from cardarena.envs import make
from cardarena.envs.core.table import Table

SERVED = ["yokir/ppo-selfplay"]

ALICE, BOB, CAROL, DAVE = (f"{name}-0123456789abcdef" for name in ["alice", "bob", "carol", "dave"])
KEY_FILE = f"""# cardarena API keys
{ALICE}
{BOB}   # a comment after a key
{CAROL} 2
{DAVE}
"""


def acting_views(seed: int, game: str = "yokir_v1", **config) -> list[dict]:
    """The acting seat's JSON view at every decision of one random episode (Yokir by default)."""
    table = Table(make(game, **config))
    table.reset(seed)
    rng = random.Random(seed)
    views = []
    while (seat := table.to_act) is not None:
        view = json.loads(json.dumps(table.env.observe_json(table.env.possible_agents[seat])))
        views.append(view)
        table.play(rng.choice(view["legal_actions"])["id"])
    return views


class Clock:
    """A clock a test sets by hand, for a server's or a room's `clock`."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def in_process(app) -> httpx.AsyncClient:
    """An async client that calls `app` in this process, with no socket."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://cardarena.test")


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class HeldPool(Executor):
    """A bot pool that never runs what it is given: a table's bots stay thinking, its state as it was."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        return Future()


class DyingSearch:
    """A search bot whose process dies as it thinks; a search process loads it by its name,
    "serve_support:DyingSearch" (this folder is on the sys.path a spawned process starts with)."""

    name = "serve_support:DyingSearch"

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def act(self, observation: dict) -> int:
        raise TypeError("DyingSearch searches the table: drive it through decide")

    def act_in(self, env, seat: int) -> int:
        os._exit(3)

    def reset(self) -> None:
        pass
