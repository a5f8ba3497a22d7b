"""RLlib's PettingZooEnv plays elimination matches to their end, stepping retired seats out itself.

Under the `ray` marker (the ray extra, `ray[rllib]`); CI runs them with
`unshare -n sh -c 'ip link set lo up && .venv/bin/pytest -m ray'`.
"""

from __future__ import annotations

import numpy as np
import pytest
from elimination_matches import ELIMINATION_MATCHES, check_matches_reach_their_end, elimination_match

wrappers = pytest.importorskip(
    "ray.rllib.env.wrappers.pettingzoo_env", reason='needs the ray extra: pip install -e ".[ray]"'
)
pytestmark = pytest.mark.ray

MATCHES = 3


def play_with_rllib(env, seed: int) -> list[float]:
    """Random legal actions until RLlib's episode ends; each seat's rewards as RLlib reported them."""
    wrapped = wrappers.PettingZooEnv(env)
    observations, _infos = wrapped.reset(seed=seed)
    paid = dict(zip(env.possible_agents, map(float, env.game.returns(env.state)), strict=True))
    rng = np.random.default_rng(seed)
    terminated, truncated = {"__all__": False}, {"__all__": False}
    while not (terminated["__all__"] or truncated["__all__"]):
        # the one observation of a seat that is not done is the seat to act; the others are final steps
        (agent,) = [agent for agent in observations if not (terminated.get(agent) or truncated.get(agent))]
        action = rng.choice(np.flatnonzero(observations[agent]["action_mask"]))
        observations, rewards, terminated, truncated, _infos = wrapped.step({agent: action})
        for seat_agent, reward in rewards.items():
            paid[seat_agent] += reward
    assert not env.agents
    return list(paid.values())


@pytest.mark.parametrize("name", ELIMINATION_MATCHES)
def test_every_match_reaches_its_end(name: str):
    check_matches_reach_their_end(elimination_match(name, "leave"), play_with_rllib, MATCHES)
