"""The search agents (PIMC, ISMCTS): legal and replayable by seed in every game, choosing from what
their seat knows, stronger than random, named with their parameters, served from a seat view."""

from __future__ import annotations

import random

import pytest
from cardarena.agents import load
from cardarena.agents.search import LOCKSTEP_WORLDS, ISMCTSAgent, PIMCAgent, parse_search_name
from cardarena.envs import lookup, make, registered
from cardarena.envs.core.errors import ConfigError, UnknownAgentError
from cardarena.envs.core.table import Table, decide
from cardarena.training.evaluate import evaluate

from cardarena.serve.bots import Roster
from cardarena.serve.models import ActRequest

GAMES = [entry.name for entry in registered() if entry.module.startswith("cardarena.")]
SMALL = ["pimc:worlds=2", "ismcts:iterations=12"]


def play(game: str, name: str, seed: int, agent_seed: int) -> tuple[list[int], list[float]]:
    """One episode with a seeded search agent in seat 0 and random agents elsewhere: its moves, the totals."""
    env = make(lookup(game).env_id)
    table = Table(env)
    table.reset(seed=seed)
    pimc = load(name, seed=agent_seed)
    pimc.reset()
    others = {seat: load("random", seed=seat) for seat in range(1, len(env.possible_agents))}
    moves = []
    while (seat := table.advance(others)) is not None:
        assert seat == 0
        action = decide(pimc, env, seat)
        assert env.observe(env.possible_agents[0])["action_mask"][action] == 1
        moves.append(action)
        table.play(action)
    return moves, table.totals


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("game", GAMES)
def test_search_plays_every_game_legally_and_a_seed_replays_its_game(game, name):
    moves, totals = play(game, name, seed=3, agent_seed=11)
    assert (moves, totals) == play(game, name, seed=3, agent_seed=11)


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("game", GAMES)
def test_search_chooses_from_what_its_seat_knows(game, name):
    """Two tables the seat cannot tell apart (the second dealt again from the seat's knowledge) get
    the same move from the same seed: the search never reads where the unseen cards really lie."""
    env, twin = make(lookup(game).env_id), make(lookup(game).env_id)
    for seed in range(4):
        env.reset(seed=seed)
        seat = env.game.current_player(env.state)
        twin.load_state(env.game.resample_hidden(env.state, seat, random.Random(seed)))
        moves = []
        for table in (env, twin):
            moves.append(decide(load(name, seed=5), table, seat))
        assert moves[0] == moves[1]


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("game", ["tilt", "piktas"])
def test_search_in_gives_the_move_with_the_values_it_was_chosen_by(game, name):
    env = make(lookup(game).env_id)
    for seed in range(3):
        env.reset(seed=seed)
        seat, legal = env.game.current_player(env.state), env.game.legal_actions(env.state)
        agent = load(name, seed=7)
        action, values = agent.search_in(env, seat)
        assert action == load(name, seed=7).act_in(env, seat)
        assert set(values) <= set(legal) and action in values
        if name.startswith("pimc"):  # PIMC plays the best mean; ISMCTS the most visited
            assert set(values) == set(legal) and values[action] == max(values.values())


@pytest.mark.parametrize("name", ["pimc:worlds=8:rollout=heuristic", "ismcts:iterations=60"])
def test_search_beats_random(name):
    agents = [(name, load(name, game="yokir", seed=0)), ("random", load("random", seed=1))]
    result = evaluate("yokir", agents + [agents[1]], 300, seed=0)
    searcher = next(score for score in result.scores if score.name == name)
    assert searcher.low > 0, searcher


def test_pimc_is_served_from_a_seat_view():
    env = make("yokir_v1")
    env.reset(seed=5)
    view = env.observe_json(env.agent_selection)
    reply = Roster(["pimc:worlds=2"]).act(ActRequest(bot="pimc:worlds=2", game="yokir_v1", config={}, seat_view=view))
    assert reply.action in [choice["id"] for choice in view["legal_actions"]]


def test_search_names_take_their_parameters():
    assert parse_search_name("pimc") == ("pimc", {"worlds": 16, "rollout": "random", "ms": 0, "margin": 0})
    assert parse_search_name("pimc:worlds=32:rollout=heuristic:ms=50:margin=0.2") == (
        "pimc",
        {"worlds": 32, "rollout": "heuristic", "ms": 50.0, "margin": 0.2},
    )
    assert parse_search_name("ismcts:iterations=400:c=1.5") == (
        "ismcts",
        {"iterations": 400, "c": 1.5, "rollout": "random", "ms": 0},
    )
    assert parse_search_name("random") is None
    agent = load("pimc:worlds=3", seed=7)
    assert isinstance(agent, PIMCAgent) and (agent.worlds, agent.seed) == (3, 7)
    agent = load("ismcts:iterations=9", seed=2)
    assert isinstance(agent, ISMCTSAgent) and (agent.iterations, agent.seed) == (9, 2)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("pimc:depth=3", "pimc takes worlds=..., rollout=..., ms=..., margin=..., not 'depth=3'"),
        ("pimc:worlds=many", "worlds must be a whole number, got 'many'"),
        ("ismcts:c=wide", "c must be a number, got 'wide'"),
        ("pimc:worlds", "not 'worlds'"),
        ("pimc:worlds=0", "worlds >= 1"),
        ("ismcts:worlds=3", "ismcts takes iterations=..., c=..., rollout=..., ms=..., not 'worlds=3'"),
        ("ismcts:c=-1", "c >= 0"),
        ("pimc:ms=-5", "ms >= 0"),
        ("pimc:margin=-1:rollout=heuristic", "margin >= 0"),
        ("pimc:margin=0.1", "keeps the rollout agent's move, so it needs one, not random rollouts"),
    ],
)
def test_bad_pimc_parameters_are_named(name, message):
    with pytest.raises(ConfigError, match=message):
        load(name)


@pytest.mark.parametrize("name", ["pimc:ms=0.001", "ismcts:ms=0.001"])
def test_a_time_budget_still_samples_one_world(name):
    env = make("yokir_v1")
    env.reset(seed=2)
    seat = env.game.current_player(env.state)
    assert env.observe(env.possible_agents[seat])["action_mask"][decide(load(name), env, seat)] == 1


def test_pimc_refuses_to_act_on_an_observation_alone():
    env = make("yokir_v1")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="drive it through a Table"):
        load("pimc").act(env.observe(env.agent_selection))


class _OneByOne:
    """A trained policy asked one observation at a time (no act_batch)."""

    def __init__(self, agent):
        self.act = agent.act


def test_batched_policy_rollouts_play_as_one_by_one_ones():
    env = make("yokir_v1")
    env.reset(seed=5)
    game, policy = env.game, load("yokir/ppo-selfplay")
    states = [game.resample_hidden(env.state, 0, random.Random(world)) for world in range(6)]
    batched, one_by_one = (PIMCAgent(rollout="yokir/ppo-selfplay", load_agent=load) for _ in range(2))
    one_by_one._agents["yokir"] = _OneByOne(policy)
    assert batched._batches(env) and not one_by_one._batches(env)
    returns = batched._finish_all(env, [game.clone(state) for state in states])
    assert returns == [one_by_one._finish(env, game.clone(state)) for state in states]
    assert len(set(map(tuple, returns))) > 1  # the worlds differ, so the lockstep kept them apart


def test_many_worlds_are_searched_in_bounded_batches_with_the_values_of_one_by_one_rollouts():
    env = make("yokir_v1")
    env.reset(seed=5)
    seat = env.game.current_player(env.state)
    legal = env.game.legal_actions(env.state)
    worlds = 2 * LOCKSTEP_WORLDS + 3
    batched, one_by_one = (PIMCAgent(worlds, rollout="yokir/ppo-selfplay", seed=2, load_agent=load) for _ in range(2))
    one_by_one._agents["yokir"] = _OneByOne(load("yokir/ppo-selfplay"))
    batches = []
    finish_all = batched._finish_all
    batched._finish_all = lambda env, trials: batches.append(len(trials)) or finish_all(env, trials)
    assert batched.search_in(env, seat) == one_by_one.search_in(env, seat)
    assert len(legal) > 1 and batches == [LOCKSTEP_WORLDS * len(legal)] * 2 + [3 * len(legal)]


def test_pimc_with_a_margin_overrules_its_rollout_agents_move_only_when_beaten_by_more():
    env = make("yokir_v1")
    table = Table(env)
    table.reset(seed=3)
    bot = load("yokir/ppo-selfplay")
    overruled = 0
    while (seat := table.advance({})) is not None:
        plain = PIMCAgent(4, rollout="yokir/ppo-selfplay", seed=1, load_agent=load).search_in(env, seat)
        strict = PIMCAgent(4, rollout="yokir/ppo-selfplay", seed=1, load_agent=load, margin=1e-9).search_in(env, seat)
        loose = PIMCAgent(4, rollout="yokir/ppo-selfplay", seed=1, load_agent=load, margin=1e9).search_in(env, seat)
        own = decide(bot, env, seat)
        assert loose[0] == own and strict[1] == loose[1] == plain[1]  # the same worlds, the same values
        if plain[1]:
            assert strict[1][strict[0]] == max(plain[1].values())
            overruled += strict[0] != own
        table.play(own)
    assert overruled > 0  # the search did find better moves, and the margin alone kept them out


def test_a_bad_rollout_agent_is_named_when_the_search_agent_is_loaded():
    with pytest.raises(UnknownAgentError, match="unknown agent 'nobody'"):
        load("pimc:rollout=nobody", game="yokir")


@pytest.mark.parametrize("name", [*SMALL, "yokir/expert:worlds=2"])
def test_a_reseeded_copy_decides_from_its_seed_alone_and_leaves_the_agent_as_it_was(name):
    env = make("yokir_v1")
    env.reset(seed=4)
    seat = env.game.current_player(env.state)
    agent = load(name, seed=1)
    first = decide(agent.reseeded(9), env, seat)
    decide(agent, env, seat)  # the agent's own draws move on; a copy's do not depend on them
    assert decide(agent.reseeded(9), env, seat) == first
    assert agent.seed == 1 and agent.reseeded(9).seed == 9
    assert [decide(agent.reseeded(seed), env, seat) for seed in range(6)] == [
        decide(load(name, seed=seed), env, seat) for seed in range(6)
    ]
