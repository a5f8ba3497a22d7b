"""The draw (R3): discarding and drawing, and where the cards a seat cannot see may lie after it
(dealt again for `Game.resample_hidden` and when rebuilding a state from a seat's view)."""

from __future__ import annotations

import random

from cardarena.envs.core.cards import shuffle
from cardarena.envs.core.hidden import Place, deal_unseen

from .rules import DECK, HAND_SIZE
from .state import DRAW, AntipokerState


def discard_and_draw(state: AntipokerState, seat: int, chosen: list[int]) -> list[int]:
    """Move `chosen` from `seat`'s hand to the pile and draw as many from the top of the deck; the
    cards drawn. When the deck runs out, the pile less this seat's fresh discards is shuffled (from
    the state's seeded randomness) into a new deck (R3)."""
    hand = [card for card in state.hands[seat] if card not in chosen]
    state.pile += chosen
    state.pile_owner += [seat] * len(chosen)
    state.discarded[seat] = sorted(chosen)
    state.drawn[seat] = len(chosen)
    if len(state.deck) < len(chosen):
        fresh = len(chosen)
        moved = state.pile[:-fresh]
        shuffle(moved, f"{state.deal_seed}/{state.hand_number}/{len(state.reshuffles)}")
        state.deck += moved
        state.pile, state.pile_owner = state.pile[-fresh:], state.pile_owner[-fresh:]
        state.reshuffles.append([seat, len(moved)])
    drew, state.deck = state.deck[: len(chosen)], state.deck[len(chosen) :]
    state.hands[seat] = sorted(hand + drew)
    return drew


def deal_in_order(state: AntipokerState, n: int, ante: int) -> None:
    """A made-up deal in deck order (what each seat holds is dealt anew at the end), and the antes."""
    state.hands = [list(range(HAND_SIZE * seat, HAND_SIZE * (seat + 1))) for seat in range(n)]
    state.deck = list(range(HAND_SIZE * n, len(DECK)))
    state.discarded, state.drawn = [[] for _ in range(n)], [-1] * n
    state.contributed, state.folded, state.pot = [ante] * n, [False] * n, ante * n


def draw_order(state: AntipokerState) -> list[int]:
    """The seats in drawing order, from the dealer's left (4.1)."""
    n = len(state.hands)
    return [(state.dealer + 1 + k) % n for k in range(n)]


def draw_in_order(state: AntipokerState, counts: list[int | None]) -> list[int]:
    """Each seat with a count discards that many of its first cards and draws, in drawing order; the
    seats that drew. ValueError unless they are the first seats of the drawing order."""
    order = draw_order(state)
    done = [player for player in order if counts[player] is not None]
    if done != order[: len(done)]:
        raise ValueError(f"{counts}: the seats draw in turn from the dealer's left, {order}")
    for player in done:
        discard_and_draw(state, player, state.hands[player][: counts[player]])
    return done


def draw_position(state: AntipokerState, seat: int) -> int:
    """Where `seat` draws in this hand's order: 0 for the seat left of the dealer."""
    return (seat - state.dealer - 1) % len(state.hands)


def deal_hidden(state: AntipokerState, seat: int, rng: random.Random) -> None:
    """Deal every card `seat` cannot see anew among the places it cannot see (see `resample_hidden`)."""
    n = len(state.hands)
    shown = set(state.revealed) - {seat}
    others = [other for other in range(n) if other != seat and other not in shown]
    in_pile = {card for card, owner in zip(state.pile, state.pile_owner) if owner == seat}
    moved = frozenset(card for card in state.discarded[seat] if card not in in_pile)
    known = set(state.hands[seat]) | in_pile | {card for other in shown for card in state.hands[other]}
    unseen = [card for card in range(len(DECK)) if card not in known]
    holders, in_deck = _after_reshuffle(state, seat)
    slots = [k for k, owner in enumerate(state.pile_owner) if owner != seat]
    places = [Place(len(state.hands[other]), frozenset() if other in holders else moved) for other in others]
    places += [Place(len(state.deck), frozenset() if in_deck else moved), Place(len(slots), moved)]
    dealt = deal_unseen(unseen, places, rng)
    for other, cards in zip(others, dealt):
        state.hands[other] = sorted(cards)
    state.deck = dealt[len(others)]
    for k, card in zip(slots, dealt[-1]):
        state.pile[k] = card
    if state.phase == DRAW and state.to_act != seat and state.picked:
        state.picked = rng.sample(state.hands[state.to_act], len(state.picked))
    _redraw_discards(state, seat, rng)


def _after_reshuffle(state: AntipokerState, seat: int) -> tuple[set[int], bool]:
    """Where `seat`'s discards may lie once a reshuffle took them from the pile: the seats that drew
    from that reshuffle's deck (from its drawer to the next reshuffle's, which drew its last cards
    first), and whether the deck may still hold some (no later reshuffle). Nowhere while they are in the pile."""
    if state.drawn[seat] <= 0 or seat in state.pile_owner:
        return set(), False
    after = draw_position(state, seat)
    drawers = [draw_position(state, drawer) for drawer, _count in state.reshuffles]
    taken = next(k for k, position in enumerate(drawers) if position > after)
    last = drawers[taken + 1] if taken + 1 < len(drawers) else len(state.hands)
    holders = {
        other
        for other in range(len(state.hands))
        if state.drawn[other] > 0 and drawers[taken] <= draw_position(state, other) <= last
    }
    return holders, taken + 1 == len(drawers)


def _redraw_discards(state: AntipokerState, seat: int, rng: random.Random) -> None:
    """The other seats' discards to fit the new deal: the pile cards they own, or once a reshuffle
    took them, cards now where they may lie (`_after_reshuffle`), topped up from the cards that
    `seat` has not seen when those places run short."""
    known = set(state.discarded[seat]) | set(state.hands[seat])
    taken: set[int] = set()
    drawers = [other for other in range(len(state.hands)) if other != seat and state.drawn[other] > 0]
    for other in sorted(drawers, key=lambda other: -draw_position(state, other)):
        if other in state.pile_owner:
            state.discarded[other] = sorted(card for card, owner in zip(state.pile, state.pile_owner) if owner == other)
            continue
        holders, in_deck = _after_reshuffle(state, other)
        places = [
            *(state.deck if in_deck else []),
            *(card for holder in holders - {other} for card in state.hands[holder]),
        ]
        near = sorted(set(places) - set(state.discarded[seat]) - taken)
        chosen = rng.sample(near, min(len(near), state.drawn[other]))
        if len(chosen) < state.drawn[other]:
            wider = sorted(
                set(range(len(DECK))) - known - set(state.hands[other]) - set(state.pile) - taken - set(chosen)
            )
            chosen += rng.sample(wider, state.drawn[other] - len(chosen))
        state.discarded[other] = sorted(chosen)
        taken.update(chosen)
