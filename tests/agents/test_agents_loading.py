"""Agents load by name through one function, and random play is legal."""

import numpy as np
import pytest

from cardarena.agents import Agent, RandomAgent, available, load
from cardarena.envs import make
from cardarena.envs.core.errors import UnknownAgentError


@pytest.mark.parametrize(
    "name, game",
    [("random", None), ("yokir/heuristic", None), ("heuristic", "yokir"), ("yokir/ppo-selfplay", None), ("ppo-selfplay", "yokir")],
)
def test_load_by_name_gives_an_agent(name, game):
    agent = load(name, game=game)
    assert isinstance(agent, Agent)


def test_available_lists_generic_and_game_agents():
    assert available("yokir") == ["random", "yokir/heuristic", "yokir/ppo-selfplay", "yokir/ppo-selfplay-full"]
    assert available("piktas")[:2] == ["random", "piktas/heuristic"]
    assert available() == list(dict.fromkeys(available("piktas") + available("yokir")))


@pytest.mark.parametrize("name, game, message", [
    ("nobody", None, "unknown agent 'nobody'"),
    ("heuristic", None, "unknown agent 'heuristic'"),
    ("yokir/heuristic", "piktas", "plays 'yokir', not 'piktas'"),
    ("yokir/ghost", None, "unknown agent 'yokir/ghost'; available: random, yokir/heuristic, yokir/ppo-selfplay, yokir/ppo-selfplay-full"),
])
def test_unknown_agents_name_the_problem(name, game, message):
    with pytest.raises(UnknownAgentError, match=message):
        load(name, game=game)


def test_random_agent_only_picks_legal_actions_and_is_seeded():
    env = make("yokir_v1")
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    picks = {RandomAgent(seed).act(observation) for seed in range(40)}
    assert picks == set(np.flatnonzero(observation["action_mask"]).tolist())
    assert RandomAgent(7).act(observation) == RandomAgent(7).act(observation)


def test_random_agent_rejects_an_empty_mask():
    with pytest.raises(ValueError, match="no legal action"):
        RandomAgent(0).act({"observation": np.zeros(3), "action_mask": np.zeros(29, np.int8)})
