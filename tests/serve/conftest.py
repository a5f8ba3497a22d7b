"""A real server on a free port of 127.0.0.1, started once for the serve tests, and a client of it."""

from __future__ import annotations

import pytest
from serve_support import SERVED

from cardarena.serve.app import create_app, serving_in_thread
from cardarena.serve.bots import Roster
from cardarena.serve.client import Client


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
