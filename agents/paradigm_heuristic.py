"""A rule-based Paradigm player that reads only its observation vector and action mask."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from cardarena.agents.base import ObservationShape
from cardarena.envs.paradigm.encode import OBSERVATION_SIZE, SLICES
from cardarena.envs.paradigm.game import (
    CANCEL,
    FIRST_CANCEL,
    FIRST_CARD,
    HAND_ID,
    MAX_PLAYERS,
    NUM_ACTIONS,
    PASS_ID,
    PLACE,
    PLAY,
    PROCESS,
    START,
    SUIT_PHASE,
    TO_HAND,
    TO_NEW_PILE,
    UNDECIDED,
)
from cardarena.envs.paradigm.rules import NUM_NUMBERED, SUITS, VALUE, card_id, error_starts_ids, score_ids
from cardarena.envs.paradigm.standing import Gains, carried_out, pile_products, standing

SHAPE = ObservationShape(OBSERVATION_SIZE, NUM_ACTIONS, "the paradigm heuristic")
SMALLEST_CANCEL = 12  # a move that costs less than this relative score is not worth an Error
CANCEL_SHARE = 0.25  # ... nor one that costs less than this share of the player's own score
ERROR_CARD_KEEP = 2.0  # a card of an Error is played only for a gain above this many times its value
ENDGAME_DECK = 2  # with this few cards left to reveal, nothing is kept back


@dataclass(slots=True)
class TableView:
    """One seat's knowledge decoded from its observation; seats are relative (0 = self, clockwise)."""

    num_players: int
    suits: list[int]  # per rel seat, -1 before it is chosen
    hands: list[list[int]]  # per rel seat, card ids
    table: list[list[int]]  # piles bottom first, in no particular order
    phase: int
    pending_kind: int
    pending_card: int
    pending_destination: int
    deck_size: int

    def standing(self, table: list[list[int]]) -> int:
        """Own score minus the best other score on `table`."""
        return standing(table, self.suits)

    def gains(self) -> Gains:
        """Each placement's change to the standing on the table as it is."""
        return Gains(pile_products(self.table), self.suits)

    def own_score(self) -> int:
        return score_ids(self.table, self.suits[0])


def _segment(observation: np.ndarray, name: str) -> np.ndarray:
    return observation[SLICES[name]]


def read_view(observation: np.ndarray) -> TableView:
    """Decode the seat-relative observation vector (see encode.SLICES)."""
    n = int(_segment(observation, "seated").sum())
    suit_rows = _segment(observation, "suit").reshape(MAX_PLAYERS, len(SUITS))[:n]
    suits = np.where(suit_rows.any(axis=1), suit_rows.argmax(axis=1), -1).tolist()
    hands: list[list[int]] = [[] for _ in range(n)]
    seats, values = np.nonzero(_segment(observation, "hand").reshape(MAX_PLAYERS, 10)[:n])
    for seat, value in zip(seats.tolist(), values.tolist(), strict=True):
        hands[seat].append(card_id(suits[seat], value + 1))
    pending = _segment(observation, "pending_card")
    kind = _segment(observation, "pending_kind")
    destination = _segment(observation, "pending_destination")
    return TableView(
        num_players=n,
        suits=suits,
        hands=hands,
        table=_piles(observation),
        phase=int(_segment(observation, "phase").argmax()),
        pending_kind=int(kind.argmax()) if kind.any() else -1,
        pending_card=int(pending.argmax()) if pending.any() else -1,
        pending_destination=_destination(destination),
        deck_size=round(float(_segment(observation, "deck_size")[0]) * 45),
    )


def _piles(observation: np.ndarray) -> list[list[int]]:
    """The piles, rebuilt from each table card's link to the card under it."""
    on_table = np.flatnonzero(_segment(observation, "on_table"))
    below_suits = _segment(observation, "below_suit").reshape(NUM_NUMBERED, len(SUITS))[on_table].argmax(axis=1)
    below_values = np.rint(_segment(observation, "below_value")[on_table] * 10).astype(int)
    under = {
        card: card_id(suit, value)
        for card, suit, value in zip(on_table.tolist(), below_suits.tolist(), below_values.tolist(), strict=True)
        if value
    }
    covered = set(under.values())
    piles = []
    for top in on_table.tolist():
        if top in covered:
            continue
        pile = [top]
        while pile[-1] in under:
            pile.append(under[pile[-1]])
        piles.append(pile[::-1])
    return piles


def _destination(segment: np.ndarray) -> int:
    if not segment.any():
        return UNDECIDED
    index = int(segment.argmax())
    return TO_HAND if index == 0 else TO_NEW_PILE if index == 1 else index - 2


class ParadigmHeuristic:
    """Rule-based Paradigm: grab the biggest swing in relative score, keep Errors for big threats.

    Strategy (everything read from the observation vector and mask; no memory between calls, so
    one instance may sit in several seats). Every move is judged by the *standing*: its own score
    minus the best opponent's score on the table it leaves.

    - Suit: the first suit offered. Starting card: the highest (harder to cover, worth more).
    - A revealed card: the placement (new pile, or on top of a lower pile, its own to multiply or
      an opponent's to capture) with the best standing. It goes to hand instead when that
      completes an Error, or sits next to a card in hand towards one, and no placement gains
      more than twice (or once) its face value: Errors are the only defence.
    - Play round: the hand card whose best placement gains most, if it gains anything; a card of
      an Error is kept unless it gains more than twice its value; at the end of the deck
      everything goes out (cards in hand score nothing). The placement is the best one again.
    - Cancel window: spend an Error when the pending move or Essence would cost at least 12
      points of standing and a quarter of its own score, or anything at all once the deck is
      nearly out.
    """

    name = "heuristic"

    def reset(self) -> None:
        """Nothing to forget: every decision comes from the current observation."""

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A legal action id for the seat that sees `observation`."""
        SHAPE.check(observation)
        legal = [int(action) for action in np.flatnonzero(observation["action_mask"])]
        view = read_view(observation["observation"])
        if view.phase in (SUIT_PHASE, START):
            return legal[0] if view.phase == SUIT_PHASE else legal[-1]
        if view.phase == PROCESS:
            return self._process(view, legal)
        if view.phase == PLACE:
            return _best_placement(view, view.pending_card, legal)[0]
        if view.phase == PLAY:
            return self._play(view, legal)
        if view.phase == CANCEL:
            return self._cancel(view, legal)
        return legal[0]

    def _process(self, view: TableView, legal: list[int]) -> int:
        card = view.pending_card
        action, gain = _best_placement(view, card, [a for a in legal if a != HAND_ID])
        hand = view.hands[0]
        completes = len(error_starts_ids([*hand, card])) > len(error_starts_ids(hand))
        near = any(abs(VALUE[card] - VALUE[other]) <= 2 for other in hand)
        keep_up_to = ERROR_CARD_KEEP * VALUE[card] if completes else VALUE[card] if near else -1
        if view.deck_size > ENDGAME_DECK and gain <= keep_up_to:
            return HAND_ID
        return action

    def _play(self, view: TableView, legal: list[int]) -> int:
        hand = view.hands[0]
        in_error = {VALUE[card] + k for card in hand for k in range(3) if VALUE[card] in error_starts_ids(hand)}
        endgame = view.deck_size <= ENDGAME_DECK
        gains = view.gains()
        best, best_gain = PASS_ID, 0.0
        for action in legal:
            if action == PASS_ID:
                continue
            card = action - FIRST_CARD
            gain = gains.best(card)
            if VALUE[card] in in_error and not endgame and gain <= ERROR_CARD_KEEP * VALUE[card]:
                continue
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def _cancel(self, view: TableView, legal: list[int]) -> int:
        cost = view.standing(view.table) - view.standing(
            carried_out(view.table, view.pending_kind, view.pending_card, view.pending_destination)
        )
        endgame = view.deck_size <= ENDGAME_DECK
        worth = cost >= max(SMALLEST_CANCEL, CANCEL_SHARE * view.own_score())
        if cost > 0 and (worth or endgame):
            return next(action for action in legal if action >= FIRST_CANCEL)
        return PASS_ID


def _best_placement(view: TableView, card: int, options: list[int]) -> tuple[int, float]:
    """The placement among `options` with the best standing, and what it gains over now."""
    gains = view.gains()
    gain, action = max(
        ((gains.of(card, action), action) for action in options), key=lambda entry: (entry[0], -entry[1])
    )
    return action, gain


def heuristic(seed: int | None = None) -> ParadigmHeuristic:
    """The registered `paradigm/heuristic` (deterministic: the seed is not needed)."""
    return ParadigmHeuristic()
