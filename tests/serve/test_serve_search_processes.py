"""Search bots at tables think in search processes: a table plays there as it plays within the call,
each decision from a seed of its own, and a process that dies stops its table's bots while the server
answers on."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from serve_support import DyingSearch

from cardarena.serve.app import create_app, serving_in_thread
from cardarena.serve.bots import Bot, Roster
from cardarena.serve.models import TableRequest
from cardarena.serve.search_pool import SearchPool
from cardarena.serve.tables import Table, TableRoom

EXPERT = "yokir/expert:worlds=2"  # a count of worlds, not a time budget: its moves replay from a seed
MATCH = TableRequest(game="yokir", seats=[EXPERT] * 3, seed=5, config={"match": True, "target_score": 3})
WITHIN = 60.0  # seconds, generous: starting a search process takes about one on an idle machine


def played_out(table: Table) -> tuple[list[int], list[float]]:
    """The table's moves and totals once its bots are done (within `WITHIN` seconds)."""
    deadline = time.monotonic() + WITHIN
    while table.bots_thinking and time.monotonic() < deadline:
        time.sleep(0.02)
    assert table.finished
    return list(table.env.played), list(table.driver.totals)


def test_a_search_table_plays_in_search_processes_as_within_the_call_and_replays_from_its_seed():
    roster = Roster([EXPERT])
    within_the_call = TableRoom(roster)
    expected = played_out(within_the_call.tables[within_the_call.create(MATCH).table_id])
    assert expected == played_out(within_the_call.tables[within_the_call.create(MATCH).table_id])
    search_pool = SearchPool(2)
    try:
        with ThreadPoolExecutor(2) as bot_pool:
            room = TableRoom(roster, bot_pool=bot_pool, search_pool=search_pool)
            tables = [room.tables[room.create(MATCH).table_id] for _ in range(2)]
            assert [played_out(table) for table in tables] == [expected, expected]
    finally:
        search_pool.shutdown()


def public_view(http: httpx.Client, created: dict) -> dict:
    spectator = {"token": created["spectator_token"]}
    return http.get(f"/v1/tables/{created['table_id']}/spectate", params=spectator).json()["view"]


def test_a_search_process_that_dies_stops_its_tables_bots_and_the_server_answers_on(caplog):
    roster = Roster([EXPERT])
    roster.bots["dying"] = Bot(name=DyingSearch.name, game=None, agent=DyingSearch(), description={})
    with serving_in_thread(create_app(roster, search_processes=1)) as url, httpx.Client(base_url=url) as http:
        dying = http.post("/v1/tables", json={"game": "yokir", "seats": ["dying"] * 3}).json()
        deadline = time.monotonic() + WITHIN
        while http.get("/v1/tables").json()[0]["bots_thinking"] and time.monotonic() < deadline:
            time.sleep(0.05)
        stopped = http.get("/v1/tables").json()[0]
        assert not stopped["bots_thinking"] and not stopped["finished"]
        assert http.get("/healthz").json()["status"] == "ok"
        later = http.post("/v1/tables", json=MATCH.model_dump()).json()  # in a new search process
        while not public_view(http, later)["finished"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert public_view(http, later)["finished"]
    failed = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert len(failed) == 1
    assert f"table {dying['table_id']}: the bot in seat {stopped['to_act']} failed; the table stops" in (
        failed[0].getMessage()
    )
    assert "died while thinking (exit code 3)" in failed[0].getMessage()


def test_a_rooms_search_pool_needs_a_bot_pool():
    with pytest.raises(ValueError, match="a room's search_pool needs a bot_pool"):
        TableRoom(Roster([]), search_pool=SearchPool(1))
