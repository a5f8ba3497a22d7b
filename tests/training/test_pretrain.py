"""Behaviour cloning: demonstrations record the teacher's choices and returns; cloning reproduces them."""

import numpy as np
import pytest
import torch
from cardarena.agents import load
from cardarena.training.config import OpponentSettings, TrainConfig
from cardarena.training.pretrain import behaviour_clone, collect_demonstrations
from cardarena.training.selfplay import OpponentPool, SelfPlayEnv
from cardarena.training.train import build_model
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

torch.set_num_threads(1)


def test_demonstrations_are_the_teachers_legal_choices_with_their_returns():
    demos = collect_demonstrations("yokir", "heuristic", episodes=60, seed=3)
    assert len(demos) > 60 * 5
    assert demos.masks[np.arange(len(demos)), demos.actions].all()
    teacher = load("yokir/heuristic")
    for index in range(0, len(demos), 37):
        observation = {"observation": demos.observations[index], "action_mask": demos.masks[index].astype(np.int8)}
        assert teacher.act(observation) == demos.actions[index]
    allowed = {-2.0, -1.0, -2 / 3, -1 / 3, 0.0, 1 / 3, 2 / 3, 2.0}
    assert all(min(abs(r - a) for a in allowed) < 1e-6 for r in demos.returns)
    assert len(set(np.round(demos.returns, 4))) > 2


def test_a_search_agent_teaches_from_the_table():
    demos = collect_demonstrations("yokir", "pimc:worlds=2", episodes=6, seed=4)
    assert len(demos) > 6 and demos.masks[np.arange(len(demos)), demos.actions].all()


def test_a_search_agent_sits_in_the_opponent_pool():
    pool = OpponentPool("yokir", OpponentSettings(baselines=["ismcts:iterations=4"], baseline_share=1.0), seed=0)
    env = SelfPlayEnv("yokir", {}, {}, pool, seed=0)
    observation, _ = env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        observation, _reward, done, _truncated, _info = env.step(action)


def test_cloning_makes_the_policy_agree_with_the_teacher():
    pool = OpponentPool("yokir", OpponentSettings(baselines=["random"]), seed=0)
    model = MaskablePPO(
        "MlpPolicy", SelfPlayEnv("yokir", {}, {}, pool, seed=0), seed=0, device="cpu", policy_kwargs={"net_arch": [64]}
    )
    demos = collect_demonstrations("yokir", "heuristic", episodes=300, seed=1)
    held_out = collect_demonstrations("yokir", "heuristic", episodes=100, seed=2)
    before = behaviour_clone(model.policy, held_out, epochs=0)
    fit = behaviour_clone(model.policy, demos, epochs=6, learning_rate=3e-3)
    after = behaviour_clone(model.policy, held_out, epochs=0)
    assert fit["accuracy"] > 0.75
    assert after["accuracy"] > before["accuracy"] + 0.15
    assert after["critic_mse"] < before["critic_mse"]


def test_unknown_teacher_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown agent 'nobody'"):
        collect_demonstrations("yokir", "nobody", episodes=1)


@pytest.mark.parametrize("game", ["yokir", "piktas"])  # a plain actor, and one with an action-feature head
def test_a_temperature_below_one_sharpens_the_clone_and_keeps_its_first_choices(game):
    config = TrainConfig(game=game, n_envs=1, ppo={"net_arch": [32]})
    pool = OpponentPool(game, OpponentSettings(baselines=["random"]), seed=0)
    model = build_model(config, DummyVecEnv([lambda: SelfPlayEnv(game, {}, {}, pool, seed=0)]))
    demos = collect_demonstrations(game, "heuristic", episodes=40, seed=5)
    as_cloned = behaviour_clone(model.policy, demos, epochs=20, learning_rate=0.01, seed=0)
    sharpened = behaviour_clone(model.policy, demos, epochs=0, temperature=0.01)
    assert sharpened["accuracy"] == as_cloned["accuracy"]
    assert sharpened["critic_mse"] == as_cloned["critic_mse"]
    assert sharpened["entropy"] < as_cloned["entropy"] / 2
    unchanged = behaviour_clone(model.policy, demos, epochs=0)
    assert unchanged["entropy"] == sharpened["entropy"]
