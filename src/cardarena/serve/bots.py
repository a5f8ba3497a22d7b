"""The bots a server answers for, loaded once, and how one chooses its move from a seat view alone."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from importlib import import_module
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from cardarena.agents import Agent, available, describe, load
from cardarena.agents.search import ISMCTS, PIMC, SearchAgent
from cardarena.envs import lookup, registered
from cardarena.envs.core.env import CardGameEnv
from cardarena.envs.core.errors import ConfigError, SeatViewError, UnknownAgentError
from cardarena.envs.core.registry import GameEntry
from cardarena.envs.core.table import decide
from cardarena.envs.core.views import view_settings

from .models import ActRequest, ActResponse, BotInfo, GameInfo

_CACHED_ENVS = 32
SEARCH_MS = 1_000.0  # the time a search bot may think per move on a server, in milliseconds


@dataclass(frozen=True)
class Bot:
    """A loaded agent with its card; `game` is None for an agent that plays every game. A search
    process loads it again from its `name` and `search_ms` (`load_served_agent`)."""

    name: str
    game: str | None
    agent: Agent
    description: dict[str, Any]
    search_ms: float = SEARCH_MS

    def info(self) -> BotInfo:
        return BotInfo(**self.description)


class Roster:
    """Bots by name, and a few environments (one per game and config) to rebuild seat views in.

    A search bot (`pimc`, `ismcts`) thinks at most `search_ms` per move: it is loaded with that time
    budget (or its own `ms`, if lower) instead of a count of worlds or iterations, so its moves do not
    replay from a seed; past the budget it plays the best move found so far (at least one sample).
    """

    def __init__(self, names: list[str], search_ms: float = SEARCH_MS):
        self.bots = {name: _load(name, search_ms) for name in dict.fromkeys(names)}
        self._envs: OrderedDict[tuple[str, str], CardGameEnv] = OrderedDict()
        self._envs_lock = threading.Lock()

    @classmethod
    def serving(cls, names: list[str] | None = None) -> Roster:
        """The built-in bots plus `names` (default: every shipped checkpoint)."""
        built_in = [name for name in available() if describe(name)["kind"] == "built-in"]
        return cls([*built_in, *(names if names is not None else available())])

    def bot(self, name: str, entry: GameEntry) -> Bot:
        """The served bot `name`, if it plays `entry`'s game; UnknownAgentError otherwise."""
        bot = self.bots.get(name)
        if bot is None:
            raise UnknownAgentError(f"unknown bot {name!r}; this server serves: {', '.join(self.bots)}")
        if bot.game not in (None, entry.name):
            players = ", ".join(n for n, b in self.bots.items() if b.game in (None, entry.name))
            raise UnknownAgentError(
                f"bot {name!r} plays {bot.game}, not {entry.name}; bots for {entry.name}: {players}"
            )
        return bot

    def act(self, request: ActRequest) -> ActResponse:
        """The bot's move in the request's seat view, which must be that seat's turn.

        The table is the one the view's `settings` give; a request's `config` may repeat them
        (a disagreement is a ConfigError naming the setting) and add the environment's own keys.
        """
        entry = lookup(request.game)
        bot = self.bot(request.bot, entry)
        config = table_config(entry, request.config, request.seat_view)
        key = (entry.env_id, json.dumps(config, sort_keys=True))
        with self._envs_lock:
            env = self._envs.pop(key, None)  # taken out while in use: concurrent requests never share one
        env = env or new_env(entry, config)
        agent = env.load_view(request.seat_view)
        if env.agent_selection != agent or env.terminations[agent] or env.truncations[agent]:
            to_act = request.seat_view.get("to_act")
            raise SeatViewError(
                f"seat {request.seat_view['seat']} has no move to make in this view (to_act is {to_act!r})"
            )
        action = int(decide(bot.agent, env, env.possible_agents.index(agent)))
        answer = ActResponse(action=action, action_label=env.action_label(action))
        with self._envs_lock:
            self._envs[key] = env
            if len(self._envs) > _CACHED_ENVS:
                self._envs.popitem(last=False)
        return answer


def table_config(entry: GameEntry, config: dict[str, Any], view: Any) -> dict[str, Any]:
    """The config of the table a seat view comes from: its `settings`, with what `config` adds.

    A bad `config` is a ConfigError, bad settings a SeatViewError, each naming the key; so is a
    setting that `config` gives otherwise than the view."""
    config_cls = entry.env_cls.game_cls.config_cls
    config_cls.build(**config)
    settings = view_settings(config_cls, view)
    for key, value in config.items():
        if key in settings and settings[key] != value:
            raise ConfigError(f"config {key!r} is {value!r}, but the seat view's settings.{key} is {settings[key]!r}")
    return {**settings, **config}


def new_env(entry: GameEntry, config: dict[str, Any]) -> CardGameEnv:
    """An environment of `entry`; ConfigError for a bad setting (render_mode is not a client's to set)."""
    entry.env_cls.game_cls.config_cls.build(**config)
    return entry.env_cls(**config)


def game_infos() -> list[GameInfo]:
    """Every registered game, for `GET /v1/games`."""
    return [
        GameInfo(
            env_id=entry.env_id,
            name=entry.name,
            version=entry.version,
            min_players=entry.player_counts.start,
            max_players=entry.player_counts.stop - 1,
            num_actions=entry.env_cls.game_cls.num_actions,
            observation_size=entry.env_cls.encoder_cls.observation_size,
            settings={key: default for key, _, default in entry.env_cls.game_cls.config_cls.describe_fields()},
            settings_schema=entry.env_cls.game_cls.config_cls.model_json_schema(),
            rules=f"/web/rules/{entry.env_id}.md" if game_file(entry, RULES) else None,
            renderer=f"/web/renderers/{entry.env_id}.js" if game_file(entry, RENDERER) else None,
        )
        for entry in registered()
    ]


RENDERER = "web.js"
"""The game's own renderer for the web table."""
RULES = "rules.md"
"""The game's rules page for the web table: its docs page (docs/games/<game>.md), linked into its package."""


def game_file(entry: GameEntry, name: str) -> Traversable | None:
    """A file the game ships for the web table (`RENDERER`, `RULES`) in its package, if it ships it (a game
    that is a single module ships none)."""
    if not hasattr(import_module(entry.module), "__path__"):
        return None
    candidate = files(entry.module) / name
    return candidate if candidate.is_file() else None


def _load(name: str, search_ms: float) -> Bot:
    description = describe(name)
    agent = load_served_agent(name, search_ms)
    return Bot(name=name, game=description["game"], agent=agent, description=description, search_ms=search_ms)


def load_served_agent(name: str, search_ms: float) -> Agent:
    """The agent `name` as a server plays it: a search bot (`pimc`, `ismcts`) within `search_ms` per
    move; a search tier (`GAME/expert`) keeps its fixed budget."""
    agent = load(name)
    if isinstance(agent, SearchAgent) and agent.name in (PIMC, ISMCTS):
        agent.ms = min(agent.ms or search_ms, search_ms)
    return agent


def searches(agent: Agent) -> bool:
    """Whether the agent searches the table it sits at (`act_in`, as `decide` calls it: `pimc`,
    `ismcts`, `GAME/expert`): its moves cost many simulated games, so a server has them made in a
    search process, while a bot that answers from its observation alone (random, a heuristic, a
    network) moves in a thread, quicker than a process's round trip."""
    return callable(getattr(agent, "act_in", None))


def for_decision(agent: Agent, seed: int) -> Agent:
    """The agent to make one decision with: a search agent's copy drawing from `seed` (`reseeded`),
    so that the decision is the same in any thread or process; any other agent as it is."""
    reseeded = getattr(agent, "reseeded", None)
    return reseeded(seed) if reseeded is not None else agent
