"""The search tier: `GAME/expert`, each game's shipped bot searching ahead with its own network.

`GAME/expert` is the guided search of agents/guided_search.py (PUCT information-set MCTS on
`Game.resample_hidden`) with the game's shipped bot as its guide: the bot's policy is the prior
over each node's actions and its value head values the leaf each iteration reaches, so no
rollout is played. Where playing on with the bot sees more than its value head does (Piktas,
whose hands score exactly only once the field is complete; Tilt; Paradigm; Yokir), the tier is
PIMC instead (agents/search.py): each legal action is tried in `worlds` sampled worlds, every seat
of every rollout played by the bot to the episode's end; in Paradigm and Yokir, where the sampled
worlds value close moves too noisily to beat the bot's own judgement, the search overrules the
bot's own move only when another action's mean return beats it by more than a `margin`. The
budget is a fixed number of iterations or worlds a decision, chosen per game so that a decision
takes at most about 100 ms at the game's default table (docs/agents.md has the figures), and a
seed replays a game.

Parameters follow the name, each after a colon, as the search agents' do:
`dividha/expert:iterations=64:c=2`, `piktas/expert:worlds=16`, `paradigm/expert:margin=0.3`.
Within a game, the short name `expert` works too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardarena.envs.core.errors import ConfigError

from .guided_search import GuidedSearchAgent, PolicyGuide
from .search import AgentLoader, PIMCAgent

EXPERT = "expert"


@dataclass(frozen=True)
class Tier:
    """One game's search tier: the shipped bot that guides it and the search's budget. The guided
    search takes `iterations` a decision, PUCT's constant `c` and the temperature `t` of the bot's
    policy as the prior; `worlds` above 0 makes the tier PIMC over that many worlds instead, the
    bot playing every rollout, and a `margin` above 0 keeps the bot's own move unless the search
    finds one better by more than that."""

    guide: str
    iterations: int = 0
    c: float = 1.5
    t: float = 2.0
    worlds: int = 0
    margin: float = 0.0

    def parameters(self) -> dict[str, type]:
        """The parameters a name may set for this tier's search, with their types."""
        return {"worlds": int, "margin": float} if self.worlds else {"iterations": int, "c": float, "t": float}


TIERS: dict[str, Tier] = {
    "yokir": Tier("ppo-selfplay", worlds=128, margin=0.1),
    "piktas": Tier("search-taught", worlds=8),
    "tilt": Tier("search-taught-3", worlds=32),
    "dividha": Tier("pimc-taught", 112, t=1.0),
    "scarp": Tier("ppo-selfplay", 160),
    "antipoker": Tier("ppo-selfplay", 192, t=1.0),
    "paradigm": Tier("search-taught", worlds=5, margin=0.3),
}


def parse_expert_name(name: str, game: str | None = None) -> tuple[str, Tier] | None:
    """The game and settings `name` gives (`GAME/expert[:key=value...]`, or `expert...` within
    `game`), None if it names no search tier. ConfigError for a bad parameter, naming it."""
    base, *parts = name.split(":")
    game_name, _, agent = base.rpartition("/")
    game_name = game_name or game or ""
    if agent != EXPERT or game_name not in TIERS:
        return None
    tier = TIERS[game_name]
    parameters = tier.parameters()
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in parameters:
            raise ConfigError(f"{name!r}: {EXPERT} takes {', '.join(f'{k}=...' for k in parameters)}, not {part!r}")
        try:
            tier = replace(tier, **{key: parameters[key](value)})
        except ValueError:
            raise ConfigError(f"{name!r}: {key} must be a number, got {value!r}") from None
    if "worlds" in parameters and tier.worlds < 1:
        raise ConfigError(f"{name!r}: worlds must be at least 1, got {tier.worlds}")
    if tier.margin < 0:
        raise ConfigError(f"{name!r}: margin must be at least 0, got {tier.margin}")
    return game_name, tier


def expert_agent(
    name: str, game: str | None, seed: int | None, load_agent: AgentLoader
) -> GuidedSearchAgent | PIMCAgent | None:
    """The search tier `name` names, its guide loaded with `load_agent`; None when it names none."""
    parsed = parse_expert_name(name, game)
    if parsed is None:
        return None
    game_name, tier = parsed
    guide_name = f"{game_name}/{tier.guide}"
    agent: GuidedSearchAgent | PIMCAgent
    if tier.worlds:
        agent = PIMCAgent(tier.worlds, rollout=guide_name, seed=seed, load_agent=load_agent, margin=tier.margin)
        agent.load_rollout(game_name)
    else:
        agent = GuidedSearchAgent(
            PolicyGuide(load_agent(guide_name, game=game_name), tier.t), tier.iterations, tier.c, seed=seed
        )
    agent.name = f"{game_name}/{EXPERT}"
    return agent


def expert_card(name: str) -> dict[str, Any] | None:
    """What the search tier `name` is (game, search, guide and budget), None if it names none."""
    parsed = parse_expert_name(name)
    if parsed is None:
        return None
    game_name, tier = parsed
    guide = f"{game_name}/{tier.guide}"
    if tier.worlds:
        return {
            "game": game_name,
            "search": "PIMC on Game.resample_hidden (agents/search.py)",
            "guide": guide,
            "worlds": tier.worlds,
            "margin": tier.margin,
            "leaves": "rollouts to the episode's end, every seat played by the guide",
        }
    return {
        "game": game_name,
        "search": "PUCT information-set MCTS on Game.resample_hidden (agents/guided_search.py)",
        "guide": guide,
        "iterations": tier.iterations,
        "c": tier.c,
        "t": tier.t,
        "prior": "the guide's policy",
        "leaves": "the guide's value head (no rollouts)",
    }
