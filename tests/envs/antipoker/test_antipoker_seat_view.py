"""A state rebuilt from a seat's JSON view (`state_from_view`), and views that do not fit the game."""

from __future__ import annotations

import json

import pytest
from antipoker_support import bet, draw, draw_all, make
from cardarena.envs.antipoker.rules import DECK
from cardarena.envs.core.errors import SeatViewError


def view_after(config: dict, moves) -> dict:
    env = make(**config)
    env.reset(seed=4)
    moves(env)
    return json.loads(json.dumps(env.observe_json("player_0")))


def test_a_view_mid_betting_rebuilds_the_same_table():
    view = view_after({"num_players": 3}, lambda env: (draw_all(env, ["", "", ""]), bet(env, ["raise", "raise"])))
    twin = make(num_players=3)
    assert twin.load_view(view) == "player_0"
    assert twin.observe_json("player_0") == view
    assert twin.state.bets.bets == 2 and twin.state.contributed == [3, 5, 1]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda view: view["hand"].__setitem__(0, "L11"), "'L11' is not a card code"),
        (lambda view: view["hand"].__setitem__(1, view["hand"][0]), "twice"),
        (lambda view: view["discarded"].append(view["hand"][0]), "'discarded'"),
        (lambda view: view.__setitem__("draws", [None, 2]), "the seats draw in turn"),
        (lambda view: view.__setitem__("deck_size", 3), "'deck_size'"),
        (lambda view: view["betting"].insert(0, {"seat": 1, "action": "bet"}), "betting\\[0\\]"),
        (lambda view: view["betting"].append({"seat": 1, "action": "fold"}), "'phase' is 'betting'"),
        (lambda view: view.__setitem__("to_act", 0), "'to_act' is 0"),
    ],
)
def test_a_view_that_does_not_fit_is_refused_naming_the_field(change, message):
    view = view_after({}, lambda env: (draw(env, first_two(env)), draw(env, ""), bet(env, ["raise"])))
    change(view)
    with pytest.raises(SeatViewError, match=message):
        make().game.state_from_view(view)


def first_two(env) -> str:
    """Seat 0's first two cards, as codes."""
    return " ".join(DECK.codes[card] for card in env.state.hands[0][:2])
