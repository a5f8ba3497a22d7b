"""Playing agents through an environment, shared by the agent tests."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def decisions(env: Any, seeds: Iterable[int]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every decision of one episode per seed, as (seat name, observation): the caller steps the
    env with its action before the next; a seat that is done is stepped with None here."""
    for seed in seeds:
        env.reset(seed=seed)
        for name in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                yield name, observation
