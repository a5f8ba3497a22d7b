"""The move number of a table's views: an action echoing it is played once, an action on a stale view
is refused with 409 `stale_view`, and an action that does not echo it is played as before."""

from __future__ import annotations

import pytest

from cardarena.serve.client import ServerError


def _two_client_table(client):
    table = client.create_table("yokir_v1", [None, None, "yokir/heuristic"], config={"dealer": 2}, seed=5)
    return table["table_id"], [seat["token"] for seat in table["seats"][:2]]


def test_each_move_advances_the_move_number_and_an_echo_plays_once(client):
    table_id, tokens = _two_client_table(client)
    first = client.table(table_id, 0, tokens[0])
    assert first["your_turn"] and first["move"] == 0
    action = first["view"]["legal_actions"][0]["id"]
    after = client.play(table_id, 0, tokens[0], action=action, move=first["move"])
    assert after["move"] >= 1
    with pytest.raises(ServerError) as twice:
        client.play(table_id, 0, tokens[0], action=action, move=first["move"])
    assert (twice.value.status, twice.value.kind) == (409, "stale_view")
    assert f"at move {after['move']}" in twice.value.detail
    assert client.table(table_id, 0, tokens[0])["move"] == after["move"]


def test_another_seats_move_makes_a_view_stale(client):
    table_id, tokens = _two_client_table(client)
    seen_by_1 = client.table(table_id, 1, tokens[1])
    zero = client.table(table_id, 0, tokens[0])
    client.play(table_id, 0, tokens[0], action=zero["view"]["legal_actions"][0]["id"])
    now = client.table(table_id, 1, tokens[1])
    assert now["your_turn"] and now["move"] == seen_by_1["move"] + 1
    legal = now["view"]["legal_actions"][0]["id"]
    with pytest.raises(ServerError, match=f"view of move {seen_by_1['move']}.*at move {now['move']}") as stale:
        client.play(table_id, 1, tokens[1], action=legal, move=seen_by_1["move"])
    assert stale.value.status == 409
    assert client.play(table_id, 1, tokens[1], action=legal, move=now["move"])["move"] > now["move"]


def test_an_action_without_a_move_number_is_played_as_before(client):
    table_id, tokens = _two_client_table(client)
    view = client.table(table_id, 0, tokens[0])
    response = client.http.post(
        f"/v1/tables/{table_id}/actions",
        json={"seat": 0, "token": tokens[0], "label": view["view"]["legal_actions"][0]["label"]},
    )
    assert response.status_code == 200 and response.json()["move"] == view["move"] + 1


@pytest.mark.parametrize("move", [-1, "3", 1.5, True])
def test_a_move_number_that_is_not_a_count_is_a_bad_request(client, move):
    table_id, tokens = _two_client_table(client)
    response = client.http.post(
        f"/v1/tables/{table_id}/actions", json={"seat": 0, "token": tokens[0], "action": 24, "move": move}
    )
    assert (response.status_code, response.json()["error"]) == (422, "bad_request")


def test_the_scarp_deck_faces_are_served_for_its_games(client):
    faces = client.http.get("/web/decks/scarp.js")
    assert faces.status_code == 200 and "GHOST" in faces.text
    assert faces.headers["content-type"].startswith("text/javascript")
    assert client.http.get("/web/decks/nodeck.js").json()["error"] == "not_found"
    for game in ("scarp_v1", "antipoker_v1", "paradigm_v2"):
        assert '"/web/decks/scarp.js"' in client.http.get(f"/web/renderers/{game}.js").text
