"""What a Dividha seat cannot see (the hidden-information table), dealt again for
`DividhaGame.resample_hidden`."""

from __future__ import annotations

import random

from cardarena.envs.core.hidden import Place, deal_unseen

from . import rules
from .actions import EVEN, LOSE, SPLITS, TRADE_CHOICES, WIN
from .state import EMPTY, OVER, PUBLIC_SLOTS, DividhaState
from .table import DividhaTable


def deal_hidden_again(game: DividhaTable, state: DividhaState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, what `seat` has not seen: the other seats' private cards (in their
    slots and among the cards they traded in), the stock's order, the deals of later hands, and,
    before the hand is settled, the split of every other seat's payments.

    Kept: the seat's own cards and trades, every public card (dealt face up, or traded in from a
    public slot), which slots each seat traded, every amount paid; once the hand is settled, the
    cards each seat showed and every seat's Win and Lose stakes (revealed at settlement).
    """
    state.deal_seed = rng.getrandbits(63)
    others = [other for other in range(game.num_players) if other != seat]
    hidden_slots = {other: _hidden_slots(state, other) for other in others}
    hidden_discards = {other: _hidden_discards(state, other) for other in others}
    unseen = [state.cards[other][slot] for other in others for slot in hidden_slots[other]]
    unseen += [state.discards[other][k] for other in others for k in hidden_discards[other]] + state.stock
    places = [Place(len(hidden_slots[other])) for other in others]
    places += [Place(len(hidden_discards[other])) for other in others] + [Place(len(state.stock))]
    dealt = deal_unseen(unseen, places, rng)
    for other, cards in zip(others, dealt):
        for slot, card in zip(hidden_slots[other], cards):
            state.cards[other][slot] = card
    for other, cards in zip(others, dealt[len(others) :]):
        for k, card in zip(hidden_discards[other], cards):
            state.discards[other][k] = card
    state.stock = dealt[-1]
    if state.phase != OVER:
        _split_again(game, state, seat, rng)


def _hidden_slots(state: DividhaState, other: int) -> list[int]:
    """`other`'s dealt private slots, less the cards it showed at a settled showdown."""
    shown = (
        state.showdown["shown"].get(str(other), {}).get("cards", []) if state.phase == OVER and state.showdown else []
    )
    return [
        slot
        for slot, card in enumerate(state.cards[other])
        if card != EMPTY and slot not in PUBLIC_SLOTS and rules.DECK[card] not in shown
    ]


def _hidden_discards(state: DividhaState, other: int) -> list[int]:
    """Positions in `other`'s discards of the cards it traded in from private slots."""
    choice = state.trades[other]
    slots = TRADE_CHOICES[choice] if choice >= 0 else ()
    return [k for k, slot in enumerate(slots) if slot not in PUBLIC_SLOTS]


def _split_again(game: DividhaTable, state: DividhaState, seat: int, rng: random.Random) -> None:
    """Draw every other seat's splits again (each one its action could have carried) and rewrite its tablet."""
    for other in range(game.num_players):
        if other != seat:
            state.win[other] = state.lose[other] = state.ante // 2 if state.paid[other] else 0
    for record in state.actions:
        actor, _round, kind, chips, split, stack_after = record
        if actor == seat or split < 0:
            continue
        choices = (
            [WIN, LOSE] if game.config.all_in_unsplit and kind != "trade" and stack_after == 0 else [WIN, EVEN, LOSE]
        )
        record[4] = rng.choice(choices)
        win, lose = rules.split_chips(chips, SPLITS[record[4]])
        state.win[actor] += win
        state.lose[actor] += lose
