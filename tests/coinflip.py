"""Coinflip, a two-seat toy game for tests of the registry: a game with no agents of its own.

A coin is tossed face down at the deal. Seat 0 calls HEADS or TAILS, then seat 1, who has heard
seat 0's call. The coin is shown: a seat alone in calling it right wins 1 from the other; two
right or two wrong calls pay nothing. Registered as `register("coinflip_v1", "coinflip")`.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Literal

import numpy as np
from cardarena.envs.core.cards import Deck
from cardarena.envs.core.config import GameConfig
from cardarena.envs.core.env import CardGameEnv
from cardarena.envs.core.game import Encoder, Game
from cardarena.envs.core.history import emit

ENV_ID = "coinflip_v1"
MODULE = "coinflip"
SIDES = ("HEADS", "TAILS")


class CoinflipConfig(GameConfig):
    num_players: Literal[2] = 2


class CoinflipGame(Game[dict]):
    """State: `{"coin": 0 or 1, "calls": [side per seat so far], "log": the hand history}`."""

    name = "coinflip"
    version = 1
    deck = Deck([])  # a coin, no cards
    config_cls = CoinflipConfig
    num_actions = len(SIDES)
    min_players = max_players = 2

    @property
    def num_players(self) -> int:
        return 2

    def new_state(self, seed: int) -> dict:
        return {"coin": random.Random(seed).randrange(2), "calls": [], "log": []}

    def current_player(self, state: dict) -> int:
        return len(state["calls"]) if len(state["calls"]) < 2 else -1

    def legal_actions(self, state: dict) -> list[int]:
        return [0, 1] if len(state["calls"]) < 2 else []

    def apply(self, state: dict, action: int) -> None:
        state["calls"].append(action)
        if self.is_terminal(state):
            emit(state["log"], 0, "result", coin=SIDES[state["coin"]], returns=self.returns(state))

    def event_log(self, state: dict) -> list[dict[str, Any]]:
        return state["log"]

    def returns(self, state: dict) -> list[float]:
        if len(state["calls"]) < 2:
            return [0.0, 0.0]
        right = [call == state["coin"] for call in state["calls"]]
        return [float(right[seat]) - float(right[1 - seat]) for seat in range(2)]

    def is_terminal(self, state: dict) -> bool:
        return len(state["calls"]) == 2

    def is_truncated(self, state: dict) -> bool:
        return False

    def action_label(self, state: dict, action: int) -> str:
        return SIDES[action]

    def action_details(self, state: dict, action: int) -> dict[str, Any]:
        return {"kind": "call", "cards": [], "side": SIDES[action]}

    def clone(self, state: dict) -> dict:
        return {"coin": state["coin"], "calls": list(state["calls"]), "log": copy.deepcopy(state["log"])}

    def state_to_json(self, state: dict) -> dict[str, Any]:
        return self.clone(state)

    def state_from_json(self, data: dict[str, Any]) -> dict:
        return self.clone(data)


class CoinflipEncoder(Encoder[dict]):
    """Observation: own call (2), the other seat's call (2), the coin once shown (2)."""

    observation_size = 6

    def observation(self, state: dict, seat: int) -> np.ndarray:
        vector = np.zeros(self.observation_size, np.float32)
        for offset, caller in ((0, seat), (2, 1 - seat)):
            if caller < len(state["calls"]):
                vector[offset + state["calls"][caller]] = 1.0
        if self.game.is_terminal(state):
            vector[4 + state["coin"]] = 1.0
        return vector

    def seat_view(self, state: dict, seat: int) -> dict[str, Any]:
        shown = self.game.is_terminal(state)
        return {
            "game": ENV_ID,
            "seat": seat,
            "calls": [SIDES[call] for call in state["calls"]],
            "coin": SIDES[state["coin"]] if shown else None,
            "to_act": None if shown else len(state["calls"]),
        }

    def render(self, state: dict, seat: int | None) -> str:
        view = self.seat_view(state, seat or 0)
        return f"{ENV_ID}  calls {view['calls']}  coin {view['coin'] or 'face down'}"


class raw_env(CardGameEnv):
    """Coinflip for two players."""

    game_cls = CoinflipGame
    encoder_cls = CoinflipEncoder


class HeadsCaller:
    """An agent that always calls HEADS, keeping the seed it was made with."""

    def __init__(self, seed: int | None):
        self.seed = seed

    def act(self, observation: dict[str, np.ndarray]) -> int:
        return 0

    def reset(self) -> None:
        """Nothing to forget between deals."""
