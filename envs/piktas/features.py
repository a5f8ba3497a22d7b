"""The compiled half of Piktas's observation: every exchange of a turn scored in one pass
(`scoring.exchange_outcomes`) and its per-action features written into the vector.

Kept apart from encode.py so that importing the game loads no numba: it is imported the first
time an exchange turn is observed. Mirrors `reference.exchange_features` (and, through
scoring.py, `reference.exchange_outcomes`), the plain reading of these features.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .layout import CLOSENESS_SCALE, GAP_CLOSENESS, GAP_POINTS, SCORE_SCALE, SLICES
from .scoring import exchange_outcomes

__all__ = ["exchange_outcomes", "write_exchange_features"]

_SECURED_AFTER, _FULL_AFTER, _CLOSENESS_AFTER = (
    SLICES[f"{name}_after"].start for name in ("secured", "full", "closeness")
)
_SECURED_GAP, _FULL_GAP, _CLOSENESS_GAP = (SLICES[f"{name}_gap"].start for name in ("secured", "full", "closeness"))


@njit(cache=True)
def write_exchange_features(obs, legal, secured, full, near):
    """Per legal id (scoring.exchange_outcomes): the secured and whole-field scores / 60 and the
    closeness / 150 after it, capped at 1, and each one's *gap*: 1 for the best legal id, less by 1
    per 10 points (30 closeness) below it, floor 0, so that small differences stand out. Scores are
    worked in float64 and closeness in float32: the observation's exact values. Mirrors
    `reference.exchange_features`."""
    _write_points(obs, _SECURED_AFTER, _SECURED_GAP, legal, secured)
    _write_points(obs, _FULL_AFTER, _FULL_GAP, legal, full)
    best = np.float32(near.max())
    for k in range(legal.shape[0]):
        value = np.float32(near[k])
        obs[_CLOSENESS_AFTER + legal[k]] = min(value / np.float32(CLOSENESS_SCALE), np.float32(1.0))
        obs[_CLOSENESS_GAP + legal[k]] = max(
            np.float32(1.0) - (best - value) / np.float32(GAP_CLOSENESS), np.float32(0.0)
        )


@njit(cache=True)
def _write_points(obs, after, gap, legal, points):
    best = points.max()
    for k in range(legal.shape[0]):
        obs[after + legal[k]] = min(points[k] / SCORE_SCALE, 1.0)
        obs[gap + legal[k]] = max(1.0 - (best - points[k]) / GAP_POINTS, 0.0)
