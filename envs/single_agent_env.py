"""A cardarena game as a single-agent Gymnasium env: one learning seat, the other seats played by agents.

The learner sees its seat's observation vector (a Box) and chooses a Discrete action id; its legal
actions come from `action_masks()` (as sb3-contrib's MaskablePPO reads them) and from
`info["action_mask"]`. Between two of its decisions the other seats play (the table driver,
`cardarena.envs.core.table`). A reward is the learner's own, everything paid to its seat since its
last decision. Its episode ends when the game is over (truncated when a cap such as `max_hands`
cut it short) or when its seat leaves the game for good (eliminated from a match: terminated).

An off-mask action follows the game's `on_illegal` setting: by default it raises
IllegalActionError naming the legal actions; with `on_illegal="penalize"` it ends the episode
with `illegal_reward` for the learner, which is what env checkers that step random actions need.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable

import gymnasium as gym
import numpy as np

from .core.errors import ConfigError, IllegalActionError
from .core.registry import lookup, make
from .core.table import Table

if TYPE_CHECKING:
    from cardarena.agents import Agent
    from typing_extensions import TypeIs

Opponent: TypeAlias = "str | os.PathLike[str] | Agent"


@runtime_checkable
class _Seeded(Protocol):
    """An agent with a random source of its own (cardarena's agents hold a numpy Generator there)."""

    rng: Any


EPISODE_SEED_BOUND = 2**63


class OneSeatEnv(gym.Env):
    """The loop shared by every single-seat view: deal, let the other seats play, credit the learner.

    A subclass chooses each episode's table, learner seat and actors and starts it with `_begin`.
    """

    metadata = {"render_modes": []}

    def _use_spaces_of(self, table: Table) -> None:
        first = table.env.possible_agents[0]
        self.table = table
        self.observation_space = table.env.observation_space(first)["observation"]
        self.action_space = table.env.action_space(first)
        self._mask = np.zeros(table.env.game.num_actions, np.bool_)
        self._learner_to_act = False

    def _begin(self, table: Table, seat: int, actors: dict[int, Agent], table_seed: int) -> bool:
        """Deal a new episode with the learner at `seat`; True once the learner is to act, False when its
        episode ended before its first decision."""
        self.table, self.learner_seat = table, seat
        self._actors = actors
        table.reset(seed=table_seed)
        for actor in actors.values():
            actor.reset()
        self._credited = 0.0
        self._decisions = 0
        return self._play_opponents()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's move; the other seats then play until the learner's next decision or the end."""
        if not self._learner_to_act:
            raise IllegalActionError(f"the learner's episode is over (or not started): reset() first, not {action!r}")
        table = self.table
        table.play(action)
        self._decisions += 1
        learner_to_act = self._play_opponents()
        reward = table.totals[self.learner_seat] - self._credited
        self._credited += reward
        if learner_to_act:
            return self._learner_observation(), reward, False, False, self._info()
        observation = self._learner_observation()
        info = {**self._info(), **self._episode_info()}
        return observation, reward, not table.truncated, table.truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (what MaskablePPO reads)."""
        return self._mask

    def _play_opponents(self) -> bool:
        """Let the other seats move until the learner must decide (True) or its episode is over (False)."""
        self._learner_to_act = self.table.advance(self._actors, stop_at=self.learner_seat) is not None
        return self._learner_to_act

    def _learner_observation(self) -> np.ndarray:
        observation = self.table.observe(self.learner_seat)
        self._mask = observation["action_mask"].astype(bool)
        return observation["observation"]

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask}

    def _episode_info(self) -> dict[str, Any]:
        """What the last step of an episode adds to its info."""
        return {}


class SingleAgentEnv(OneSeatEnv):
    """A game from one learning seat against fixed opponents; see `single_agent`."""

    def __init__(
        self,
        game: str,
        opponents: Opponent | Sequence[Opponent] | None = None,
        seat: int | None = None,
        **settings: Any,
    ):
        self._use_spaces_of(Table(make(game, **settings)))
        self._seats = len(self.table.env.possible_agents)
        self.seat = _checked_seat(seat, self._seats)
        self.opponents = _opponent_agents(opponents, lookup(game).name, self._seats)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start the learner's next episode; a seed fixes it (seat, deal and the opponents' random choices)."""
        super().reset(seed=seed)
        while True:
            seat = self.seat if self.seat is not None else int(self.np_random.integers(self._seats))
            for opponent in self.opponents:
                self._reseed(opponent)
            others = [other for other in range(self._seats) if other != seat]
            table_seed = int(self.np_random.integers(EPISODE_SEED_BOUND))
            if self._begin(self.table, seat, dict(zip(others, self.opponents, strict=True)), table_seed):
                return self._learner_observation(), self._info()

    def _reseed(self, opponent: Agent) -> None:
        """Seed an opponent that draws from a numpy Generator `rng` (as cardarena's agents do) from this env."""
        if isinstance(opponent, _Seeded) and isinstance(opponent.rng, np.random.Generator):
            opponent.rng = np.random.default_rng(int(self.np_random.integers(EPISODE_SEED_BOUND)))


def single_agent(
    game: str, opponents: Opponent | Sequence[Opponent] | None = None, seat: int | None = None, **settings: Any
) -> SingleAgentEnv:
    """A Gymnasium env of `game` (table settings as for `make`) from one learning seat.

    `opponents`: agent names (`"random"`, `"heuristic"`, `"<game>/heuristic"`, a checkpoint's name or
    folder; see `cardarena.agents.load`) or agent objects, one per other seat in seat order, or one for
    all of them; the game's default opponent when omitted. `seat`: the learner's seat, or None to draw
    it at every reset.
    """
    return SingleAgentEnv(game, opponents, seat, **settings)


def _checked_seat(seat: int | None, seats: int) -> int | None:
    if seat is None or (isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < seats):
        return None if seat is None else int(seat)
    raise ConfigError(f"seat must be None (drawn each episode) or a seat from 0 to {seats - 1}, not {seat!r}")


def _one_opponent(opponents: Opponent | Sequence[Opponent]) -> TypeIs[Opponent]:
    """Whether `opponents` is one opponent (a name, a folder or an agent) rather than one per seat."""
    return isinstance(opponents, (str, os.PathLike)) or hasattr(opponents, "act")


def _opponent_agents(opponents: Opponent | Sequence[Opponent] | None, game: str, seats: int) -> list[Agent]:
    """One agent for each of the `seats - 1` other seats, names loaded for `game`."""
    from cardarena.agents import default_opponent, load

    if opponents is None:
        opponents = default_opponent(game)
    opponents = [opponents] * (seats - 1) if _one_opponent(opponents) else list(opponents)
    if len(opponents) != seats - 1:
        raise ConfigError(
            f"a {seats}-seat table has {seats - 1} opponent seats: give one opponent for each, or one for all, "
            f"not {len(opponents)}"
        )
    agents: list[Agent] = []
    for index, opponent in enumerate(opponents):
        if isinstance(opponent, (str, os.PathLike)):
            agents.append(load(opponent, game=game, seed=index))
        elif callable(getattr(opponent, "act", None)) and callable(getattr(opponent, "reset", None)):
            agents.append(opponent)
        else:
            raise ConfigError(
                f"opponent {opponent!r} is neither an agent name or checkpoint folder nor an agent "
                "(an object with act(observation) and reset())"
            )
    return agents
