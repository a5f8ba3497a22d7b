"""Antipoker as a state machine: antes, the deal, the draw, one betting round, the showdown; hands of a match.

Follows ../shared/rules/antipoker.md (rulings R1-R21). The draw's discard is a pick of a subset
(core picks.py), the betting round the core engine (rules.betting_rules) and the pot the core
settlement with exact splits (rules.payouts).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any, ClassVar

from cardarena.envs.core import betting
from cardarena.envs.core.cards import hand_seed, shuffle
from cardarena.envs.core.config import MAX_BETS, MAX_CHIPS, MAX_HANDS, GameConfig
from cardarena.envs.core.game import Game
from cardarena.envs.core.hidden import Place, deal_unseen
from cardarena.envs.core.history import RESULT, emit, seen_by
from cardarena.envs.core.picks import PickActions, PickRule, PickState
from pydantic import Field

from . import rules
from .rules import DECK, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS

DONE, FOLD, CALL, RAISE = 45, 46, 47, 48
NUM_ACTIONS = RAISE + 1
WORD_OF_ID = {FOLD: "fold", CALL: "call", RAISE: "raise"}
ID_OF_WORD = {word: action for action, word in WORD_OF_ID.items()}
PICKS = PickActions(DECK, 0, DONE)

DRAW, BETTING, OVER = range(3)
PHASE_NAMES = ("draw", "betting", "over")


class AntipokerConfig(GameConfig):
    """Antipoker's settings (the rulebook's variants), in the suite's vocabulary."""

    renamed: ClassVar[dict[str, str]] = {"bet_cap": "max_bets"}

    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 2
    num_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 1
    betting: bool = True
    ante: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 1
    bet_size: Annotated[int, Field(ge=1, le=MAX_CHIPS)] = 2
    max_bets: Annotated[int, Field(ge=1, le=MAX_BETS)] = 4


@dataclass(slots=True)
class AntipokerState:
    """Everything about one episode. Cards are deck indices; hands are kept sorted."""

    deal_seed: int
    dealer: int
    hand_number: int = 0
    hands: list[list[int]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # top card first
    pile: list[int] = field(default_factory=list)  # the discard pile, bottom first
    pile_owner: list[int] = field(default_factory=list)  # who discarded each pile card
    picked: list[int] = field(default_factory=list)  # the drawing seat's picks so far, in order
    discarded: list[list[int]] = field(default_factory=list)  # each seat's discards this hand (its own secret)
    drawn: list[int] = field(default_factory=list)  # cards each seat discarded and drew; -1 before its draw
    reshuffles: list[list[int]] = field(default_factory=list)  # [drawing seat, cards shuffled into the deck]
    phase: int = DRAW
    to_act: int = -1
    bets: betting.BettingRound | None = None  # the betting round, kept after it ends until the next hand
    contributed: list[int] = field(default_factory=list)  # chips each seat put in this hand, ante included
    folded: list[bool] = field(default_factory=list)
    pot: int = 0
    revealed: list[int] = field(default_factory=list)  # seats whose hands were shown at the last showdown
    returns: list[float] = field(default_factory=list)  # net chips so far (the running totals)
    terminal: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)  # the hand history (core history.py)


class AntipokerGame(Game[AntipokerState]):
    name = "antipoker"
    version = 1
    deck = DECK
    config_cls = AntipokerConfig
    state_cls = AntipokerState
    num_actions = NUM_ACTIONS
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    conformance_modes = ({}, {"betting": False}, {"num_hands": 3})
    config: AntipokerConfig

    def __init__(self, config: AntipokerConfig):
        super().__init__(config)
        self.betting_rules = rules.betting_rules(config.bet_size, config.max_bets)

    @property
    def num_players(self) -> int:
        return self.config.num_players

    def new_state(self, seed: int) -> AntipokerState:
        n = self.num_players
        state = AntipokerState(deal_seed=seed, dealer=n - 1, returns=[0.0] * n)
        self._start_hand(state)
        return state

    def current_player(self, state: AntipokerState) -> int:
        return state.to_act

    def legal_actions(self, state: AntipokerState) -> list[int]:
        if state.phase == DRAW:
            return PICKS.legal_actions(_discard_rule(state), PickState(state.picked))
        if state.phase == BETTING:
            return [
                ID_OF_WORD[word] for word in rules.legal_words(state.bets, self.betting_rules, self._choices(state))
            ]
        return []

    def apply(self, state: AntipokerState, action: int) -> None:
        if state.phase == DRAW:
            picks = PickState(state.picked)
            chosen = PICKS.apply(_discard_rule(state), picks, action)
            state.picked = picks.picked
            if chosen is not None:
                self._draw(state, chosen)
        else:
            self._bet(state, WORD_OF_ID[action])

    def returns(self, state: AntipokerState) -> list[float]:
        return state.returns

    def is_terminal(self, state: AntipokerState) -> bool:
        return state.terminal

    def is_truncated(self, state: AntipokerState) -> bool:
        return False

    def max_decisions(self) -> int:
        """Per hand each seat's draw (six picks and DONE), and a betting round in which each of
        the `max_bets` bets and raises makes the other seats act again."""
        n, config = self.num_players, self.config
        betting_turns = n + config.max_bets * (n - 1) if config.betting else 0
        return ((HAND_SIZE + 1) * n + betting_turns) * config.num_hands

    def hands_played(self, state: AntipokerState) -> int:
        return state.hand_number

    def conserved(self, state: AntipokerState) -> dict[str, Any]:
        """The 45 cards (hands, deck, discard pile) and the chips: the pot is what the seats put in,
        and the running totals sum to zero (rounded: a pot split three ways is not exact in floats)."""
        cards = sorted([card for hand in state.hands for card in hand] + state.deck + state.pile)
        return {"cards": cards, "chips": [state.pot - sum(state.contributed), round(sum(state.returns), 6) + 0.0]}

    def resample_hidden(self, state: AntipokerState, seat: int, rng: random.Random) -> AntipokerState:
        """Deal again the other seats' hands, the deck (and its later reshuffles) and the discards
        of other seats still in the pile; pick again a drawing seat's marked cards from its new hand.

        Kept: `seat`'s hand, its picks and its discards; where its discards lie while they are in the
        pile, and once a reshuffle took them, that they are in a hand that drew from that reshuffle's
        deck or still in the deck (R3); the hands shown at a finished showdown; every public count
        (cards discarded and drawn, reshuffles, the pile, the deck); the betting; the history as
        `seat` knows it. The other seats' own discards are drawn to fit the new deal.
        """
        twin = self.clone(state)
        twin.deal_seed = rng.getrandbits(63)
        deal_hidden(twin, seat, rng)
        twin.log = seen_by(state.log, seat)
        return twin

    def action_label(self, state: AntipokerState, action: int) -> str:
        return _decode(state, action)[0]

    def action_details(self, state: AntipokerState, action: int) -> dict[str, Any]:
        """Kind `pick` (the card), `done` (the cards picked, discarded face down), or the betting
        kinds `fold`, `check`, `call`, `bet`, `raise` (no cards)."""
        return _decode(state, action)[1]

    def public_label(self, state: AntipokerState, action: int, label: str) -> str:
        """Discards are face down (R4): the others see "pick" and "done", not the cards."""
        return label.split()[0] if state.phase == DRAW else label

    def event_log(self, state: AntipokerState) -> list[dict[str, Any]]:
        return state.log

    def clone(self, state: AntipokerState) -> AntipokerState:
        return AntipokerState(
            deal_seed=state.deal_seed,
            dealer=state.dealer,
            hand_number=state.hand_number,
            hands=[hand[:] for hand in state.hands],
            deck=state.deck[:],
            pile=state.pile[:],
            pile_owner=state.pile_owner[:],
            picked=state.picked[:],
            discarded=[cards[:] for cards in state.discarded],
            drawn=state.drawn[:],
            reshuffles=[entry[:] for entry in state.reshuffles],
            phase=state.phase,
            to_act=state.to_act,
            bets=state.bets.clone() if state.bets is not None else None,
            contributed=state.contributed[:],
            folded=state.folded[:],
            pot=state.pot,
            revealed=state.revealed[:],
            returns=state.returns[:],
            terminal=state.terminal,
            log=state.log[:],
        )

    def state_from_json(self, data: dict[str, Any]) -> AntipokerState:
        state = super().state_from_json(data)
        state.bets = betting.BettingRound.read_field(state.bets, self.env_id)
        return state

    def state_from_view(self, view: dict[str, Any]) -> AntipokerState:
        """A state that `view`'s seat could be in (see `Game.state_from_view`): view.py rebuilds it."""
        from .view import state_from_view

        return state_from_view(self, view)

    # ------------------------------------------------------------ the hand (sections 3 and 4)

    def _start_hand(self, state: AntipokerState) -> None:
        """Antes, a fresh shuffle and six cards each, one at a time from the dealer's left (3)."""
        n, ante = self.num_players, self.config.ante
        stock = DECK.shuffled(hand_seed(state.deal_seed, state.hand_number))
        first = (state.dealer + 1) % n
        dealt = n * HAND_SIZE
        state.hands = [sorted(stock[(seat - first) % n : dealt : n]) for seat in range(n)]
        state.deck = stock[dealt:]
        state.pile, state.pile_owner, state.picked = [], [], []
        state.discarded = [[] for _ in range(n)]
        state.drawn = [-1] * n
        state.reshuffles = []
        state.phase, state.to_act, state.bets = DRAW, first, None
        state.contributed, state.folded, state.pot = [ante] * n, [False] * n, ante * n
        state.revealed = []
        hand = state.hand_number
        emit(state.log, hand, "start", dealer=state.dealer, ante=ante, pot=state.pot)
        for seat in ((first + k) % n for k in range(n)):
            emit(state.log, hand, "deal", seat, {"cards": DECK.codes_of(state.hands[seat])}, count=HAND_SIZE)

    def _draw(self, state: AntipokerState, chosen: list[int]) -> None:
        """The drawing seat discards its picks face down and draws as many from the top of the deck (4.1)."""
        seat = state.to_act
        reshuffles_before = len(state.reshuffles)
        drew = discard_and_draw(state, seat, chosen)
        for drawer, count in state.reshuffles[reshuffles_before:]:
            emit(state.log, state.hand_number, "reshuffle", drawer, cards=count)
        private = {"discarded": DECK.codes_of(chosen), "drew": DECK.codes_of(drew)} if chosen else None
        emit(state.log, state.hand_number, "draw", seat, private, count=len(chosen))
        n = self.num_players
        if seat != state.dealer:
            state.to_act = (seat + 1) % n
        elif self.config.betting:
            bets = rules.open_betting(self.betting_rules, n, state.dealer, state.pot)
            state.phase, state.bets, state.to_act = BETTING, bets, bets.seat_to_act
        else:
            self._end_hand(state)

    def _choices(self, state: AntipokerState) -> dict[str, int]:
        """The open betting decision's engine choices, kept by the round until it acts."""
        return state.bets.decision(self._engine_choices)

    def _engine_choices(self, bets: betting.BettingRound) -> dict[str, int]:
        return bets.choices(self.betting_rules)

    def _bet(self, state: AntipokerState, word: str) -> None:
        choices = self._choices(state)
        bets = state.bets
        rules.bet(bets, self.betting_rules, word, choices)
        state.contributed = [self.config.ante + paid for paid in bets.contributions]
        state.folded, state.pot = list(bets.folded), bets.pot
        if bets.finished:
            self._end_hand(state)
        else:
            state.to_act = bets.seat_to_act

    def _end_hand(self, state: AntipokerState) -> None:
        """The showdown and the pot (4.3, 6): nets to the running totals; the next hand of a match or the end."""
        n = self.num_players
        live = [seat for seat in range(n) if not state.folded[seat]]
        state.revealed = live if len(live) > 1 else []
        values = {seat: sum(rules.parts_of_ids(tuple(state.hands[seat]))) for seat in state.revealed}
        keys = [values.get(seat) for seat in range(n)]
        payout = rules.payouts(state.contributed, state.folded, keys, state.dealer)
        nets = [paid - put for paid, put in zip(payout, state.contributed)]
        state.returns = [total + net for total, net in zip(state.returns, nets)]
        winners = rules.best_seats(values) if values else live
        emit(
            state.log,
            state.hand_number,
            RESULT,
            dealer=state.dealer,
            shown={str(seat): DECK.codes_of(state.hands[seat]) for seat in state.revealed},
            values={str(seat): value for seat, value in values.items()},
            folded=[seat for seat in range(n) if state.folded[seat]],
            betting=betting_record(state),
            contributed=list(state.contributed),
            pot=state.pot,
            winners=winners,
            payouts=payout,
            rewards=nets,
            totals=list(state.returns),
        )
        state.hand_number += 1
        if state.hand_number < self.config.num_hands:
            state.dealer = (state.dealer + 1) % n
            self._start_hand(state)
        else:
            state.phase, state.to_act, state.terminal = OVER, -1, True


def _discard_rule(state: AntipokerState) -> PickRule:
    """Any subset of the drawing seat's hand, none to all six, closed by DONE (R2, R5)."""
    return _any_subset_of(tuple(state.hands[state.to_act]))


# Keyed by the hand, a tuple of card ids; the rule is frozen, so sharing it is safe.
@lru_cache(maxsize=1 << 12)
def _any_subset_of(hand: tuple[int, ...]) -> PickRule:
    return PickRule(frozenset(hand))


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


def betting_record(state: AntipokerState) -> list[dict[str, Any]]:
    """The hand's betting actions in order, in the rulebook's words: check, call, bet, raise, fold."""
    if state.bets is None:
        return []
    record, raised = [], False
    for seat, move in state.bets.history:
        word = {betting.FOLD: "fold", betting.CHECK: "check", betting.CALL: "call"}.get(move)
        if word is None:
            word, raised = ("raise" if raised else "bet"), True
        record.append({"seat": seat, "action": word})
    return record


def _decode(state: AntipokerState, action: int) -> tuple[str, dict[str, Any]]:
    """An action id at this decision point: its label and its details (`Game.action_details`)."""
    if PICKS.is_pick(action):
        card = DECK.codes[action]
        return f"pick {card}", {"kind": "pick", "cards": [card]}
    if action == DONE:
        cards = [DECK.codes[card] for card in state.picked]
        return " ".join(["done", *cards]), {"kind": "done", "cards": cards}
    if action in WORD_OF_ID and state.phase == BETTING:
        bets = state.bets
        owes = bets.current_bet > bets.contributions[state.to_act]
        word = {FOLD: "fold", CALL: "call" if owes else "check", RAISE: "raise" if bets.bets else "bet"}[action]
        return word, {"kind": word, "cards": []}
    if action in WORD_OF_ID:
        return WORD_OF_ID[action], {"kind": WORD_OF_ID[action], "cards": []}
    return f"unknown action {action}", {"kind": "unknown", "cards": []}
