"""What a move does to a seat's standing: its own score minus the best other score (section 5).

The observation carries, for the seat to act, the change each legal action makes to its standing
once the move it names takes effect, so a policy reads the table's arithmetic instead of
learning it; the heuristic judges its moves by the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import rules
from .game import (
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
from .rules import SUIT, VALUE

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


def standing_and_gains(state: ParadigmState, legal: Sequence[int]) -> tuple[int, dict[int, int]]:
    """For the seat to act in a turn: its standing now, and each legal action's change to it once its move takes effect.

    A placement (processing, or placing a card from hand) counts the card on its pile; a card
    offered in the play round counts its best placement; PASS in a cancel window counts the
    pending move carried out, and a CANCEL keeps the table as it is (0). Keeping a card in
    hand, passing the play round and the setup choices change nothing on the table (0).
    """
    seat, phase = state.to_act, state.phase
    if phase not in GAIN_PHASES:
        raise ValueError(f"standing changes are read in a turn's decisions, not in phase {phase}")
    suits = [state.suits[(seat + k) % state.num_players] for k in range(state.num_players)]
    gains = _Gains(state.table, suits)
    if phase == CANCEL:
        kind, card, _mover, destination = state.pending
        after = standing(carried_out(state.table, kind, card, destination), suits) - gains.now
        return gains.now, {action: after if action == PASS_ID else 0 for action in legal}
    if phase == PLAY:
        return gains.now, {action: gains.best(action - FIRST_CARD) if action != PASS_ID else 0 for action in legal}
    card = state.pending[1]
    return gains.now, {action: gains.of(card, action) for action in legal}


class _Gains:
    """Standing changes of single placements, from each suit's score and each pile's product."""

    def __init__(self, table: Sequence[Sequence[int]], suits: Sequence[int]):
        self.suits = suits
        self.products = {pile[-1]: rules.pile_product_ids(pile) for pile in table}
        self.scores = [0] * len(rules.SUITS)
        for top, product in self.products.items():
            self.scores[SUIT[top]] += product
        self.now = self._standing(self.scores)

    def of(self, card: int, action: int) -> int:
        """The change of placing `card` by `action` (NEW_PILE or ON_TOP); 0 for any other action."""
        scores = list(self.scores)
        if action == NEW_PILE_ID:
            scores[SUIT[card]] += VALUE[card]
        elif FIRST_ON_TOP <= action < PASS_ID:
            top = action - FIRST_ON_TOP
            product = self.products[top]
            scores[SUIT[top]] -= product
            scores[SUIT[card]] += product * VALUE[card]
        else:
            return 0
        return self._standing(scores) - self.now

    def best(self, card: int) -> int:
        """The best change among `card`'s placements: a new pile, or on a lower top (R5)."""
        options = [NEW_PILE_ID] + [FIRST_ON_TOP + top for top in self.products if VALUE[top] < VALUE[card]]
        return max(self.of(card, action) for action in options)

    def _standing(self, scores: list[int]) -> int:
        own, *others = (scores[suit] if suit >= 0 else 0 for suit in self.suits)
        return own - max(others)
