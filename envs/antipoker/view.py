"""Rebuilding an Antipoker state from one seat's JSON view (`Game.state_from_view`)."""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal, Protocol

from cardarena.envs.core import betting
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.views import SeenLegalAction, Table, read_view, view_card
from pydantic import BaseModel, ConfigDict, Field

from . import rules
from .config import AntipokerConfig
from .draw import deal_hidden, deal_in_order, draw_in_order, draw_order
from .rules import DECK, HAND_SIZE, MAX_PLAYERS
from .state import BETTING, DRAW, OVER, PHASE_NAMES, AntipokerState, PhaseName


class AntipokerTable(Table, Protocol):
    """What rebuilding a state needs of the game (an `AntipokerGame`)."""

    @property
    def num_players(self) -> int: ...

    @property
    def config(self) -> AntipokerConfig: ...

    @property
    def betting_rules(self) -> betting.BettingRules: ...


Seat = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)
_WORDS = {"check": "call", "call": "call", "bet": "raise", "raise": "raise", "fold": "fold"}


class SeenBet(BaseModel):
    model_config = _VIEW_MODEL
    seat: Seat
    action: Literal["check", "call", "bet", "raise", "fold"]


class SeenReshuffle(BaseModel):
    model_config = _VIEW_MODEL
    seat: Seat
    cards: Annotated[int, Field(ge=0)]


class AntipokerSeatView(BaseModel):
    """The shape of Antipoker's JSON seat view (docs/protocol.md lists every field); the rules are checked on
    rebuilding."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    hand_number: Annotated[int, Field(ge=0)]
    dealer: Seat
    phase: PhaseName
    to_act: Seat | None
    hand: Annotated[list[str], Field(max_length=HAND_SIZE)]
    picked: Annotated[list[str], Field(max_length=HAND_SIZE)]
    discarded: Annotated[list[str], Field(max_length=HAND_SIZE)]
    draws: Annotated[list[Annotated[int, Field(ge=0, le=HAND_SIZE)] | None], Field(max_length=MAX_PLAYERS)]
    deck_size: Annotated[int, Field(ge=0)]
    reshuffles: list[SeenReshuffle]
    betting: list[SeenBet]
    level: Annotated[int, Field(ge=0)]
    bets_made: Annotated[int, Field(ge=0)]
    contributed: list[int]
    folded: list[Seat]
    pot: int
    totals: list[float]
    shown: dict[str, list[str]]
    returns: list[float] | None
    legal_actions: list[SeenLegalAction] | None = None


def state_from_view(game: AntipokerTable, view: dict[str, Any]) -> AntipokerState:
    """The public course of the hand replayed on a made-up deal, then every card the seat cannot
    see dealt anew around what it knows (its hand, picks and discards, the hands shown)."""
    seen = read_view(AntipokerSeatView, view, game)
    n, seat = game.num_players, seen.seat
    if len(seen.draws) != n or len(seen.totals) != n:
        raise SeatViewError(f"seat view fields 'draws' and 'totals' need one entry per seat ({n})")
    state = AntipokerState(deal_seed=0, dealer=seen.dealer, hand_number=seen.hand_number, returns=list(seen.totals))
    deal_in_order(state, n, game.config.ante)
    _replay_draws(state, seen)
    _place_own_cards(state, seen)
    phase = PHASE_NAMES.index(seen.phase)
    drawn_all = state.to_act < 0
    if phase != DRAW:
        _replay_betting(game, state, seen)
    _check_turn(state, seen, phase, drawn_all, game.config.betting)
    state.phase = phase
    if phase == OVER:
        state.to_act, state.terminal = -1, True
        shown = {_shown_seat(player, n): _cards(codes, f"shown.{player}") for player, codes in seen.shown.items()}
        state.revealed = sorted(shown)
        for player, cards in shown.items():
            if len(cards) != HAND_SIZE:
                raise SeatViewError(f"seat view field 'shown.{player}' holds {len(cards)} cards, not {HAND_SIZE}")
            if player != seat:
                state.hands[player] = sorted(cards)
    _check_each_card_once(state, seat)
    deal_hidden(state, seat, random.Random(0))
    return state


def _replay_draws(state: AntipokerState, seen: AntipokerSeatView) -> None:
    """Each seat's discard of the counted size, in the draw order from the dealer's left (4.1)."""
    n = len(state.hands)
    try:
        done = draw_in_order(state, seen.draws)
    except ValueError as error:
        raise SeatViewError(f"seat view field 'draws': {error}") from None
    if [[entry.seat, entry.cards] for entry in seen.reshuffles] != state.reshuffles or seen.deck_size != len(
        state.deck
    ):
        raise SeatViewError(
            f"seat view fields 'reshuffles' and 'deck_size' do not follow from the draws {seen.draws}: "
            f"they give {state.reshuffles} and {len(state.deck)}"
        )
    state.to_act = draw_order(state)[len(done)] if len(done) < n else -1


def _place_own_cards(state: AntipokerState, seen: AntipokerSeatView) -> None:
    """The seat's hand, picks and discards where they lie."""
    seat = seen.seat
    hand, discarded = _cards(seen.hand, "hand"), _cards(seen.discarded, "discarded")
    picked = _cards(seen.picked, "picked")
    if len(hand) != HAND_SIZE or len(discarded) != max(seen.draws[seat] or 0, 0):
        raise SeatViewError(
            f"seat view has {len(hand)} cards in 'hand' and {len(discarded)} in 'discarded'; "
            f"a seat holds {HAND_SIZE} and discarded as many as 'draws' says ({seen.draws[seat]})"
        )
    if not set(picked) <= set(hand) or (picked and state.to_act != seat):
        raise SeatViewError(
            "seat view field 'picked' holds cards not in 'hand', or picks of a seat that is not drawing"
        )
    state.hands[seat] = sorted(hand)
    state.discarded[seat] = sorted(discarded)
    state.picked = picked
    slots = [k for k, owner in enumerate(state.pile_owner) if owner == seat]
    for k, card in zip(slots, state.discarded[seat]):
        state.pile[k] = card


def _replay_betting(game: AntipokerTable, state: AntipokerState, seen: AntipokerSeatView) -> None:
    """The betting round from the view's moves, on the core engine; the antes of a hand without one."""
    n, config = len(state.hands), game.config
    if not config.betting:
        return
    bets = rules.open_betting(game.betting_rules, n, state.dealer, state.pot)
    for number, entry in enumerate(seen.betting):
        if bets.finished or bets.seat_to_act != entry.seat:
            raise SeatViewError(
                f"seat view betting[{number}] (seat {entry.seat} {entry.action}) cannot follow the moves before it"
            )
        try:
            rules.bet(bets, game.betting_rules, _WORDS[entry.action])
        except ValueError as error:
            raise SeatViewError(f"seat view betting[{number}]: {error}") from None
    state.bets = bets
    state.contributed = [config.ante + paid for paid in bets.contributions]
    state.folded, state.pot = list(bets.folded), bets.pot
    state.to_act = bets.seat_to_act if not bets.finished else -1


def _check_turn(state: AntipokerState, seen: AntipokerSeatView, phase: int, drawn_all: bool, betting: bool) -> None:
    """The view's phase and seat to act are those its draws and betting moves lead to."""
    betting_open = betting and drawn_all and state.to_act >= 0
    expected = DRAW if not drawn_all else BETTING if betting_open else OVER
    if phase != expected:
        raise SeatViewError(
            f"seat view field 'phase' is {seen.phase!r}, but its draws and betting moves lead to "
            f"{PHASE_NAMES[expected]!r}"
        )
    if (seen.to_act if seen.to_act is not None else -1) != state.to_act:
        raise SeatViewError(
            f"seat view field 'to_act' is {seen.to_act}, but its draws and betting moves give seat {state.to_act}"
        )


def _shown_seat(key: str, n: int) -> int:
    """A seat number of the `shown` object's keys."""
    if not key.isdigit() or int(key) >= n:
        raise SeatViewError(f"seat view field 'shown' names {key!r}, not a seat of this {n}-seat table")
    return int(key)


def _cards(codes: list[str], field: str) -> list[int]:
    cards = [view_card(DECK, code, field) for code in codes]
    if len(set(cards)) != len(cards):
        raise SeatViewError(f"seat view field {field!r} holds a card twice: {codes}")
    return cards


def _check_each_card_once(state: AntipokerState, seat: int) -> None:
    """The seat's hand, its discards still in the pile and the hands shown hold no card twice, and
    its discards are not in its hand (a discard taken by a reshuffle may be in a hand shown)."""
    in_pile = [card for card, owner in zip(state.pile, state.pile_owner) if owner == seat]
    places = [("hand", state.hands[seat]), ("discarded", in_pile)]
    places += [(f"shown.{player}", state.hands[player]) for player in state.revealed if player != seat]
    found: dict[int, str] = {}
    for place, cards in places:
        for card in cards:
            if card in found:
                raise SeatViewError(f"seat view holds {DECK.codes[card]} twice: in {found[card]} and in {place}")
            found[card] = place
    if set(state.discarded[seat]) & set(state.hands[seat]):
        raise SeatViewError("seat view holds a card in both 'hand' and 'discarded'")
