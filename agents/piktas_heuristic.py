"""A rule-based Piktas player that reads only its observation vector and action mask."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardarena.envs.piktas.encode import SCORE_SCALE, SLICES
from cardarena.envs.piktas.game import EXCHANGE_POSITIONS, FIRST_EXCHANGE, FOLD, MATCH, PASS, RAISE, STAY
from cardarena.envs.piktas.rules import DECK, FIRST_TRUMP, FIRST_VOID, HAND_SIZE, MIN_PLAYERS, NUM_VALUES, SUITS, is_pip, is_trump, suit_of, trump_suits, value_of

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


def _synergy_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Card -> suits it counts for, card -> value, and the card pairs that are neighbours or trump pairs."""
    suits = np.zeros((NUM_CARDS, len(SUITS)), np.float32)
    values = np.zeros((NUM_CARDS, NUM_VALUES), np.float32)
    for card in range(NUM_CARDS):
        if is_pip(card):
            suits[card, suit_of(card)] = 1.0
            values[card, value_of(card) - 1] = 1.0
        elif is_trump(card):
            suits[card, list(trump_suits(card))] = 1.0
    neighbours = [(card, card + 1) for card in range(NUM_CARDS) if is_pip(card) and value_of(card) < NUM_VALUES]
    trump_pairs = [(card, card + 1) for card in range(FIRST_TRUMP, FIRST_VOID, 2)]
    return suits, values, np.array(neighbours).T, np.array(trump_pairs).T


SUIT_OF_CARD, VALUE_OF_CARD, NEIGHBOURS, TRUMP_PAIRS = _synergy_tables()


def synergy(secured: np.ndarray) -> np.ndarray:
    """How close each row of card sets (rows of 0/1 over the deck) is to scoring: suit and value
    concentration, neighbouring values of one suit, and the two trumps of a pair."""
    suit_counts = secured @ SUIT_OF_CARD
    value_counts = secured @ VALUE_OF_CARD
    neighbours = (secured[:, NEIGHBOURS[0]] * secured[:, NEIGHBOURS[1]]).sum(axis=1)
    pairs = (secured[:, TRUMP_PAIRS[0]] * secured[:, TRUMP_PAIRS[1]]).sum(axis=1)
    return (suit_counts**2).sum(axis=1) + 2 * (value_counts**2).sum(axis=1) + 3 * neighbours + 4 * pairs


def secured_sets(seen: Decoded, actions: list[int]) -> np.ndarray:
    """Rows of 0/1 over the deck: the non-void hand cards and covered field cards after each action."""
    base = np.zeros(NUM_CARDS, np.float32)
    for card in seen.hand:
        base[card] = 1.0
    for stack in seen.positions:
        if len(stack) > 1:
            base[stack[0]] = 1.0
    base[FIRST_VOID:] = 0.0
    rows = np.repeat(base[None, :], len(actions), axis=0)
    for row, action in enumerate(actions):
        if action == PASS:
            continue
        slot, position = divmod(action - FIRST_EXCHANGE, EXCHANGE_POSITIONS)
        given, target = seen.hand[slot], seen.positions[position][0]
        rows[row, target] = 1.0
        if given < FIRST_VOID:
            rows[row, given] = 0.0
    return rows


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
        secured = seen.secured_after[legal]
        best = [action for action, score in zip(legal, secured.tolist()) if score == secured.max()]
        if len(best) == 1:
            return best[0]
        closeness = synergy(secured_sets(seen, best))
        top = [action for action, value in zip(best, closeness.tolist()) if value == closeness.max()]
        return PASS if PASS in top else top[0]

    def _bet(self, seen: Decoded, legal: list[int]) -> int:
        extra = max(0, seen.table_size - 4) * SCORE_PER_EXTRA_SEAT
        if seen.total >= RAISE_SCORE + extra and RAISE in legal:
            return RAISE
        if STAY in legal:
            return STAY
        if seen.total >= MATCH_SCORE + extra and MATCH in legal:
            return MATCH
        return FOLD
