"""Agents load by name through one function, and random play is legal."""

import coinflip
import numpy as np
import pytest
from cardarena.agents import Agent, RandomAgent, available, default_opponent, load
from cardarena.envs import make, registered
from cardarena.envs.core.errors import UnknownAgentError


@pytest.mark.parametrize(
    "name, game",
    [
        ("random", None),
        ("yokir/heuristic", None),
        ("heuristic", "yokir"),
        ("yokir/ppo-selfplay", None),
        ("ppo-selfplay", "yokir"),
    ],
)
def test_load_by_name_gives_an_agent(name, game):
    agent = load(name, game=game)
    assert isinstance(agent, Agent)


def test_available_lists_generic_and_game_agents():
    assert available("yokir") == [
        "random",
        "pimc",
        "ismcts",
        "yokir/heuristic",
        "yokir/ppo-selfplay",
        "yokir/ppo-selfplay-full",
        "yokir/expert",
    ]
    assert available("piktas")[:4] == ["random", "pimc", "ismcts", "piktas/heuristic"]
    games = sorted({entry.name for entry in registered() if entry.module.startswith("cardarena.")})
    assert available() == list(dict.fromkeys(agent for game in games for agent in available(game)))


@pytest.mark.parametrize(
    "name, game, message",
    [
        ("nobody", None, "unknown agent 'nobody'"),
        ("heuristic", None, "unknown agent 'heuristic'"),
        ("yokir/heuristic", "piktas", "plays 'yokir', not 'piktas'"),
        (
            "yokir/ghost",
            None,
            "unknown agent 'yokir/ghost'; available: random, pimc, ismcts, "
            "yokir/heuristic, yokir/ppo-selfplay, yokir/ppo-selfplay-full, yokir/expert",
        ),
    ],
)
def test_unknown_agents_name_the_problem(name, game, message):
    with pytest.raises(UnknownAgentError, match=message):
        load(name, game=game)


def test_a_game_agents_come_from_its_registration(own_registry):
    own_registry.register(coinflip.ENV_ID, coinflip.MODULE, agents={"heads": "coinflip:HeadsCaller"})
    assert available("coinflip") == ["random", "pimc", "ismcts", "coinflip/heads"]
    assert "coinflip/heads" in available()
    for agent in (load("coinflip/heads", seed=5), load("heads", game="coinflip", seed=5)):
        assert isinstance(agent, coinflip.HeadsCaller) and agent.seed == 5
    assert default_opponent("coinflip") == "heads"
    with pytest.raises(
        UnknownAgentError, match="unknown agent 'coinflip/tails'; available: random, pimc, ismcts, coinflip/heads"
    ):
        load("coinflip/tails")


def test_a_game_without_agents_plays_random_by_default(coinflip_game):
    assert available("coinflip") == ["random", "pimc", "ismcts"]
    assert default_opponent("coinflip") == "random"
    assert default_opponent("yokir") == "heuristic"
    with pytest.raises(UnknownAgentError, match="unknown agent 'heuristic'; available: random, pimc, ismcts \\("):
        load("heuristic", game="coinflip")


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
