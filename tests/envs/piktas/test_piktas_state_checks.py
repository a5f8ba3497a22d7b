"""Piktas states and seat views read from outside are checked before the rules or the compiled
scorer see them (`PiktasGame.check_state`)."""

from __future__ import annotations

import pytest
from cardarena.envs.core.errors import SeatViewError, StateError
from piktas_env_support import make
from state_support import played_state


def _played_state(config: dict, moves: int) -> dict:
    return played_state(make(**config), moves, lambda legal: legal[-1])


def test_a_field_card_out_of_the_deck_is_refused_before_observing() -> None:
    data = _played_state({}, 2)
    data["field"][0][0] = -1
    with pytest.raises(StateError, match=r"'field\[0\]\[0\]' must be 0..71, got -1"):
        make().game.state_from_json(data)


def test_a_card_in_two_places_is_refused() -> None:
    data = _played_state({}, 0)
    data["hands"][1][0] = data["hands"][0][0]
    with pytest.raises(StateError, match=r"hands\[1\]' holds card"):
        make().game.state_from_json(data)


def test_chips_that_do_not_total_the_stacks_are_refused() -> None:
    data = _played_state({"mode": "gambling"}, 3)
    data["chips"][0] += 5
    with pytest.raises(StateError, match="'chips'"):
        make(mode="gambling").game.state_from_json(data)


def test_an_exchange_the_hands_do_not_bear_out_is_refused() -> None:
    data = _played_state({}, 3)
    data["exchanges"][0][3] = data["deck"][0]
    with pytest.raises(StateError, match=r"exchanges\[0\]"):
        make().game.state_from_json(data)


def test_scores_no_showdown_gave_are_refused_in_a_view() -> None:
    env = make()
    env.reset(seed=3)
    view = env.observe_json(env.agent_selection)
    view["scores"][0] = 10**6
    with pytest.raises(SeatViewError, match="'scores'"):
        make().load_view(view)


def test_a_view_of_a_betting_round_loads() -> None:
    env = make(mode="gambling")
    env.reset(seed=3)
    while env.game.current_player(env.state) >= 0 and env.state.phase == 0:
        env.step(0)
    agent = env.agent_selection
    twin = make(mode="gambling")
    assert twin.load_view(env.observe_json(agent)) == agent
    assert twin.game.legal_actions(twin.state) == env.game.legal_actions(env.state)
