"""A rule-based Piktas player that reads only its observation vector and action mask."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardarena.envs.piktas.encode import SCORE_SCALE, SLICES
from cardarena.envs.piktas.game import FOLD, MATCH, PASS, RAISE, STAY, after_exchange
from cardarena.envs.piktas.rules import DECK, HAND_SIZE, MIN_PLAYERS, NUM_VALUES, SUITS, is_pip, is_trump, suit_of, trump_suits, value_of

NUM_CARDS = len(DECK)
# Betting thresholds on the final score, fitted to where a pool stands among the pools of a
# table of this agent: about the median at 4 seats, raised as the table grows.
MATCH_SCORE = 8
RAISE_SCORE = 16
SCORE_PER_EXTRA_SEAT = 1.5


@dataclass(slots=True)
class Decoded:
    """What the heuristic reads from an observation."""

    hand: list[int]  # by slot
    positions: list[list[int]]  # bottom card (or nothing) and whether a void covers it
    secured_after: np.ndarray  # secured score after each exchange action id
    total: int  # own evaluate total now
    table_size: int
    to_match: float


def decode(obs: np.ndarray) -> Decoded:
    slots = obs[SLICES["hand_slots"]].reshape(HAND_SIZE, NUM_CARDS)
    hand = [int(row.argmax()) for row in slots if row.any()]
    cards = obs[SLICES["field_positions"]].reshape(-1, NUM_CARDS)
    covered = obs[SLICES["position_covered"]]
    positions = []
    for j, exists in enumerate(obs[SLICES["position_exists"]]):
        if not exists:
            break
        stack = [int(cards[j].argmax())] if cards[j].any() else []
        positions.append(stack + ([DECK.index("V1")] if covered[j] else []))
    return Decoded(
        hand=hand,
        positions=positions,
        secured_after=np.rint(obs[SLICES["secured_after"]] * SCORE_SCALE),
        total=int(round(obs[SLICES["evaluation"]][0] * SCORE_SCALE)),
        table_size=int(obs[SLICES["table_size"]].argmax()) + MIN_PLAYERS,
        to_match=float(obs[SLICES["to_match"]][0]),
    )


def synergy(cards: list[int]) -> int:
    """How close a set of cards is to scoring: suit and value concentration, neighbours, trump pairs."""
    suit_counts = [0] * len(SUITS)
    value_counts = [0] * (NUM_VALUES + 1)
    pips = set()
    trumps = []
    for card in cards:
        if is_pip(card):
            suit_counts[suit_of(card)] += 1
            value_counts[value_of(card)] += 1
            pips.add(card)
        elif is_trump(card):
            trumps.append(card)
            for suit in trump_suits(card):
                suit_counts[suit] += 1
    neighbours = sum(1 for card in pips if value_of(card) < NUM_VALUES and card + 1 in pips)
    pairs = len(trumps) - len({trump_suits(card) for card in trumps})
    return sum(c * c for c in suit_counts) + 2 * sum(c * c for c in value_counts) + 3 * neighbours + 4 * pairs


class PiktasHeuristic:
    """Secure what scores, then bet on what is secured.

    Exchange turns: the cards in its hand and the covered field cards are the only ones no
    opponent can take, so it plays the exchange (swap, lay a void, or pass) that raises that
    *secured* score the most, read from the observation's `secured_after` (the exact scorer's
    result for every action). Ties go to the action that leaves the secured cards closest to
    scoring (suit and value concentration, neighbouring values, trump pairs), then to passing.
    Laying a void therefore covers a card it needs and clears the void that blocks a Full Hand.

    Betting round (gambling): it raises with a final score of 16 or more, matches with 8 or
    more (both thresholds 1.5 points higher for every seat beyond four), stays when it can, and
    folds otherwise.
    """

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        seen = decode(observation["observation"])
        if legal[0] >= STAY:
            return self._bet(seen, legal)
        return max(legal, key=lambda action: self._exchange_key(seen, action))

    def _exchange_key(self, seen: Decoded, action: int) -> tuple[float, int, bool]:
        hand, positions = after_exchange(seen.hand, seen.positions, action)
        secured = hand + [stack[0] for stack in positions if len(stack) > 1]
        return seen.secured_after[action], synergy(secured), action == PASS

    def _bet(self, seen: Decoded, legal: list[int]) -> int:
        extra = max(0, seen.table_size - 4) * SCORE_PER_EXTRA_SEAT
        if seen.total >= RAISE_SCORE + extra and RAISE in legal:
            return RAISE
        if STAY in legal:
            return STAY
        if seen.total >= MATCH_SCORE + extra and MATCH in legal:
            return MATCH
        return FOLD
