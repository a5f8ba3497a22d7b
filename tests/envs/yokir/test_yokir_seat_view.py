"""Yokir's seat views that do not fit the game are SeatViewErrors (the round trip of every seat's
view is in tests/envs/test_conformance.py).
"""

from __future__ import annotations

import json

import pytest
from cardarena.envs.core.errors import SeatViewError
from hypothesis import given, settings
from hypothesis import strategies as st
from yokir_support import make


def _view_in_play(seed: int = 3) -> dict:
    """The acting seat's view after the first trick of a hand where the up-card was accepted."""
    env = make()
    env.reset(seed=seed)
    while not env.observe_json(env.agent_selection)["tricks"]:
        env.step(env.observe_json(env.agent_selection)["legal_actions"][-1]["id"])
    return json.loads(json.dumps(env.observe_json(env.agent_selection)))


def _trick_winner_off_by_one(view):
    view["tricks"][0]["winner"] = (view["tricks"][0]["winner"] + 1) % 3


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda view: view["hand"].__setitem__(0, "XxAr"), "'XxAr' is not a card code"),
        (lambda view: view["hand"].append(view["hand"][0]), "twice"),
        (lambda view: view["hand"].__setitem__(0, view["tricks"][0]["cards"][0]), "twice"),
        (lambda view: view["hand"].__setitem__(0, view["up_card"]), "only a seat that accepted it"),
        (lambda view: view["hand"].pop(), "each seat is dealt 5"),
        (lambda view: view.__setitem__("scores", [0, 0]), "scores: List should have at least 3 items"),
        (lambda view: view.pop("tricks"), "tricks: Field required"),
        (lambda view: view.__setitem__("seat", 5), "'seat' must be a seat number 0..2"),
        (lambda view: view.__setitem__("game", "other_v1"), "not yokir_v1"),
        (lambda view: view.__setitem__("phase", "showdown"), "phase: Input should be"),
        (
            lambda view: view["settings"].__setitem__("match", 1),
            "'settings': yokir: bad config value match=1: Input should be a valid boolean",
        ),
        (lambda view: view.__setitem__("returns", [0, 0, 0]), "field 'returns'"),
        (lambda view: view["bids"][0].__setitem__("action", "accept XX"), "is not a round 1 bid"),
        (lambda view: view["bids"][0].__setitem__("seat", (view["bids"][0]["seat"] + 1) % 3), "bids[0]"),
        (
            lambda view: view["trick"].__setitem__("leader", None) or view["trick"].__setitem__("cards", ["CiAr"]),
            "leader is null",
        ),
        (_trick_winner_off_by_one, "field 'tricks'"),
        (lambda view: view["legal_actions"].pop(), "field 'legal_actions'"),
        (lambda view: view.__setitem__("extra", 1), "extra: Extra inputs are not permitted"),
    ],
)
def test_a_view_that_does_not_fit_the_game_is_a_seat_view_error(spoil, message):
    view = _view_in_play()
    spoil(view)
    with pytest.raises(SeatViewError, match=message.replace("[", r"\[").replace("(", r"\(")):
        make().load_view(view)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 30)
    | st.floats(allow_nan=False)
    | st.sampled_from(["CiAr", "MaPh", "play", "x"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["leader", "cards", "winner", "seat"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 50), field=st.sampled_from(sorted(_view_in_play())), value=json_values)
def test_any_spoilt_field_is_a_seat_view_error_or_a_valid_view(seed, field, value):
    view = _view_in_play(seed % 7 + 1)
    view[field] = value
    env = make()
    try:
        env.load_view(view)
    except SeatViewError:
        return
    assert env.observe_json(f"player_{view['seat']}") == view
