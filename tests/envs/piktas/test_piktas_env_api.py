"""The Piktas environment's spaces (4.6) and bad input: illegal actions, `on_illegal="penalize"`,
bad config values (3.1) and calls before reset. (The PettingZoo API and seed tests, and the state
round trips, are in tests/envs/test_conformance.py.)
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from cardarena.envs import ConfigError, IllegalActionError
from cardarena.envs.piktas.encode import OBSERVATION_SIZE
from piktas_env_support import FOLD, PASS, RAISE, STAY, done, make, mask_ids, play


@pytest.mark.parametrize("n", [2, 4, 11])
@pytest.mark.parametrize("mode", ["casual", "gambling"])
def test_spaces_are_the_same_at_every_table_size(n, mode):
    env = make(num_players=n, mode=mode)
    env.reset(seed=n)
    assert env.possible_agents == [f"player_{seat}" for seat in range(n)]
    for agent in env.possible_agents:
        assert env.action_space(agent).n == 35
        seen = env.observe(agent)
        assert seen["observation"].shape == (OBSERVATION_SIZE,) and seen["observation"].dtype == np.float32
        assert seen["action_mask"].shape == (35,) and seen["action_mask"].dtype == np.int8
        assert env.observation_space(agent).contains(seen)


# ---------------------------------------------------------------- illegal actions


def _error_for(env, action) -> str:
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    return str(info.value)


@pytest.mark.parametrize("action", [5, 31, 34, 35, -1, "0", 0.0, None, True])
def test_illegal_exchange_action_names_it_and_lists_the_legal_ones(action):
    env = make()
    env.reset(seed=1)
    agent = env.agent_selection
    legal = mask_ids(env)
    assert 5 not in legal  # hand slot 0 onto position 4, which is not dealt yet
    before = env.observe(agent)["observation"].copy()
    message = _error_for(env, action)
    assert str(action) in message or repr(action) in message
    assert agent in message
    for action_id in legal:
        assert f"{action_id} ({env.action_label(action_id)})" in message
    assert "0 (pass)" in message
    assert env.agent_selection == agent and np.array_equal(env.observe(agent)["observation"], before)
    env.step(np.int64(PASS))
    assert env.agent_selection != agent


def test_illegal_betting_action_lists_the_betting_options():
    env = make(num_players=3, mode="gambling")
    env.reset(seed=4)
    play(env, [PASS] * 9)
    message = _error_for(env, PASS)
    assert "illegal action 0 (pass)" in message
    assert "31 (stay)" in message and "33 (raise)" in message and "34 (fold)" in message
    assert "32" not in message
    env.step(RAISE)
    assert "31 (stay)" in _error_for(env, STAY)


@pytest.mark.parametrize(
    "mode, after_steps, illegal",
    [("casual", 0, FOLD), ("casual", 8, FOLD), ("gambling", 5, STAY), ("gambling", 9, PASS)],
)
def test_penalize_ends_the_episode(mode, after_steps, illegal):
    env = make(num_players=3, mode=mode, on_illegal="penalize", illegal_reward=-3.0)
    env.reset(seed=6)
    play(env, [PASS] * after_steps)
    offender = env.agent_selection
    assert illegal not in mask_ids(env)
    env.step(illegal)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    expected = {agent: (-3.0 if agent == offender else 0.0) for agent in env.possible_agents}
    assert env.rewards == expected
    assert env.infos[offender]["illegal_action"] is True
    seen = {}
    for agent in env.agent_iter():
        seen[agent] = env.last()[1]
        env.step(None)
    assert seen == expected and env.agents == []


def test_step_after_the_episode_accepts_only_none():
    env = make(num_players=2)
    env.reset(seed=0)
    play(env, [PASS] * 6)
    assert done(env)
    assert "None" in _error_for(env, PASS)
    env.step(None)


# ---------------------------------------------------------------- config (3.1, 8)


@pytest.mark.parametrize(
    "config, key",
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 12}, "num_players"),
        ({"num_players": "4"}, "num_players"),
        ({"dealer": 4}, "dealer"),
        ({"num_players": 2, "dealer": 2}, "dealer"),
        ({"dealer": -1}, "dealer"),
        ({"starting_stack": 5}, "starting_stack"),
        ({"starting_stack": 40, "buy_in": 50}, "buy_in"),
        ({"use_voids": False, "wild_voids": True}, "wild_voids"),
        ({"mode": "poker"}, "mode"),
        ({"reward_mode": "points"}, "reward_mode"),
        ({"num_hands": 0}, "num_hands"),
        ({"buy_in": 0}, "buy_in"),
        ({"bet_size": 0}, "bet_size"),
        ({"max_bets": -1}, "max_bets"),
        ({"use_voids": "yes"}, "use_voids"),
    ],
)
def test_bad_config_is_a_config_error_naming_the_key(config, key):
    with pytest.raises(ConfigError) as info:
        make(**config)
    message = str(info.value)
    assert key in message
    assert repr(config[key]) in message or f"{key}={config[key]}" in message


@pytest.mark.parametrize(
    "old, new",
    [
        ("first_dealer", "dealer"),
        ("starting_chips", "starting_stack"),
        ("raise_amount", "bet_size"),
        ("max_raises", "max_bets"),
        ("num_rounds", "num_hands"),
        ("casual_reward", "reward_mode"),
    ],
)
def test_former_setting_name_is_a_config_error_naming_the_new_one(old, new):
    with pytest.raises(ConfigError, match=f"'{old}' is now called '{new}'"):
        make(**{old: 1})


@pytest.mark.parametrize(
    "config",
    [
        {"num_players": 2, "dealer": 1},
        {"num_players": 11, "dealer": 10},
        {"starting_stack": 10, "buy_in": 10, "mode": "gambling"},
        {"max_bets": 0},
    ],
)
def test_edge_configs_are_accepted(config):
    env = make(**config)
    env.reset(seed=0)
    rng = random.Random(0)
    while not done(env):
        env.step(rng.choice(mask_ids(env)))
    assert sum(env.state.returns) == pytest.approx(0.0, abs=1e-9)


def test_max_bets_zero_never_offers_raise():
    env = make(num_players=3, mode="gambling", max_bets=0)
    env.reset(seed=2)
    play(env, [PASS] * 9)
    assert mask_ids(env) == [STAY, FOLD]


def test_render_from_a_seat_hides_the_other_hands():
    env = make(num_players=3, render_mode="ansi")
    env.reset(seed=0)
    seat_text, table_text = env.render(seat=0), env.render()
    assert seat_text.count("??") == 12 and "??" not in table_text
