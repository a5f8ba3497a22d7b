"""What a Piktas seat cannot see (rulebook section 9), dealt again for `PiktasGame.resample_hidden`."""

from __future__ import annotations

import random

from cardarena.envs.core.hidden import Place, deal_unseen

from .state import PiktasState


def deal_hidden_again(state: PiktasState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, the cards of other hands that `seat` has not seen, the deck's order
    and the deals of later rounds.

    Kept: the seat's own hand, the field, every hand's size and the deck's size; the field cards
    each other seat took and still holds (a card given back to the field is public again); at
    the end of the episode, the hands shown at the last showdown (folded hands stay hidden).
    """
    state.deal_seed = rng.getrandbits(63)
    others = [other for other in range(len(state.hands)) if other != seat]
    known = {other: _known_cards(state, other) for other in others}
    unseen = [card for other in others for card in state.hands[other] if card not in known[other]] + state.deck
    places = [Place(len(state.hands[other]) - len(known[other])) for other in others] + [Place(len(state.deck))]
    dealt = deal_unseen(unseen, places, rng)
    for other, cards in zip(others, dealt):
        state.hands[other] = sorted(known[other] + cards)
    state.deck = dealt[-1]


def _known_cards(state: PiktasState, other: int) -> list[int]:
    """Cards of `other`'s hand that every seat knows: its whole hand once shown at the episode's
    last showdown, otherwise the field cards it took and still holds."""
    shown = state.showdowns[-1]["hands"] if state.terminal else {}
    return list(shown.get(str(other), state.taken[other]))
