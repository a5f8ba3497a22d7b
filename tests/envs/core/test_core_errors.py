"""The environment's errors name what went wrong: a finished episode, a call before reset(), an
agent id with no seat, a game name that is not a string, a state JSON that does not fit."""

from __future__ import annotations

import numpy as np
import pytest
from cardarena.envs import GAMES, make, registered
from cardarena.envs.core.errors import (
    EpisodeOverError,
    NoEpisodeError,
    StateError,
    UnknownGameError,
    UnknownPlayerError,
)

SHIPPED = [entry.env_id for entry in registered() if entry.module.startswith("cardarena.")]


def play_out(env, seed: int = 0) -> int:
    """Play the lowest legal action to the end, stepping None for each terminated agent; the dead steps taken."""
    env.reset(seed=seed)
    dead_steps = 0
    for _agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            dead_steps += 1
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    return dead_steps


@pytest.mark.parametrize("env_id", SHIPPED)
def test_step_and_last_after_the_episode_say_it_is_over(env_id):
    env = make(env_id)
    assert play_out(env) == len(env.possible_agents)
    assert env.agents == []
    for call in (env.last, lambda: env.step(0), lambda: env.step(None)):
        with pytest.raises(EpisodeOverError, match=rf"the {env_id} episode is over .*call reset\(\)"):
            call()
    assert isinstance(EpisodeOverError("x"), RuntimeError)
    assert env.observe("player_0")["observation"].shape == env.observation_space("player_0")["observation"].shape
    env.reset(seed=1)
    assert env.last()[2] is False


def test_a_retired_agent_still_in_the_episode_takes_its_dead_step():
    env = make("yokir")
    env.reset(seed=0)
    while not env.terminations[env.agent_selection]:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    first = env.agent_selection
    env.step(None)
    assert first not in env.agents and env.agents
    env.step(None)
    assert len(env.agents) == len(env.possible_agents) - 2


@pytest.mark.parametrize(
    "call",
    [
        lambda env: env.last(),
        lambda env: env.step(0),
        lambda env: env.observe("player_0"),
        lambda env: env.observe_json("player_0"),
    ],
)
def test_calls_before_reset_ask_for_it(call):
    env = make("yokir")
    with pytest.raises(NoEpisodeError, match=r"yokir_v1 has no episode yet: call reset\(\)"):
        call(env)


@pytest.mark.parametrize("agent", ["player_9", "player_3", "north", 0])
@pytest.mark.parametrize("method", ["observe", "observe_json"])
def test_an_agent_without_a_seat_is_named_with_the_table_agents(agent, method):
    env = make("yokir")
    env.reset(seed=0)
    with pytest.raises(UnknownPlayerError) as info:
        getattr(env, method)(agent)
    assert str(info.value) == f"no agent {agent!r} at this yokir_v1 table; its agents are player_0, player_1, player_2"
    assert isinstance(info.value, KeyError)


@pytest.mark.parametrize("name", [None, 3, ["yokir"], b"yokir"])
def test_a_game_name_that_is_not_a_string_lists_the_games(name):
    with pytest.raises(UnknownGameError) as info:
        make(name)
    message = str(info.value)
    assert f"not {name!r} ({type(name).__name__})" in message
    assert all(env_id in message for env_id in GAMES)


@pytest.mark.parametrize("env_id", SHIPPED)
def test_a_state_json_with_unknown_or_missing_fields_names_them(env_id):
    game = make(env_id).game
    data = game.state_to_json(game.new_state(7))
    fields = [name for name in data if name != "game"]
    with pytest.raises(StateError) as info:
        game.state_from_json({"foo": 1})
    message = str(info.value)
    assert f"not a {env_id} state: unknown field(s) 'foo'; missing field(s) '{fields[0]}'" in message
    assert isinstance(info.value, ValueError)
    del data[fields[0]]
    with pytest.raises(StateError, match=rf"missing field\(s\) '{fields[0]}' \("):
        game.state_from_json(data)


@pytest.mark.parametrize("env_id", SHIPPED)
def test_a_state_json_of_another_game_or_not_an_object_is_refused(env_id):
    game = make(env_id).game
    data = game.state_to_json(game.new_state(7))
    with pytest.raises(StateError, match=rf"the state is for 'chess_v1', not {env_id}"):
        game.state_from_json({**data, "game": "chess_v1"})
    with pytest.raises(StateError, match=rf"a {env_id} state is a JSON object, not list"):
        game.state_from_json([data])


@pytest.mark.parametrize("env_id", SHIPPED)
def test_a_state_read_from_json_shares_no_list_with_it(env_id):
    game = make(env_id).game
    data = game.state_to_json(game.new_state(7))
    state = game.state_from_json(data)
    assert game.state_to_json(state) == data
    nested = next(
        name for name, value in data.items() if isinstance(value, list) and value and isinstance(value[0], list)
    )
    getattr(state, nested)[0].append(99)
    assert 99 not in data[nested][0]
