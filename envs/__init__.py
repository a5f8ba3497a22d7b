"""cardarena environments: one PettingZoo AEC environment per game, created by name.

Each game is registered here, once, with what `cardarena games` lists (table sizes and the game's
own settings with their defaults); its module is imported only when its environment is needed
(see `cardarena.envs.core.registry` for what an entry holds). `single_agent(game, opponents=...)`
gives a game as a single-agent Gymnasium env (`cardarena.envs.single_agent_env`).
"""

from importlib import import_module
from typing import Any

from .core.errors import ConfigError, IllegalActionError, UnknownGameError
from .core.registry import GAMES, lookup, make, register, registered

register(
    "piktas_v1",
    "cardarena.envs.piktas",
    agents={
        "heuristic": "cardarena.agents.piktas_heuristic:heuristic",
        "field-heuristic": "cardarena.agents.piktas_heuristic:field_heuristic",
    },
    players=(2, 11),
    settings={
        "num_players": 4,
        "mode": "casual",
        "num_hands": 1,
        "dealer": 0,
        "reward_mode": "score_diff",
        "starting_stack": 100,
        "buy_in": 10,
        "bet_size": 10,
        "max_bets": 3,
        "use_voids": True,
        "wild_voids": False,
        "trump_multi_unit": True,
        "highest_unit_only": False,
    },
)
register(
    "scarp_v1",
    "cardarena.envs.scarp",
    agents={"heuristic": "cardarena.agents.scarp_heuristic:heuristic"},
    players=(2, 2),
    settings={"num_players": 2, "challenge_suit": "colour", "max_turns": 200},
)
register(
    "paradigm_v2",
    "cardarena.envs.paradigm",
    agents={"heuristic": "cardarena.agents.paradigm_heuristic:heuristic"},
    players=(2, 4),
    settings={"num_players": 4},
)
register(
    "tilt_v2",
    "cardarena.envs.tilt",
    agents={"heuristic": "cardarena.agents.tilt_heuristic:heuristic"},
    players=(2, 6),
    settings={
        "num_players": 4,
        "dealer": None,
        "num_hands": 1,
        "starting_stack": 100,
        "ante": 1,
        "small_bet": 1,
        "big_bet": 2,
        "max_bets": 4,
        "reward_mode": "chips",
        "void_deck": True,
        "void_cards": None,
    },
)
register(
    "dividha_v1",
    "cardarena.envs.dividha",
    agents={"heuristic": "cardarena.agents.dividha_heuristic:heuristic"},
    players=(2, 7),
    settings={
        "num_players": 4,
        "dealer": None,
        "match": False,
        "max_hands": 100,
        "starting_stack": 100,
        "ante": 2,
        "ante_increase_every": 0,
        "bet_size": 2,
        "limit": "fixed",
        "max_bets": 4,
        "demons_wager": False,
        "pay_to_trade": False,
        "divine_intervention": False,
        "all_in_unsplit": False,
    },
)
register(
    "yokir_v1",
    "cardarena.envs.yokir",
    agents={"heuristic": "cardarena.agents.yokir_heuristic:heuristic"},
    players=(3, 3),
    settings={
        "num_players": 3,
        "match": False,
        "target_score": 10,
        "max_hands": 200,
        "dealer": None,
        "reward_mode": "relative",
    },
)
register(
    "antipoker_v1",
    "cardarena.envs.antipoker",
    agents={"heuristic": "cardarena.agents.antipoker_heuristic:heuristic"},
    players=(2, 6),
    settings={"num_players": 2, "num_hands": 1, "betting": True, "ante": 1, "bet_size": 2, "max_bets": 4},
)

_SINGLE_AGENT_NAMES = ("SingleAgentEnv", "single_agent")


def __getattr__(name: str) -> Any:
    # imported on first use: the single-agent env loads its opponents through the agents, which import this package
    if name in _SINGLE_AGENT_NAMES:
        return getattr(import_module(".single_agent_env", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GAMES",
    "ConfigError",
    "IllegalActionError",
    "SingleAgentEnv",
    "UnknownGameError",
    "lookup",
    "make",
    "register",
    "registered",
    "single_agent",
]
