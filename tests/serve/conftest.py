"""A real server on a free port of 127.0.0.1, started once for the serve tests, and a client of it."""

from __future__ import annotations

import json
import random

import pytest

from cardarena.envs import make
from cardarena.serve.app import create_app, serving_in_thread
from cardarena.serve.bots import Roster
from cardarena.serve.client import Client

SERVED = ["yokir/ppo-selfplay"]


@pytest.fixture(scope="session")
def roster() -> Roster:
    return Roster.serving(SERVED)


@pytest.fixture(scope="session")
def server_url(roster):
    with serving_in_thread(create_app(roster)) as url:
        yield url


@pytest.fixture()
def client(server_url):
    with Client(server_url) as client:
        yield client


def acting_views(seed: int, **config) -> list[dict]:
    """The acting seat's JSON view at every decision of one random Yokir episode."""
    env = make("yokir_v1", **config)
    env.reset(seed=seed)
    rng = random.Random(seed)
    views = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        view = json.loads(json.dumps(env.observe_json(env.agent_selection)))
        views.append(view)
        env.step(rng.choice(view["legal_actions"])["id"])
    return views
