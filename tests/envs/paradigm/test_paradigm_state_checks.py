"""Paradigm states and seat views read from outside are checked before the rules see them
(`ParadigmGame.check_state`)."""

from __future__ import annotations

import json

import pytest
from cardarena.envs.core.errors import SeatViewError, StateError
from cardarena.envs.paradigm.rules import VALUE
from paradigm_support import make
from state_support import played_state


def _played_state(moves: int, **config) -> dict:
    return played_state(make(**config), moves)


def test_a_played_state_loads() -> None:
    data = _played_state(40)
    assert make().game.state_to_json(make().game.state_from_json(data)) == data


def test_a_card_id_out_of_the_deck_is_refused() -> None:
    data = _played_state(40)
    data["deck"][0] = 45
    with pytest.raises(StateError, match=r"'deck\[0\]' must be 0..44, got 45"):
        make().game.state_from_json(data)


def test_a_card_in_two_places_is_refused() -> None:
    data = _played_state(40)
    data["discard"].append(data["deck"][0])
    with pytest.raises(StateError, match="holds card"):
        make().game.state_from_json(data)


def test_a_pile_that_falls_from_bottom_to_top_is_refused() -> None:
    data = _played_state(40)
    lower, higher = sorted((data["table"].pop()[0] for _ in range(2)), key=VALUE.__getitem__)
    data["table"].append([higher, lower])
    with pytest.raises(StateError, match="not strictly increasing"):
        make().game.state_from_json(data)


def test_a_revealed_card_still_in_the_deck_is_refused() -> None:
    data = _played_state(40)
    data["revealed"] = data["deck"][0]
    with pytest.raises(StateError, match="'revealed' must be a card out of the deck"):
        make().game.state_from_json(data)


def test_made_up_returns_at_the_end_are_refused() -> None:
    env = make(num_players=2)
    env.reset(seed=3)
    while env.agents:
        env.step(env.game.legal_actions(env.state)[0] if not env.state.terminal else None)
    data = json.loads(json.dumps(env.game.state_to_json(env.state)))
    data["returns"] = [1.0, -1.0] if data["returns"] != [1.0, -1.0] else [-1.0, 1.0]
    with pytest.raises(StateError, match="'returns'"):
        make(num_players=2).game.state_from_json(data)


def test_a_seat_to_act_the_phase_never_gives_is_refused() -> None:
    data = _played_state(0)
    data["to_act"] = 3
    with pytest.raises(StateError, match="'suits'"):
        make().game.state_from_json(data)


def test_a_view_with_made_up_returns_is_refused() -> None:
    env = make()
    env.reset(seed=3)
    view = env.observe_json(env.agent_selection)
    view["returns"] = [1.0, 0.0, 0.0, 0.0]
    with pytest.raises(SeatViewError, match="'returns'"):
        make().load_view(view)
