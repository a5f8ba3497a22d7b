"""Tables over real HTTP: two clients and a bot play a Yokir hand to the end; each token opens one seat only.
Tables of a Piktas match with eliminations are finished exactly when the match is over."""

from __future__ import annotations

import random

import pytest
from serve_support import Clock

from cardarena.serve.bots import Roster
from cardarena.serve.client import ServerError
from cardarena.serve.models import TableRequest
from cardarena.serve.tables import TableRoom


def _play_to_the_end(client, table, seats, rng):
    """Both client seats poll and play random legal moves (one by label) until the hand ends; their last views."""
    tokens = {seat: table["seats"][seat]["token"] for seat in seats}
    views = {seat: client.table(table["table_id"], seat, tokens[seat]) for seat in seats}
    while not all(view["finished"] for view in views.values()):
        for seat in seats:
            view = client.table(table["table_id"], seat, tokens[seat])
            assert view["view"]["seat"] == seat and len(view["view"]["hand"]) <= 6
            if view["your_turn"]:
                move = rng.choice(view["view"]["legal_actions"])
                by_label = rng.random() < 0.5
                view = client.play(
                    table["table_id"],
                    seat,
                    tokens[seat],
                    **({"label": move["label"]} if by_label else {"action": move["id"]}),
                )
            views[seat] = view
    return views


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_clients_and_a_bot_play_a_hand_to_the_end(client, seed):
    table = client.create_table("yokir_v1", [None, "yokir/ppo-selfplay", None], seed=seed)
    assert [seat["bot"] for seat in table["seats"]] == [None, "yokir/ppo-selfplay", None]
    assert table["seats"][1]["token"] is None
    views = _play_to_the_end(client, table, [0, 2], random.Random(seed))
    rewards = views[0]["rewards"]
    assert views[2]["rewards"] == rewards == views[0]["view"]["returns"]
    assert sum(rewards) == pytest.approx(0.0)
    assert views[0]["to_act"] is None and views[0]["view"]["phase"] == "over"


def test_a_match_table_plays_to_the_match_end(client):
    table = client.create_table(
        "yokir", [None, "yokir/heuristic", "random"], config={"match": True, "target_score": 2}, seed=4
    )
    views = _play_to_the_end(client, table, [0], random.Random(4))
    assert sorted(views[0]["rewards"]) in ([-0.5, -0.5, 1.0], [0.0, 0.0, 0.0])


def test_a_seat_token_opens_that_seat_only(client):
    table = client.create_table("yokir_v1", [None, None, "yokir/heuristic"], seed=9)
    table_id, tokens = table["table_id"], [seat["token"] for seat in table["seats"]]
    for seat, token, status in [(1, tokens[0], 403), (0, "not-a-token", 403), (2, tokens[0], 403), (7, tokens[0], 403)]:
        with pytest.raises(ServerError) as refused:
            client.table(table_id, seat, token)
        assert (refused.value.status, refused.value.kind) == (status, "bad_token")
    with pytest.raises(ServerError) as refused:
        client.table("f" * 32, 0, tokens[0])
    assert (refused.value.status, refused.value.kind) == (404, "unknown_table")
    mine = client.table(table_id, 0, tokens[0])["view"]
    theirs = client.table(table_id, 1, tokens[1])["view"]
    assert not set(mine["hand"]) & set(theirs["hand"])


def test_out_of_turn_and_illegal_moves_are_409(client):
    table = client.create_table("yokir_v1", [None, None, None], config={"dealer": 2}, seed=5)
    table_id, tokens = table["table_id"], [seat["token"] for seat in table["seats"]]
    for seat, move, words in [
        (1, {"action": 24}, "not seat 1's turn: seat 0 is to act"),
        (0, {"action": 3}, "illegal action 3"),
        (0, {"action": 999}, "out of range"),
        (0, {"label": "call Ar"}, "'call Ar' is not a legal move here"),
        (0, {}, "exactly one of 'action'"),
    ]:
        with pytest.raises(ServerError, match=words) as refused:
            client.play(table_id, seat, tokens[seat], **move)
        assert (refused.value.status, refused.value.kind) == (409, "illegal_action")


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        ({"game": "yokir", "seats": [None, None]}, 422, "bad_config"),
        ({"game": "yokir", "seats": [None, None, "yokir/ghost"]}, 404, "unknown_bot"),
        ({"game": "nogame", "seats": [None]}, 404, "unknown_game"),
        ({"game": "yokir", "seats": [None, None, None], "config": {"num_players": 4}}, 422, "bad_config"),
        ({"game": "yokir", "seats": [None, None, None], "move_time_limit": -1}, 422, "bad_request"),
    ],
)
def test_a_bad_table_is_refused(client, body, status, kind):
    response = client.http.post("/v1/tables", json=body)
    assert (response.status_code, response.json()["error"]) == (status, kind)


def test_a_client_out_of_time_gets_a_random_legal_move_and_deadlines_chain(roster):
    clock = Clock()
    room = TableRoom(roster, clock, table_ttl=100_000.0)
    request = TableRequest(
        game="yokir_v1", seats=[None, None, None], config={"dealer": 2}, seed=3, move_time_limit=10.0
    )
    table = room.create(request)
    token = {ticket.seat: ticket.token for ticket in table.seats}
    assert room.view(table.table_id, 0, token[0]).seconds_left == 10.0
    clock.now = 9.0
    assert room.view(table.table_id, 0, token[0]).seconds_left == pytest.approx(1.0)
    clock.now = 25.0  # seat 0 timed out at 10, seat 1 at 20; seat 2 has until 30
    view = room.view(table.table_id, 2, token[2])
    assert (view.to_act, view.seconds_left) == (2, pytest.approx(5.0))
    assert [bid["seat"] for bid in view.view["bids"]] == [0, 1]
    clock.now = 10_000.0
    final = room.view(table.table_id, 0, token[0])
    assert final.finished and sum(final.rewards) == pytest.approx(0.0)


def test_a_full_room_makes_way_only_for_finished_tables():
    roster = Roster(["random"])
    room = TableRoom(roster, max_tables=2)
    unfinished = TableRequest(game="yokir_v1", seats=[None, "random", "random"], seed=1)
    finished = TableRequest(game="yokir_v1", seats=["random", "random", "random"], seed=1)
    first = room.create(finished).table_id
    room.create(unfinished)
    room.create(unfinished)
    assert first not in room.tables
    with pytest.raises(Exception, match="2 unfinished tables"):
        room.create(unfinished)


ELIMINATION = {"num_players": 4, "mode": "gambling", "num_hands": 20, "starting_stack": 20, "buy_in": 10}


def _match_over(table) -> bool:
    game, state = table.env.game, table.env.state
    return game.is_terminal(state) or game.is_truncated(state)


def test_all_bot_elimination_tables_are_finished_only_when_the_match_is_over():
    room = TableRoom(Roster(["random"]))
    early_ends = unfinished = with_eliminations = 0
    for seed in range(50):
        created = room.create(TableRequest(game="piktas_v1", seats=["random"] * 4, config=ELIMINATION, seed=seed))
        table = room.tables[created.table_id]
        early_ends += table.finished and not _match_over(table)
        unfinished += not table.finished  # an all-bot match is played out within one request
        with_eliminations += any(table.env.game.seat_done(table.env.state, seat) for seat in range(4))
    assert (early_ends, unfinished) == (0, 0)
    assert with_eliminations >= 25


def test_a_client_knocked_out_of_a_match_watches_it_to_the_end():
    room = TableRoom(Roster(["random"]))
    rng = random.Random(0)
    knocked_out = 0
    for seed in range(40):  # the served random bots are unseeded: play tables until two knockouts
        if knocked_out == 2:
            break
        created = room.create(
            TableRequest(game="piktas_v1", seats=[None, "random", "random", "random"], config=ELIMINATION, seed=seed)
        )
        token, table = created.seats[0].token, room.tables[created.table_id]
        view = room.view(created.table_id, 0, token)
        while not view.finished:
            assert view.finished == _match_over(table) and view.your_turn
            move = rng.choice(view.view["legal_actions"])["id"]
            view = room.play(created.table_id, 0, token, move, None)
        knocked_out += table.env.game.seat_done(table.env.state, 0)
        assert _match_over(table) and view.to_act is None
        assert view.rewards == list(table.env.game.returns(table.env.state))
    assert knocked_out >= 2
