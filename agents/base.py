"""The Agent protocol and the random agent."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Something that chooses actions from an observation dict alone, in any seat of any table.

    `act` receives `{"observation": np.ndarray, "action_mask": np.ndarray}` and returns a
    legal action id. `reset` is called at the start of every episode.
    """

    def act(self, observation: dict[str, np.ndarray]) -> int: ...

    def reset(self) -> None: ...


class RandomAgent:
    """Uniformly random legal actions: the weakest baseline."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError("the action mask has no legal action")
        return int(legal[self.rng.integers(legal.size)])

    def reset(self) -> None:
        pass
