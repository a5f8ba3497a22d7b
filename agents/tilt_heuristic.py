"""A rule-based Tilt player that reads only its observation vector and action mask."""

from __future__ import annotations

import numpy as np
from cardarena.agents.base import ObservationShape
from cardarena.envs.tilt.encode import OBSERVATION_SIZE, SLICES
from cardarena.envs.tilt.game import FIRST_SET, MAX_OWN, NUM_ACTIONS, VOID
from cardarena.envs.tilt.rules import CATEGORIES, RANK, is_command
from cardarena.envs.tilt.state import BET, HAUL, PHASES, SHARE_DISCARD

FOLD, CALL, RAISE = 0, 1, 2
SHAPE = ObservationShape(OBSERVATION_SIZE, NUM_ACTIONS, "the tilt heuristic")
PAIRED_BONUS = 8  # a card matching another own card's rank is worth keeping like a high card
COMMAND_BONUS = 4
WILD_VALUE = 30  # a card the Hazard in force makes wild is never thrown away
KEEP_AT = 9  # cards valued below this are junk, thrown in an exchange or passed


class TiltHeuristic:
    """Rule-based Tilt: bets its made hand's category, draws to pairs and high cards, reads the Hazard.

    Strategy (everything read from the observation vector and mask; no memory between calls, so
    one instance may sit in several seats):

    - Hand power. The observation's own best key gives the category in the table in force;
      power = category / top category (Command-type hands 1.0, Teamwork hands 0.9). Under Mutinous
      Days a low hand is strong, so power is reversed; under Inexorable Gravity a hand without an
      Orbit cannot win a contested pot and its power is cut to a tenth.
    - Betting. Facing a bet: raise at power 0.4 or more, call at 0.1 or more (in the first round
      also with a 9 or better high card: the Hazard and the draw are still to come, and the
      bet is small), fold otherwise. Not facing a bet: bet at 0.3 or more (0.1 in the first round),
      check otherwise. A Paycheck round's forced call is the only legal action.
    - Cards. Each own card has a keep value: its rank, plus 8 when it pairs another own card,
      plus 4 for a Command card; wild cards (Binary System 2s, Expendable Ranks Commands) are
      never thrown. Under Mutinous Days low unpaired cards are kept instead. An exchange,
      Saboteur discard or Shares pass throws every junk card it may (keep value below 9), lowest
      first; a discard-down throws the lowest-valued cards; a Haul keep keeps the highest-valued
      card (under Mutinous Days the lowest).
    """

    name = "heuristic"

    def reset(self) -> None:
        """Nothing to forget: every decision comes from the current observation."""

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A legal action id for the seat that sees `observation`."""
        SHAPE.check(observation)
        vector, mask = observation["observation"], observation["action_mask"]
        legal = [int(action) for action in np.flatnonzero(mask)]
        phase = PHASES[int(np.argmax(vector[SLICES["phase"]]))]
        if phase == BET:
            return self._bet(vector, legal)
        return self._cards(vector, legal, phase)

    # ------------------------------------------------------------ betting

    def _bet(self, vector: np.ndarray, legal: list[int]) -> int:
        power = hand_power(vector)
        first_round = vector[SLICES["betting_round"]][0] == 1
        facing = vector[SLICES["to_call"]][0] > 0
        if facing:
            if power >= 0.4 and RAISE in legal:
                return RAISE
            top_rank = vector[SLICES["hand_top"]][0] * 12
            if power >= 0.1 or (first_round and top_rank >= 9) or FOLD not in legal:
                return CALL
            return FOLD
        if power >= (0.1 if first_round else 0.3) and RAISE in legal:
            return RAISE
        return CALL

    # ------------------------------------------------------------ card decisions

    def _cards(self, vector: np.ndarray, legal: list[int], phase: str) -> int:
        own = [int(card) for card in np.flatnonzero(vector[SLICES["own_thumb"]] + vector[SLICES["own_palm"]])]
        values = keep_values(own, vector)
        if phase == HAUL:
            return max(legal, key=lambda action: sum(values[slot] for slot in _slots(action)))
        if phase == SHARE_DISCARD:
            return min(legal, key=lambda action: sum(values[slot] for slot in _slots(action)))
        return max(
            legal, key=lambda action: (sum(KEEP_AT - values[slot] for slot in _slots(action)), -len(_slots(action)))
        )


def hand_power(vector: np.ndarray) -> float:
    """How strong the seat's best hand is now, 0 (weakest category) to 1 (Command-type)."""
    categories = vector[SLICES["hand_category"]]
    if not categories.any():
        return 0.0
    base = int(np.argmax(categories))
    tier = int(np.argmax(vector[SLICES["hand_tier"]]))
    orbit, reversed_order, _short = vector[SLICES["hand_flags"]]
    hazards = vector[SLICES["hazard_row"]]
    top_category = len(CATEGORIES[_table_size(hazards)]) - 1
    if tier == 2:
        power = 1.0
    elif tier == 1 and not reversed_order:
        power = 0.9
    else:
        power = base / top_category
        if reversed_order:
            power = 1.0 - power - vector[SLICES["hand_top"]][0] / 4
    if (hazards[VOID["GRAV"]] or vector[SLICES["gravity_carried"]][0]) and not orbit:
        power *= 0.1
    return max(0.0, min(1.0, power))


def keep_values(own: list[int], vector: np.ndarray) -> list[float]:
    """Each own card's keep value (slot order: own cards by card index)."""
    hazards = vector[SLICES["hazard_row"]]
    mutiny = bool(hazards[VOID["MUTI"]])
    ranks = [RANK[card] for card in own]
    values: list[float] = []
    for card, rank in zip(own, ranks, strict=True):
        paired = ranks.count(rank) > 1
        if (hazards[VOID["BINY"]] and rank == 2 and not is_command(card)) or (
            hazards[VOID["EXPD"]] and is_command(card)
        ):
            values.append(WILD_VALUE)
        elif mutiny:
            values.append(13 - rank - (PAIRED_BONUS if paired else 0))
        else:
            values.append(rank + (PAIRED_BONUS if paired else 0) + (COMMAND_BONUS if is_command(card) else 0))
    return values


def _slots(action: int) -> list[int]:
    m = action - FIRST_SET
    return [slot for slot in range(MAX_OWN) if m >> slot & 1]


def _table_size(hazards: np.ndarray) -> int:
    if hazards[VOID["STSH"]]:
        return 6
    return 3 if hazards[VOID["ENGB"]] else 4


def heuristic(seed: int | None = None) -> TiltHeuristic:
    """The registered `tilt/heuristic` (deterministic: the seed is not needed)."""
    return TiltHeuristic()
