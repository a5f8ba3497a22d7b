"""Piktas as a state machine: deal, three exchange cycles, (betting), showdown; rounds of a match.

Follows ../shared/rules/piktas.md; section numbers below refer to it.
"""

from __future__ import annotations

import random
from typing import Any

from cardarena.envs.core import betting, settlement
from cardarena.envs.core.cards import hand_seed, sampled
from cardarena.envs.core.game import Game
from cardarena.envs.core.history import seen_by

from . import rules
from .config import PiktasConfig
from .exchange import (
    NUM_EXCHANGE_ACTIONS,
    PASS,
    describe_exchange,
    legal_exchange_ids,
    play_exchange,
    slot_and_position,
)
from .hidden import deal_hidden_again
from .history import log_field_position, log_result, log_round_start
from .rules import CARDS, DECK, FIRST_VOID, MAX_PLAYERS, MIN_PLAYERS
from .state import BETTING, EXCHANGE, OVER, PiktasState
from .view import state_from_view

NUM_CYCLES = 3
STAY, MATCH, RAISE, FOLD = range(NUM_EXCHANGE_ACTIONS, NUM_EXCHANGE_ACTIONS + 4)
NUM_ACTIONS = FOLD + 1
BETTING_IDS = {
    betting.CHECK: STAY,
    betting.CALL: MATCH,
    betting.RAISE_MIN: RAISE,
    betting.FOLD: FOLD,
}  # engine action -> id
BETTING_ACTIONS = {action: name for name, action in BETTING_IDS.items()}


class PiktasGame(Game[PiktasState]):
    name = "piktas"
    version = 1
    deck = CARDS
    config_cls = PiktasConfig
    state_cls = PiktasState
    num_actions = NUM_ACTIONS
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    conformance_modes = (
        {},
        {"mode": "gambling"},
        {"mode": "gambling", "num_hands": 20, "starting_stack": 20, "buy_in": 10},
        {"num_hands": 3},
    )
    config: PiktasConfig

    @property
    def num_players(self) -> int:
        return self.config.num_players

    def new_state(self, seed: int) -> PiktasState:
        n, config = self.num_players, self.config
        state = PiktasState(
            deal_seed=seed,
            dealer=config.dealer,
            chips=[config.starting_stack] * n,
            scores=[0] * n,
            active=[True] * n,
            returns=[0.0] * n,
        )
        self._start_round(state)
        return state

    def current_player(self, state: PiktasState) -> int:
        if state.phase == EXCHANGE:
            return state.order[state.turn]
        if state.phase == BETTING:
            return state.bets["to_act"][0]
        return -1

    def legal_actions(self, state: PiktasState) -> list[int]:
        if state.phase == EXCHANGE:
            return legal_exchange_ids(state.hands[state.order[state.turn]], state.field)
        if state.phase == BETTING:
            return sorted(BETTING_IDS[name] for name in self._betting(state).options(self.betting_rules()))
        return []

    def apply(self, state: PiktasState, action: int) -> None:
        if state.phase == EXCHANGE:
            self._exchange(state, action)
        else:
            self._bet(state, action)

    def returns(self, state: PiktasState) -> list[float]:
        return state.returns

    def is_terminal(self, state: PiktasState) -> bool:
        return state.terminal

    def is_truncated(self, state: PiktasState) -> bool:
        return False

    def max_decisions(self) -> int:
        """Per round three exchange turns a seat (4.1), and a betting round where every raise
        reopens the betting to the others (6.3)."""
        n, config = self.num_players, self.config
        betting_turns = n + config.max_bets * (n - 1) if config.mode == "gambling" else 0
        return (NUM_CYCLES * n + betting_turns) * config.num_hands

    def hands_played(self, state: PiktasState) -> int:
        return state.round_number

    def conserved(self, state: PiktasState) -> dict[str, Any]:
        """Every card in a hand, the field or the deck; in gambling mode the chips in stacks and the pot."""
        cards = sorted([card for hand in state.hands for card in hand] + field_cards(state.field) + state.deck)
        return (
            {"cards": cards, "chips": sum(state.chips) + state.pot}
            if self.config.mode == "gambling"
            else {"cards": cards}
        )

    def resample_hidden(self, state: PiktasState, seat: int, rng: random.Random) -> PiktasState:
        """See `deal_hidden_again` (hidden.py) for what is dealt again and what is kept; the
        history is kept as `seat` knows it (the other seats' private events are dropped)."""
        twin = self.clone(state)
        deal_hidden_again(twin, seat, rng)
        twin.log = seen_by(state.log, seat)
        return twin

    seats_leave = True

    def seat_done(self, state: PiktasState, seat: int) -> bool:
        """An eliminated seat leaves the episode early (6.5)."""
        return not state.active[seat]

    def action_label(self, state: PiktasState, action: int) -> str:
        return self._decode(state, action)[0]

    def action_details(self, state: PiktasState, action: int) -> dict[str, Any]:
        """Kind `pass`, `swap` or `void` (cards: the hand card and the field card, with the field
        `position`), or the betting kinds `stay`, `match`, `raise`, `fold` (no cards)."""
        return self._decode(state, action)[1]

    def _decode(self, state: PiktasState, action: int) -> tuple[str, dict[str, Any]]:
        """An action id at this decision point: its label and its details."""
        if PASS <= action < NUM_EXCHANGE_ACTIONS:
            seat = self.current_player(state)
            hand = state.hands[seat] if seat >= 0 and state.phase == EXCHANGE else []
            return describe_exchange(hand, state.field, action)
        if action in BETTING_ACTIONS:
            name = rules.BETTING_NAMES[BETTING_ACTIONS[action]]
            return name, {"kind": name, "cards": []}
        return f"unknown action {action}", {"kind": "unknown", "cards": []}

    def event_log(self, state: PiktasState) -> list[dict[str, Any]]:
        return state.log

    def evaluate(self, state: PiktasState, seat: int) -> tuple[int, int, int, int]:
        """The seat's `evaluate` tuple for its pool as it stands (hand + every field card)."""
        return rules.evaluate_ids(state.hands[seat], field_cards(state.field), *self.config.scoring_flags)

    def state_from_view(self, view: dict[str, Any]) -> PiktasState:
        """Other hands get their publicly known cards plus unseen ones; see `Game.state_from_view`."""
        return state_from_view(self, view)

    # ------------------------------------------------------------ rounds (3.4, 4.1, 4.4)

    def _start_round(self, state: PiktasState) -> None:
        config, n = self.config, self.num_players
        if config.mode == "gambling":
            state.round_start_chips = list(state.chips)
            for seat in self._active_seats(state):
                state.chips[seat] -= config.buy_in
                state.pot += config.buy_in
        state.order = [seat for seat in ((state.dealer + k) % n for k in range(1, n + 1)) if state.active[seat]]
        deck = sampled(
            range(len(DECK) if config.use_voids else FIRST_VOID),
            random.Random(hand_seed(state.deal_seed, state.round_number)),
        )
        hands, state.field, state.deck = rules.deal_hands_and_field_ids(deck, state.order, n)
        state.hands = [sorted(hand) for hand in hands]
        state.phase, state.cycle, state.turn = EXCHANGE, 1, 0
        state.exchanges, state.taken = [], [[] for _ in range(n)]
        state.folded = [not active for active in state.active]
        state.bets = None
        log_round_start(state, config.mode == "gambling")

    def _active_seats(self, state: PiktasState) -> list[int]:
        return [seat for seat, active in enumerate(state.active) if active]

    def _exchange(self, state: PiktasState, action: int) -> None:
        seat = state.order[state.turn]
        given, taken = play_exchange(state.hands[seat], state.field, action)
        if taken >= 0:
            holdings = state.taken[seat]
            if given in holdings:
                holdings.remove(given)
            holdings.append(taken)
        position = -1 if action == PASS else slot_and_position(action)[1]
        state.exchanges.append([seat, position, given, taken])
        state.turn += 1
        if state.turn < len(state.order):
            return
        stack, state.deck = rules.deal_position_ids(state.deck)
        if stack:
            state.field.append(stack)
            log_field_position(state, len(state.field) - 1)
        state.turn = 0
        state.cycle += 1
        if state.cycle <= NUM_CYCLES:
            return
        if self.config.mode == "gambling":
            self._open_betting(state)
        else:
            self._showdown(state)

    # ------------------------------------------------------------ betting (section 6)

    def betting_rules(self) -> betting.BettingRules:
        return rules.betting_rules(self.config.bet_size, self.config.max_bets)

    def _betting(self, state: PiktasState) -> betting.BettingRound:
        return rules.betting_round(**state.bets, raise_amount=self.config.bet_size)

    def _open_betting(self, state: PiktasState) -> None:
        bets = betting.BettingRound.open(self.betting_rules(), state.chips, state.folded, state.order[0], state.pot)
        state.phase = BETTING
        self.store_betting(state, bets)

    def store_betting(self, state: PiktasState, bets: betting.BettingRound) -> None:
        """Keep a betting round in the (JSON-serialisable) state, with the chips and pot it moved."""
        state.bets = {name: value for name, value in bets.to_json().items() if name in rules.BETTING_STATE}
        state.chips, state.pot, state.folded = list(bets.stacks), bets.pot, list(bets.folded)

    def _bet(self, state: PiktasState, action: int) -> None:
        bets = self._betting(state)
        bets.act(self.betting_rules(), BETTING_ACTIONS[action])
        self.store_betting(state, bets)
        if bets.finished:
            self._showdown(state)

    # ------------------------------------------------------------ showdown and rewards (4.3, 6.4, 7)

    def _showdown(self, state: PiktasState) -> None:
        config, n = self.config, self.num_players
        returns_before, bets = list(state.returns), state.bets["history"] if state.bets else []
        folded = [seat for seat in state.order if state.folded[seat]]
        in_play = [seat for seat in state.order if not state.folded[seat]]
        shown = in_play if len(in_play) > 1 else []
        results = {seat: self.evaluate(state, seat) for seat in shown}
        winners = sorted(shown[i] for i in rules.best_seats([results[seat] for seat in shown])) if shown else in_play
        record: dict[str, Any] = {
            "round": state.round_number,
            "dealer": state.dealer,
            "field": [list(stack) for stack in state.field],
            "hands": {str(seat): list(state.hands[seat]) for seat in shown},
            "evaluations": {str(seat): list(results[seat]) for seat in shown},
            "winners": winners,
        }
        if config.mode == "gambling":
            stakes = [start - chips for start, chips in zip(state.round_start_chips, state.chips)]
            keys = [results.get(seat) for seat in range(n)]
            payout = settlement.settle(stakes, state.folded, keys, (state.dealer + 1) % n).payouts
            state.chips = [chips + paid for chips, paid in zip(state.chips, payout)]
            state.pot = 0
            round_rewards = [float(after - before) for after, before in zip(state.chips, state.round_start_chips)]
            record["payout"] = payout
        else:
            round_scores = [results[seat][0] for seat in range(n)]
            state.scores = [total + s for total, s in zip(state.scores, round_scores)]
            record["scores"] = round_scores
            round_rewards = _score_diff(round_scores) if config.reward_mode == "score_diff" else [0.0] * n
        state.showdowns.append(record)
        state.returns = [total + r for total, r in zip(state.returns, round_rewards)]
        state.phase, state.bets = OVER, None
        state.round_number += 1
        another_round = state.round_number < config.num_hands
        if another_round and config.mode == "gambling":
            state.active = [active and chips >= config.buy_in for active, chips in zip(state.active, state.chips)]
            another_round = sum(state.active) >= 2
        state.folded = [not active for active in state.active]
        if not another_round:
            self._finish(state, winners)
        log_result(state, record, folded, bets, returns_before)
        if another_round:
            state.dealer = self._next_dealer(state)
            self._start_round(state)

    def _next_dealer(self, state: PiktasState) -> int:
        n = self.num_players
        return next(seat for seat in ((state.dealer + k) % n for k in range(1, n + 1)) if state.active[seat])

    def _finish(self, state: PiktasState, round_winners: list[int]) -> None:
        state.terminal = True
        config, n = self.config, self.num_players
        if config.mode == "casual" and config.reward_mode == "win":
            if config.num_hands == 1:
                won = round_winners
            else:
                top = max(state.scores)
                won = [seat for seat in range(n) if state.scores[seat] == top]
            state.returns = [(1 / len(won) if seat in won else 0.0) - 1 / n for seat in range(n)]


def field_cards(positions: list[list[int]]) -> list[int]:
    """Every card in the field, flat: bottom cards (covered ones included) and voids."""
    return [card for stack in positions for card in stack]


def _score_diff(scores: list[int]) -> list[float]:
    """s_i minus the mean of the other seats' scores (section 7); sums to 0."""
    n, total = len(scores), sum(scores)
    return [s - (total - s) / (n - 1) for s in scores]
