"""Scarp states and seat views read from outside are checked before the rules see them
(`ScarpGame.check_state`)."""

from __future__ import annotations

import pytest
from cardarena.envs.core.errors import SeatViewError, StateError
from scarp_support import make as _make
from state_support import played_state


def _played_state(moves: int) -> dict:
    return played_state(_make(), moves)


def test_a_played_state_loads() -> None:
    data = _played_state(6)
    assert _make().game.state_to_json(_make().game.state_from_json(data)) == data


def test_a_card_id_out_of_the_deck_is_refused() -> None:
    data = _played_state(6)
    data["deck"][0] = -1
    with pytest.raises(StateError, match=r"'deck\[0\]' must be 0..44, got -1"):
        _make().game.state_from_json(data)


def test_a_card_in_two_places_is_refused() -> None:
    data = _played_state(6)
    data["pile"].append(data["hands"][0][0])
    with pytest.raises(StateError, match="holds card"):
        _make().game.state_from_json(data)


def test_a_bogus_pick_state_is_refused() -> None:
    data = _played_state(6)
    data["picks"] = {"picked": [1, 1]}
    with pytest.raises(StateError, match="'picks'"):
        _make().game.state_from_json(data)


def test_a_winner_before_the_end_is_refused() -> None:
    data = _played_state(6)
    data["winner"] = 0
    with pytest.raises(StateError, match="'winner'"):
        _make().game.state_from_json(data)


def test_naming_after_the_game_has_begun_is_refused() -> None:
    data = _played_state(6)
    data["phase"] = 0
    with pytest.raises(StateError, match="'phase'"):
        _make().game.state_from_json(data)


def test_a_view_of_another_phase_is_refused() -> None:
    env = _make()
    env.reset(seed=3)
    env.step(env.game.legal_actions(env.state)[0])
    env.step(env.game.legal_actions(env.state)[0])
    view = env.observe_json(env.agent_selection)
    view["phase"] = "naming"
    with pytest.raises((SeatViewError, StateError)):
        _make().load_view(view)
