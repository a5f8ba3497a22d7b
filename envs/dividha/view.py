"""Rebuilding a Dividha state from one seat's JSON view (`DividhaGame.state_from_view`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from cardarena.envs.core.betting import BettingRound
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.views import SeenLegalAction, read_view, require_seats, view_card
from pydantic import BaseModel, ConfigDict, Field

from . import rules
from .actions import SPLITS, TRADE_CHOICES, WIN
from .state import EMPTY, NUM_SLOTS, PHASE_NAMES, PUBLIC_SLOTS, SLOT_NAMES, DividhaState
from .table import DividhaTable

_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)
Seat = Annotated[int, Field(ge=0, le=6)]
Chips = Annotated[int, Field(ge=0)]
PerSeat = Annotated[list[int], Field(min_length=2, max_length=7)]
SlotName = Literal["P1", "P2", "U1", "U2", "P3", "P4"]
UNSEEN = -2  # a place holding a card the seat has not seen, while rebuilding


class SeenAction(BaseModel):
    model_config = _VIEW_MODEL
    seat: Seat
    round: Annotated[int, Field(ge=0, le=3)]
    kind: Literal["fold", "check", "call", "raise", "trade"]
    chips: Chips
    stack: Chips
    split: Literal["WIN", "EVEN", "LOSE"] | None = None


class SeenBetting(BaseModel):
    model_config = _VIEW_MODEL
    current_bet: Chips
    contributions: PerSeat
    bets: Chips
    min_raise: Chips
    pending: Annotated[list[Seat], Field(max_length=7)]
    history: list[list[Any]]


class SeenTablet(BaseModel):
    model_config = _VIEW_MODEL
    win: Chips
    lose: Chips


class DividhaSeatView(BaseModel):
    """The shape of Dividha's JSON seat view (docs/protocol.md); the rules are checked on rebuilding."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    hand: Annotated[int, Field(ge=0)]
    dealer: Seat
    ante: Annotated[int, Field(ge=2)]
    phase: Literal["betting", "trading", "over"]
    round: Annotated[int, Field(ge=0, le=3)] | None
    to_act: Seat | None
    in_match: Annotated[list[bool], Field(min_length=2, max_length=7)]
    stacks: PerSeat
    paid: PerSeat
    folded: Annotated[list[bool], Field(min_length=2, max_length=7)]
    pot: Chips
    forfeit: Chips
    stock_size: Annotated[int, Field(ge=0, le=56)]
    cards: dict[SlotName, str | None]
    dealt: Annotated[list[list[SlotName]], Field(min_length=2, max_length=7)]
    public: Annotated[
        list[Annotated[list[str | None], Field(min_length=2, max_length=2)]], Field(min_length=2, max_length=7)
    ]
    trades: Annotated[list[list[SlotName] | None], Field(min_length=2, max_length=7)]
    traded_in: Annotated[list[list[str]], Field(min_length=2, max_length=7)]
    tablet: SeenTablet
    actions: Annotated[list[SeenAction], Field(max_length=2000)]
    betting: SeenBetting | None
    showdown: dict[str, Any] | None
    returns: list[float] | None
    truncated: bool
    legal_actions: list[SeenLegalAction] | None = None


def state_from_view(game: DividhaTable, view: dict[str, Any]) -> DividhaState:
    """A state the seat's view could have come from (see `Game.state_from_view`): the other seats'
    unseen cards and the stock are the cards the seat has not seen, their splits all `WIN`."""
    seen = read_view(DividhaSeatView, view, game)
    n, config = game.num_players, game.config
    _require_table(seen, n)
    seat = seen.seat
    cards, discards, trades = _known_cards(seen, n)
    stock = _deal_unseen(seen, cards, discards)
    over = seen.phase == "over"
    win, lose = _tablets(seen, n)
    state = DividhaState(
        deal_seed=0,
        dealer=seen.dealer,
        stacks=list(seen.stacks),
        in_match=list(seen.in_match),
        hand_number=seen.hand,
        ante=seen.ante,
        stock=stock,
        cards=cards,
        discards=discards,
        trades=trades,
        phase=PHASE_NAMES.index(seen.phase),
        betting_round=_betting_round(seen),
        folded=list(seen.folded),
        win=win,
        lose=lose,
        paid=list(seen.paid),
        pot=seen.pot,
        forfeit=seen.forfeit,
        actions=[_action(record, seat) for record in seen.actions],
        showdown=seen.showdown,
        terminal=over and (seen.returns is not None) and not seen.truncated,
        truncated=seen.truncated,
    )
    start = config.starting_stack
    played = [stack - start if over else stack + paid - start for stack, paid in zip(state.stacks, state.paid)]
    state.returns = list(seen.returns) if seen.returns is not None else [float(chips) for chips in played]
    if seen.betting is not None:
        state.bets = _betting(seen, state)
    if seen.phase == "trading":
        order = game.order(state)
        if seen.to_act not in order:
            raise SeatViewError(f"seat view 'to_act' is {seen.to_act}, not a seat still in the hand")
        state.turn = order.index(seen.to_act)
    return state


def _require_table(seen: DividhaSeatView, n: int) -> None:
    per_seat = ("in_match", "stacks", "paid", "folded", "dealt", "public", "trades", "traded_in")
    require_seats(seen, n, per_seat, ("seat", "dealer", "to_act"))
    if (seen.phase == "betting") != (seen.betting is not None):
        raise SeatViewError("seat view field 'betting' is given exactly when the phase is 'betting'")


def _known_cards(seen: DividhaSeatView, n: int) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Every seat's slots with the cards the seat knows (EMPTY where nothing is dealt, -2 where a
    card it has not seen lies), the discards likewise, and each seat's trade choice."""
    cards = [[EMPTY] * NUM_SLOTS for _ in range(n)]
    for other, names in enumerate(seen.dealt):
        for name in names:
            cards[other][SLOT_NAMES.index(name)] = UNSEEN
    shown = seen.showdown["shown"] if seen.phase == "over" and seen.showdown else {}
    for other in range(n):
        for slot, code in zip(PUBLIC_SLOTS, seen.public[other]):
            if (code is None) != (cards[other][slot] == EMPTY):
                raise SeatViewError(f"seat view 'public[{other}]' and 'dealt[{other}]' disagree on {SLOT_NAMES[slot]}")
            if code is not None:
                cards[other][slot] = view_card(rules.CARDS, code, f"public[{other}]")
    for name, code in seen.cards.items():
        slot = SLOT_NAMES.index(name)
        if (code is None) != (cards[seen.seat][slot] == EMPTY):
            raise SeatViewError(f"seat view 'cards' and 'dealt[{seen.seat}]' disagree on {name}")
        if code is not None:
            cards[seen.seat][slot] = view_card(rules.CARDS, code, f"cards.{name}")
    for other, hand in shown.items():
        _place_shown(
            cards[int(other)], [view_card(rules.CARDS, code, "showdown.shown") for code in hand["cards"]], int(other)
        )
    trades = [-1 if slots is None else _choice(slots) for slots in seen.trades]
    discards = []
    for other in range(n):
        slots = TRADE_CHOICES[trades[other]] if trades[other] >= 0 else ()
        known = [view_card(rules.CARDS, code, f"traded_in[{other}]") for code in seen.traded_in[other]]
        hidden = [slot for slot in slots if other != seen.seat and slot not in PUBLIC_SLOTS]
        if len(known) != len(slots) - len(hidden):
            raise SeatViewError(
                f"seat view 'traded_in[{other}]' lists {len(known)} cards for the trade "
                f"{list(seen.trades[other] or [])}"
            )
        known.reverse()
        discards.append([UNSEEN if slot in hidden else known.pop() for slot in slots])
    return cards, discards, trades


def _place_shown(slots: list[int], shown: list[int], seat: int) -> None:
    """Put the shown cards that are not face up into the seat's unseen private slots."""
    missing = [card for card in shown if card not in slots]
    free = [slot for slot, card in enumerate(slots) if card == UNSEEN]
    if len(missing) > len(free):
        raise SeatViewError(f"seat view 'showdown' shows more cards for seat {seat} than it holds")
    for slot, card in zip(free, missing):
        slots[slot] = card


def _choice(slots: Sequence[str]) -> int:
    wanted = tuple(SLOT_NAMES.index(name) for name in slots)
    if wanted not in TRADE_CHOICES:
        raise SeatViewError(
            f"seat view 'trades' holds {slots}, not a trade of at most two of P1 P2 U1 U2 in that order"
        )
    return TRADE_CHOICES.index(wanted)


def _deal_unseen(seen: DividhaSeatView, cards: list[list[int]], discards: list[list[int]]) -> list[int]:
    """Fill every unseen place with the cards the seat has not seen, in deck order; the rest is the stock."""
    placed = [card for pile in cards + discards for card in pile if card >= 0]
    if len(set(placed)) != len(placed):
        twice = next(card for card in placed if placed.count(card) > 1)
        raise SeatViewError(f"seat view holds {rules.DECK[twice]} twice")
    unseen = [card for card in range(len(rules.DECK)) if card not in set(placed)]
    for pile in cards + discards:
        for k, card in enumerate(pile):
            if card == UNSEEN:
                if not unseen:
                    raise SeatViewError("seat view holds more cards than the deck")
                pile[k] = unseen.pop(0)
    if len(unseen) != seen.stock_size:
        raise SeatViewError(
            f"seat view 'stock_size' is {seen.stock_size}, but its cards leave {len(unseen)} in the stock"
        )
    return unseen


def _tablets(seen: DividhaSeatView, n: int) -> tuple[list[int], list[int]]:
    """The seat's own tablet; the others' as revealed at settlement, or else all their chips on Win
    but the ante's half on Lose."""
    if seen.phase == "over" and seen.showdown:
        return list(seen.showdown["win"]), list(seen.showdown["lose"])
    lose = [seen.ante // 2 if paid else 0 for paid in seen.paid]
    win = [paid - half for paid, half in zip(seen.paid, lose)]
    win[seen.seat], lose[seen.seat] = seen.tablet.win, seen.tablet.lose
    if win[seen.seat] + lose[seen.seat] != seen.paid[seen.seat]:
        raise SeatViewError("seat view 'tablet' does not add up to the seat's 'paid'")
    return win, lose


def _action(record: Any, seat: int) -> list[Any]:
    """[seat, round, kind, chips, split, stack after] of a listed action; others' splits made WIN."""
    carries_split = record.kind in ("call", "raise") or (record.kind == "trade" and record.chips > 0)
    if record.seat == seat:
        split = SPLITS.index(record.split) if record.split is not None else -1
    else:
        split = WIN if carries_split else -1
    return [record.seat, record.round, record.kind, record.chips, split, record.stack]


def _betting_round(seen: DividhaSeatView) -> int:
    if seen.round is not None:
        return seen.round
    return 2 if seen.phase == "trading" else 3


def _betting(seen: DividhaSeatView, state: DividhaState) -> BettingRound:
    betting = seen.betting
    assert betting is not None  # read only for a view in a betting round
    return BettingRound(
        stacks=list(state.stacks),
        folded=list(state.folded),
        to_act=list(betting.pending),
        pot=state.pot,
        current_bet=betting.current_bet,
        contributions=list(betting.contributions),
        bets=betting.bets,
        min_raise=betting.min_raise,
        history=[list(entry) for entry in betting.history],
    )
