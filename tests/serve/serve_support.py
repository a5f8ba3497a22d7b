"""Helpers shared by the serve tests: the bots served and seat views from random episodes.

Imported by the test modules of this folder (pytest puts a test file's folder on sys.path).
"""

from __future__ import annotations

import json
import random

from cardarena.envs import make

SERVED = ["yokir/ppo-selfplay"]


def acting_views(seed: int, game: str = "yokir_v1", **config) -> list[dict]:
    """The acting seat's JSON view at every decision of one random episode (Yokir by default)."""
    env = make(game, **config)
    env.reset(seed=seed)
    rng = random.Random(seed)
    views = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        view = json.loads(json.dumps(env.observe_json(env.agent_selection)))
        views.append(view)
        env.step(rng.choice(view["legal_actions"])["id"])
    return views
