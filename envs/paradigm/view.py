"""Reading a Paradigm seat view back into a state (`ParadigmGame.state_from_view`).

Every card but the deck's order is public (R8), so the view holds the whole state but that order:
the rebuilt state takes the unseen cards as its deck, in deck order.
"""

from __future__ import annotations

from typing import Annotated, Any, Protocol

from cardarena.envs.core.decks.scarp import Suit
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.views import Table, read_view, view_card
from pydantic import BaseModel, ConfigDict, Field

from . import rules
from .encode import ParadigmEncoder
from .rules import DECK, SUITS
from .state import (
    MAX_PLAYERS,
    OVER,
    PENDING_NAMES,
    PHASE_NAMES,
    TO_HAND,
    TO_NEW_PILE,
    UNDECIDED,
    ParadigmState,
    PendingName,
    PhaseName,
)


class ParadigmTable(Table, Protocol):
    """What rebuilding a state needs of the game (a `ParadigmGame`)."""

    @property
    def num_players(self) -> int: ...

    def legal_actions(self, state: ParadigmState) -> list[int]: ...


Seat = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
PerSeat = Annotated[list, Field(min_length=2, max_length=MAX_PLAYERS)]
_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)


class SeenPending(BaseModel):
    model_config = _VIEW_MODEL
    kind: PendingName
    card: str
    mover: Seat | None
    destination: str | None


class ParadigmSeatView(BaseModel):
    """The shape of Paradigm's JSON seat view (docs/protocol.md lists every field); the rest is checked on the
    rebuilt state."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    phase: PhaseName
    to_act: Seat | None
    turn: Annotated[int, Field(ge=0)]
    lead: Seat
    suits: Annotated[list[Suit | None], Field(min_length=2, max_length=MAX_PLAYERS)]
    unowned: list[Suit]
    deck_size: Annotated[int, Field(ge=0, le=len(DECK))]
    setup_revealed: list[str]
    table: list[Annotated[list[str], Field(min_length=1)]]
    controllers: list[Seat | None]
    hands: Annotated[list[list[str]], Field(min_length=2, max_length=MAX_PLAYERS)]
    discard: list[str]
    revealed: str | None
    pending: SeenPending | None
    window_start: Seat | None
    round_seat: Seat | None
    scores: Annotated[list[int], Field(min_length=2, max_length=MAX_PLAYERS)]
    returns: Annotated[list[float], Field(min_length=2, max_length=MAX_PLAYERS)] | None
    legal_actions: list[Any] | None = None


def state_from_view(game: ParadigmTable, view: dict[str, Any]) -> ParadigmState:
    """The state the view shows, its deck the unseen cards in deck order; SeatViewError names a
    field that does not fit the game or the rest of the view."""
    seen = read_view(ParadigmSeatView, view, game)
    n = game.num_players
    for name in ("suits", "hands", "scores"):
        if len(getattr(seen, name)) != n:
            raise SeatViewError(
                f"seat view field {name!r} has {len(getattr(seen, name))} entries; this table has {n} seats"
            )
    state = ParadigmState(
        seed=0,
        num_players=n,
        suits=[SUITS.index(suit) if suit is not None else -1 for suit in seen.suits],
        deck=[],
        phase=PHASE_NAMES.index(seen.phase),
        to_act=seen.to_act if seen.to_act is not None else -1,
        setup_revealed=[_card(code, "setup_revealed") for code in seen.setup_revealed],
        table=[_pile(pile, number) for number, pile in enumerate(seen.table)],
        hands=[sorted(_card(code, f"hands[{seat}]") for code in hand) for seat, hand in enumerate(seen.hands)],
        discard=[_card(code, "discard") for code in seen.discard],
        turn=seen.turn,
        revealed=_card(seen.revealed, "revealed") if seen.revealed is not None else -1,
        pending=_pending(seen.pending),
        window_start=_seat(seen.window_start, n, "window_start"),
        round_seat=_seat(seen.round_seat, n, "round_seat"),
        returns=list(seen.returns) if seen.returns is not None else [0.0] * n,
        terminal=seen.phase == PHASE_NAMES[OVER],
    )
    state.deck = _unseen(state, seen.deck_size)
    _check_rebuilt(game, state, seen, view)
    return state


def _card(code: str, field: str) -> int:
    return view_card(DECK, code, field)


def _pile(codes: list[str], number: int) -> list[int]:
    try:
        rules.pile_product(codes)
    except ValueError as err:
        raise SeatViewError(f"seat view field 'table[{number}]': {err}") from None
    return [_card(code, f"table[{number}]") for code in codes]


def _seat(seat: int | None, n: int, field: str) -> int:
    if seat is not None and seat >= n:
        raise SeatViewError(f"seat view field {field!r} is seat {seat}; this table has seats 0..{n - 1}")
    return seat if seat is not None else -1


def _pending(pending: SeenPending | None) -> list[int]:
    if pending is None:
        return []
    where = pending.destination
    if where is None:
        destination = UNDECIDED
    elif where == rules.HAND:
        destination = TO_HAND
    elif where == rules.NEW_PILE:
        destination = TO_NEW_PILE
    else:
        destination = _card(where, "pending.destination")
    mover = pending.mover if pending.mover is not None else -1
    return [PENDING_NAMES.index(pending.kind), _card(pending.card, "pending.card"), mover, destination]


def _unseen(state: ParadigmState, deck_size: int) -> list[int]:
    """The cards in no place the view shows: the deck, whose size the view gives."""
    placed = state.setup_revealed + state.discard + [card for pile in state.table for card in pile]
    placed += [card for hand in state.hands for card in hand] + state.pending[1:2]
    if len(set(placed)) != len(placed):
        twice = next(card for card in placed if placed.count(card) > 1)
        raise SeatViewError(f"seat view holds {DECK.codes[twice]} in two places")
    unseen = [card for card in range(len(DECK)) if card not in set(placed)]
    if len(unseen) != deck_size:
        raise SeatViewError(
            f"seat view field 'deck_size' is {deck_size}, but {len(unseen)} cards are in no other place"
        )
    return unseen


def _check_rebuilt(game: ParadigmTable, state: ParadigmState, seen: ParadigmSeatView, view: dict[str, Any]) -> None:
    """The rebuilt state shows the view again, and its seat to act has a decision by the rules."""
    again = ParadigmEncoder(game).seat_view(state, seen.seat)  # type: ignore[arg-type]  # the encoder reads only what ParadigmTable has
    for key, value in again.items():
        if view.get(key) != value:
            raise SeatViewError(
                f"seat view field {key!r} is {view.get(key)!r}, but the rest of the view gives {value!r}"
            )
    if (state.to_act >= 0) != (state.phase != OVER) or (state.to_act >= 0 and not game.legal_actions(state)):
        raise SeatViewError(
            f"seat view has seat {seen.to_act} to act in phase {seen.phase!r}, which the rules never give"
        )
