"""Real servers on free ports of 127.0.0.1, started once for the serve tests (one without API keys,
one with), and a client of the first."""

from __future__ import annotations

import pytest
from serve_support import KEY_FILE, SERVED

from cardarena.serve.app import create_app, serving_in_thread
from cardarena.serve.bots import Roster
from cardarena.serve.client import Client
from cardarena.serve.keys import ApiKeys


@pytest.fixture(scope="session")
def roster() -> Roster:
    return Roster.serving(SERVED)


@pytest.fixture(scope="session")
def server_url(roster):
    with serving_in_thread(create_app(roster)) as url:
        yield url


@pytest.fixture(scope="session")
def keyed_url(roster):
    with serving_in_thread(create_app(roster, api_keys=ApiKeys.parse(KEY_FILE))) as url:
        yield url


@pytest.fixture()
def client(server_url):
    with Client(server_url) as client:
        yield client
