"""A server that never blocks: a long search match runs in the background while `/healthz` and other
clients' tables answer; a body that never comes is dropped; table lengths are bounded."""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from serve_support import KEY_FILE

from cardarena.serve.app import BODY_TIMEOUT, create_app, serving_in_thread
from cardarena.serve.bots import Bot, Roster
from cardarena.serve.errors import ApiKeyFileError
from cardarena.serve.keys import ApiKeys
from cardarena.serve.models import TableRequest
from cardarena.serve.tables import TABLE_LENGTH_BOUNDS, TableRoom

LIVENESS_SECONDS = 6.0
ANSWER_WITHIN = 2.0  # generous: answers take milliseconds


def pimc_match(target_score: int) -> dict:
    return {"game": "yokir", "seats": ["pimc"] * 3, "config": {"match": True, "target_score": target_score}}


@pytest.fixture(scope="module")
def search_server():
    with serving_in_thread(create_app(Roster(["random", "pimc"]))) as url:
        yield url


def test_a_match_longer_than_the_bound_is_refused_naming_the_setting_and_bound(search_server):
    refused = httpx.post(f"{search_server}/v1/tables", json=pimc_match(10_000), timeout=ANSWER_WITHIN)
    assert refused.status_code == 422
    bound = TABLE_LENGTH_BOUNDS["target_score"]
    assert (
        refused.json()["detail"]
        == f"config 'target_score' is 10000; this server's tables take target_score of at most {bound}"
    )


def test_health_and_another_clients_table_answer_while_a_pimc_match_runs(search_server):
    with httpx.Client(base_url=search_server, timeout=ANSWER_WITHIN) as http:
        match = http.post("/v1/tables", json=pimc_match(TABLE_LENGTH_BOUNDS["target_score"])).json()
        deadline = time.monotonic() + LIVENESS_SECONDS
        moves = 0
        while time.monotonic() < deadline:
            assert http.get("/healthz").json()["status"] == "ok"
            mine = http.post("/v1/tables", json={"game": "yokir", "seats": [None, "random", "random"]}).json()
            token = mine["seats"][0]["token"]
            view = http.get(f"/v1/tables/{mine['table_id']}", params={"seat": 0, "token": token, "wait": 1}).json()
            if view["your_turn"]:
                move = view["view"]["legal_actions"][0]["id"]
                played = http.post(
                    f"/v1/tables/{mine['table_id']}/actions", json={"seat": 0, "token": token, "action": move}
                )
                assert played.status_code == 200
                moves += 1
            http.delete(f"/v1/tables/{mine['table_id']}", params={"token": mine["creator_token"]})
        running = http.get(
            f"/v1/tables/{match['table_id']}/spectate", params={"token": match["spectator_token"]}
        ).json()
        assert not running["view"]["finished"]
        assert [table["bots_thinking"] for table in http.get("/v1/tables").json()] == [True]
        http.delete(f"/v1/tables/{match['table_id']}", params={"token": match["creator_token"]})
    assert moves > 0


def test_a_body_that_never_comes_is_dropped_after_the_timeout(search_server):
    host, port = search_server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=BODY_TIMEOUT + 10) as slow:
        slow.sendall(
            b"POST /v1/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        started = time.monotonic()
        answer = b""
        while chunk := slow.recv(4096):
            answer += chunk
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408")
    assert b"body_timeout" in answer
    assert BODY_TIMEOUT - 1 < waited < BODY_TIMEOUT + 5


def test_key_caps_that_could_fill_the_server_are_refused():
    with pytest.raises(ApiKeyFileError, match="table caps add up to 302, over the server's 300 tables"):
        create_app(Roster(["random"]), max_tables=300, api_keys=ApiKeys.parse(KEY_FILE))
    create_app(Roster(["random"]), max_tables=302, api_keys=ApiKeys.parse(KEY_FILE))


class HeldBot:
    """A bot that thinks until the test lets it move: reads of its table must answer meanwhile."""

    name = "held"

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.release = threading.Event()

    def act(self, observation: dict) -> int:
        self.thinking.set()
        assert self.release.wait(LIVENESS_SECONDS)
        return int(observation["action_mask"].nonzero()[0][0])

    def reset(self) -> None:
        pass


def test_a_bot_thinks_without_holding_its_table_so_views_and_spectators_answer():
    roster = Roster(["random"])
    held = HeldBot()
    roster.bots["held"] = Bot(name="held", game=None, agent=held, description={})
    with ThreadPoolExecutor(max_workers=1) as pool:
        room = TableRoom(roster, bot_pool=pool)
        created = room.create(TableRequest(game="yokir", seats=["held", "random", "random"], seed=3))
        table = room.tables[created.table_id]
        try:
            assert held.thinking.wait(LIVENESS_SECONDS)
            answered = ThreadPoolExecutor(max_workers=1).submit(
                room.spectate, created.table_id, created.spectator_token
            )
            spectated = answered.result(timeout=ANSWER_WITHIN)
            assert not spectated.view["finished"] and table.bots_thinking and table.moves == 0
        finally:
            held.release.set()
        deadline = time.monotonic() + LIVENESS_SECONDS
        while table.moves == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.moves > 0
        room.delete(created.table_id, created.creator_token)


class SlowBot:
    """A bot that takes a few milliseconds a move, so that a long match keeps its table's bots busy."""

    name = "slow"

    def act(self, observation: dict) -> int:
        time.sleep(0.005)
        return int(observation["action_mask"].nonzero()[0][0])

    def reset(self) -> None:
        pass


def test_a_long_all_bot_match_shares_the_bot_workers_with_a_later_table():
    roster = Roster(["random"])
    roster.bots["slow"] = Bot(name="slow", game=None, agent=SlowBot(), description={})
    all_slow = ["slow"] * 3
    with ThreadPoolExecutor(max_workers=1) as pool:
        room = TableRoom(roster, bot_pool=pool)
        long_match = room.create(
            TableRequest(game="yokir", seats=all_slow, seed=1, config={"match": True, "target_score": 1000})
        )
        later = room.create(TableRequest(game="yokir", seats=all_slow, seed=2))
        deadline = time.monotonic() + LIVENESS_SECONDS
        while room.tables[later.table_id].moves < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert room.tables[later.table_id].moves >= 3
        assert not room.tables[long_match.table_id].finished
        for created in (long_match, later):
            room.delete(created.table_id, created.creator_token)
