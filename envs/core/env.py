"""The generic PettingZoo AEC environment every game's env.py reuses."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import history
from .config import GameConfig
from .errors import (
    ConfigError,
    EpisodeOverError,
    IllegalActionError,
    NoEpisodeError,
    SeatViewError,
    StateError,
    UnknownPlayerError,
)
from .game import Encoder, Game
from .views import table_settings

MASKS_KEPT = 4096  # sets of legal actions whose mask an environment keeps


class CardGameEnv(AECEnv):
    """AEC adapter over a `Game` and its `Encoder`.

    Agents are `player_0 .. player_{n-1}` (seat numbers, clockwise). Observations are
    `{"observation": float32 vector, "action_mask": int8 vector}`; rewards arrive when the
    game's returns change. The environment enforces call order and action legality itself,
    so `env()` needs no PettingZoo wrappers. It reads who acts and their legal actions once per
    move, so the state changes only through `step` and `load_state`.

    Each step is logged in the hand history the state keeps (history.py), which `history(seat)`
    gives; `episode_start()` and `played` (the action ids since) are what the environment has
    played since its episode started (`reset`, `load_state` or `load_view`), from which
    `cardarena.records` makes replayable records.
    """

    game_cls: ClassVar[type[Game]]
    encoder_cls: ClassVar[type[Encoder]]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}
    """PettingZoo's; a game's environment is named by its game's env id (`metadata["name"]`, set here)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        game = cls.__dict__.get("game_cls")
        if game is not None:
            cls.metadata = {**cls.metadata, "name": f"{game.name}_v{game.version}"}

    def __init__(self, render_mode: str | None = None, **config: Any):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"render_mode={render_mode!r}: allowed values are None, 'human', 'ansi'")
        self.render_mode = render_mode
        self.config: GameConfig = self.game_cls.config_cls.build(**config)
        self._settings = table_settings(self.config)
        self.game: Game = self.game_cls(self.config)
        self.encoder: Encoder = self.encoder_cls(self.game)
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size, num_actions = self.encoder.observation_size, self.game.num_actions
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(num_actions) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self._no_actions = np.zeros(num_actions, np.int8)
        # the action mask of each set of legal actions met (`_mask`)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self._seats_leave = self.game.seats_leave and self.config.retired_seats == "leave"
        self._seats_stay = self.game.seats_leave and self.config.retired_seats == "stay"
        self._acting_observation = self.encoder.has_acting_observation
        self.state: Any = None
        self.played: list[int] = []
        self._start: Callable[[], Any] = lambda: None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new episode. A seed reseeds the environment; without one its RNG continues."""
        if seed is not None:
            self._rng = random.Random(seed)
        deal = self._rng.getrandbits(63)
        self._load(self.game.new_state(deal), lambda: self.game.new_state(deal))

    def load_state(self, state: Any) -> None:
        """Continue from a game state (a clone, or one read back with `game.state_from_json`); a
        copy of it is kept as the episode's start (`episode_start`). StateError naming the field
        for a state the game's play cannot continue from (`Game.check_state`)."""
        self.game.check_state(state)
        start = self.game.clone(state)
        self._load(state, lambda: self.game.clone(start))

    def episode_start(self) -> Any:
        """A fresh copy of the state the episode started from (`reset`, `load_state` or
        `load_view`): with the action ids in `played` it replays the episode."""
        self._require_reset()
        return self._start()

    def _load(self, state: Any, start: Callable[[], Any]) -> None:
        self.state = state
        self._start, self.played = start, []
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._returns = list(self.game.returns(state))
        self._rewarded = False  # whether the last move paid some seat (its rewards are not all 0)
        self._hands_checked = -1  # hands played when seats were last asked whether they left (`seat_done`)
        self._update_after_move()

    def load_view(self, view: Any) -> str:
        """Continue from a state rebuilt from one seat's JSON view (`Game.state_from_view`); returns that seat's agent.

        The view's `settings` must be this table's, and the rebuilt state must give the view back
        field by field (and its `legal_actions`, when the view lists them): any field that
        disagrees with the rest is a SeatViewError naming it.
        """
        if not isinstance(view, dict):
            raise SeatViewError(f"a seat view is a JSON object, not {type(view).__name__}")
        seat = view.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.game.num_players:
            raise SeatViewError(
                f"seat view field 'seat' must be a seat number 0..{self.game.num_players - 1}, got {seat!r}"
            )
        state = self._state_from_view(view)
        legal = self.game.legal_actions(state) if self.game.current_player(state) == seat else []
        rebuilt = self._seat_view(state, seat, legal)
        for optional in ("legal_actions", "last_hand"):
            if optional not in view:
                rebuilt.pop(optional, None)
        _check_fields(rebuilt, view)
        seen = copy.deepcopy(view)
        self._load(state, lambda: self._state_from_view(seen))
        return self.possible_agents[seat]

    def _state_from_view(self, view: dict[str, Any]) -> Any:
        """`Game.state_from_view`, its history holding the view's `last_hand`. A view is untrusted input: one
        that its game's reader or engines cannot rebuild (a missing or odd field) is a SeatViewError too."""
        try:
            state = self.game.state_from_view(view)
        except SeatViewError:
            raise
        except (ValueError, LookupError, TypeError) as err:  # a field the view's reader needed is missing or odd
            raise SeatViewError(f"the seat view gives an inconsistent state: {type(err).__name__}: {err}") from None
        history.restore_last_hand(self.game.event_log(state), view.get("last_hand"))
        try:
            self.game.check_state(state)
        except (StateError, ValueError) as err:  # ValueError: a game engine (a pick rule) refuses a value
            raise SeatViewError(f"the seat view gives an inconsistent state: {err}") from None
        return state

    def step(self, action: Any) -> None:
        if self.state is None or not self.agents:
            self._require_episode()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"{agent} is done; the only valid action is None, got {action!r}")
            self._was_dead_step(action)
            return
        move = _as_action_id(action)
        if move not in self._legal_actions:
            if self.config.on_illegal == "raise":
                raise IllegalActionError(self._illegal_message(agent, action, self._legal_actions))
            self._cumulative_rewards[agent] = 0.0
            self._penalize(self._seat[agent], move)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.play(self.state, move)
        self.played.append(move)
        self._collect_rewards()
        self._update_after_move()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's `last`, refused (EpisodeOverError) once every agent has taken its final dead step."""
        if self.state is None or not self.agents:
            self._require_episode()
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.state is None:
            self._require_reset()
        seat = self._seat_of(agent)
        if seat != self._to_act:
            return {"observation": self.encoder.observation(self.state, seat), "action_mask": self._no_actions.copy()}
        if self._acting_observation:
            observation = self.encoder.acting_observation(self.state, seat, self._legal_actions)
        else:
            observation = self.encoder.observation(self.state, seat)
        return {"observation": observation, "action_mask": self._mask()}

    def _mask(self) -> np.ndarray:
        """A new action mask of the seat to act, copied from the one kept for its set of legal
        actions (a copy costs about half of writing the mask afresh)."""
        legal = tuple(self._legal_actions)
        mask = self._masks.get(legal)
        if mask is None:
            if len(self._masks) >= MASKS_KEPT:
                self._masks.clear()
            mask = self._masks[legal] = self._no_actions.copy()
            mask[list(legal)] = 1
        return mask.copy()

    def observe_json(self, agent: str) -> dict[str, Any]:
        """The seat's view as JSON in canonical card codes: the table's `settings`, the game's
        fields, `last_hand` (the last finished hand's result until the seat acts again, where the
        game keeps a history), and its legal actions with their labels and details
        (`Game.action_details`)."""
        self._require_reset()
        seat = self._seat_of(agent)
        return self._seat_view(self.state, seat, self._legal_actions if seat == self._to_act else [])

    def _seat_view(self, state: Any, seat: int, legal: list[int]) -> dict[str, Any]:
        view = self.encoder.seat_view(state, seat)
        game = self.game
        view["last_hand"] = history.last_hand(game.event_log(state), seat)
        return {
            "game": view["game"],
            "seat": view["seat"],
            "settings": dict(self._settings),
            **view,
            "legal_actions": [
                {"id": a, "label": game.action_label(state, a), **game.action_details(state, a)} for a in legal
            ],
        }

    def history(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The episode's hand history as JSON in card codes (history.py): every event, private
        fields included, when `seat` is None (for a finished table, or the creator of an all-bot
        one); else what `seat` may know: the public events and fields and its own private ones."""
        self._require_reset()
        log = self.game.event_log(self.state)
        if seat is None:
            return copy.deepcopy(log)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.game.num_players:
            raise UnknownPlayerError(
                f"no seat {seat!r} at this {self.game.env_id} table; its seats are 0..{self.game.num_players - 1}"
            )
        return copy.deepcopy(history.seen_by(log, seat))

    def public_history(self) -> list[dict[str, Any]]:
        """What every seat and a spectator know of the episode: its history without any private field."""
        self._require_reset()
        return copy.deepcopy(history.seen_by(self.game.event_log(self.state), None))

    def action_label(self, action: int) -> str:
        """The action in the game's words at the current decision point."""
        return self.game.action_label(self.state, action)

    def render(self, seat: int | None = None) -> str | None:
        """The table as text: the whole table, or one seat's view when `seat` is given."""
        if self.state is None:
            return None
        text = self.encoder.render(self.state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def _collect_rewards(self) -> None:
        """Each seat's reward for the move just played: the change in its return, also accumulated."""
        returns = self.game.returns(self.state)
        if returns == self._returns and not self._rewarded:
            return  # most moves pay nothing, and every reward is already 0
        self._rewarded = returns != self._returns
        for agent, after, before in zip(self.possible_agents, returns, self._returns):
            if agent not in self.rewards:
                continue
            reward = after - before
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] += reward
        self._returns = list(returns)

    def _update_after_move(self) -> None:
        """Read the new state once: who acts, their legal actions, and whether the episode ended."""
        game, state = self.game, self.state
        self._to_act = to_act = game.current_player(state)
        self._legal_actions = game.legal_actions(state) if to_act >= 0 else []
        terminal = game.is_terminal(state)
        truncated = game.is_truncated(state)
        if terminal or truncated:
            for agent in self.agents:
                retired = self._seats_stay and game.seat_done(state, self._seat[agent])
                self.terminations[agent] = terminal or retired
                self.truncations[agent] = truncated and not retired
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[to_act]
        if self._seats_leave and self._hands_checked != (hands := game.hands_played(state)):
            self._hands_checked = hands
            for agent in self.agents:
                if game.seat_done(state, self._seat[agent]):
                    self.terminations[agent] = True
            self._deads_step_first()

    def _penalize(self, offender: int, action: int | None) -> None:
        """End the episode: `illegal_reward` for the offender, 0 for every other seat, and a public
        `penalty` event in the history holding the returns the game stood at before it."""
        game = self.game
        history.emit(
            game.event_log(self.state),
            game.hands_played(self.state),
            history.PENALTY,
            offender,
            action=action,
            illegal_reward=self.config.illegal_reward,
            returns_before=list(game.returns(self.state)),
        )
        for agent in self.agents:
            self.rewards[agent] = self.config.illegal_reward if self._seat[agent] == offender else 0.0
            self.terminations[agent] = True
            self.infos[agent] = {"illegal_action": self._seat[agent] == offender}
        self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def _illegal_message(self, agent: str, action: Any, legal: list[int]) -> str:
        choices = ", ".join(f"{a} ({self.game.action_label(self.state, a)})" for a in legal)
        move = _as_action_id(action)
        if move is None:
            name = f"{action!r} (not an integer action id)"
        elif 0 <= move < self.game.num_actions:
            name = f"{move} ({self.game.action_label(self.state, move)})"
        else:
            name = f"{move} (out of range 0..{self.game.num_actions - 1})"
        return f"illegal action {name} for {agent}; legal actions: {choices}"

    def _require_reset(self) -> None:
        if self.state is None:
            raise NoEpisodeError(
                f"{self.game.env_id} has no episode yet: call reset() before step(), observe() or last()"
            )

    def _require_episode(self) -> None:
        """An episode is running: dealt, and not ended with every agent's final dead step taken."""
        self._require_reset()
        if not self.agents:
            raise EpisodeOverError(
                f"the {self.game.env_id} episode is over (every agent has left): call reset() to deal a new one"
            )

    def _seat_of(self, agent: str) -> int:
        try:
            return self._seat[agent]
        except (KeyError, TypeError):
            raise UnknownPlayerError(
                f"no agent {agent!r} at this {self.game.env_id} table; its agents are {', '.join(self.possible_agents)}"
            ) from None


def _check_fields(rebuilt: dict[str, Any], view: dict[str, Any]) -> None:
    """SeatViewError naming the first field where `view` differs from the rebuilt view."""
    for key in sorted(set(rebuilt) | set(view)):
        if key not in view:
            raise SeatViewError(f"seat view lacks the field {key!r}")
        if key not in rebuilt:
            raise SeatViewError(f"seat view has an unknown field {key!r}")
        if view[key] != rebuilt[key]:
            raise SeatViewError(
                f"seat view field {key!r} is {view[key]!r}, but the rest of the view gives {rebuilt[key]!r}"
            )


def _as_action_id(action: Any) -> int | None:
    """An int action id, accepting numpy integers; None for anything that is not one (bools included)."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None
