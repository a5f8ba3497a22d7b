"""The single-agent env: both env checkers for every game, seeds, seats, opponents, eliminations, vector envs."""

from __future__ import annotations

import subprocess
import sys
from functools import partial

import gymnasium as gym
import numpy as np
import pytest
from cardarena.agents import RandomAgent
from cardarena.envs import GAMES, ConfigError, IllegalActionError, SingleAgentEnv, single_agent
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from stable_baselines3.common.vec_env import SubprocVecEnv

ELIMINATION = {"num_players": 4, "mode": "gambling", "num_hands": 20, "starting_stack": 20, "buy_in": 10}


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def play_episode(env: SingleAgentEnv, seed: int, choose=first_legal) -> tuple[list[float], dict, bool, bool]:
    """The learner's rewards in one episode, its last info and its terminated and truncated flags."""
    _, info = env.reset(seed=seed)
    rewards = []
    while True:
        _, reward, terminated, truncated, info = env.step(choose(info["action_mask"]))
        rewards.append(reward)
        if terminated or truncated:
            return rewards, info, terminated, truncated


@pytest.mark.parametrize("game", GAMES)
def test_every_game_passes_gymnasiums_and_sb3s_env_checkers(game):
    env = single_agent(game, on_illegal="penalize")
    assert env.observation_space.dtype == np.float32 and isinstance(env.action_space, gym.spaces.Discrete)
    gymnasium_check_env(env, skip_render_check=True)
    sb3_check_env(env)


def test_an_off_mask_action_raises_by_default_and_ends_the_episode_with_the_penalty_when_penalized():
    raising = single_agent("yokir", opponents="random")
    _, info = raising.reset(seed=0)
    off_mask = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(IllegalActionError, match="legal"):
        raising.step(off_mask)
    penalized = single_agent("yokir", opponents="random", on_illegal="penalize", illegal_reward=-2.0)
    penalized.reset(seed=0)
    _, reward, terminated, truncated, _ = penalized.step(off_mask)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    with pytest.raises(IllegalActionError, match="reset"):
        penalized.step(first_legal(info["action_mask"]))


def test_the_mask_in_info_is_the_one_action_masks_gives_and_marks_the_legal_actions():
    env = single_agent("tilt", opponents="random")
    _, info = env.reset(seed=3)
    done = False
    while not done:
        assert np.array_equal(info["action_mask"], env.action_masks())
        legal = env.table.env.game.legal_actions(env.table.env.state)
        assert sorted(np.flatnonzero(env.action_masks())) == sorted(legal)
        *_, terminated, truncated, info = env.step(first_legal(info["action_mask"]))
        done = terminated or truncated


def test_a_seed_fixes_the_whole_episode_seat_included_and_seats_are_drawn_without_one():
    env = single_agent("yokir", opponents="random", match=False)
    rewards = play_episode(env, seed=11)[0]
    seat, moves = env.learner_seat, list(env.table.env.played)
    assert play_episode(env, seed=11)[0] == rewards
    assert (env.learner_seat, list(env.table.env.played)) == (seat, moves)
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.learner_seat)
    assert seats == {0, 1, 2}


def test_a_fixed_seat_is_the_learners_every_episode_and_opponents_sit_in_seat_order():
    heuristic, random_agent = RandomAgent(seed=1), RandomAgent(seed=2)
    env = single_agent("yokir", opponents=[heuristic, random_agent], seat=1)
    for seed in range(3):
        env.reset(seed=seed)
        assert env.learner_seat == 1
        assert env._actors == {0: heuristic, 2: random_agent}


def test_the_learners_reward_is_its_seats_whole_return():
    env = single_agent("piktas", opponents="heuristic", num_players=3)
    for seed in range(3):
        rewards, *_ = play_episode(env, seed)
        game, state = env.table.env.game, env.table.env.state
        assert sum(rewards) == pytest.approx(game.returns(state)[env.learner_seat])


def test_an_eliminated_learners_episode_ends_terminated_while_the_match_goes_on():
    env = single_agent("piktas", opponents="random", **ELIMINATION)
    rng = np.random.default_rng(6)
    eliminated = 0
    for seed in range(40):
        rewards, _, terminated, truncated = play_episode(env, seed, lambda mask: int(rng.choice(np.flatnonzero(mask))))
        game, state = env.table.env.game, env.table.env.state
        if not env.table.finished:
            assert game.seat_done(state, env.learner_seat) and terminated and not truncated
            eliminated += 1
        assert sum(rewards) == pytest.approx(game.returns(state)[env.learner_seat])
    assert eliminated >= 5


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"opponents": ["random"] * 3}, "2 opponent seats"),
        ({"opponents": ["random", object()]}, "neither an agent name"),
        ({"seat": 3}, "seat must be None"),
        ({"seat": True}, "seat must be None"),
    ],
)
def test_bad_arguments_are_config_errors_naming_the_problem(arguments, message):
    with pytest.raises(ConfigError, match=message):
        single_agent("yokir", **arguments)


def test_stepping_before_reset_asks_for_reset():
    with pytest.raises(IllegalActionError, match="reset"):
        single_agent("yokir", opponents="random").step(0)


def test_importing_the_envs_loads_no_agent():
    code = "import sys, cardarena.envs; print(any(name.startswith('cardarena.agents') for name in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def make_yokir() -> SingleAgentEnv:
    return single_agent("yokir", opponents="random")


@pytest.mark.parametrize("vector_env", [gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv])
def test_gymnasium_vector_envs_step_two_envs_with_the_masks_in_infos(vector_env):
    envs = vector_env([make_yokir, make_yokir])
    try:
        observations, infos = envs.reset(seed=[1, 2])
        for _ in range(30):
            # an env that has just finished resets on its next step, which ignores its action
            actions = np.array([first_legal(mask) if mask.any() else 0 for mask in infos["action_mask"]])
            observations, rewards, terminated, truncated, infos = envs.step(actions)
            assert observations.shape == (2, *envs.single_observation_space.shape)
    finally:
        envs.close()


def test_sb3_subproc_vec_env_steps_two_envs_with_their_action_masks():
    envs = SubprocVecEnv([partial(single_agent, "yokir", opponents="random")] * 2, start_method="fork")
    try:
        envs.seed(5)
        observations = envs.reset()
        for _ in range(30):
            masks = envs.env_method("action_masks")
            observations, rewards, dones, infos = envs.step(np.array([first_legal(mask) for mask in masks]))
            assert observations.shape == (2, *envs.observation_space.shape)
    finally:
        envs.close()
