"""The Python client: a server that is not running is a cardarena error naming its address."""

from __future__ import annotations

import socket

import httpx
import pytest
from cardarena.envs.core.errors import CardArenaError
from serve_support import free_port

from cardarena.serve.client import Client, ServerUnreachableError


def test_a_server_that_is_not_running_is_a_clear_error_naming_its_address():
    url = f"http://127.0.0.1:{free_port()}"
    with Client(url) as nobody:
        for call in [
            nobody.health,
            lambda: nobody.create_table("yokir_v1", [None, None, None]),
            lambda: nobody.delete_table("t", "x"),
        ]:
            with pytest.raises(ServerUnreachableError) as refused:
                call()
            message = str(refused.value)
            assert message.startswith(f"the cardarena server at {url} is not reachable")
            assert "cardarena serve" in message
            assert isinstance(refused.value, CardArenaError) and not isinstance(refused.value, httpx.HTTPError)
            assert isinstance(refused.value.__cause__, httpx.ConnectError)


def test_a_server_that_does_not_answer_in_time_is_a_clear_error_naming_the_request():
    with socket.create_server(("127.0.0.1", 0)) as silent:  # connections are queued, never answered
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with Client(url, timeout=0.2) as server:
            with pytest.raises(ServerUnreachableError, match=r"did not answer GET /v1/games \(ReadTimeout") as refused:
                server.games()
    assert str(refused.value).startswith(f"the cardarena server at {url} did not answer")
