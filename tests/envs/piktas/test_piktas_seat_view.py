"""Piktas's seat view round trip: a state rebuilt from one seat's JSON view gives that seat the same
observation, legal actions and view; views that do not fit the table are SeatViewErrors.
"""

from __future__ import annotations

import copy
import json

import pytest
from cardarena.envs import make
from cardarena.envs.core.errors import SeatViewError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seat_view_support import check_round_trips

configs = st.one_of(
    st.fixed_dictionaries({"num_players": st.integers(2, 11), "use_voids": st.booleans()}),
    st.fixed_dictionaries({"num_hands": st.integers(2, 3), "reward_mode": st.sampled_from(["score_diff", "win"])}),
    st.fixed_dictionaries(
        {"mode": st.just("gambling"), "num_players": st.integers(2, 5), "num_hands": st.integers(1, 4), "starting_stack": st.sampled_from([20, 100])}
    ),
    st.fixed_dictionaries({"wild_voids": st.just(True), "trump_multi_unit": st.booleans(), "highest_unit_only": st.booleans()}),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), config=configs)
def test_state_from_view_gives_the_seat_the_same_observation_and_legal_actions(seed, config):
    check_round_trips(make("piktas_v1", **config), make("piktas_v1", **config), seed)


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
        (lambda v: v.__setitem__("num_players", 4), "num_players"),
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
