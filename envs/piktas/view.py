"""Rebuilding a Piktas state from one seat's JSON view (`PiktasGame.state_from_view`).

The view holds the seat's hand, the whole field, every other hand's size and the field cards it
took (public history), the deck size, the exchanges, chips and the betting round so far. The
state gives the other seats their known cards plus unseen cards, in any arrangement, and puts
the rest in the deck; the betting round is replayed to know who still has to act.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol

from cardarena.envs.core import betting
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.views import SeenLegalAction, Table, read_view, require_seats, view_card
from pydantic import BaseModel, ConfigDict, Field

from . import rules
from .config import PiktasConfig
from .rules import CARDS, FIRST_VOID, HAND_SIZE, MAX_PLAYERS, NUM_CYCLES
from .state import EXCHANGE, PHASE_NAMES, PiktasState


class PiktasTable(Table, Protocol):
    """What rebuilding a state needs of the game (a `PiktasGame`)."""

    @property
    def num_players(self) -> int: ...

    @property
    def config(self) -> PiktasConfig: ...

    def betting_rules(self) -> betting.BettingRules: ...

    def store_betting(self, state: PiktasState, bets: betting.BettingRound) -> None: ...


_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)
_ENGINE_ACTIONS = {name: action for action, name in rules.BETTING_NAMES.items()}
Seat = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
PerSeat = Annotated[list[int], Field(min_length=2, max_length=MAX_PLAYERS)]


class SeenExchange(BaseModel):
    model_config = _VIEW_MODEL
    seat: Seat
    action: Literal["pass", "swap", "void"]
    position: Annotated[int, Field(ge=0, le=5)] | None = None
    given: str | None = None
    taken: str | None = None
    void: str | None = None


class SeenBet(BaseModel):
    model_config = _VIEW_MODEL
    seat: Seat
    action: Literal["stay", "match", "raise", "fold"]


class SeenBetting(BaseModel):
    model_config = _VIEW_MODEL
    current_bet: Annotated[int, Field(ge=0)]
    contributions: PerSeat
    folded: Annotated[list[bool], Field(min_length=2, max_length=MAX_PLAYERS)]
    actions: Annotated[list[SeenBet], Field(max_length=200)]


class SeenShowdown(BaseModel):
    model_config = _VIEW_MODEL
    round: Annotated[int, Field(ge=0)]
    dealer: Seat
    field: Annotated[list[list[str]], Field(max_length=6)]
    hands: dict[str, list[str]]
    evaluations: dict[str, Annotated[list[int], Field(min_length=4, max_length=4)]]
    winners: list[Seat]
    scores: PerSeat | None = None
    payout: PerSeat | None = None


class PiktasSeatView(BaseModel):
    """The shape of Piktas's JSON seat view (docs/protocol.md); the rules are checked on rebuilding."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    round: Annotated[int, Field(ge=0)]
    dealer: Seat
    phase: Literal["exchange", "betting", "over"]
    cycle: Annotated[int, Field(ge=1, le=3)] | None
    to_act: Seat | None
    hand: Annotated[list[str], Field(max_length=HAND_SIZE)]
    field: Annotated[list[list[str]], Field(max_length=6)]
    hand_sizes: PerSeat
    deck_size: Annotated[int, Field(ge=0, le=len(rules.DECK))]
    in_round: Annotated[list[bool], Field(min_length=2, max_length=MAX_PLAYERS)]
    exchanges: Annotated[list[SeenExchange], Field(max_length=3 * MAX_PLAYERS)]
    held_from_field: Annotated[list[list[str]], Field(min_length=2, max_length=MAX_PLAYERS)]
    evaluation: Annotated[list[int], Field(min_length=4, max_length=4)]
    scores: PerSeat
    chips: PerSeat | None
    pot: Annotated[int, Field(ge=0)] | None
    betting: SeenBetting | None
    showdowns: Annotated[list[SeenShowdown], Field(max_length=1000)]
    returns: list[float] | None
    legal_actions: list[SeenLegalAction] | None = None


def state_from_view(game: PiktasTable, view: dict[str, Any]) -> PiktasState:
    """A state the seat's view could have come from (see `Game.state_from_view`)."""
    seen = read_view(PiktasSeatView, view, game)
    config, n = game.config, game.num_players
    _require_table(seen, config, n)
    hand = [view_card(CARDS, code, "hand") for code in seen.hand]
    positions = [[view_card(CARDS, code, f"field[{j}]") for code in stack] for j, stack in enumerate(seen.field)]
    held = [
        [view_card(CARDS, code, f"held_from_field[{s}]") for code in cards]
        for s, cards in enumerate(seen.held_from_field)
    ]
    _require_each_card_once(seen.seat, hand, positions, held)
    hands, deck = _deal_unseen(seen, config, hand, positions, held)
    phase = PHASE_NAMES.index(seen.phase)
    order = rules.round_order(seen.dealer, seen.in_round)
    chips = list(seen.chips) if seen.chips is not None else [config.starting_stack] * n
    state = PiktasState(
        deal_seed=0,
        dealer=seen.dealer,
        chips=chips,
        scores=list(seen.scores),
        active=list(seen.in_round),
        round_number=seen.round,
        deck=deck,
        hands=hands,
        field=positions,
        phase=phase,
        cycle=seen.cycle or NUM_CYCLES + 1,  # past the exchanges once the view shows no cycle
        order=order,
        turn=_turn(seen, order) if phase == EXCHANGE else 0,
        exchanges=[_exchange(number, record) for number, record in enumerate(seen.exchanges)],
        taken=[sorted(cards) for cards in held],
        pot=seen.pot or 0,
        folded=[not active for active in seen.in_round],
        showdowns=[_showdown(record) for record in seen.showdowns],
        returns=list(seen.returns) if seen.returns is not None else [0.0] * n,
        terminal=seen.phase == "over",
    )
    if seen.betting is not None:
        _replay_betting(game, state, seen.betting)
    if config.mode == "gambling" and state.terminal:  # paid out: the last round's start no longer shows
        state.round_start_chips = list(chips)
    elif config.mode == "gambling":
        contributions = seen.betting.contributions if seen.betting else [0] * n
        state.round_start_chips = [
            c + paid + (config.buy_in if active else 0) for c, paid, active in zip(chips, contributions, seen.in_round)
        ]
    return state


def _require_table(seen: PiktasSeatView, config: Any, n: int) -> None:
    """The view's fields fit the table its settings give (`read_view` checked them against the config)."""
    per_seat = ["hand_sizes", "in_round", "held_from_field", "scores"] + (
        ["chips"] if config.mode == "gambling" else []
    )
    require_seats(seen, n, per_seat, ("seat", "dealer", "to_act"))
    if (seen.chips is None) != (config.mode == "casual") or (seen.pot is None) != (config.mode == "casual"):
        raise SeatViewError(
            f"seat view fields 'chips' and 'pot' are given in gambling mode only (this table: {config.mode})"
        )
    if len(seen.hand) != seen.hand_sizes[seen.seat]:
        raise SeatViewError(
            f"seat view 'hand' holds {len(seen.hand)} cards but 'hand_sizes' says {seen.hand_sizes[seen.seat]}"
        )


def _require_each_card_once(seat: int, hand: list[int], positions: list[list[int]], held: list[list[int]]) -> None:
    places = [(card, "hand") for card in hand]
    places += [(card, f"field[{j}]") for j, stack in enumerate(positions) for card in stack]
    places += [(card, f"held_from_field[{s}]") for s, cards in enumerate(held) if s != seat for card in cards]
    found: dict[int, str] = {}
    for card, place in places:
        if card in found:
            raise SeatViewError(f"seat view holds {rules.DECK[card]} twice: in {found[card]} and in {place}")
        found[card] = place
    for card in held[seat]:
        if card not in hand:
            raise SeatViewError(f"seat view held_from_field[{seat}] lists {rules.DECK[card]}, which is not in 'hand'")


def _deal_unseen(
    seen: PiktasSeatView, config: Any, hand: list[int], positions: list[list[int]], held: list[list[int]]
) -> tuple[list[list[int]], list[int]]:
    """Other hands: their known cards plus unseen ones; the deck: the unseen cards left."""
    deck_cards = range(len(rules.DECK) if config.use_voids else FIRST_VOID)
    placed = set(hand) | {card for stack in positions for card in stack}
    placed |= {card for s, cards in enumerate(held) if s != seen.seat for card in cards}
    if any(card not in deck_cards for card in placed):
        raise SeatViewError("seat view holds a void, but this table plays without voids (use_voids=False)")
    unseen = [card for card in deck_cards if card not in placed]
    hands = []
    for s, size in enumerate(seen.hand_sizes):
        known = hand if s == seen.seat else held[s]
        missing = size - len(known)
        if missing < 0:
            raise SeatViewError(f"seat view: seat {s} holds {size} cards but took {len(known)} from the field")
        hands.append(sorted(known + unseen[:missing]))
        del unseen[:missing]
    if len(unseen) != seen.deck_size:
        raise SeatViewError(f"seat view 'deck_size' is {seen.deck_size}, but its cards leave {len(unseen)} in the deck")
    return hands, unseen


def _turn(seen: PiktasSeatView, order: list[int]) -> int:
    if seen.to_act not in order:
        raise SeatViewError(f"seat view 'to_act' is {seen.to_act}, not a seat in this round")
    return order.index(seen.to_act)


def _exchange(number: int, record: SeenExchange) -> list[int]:
    where = f"exchanges[{number}]"
    if record.action == "pass":
        return [record.seat, -1, -1, -1]
    if record.position is None:
        raise SeatViewError(f"seat view {where} needs a position")
    if record.action == "void":
        return [record.seat, record.position, view_card(CARDS, record.void or "", f"{where}.void"), -1]
    given = view_card(CARDS, record.given or "", f"{where}.given")
    taken = view_card(CARDS, record.taken or "", f"{where}.taken")
    return [record.seat, record.position, given, taken]


def _showdown(record: SeenShowdown) -> dict[str, Any]:
    converted: dict[str, Any] = {
        "round": record.round,
        "dealer": record.dealer,
        "field": [[view_card(CARDS, code, "showdowns.field") for code in stack] for stack in record.field],
        "hands": {
            seat: [view_card(CARDS, code, "showdowns.hands") for code in cards] for seat, cards in record.hands.items()
        },
        "evaluations": {seat: list(values) for seat, values in record.evaluations.items()},
        "winners": list(record.winners),
    }
    if record.scores is not None:
        converted["scores"] = list(record.scores)
    if record.payout is not None:
        converted["payout"] = list(record.payout)
    return converted


def _replay_betting(game: PiktasTable, state: PiktasState, seen: SeenBetting) -> None:
    """Replay the betting round's actions from its opening to know who still has to act."""
    n = game.num_players
    if len(seen.contributions) != n or len(seen.folded) != n:
        raise SeatViewError(f"seat view 'betting' needs contributions and folded for each of the {n} seats")
    stacks = [chips + paid for chips, paid in zip(state.chips, seen.contributions)]
    betting_rules = game.betting_rules()
    bets = betting.BettingRound.open(
        betting_rules, stacks, state.folded, state.order[0], state.pot - sum(seen.contributions)
    )
    for number, bet in enumerate(seen.actions):
        action = _ENGINE_ACTIONS[bet.action]
        if bets.finished or bets.seat_to_act != bet.seat or action not in bets.options(betting_rules):
            raise SeatViewError(
                f"seat view betting.actions[{number}] (seat {bet.seat} {bet.action}) cannot follow the bets before it"
            )
        bets.act(betting_rules, action)
    if (
        bets.contributions != list(seen.contributions)
        or bets.folded != list(seen.folded)
        or bets.current_bet != seen.current_bet
    ):
        raise SeatViewError("seat view 'betting': its actions do not give its current_bet, contributions and folded")
    game.store_betting(state, bets)
