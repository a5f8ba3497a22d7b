"""Dividha states and seat views read from outside are checked before the rules or the compiled
evaluator and table writer see them (`DividhaGame.check_state`)."""

from __future__ import annotations

import json

import pytest
from cardarena.envs import make
from cardarena.envs.core.errors import SeatViewError, StateError


def _played(moves: int, **config) -> tuple:
    env = make("dividha", **config)
    env.reset(seed=3)
    for _ in range(moves):
        env.step(env.game.legal_actions(env.state)[-1])
    return env, json.loads(json.dumps(env.game.state_to_json(env.state)))


def _refused(data: dict, match: str, **config) -> None:
    with pytest.raises(StateError, match=match):
        make("dividha", **config).game.state_from_json(data)


def test_a_played_state_loads_and_plays_on() -> None:
    env, data = _played(3)
    twin = make("dividha")
    twin.load_state(twin.game.state_from_json(data))
    assert twin.game.legal_actions(twin.state) == env.game.legal_actions(env.state)


def test_a_card_in_two_places_is_refused() -> None:
    _, data = _played(0)
    data["cards"][1][0] = data["cards"][0][0]
    _refused(data, r"'cards\[1\]' holds card")


def test_a_card_id_out_of_the_deck_is_refused() -> None:
    _, data = _played(0)
    data["stock"][0] = 56
    _refused(data, r"'stock\[0\]' must be 0..55, got 56")


def test_chips_that_do_not_total_the_stacks_dealt_out_are_refused() -> None:
    _, data = _played(2)
    data["stacks"][0] += 5
    _refused(data, r"'stacks' the pot and the forfeits come to \d+, not the 400 dealt out")


def test_a_betting_round_the_moves_do_not_open_is_refused() -> None:
    _, data = _played(2)
    data["bets"]["min_raise"] += 2
    _refused(data, "'bets' is not the round the hand's moves open")


def test_a_betting_round_with_a_seat_twice_to_act_is_refused() -> None:
    _, data = _played(1)
    data["bets"]["to_act"] = [data["bets"]["to_act"][0]] * 2
    _refused(data, r"'bets.to_act' names a seat twice")


def test_a_move_the_rules_do_not_allow_is_refused() -> None:
    _, data = _played(2)
    data["actions"][0][3] = 40
    _refused(data, r"'actions\[0\]'")


def test_a_view_of_a_huge_starting_stack_is_refused_before_the_compiled_writer() -> None:
    env, _ = _played(2)
    view = env.observe_json(env.agent_selection)
    view["settings"]["starting_stack"] = 1e30
    with pytest.raises(SeatViewError, match=r"'settings'.*starting_stack=1e\+30"):
        make("dividha").load_view(view)


def test_a_view_with_a_stack_past_the_chips_in_play_is_refused() -> None:
    env, _ = _played(2)
    view = env.observe_json(env.agent_selection)
    view["stacks"][0] = 10**30
    with pytest.raises(SeatViewError, match=r"'stacks\[0\]' must be 0..400"):
        make("dividha").load_view(view)


def test_a_view_with_made_up_stacks_is_refused() -> None:
    env, _ = _played(2)
    view = env.observe_json(env.agent_selection)
    view["stacks"][0] -= 10
    view["pot"] += 10
    with pytest.raises(SeatViewError, match="'(actions|stacks|returns|pot).*'"):
        make("dividha").load_view(view)


def test_a_real_view_loads() -> None:
    env, _ = _played(4, limit="no", starting_stack=20)
    agent = env.agent_selection
    twin = make("dividha", limit="no", starting_stack=20)
    assert twin.load_view(env.observe_json(agent)) == agent
    assert twin.game.legal_actions(twin.state) == env.game.legal_actions(env.state)
