"""The shipped Yokir bot: loads by name, plays legally, and beats both baselines."""

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from cardarena.agents import load
from cardarena.envs import make
from cardarena.training.publish import evaluate_against_baselines

SHIPPED_ROOT = Path(str(resources.files("cardarena.checkpoints").joinpath("yokir")))
BOTS = ["ppo-selfplay", "ppo-selfplay-full"]


@pytest.mark.parametrize("name", BOTS)
def test_shipped_bot_loads_by_name_and_plays_every_seat_legally(name):
    bot = load(f"yokir/{name}")
    env = make("yokir_v1", match=True, target_score=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = bot.act(observation)
        assert observation["action_mask"][action] == 1
        env.step(action)


@pytest.mark.parametrize("name", BOTS)
def test_shipped_card_records_an_evaluation_above_both_baselines(name):
    card = json.loads((SHIPPED_ROOT / name / "card.json").read_text())
    assert card["env_id"] == "yokir_v1"
    for baseline in ("random", "heuristic"):
        assert card["evaluation"][baseline]["episodes"] >= 10_000
        assert card["evaluation"][baseline]["low"] > 0


@pytest.mark.parametrize("name", BOTS)
def test_shipped_bot_is_the_trained_policy_not_a_copy_of_the_heuristic(name):
    bot, heuristic = load(f"yokir/{name}"), load("yokir/heuristic")
    env = make("yokir_v1")
    disagreements = 0
    for seed in range(200):
        env.reset(seed=seed)
        observation = env.observe(env.agent_selection)
        disagreements += bot.act(observation) != heuristic.act(observation)
    assert disagreements > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("baseline", ["random", "heuristic"])
def test_shipped_bot_beats_the_baseline_over_ten_thousand_hands(name, baseline):
    result = evaluate_against_baselines(SHIPPED_ROOT / name, [baseline], episodes=10_002, seed=0)[baseline]
    assert result["low"] > 0, result
