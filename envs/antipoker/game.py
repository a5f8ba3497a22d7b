"""Antipoker as a state machine: antes, the deal, the draw, one betting round, the showdown; hands of a match.

Follows ../shared/rules/antipoker.md (rulings R1-R21). The draw's discard is a pick of a subset
(core picks.py), the betting round the core engine (rules.betting_rules) and the pot the core
settlement with exact splits (rules.payouts).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from cardarena.envs.core import betting
from cardarena.envs.core.cards import hand_seed
from cardarena.envs.core.game import Game
from cardarena.envs.core.history import RESULT, emit, seen_by
from cardarena.envs.core.picks import PickActions, PickRule, PickState

from . import rules
from .config import AntipokerConfig
from .draw import deal_hidden, discard_and_draw
from .rules import DECK, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from .state import BETTING, DRAW, OVER, AntipokerState
from .view import state_from_view

DONE, FOLD, CALL, RAISE = 45, 46, 47, 48
NUM_ACTIONS = RAISE + 1
WORD_OF_ID = {FOLD: "fold", CALL: "call", RAISE: "raise"}
ID_OF_WORD = {word: action for action, word in WORD_OF_ID.items()}
PICKS = PickActions(DECK, 0, DONE)


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
