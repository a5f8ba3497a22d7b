"""A table's life on the server: its creator deletes it, an idle one expires and frees its place,
timeouts are settled when tables are listed, and memory does not grow with the requests served."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc

import pytest
from serve_support import Clock, in_process

from cardarena.serve.app import create_app
from cardarena.serve.bots import Roster
from cardarena.serve.client import ServerError
from cardarena.serve.errors import TableLimitError, TableTokenError
from cardarena.serve.models import TableRequest
from cardarena.serve.tables import MAX_TABLES, TABLE_TTL, TableRoom

OPEN_TABLE = TableRequest(game="yokir_v1", seats=[None, None, None])


def test_the_creator_token_deletes_the_table_and_no_other_token_does(client):
    table = client.create_table("yokir_v1", [None, "random", None], seed=2)
    table_id, seat_token = table["table_id"], table["seats"][0]["token"]
    assert table["creator_token"] not in {seat["token"] for seat in table["seats"]}
    assert table["table_ttl"] == TABLE_TTL
    for token in [seat_token, table["seats"][2]["token"], "not-a-token"]:
        with pytest.raises(ServerError, match="bad creator token") as refused:
            client.delete_table(table_id, token)
        assert (refused.value.status, refused.value.kind) == (403, "bad_token")
    with pytest.raises(ServerError, match="bad token for seat 0") as refused:
        client.table(table_id, 0, table["creator_token"])  # it opens no seat
    assert refused.value.status == 403
    assert client.table(table_id, 0, seat_token)["table_id"] == table_id
    response = client.http.delete(f"/v1/tables/{table_id}", params={"token": table["creator_token"]})
    assert (response.status_code, response.content) == (204, b"")
    for gone in [
        lambda: client.table(table_id, 0, seat_token),
        lambda: client.delete_table(table_id, table["creator_token"]),
    ]:
        with pytest.raises(ServerError, match="no table") as refused:
            gone()
        assert (refused.value.status, refused.value.kind) == (404, "unknown_table")
    assert table_id not in {listed["table_id"] for listed in client.tables()}


def test_a_deleted_table_frees_its_place():
    room = TableRoom(Roster(["random"]), max_tables=1)
    table = room.create(OPEN_TABLE)
    with pytest.raises(TableLimitError):
        room.create(OPEN_TABLE)
    room.delete(table.table_id, table.creator_token)
    assert room.create(OPEN_TABLE).table_id in room.tables


def test_without_keys_a_full_server_takes_tables_again_once_idle_ones_expire():
    clock = Clock()
    app = create_app(Roster(["random"]), clock=clock)  # the default caps: 1,000 tables, idle for 600 s
    body = {"game": "yokir_v1", "seats": [None, None, None]}

    async def flood() -> tuple[list[dict], int, int, int]:
        async with in_process(app) as http:
            created = [(await http.post("/v1/tables", json=body)).json() for _ in range(MAX_TABLES)]
            full = await http.post("/v1/tables", json=body)
            clock.now = TABLE_TTL - 1
            kept = created[0]
            read = await http.get(
                f"/v1/tables/{kept['table_id']}", params={"seat": 0, "token": kept["seats"][0]["token"]}
            )
            clock.now = TABLE_TTL
            after = await http.post("/v1/tables", json=body)
            return created, full.status_code, read.status_code, after.status_code

    created, full, read, after = asyncio.run(flood())
    assert all("table_id" in table for table in created)
    assert (full, read, after) == (429, 200, 201)
    room = app.state.room
    assert len(room.tables) == 2  # the table read at 599 s and the new one; the 999 others expired
    assert created[0]["table_id"] in room.tables


def test_a_table_read_or_played_stays_and_an_idle_one_expires():
    clock = Clock()
    room = TableRoom(Roster(["random"]), clock, table_ttl=60.0)
    played, idle = (
        room.create(TableRequest(game="yokir_v1", seats=[None, "random", "random"], seed=1)),
        room.create(OPEN_TABLE),
    )
    token = played.seats[0].token
    for clock.now in [50.0, 100.0, 150.0]:
        view = room.view(played.table_id, 0, token)
        if view.your_turn:
            room.play(played.table_id, 0, token, view.view["legal_actions"][0]["id"], None)
    assert list(room.tables) == [played.table_id]
    assert idle.table_id not in room.tables
    clock.now = 210.0
    assert room.listing() == [] and not room.tables  # listing keeps no table alive


def test_a_wrong_token_keeps_no_table_alive():
    clock = Clock()
    room = TableRoom(Roster(["random"]), clock, table_ttl=60.0)
    table = room.create(OPEN_TABLE)
    clock.now = 50.0
    with pytest.raises(TableTokenError, match="bad token"):
        room.view(table.table_id, 0, "guess")
    clock.now = 60.0
    assert room.listing() == []


def test_timeouts_are_settled_when_tables_are_listed():
    clock = Clock()
    app = create_app(Roster(["random"]), clock=clock)
    request = {
        "game": "yokir_v1",
        "seats": [None, None, None],
        "config": {"dealer": 2},
        "seed": 3,
        "move_time_limit": 10.0,
    }

    async def listed() -> tuple[dict, list[dict]]:
        async with in_process(app) as http:
            table = (await http.post("/v1/tables", json=request)).json()
            clock.now = 25.0  # seat 0 timed out at 10, seat 1 at 20; seat 2 has until 30
            return table, (await http.get("/v1/tables")).json()

    table, listing = asyncio.run(listed())
    assert listing == [
        {
            "table_id": table["table_id"],
            "game": "yokir_v1",
            "seats": [None, None, None],
            "to_act": 2,
            "finished": False,
            "bots_thinking": False,
            "seconds_left": pytest.approx(5.0),
            "expires_in": pytest.approx(TABLE_TTL - 25.0),
        }
    ]
    bids = app.state.room.tables[table["table_id"]].env.observe_json("player_2")["bids"]
    assert [bid["seat"] for bid in bids] == [0, 1]


def test_tables_whose_clients_ran_out_of_time_make_room():
    clock = Clock()
    room = TableRoom(Roster(["random"]), clock, max_tables=1)
    timed = room.create(TableRequest(game="yokir_v1", seats=[None, None, None], seed=5, move_time_limit=1.0))
    with pytest.raises(TableLimitError, match="1 unfinished tables"):
        room.create(OPEN_TABLE)
    clock.now = 100.0  # every move of the hand timed out long before; the table was never read
    fresh = room.create(OPEN_TABLE)
    assert list(room.tables) == [fresh.table_id] and timed.table_id not in room.tables


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seat": 0, "action": True}, "body.action"),
        ({"seat": 0, "action": False}, "body.action"),
        ({"seat": 0, "action": 3.0}, "body.action"),
        ({"seat": True, "action": 24}, "body.seat"),
    ],
)
def test_a_boolean_or_fractional_id_is_a_422_naming_the_field_and_plays_nothing(client, body, field):
    table = client.create_table("yokir_v1", [None, None, None], config={"dealer": 2}, seed=5)
    token = table["seats"][0]["token"]
    before = client.table(table["table_id"], 0, token)
    response = client.http.post(f"/v1/tables/{table['table_id']}/actions", json={**body, "token": token})
    assert (response.status_code, response.json()["error"]) == (422, "bad_request")
    assert response.json()["detail"].startswith(f"{field}: Input should be a valid integer")
    assert client.table(table["table_id"], 0, token) == before


@pytest.mark.parametrize(("field", "value"), [("seed", True), ("move_time_limit", True)])
def test_a_boolean_seed_or_time_limit_is_a_422_naming_the_field(client, field, value):
    response = client.http.post("/v1/tables", json={"game": "yokir_v1", "seats": [None, None, None], field: value})
    assert (response.status_code, response.json()["error"]) == (422, "bad_request")
    assert response.json()["detail"].startswith(f"body.{field}: Input should be a valid")


def test_memory_does_not_grow_with_tables_created_and_expired():
    clock = Clock()
    room = TableRoom(Roster(["random"]), clock, max_tables=50, table_ttl=10.0)

    def serve_tables(count: int) -> None:
        for _ in range(count):
            clock.now += 1.0
            table = room.create(OPEN_TABLE)
            room.view(table.table_id, 0, table.seats[0].token)

    tracemalloc.start()
    try:
        serve_tables(200)  # the 10 tables alive at each snapshot are traced too
        gc.collect()
        before = tracemalloc.take_snapshot()
        serve_tables(2_000)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    growth = after.compare_to(before, "lineno")
    assert len(room.tables) == 10
    assert sum(stat.size_diff for stat in growth) < 20_000, [str(stat) for stat in growth[:5]]
