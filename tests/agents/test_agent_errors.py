"""Agents refuse what they cannot read, naming it: an observation of another game (both shapes),
an observation that is not the env's dict, and an empty agent name."""

from __future__ import annotations

import re

import numpy as np
import pytest
from cardarena.agents import available, describe, load
from cardarena.agents.loading import RANDOM
from cardarena.agents.search import ISMCTS, PIMC
from cardarena.envs import lookup, make, registered
from cardarena.envs.core.errors import ObservationError, UnknownAgentError

GAMES = [entry.name for entry in registered() if entry.module.startswith("cardarena.")]
AGENTS = [
    name
    for game in GAMES
    for name in available(game)
    if name not in (RANDOM, PIMC, ISMCTS) and describe(name)["kind"] != "search tier"
]  # the agents that read observations


def shapes(game: str) -> tuple[tuple[int], tuple[int]]:
    env_cls = lookup(game).env_cls
    return (env_cls.encoder_cls.observation_size,), (env_cls.game_cls.num_actions,)


def first_observation(game: str) -> dict[str, np.ndarray]:
    env = make(game)
    env.reset(seed=0)
    return env.observe(env.agent_selection)


@pytest.mark.parametrize("name", AGENTS)
def test_an_observation_of_another_game_names_both_shapes(name):
    game = name.split("/")[0]
    agent = load(name)
    for other in GAMES:
        if other == game:
            continue
        with pytest.raises(ObservationError) as info:
            agent.act(first_observation(other))
        (size,), (actions,) = shapes(game)
        (other_size,), (other_actions,) = shapes(other)
        message = str(info.value)
        assert f"an observation of shape ({size},) with an action mask of shape ({actions},)" in message
        assert f"but was given shapes ({other_size},) and ({other_actions},)" in message
        assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", AGENTS)
def test_an_observation_that_is_not_the_env_dict_is_named(name):
    game = name.split("/")[0]
    agent = load(name)
    observation = first_observation(game)
    with pytest.raises(ObservationError, match=r"acts on a dict with 'observation' and 'action_mask' .*not a ndarray"):
        agent.act(observation["observation"])
    with pytest.raises(ObservationError, match=r"not a dict with keys 'observation'$"):
        agent.act({"observation": observation["observation"]})
    mask = observation["action_mask"]
    assert mask[agent.act(observation)] == 1


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_agent_name_lists_the_game_agents(name):
    with pytest.raises(UnknownAgentError) as info:
        load(name, game="yokir")
    assert str(info.value) == (
        f"the agent name is empty ({name!r}); available: {', '.join(available('yokir'))} "
        "(or the path of a checkpoint folder)"
    )
    with pytest.raises(
        UnknownAgentError, match=re.escape(f"the agent name is empty (''); available: {', '.join(available())}")
    ):
        load("")
    with pytest.raises(UnknownAgentError, match=r"the agent name is empty"):
        describe("")


def test_a_name_that_is_not_a_string_is_named():
    with pytest.raises(
        UnknownAgentError,
        match=r"an agent is named by a string or a path, not None; available: random, pimc, ismcts, yokir/",
    ):
        load(None, game="yokir")
