"""Piktas as a state machine: deal, three exchange cycles, (betting), showdown; rounds of a match.

Follows ../shared/rules/piktas.md; section numbers below refer to it.
"""

from __future__ import annotations

import random
from typing import Any

from cardarena.envs.core import betting, settlement
from cardarena.envs.core import validation as check
from cardarena.envs.core.cards import hand_seed, sampled
from cardarena.envs.core.config import MAX_CHIPS
from cardarena.envs.core.game import Game
from cardarena.envs.core.history import seen_by

from . import kernels, rules
from .config import PiktasConfig
from .exchange import (
    EXCHANGE_POSITIONS,
    NUM_EXCHANGE_ACTIONS,
    PASS,
    describe_exchange,
    exchange_id,
    legal_exchange_ids,
    play_exchange,
    slot_and_position,
)
from .hidden import deal_hidden_again
from .history import log_field_position, log_result, log_round_start
from .rules import (
    CARDS,
    DECK,
    FIELD_SIZE,
    FIRST_VOID,
    HAND_SIZE,
    INITIAL_FIELD_POSITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_CYCLES,
    round_order,
)
from .state import BETTING, EXCHANGE, OVER, PiktasState
from .view import state_from_view

STAY, MATCH, RAISE, FOLD = range(NUM_EXCHANGE_ACTIONS, NUM_EXCHANGE_ACTIONS + 4)
NUM_ACTIONS = FOLD + 1
MOST_POINTS = MAX_CHIPS  # a bound on scores for reading them; the showdowns fix their exact values
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
            assert state.bets is not None  # the betting phase holds its open round
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

    def check_state(self, state: PiktasState) -> None:
        """Every field in range, each card of the deck in one place, chips that total the stacks,
        scores and returns that follow from the showdowns, and the round so far the exchanges and
        bets the rules allow from its deal (sections 3-7)."""
        _check_fields(self.config, state)
        _check_places(self.config, state)
        _check_showdowns(self.config, state)
        _check_match(self.config, state)
        if state.phase == OVER:
            _check_last_showdown(state)
        else:
            _check_replay(self, state)

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

    def evaluate(self, state: PiktasState, seat: int) -> tuple[int, int, int, int]:
        """The seat's `evaluate` tuple for its pool as it stands (hand + every field card)."""
        return kernels.evaluate_ids(state.hands[seat], field_cards(state.field), *self.config.scoring_flags)

    def state_from_view(self, view: dict[str, Any]) -> PiktasState:
        """Other hands get their publicly known cards plus unseen ones; see `Game.state_from_view`.
        The episode's returns so far, which a view shows only at its end, follow from the showdowns."""
        state = state_from_view(self, view)
        if not state.terminal:
            state.returns = match_returns(self.config, state)
        return state

    # ------------------------------------------------------------ rounds (3.4, 4.1, 4.4)

    def _start_round(self, state: PiktasState) -> None:
        config, n = self.config, self.num_players
        if config.mode == "gambling":
            state.round_start_chips = list(state.chips)
            for seat in self._active_seats(state):
                state.chips[seat] -= config.buy_in
                state.pot += config.buy_in
        state.order = round_order(state.dealer, state.active)
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
        assert state.bets is not None  # asked for only while a round is open
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
            state.chips = [chips + int(paid) for chips, paid in zip(state.chips, payout)]  # whole chips: not fractional
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
        return round_order(state.dealer, state.active)[0]

    def _finish(self, state: PiktasState, round_winners: list[int]) -> None:
        state.terminal = True
        if self.config.mode == "casual" and self.config.reward_mode == "win":
            state.returns = _win_returns(self.config, state.scores, round_winners)


def _win_returns(config: PiktasConfig, scores: list[int], round_winners: list[int]) -> list[float]:
    """Casual `win` rewards (section 7): the round's winners, or the match's top scores, share 1."""
    n = len(scores)
    won = round_winners if config.num_hands == 1 else [seat for seat in range(n) if scores[seat] == max(scores)]
    return [(1 / len(won) if seat in won else 0.0) - 1 / n for seat in range(n)]


def match_returns(config: PiktasConfig, state: PiktasState) -> list[float]:
    """The episode's returns after the showdowns so far (sections 6.4 and 7): gambling, the chips
    won or lost; casual, the sum of each round's score differences, or the `win` rewards at the end."""
    n = config.num_players
    if config.mode == "gambling":
        chips = state.chips if state.terminal else state.round_start_chips
        return [float(stack - config.starting_stack) for stack in chips]
    if config.reward_mode == "win":
        return _win_returns(config, state.scores, state.showdowns[-1]["winners"]) if state.terminal else [0.0] * n
    returns = [0.0] * n
    for record in state.showdowns:
        returns = [total + reward for total, reward in zip(returns, _score_diff(record["scores"]))]
    return returns


def field_cards(positions: list[list[int]]) -> list[int]:
    """Every card in the field, flat: bottom cards (covered ones included) and voids."""
    return [card for stack in positions for card in stack]


def _score_diff(scores: list[int]) -> list[float]:
    """s_i minus the mean of the other seats' scores (section 7); sums to 0."""
    n, total = len(scores), sum(scores)
    return [s - (total - s) / (n - 1) for s in scores]


def _deck_size(config: PiktasConfig) -> int:
    return len(DECK) if config.use_voids else FIRST_VOID


def _check_fields(config: PiktasConfig, state: PiktasState) -> None:
    """Each field's JSON type, range and size (`Game.check_state`)."""
    n, deck_size, chips = config.num_players, _deck_size(config), config.starting_stack * config.num_players
    check.integer(state.deal_seed, "deal_seed", 0, check.MAX_SEED)
    check.seat(state.dealer, "dealer", n)
    check.integers(state.chips, "chips", 0, chips, (n, n))
    check.integers(state.scores, "scores", 0, MOST_POINTS, (n, n))
    check.flags(state.active, "active", n)
    check.integer(state.round_number, "round_number", 0, config.num_hands)
    check.cards(state.deck, "deck", deck_size)
    for seat, hand in enumerate(check.items(state.hands, "hands", n, n)):
        check.cards(hand, f"hands[{seat}]", deck_size, (0, HAND_SIZE))
    for position, stack in enumerate(check.items(state.field, "field", 0, FIELD_SIZE)):
        check.cards(stack, f"field[{position}]", deck_size, (1, None))
    check.integer(state.phase, "phase", EXCHANGE, OVER)
    check.integer(state.cycle, "cycle", 1, NUM_CYCLES + 1)
    check.integers(state.order, "order", 0, n - 1, (0, n))
    check.integer(state.turn, "turn", 0, n - 1)
    for number, entry in enumerate(check.items(state.exchanges, "exchanges", 0, NUM_CYCLES * n)):
        check.items(entry, f"exchanges[{number}]", 4, 4)
        check.seat(entry[0], f"exchanges[{number}][0]", n)
        check.integer(entry[1], f"exchanges[{number}][1]", -1, EXCHANGE_POSITIONS - 1)
        check.card(entry[2], f"exchanges[{number}][2]", deck_size, none=True)
        check.card(entry[3], f"exchanges[{number}][3]", deck_size, none=True)
    for seat, cards in enumerate(check.items(state.taken, "taken", n, n)):
        check.cards(cards, f"taken[{seat}]", deck_size, (0, HAND_SIZE))
    check.integer(state.pot, "pot", 0, chips)
    started = n if config.mode == "gambling" else 0
    check.integers(state.round_start_chips, "round_start_chips", 0, chips, (started, started))
    _check_bets_fields(config, state.bets)
    check.flags(state.folded, "folded", n)
    check.items(state.showdowns, "showdowns", 0, config.num_hands)
    check.numbers(state.returns, "returns", n)
    check.flag(state.terminal, "terminal")
    check.hand_history(state.log, n)


def _check_bets_fields(config: PiktasConfig, bets: Any) -> None:
    """An open betting round's fields (`rules.BETTING_STATE`), or null."""
    if bets is None:
        return
    if type(bets) is not dict or set(bets) != set(rules.BETTING_STATE):
        raise check.fail("bets", f"must be null or an object of the fields {', '.join(rules.BETTING_STATE)}")
    n, chips = config.num_players, config.starting_stack * config.num_players
    check.integers(bets["stacks"], "bets.stacks", 0, chips, (n, n))
    check.flags(bets["folded"], "bets.folded", n)
    check.integers(bets["to_act"], "bets.to_act", 0, n - 1, (0, n))
    check.integer(bets["pot"], "bets.pot", 0, chips)
    check.integer(bets["current_bet"], "bets.current_bet", 0, chips)
    check.integers(bets["contributions"], "bets.contributions", 0, chips, (n, n))
    for number, bet in enumerate(check.items(bets["history"], "bets.history", 0, n * (config.max_bets + 1))):
        check.items(bet, f"bets.history[{number}]", 2, 2)
        check.seat(bet[0], f"bets.history[{number}][0]", n)
        check.text(bet[1], f"bets.history[{number}][1]", rules.BETTING_NAMES)


def _check_places(config: PiktasConfig, state: PiktasState) -> None:
    """Each card of the deck in one hand, field position or the deck (3.4); the chips in stacks and
    the pot are the stacks the seats started with (gambling)."""
    places = {f"hands[{seat}]": hand for seat, hand in enumerate(state.hands)}
    places |= {f"field[{position}]": stack for position, stack in enumerate(state.field)}
    check.each_card_once(places | {"deck": state.deck}, _deck_size(config))
    for seat, cards in enumerate(state.taken):
        if not set(cards) <= set(state.hands[seat]):
            raise check.fail(f"taken[{seat}]", f"lists cards that hands[{seat}] does not hold: {cards}")
    total = config.starting_stack * config.num_players
    if config.mode == "gambling" and sum(state.chips) + state.pot != total:
        raise check.fail("chips", f"and the pot come to {sum(state.chips) + state.pot}, not the {total} dealt out")


_SHOWDOWN_FIELDS = ("round", "dealer", "field", "hands", "evaluations", "winners")


def _check_showdowns(config: PiktasConfig, state: PiktasState) -> None:
    """Each finished round's record: its fields, and the evaluations, winners and scores that the
    hands and field shown give (4.3, 5)."""
    n, deck_size = config.num_players, _deck_size(config)
    outcome = "payout" if config.mode == "gambling" else "scores"
    for number, record in enumerate(state.showdowns):
        where = f"showdowns[{number}]"
        if type(record) is not dict or set(record) != {*_SHOWDOWN_FIELDS, outcome}:
            raise check.fail(where, f"must be an object of the fields {', '.join(_SHOWDOWN_FIELDS)}, {outcome}")
        check.integer(record["round"], f"{where}.round", number, number)
        check.seat(record["dealer"], f"{where}.dealer", n)
        for position, stack in enumerate(check.items(record["field"], f"{where}.field", 0, FIELD_SIZE)):
            check.cards(stack, f"{where}.field[{position}]", deck_size, (1, None))
        hands, evaluations = record["hands"], record["evaluations"]
        seats = [str(seat) for seat in range(n)]
        if type(hands) is not dict or not set(hands) <= set(seats) or type(evaluations) is not dict:
            raise check.fail(f"{where}.hands", "must be an object from seats to the hands shown, with evaluations")
        for seat, hand in hands.items():
            check.cards(hand, f"{where}.hands.{seat}", deck_size, (0, HAND_SIZE))
        field = field_cards(record["field"])
        check.each_card_once({f"{where}.field": field, **hands}, deck_size, whole_deck=False)
        scores = {seat: rules.evaluate_ids(hand, field, *config.scoring_flags) for seat, hand in hands.items()}
        shown = {seat: list(score) for seat, score in scores.items()}
        if evaluations != shown:
            raise check.fail(f"{where}.evaluations", f"must be what the hands shown score: {shown}")
        winners = check.integers(record["winners"], f"{where}.winners", 0, n - 1, (1, n))
        shown_seats = [int(seat) for seat in shown]
        best = sorted(shown_seats[index] for index in rules.best_seats(list(scores.values())))
        if shown and winners != best:
            raise check.fail(f"{where}.winners", f"must be the best hands shown: {best}")
        check.integers(record[outcome], f"{where}.{outcome}", 0, MOST_POINTS, (n, n))
        if outcome == "scores" and (
            sorted(shown_seats) != list(range(n)) or record["scores"] != [shown[s][0] for s in seats]
        ):
            raise check.fail(f"{where}.scores", "must be every seat's hand shown and scored, in seat order")


def _check_match(config: PiktasConfig, state: PiktasState) -> None:
    """The episode so far: one showdown per round played, the scores and returns they give, every
    seat in a casual episode, the phase `over` exactly at the end (4.4, 6.5, 7)."""
    n = config.num_players
    if len(state.showdowns) != state.round_number:
        raise check.fail("showdowns", f"must hold one record per round played ({state.round_number})")
    scores = [0] * n
    if config.mode == "casual":
        scores = [sum(record["scores"][seat] for record in state.showdowns) for seat in range(n)]
        if not all(state.active) or state.chips != [config.starting_stack] * n or state.pot:
            raise check.fail("active", "must be every seat, with no chips moved, in a casual episode")
    if state.scores != scores:
        raise check.fail("scores", f"must be the round scores summed: {scores}")
    if state.terminal != (state.phase == OVER) or (state.terminal and not state.round_number):
        raise check.fail("terminal", "must be true exactly in phase 'over', after a round")
    if state.returns != match_returns(config, state):
        raise check.fail("returns", f"must be what the rounds played give: {match_returns(config, state)}")


def _check_last_showdown(state: PiktasState) -> None:
    """At the end, the field and the sizes of the hands shown are the last showdown's (a state
    rebuilt from a seat view deals other hands anew), the betting closed."""
    last = state.showdowns[-1]
    shown = {int(seat): hand for seat, hand in last["hands"].items()}
    if last["field"] != state.field or any(len(hand) != len(state.hands[seat]) for seat, hand in shown.items()):
        raise check.fail("showdowns", "last record must show the field and hands the state holds")
    if state.bets is not None or state.dealer != last["dealer"]:
        raise check.fail("bets", "must be null, and the dealer the last round's, once the episode is over")


def _check_replay(game: PiktasGame, state: PiktasState) -> None:
    """The round replayed by the rules from its deal (the hands, field and deck before its
    exchanges) gives the state back: every exchange and bet legal in turn (4.2, 6.3)."""
    config, n = game.config, game.num_players
    order = round_order(state.dealer, state.active)
    if state.order != order or len(order) < 2:
        raise check.fail("order", f"must be the seats dealt in, from the dealer's left: {order}")
    hands, field, deck = _round_start(state)
    chips, pot = list(state.chips), 0
    if config.mode == "gambling":
        chips = [
            stack - (config.buy_in if active else 0) for stack, active in zip(state.round_start_chips, state.active)
        ]
        pot = config.buy_in * len(order)
    replay = PiktasState(
        deal_seed=state.deal_seed,
        dealer=state.dealer,
        chips=chips,
        scores=list(state.scores),
        active=list(state.active),
        round_number=state.round_number,
        deck=deck,
        hands=hands,
        field=field,
        order=order,
        taken=[[] for _ in range(n)],
        pot=pot,
        round_start_chips=list(state.round_start_chips),
        folded=[not active for active in state.active],
        showdowns=list(state.showdowns),
        returns=list(state.returns),
    )
    if min(chips) < 0 or any(len(hands[seat]) != (HAND_SIZE if seat in order else 0) for seat in range(n)):
        raise check.fail("hands", f"must be what {HAND_SIZE} cards dealt to each seat in the round became")
    for number, (seat, position, given, taken) in enumerate(state.exchanges):
        action = PASS if position < 0 else exchange_id(_slot(replay.hands[seat], given, number), position)
        _replay_move(game, replay, seat, action, f"exchanges[{number}]")
        if replay.exchanges[-1] != [seat, position, given, taken]:
            raise check.fail(f"exchanges[{number}]", f"must be the move it names: {replay.exchanges[-1]}")
    for number, (seat, action) in enumerate(state.bets["history"] if state.bets else []):
        _replay_move(game, replay, seat, BETTING_IDS[action], f"bets.history[{number}]")
    replay.taken = [sorted(cards) for cards in replay.taken]
    for name in ("hands", "field", "deck", "phase", "cycle", "turn", "chips", "pot", "bets", "folded"):
        if getattr(replay, name) != getattr(state, name):
            raise check.fail(name, f"is {getattr(state, name)!r}, but the round's moves give {getattr(replay, name)!r}")
    if replay.taken != [sorted(cards) for cards in state.taken]:
        raise check.fail("taken", f"must be the field cards each seat took and holds: {replay.taken}")


def _round_start(state: PiktasState) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """The hands, first field positions and deck as dealt: the exchanges undone, the positions
    dealt since put back on the deck in the order they were drawn (3.5)."""
    hands, field = [list(hand) for hand in state.hands], [list(stack) for stack in state.field]
    for number in reversed(range(len(state.exchanges))):
        seat, position, given, taken = state.exchanges[number]
        if position < 0:
            continue
        stack = field[position] if position < len(field) else []
        if taken < 0 and len(stack) == 2 and stack[-1] == given:
            stack.pop()
        elif taken >= 0 and len(stack) == 1 and stack[0] == given and taken in hands[seat]:
            stack[0] = hands[seat].pop(hands[seat].index(taken))
        else:
            raise check.fail(f"exchanges[{number}]", "does not fit the field and hands the later exchanges leave")
        hands[seat].append(given)
    first = min(INITIAL_FIELD_POSITIONS, len(field))
    drawn = [card for stack in field[first:] for card in _drawn(stack)]
    return [sorted(hand) for hand in hands], field[:first], drawn + state.deck


def _drawn(stack: list[int]) -> list[int]:
    """A dealt field position's cards in the order they were drawn: the voids, then its card (3.5)."""
    if rules.is_void(stack[0]):
        return stack[::-1]
    return stack[:0:-1] + stack[:1]


def _slot(hand: list[int], given: int, number: int) -> int:
    if given not in hand:
        raise check.fail(f"exchanges[{number}]", f"gives card {given}, which the seat does not hold")
    return hand.index(given)


def _replay_move(game: PiktasGame, replay: PiktasState, seat: int, action: int, field: str) -> None:
    if replay.phase == OVER or game.current_player(replay) != seat or action not in game.legal_actions(replay):
        raise check.fail(field, f"(seat {seat}, action {action}) is not a legal move after the ones before it")
    game.apply(replay, action)
