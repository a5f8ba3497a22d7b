"""The Agent protocol, the observation check every agent of one game makes, and the random agent."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np
from cardarena.envs.core.errors import ObservationError


@runtime_checkable
class Agent(Protocol):
    """Something that chooses actions from an observation dict alone, in any seat of any table.

    `act` receives `{"observation": np.ndarray, "action_mask": np.ndarray}` and returns a
    legal action id. `reset` is called at the start of every episode.
    """

    def act(self, observation: dict[str, np.ndarray]) -> int: ...

    def reset(self) -> None: ...


class ObservationShape:
    """The observation an agent reads: a vector of `size` values and a mask of `num_actions` actions.

    `check` runs at every decision, so it compares two shapes and nothing more.
    """

    __slots__ = ("reader", "_mask", "_vector")

    def __init__(self, size: int, num_actions: int, reader: str):
        self.reader = reader
        self._vector, self._mask = (size,), (num_actions,)

    def check(self, observation: Any) -> None:
        """ObservationError naming both shapes unless `observation` is a dict of this vector and mask."""
        try:
            vector, mask = observation["observation"], observation["action_mask"]
        except (KeyError, TypeError, IndexError):
            raise ObservationError(
                f"{self.reader} acts on a dict with 'observation' and 'action_mask' (as env.observe gives), "
                f"not {_described(observation)}"
            ) from None
        if getattr(vector, "shape", None) != self._vector or getattr(mask, "shape", None) != self._mask:
            self._check_shapes(np.shape(vector), np.shape(mask))

    def _check_shapes(self, vector: tuple[int, ...], mask: tuple[int, ...]) -> None:
        """The slow path, for arrays of another shape and for sequences that are not arrays."""
        if vector != self._vector or mask != self._mask:
            raise ObservationError(
                f"{self.reader} reads an observation of shape {self._vector} "
                f"with an action mask of shape {self._mask}, "
                f"but was given shapes {vector} and {mask}: an observation of another game or version?"
            )


def _described(observation: Any) -> str:
    if isinstance(observation, dict):
        return f"a dict with keys {', '.join(sorted(map(repr, observation)))}"
    return f"a {type(observation).__name__}"


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
