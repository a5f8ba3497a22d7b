"""The shipped bots: load by name, play legally at every table size, and beat both baselines."""

import json
from importlib import resources
from pathlib import Path

import pytest
from agent_support import decisions
from cardarena.agents import load
from cardarena.envs import lookup, make, registered
from cardarena.training.publish import evaluate_against_baselines

SHIPPED_ROOT = Path(str(resources.files("cardarena.checkpoints")))
BOTS = sorted((card.parent.parent.name, card.parent.name) for card in SHIPPED_ROOT.glob("*/*/card.json"))
# the tables each bot plays at; a game not named here plays its default table
TABLES = {
    "yokir": [{"match": True, "target_score": 3}],
    "piktas": [{"num_players": 2}, {}, {"num_players": 11, "mode": "gambling"}],
    "scarp": [{}, {"challenge_suit": "enemy"}],
    "antipoker": [{}, {"betting": False}, {"num_players": 6}],
    "paradigm": [{"num_players": 2}, {}, {"num_players": 3}],
    "dividha": [{"num_players": 2}, {}, {"num_players": 7}, {"match": True, "max_hands": 5}],
    "tilt": [{"num_players": 2}, {}, {"num_players": 6}, {"void_deck": False}, {"num_hands": 5}],
}


def test_every_registered_game_ships_a_bot():
    ours = {entry.env_id.rsplit("_v", 1)[0] for entry in registered() if entry.module.startswith("cardarena.")}
    assert ours <= {game for game, _ in BOTS}


def ids(bots):
    return [f"{game}/{name}" for game, name in bots]


@pytest.mark.parametrize(("game", "name"), BOTS, ids=ids(BOTS))
def test_shipped_bot_loads_by_name_and_plays_every_seat_legally(game, name):
    bot = load(f"{game}/{name}")
    for config in TABLES.get(game, [{}]):
        env = make(lookup(game).env_id, **config)
        for _name, observation in decisions(env, [1]):
            action = bot.act(observation)
            assert observation["action_mask"][action] == 1
            env.step(action)


@pytest.mark.parametrize(("game", "name"), BOTS, ids=ids(BOTS))
def test_shipped_card_records_an_evaluation_above_both_baselines(game, name):
    card = json.loads((SHIPPED_ROOT / game / name / "card.json").read_text())
    assert card["env_id"] == lookup(game).env_id
    for baseline in ("random", "heuristic"):
        assert card["evaluation"][baseline]["episodes"] >= 10_000
        assert card["evaluation"][baseline]["low"] > 0


@pytest.mark.parametrize(("game", "name"), BOTS, ids=ids(BOTS))
def test_shipped_bot_is_the_trained_policy_not_a_copy_of_the_heuristic(game, name):
    bot, heuristic = load(f"{game}/{name}"), load(f"{game}/heuristic")
    env = make(lookup(game).env_id)
    disagreements = 0
    for seed in range(200):
        env.reset(seed=seed)
        observation = env.observe(env.agent_selection)
        disagreements += bot.act(observation) != heuristic.act(observation)
    assert disagreements > 0


@pytest.mark.slow
@pytest.mark.parametrize(("game", "name"), BOTS, ids=ids(BOTS))
@pytest.mark.parametrize("baseline", ["random", "heuristic"])
def test_shipped_bot_beats_the_baseline_over_ten_thousand_hands(game, name, baseline):
    """As many hands as its card records (whole rounds of seat rotations)."""
    folder = SHIPPED_ROOT / game / name
    episodes = json.loads((folder / "card.json").read_text())["evaluation"][baseline]["episodes"]
    result = evaluate_against_baselines(folder, [baseline], episodes=episodes, seed=0)[baseline]
    assert result["low"] > 0, result
