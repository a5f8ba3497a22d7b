"""What a move does to a seat's standing: its own score minus the best other score (section 5).

The observation carries, for the seat to act, the change each legal action makes to its standing
once the move it names takes effect, so a policy reads the table's arithmetic instead of
learning it; the heuristic judges its moves by the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from . import rules
from .rules import SUIT, VALUE
from .state import (
    CANCEL,
    ESSENCE,
    FIRST_CARD,
    FIRST_ON_TOP,
    NEW_PILE_ID,
    PASS_ID,
    PLACE,
    PLAY,
    PROCESS,
    TO_HAND,
    TO_NEW_PILE,
    ParadigmState,
)

GAIN_PHASES = (PROCESS, PLACE, PLAY, CANCEL)


def placed(table: Sequence[Sequence[int]], card: int, action: int) -> list[list[int]]:
    """The table after `card` goes where `action` (NEW_PILE or ON_TOP) puts it."""
    if action == NEW_PILE_ID:
        return [*map(list, table), [card]]
    top = action - FIRST_ON_TOP
    return [[*pile, card] if pile[-1] == top else list(pile) for pile in table]


def carried_out(table: Sequence[Sequence[int]], kind: int, card: int, destination: int) -> list[list[int]]:
    """The table once a pending move (`kind`, `card`, `destination`) or Essence takes effect."""
    if kind == ESSENCE:
        return rules.apply_essence_ids(table, card)
    if destination == TO_HAND:
        return [list(pile) for pile in table]
    action = NEW_PILE_ID if destination == TO_NEW_PILE else FIRST_ON_TOP + destination
    return placed(table, card, action)


def standing(table: Sequence[Sequence[int]], suits: Sequence[int]) -> int:
    """The first seat's score minus the best score of the others, seats given by their suits."""
    scores = [rules.score_ids(table, suit) for suit in suits]
    return scores[0] - max(scores[1:])


def pile_products(table: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each pile's product (R16), by its top card."""
    return {pile[-1]: rules.pile_product_ids(pile) for pile in table}


def standing_and_gains(
    state: ParadigmState, legal: Sequence[int], products: dict[int, int] | None = None
) -> tuple[int, dict[int, int]]:
    """For the seat to act in a turn: its standing now, and each legal action's change to it once its move takes effect.

    A placement (processing, or placing a card from hand) counts the card on its pile; a card
    offered in the play round counts its best placement; PASS in a cancel window counts the
    pending move carried out, and a CANCEL keeps the table as it is (0). Keeping a card in
    hand, passing the play round and the setup choices change nothing on the table (0).
    `products` are the table's `pile_products`, where the caller has them already.
    """
    seat, phase = state.to_act, state.phase
    if phase not in GAIN_PHASES:
        raise ValueError(f"standing changes are read in a turn's decisions, not in phase {phase}")
    suits = state.suits[seat:] + state.suits[:seat]
    gains = Gains(pile_products(state.table) if products is None else products, suits)
    now = gains.now
    if phase == CANCEL:
        kind, card, _mover, destination = state.pending
        after = standing(carried_out(state.table, kind, card, destination), suits) - now
        return now, {action: after if action == PASS_ID else 0 for action in legal}
    if phase == PLAY:
        best = gains.best
        return now, {action: best(action - FIRST_CARD) if action != PASS_ID else 0 for action in legal}
    of, card = gains.of, state.pending[1]
    return now, {action: of(card, action) for action in legal}


class Gains:
    """Standing changes of single placements, from each pile's product by its top card
    (`pile_products`) and the seats' suits, own first: `of` one placement, `best` a card's best.

    A placement changes at most two suits' scores: the covered pile's product leaves its top's
    suit, and the grown pile's product joins the card's suit. `scores` ends in a 0 that a seat
    without a suit (-1) reads."""

    def __init__(self, products: dict[int, int], suits: Sequence[int]):
        self.own = suits[0]
        self.other_scores = itemgetter(*suits[1:], -1)
        self.products = products
        self.scores = scores = [0] * (len(rules.SUITS) + 1)
        for top, product in products.items():
            scores[SUIT[top]] += product
        self.now = self._standing()

    def of(self, card: int, action: int) -> int:
        """The change of placing `card` by `action` (NEW_PILE or ON_TOP); 0 for any other action."""
        if action == NEW_PILE_ID:
            return self._moved(0, 0, SUIT[card], VALUE[card])
        if FIRST_ON_TOP <= action < PASS_ID:
            top = action - FIRST_ON_TOP
            product = self.products[top]
            return self._moved(SUIT[top], product, SUIT[card], product * VALUE[card])
        return 0

    def best(self, card: int) -> int:
        """The best change among `card`'s placements: a new pile, or on a lower top (R5)."""
        value, suit, moved = VALUE[card], SUIT[card], self._moved
        gain = moved(0, 0, suit, value)
        for top, product in self.products.items():
            if VALUE[top] < value:
                gain = max(gain, moved(SUIT[top], product, suit, product * value))
        return gain

    def _moved(self, loser: int, lost: int, gainer: int, gained: int) -> int:
        """The change when suit `loser` loses `lost` points and suit `gainer` gains `gained`."""
        scores = self.scores
        scores[loser] -= lost
        scores[gainer] += gained
        change = self._standing() - self.now
        scores[loser] += lost
        scores[gainer] -= gained
        return change

    def _standing(self) -> int:
        return self.scores[self.own] - max(self.other_scores(self.scores))
