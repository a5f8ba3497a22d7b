"""A rule-based Dividha player that reads only its observation vector and action mask."""

from __future__ import annotations

import numpy as np
from cardarena.agents.base import ObservationShape
from cardarena.envs.dividha import rules
from cardarena.envs.dividha.actions import (
    CHECK,
    FOLD,
    LOSE,
    NUM_ACTIONS,
    TRADE,
    TRADE_CHOICES,
    WIN,
    call_id,
    paid_trade_id,
    raise_id,
)
from cardarena.envs.dividha.deck import FIRST_HEAVEN, GOD, HIGH, SUM
from cardarena.envs.dividha.game import MIN_PLAYERS, NUM_CARDS
from cardarena.envs.dividha.layout import IMMORTAL_SCALE, OBSERVATION_SIZE, SLICES
from cardarena.envs.dividha.state import NUM_SLOTS

SHAPE = ObservationShape(OBSERVATION_SIZE, NUM_ACTIONS, "the dividha heuristic")
EVEN = 1
DEFAULT_TABLE = 4
# How often a hand ends best and worst at a 4-seat table (no trades), by the cards held now (2, 4
# or 6), the category of their best hand (capped) and the immortal cards in its combination
# (capped at 2): 20,000 random deals, rounded.
CHANCES = {
    (2, 0): ((0.23, 0.28), (0.21, 0.28), (0.21, 0.25)),
    (2, 1): ((0.37, 0.18), (0.46, 0.06), (0.60, 0.02)),
    (4, 0): ((0.17, 0.40), (0.13, 0.42), (0.12, 0.37)),
    (4, 1): ((0.27, 0.23), (0.30, 0.11), (0.51, 0.02)),
    (4, 2): ((0.52, 0.01), (0.49, 0.01), (0.55, 0.01)),
    (4, 3): ((0.61, 0.00), (0.71, 0.00), (0.80, 0.00)),
    (6, 0): ((0.00, 1.00), (0.00, 0.95), (0.00, 0.71)),
    (6, 1): ((0.01, 0.48), (0.08, 0.20), (0.27, 0.04)),
    (6, 2): ((0.35, 0.03), (0.34, 0.02), (0.43, 0.01)),
    (6, 3): ((0.47, 0.01), (0.62, 0.00), (0.73, 0.00)),
    (6, 4): ((0.81, 0.00), (0.84, 0.00), (0.88, 0.00)),
}
TOP_CATEGORY = {2: 1, 4: 3, 6: 4}  # categories above these count as the top row of their cards held
RAISE_CHANCE = 0.5  # raise on a side this likely to win it
CALL_CHANCE = 0.3  # call on it from this chance; below, only cheap calls (see CHEAP_CALL)
CHEAP_CALL = 0.15  # call anyway when the call is at most this share of the pot after calling
SIDE_MARGIN = 0.1  # a side is chosen when its chance exceeds the other's by this much


class DividhaHeuristic:
    """Bet on the side the hand is likely to win: Win for the best hand, Lose for the worst.

    From the observation it reads its cards and its hand key now, and looks up how often such a
    hand (cards held, category, immortal cards in the combination) ends as the table's best and
    as its worst (`CHANCES`, measured at 4 seats and converted to the table's size as if each
    opponent were beaten independently). The likelier side is its *side*: Win if the chance of the
    best hand exceeds that of the worst by 0.1, Lose the other way round, otherwise none.

    Betting: every chip it pays goes on its side (EVEN without a side). With a side of chance 0.5
    or more it bets or raises the minimum; from 0.3 it calls; otherwise it checks, calls a bet that
    costs at most 15% of the pot after calling (EVEN), and folds to anything bigger. So a hand that
    looks like the table's worst (a High Card of mortal cards with six cards, a weak start) is
    staked on Lose and pressed, and a strong one on Win.

    Trading: on the Win side it trades in up to two cards that its best hand does not use
    (lowest sum value first, never a wild card); on the Lose side it trades in up to two cards that
    make its hand better (wild cards, then immortal cards, then paired cards); with no side it
    trades nothing. With Pay-to-Trade it pays only with a side and at most two antes' worth.
    """

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        SHAPE.check(observation)
        legal = set(np.flatnonzero(observation["action_mask"]).tolist())
        obs = observation["observation"]
        best, worst = self.chances(obs)
        side = WIN if best >= worst + SIDE_MARGIN else LOSE if worst >= best + SIDE_MARGIN else None
        if TRADE in legal:
            return self._trade(obs, legal, side)
        return self._bet(obs, legal, side, max(best, worst) if side is not None else 0.0)

    def chances(self, obs: np.ndarray) -> tuple[float, float]:
        """The chances that the hand ends as the table's best and as its worst."""
        held = round(float(obs[SLICES["held"]][0]) * NUM_SLOTS)
        seats = int(obs[SLICES["table_size"]].argmax()) + MIN_PLAYERS
        if held not in TOP_CATEGORY:
            return 1 / seats, 1 / seats
        category = min(int(obs[SLICES["category"]].argmax()), TOP_CATEGORY[held])
        immortal = min(round(float(obs[SLICES["key"]][1]) * IMMORTAL_SCALE), 2)
        best, worst = CHANCES[(held, category)][immortal]
        exponent = (seats - 1) / (DEFAULT_TABLE - 1)
        return best**exponent, worst**exponent

    def _bet(self, obs: np.ndarray, legal: set[int], side: int | None, chance: float) -> int:
        split = EVEN if side is None else side
        if chance >= RAISE_CHANCE and raise_id(0, split) in legal:
            return raise_id(0, split)
        if CHECK in legal:
            return CHECK
        to_call = float(obs[SLICES["to_call"]][0])
        pot = float(obs[SLICES["pot"]][0])
        cheap = to_call <= CHEAP_CALL * (pot + to_call)
        if chance >= CALL_CHANCE or cheap:
            for choice in (split, WIN, LOSE):
                if call_id(choice) in legal:
                    return call_id(choice)
        return FOLD

    def _trade(self, obs: np.ndarray, legal: set[int], side: int | None) -> int:
        if side is None:
            return TRADE
        slots = obs[SLICES["own_slots"]].reshape(NUM_SLOTS, NUM_CARDS)
        cards = {slot: int(slots[slot].argmax()) for slot in range(4) if slots[slot].any()}
        chosen = self._keep_best(cards) if side == WIN else self._spoil(cards)
        choice = TRADE_CHOICES.index(tuple(sorted(chosen)))
        if TRADE + choice in legal:
            return TRADE + choice
        for size in (2, 1):  # Pay-to-Trade: as many of the chosen cards as the stack pays for
            option = tuple(sorted(chosen))[:size]
            if option and paid_trade_id(TRADE_CHOICES.index(option), side) in legal:
                return paid_trade_id(TRADE_CHOICES.index(option), side)
        return TRADE

    def _keep_best(self, cards: dict[int, int]) -> list[int]:
        """Up to two slots whose cards the best hand of the four does not use (wild cards kept)."""
        _key, used = rules.showdown_ids(list(cards.values()))
        spare = [slot for slot, card in cards.items() if card not in used and card < GOD]
        return sorted(spare, key=lambda slot: SUM[cards[slot]])[:2]

    def _spoil(self, cards: dict[int, int]) -> list[int]:
        """Up to two slots whose cards make the hand better: wild cards, immortal cards, paired cards."""
        ranks = [HIGH[card] for card in cards.values()]

        def harm(slot: int) -> tuple[bool, bool, bool]:
            card = cards[slot]
            return card >= GOD, card >= FIRST_HEAVEN, ranks.count(HIGH[card]) > 1

        return sorted((slot for slot in cards if any(harm(slot))), key=harm, reverse=True)[:2]


def heuristic(seed: int | None = None) -> DividhaHeuristic:
    """The registered `dividha/heuristic` (deterministic: the seed is not needed)."""
    return DividhaHeuristic()
