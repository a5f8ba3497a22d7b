"""Seat views are self-describing: every view carries its table's `settings`, and its legal actions
carry their details (`Game.action_details`: kind, cards, and the game's own keys) beside their labels.
"""

from __future__ import annotations

import json
import random

import pytest
from cardarena.envs import make
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.table import Table
from cardarena.envs.core.views import view_settings


def _views(game: str, seed: int, **config) -> list[dict]:
    """The acting seat's view at every decision of one random episode."""
    table = Table(make(game, **config))
    table.reset(seed)
    rng, views = random.Random(seed), []
    while (seat := table.to_act) is not None:
        views.append(json.loads(json.dumps(table.env.observe_json(table.env.possible_agents[seat]))))
        table.play(rng.choice(views[-1]["legal_actions"])["id"])
    return views


PIKTAS_SETTINGS = {
    "num_players": 5,
    "mode": "gambling",
    "num_hands": 2,
    "dealer": 3,
    "reward_mode": "score_diff",
    "starting_stack": 100,
    "buy_in": 10,
    "bet_size": 20,
    "max_bets": 3,
    "use_voids": True,
    "wild_voids": False,
    "trump_multi_unit": True,
    "highest_unit_only": False,
}
YOKIR_SETTINGS = {
    "num_players": 3,
    "match": True,
    "target_score": 4,
    "max_hands": 200,
    "dealer": None,
    "reward_mode": "relative",
}


@pytest.mark.parametrize(
    ("game", "settings"), [("piktas_v1", PIKTAS_SETTINGS), ("yokir_v1", YOKIR_SETTINGS)], ids=["piktas", "yokir"]
)
def test_every_view_carries_every_setting_of_its_table_but_the_environments_own(game, settings):
    env = make(game, on_illegal="penalize", illegal_reward=-3.0, **settings)
    env.reset(seed=1)
    for agent in env.possible_agents:
        view = env.observe_json(agent)
        assert list(view)[:3] == ["game", "seat", "settings"]
        assert view["settings"] == settings
    env.observe_json("player_0")["settings"]["dealer"] = 0
    assert env.observe_json("player_0")["settings"] == settings


def test_the_view_fields_that_were_settings_are_only_in_settings():
    piktas = make("piktas_v1", num_players=5)
    piktas.reset(seed=2)
    yokir = make("yokir_v1")
    yokir.reset(seed=2)
    assert not {"num_players", "mode", "num_hands"} & set(piktas.observe_json("player_0"))
    assert not {"num_players", "match"} & set(yokir.observe_json("player_0"))


def test_a_view_loads_only_at_a_table_with_its_settings():
    view = _views("piktas_v1", 3, num_players=5)[0]
    assert make("piktas_v1", num_players=5).load_view(view) == f"player_{view['seat']}"
    with pytest.raises(SeatViewError, match=r"seat view field 'settings.num_players' is 5, but this table has 4"):
        make("piktas_v1").load_view(view)
    gambling = _views("piktas_v1", 3, mode="gambling")[-1]
    with pytest.raises(SeatViewError, match=r"'settings.mode' is 'gambling', but this table has 'casual'"):
        make("piktas_v1").load_view(gambling)


def _spoilt(change) -> dict:
    view = _views("yokir_v1", 4)[0]
    change(view["settings"])
    return view


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda settings: settings.update(trumps=4),
            r"'settings.trumps' is not a setting of yokir; its settings: num_players, match",
        ),
        (lambda settings: settings.update(on_illegal="raise"), r"'settings.on_illegal' is not a setting of yokir"),
        (lambda settings: settings.pop("target_score"), r"'settings' lacks 'target_score'"),
        (lambda settings: settings.update(match="yes"), r"'settings': yokir: bad config value match='yes'"),
        (lambda settings: settings.update(num_players=4), r"'settings': yokir: bad config value num_players=4"),
        (lambda settings: settings.update(target_score=0), r"'settings': yokir: bad config value target_score=0"),
        (lambda settings: settings.update(target_score=3), r"'settings.target_score' is 3, but this table has 10"),
    ],
)
def test_bad_settings_are_a_seat_view_error_naming_the_setting(change, message):
    with pytest.raises(SeatViewError, match=message):
        make("yokir_v1").load_view(_spoilt(change))


@pytest.mark.parametrize("settings", [None, [], "match", 3])
def test_settings_that_are_not_an_object_are_refused(settings):
    view = _views("yokir_v1", 4)[0]
    view["settings"] = settings
    with pytest.raises(SeatViewError, match="'settings' must be an object of the table's settings"):
        make("yokir_v1").load_view(view)
    view.pop("settings")
    with pytest.raises(SeatViewError, match="'settings' must be an object"):
        view_settings(make("yokir_v1").game.config_cls, view)


# ---------------------------------------------------------------- legal actions with their details


def _legal_actions(game: str, seeds: range, **config) -> list[tuple[dict, dict]]:
    """(view, legal action) for every legal action of every decision of random episodes."""
    return [
        (view, action) for seed in seeds for view in _views(game, seed, **config) for action in view["legal_actions"]
    ]


def _check_yokir(view: dict, action: dict) -> None:
    kind, cards = action["kind"], action["cards"]
    if kind in ("play", "discard"):
        assert cards == [action["label"].split()[1]] and cards[0] in view["hand"]
        assert set(action) == {"id", "label", "kind", "cards"}
    elif kind in ("accept", "call"):
        assert action["label"] == f"{kind} {action['suit']}"
        assert cards == ([view["up_card"]] if kind == "accept" else [])
        assert kind == "call" or action["suit"] == view["up_card"][2:]
    else:
        assert (action["label"], cards, set(action)) == (kind, [], {"id", "label", "kind", "cards"})


def test_yokir_legal_actions_carry_their_kind_and_cards_at_every_decision():
    seen = _legal_actions("yokir_v1", range(12), match=True, target_score=3)
    for view, action in seen:
        _check_yokir(view, action)
    kinds = {view["phase"]: set() for view, _ in seen}
    for view, action in seen:
        kinds[view["phase"]].add(action["kind"])
    assert kinds == {"bid1": {"reject", "accept"}, "discard": {"discard"}, "bid2": {"pass", "call"}, "play": {"play"}}


def _check_piktas(view: dict, action: dict) -> None:
    kind, cards = action["kind"], action["cards"]
    if kind in ("swap", "void"):
        given, target = cards
        assert action["label"] == f"{kind}:{given}:{target}"
        assert given in view["hand"] and view["field"][action["position"]][0] == target
        assert (kind == "void") == (given in ("V1", "V2"))
    else:
        assert (action["label"], cards, set(action)) == (kind, [], {"id", "label", "kind", "cards"})


def test_piktas_legal_actions_carry_their_kind_cards_and_position_at_every_decision():
    seen = _legal_actions("piktas_v1", range(3), num_players=3, mode="gambling", num_hands=2)
    for view, action in seen:
        _check_piktas(view, action)
    kinds = {view["phase"]: set() for view, _ in seen}
    for view, action in seen:
        kinds[view["phase"]].add(action["kind"])
    assert kinds == {"exchange": {"pass", "swap", "void"}, "betting": {"stay", "match", "raise", "fold"}}


def test_the_details_are_the_games_action_details_and_a_view_with_other_details_is_refused():
    env = make("piktas_v1", num_players=3)
    env.reset(seed=6)
    view = json.loads(json.dumps(env.observe_json(env.agent_selection)))
    for action in view["legal_actions"]:
        details = env.game.action_details(env.state, action["id"])
        assert {key: value for key, value in action.items() if key not in ("id", "label")} == details
    swap = next(index for index, action in enumerate(view["legal_actions"]) if action["kind"] == "swap")
    view["legal_actions"][swap]["position"] += 1
    with pytest.raises(SeatViewError, match="field 'legal_actions'"):
        make("piktas_v1", num_players=3).load_view(view)
    del view["legal_actions"][swap]["kind"]
    with pytest.raises(SeatViewError, match=r"legal_actions.\d+.kind: Field required"):
        make("piktas_v1", num_players=3).load_view(view)
