"""Hand histories and spectators on the table server: a seat reads its own history at any time, the
spectator token only public information at every point of a table, the creator the whole history
once the table has ended (and the whole table meanwhile where no client holds a seat); a server
started with a record folder writes every table's hands there, and they replay."""

from __future__ import annotations

import json
import random
from functools import partial

import pytest
from cardarena.envs.core import history
from serve_support import HeldPool

from cardarena.records import hand_lines, replay
from cardarena.serve.bots import Roster
from cardarena.serve.client import ServerError
from cardarena.serve.errors import TableRunningError, TableTokenError
from cardarena.serve.models import TableRequest
from cardarena.serve.tables import TableRoom

GAMBLING = {"num_players": 3, "mode": "gambling", "num_hands": 2}


def refused(call) -> ServerError:
    with pytest.raises(ServerError) as error:
        call()
    return error.value


def test_the_whole_history_is_refused_before_the_end_and_given_after(client):
    table = client.create_table("yokir_v1", [None, "random", "random"], config={"match": True, "max_hands": 2}, seed=6)
    table_id, seat_token = table["table_id"], table["seats"][0]["token"]
    assert len({table["creator_token"], table["spectator_token"], seat_token}) == 3
    early = refused(lambda: client.history(table_id, table["creator_token"]))
    assert (early.status, early.kind) == (409, "table_running")
    assert "has not ended: its whole history" in early.detail
    response = client.http.get(f"/v1/tables/{table_id}/history", params={"token": table["creator_token"]})
    assert response.json() == {"error": "table_running", "detail": early.detail}
    for token, seat in [
        (table["spectator_token"], 0),
        (seat_token, 1),
        (table["creator_token"], 0),
        ("not-a-token", None),
    ]:
        assert (refused(partial(client.history, table_id, token, seat)).status, "bad_token") == (403, "bad_token")
    rng = random.Random(6)
    while not (view := client.table(table_id, 0, seat_token))["finished"]:
        mine = client.history(table_id, seat_token, 0)
        assert (mine["seat"], mine["whole_table"], mine["records"]) == (0, False, None)
        assert mine["events"] == client.history(table_id, seat_token)["events"]
        client.play(table_id, 0, seat_token, action=rng.choice(view["view"]["legal_actions"])["id"])
    whole = client.history(table_id, table["creator_token"])
    assert (whole["whole_table"], whole["finished"], len(whole["records"])) == (True, True, 2)
    assert any("private" in event and event["seat"] != 0 for event in whole["events"])
    for record in whole["records"]:
        replay(record)
        assert record["log"] == [event for event in whole["events"] if event["hand"] == record["hand"]]
    assert whole["records"][-1]["returns"] == view["rewards"]
    assert client.history(table_id, seat_token, 0)["events"] == history.seen_by(whole["events"], 0)


def test_the_spectator_sees_only_the_public_history_at_every_point_of_a_table():
    room = TableRoom(Roster(["random"]))
    created = room.create(TableRequest(game="piktas_v1", seats=[None, None, "random"], config=GAMBLING, seed=2))
    table, tokens, rng = room.tables[created.table_id], [seat.token for seat in created.seats], random.Random(2)
    points = 0
    while True:
        public = history.seen_by(table.env.history(), None)
        heard = room.history(created.table_id, created.spectator_token, None)
        seen = room.spectate(created.table_id, created.spectator_token)
        assert (heard.seat, heard.whole_table, heard.events, heard.records) == (None, False, public, None)
        assert "private" not in heard.model_dump_json() and "private" not in seen.model_dump_json()
        assert not seen.whole_table and seen.view["events"] == public[len(public) - len(seen.view["events"]) :]
        assert seen.view["to_act"] == table.to_act and seen.view["settings"]["num_hands"] == 2
        points += 1
        if table.finished:
            break
        seat = table.to_act
        move = rng.choice(room.view(created.table_id, seat, tokens[seat]).view["legal_actions"])["id"]
        room.play(created.table_id, seat, tokens[seat], move, None)
    results = [event for event in public if event["kind"] == "result"]
    assert seen.view["last_hand"] == results[-1] and seen.view["rewards"] == list(
        table.env.game.returns(table.env.state)
    )
    assert points > 10 and len(results) == 2
    with pytest.raises(TableTokenError, match="a seat's token reads its seat's view"):
        room.spectate(created.table_id, tokens[0])


def test_the_creator_sees_the_whole_table_only_where_no_client_holds_a_seat():
    room = TableRoom(Roster(["random"]), bot_pool=HeldPool())  # the all-bot match is still running after its creation
    bots_only = room.create(TableRequest(game="piktas_v1", seats=["random"] * 3, config=GAMBLING, seed=1))
    with_client = room.create(TableRequest(game="piktas_v1", seats=[None, "random", "random"], config=GAMBLING, seed=1))
    running = room.tables[bots_only.table_id]
    assert not running.finished
    whole = room.spectate(bots_only.table_id, bots_only.creator_token)
    assert whole.whole_table and whole.view["events"] == running.env.history()
    assert any("private" in event for event in whole.view["events"])
    everything = room.history(bots_only.table_id, bots_only.creator_token, None)
    assert everything.whole_table and everything.events == running.env.history() and everything.records is None
    public = room.spectate(with_client.table_id, with_client.creator_token)
    assert not public.whole_table and "private" not in public.model_dump_json()
    with pytest.raises(TableRunningError):
        room.history(with_client.table_id, with_client.creator_token, None)


def test_a_recording_server_writes_each_tables_hands_and_they_replay(tmp_path):
    room = TableRoom(Roster(["random"]), record_dir=tmp_path)
    finished = room.create(TableRequest(game="piktas_v1", seats=["random"] * 3, config=GAMBLING, seed=3))
    unfinished = room.create(
        TableRequest(game="yokir_v1", seats=[None, "random", "random"], config={"match": True}, seed=3)
    )
    fresh = room.create(TableRequest(game="yokir_v1", seats=[None, "random", "random"], seed=3))
    table, token = room.tables[unfinished.table_id], unfinished.seats[0].token
    while table.env.game.hands_played(table.env.state) < 1:
        room.play(
            unfinished.table_id, 0, token, room.view(unfinished.table_id, 0, token).view["legal_actions"][0]["id"], None
        )
    on_file = sorted(f"{created.table_id}.jsonl" for created in (finished, unfinished))
    assert sorted(path.name for path in tmp_path.iterdir()) == on_file  # each hand as it ends
    done = room.tables[finished.table_id]
    assert (tmp_path / f"{finished.table_id}.jsonl").read_text() == "".join(
        hand_lines(done.env, episode=0, seats=["random"] * 3, table_id=finished.table_id)
    )
    room.delete(unfinished.table_id, unfinished.creator_token)
    room.delete(fresh.table_id, fresh.creator_token)  # no hand finished: nothing to write
    assert sorted(path.name for path in tmp_path.iterdir()) == on_file
    for created, hands, seats in [(finished, 2, ["random"] * 3), (unfinished, 1, ["client", "random", "random"])]:
        records = [json.loads(line) for line in (tmp_path / f"{created.table_id}.jsonl").read_text().splitlines()]
        assert [record["hand"] for record in records] == list(range(hands))
        assert all(record["seats"] == seats and record["table_id"] == created.table_id for record in records)
        for record in records:
            replay(record)
