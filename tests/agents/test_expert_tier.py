"""The search tier `GAME/expert`: legal and replayable by seed in every game at a small budget,
choosing from what its seat knows, named with its parameters, described by its card, and played
by name in eval and from a seat view by the server."""

from __future__ import annotations

import json
import random

import pytest
from cardarena.agents import available, describe, load
from cardarena.agents.expert import TIERS, parse_expert_name
from cardarena.agents.guided_search import GuidedSearchAgent
from cardarena.agents.search import PIMCAgent
from cardarena.envs import lookup, make, registered
from cardarena.envs.core.errors import ConfigError, UnknownAgentError
from cardarena.envs.core.table import Table, decide
from typer.testing import CliRunner

from cardarena.cli import app
from cardarena.serve.bots import Roster
from cardarena.serve.models import ActRequest

GAMES = [entry.name for entry in registered() if entry.module.startswith("cardarena.")]


def small(game: str) -> str:
    """The game's search tier at a small budget."""
    return "expert:worlds=2" if TIERS[game].worlds else "expert:iterations=3"


MOVES = 30  # the tier's moves played per episode at most (a Paradigm episode runs to hundreds)


def play(game: str, seed: int, agent_seed: int) -> tuple[list[int], list[float]]:
    """An episode (its first `MOVES` moves of seat 0) with a seeded small search tier in seat 0 and
    the shipped bot elsewhere: the tier's moves, the totals."""
    env = make(lookup(game).env_id)
    table = Table(env)
    table.reset(seed=seed)
    expert = load(small(game), game=game, seed=agent_seed)
    expert.reset()
    bot = load(f"{game}/{TIERS[game].guide}", game=game)
    moves = []
    others = dict.fromkeys(range(1, len(env.possible_agents)), bot)
    while len(moves) < MOVES and (seat := table.advance(others)) is not None:
        action = decide(expert, env, seat)
        assert env.observe(env.possible_agents[0])["action_mask"][action] == 1
        moves.append(action)
        table.play(action)
    return moves, table.totals


def test_every_shipped_game_has_a_search_tier():
    assert sorted(TIERS) == sorted(GAMES)
    for game in GAMES:
        assert f"{game}/expert" in available(game)


@pytest.mark.parametrize("game", GAMES)
def test_the_search_tier_plays_every_game_legally_and_a_seed_replays_its_game(game):
    moves, totals = play(game, seed=3, agent_seed=11)
    assert moves and (moves, totals) == play(game, seed=3, agent_seed=11)


@pytest.mark.parametrize("game", GAMES)
def test_the_search_tier_chooses_from_what_its_seat_knows(game):
    env, twin = make(lookup(game).env_id), make(lookup(game).env_id)
    env.reset(seed=1)
    seat = env.game.current_player(env.state)
    twin.load_state(env.game.resample_hidden(env.state, seat, random.Random(1)))
    tier = small(game)
    assert decide(load(tier, game=game, seed=5), env, seat) == decide(load(tier, game=game, seed=5), twin, seat)


def test_the_search_tier_takes_its_parameters_and_describes_itself():
    assert parse_expert_name("dividha/expert") == ("dividha", TIERS["dividha"])
    assert parse_expert_name("expert:iterations=9:c=0.5:t=3", game="scarp")[1].__dict__ == {
        "guide": "ppo-selfplay",
        "iterations": 9,
        "c": 0.5,
        "t": 3.0,
        "worlds": 0,
        "margin": 0.0,
    }
    assert parse_expert_name("expert") is None and parse_expert_name("runs/dividha/expert") is None
    agent = load("dividha/expert:iterations=7", seed=4)
    assert isinstance(agent, GuidedSearchAgent) and (agent.name, agent.iterations, agent.seed) == (
        "dividha/expert",
        7,
        4,
    )
    described = describe("dividha/expert")
    assert (described["game"], described["kind"]) == ("dividha", "search tier")
    assert described["card"]["guide"] == f"dividha/{TIERS['dividha'].guide}" == "dividha/pimc-taught"
    assert described["card"]["iterations"] == TIERS["dividha"].iterations


@pytest.mark.parametrize(
    ("game", "guide"),
    [
        ("yokir", "ppo-selfplay"),
        ("piktas", "search-taught"),
        ("tilt", "search-taught-3"),
        ("paradigm", "search-taught"),
    ],
)
def test_the_pimc_tiers_let_the_bot_play_their_rollouts(game, guide):
    agent = load(f"{game}/expert:worlds=5", seed=2)
    assert isinstance(agent, PIMCAgent)
    assert (agent.name, agent.worlds, agent.rollout, agent.seed) == (f"{game}/expert", 5, f"{game}/{guide}", 2)
    card = describe(f"{game}/expert")["card"]
    assert (card["guide"], card["worlds"], card["margin"]) == (
        f"{game}/{guide}",
        TIERS[game].worlds,
        TIERS[game].margin,
    )
    assert load(f"{game}/expert:margin=0.5").margin == 0.5
    with pytest.raises(ConfigError, match="expert takes worlds=..., margin=..., not 'iterations=9'"):
        load(f"{game}/expert:iterations=9")
    roster = Roster([f"{game}/expert:worlds=2"])
    assert roster.bots[f"{game}/expert:worlds=2"].agent.ms == 0  # the server keeps a tier's fixed budget


@pytest.mark.parametrize(
    ("name", "game", "error", "message"),
    [
        ("dividha/expert:depth=2", None, ConfigError, "expert takes iterations=..., c=..., t=..., not 'depth=2'"),
        ("dividha/expert:c=wide", None, ConfigError, "c must be a number, got 'wide'"),
        ("dividha/expert:iterations=0", None, ConfigError, "iterations >= 1"),
        ("dividha/expert:t=0", None, ConfigError, "temperature must be above 0"),
        ("piktas/expert:worlds=0", None, ConfigError, "worlds must be at least 1, got 0"),
        ("piktas/expert:worlds=many", None, ConfigError, "worlds must be a number, got 'many'"),
        ("paradigm/expert:margin=-0.1", None, ConfigError, "margin must be at least 0, got -0.1"),
        ("tilt/expert", "yokir", UnknownAgentError, "plays 'tilt', not 'yokir'"),
    ],
)
def test_bad_search_tier_names_are_named(name, game, error, message):
    with pytest.raises(error, match=message):
        load(name, game=game)


def test_the_search_tier_refuses_to_act_on_an_observation_alone():
    env = make("yokir_v1")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="drive it through a Table"):
        load("yokir/expert").act(env.observe(env.agent_selection))


def test_the_search_tier_is_served_from_a_seat_view():
    env = make("tilt_v2")
    env.reset(seed=5)
    view = env.observe_json(env.agent_selection)
    name = "tilt/expert:worlds=2"
    roster = Roster([name])
    assert roster.bots[name].info().kind == "search tier"
    reply = roster.act(ActRequest(bot=name, game="tilt_v2", config={}, seat_view=view))
    assert reply.action in [choice["id"] for choice in view["legal_actions"]]


def test_eval_seats_the_search_tier_by_name(tmp_path):
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(
        app, ["eval", "scarp", "--agents", "expert:iterations=2,ppo-selfplay", "--episodes", "2", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert {score["name"] for score in json.loads(out.read_text())["scores"]} == {
        "expert:iterations=2",
        "ppo-selfplay",
    }
