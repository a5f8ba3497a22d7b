"""The JSON seat view and `state_from_view`: a view rebuilds the state it came from (but the deck's
order), and a view that does not fit the game is a SeatViewError naming the field."""

from __future__ import annotations

import copy
import json

import pytest
from cardarena.envs.core.errors import SeatViewError
from paradigm_support import played


def view_after(decisions: int, seed: int = 2, n: int = 3):
    env = played(decisions, seed, n)
    return env, json.loads(json.dumps(env.observe_json(f"player_{env.game.current_player(env.state)}")))


@pytest.mark.parametrize("decisions", [0, 2, 5, 20, 40])
def test_a_view_rebuilds_the_state_but_the_deck_order(decisions):
    env, view = view_after(decisions)
    rebuilt = env.game.state_from_view(view)
    assert sorted(rebuilt.deck) == sorted(env.state.deck)
    for field in ("suits", "table", "hands", "discard", "phase", "to_act", "turn", "pending", "setup_revealed"):
        assert getattr(rebuilt, field) == getattr(env.state, field), field
    assert env.game.legal_actions(rebuilt) == env.game.legal_actions(env.state)


def broken(view: dict, change) -> dict:
    view = copy.deepcopy(view)
    change(view)
    return view


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda v: v["hands"][0].append(v["table"][0][0]), "two places"),
        (lambda v: v.__setitem__("deck_size", v["deck_size"] + 1), "deck_size"),
        (lambda v: v["table"].append(["L9", "L2"]), "strictly increasing|two places"),
        (lambda v: v["table"][0].append("X1"), "not a card code|table"),
        (lambda v: v.__setitem__("scores", [999] * len(v["scores"])), "scores"),
        (lambda v: v.__setitem__("suits", v["suits"][:-1] + [None]), "suits|unowned|controllers|to act"),
        (lambda v: v.__setitem__("phase", "dance"), "phase"),
        (lambda v: v.__setitem__("hands", v["hands"][:1]), "hands"),
    ],
)
def test_a_view_that_does_not_fit_is_refused(change, message):
    env, view = next((env, view) for env, view in map(view_after, range(30, 60)) if view["table"])
    with pytest.raises(SeatViewError, match=message):
        env.game.state_from_view(broken(view, change))
