"""A rule-based Antipoker player that reads only its observation vector and action mask.

Strategy, as a careful human plays it:
- The draw. Try every way of keeping some of the six cards (64 of them) and deal the missing cards
  many times from the cards it has not seen; keep the set whose finished hands rank best on
  average against the hands players end the draw with (`FINAL_VALUES`, ranked by percentile, so
  that a long shot at a quad does not outweigh a sure Force). Picks go one card at a time, lowest
  first, then DONE; the sampling is seeded by the hand, so each step of the pick has the same plan,
  which is worked out once (`planned_discard`, kept by the seed and the hand).
- The betting. Its chance of holding the best hand is the percentile of its value among finished
  hands, raised to the number of opponents still in. It bets or raises with a strong chance,
  checks or calls with a fair one or when the pot's odds pay for the call, and otherwise checks
  when it may and folds to a bet.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from cardarena.agents.base import ObservationShape
from cardarena.envs.antipoker.encode import LARGEST_VALUE, OBSERVATION_SIZE, SLICES
from cardarena.envs.antipoker.game import CALL, DONE, FOLD, NUM_ACTIONS, RAISE
from cardarena.envs.antipoker.rules import DECK, HAND_SIZE, hand_values

SHAPE = ObservationShape(OBSERVATION_SIZE, NUM_ACTIONS, "the antipoker heuristic")
SAMPLES = 48  # deals of the missing cards per way of keeping
# Hand values at the 5th, 10th, ..., 95th percentile of the hands this agent ends the draw with
# (fitted by simulating its draws from 1,500 deals of a two-player table).
FINAL_VALUES = (37, 45, 66, 88, 102, 119, 140, 156, 176, 189, 204, 223, 242, 269, 300, 330, 378, 474, 934)
RAISE_CHANCE = 0.7  # bet or raise with at least this chance of the best hand
CALL_CHANCE = 0.4  # check or call with at least this chance
_PERCENTILES = np.linspace(0.05, 0.95, len(FINAL_VALUES))
_LOG_FINALS = np.log1p(FINAL_VALUES)
_KEEPS = [[k for k in range(HAND_SIZE) if mask >> k & 1] for mask in range(1 << HAND_SIZE)]
_STAND_PAT = np.array([len(keep) for keep in _KEEPS]) * 1e-6  # between equal ranks, keep more cards
# For each keep, where its hand's cards sit in a sample's row of the six cards then six replacements
_KEEP_COLUMNS = np.array([keep + list(range(HAND_SIZE, 2 * HAND_SIZE - len(keep))) for keep in _KEEPS])


def percentile(values: np.ndarray) -> np.ndarray:
    """Where hand values rank among finished hands, 0..1 (interpolated on a log scale)."""
    return np.interp(np.log1p(values), _LOG_FINALS, _PERCENTILES, left=0.0, right=1.0)


def best_discard(hand: list[int], unseen: list[int], rng: np.random.Generator) -> list[int]:
    """The cards to discard: those whose replacement gives the best average percentile."""
    draws = np.argsort(rng.random((SAMPLES, len(unseen))), axis=1)[:, :HAND_SIZE]
    replacements = np.asarray(unseen, dtype=np.int64)[draws]
    cards = np.broadcast_to(np.asarray(hand, dtype=np.int64), (SAMPLES, HAND_SIZE))
    finished = np.concatenate([cards, replacements], axis=1)[:, _KEEP_COLUMNS].transpose(1, 0, 2)
    scores = percentile(hand_values(finished)).reshape(len(_KEEPS), SAMPLES).mean(axis=1)
    best = _KEEPS[int(np.argmax(scores + _STAND_PAT))]
    return sorted(card for k, card in enumerate(hand) if k not in best)


# Keyed by the seed and the hand, a tuple of card ids: the plan depends on those alone.
@lru_cache(maxsize=1 << 14)
def planned_discard(seed: int, hand: tuple[int, ...]) -> tuple[int, ...]:
    """The discard `best_discard` plans for `hand`, its samples seeded by the seed and the hand."""
    unseen = [card for card in range(len(DECK)) if card not in hand]
    return tuple(best_discard(list(hand), unseen, np.random.default_rng([seed, *hand])))


class AntipokerHeuristic:
    """Draws to the keep that ranks best on average; bets by its chance of the best hand."""

    name = "heuristic"

    def __init__(self, seed: int | None = None):
        self.seed = 0 if seed is None else seed

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        SHAPE.check(observation)
        obs, mask = observation["observation"], observation["action_mask"]
        if mask[DONE]:
            return self._draw(obs)
        return self._bet(obs, mask)

    def _draw(self, obs: np.ndarray) -> int:
        hand = tuple(np.flatnonzero(obs[SLICES["hand"]]).tolist())
        picked = set(np.flatnonzero(obs[SLICES["picked"]]).tolist())
        wanted = [card for card in planned_discard(self.seed, hand) if card not in picked]
        return wanted[0] if wanted else DONE

    def _bet(self, obs: np.ndarray, mask: np.ndarray) -> int:
        value = np.expm1(obs[SLICES["value"]][0] * np.log1p(LARGEST_VALUE))
        seats = obs[SLICES["in_table"]]
        opponents = int(seats[1:].sum() - obs[SLICES["folded"]][1:].sum())
        chance = float(percentile(np.array([value]))[0]) ** max(opponents, 1)
        pot_odds = float(obs[SLICES["pot_odds"]][0])
        if chance >= RAISE_CHANCE and mask[RAISE]:
            return RAISE
        if chance >= CALL_CHANCE or chance >= pot_odds or not mask[FOLD]:
            return CALL
        return FOLD


def heuristic(seed: int | None = None) -> AntipokerHeuristic:
    """The registered `antipoker/heuristic`."""
    return AntipokerHeuristic(seed)
