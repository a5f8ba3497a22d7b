"""The table driver: the one loop that advances a table to a seat's decision or to the end of the episode.

Self-play, evaluation, pretraining, the bot server and `cardarena play` all drive their tables
through `Table`; the throughput benchmarks keep PettingZoo's own AEC loop.

A seat can leave a running episode for good (`Game.seat_done`, e.g. eliminated from a match).
PettingZoo then selects that agent once more, ahead of everyone, for its dead step: its
termination flag is set while the game goes on. `Table` steps those dead steps itself and reads
the end of the episode from the game, so a retired seat never ends the episode for the others
and is never asked to act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import numpy as np

from .env import CardGameEnv
from .errors import IllegalActionError


class Actor(Protocol):
    """Anything that chooses a seat's move from its observation, e.g. a cardarena agent. A search
    agent also has `act_in(env, seat)`, which is used instead (see `decide`)."""

    def act(self, observation: dict[str, np.ndarray]) -> int: ...


def decide(actor: Actor, env: CardGameEnv, seat: int, observation: dict[str, np.ndarray] | None = None) -> int:
    """The actor's move for `seat`, the seat to act: a search agent's `act_in(env, seat)`, which
    reads the table only through what the seat may know (`Game.resample_hidden`), else its `act`
    on the seat's observation (`observation`, where the caller holds it already)."""
    act_in = getattr(actor, "act_in", None)
    if act_in is not None:
        return act_in(env, seat)
    return actor.act(observation if observation is not None else env.observe(env.possible_agents[seat]))


class Table:
    """One episode of a `CardGameEnv` at a time, seen seat by seat.

    `to_act` is the seat whose decision is pending (None once the episode is over); `play` makes
    that decision; `advance` lets seated actors make theirs. `totals` holds each seat's rewards so
    far, as the environment paid them.
    """

    def __init__(self, env: CardGameEnv):
        self.env = env
        self.totals: list[float] = []
        self._seat = {agent: seat for seat, agent in enumerate(env.possible_agents)}
        self._illegal_end = False

    def reset(self, seed: int | None = None) -> None:
        """Deal a new episode (see `CardGameEnv.reset`)."""
        self.env.reset(seed=seed)
        self.totals = [0.0] * len(self.env.possible_agents)
        self._illegal_end = False
        self._step_retired()

    @property
    def finished(self) -> bool:
        """The episode is over: the game is terminal or truncated, or an illegal move ended it
        (`on_illegal="penalize"`)."""
        game, state = self.env.game, self.env.state
        return self._illegal_end or game.is_terminal(state) or game.is_truncated(state)

    @property
    def truncated(self) -> bool:
        """The episode was cut short by a cap (e.g. `max_hands`) rather than ending by the rules."""
        game, state = self.env.game, self.env.state
        return not self._illegal_end and game.is_truncated(state) and not game.is_terminal(state)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending, or None when the episode is over."""
        return None if self.finished else self.env.game.current_player(self.env.state)

    def seat_done(self, seat: int) -> bool:
        """Whether `seat` has no more decisions: it left the game for good, or the episode is over."""
        return self.finished or self.env.game.seat_done(self.env.state, seat)

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """The seat's observation and action mask."""
        return self.env.observe(self.env.possible_agents[seat])

    def play(self, action: int) -> None:
        """The seat to act plays `action`; rewards are added to `totals`."""
        if self.finished:
            raise IllegalActionError(f"the episode is over; action {action!r} cannot be played")
        self._step(action)
        self._illegal_end = any(info.get("illegal_action") for info in self.env.infos.values())
        self._step_retired()

    def advance(
        self, actors: Mapping[int, Actor], stop_at: int | None = None, max_moves: int | None = None
    ) -> int | None:
        """Let the seats in `actors` play until a seat without one must act, and return that seat.

        Returns None instead when the episode is over, when seat `stop_at` is done for good
        (its episode is over even if the game goes on), or after `max_moves` moves by actors.
        """
        moves = 0
        while not self.finished:
            if stop_at is not None and self.seat_done(stop_at):
                return None
            seat = self.env.game.current_player(self.env.state)
            actor = actors.get(seat)
            if actor is None:
                return seat
            if max_moves is not None and moves >= max_moves:
                return None
            self.play(decide(actor, self.env, seat))
            moves += 1
        return None

    def _step(self, action: int | None) -> None:
        self.env.step(action)
        for agent, reward in self.env.rewards.items():
            self.totals[self._seat[agent]] += reward

    def _step_retired(self) -> None:
        """Step the dead steps PettingZoo selects first for seats that left the running game."""
        env = self.env
        while not self.finished and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            self._step(None)
