"""Helpers shared by the serve tests: the bots served and seat views from random episodes.

Imported by the test modules of this folder (pytest puts a test file's folder on sys.path).
"""

from __future__ import annotations

import json
import random

from cardarena.envs import make
from cardarena.envs.core.table import Table

SERVED = ["yokir/ppo-selfplay"]


def acting_views(seed: int, game: str = "yokir_v1", **config) -> list[dict]:
    """The acting seat's JSON view at every decision of one random episode (Yokir by default)."""
    table = Table(make(game, **config))
    table.reset(seed)
    rng = random.Random(seed)
    views = []
    while (seat := table.to_act) is not None:
        view = json.loads(json.dumps(table.env.observe_json(table.env.possible_agents[seat])))
        views.append(view)
        table.play(rng.choice(view["legal_actions"])["id"])
    return views
