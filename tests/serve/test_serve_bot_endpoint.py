"""POST /v1/act and the listings over real HTTP: legal moves for every decision, 4xx for every bad request."""

from __future__ import annotations

import json

import httpx
import pytest
from cardarena.agents import available, describe
from cardarena.envs import GAMES
from serve_support import SERVED, acting_views

from cardarena.serve.bots import Roster
from cardarena.serve.client import ServerError
from cardarena.serve.models import ActRequest


def test_listings_name_every_game_and_served_bot(client):
    built_in = [name for name in available() if describe(name)["kind"] == "built-in"]
    assert {"random", "yokir/heuristic"} <= set(built_in)
    assert client.health() == {"status": "ok", "games": GAMES, "bots": [*built_in, *SERVED]}
    games = {game["env_id"]: game for game in client.games()}
    assert list(games) == GAMES
    yokir = games["yokir_v1"]
    assert (yokir["env_id"], yokir["min_players"], yokir["num_actions"], yokir["settings"]["match"]) == (
        "yokir_v1",
        3,
        29,
        False,
    )
    bots = {bot["name"]: bot for bot in client.bots()}
    assert bots["random"] == {"name": "random", "game": None, "kind": "built-in", "card": None}
    assert bots["yokir/heuristic"]["game"] == "yokir"
    assert bots["yokir/ppo-selfplay"]["card"]["env_id"] == "yokir_v1"
    assert bots["yokir/ppo-selfplay"]["card"]["files"]["policy.npz"]


@pytest.mark.parametrize("config", [{}, {"match": True, "target_score": 1, "max_hands": 2}])
def test_every_bot_answers_a_legal_move_at_every_decision(client, config):
    for bot in ["random", "yokir/heuristic", *SERVED]:
        for view in acting_views(seed=11, **config):
            move = client.act(bot, "yokir_v1", view, config)
            legal = {action["id"]: action["label"] for action in view["legal_actions"]}
            assert move["legal"] is True
            assert legal[move["action"]] == move["action_label"]


@pytest.mark.parametrize("config", [{}, {"num_players": 11}, {"mode": "gambling", "num_players": 3, "num_hands": 2}])
def test_piktas_bots_answer_a_legal_move_at_every_decision(client, config):
    for bot in ["random", "piktas/heuristic", "piktas/field-heuristic"]:
        for view in acting_views(seed=7, game="piktas_v1", **config):
            move = client.act(bot, "piktas_v1", view, config)
            legal = {action["id"]: action["label"] for action in view["legal_actions"]}
            assert legal[move["action"]] == move["action_label"]


@pytest.mark.parametrize(
    ("game", "config"),
    [
        ("piktas_v1", {"num_players": 5}),
        ("piktas_v1", {"mode": "gambling"}),
        ("yokir_v1", {"match": True, "target_score": 2}),
    ],
    ids=json.dumps,
)
def test_a_seat_view_alone_names_its_table(client, game, config):
    """No `config` in the request: the view's settings give the table (a 5-seat view, a gambling view, a match)."""
    for bot in ["random", f"{game.split('_')[0]}/heuristic"]:
        for view in acting_views(seed=7, game=game, **config):
            assert config.items() <= view["settings"].items()
            response = client.http.post("/v1/act", json={"bot": bot, "game": game, "seat_view": view})
            assert response.status_code == 200, response.text
            legal = {action["id"]: action["label"] for action in view["legal_actions"]}
            assert legal[response.json()["action"]] == response.json()["action_label"]


def test_a_config_may_repeat_the_settings_and_add_the_environments_own():
    view = acting_views(seed=7, game="piktas_v1", num_players=5)[0]
    for config in [{"num_players": 5}, {"on_illegal": "penalize"}, view["settings"]]:
        move = Roster(["random"]).act(ActRequest(bot="random", game="piktas_v1", config=config, seat_view=view))
        assert move.action in {action["id"] for action in view["legal_actions"]}


def test_the_trained_bot_answers_as_its_agent_does(client, roster):
    from cardarena.envs import make

    env = make("yokir_v1")
    for view in acting_views(seed=5):
        agent = env.load_view(view)
        assert client.act("yokir/ppo-selfplay", "yokir", view)["action"] == roster.bots["yokir/ppo-selfplay"].agent.act(
            env.observe(agent)
        )


def _view():
    return acting_views(seed=3)[4]


def _twice(view):
    view["hand"][1] = view["hand"][0]


@pytest.mark.parametrize(
    ("change", "status", "kind", "words"),
    [
        (lambda body: body.update(bot="yokir/nobody"), 404, "unknown_bot", "unknown bot 'yokir/nobody'"),
        (lambda body: body.update(game="chess_v1"), 404, "unknown_game", "unknown game 'chess_v1'"),
        (lambda body: body.update(config={"match": "yes"}), 422, "bad_config", "match='yes'"),
        (
            lambda body: body.update(config={"render_mode": "human"}),
            422,
            "bad_config",
            "unknown config key 'render_mode'",
        ),
        (
            lambda body: body.update(config={"match": True}),
            422,
            "bad_config",
            "config 'match' is True, but the seat view's settings.match is False",
        ),
        (
            lambda body: body["seat_view"]["settings"].update(match="yes"),
            422,
            "bad_seat_view",
            "'settings': yokir: bad config value match='yes'",
        ),
        (
            lambda body: body["seat_view"]["settings"].update(trumps=4),
            422,
            "bad_seat_view",
            "'settings.trumps' is not a setting of yokir",
        ),
        (
            lambda body: body["seat_view"]["settings"].pop("max_hands"),
            422,
            "bad_seat_view",
            "'settings' lacks 'max_hands'",
        ),
        (lambda body: body["seat_view"].pop("settings"), 422, "bad_seat_view", "'settings' must be an object"),
        (
            lambda body: body["seat_view"]["hand"].__setitem__(0, "ZzAr"),
            422,
            "bad_seat_view",
            "'ZzAr' is not a card code",
        ),
        (lambda body: _twice(body["seat_view"]), 422, "bad_seat_view", "twice"),
        (lambda body: body["seat_view"].__setitem__("scores", [0]), 422, "bad_seat_view", "scores"),
        (
            lambda body: body["seat_view"].__setitem__("to_act", (body["seat_view"]["seat"] + 1) % 3),
            422,
            "bad_seat_view",
            "to_act",
        ),
        (lambda body: body["seat_view"].pop("hand"), 422, "bad_seat_view", "hand: Field required"),
        (lambda body: body.pop("seat_view"), 422, "bad_request", "seat_view: Field required"),
        (lambda body: body.update(extra=1), 422, "bad_request", "extra"),
    ],
)
def test_a_bad_request_is_a_4xx_naming_the_problem(client, change, status, kind, words):
    body = {"bot": "yokir/ppo-selfplay", "game": "yokir_v1", "config": {}, "seat_view": _view()}
    change(body)
    response = client.http.post("/v1/act", json=body)
    assert response.status_code == status
    assert response.json()["error"] == kind
    assert words in response.json()["detail"]


def test_a_view_of_another_seats_turn_is_refused(client):
    from cardarena.envs import make

    env = make("yokir_v1")
    env.reset(seed=1)
    waiting = next(agent for agent in env.possible_agents if agent != env.agent_selection)
    with pytest.raises(ServerError, match="has no move to make") as refused:
        client.act("random", "yokir_v1", env.observe_json(waiting))
    assert refused.value.status == 422


def test_malformed_and_oversized_bodies_are_refused(client, server_url):
    assert (
        client.http.post("/v1/act", content=b"{not json", headers={"content-type": "application/json"}).status_code
        == 422
    )
    huge = json.dumps({"bot": "random", "game": "yokir", "seat_view": {"pad": "x" * 70_000}})
    response = client.http.post("/v1/act", content=huge, headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]) == (413, "body_too_large")

    def chunks():
        yield huge.encode()

    streamed = httpx.post(f"{server_url}/v1/act", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    deep = "[" * 20_000 + "]" * 20_000
    assert client.http.post("/v1/act", content=deep, headers={"content-type": "application/json"}).status_code == 422


@pytest.mark.parametrize(
    ("headers", "sent"),
    [({}, "no content-type header"), ({"content-type": "text/plain"}, "content-type 'text/plain'")],
)
def test_a_body_not_sent_as_json_is_refused_naming_the_content_type(client, headers, sent):
    body = json.dumps({"bot": "random", "game": "yokir_v1", "config": {}, "seat_view": _view()})
    response = client.http.post("/v1/act", content=body, headers=headers)
    assert (response.status_code, response.json()["error"]) == (415, "unsupported_media_type")
    assert "content-type: application/json" in response.json()["detail"] and sent in response.json()["detail"]


@pytest.mark.parametrize("body", [b"{not json", "[" * 20_000 + "]" * 20_000, b"\xff\xfe"])
def test_a_body_that_is_not_json_is_refused_naming_the_content_type(client, body):
    response = client.http.post("/v1/act", content=body, headers={"content-type": "application/json"})
    assert (response.status_code, response.json()["error"]) == (422, "bad_request")
    assert "not JSON" in response.json()["detail"] and "content-type: application/json" in response.json()["detail"]
