"""The search tier: `GAME/expert`, each game's shipped bot searching ahead with its own network.

`GAME/expert` is the guided search of agents/guided_search.py (PUCT information-set MCTS on
`Game.resample_hidden`) with the game's shipped bot as its guide: the bot's policy is the prior
over each node's actions and its value head values the leaf each iteration reaches, so no
rollout is played. The budget is a fixed number of iterations a decision, chosen per game so
that a decision takes at most about 100 ms at the game's default table (docs/agents.md has the
figures), and a seed replays a game.

Parameters follow the name, each after a colon, as the search agents' do:
`tilt/expert:iterations=64:c=2`. Within a game, the short name `expert` works too.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from cardarena.envs.core.errors import ConfigError

from .guided_search import GuidedSearchAgent, PolicyGuide
from .search import AgentLoader

EXPERT = "expert"


@dataclass(frozen=True)
class Tier:
    """One game's search tier: the shipped bot that guides it, iterations a decision, PUCT's
    constant `c`, and the temperature `t` of the bot's policy as the prior."""

    guide: str
    iterations: int
    c: float
    t: float


TIERS: dict[str, Tier] = {
    "yokir": Tier("ppo-selfplay", 200, 1.5, 2.0),
    "piktas": Tier("ppo-selfplay", 112, 1.5, 2.0),
    "tilt": Tier("search-taught", 80, 1.5, 2.0),
    "dividha": Tier("search-taught", 112, 1.5, 2.0),
    "scarp": Tier("ppo-selfplay", 160, 1.5, 2.0),
    "antipoker": Tier("ppo-selfplay", 192, 1.5, 1.0),
    "paradigm": Tier("ppo-selfplay", 144, 1.5, 2.0),
}
_PARAMETERS = {"iterations": int, "c": float, "t": float}


def parse_expert_name(name: str, game: str | None = None) -> tuple[str, Tier] | None:
    """The game and settings `name` gives (`GAME/expert[:key=value...]`, or `expert...` within
    `game`), None if it names no search tier. ConfigError for a bad parameter, naming it."""
    base, *parts = name.split(":")
    game_name, _, agent = base.rpartition("/")
    game_name = game_name or game or ""
    if agent != EXPERT or game_name not in TIERS:
        return None
    tier = TIERS[game_name]
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in _PARAMETERS:
            raise ConfigError(f"{name!r}: {EXPERT} takes {', '.join(f'{k}=...' for k in _PARAMETERS)}, not {part!r}")
        try:
            tier = replace(tier, **{key: _PARAMETERS[key](value)})
        except ValueError:
            raise ConfigError(f"{name!r}: {key} must be a number, got {value!r}") from None
    return game_name, tier


def expert_agent(name: str, game: str | None, seed: int | None, load_agent: AgentLoader) -> GuidedSearchAgent | None:
    """The search tier `name` names, its guide loaded with `load_agent`; None when it names none."""
    parsed = parse_expert_name(name, game)
    if parsed is None:
        return None
    game_name, tier = parsed
    guide = PolicyGuide(load_agent(f"{game_name}/{tier.guide}", game=game_name), tier.t)
    agent = GuidedSearchAgent(guide, tier.iterations, tier.c, seed=seed)
    agent.name = f"{game_name}/{EXPERT}"
    return agent


def expert_card(name: str) -> dict[str, Any] | None:
    """What the search tier `name` is (game, search, guide and budget), None if it names none."""
    parsed = parse_expert_name(name)
    if parsed is None:
        return None
    game_name, tier = parsed
    return {
        "game": game_name,
        "search": "PUCT information-set MCTS on Game.resample_hidden (agents/guided_search.py)",
        **asdict(tier),
        "guide": f"{game_name}/{tier.guide}",
        "prior": "the guide's policy",
        "leaves": "the guide's value head (no rollouts)",
    }
