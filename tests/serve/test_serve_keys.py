"""API keys: the key file, 401 without a key the server accepts, and a cap of open tables per key,
so that a flood of creates with one key leaves room for every other key."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest
from serve_support import ALICE, BOB, CAROL, KEY_FILE, in_process

from cardarena.serve.app import create_app
from cardarena.serve.bots import Roster
from cardarena.serve.client import Client, ServerError
from cardarena.serve.errors import ApiKeyError, ApiKeyFileError
from cardarena.serve.keys import API_KEY_HEADER, TABLES_PER_KEY, ApiKeys
from cardarena.serve.tables import MAX_TABLES

TABLE = {"game": "yokir_v1", "seats": [None, None, None]}


def test_a_key_file_gives_each_key_its_line_and_cap(tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text(KEY_FILE)
    keys = ApiKeys.load(path, tables_per_key=7)
    assert [(key.line, key.max_tables) for key in keys.keys] == [(2, 7), (3, 7), (4, 2), (5, 7)]
    assert keys.holder(CAROL) is keys.keys[2]
    assert ALICE not in repr(keys.keys)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("short-key", "line 1: a key is 16 to 200 printable ASCII characters"),
        (f"{ALICE}\n\n{ALICE} 3", "line 3: the same key as line 1"),
        (f"{ALICE} lots", "line 1: the table cap after the key must be a whole number from 1, got 'lots'"),
        (f"{ALICE} 0", "got '0'"),
        (f"{ALICE} 3 4", "line 1: expected a key and at most its table cap, found 3 words"),
        ("# nothing but comments\n\n", "holds no key"),
    ],
)
def test_a_bad_key_file_names_the_line_and_never_the_key(text, words):
    with pytest.raises(ApiKeyFileError, match=words) as refused:
        ApiKeys.parse(text, source="keys.txt")
    assert "keys.txt" in str(refused.value)
    assert ALICE not in str(refused.value) and "short-key" not in str(refused.value)


def test_an_unreadable_key_file_is_named(tmp_path):
    with pytest.raises(ApiKeyFileError, match="cannot read the API key file .*missing.txt"):
        ApiKeys.load(tmp_path / "missing.txt")


@pytest.mark.parametrize("presented", [None, "", ALICE[:-1], ALICE + "x", "\u00e9" * 20])
def test_a_missing_or_unknown_key_is_refused(presented):
    with pytest.raises(ApiKeyError, match=API_KEY_HEADER):
        ApiKeys.parse(KEY_FILE).holder(presented)


@pytest.mark.parametrize("presented", [None, "wrong-key-0123456789", BOB.upper()])
def test_every_v1_request_needs_a_key_the_server_accepts(keyed_url, presented):
    with Client(keyed_url, api_key=presented) as anonymous:
        assert anonymous.health()["status"] == "ok"
        for call in [anonymous.games, anonymous.tables, lambda: anonymous.create_table("yokir_v1", [None, None, None])]:
            with pytest.raises(ServerError) as refused:
                call()
            assert (refused.value.status, refused.value.kind) == (401, "bad_api_key")
            assert API_KEY_HEADER in refused.value.detail
            assert presented is None or presented not in refused.value.detail


def test_a_key_plays_its_tables_and_lists_only_its_own(keyed_url):
    with Client(keyed_url, api_key=ALICE) as alice, Client(keyed_url, api_key=BOB) as bob:
        mine = alice.create_table("yokir_v1", [None, "random", "random"], seed=1)
        theirs = bob.create_table("yokir_v1", [None, "random", "random"], seed=1)
        assert [table["table_id"] for table in alice.tables()] == [mine["table_id"]]
        assert [table["table_id"] for table in bob.tables()] == [theirs["table_id"]]
        view = bob.table(mine["table_id"], 0, mine["seats"][0]["token"])  # any accepted key, the seat's token
        assert view["table_id"] == mine["table_id"]
        alice.delete_table(mine["table_id"], mine["creator_token"])
        assert alice.tables() == []


def test_a_key_at_its_cap_gets_a_429_naming_the_cap_and_others_still_create(keyed_url):
    with Client(keyed_url, api_key=CAROL) as carol, Client(keyed_url, api_key=BOB) as bob:
        tables = [carol.create_table("yokir_v1", [None, None, None]) for _ in range(2)]
        with pytest.raises(ServerError, match="this API key already holds 2 unfinished tables, its cap") as refused:
            carol.create_table("yokir_v1", [None, None, None])
        assert (refused.value.status, refused.value.kind) == (429, "too_many_tables")
        assert bob.create_table("yokir_v1", [None, None, None])["table_id"]
        carol.delete_table(tables[0]["table_id"], tables[0]["creator_token"])
        all_bots = carol.create_table("yokir_v1", ["random", "random", "random"])
        deadline = time.monotonic() + 10
        while not carol.spectate(all_bots["table_id"], all_bots["spectator_token"])["view"]["finished"]:
            assert time.monotonic() < deadline, "the all-bot table did not finish its hand"
            time.sleep(0.02)
        assert carol.create_table("yokir_v1", [None, None, None])["table_id"]  # the finished all-bot table made way


def test_ten_thousand_creates_with_one_key_cannot_stop_another_key():
    app = create_app(Roster(["random"]), api_keys=ApiKeys.parse(KEY_FILE))  # the default caps
    assert (app.state.room.max_tables, TABLES_PER_KEY) == (MAX_TABLES, 100)

    async def flood() -> tuple[Counter[int], str, int]:
        async with in_process(app) as http:
            statuses: Counter[int] = Counter()
            for _ in range(10_000):
                response = await http.post("/v1/tables", json=TABLE, headers={API_KEY_HEADER: ALICE})
                statuses[response.status_code] += 1
            other = await http.post("/v1/tables", json=TABLE, headers={API_KEY_HEADER: BOB})
            return statuses, response.json()["detail"], other.status_code

    statuses, refusal, other = asyncio.run(flood())
    assert statuses == {201: TABLES_PER_KEY, 429: 10_000 - TABLES_PER_KEY}
    assert refusal.startswith(f"this API key already holds {TABLES_PER_KEY} unfinished tables, its cap")
    assert ALICE not in refusal
    assert other == 201
    room = app.state.room
    assert len(room.tables) == TABLES_PER_KEY + 1
    assert sorted(room.held.values()) == [1, TABLES_PER_KEY]


def test_per_key_counts_are_dropped_with_the_tables():
    keys = ApiKeys.parse(KEY_FILE)
    app = create_app(Roster(["random"]), api_keys=keys)

    async def open_and_delete() -> None:
        async with in_process(app) as http:
            for key in [ALICE, BOB, CAROL] * 2:
                created = (await http.post("/v1/tables", json=TABLE, headers={API_KEY_HEADER: key})).json()
                assert sum(app.state.room.held.values()) == 1
                deleted = await http.delete(
                    f"/v1/tables/{created['table_id']}",
                    params={"token": created["creator_token"]},
                    headers={API_KEY_HEADER: key},
                )
                assert deleted.status_code == 204

    asyncio.run(open_and_delete())
    assert not app.state.room.tables and not app.state.room.held
