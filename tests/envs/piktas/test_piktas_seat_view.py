"""Piktas's seat views: the round trip at variant tables (the conformance suite plays the modes),
a betting view resuming its round, and views that do not fit the table as SeatViewErrors.
"""

from __future__ import annotations

import copy
import json

import pytest
from cardarena.envs import make
from cardarena.envs.core.conformance import play_random_episode
from cardarena.envs.core.errors import SeatViewError
from conformance_support import SeatViewRoundTrip, sometimes


@pytest.mark.parametrize(
    "config",
    [
        {"use_voids": False, "num_players": 11},
        {"wild_voids": True, "trump_multi_unit": False, "highest_unit_only": True},
    ],
    ids=json.dumps,
)
def test_variant_tables_round_trip_every_seat_view(config):
    """The conformance suite's seat-view check (every seat, random decisions and the end) at variant tables."""
    check = SeatViewRoundTrip(make("piktas_v1", **config))
    assert play_random_episode(make("piktas_v1", **config), 3, visit=sometimes(4, check)).broken == []


def _betting_view() -> dict:
    """The acting seat's view in a gambling round's betting, after one raise."""
    env = make("piktas_v1", mode="gambling", num_players=3)
    env.reset(seed=5)
    while env.observe_json(env.agent_selection)["phase"] == "exchange":
        env.step(0)
    env.step(33)
    return json.loads(json.dumps(env.observe_json(env.agent_selection)))


def test_a_betting_view_resumes_the_betting_round():
    env = make("piktas_v1", mode="gambling", num_players=3)
    agent = env.load_view(_betting_view())
    assert [action["label"] for action in env.observe_json(agent)["legal_actions"]] == ["match", "raise", "fold"]


def _broken(change) -> dict:
    view = _betting_view()
    change(view)
    return view


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v["hand"].__setitem__(0, "X9"), "'hand': 'X9' is not a card code"),
        (lambda v: v["field"][0].append(v["hand"][0]), "twice"),
        (lambda v: v.__setitem__("deck_size", v["deck_size"] + 1), "deck_size"),
        (lambda v: v["settings"].__setitem__("num_players", 4), "num_players"),
        (lambda v: v.__setitem__("game", "yokir_v1"), "not piktas_v1"),
        (lambda v: v["hand_sizes"].pop(), "one entry per seat"),
        (lambda v: v["betting"]["actions"][0].__setitem__("action", "match"), "cannot follow"),
        (lambda v: v["betting"].__setitem__("current_bet", 30), "do not give"),
        (lambda v: v.__setitem__("hand", v["hand"][:-1]), "hand_sizes"),
        (lambda v: v.pop("pot"), "pot"),
        (lambda v: v.__setitem__("surprise", 1), "surprise"),
    ],
)
def test_a_view_that_does_not_fit_the_table_is_a_seat_view_error(change, message):
    env = make("piktas_v1", mode="gambling", num_players=3)
    with pytest.raises(SeatViewError, match=message):
        env.load_view(_broken(change))


def test_a_view_from_another_table_size_is_refused():
    view = copy.deepcopy(_betting_view())
    with pytest.raises(SeatViewError, match="num_players"):
        make("piktas_v1", mode="gambling", num_players=4).load_view(view)
