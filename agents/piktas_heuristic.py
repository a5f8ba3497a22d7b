"""A rule-based Piktas player that reads only its observation vector and action mask."""

from __future__ import annotations

import numpy as np
from cardarena.agents.base import ObservationShape
from cardarena.envs.piktas.encode import OBSERVATION_SIZE, SCORE_SCALE, SLICES
from cardarena.envs.piktas.game import FOLD, MATCH, NUM_ACTIONS, PASS, RAISE, STAY
from cardarena.envs.piktas.rules import MIN_PLAYERS

# Betting thresholds on the final score: about the median pool of a 4-seat table of this agent,
# and a strong one; both rise as the table grows, since more pools compete for the pot.
MATCH_SCORE = 8
RAISE_SCORE = 16
SCORE_PER_EXTRA_SEAT = 1.5
DEFAULT_TABLE = 4
FIELD_WEIGHT = 0.5  # the field-heuristic's weight on the score with the whole field
SHAPE = ObservationShape(OBSERVATION_SIZE, NUM_ACTIONS, "the piktas heuristic")


class PiktasHeuristic:
    """Secure what scores, then bet on the final score.

    Exchange turns: the cards in its hand and the covered field cards are the only ones no
    opponent can take, so it plays the exchange (swap, lay a void, or pass) that raises that
    *secured* score the most, read from the observation's `secured_after` (the exact scorer's
    result for every action). Ties go to the action whose secured cards are nearest to scoring
    (`closeness_after`: suit and value concentration, neighbouring values, trump pairs), then to
    passing. Laying a void therefore covers a card it needs and clears the void that blocks a
    Full Hand. With `field_weight` w > 0 (the `field-heuristic`) it maximises
    secured + w * (score with the whole field, `full_after`) instead: it also counts on the
    uncovered field cards, which often survive to the showdown.

    Betting round (gambling): it raises with a final score of 16 or more, stays when it can,
    matches with 8 or more (both thresholds 1.5 points higher for every seat beyond four), and
    folds otherwise.
    """

    def __init__(self, field_weight: float = 0.0):
        self.field_weight = field_weight

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        SHAPE.check(observation)
        legal = np.flatnonzero(observation["action_mask"])
        obs = observation["observation"]
        if legal[0] >= STAY:
            return self._bet(obs, legal.tolist())
        value = np.rint(obs[SLICES["secured_after"]][legal] * SCORE_SCALE)
        if self.field_weight:
            value = value + self.field_weight * np.rint(obs[SLICES["full_after"]][legal] * SCORE_SCALE)
        best = legal[value == value.max()]
        near = obs[SLICES["closeness_after"]][best]
        top = best[near == near.max()]
        return PASS if PASS in top else int(top[0])

    def _bet(self, obs: np.ndarray, legal: list[int]) -> int:
        table_size = int(obs[SLICES["table_size"]].argmax()) + MIN_PLAYERS
        total = round(float(obs[SLICES["evaluation"]][0]) * SCORE_SCALE)
        extra = max(0, table_size - DEFAULT_TABLE) * SCORE_PER_EXTRA_SEAT
        if total >= RAISE_SCORE + extra and RAISE in legal:
            return RAISE
        if STAY in legal:
            return STAY
        if total >= MATCH_SCORE + extra and MATCH in legal:
            return MATCH
        return FOLD


def heuristic(seed: int | None = None) -> PiktasHeuristic:
    """The registered `piktas/heuristic` (deterministic: the seed is not needed)."""
    return PiktasHeuristic()


def field_heuristic(seed: int | None = None) -> PiktasHeuristic:
    """The registered `piktas/field-heuristic`: also counts on the uncovered field cards."""
    return PiktasHeuristic(field_weight=FIELD_WEIGHT)
