"""Rebuilding a Tilt state from one seat's JSON view, and dealing again what a seat cannot see (section 9).

The seat view (encode.py) is the state with every hidden card replaced by a count: other seats'
Palms (until shown), the stock, the discard pile, the face-down Fine Print hand and Chicken card,
the Saboteur pile, the Signal and the Void deck. The betting round, the plan and the turn order
are public and copied as they are.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal, Protocol

from cardarena.envs.core.betting import BettingRound
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.hidden import Place, deal_unseen
from cardarena.envs.core.views import SeenLegalAction, Table, read_view, require_seats, view_card
from pydantic import BaseModel, ConfigDict, Field

from .config import DECK, MAX_PLAYERS, NUM_CARDS, VOID, TiltConfig
from .state import PHASES, STEPS, TiltState


class TiltTable(Table, Protocol):
    """What rebuilding and dealing again need of the game (a `TiltGame`)."""

    @property
    def num_players(self) -> int: ...

    @property
    def config(self) -> TiltConfig: ...


_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)
Seat = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
Chips = Annotated[int, Field(ge=0)]
PerSeat = Annotated[list[Chips], Field(min_length=2, max_length=MAX_PLAYERS)]
Cards = Annotated[list[str], Field(max_length=NUM_CARDS)]


Phase = Literal["auto", "bet", "exchange", "sabotage", "share_pass", "share_discard", "haul", "over"]


class SeenMove(BaseModel):
    model_config = _VIEW_MODEL
    phase: Phase
    round: Annotated[int, Field(ge=0, le=3)]
    seat: Seat
    value: Annotated[int, Field(ge=0, le=7)]


class SeenBetting(BaseModel):
    """The open betting round: the game's rules for it and the core engine's round fields."""

    model_config = _VIEW_MODEL
    unit: Chips
    max_bets: Annotated[int, Field(ge=1)]
    fold: Literal["facing_bet", "never"]
    committed: PerSeat
    stacks: PerSeat
    folded: list[bool]
    to_act: list[Seat]
    pot: Chips
    current_bet: Chips
    contributions: PerSeat
    bets: Chips
    min_raise: Chips
    history: list[
        Annotated[list[Seat | Literal["fold", "check", "call", "raise_min"]], Field(min_length=2, max_length=2)]
    ]


class TiltSeatView(BaseModel):
    """The shape of Tilt's JSON seat view (docs/protocol.md); the cards are checked on rebuilding."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    hand_number: Chips
    dealer: Seat
    phase: Phase
    plan: Annotated[list[str], Field(max_length=len(STEPS) + 2)]
    to_act: Seat | None
    stacks: PerSeat
    contributions: PerSeat
    carried: PerSeat
    folded: list[bool]
    in_hand: list[bool]
    thumbs: list[Cards]
    palm: Cards
    palm_sizes: list[Annotated[int, Field(ge=0, le=7)]]
    shown: list[Cards | None]
    stock: Chips
    discard_pile: Chips
    void_deck: Chips
    hazards: Annotated[list[str], Field(max_length=len(VOID))]
    gravity_carried: bool
    signal_face_down: bool
    fine_print: Cards | Chips
    chicken: Cards | Chips
    tariffs: Cards
    grid: Cards
    sabotage_pile: Chips
    exchange_kind: str | None
    paycheck_unit: Chips | None
    betting_round: Annotated[int, Field(ge=0, le=3)]
    betting: SeenBetting | None
    last_bettor: Seat | None
    order: list[Seat]
    turn: Chips
    counts: list[Chips]
    keep: str | None
    moves: list[SeenMove]
    own_discards: Cards
    passed: Cards
    received: Cards
    thumb_discards: Cards
    returns: list[float] | None
    legal_actions: list[SeenLegalAction] | None = None


def state_from_view(game: TiltTable, view: dict[str, Any]) -> TiltState:
    """A state the seat's view could have come from (see `Game.state_from_view`)."""
    seen = read_view(TiltSeatView, view, game)
    n = game.num_players
    _require_table(seen, n)
    cards = _Cards()
    thumbs = [cards.take(codes, f"thumbs[{s}]") for s, codes in enumerate(seen.thumbs)]
    palms: list[list[int] | None] = [None] * n
    palms[seen.seat] = cards.take(seen.palm, "palm")
    for other, shown in enumerate(seen.shown):
        if shown is not None and other != seen.seat:
            shown_cards = [view_card(DECK, code, f"shown[{other}]") for code in shown]
            palms[other] = cards.take([DECK.codes[c] for c in shown_cards if c not in thumbs[other]], f"shown[{other}]")
    revealed = any(shown is not None for shown in seen.shown)
    fine = cards.take(seen.fine_print, "fine_print") if isinstance(seen.fine_print, list) else None
    chicken = cards.take(seen.chicken, "chicken") if isinstance(seen.chicken, list) else None
    tariffs, grid = cards.take(seen.tariffs, "tariffs"), cards.take(seen.grid, "grid", keep_order=True)
    unseen = [card for card in range(NUM_CARDS) if card not in cards.placed]
    sizes = [seen.palm_sizes[s] if palms[s] is None else 0 for s in range(n)]
    sizes += [
        seen.stock,
        seen.discard_pile,
        seen.sabotage_pile,
        0 if isinstance(seen.fine_print, list) else seen.fine_print,
        0 if isinstance(seen.chicken, list) else seen.chicken,
    ]
    if sum(sizes) != len(unseen):
        raise SeatViewError(f"seat view counts {sum(sizes)} hidden cards, but its cards leave {len(unseen)} unseen")
    piles = [unseen[sum(sizes[:k]) : sum(sizes[: k + 1])] for k in range(len(sizes))]
    full_palms = [palm if (palm := palms[s]) is not None else piles[s] for s in range(n)]
    stock, discards, sabotage, fine_down, chicken_down = piles[n:]
    row = [_void(code, "hazards") for code in seen.hazards]
    void_deck, signal = _voids(game, seen, row)
    keeps = _keeps(seen, thumbs, full_palms, n)
    state = TiltState(
        deal_seed=0,
        dealer=seen.dealer,
        stacks=list(seen.stacks),
        carry=list(seen.carried),
        hand_number=seen.hand_number,
        thumbs=thumbs,
        palms=full_palms,
        stock=stock,
        discards=discards,
        void_deck=void_deck,
        row=row,
        gravity=seen.gravity_carried,
        signal=signal,
        fine=fine if fine is not None else fine_down,
        chicken=chicken if chicken is not None else chicken_down,
        tariffs=tariffs,
        grid=grid,
        sabotage_pile=sabotage,
        revealed=revealed,
        contributions=list(seen.contributions),
        folded=list(seen.folded),
        in_hand=list(seen.in_hand),
        plan=list(seen.plan),
        phase=seen.phase,
        order=list(seen.order),
        turn=seen.turn,
        exchange_kind=seen.exchange_kind or "",
        paycheck_unit=-1 if seen.paycheck_unit is None else seen.paycheck_unit,
        betting_round=seen.betting_round,
        last_bettor=-1 if seen.last_bettor is None else seen.last_bettor,
        counts=list(seen.counts),
        keeps=keeps,
        moves=bytearray(
            value for move in seen.moves for value in (PHASES.index(move.phase), move.round, move.seat, move.value)
        ),
        own_discards=[_known(seen.own_discards, "own_discards") if s == seen.seat else [] for s in range(n)],
        passed=[_known(seen.passed, "passed") if s == seen.seat else [] for s in range(n)],
        received=[_known(seen.received, "received") if s == seen.seat else [] for s in range(n)],
        thumb_discards=_known(seen.thumb_discards, "thumb_discards"),
        returns=list(seen.returns) if seen.returns is not None else [0.0] * n,
        terminal=seen.returns is not None,
    )
    if seen.betting is not None:
        _restore_betting(state, seen.betting)
    return state


class _Cards:
    """Cards read from a view, each at most once."""

    def __init__(self) -> None:
        self.placed: dict[int, str] = {}

    def take(self, codes: list[str], field: str, keep_order: bool = False) -> list[int]:
        found = []
        for code in codes:
            card = view_card(DECK, code, field)
            if card in self.placed:
                raise SeatViewError(f"seat view holds {code} twice: in {self.placed[card]} and in {field}")
            self.placed[card] = field
            found.append(card)
        return found if keep_order else sorted(found)


def _require_table(seen: TiltSeatView, n: int) -> None:
    per_seat = ("stacks", "contributions", "carried", "folded", "in_hand", "thumbs", "palm_sizes", "shown", "counts")
    require_seats(seen, n, per_seat, ("seat", "dealer", "to_act", "last_bettor"))
    if seen.phase not in PHASES or any(step not in STEPS for step in seen.plan):
        raise SeatViewError(f"seat view phase {seen.phase!r} or plan {seen.plan} names no phase or step of Tilt")
    if len(seen.palm) != seen.palm_sizes[seen.seat]:
        raise SeatViewError(
            f"seat view 'palm' holds {len(seen.palm)} cards but 'palm_sizes' says {seen.palm_sizes[seen.seat]}"
        )


def _void(code: str, field: str) -> int:
    if code not in VOID:
        raise SeatViewError(f"seat view field {field!r}: {code!r} is not a Void card code")
    return VOID[code]


def _voids(game: TiltTable, seen: TiltSeatView, row: list[int]) -> tuple[list[int], int]:
    """The Void deck and the face-down Signal: Void cards of the table not face up, in any order."""
    if not game.config.void_deck:
        return [], -1
    out = set(row) | ({VOID["GRAV"]} if seen.gravity_carried else set())
    unseen = [void for void in game.config.void_indices if void not in out]
    if len(unseen) != seen.void_deck + seen.signal_face_down:
        raise SeatViewError(
            f"seat view 'void_deck' is {seen.void_deck}, but its Void cards leave {len(unseen)} face down"
        )
    return (unseen[1:], unseen[0]) if seen.signal_face_down else (unseen, -1)


def _keeps(seen: TiltSeatView, thumbs: list[list[int]], palms: list[list[int]], n: int) -> list[int]:
    """The seat's own Haul keep, and for the seats that chose before it any card of theirs."""
    keeps = [-1] * n
    if seen.phase == "haul":
        for other in seen.order[: seen.turn]:
            own = palms[other] + thumbs[other]
            keeps[other] = own[0] if own else -1
    if seen.keep is not None:
        keeps[seen.seat] = view_card(DECK, seen.keep, "keep")
    return keeps


def _known(codes: list[str], field: str) -> list[int]:
    return sorted(view_card(DECK, code, field) for code in codes)


def _restore_betting(state: TiltState, betting: SeenBetting) -> None:
    fields = betting.model_dump()
    state.bet_rules = [fields.pop("unit"), fields.pop("max_bets"), fields.pop("fold")]
    state.committed = fields.pop("committed")
    state.bets = BettingRound.from_json(fields)


# ---------------------------------------------------------------- resampling (Game.resample_hidden)


def deal_hidden_again(game: TiltTable, state: TiltState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, every card `seat` cannot see and whose place it cannot know.

    Dealt again: the cards of other seats' Palms (until shown at showdown), the stock, the discard
    pile, the Saboteur pile, a face-down Fine Print hand and Chicken card; the Void deck and a
    face-down Signal; other seats' pending Haul keeps; the seed of later shuffles and hands.
    Kept where they are: the seat's own cards, every face-up card, and the cards whose fate the
    seat knows (those it discarded or passed, and the Thumb cards seen going to the discard pile).
    Each hidden card keeps its place's size; every other seat's record of the cards it discarded,
    passed or received follows its cards to their new identities, so each seat's knowledge stays
    true in the new deal.
    """
    state.deal_seed = rng.getrandbits(63)
    n = game.num_players
    tracked = set(state.own_discards[seat]) | set(state.passed[seat]) | set(state.thumb_discards)
    places = [
        state.palms[other] for other in range(n) if other != seat and not (state.revealed and not state.folded[other])
    ]
    places += [state.stock, state.discards, state.sabotage_pile]
    places += [pile for pile in (state.fine, state.chicken) if not state.revealed]
    records = [
        record
        for other in range(n)
        if other != seat
        for record in (state.own_discards[other], state.passed[other], state.received[other])
    ]

    def known_of(card: int) -> tuple[int, ...]:
        """What `seat` knows of an unseen card: the other seats' records that name it."""
        return tuple(k for k, record in enumerate(records) if card in record)

    # slots pile by pile, each pile's ordered by what the seat knows of its card (ties: interchangeable cards)
    slots = [
        (pile, i)
        for pile in places
        # by (knowledge, card), then position: the order a stable sort by (knowledge, card) keeps
        for _known, _card, i in sorted((known_of(card), card, i) for i, card in enumerate(pile) if card not in tracked)
    ]
    old = [pile[i] for pile, i in slots]
    new = deal_unseen(old, [Place(len(old))], rng)[0]
    renamed = dict(zip(old, new))
    for (pile, i), card in zip(slots, new):
        pile[i] = card
    for pile in (state.stock, state.discards, state.sabotage_pile):  # face down: their true order must not show
        pile.sort()
        rng.shuffle(pile)
    if not state.revealed:
        state.fine.sort()  # face-down hands: sets
        state.chicken.sort()
    for other in range(n):
        state.palms[other].sort()
    for other in range(n):
        if other != seat:
            for record in (state.own_discards[other], state.passed[other], state.received[other]):
                record[:] = sorted(renamed.get(card, card) for card in record)  # the seat knows these as a set at most
            if state.keeps and state.keeps[other] >= 0:
                state.keeps[other] = rng.choice(state.thumbs[other] + state.palms[other])
    voids = sorted(state.void_deck + ([state.signal] if state.signal >= 0 else []))  # their true order must not show
    rng.shuffle(voids)
    if state.signal >= 0:
        state.signal = voids.pop()
    state.void_deck = voids
