"""The shipped bots: load by name, play legally at every table size, and beat both baselines."""

import json
from importlib import resources
from pathlib import Path

import pytest
from cardarena.agents import load
from cardarena.envs import lookup, make
from cardarena.training.publish import evaluate_against_baselines

SHIPPED_ROOT = Path(str(resources.files("cardarena.checkpoints")))
BOTS = [
    ("yokir", "ppo-selfplay"),
    ("yokir", "ppo-selfplay-full"),
    ("piktas", "ppo-selfplay"),
    ("scarp", "ppo-selfplay"),
    ("antipoker", "ppo-selfplay"),
    ("paradigm", "ppo-selfplay"),
    ("dividha", "ppo-selfplay"),
    ("tilt", "ppo-selfplay"),
]
TABLES = {
    "yokir": [{"match": True, "target_score": 3}],
    "piktas": [{"num_players": 2}, {}, {"num_players": 11, "mode": "gambling"}],
    "scarp": [{}, {"challenge_suit": "enemy"}],
    "antipoker": [{}, {"betting": False}, {"num_players": 6}],
    "paradigm": [{"num_players": 2}, {}, {"num_players": 3}],
    "dividha": [{"num_players": 2}, {}, {"num_players": 7}, {"match": True, "max_hands": 5}],
    "tilt": [{"num_players": 2}, {}, {"num_players": 6}, {"void_deck": False}, {"num_hands": 5}],
}
# whole rounds of seat rotations: 3, 4, 2, 2, 4, 4 and 4 seats
EPISODES = {
    "yokir": 10_002,
    "piktas": 10_000,
    "scarp": 10_002,
    "antipoker": 10_002,
    "paradigm": 10_000,
    "dividha": 10_000,
    "tilt": 10_000,
}


def ids(bots):
    return [f"{game}/{name}" for game, name in bots]


@pytest.mark.parametrize(("game", "name"), BOTS, ids=ids(BOTS))
def test_shipped_bot_loads_by_name_and_plays_every_seat_legally(game, name):
    bot = load(f"{game}/{name}")
    for config in TABLES[game]:
        env = make(lookup(game).env_id, **config)
        env.reset(seed=1)
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
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
    result = evaluate_against_baselines(SHIPPED_ROOT / game / name, [baseline], episodes=EPISODES[game], seed=0)[
        baseline
    ]
    assert result["low"] > 0, result
