"""Dividha as a state machine: antes, three deals of a pair with a betting round after each,
trading, showdown and the two-column settlement; hands of a match.

Follows the rulebook's rulings (R numbers as on docs/games/dividha.md). Betting is the core
engine (`BettingRules`/`BettingRound`) configured for Dividha; every payment is written in the
payer's Win or Lose column by the split its action carries; the pot is settled by `rules.settle`.
"""

from __future__ import annotations

import random
from itertools import repeat
from operator import gt
from typing import Any

from cardarena.envs.core import betting
from cardarena.envs.core import validation as check
from cardarena.envs.core.cards import hand_seed, sampled
from cardarena.envs.core.game import Game
from cardarena.envs.core.history import seen_by

from . import rules
from .actions import (
    CHECK,
    EVEN,
    FOLD,
    NUM_ACTIONS,
    SPLITS,
    TRADE,
    TRADE_CHOICES,
    TRADE_KIND,
    Decision,
    Move,
    call_id,
    decode,
    engine_action,
    paid_trade_id,
    raise_id,
)
from .config import MAX_PLAYERS, MIN_PLAYERS, DividhaConfig
from .hidden import deal_hidden_again
from .history import (
    describe,
    label_of,
    log_deal,
    log_eliminated,
    log_hand_start,
    log_last_seat,
    log_result,
    public_part,
)
from .state import (
    BETTING,
    DEALS,
    EMPTY,
    LAST_ROUND,
    NUM_SLOTS,
    OVER,
    PUBLIC_SLOTS,
    SLOT_NAMES,
    TRADING,
    TRADING_ROUND,
    WAGER_ROUND,
    DividhaState,
)
from .view import state_from_view

NUM_CARDS = len(rules.DECK)
_PUBLIC_TRADED = tuple(
    tuple(slot in PUBLIC_SLOTS for slot in slots) for slots in TRADE_CHOICES
)  # per choice: which slots are public
_FREE_TRADE_IDS = tuple(TRADE + choice for choice in range(len(TRADE_CHOICES)))
_DECISIONS_KEPT = 1 << 14  # betting decisions remembered per game (forgotten all at once past it)


_RAISE_OPTION = {name: option for option, name in enumerate(betting.RAISES)}
# per first id of a call or raise: its three split ids, and the two an all-in payment keeps when
# it must not be split (`all_in_unsplit`: no EVEN)
_SPLIT_IDS = {
    first: ([first + s for s in range(3)], [first + s for s in range(3) if s != EVEN])
    for first in (call_id(0), *(raise_id(option, 0) for option in range(len(betting.RAISES))))
}


class DividhaGame(Game[DividhaState]):
    name = "dividha"
    version = 1
    deck = rules.CARDS
    config_cls = DividhaConfig
    state_cls = DividhaState
    nested_fields = {"bets": betting.BettingRound.read_field}
    num_actions = NUM_ACTIONS
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    conformance_modes = (
        {},
        {"limit": "no", "demons_wager": True, "all_in_unsplit": True, "starting_stack": 20},
        {"limit": "pot", "pay_to_trade": True, "divine_intervention": True, "starting_stack": 30},
        {"match": True, "max_hands": 12, "starting_stack": 12, "ante_increase_every": 3, "limit": "no"},
    )
    config: DividhaConfig

    def __init__(self, config: DividhaConfig):
        super().__init__(config)
        self.betting_rules = betting.BettingRules(
            unit=config.bet_size,
            max_bets=config.max_bets if config.limit == "fixed" else None,
            limit=config.limit,
            short_all_in_raise=True,
        )
        # by `_decision_key`, the values a decision depends on: equal keys give equal decisions
        self._decisions: dict[tuple[Any, ...], Decision] = {}
        n = config.num_players
        self._clockwise_from = [
            tuple((dealer + k) % n for k in range(1, n + 1)) for dealer in range(n)
        ]  # per dealer, for `order`

    @property
    def num_players(self) -> int:
        return self.config.num_players

    def new_state(self, seed: int) -> DividhaState:
        n, config = self.num_players, self.config
        dealer = config.dealer if config.dealer is not None else random.Random(seed).randrange(n)
        state = DividhaState(
            deal_seed=seed,
            dealer=dealer,
            stacks=[config.starting_stack] * n,
            in_match=[True] * n,
            returns=[0.0] * n,
        )
        self._start_hand(state)
        return state

    # ------------------------------------------------------------ the contract

    def current_player(self, state: DividhaState) -> int:
        if state.phase == BETTING:
            assert state.bets is not None  # the betting phase holds its open round
            return state.bets.to_act[0]
        if state.phase == TRADING:
            return self.order(state)[state.turn]
        return -1

    def legal_actions(self, state: DividhaState) -> list[int]:
        if state.phase == BETTING:
            return list(self.decision(state).ids)
        if state.phase == TRADING:
            return self._trading_ids(state)
        return []

    def apply(self, state: DividhaState, action: int) -> None:
        move = decode(action)
        if move.kind == TRADE_KIND:
            self._trade(state, move)
        else:
            self._bet(state, move)

    def is_truncated(self, state: DividhaState) -> bool:
        return state.truncated

    seats_leave = True

    def seat_done(self, state: DividhaState, seat: int) -> bool:
        """A seat eliminated from a match leaves the episode (it takes no further actions)."""
        return not state.in_match[seat]

    def max_decisions(self) -> int:
        """Per hand: each betting round's first go-around and, after every bet or raise, the other
        seats once more; one trading turn a seat. Fixed limit caps the bets and raises of a round;
        otherwise every full raise adds at least `bet_size` to the bet and every short one puts a
        seat all-in, so the chips in play bound them."""
        n, config = self.num_players, self.config
        raises = config.max_bets if config.limit == "fixed" else n * config.starting_stack // config.bet_size + n
        rounds = LAST_ROUND + int(config.demons_wager)
        per_hand = rounds * (n + raises * (n - 1)) + n
        return per_hand * (config.max_hands if config.match else 1)

    def hands_played(self, state: DividhaState) -> int:
        return state.hand_number

    def conserved(self, state: DividhaState) -> dict[str, Any]:
        """Every card in a slot, the discards or the stock; the chips in stacks, the pot and the forfeits."""
        cards = [card for slots in state.cards for card in slots if card != EMPTY]
        cards += [card for traded in state.discards for card in traded] + state.stock
        return {"cards": sorted(cards), "chips": sum(state.stacks) + state.pot + state.forfeit}

    def resample_hidden(self, state: DividhaState, seat: int, rng: random.Random) -> DividhaState:
        """See `deal_hidden_again` (hidden.py) for what is dealt again and what is kept; the
        history is kept as `seat` knows it (the other seats' private events are dropped)."""
        twin = self.clone(state)
        deal_hidden_again(self, twin, seat, rng)
        twin.log = seen_by(state.log, seat)
        return twin

    def action_label(self, state: DividhaState, action: int) -> str:
        return label_of(self, state, action)

    def public_label(self, state: DividhaState, action: int, label: str) -> str:
        """The split of a payment is the payer's own until settlement (R37), and so are the private
        cards it trades in: others see the kind, the chips and the traded slots."""
        return public_part(label)

    def action_details(self, state: DividhaState, action: int) -> dict[str, Any]:
        """Kind `fold`, `check`, `call`, `raise` (with `chips` and `split`) or `trade` (its `slots`,
        `cards` the seat's cards it trades in, and with Pay-to-Trade the fee's `chips` and `split`)."""
        return describe(self, state, action)[1]

    def check_state(self, state: DividhaState) -> None:
        """Every field in range, each card of the deck in one place, chips that total the stacks
        dealt out, and the hand so far what its deals and moves give when replayed by the rules."""
        _check_fields(self, state)
        _check_places(self.config, state)
        if state.phase == OVER:
            _check_over(self.config, state)
        else:
            _check_replay(self, state)

    def state_from_view(self, view: dict[str, Any]) -> DividhaState:
        """Other seats' unseen cards and private splits are made up to fit; see `Game.state_from_view`."""
        return state_from_view(self, view)

    # ------------------------------------------------------------ shared with the encoder and views

    def order(self, state: DividhaState) -> list[int]:
        """The seats still in the hand, clockwise from the dealer's left, ending with the dealer."""
        folded = state.folded
        return [seat for seat in self._clockwise_from[state.dealer] if not folded[seat]]

    def decision(self, state: DividhaState) -> Decision:
        """The betting decision now open, kept by its round until the round acts."""
        assert state.bets is not None  # asked for only while a round is open
        return state.bets.decision(self._remembered_decision, self.betting_rules)

    def _remembered_decision(self, bets: betting.BettingRound, rules: betting.BettingRules) -> Decision:
        """The decision of `bets` under `rules` (the game's `betting_rules`, the same at every round),
        remembered by `_decision_key`: it is a pure function of those numbers, which recur from hand to hand."""
        key = _decision_key(bets, self.config.limit == "fixed")
        decision = self._decisions.get(key)
        if decision is None:
            if len(self._decisions) >= _DECISIONS_KEPT:
                self._decisions.clear()
            decision = self._decisions[key] = self._decide(bets, rules)
        return decision

    def trade_fee(self, state: DividhaState, choice: int) -> int:
        return len(TRADE_CHOICES[choice]) * state.ante if self.config.pay_to_trade else 0

    # ------------------------------------------------------------ hands (3, 4.1, 4.7)

    def ante_of_hand(self, hand_number: int) -> int:
        config = self.config
        if config.match and config.ante_increase_every > 0:
            return config.ante * (1 + hand_number // config.ante_increase_every)
        return config.ante

    def _start_hand(self, state: DividhaState) -> None:
        config = self.config
        state.ante = self.ante_of_hand(state.hand_number)
        if config.match and not self._eliminate(state):
            return
        if state.hand_number > 0:
            state.dealer = self._next_dealer(state)
        self._deal_hand(state, self.shuffled_deck(state))

    def _deal_hand(self, state: DividhaState, stock: list[int]) -> None:
        """Begin the hand from `stock` (dealt from the front): fresh slots and tablets, the antes, the first round."""
        n, config = self.num_players, self.config
        state.stock = stock
        state.cards = [[EMPTY] * 6 for _ in range(n)]
        state.discards, state.trades = [[] for _ in range(n)], [-1] * n
        state.folded = [not playing for playing in state.in_match]
        state.win, state.lose, state.paid = [0] * n, [0] * n, [0] * n
        state.pot, state.actions, state.turn = 0, [], 0
        for seat in self.order(state):
            self._pay(state, seat, state.ante, EVEN)
        log_hand_start(self, state)
        if config.demons_wager:
            self._open_round(state, WAGER_ROUND)
        else:
            self._deal_and_open(state, 1)

    def shuffled_deck(self, state: DividhaState) -> list[int]:
        """This hand's stock, dealt from the front: the 56 cards shuffled by the hand's own seed."""
        return sampled(range(NUM_CARDS), random.Random(hand_seed(state.deal_seed, state.hand_number)))

    def _eliminate(self, state: DividhaState) -> bool:
        """Retire the seats that cannot afford this hand's ante, their stacks set aside (4.7, R35);
        False when the match ends here instead (one seat left takes the forfeits; none left: nothing moves)."""
        staying = [seat for seat, playing in enumerate(state.in_match) if playing and state.stacks[seat] >= state.ante]
        if not staying:
            state.terminal = True
            return False
        for seat, playing in enumerate(state.in_match):
            if playing and seat not in staying:
                log_eliminated(state, seat)
                state.forfeit += state.stacks[seat]
                state.stacks[seat] = 0
                state.in_match[seat] = False
                state.returns[seat] = float(-self.config.starting_stack)
        if len(staying) > 1:
            return True
        winner = staying[0]
        log_last_seat(state, winner)
        state.stacks[winner] += state.forfeit
        state.forfeit = 0
        state.returns[winner] = float(state.stacks[winner] - self.config.starting_stack)
        state.phase, state.terminal = OVER, True
        return False

    def _next_dealer(self, state: DividhaState) -> int:
        """The deal moves counter-clockwise to the nearest seat still in the match (R20)."""
        n = self.num_players
        return next(seat for seat in ((state.dealer - k) % n for k in range(1, n + 1)) if state.in_match[seat])

    def _deal_and_open(self, state: DividhaState, number: int) -> None:
        """Deal the pair of slots that comes before betting round `number`, one card at a time
        round the table twice (R39: folded seats get none), then open the round."""
        order = self.order(state)
        for slot in DEALS[number]:
            for seat in order:
                state.cards[seat][slot] = state.stock.pop(0)
        log_deal(state, order, DEALS[number])
        self._open_round(state, number)

    def _open_round(self, state: DividhaState, number: int) -> None:
        state.phase, state.betting_round = BETTING, number
        bets = betting.BettingRound.open(
            self.betting_rules, state.stacks, state.folded, (state.dealer + 1) % self.num_players, state.pot
        )
        state.bets = bets
        if bets.finished:
            self._after_round(state)

    def _after_round(self, state: DividhaState) -> None:
        """What follows a finished betting round: the next deal, trading, or the showdown."""
        state.bets = None
        if len(self.order(state)) < 2 or state.betting_round == LAST_ROUND:
            self._settle(state)
        elif state.betting_round == 2:
            state.phase, state.turn = TRADING, 0
        else:
            self._deal_and_open(state, state.betting_round + 1)

    # ------------------------------------------------------------ betting (4.2, 6.2, 6.3)

    def _decide(self, bets: betting.BettingRound, rules: betting.BettingRules) -> Decision:
        seat = bets.to_act[0]
        stack, to_call = bets.stacks[seat], bets.to_call(seat)
        increments = betting.raise_options(self.config.limit, bets.pot, to_call, stack, bets.min_raise)
        choices = bets.choices(rules, increments)
        unsplit = self.config.all_in_unsplit
        ids = []  # ascending: the choices come in the order of betting.ACTIONS, as the ids do
        for name in choices:
            if name == betting.FOLD:
                ids.append(FOLD)
            elif name == betting.CHECK:
                ids.append(CHECK)
            elif name == betting.CALL:
                ids += _SPLIT_IDS[call_id(0)][unsplit and stack <= to_call]
            else:
                option = _RAISE_OPTION[name]
                increment = increments[option]
                assert increment is not None  # a raise the engine offers has its increment
                ids += _SPLIT_IDS[raise_id(option, 0)][unsplit and to_call + increment == stack]
        return Decision(increments, choices, ids, tuple([increment or 0 for increment in increments]))

    def _bet(self, state: DividhaState, move: Move) -> None:
        bets = state.bets
        assert bets is not None  # a betting move comes only while a round is open
        seat = bets.to_act[0]
        before = bets.stacks[seat]
        bets.act(self.betting_rules, engine_action(move), self.decision(state).choices)
        chips = before - bets.stacks[seat]
        self._write(state, seat, chips, move.split)
        state.stacks, state.pot, state.folded = list(bets.stacks), bets.pot, list(bets.folded)
        state.actions.append([seat, state.betting_round, move.kind, chips, _split_id(move), bets.stacks[seat]])
        if bets.finished:
            self._after_round(state)

    def _pay(self, state: DividhaState, seat: int, chips: int, split: int | None) -> None:
        """A payment outside the betting rounds (ante, trade fee) from the seat's stack into the pot."""
        state.stacks[seat] -= chips
        state.pot += chips
        self._write(state, seat, chips, split)

    def _write(self, state: DividhaState, seat: int, chips: int, split: int | None) -> None:
        """Write a payment in the payer's tablet by its split (R21)."""
        if not chips:
            return
        assert split is not None  # every move that pays chips names its split
        win = rules.win_part(chips, split)
        state.win[seat] += win
        state.lose[seat] += chips - win
        state.paid[seat] += chips

    # ------------------------------------------------------------ trading (4.4, R30, R31)

    def _trading_ids(self, state: DividhaState) -> list[int]:
        if not self.config.pay_to_trade:
            return list(_FREE_TRADE_IDS)
        stack = state.stacks[self.current_player(state)]
        paid = [
            paid_trade_id(choice, split)
            for choice in range(1, len(TRADE_CHOICES))
            if stack >= self.trade_fee(state, choice)
            for split in range(3)
        ]
        return [TRADE, *paid]

    def _trade(self, state: DividhaState, move: Move) -> None:
        seat = self.current_player(state)
        assert move.choice is not None  # a trade names its choice
        fee = self.trade_fee(state, move.choice)
        if fee:
            self._pay(state, seat, fee, move.split)
        for slot in TRADE_CHOICES[move.choice]:
            state.discards[seat].append(state.cards[seat][slot])
            state.cards[seat][slot] = state.stock.pop(0)
        state.trades[seat] = move.choice
        state.actions.append([seat, TRADING_ROUND, TRADE_KIND, fee, _split_id(move), state.stacks[seat]])
        log_deal(state, [seat], TRADE_CHOICES[move.choice], replacement=True)
        state.turn += 1
        if state.turn == len(self.order(state)):
            self._deal_and_open(state, LAST_ROUND)

    # ------------------------------------------------------------ showdown and settlement (4.5, 6.6, 7)

    def _settle(self, state: DividhaState) -> None:
        n, config = self.num_players, self.config
        eligible = self.order(state)
        contested = len(eligible) > 1
        keys: list[int | None] = [None] * n
        shown = {}
        for seat in eligible:
            keys[seat] = 0  # the last seat standing is not evaluated (R24)
            if contested:
                held = [card for card in state.cards[seat] if card != EMPTY]
                key, best = rules.showdown_ids(held, config.divine_intervention)
                keys[seat] = key
                shown[str(seat)] = {
                    "cards": [rules.DECK[card] for card in best],
                    "key": _key_json(rules.unpack_key(key)),
                    "name": rules.hand_name_of(key),
                }
        received = rules.settle_keys(state.win, state.lose, keys, state.dealer, state.forfeit)
        state.showdown = {
            "hand": state.hand_number,
            "dealer": state.dealer,
            "ante": state.ante,
            "folded": [seat for seat in range(n) if state.folded[seat] and state.in_match[seat]],
            "shown": shown,
            "actions": [
                {"seat": seat, "round": round_, "kind": kind, "chips": chips}
                for seat, round_, kind, chips, *_ in state.actions
            ],
            "trades": [
                [SLOT_NAMES[slot] for slot in TRADE_CHOICES[choice]] if choice >= 0 else None for choice in state.trades
            ],
            "public": [
                [rules.DECK[slots[slot]] if slots[slot] != EMPTY else None for slot in PUBLIC_SLOTS]
                for slots in state.cards
            ],
            "traded_in": [[rules.DECK[card] for card in public_discards(state, seat)] for seat in range(n)],
            "win": list(state.win),
            "lose": list(state.lose),
            "paid": list(state.paid),
            "forfeit": state.forfeit,
            "received": received,
        }
        returns_before = list(state.returns)
        state.stacks = [stack + chips for stack, chips in zip(state.stacks, received)]
        state.pot = state.forfeit = 0
        state.returns = [float(stack - config.starting_stack) for stack in state.stacks]
        state.phase, state.bets = OVER, None
        state.hand_number += 1
        log_result(state, returns_before)
        if not config.match:
            state.terminal = True
        elif state.hand_number >= config.max_hands:
            state.terminal = max(state.stacks) == sum(state.stacks)
            state.truncated = not state.terminal
        else:
            self._start_hand(state)


def _decision_key(bets: betting.BettingRound, fixed_limit: bool) -> tuple[Any, ...]:
    """Everything of a round that its decision depends on (all the engine and `_decide` read of
    it): the seat to act, its stack and the chips it must call, whether anyone has bet, the pot
    (it only sizes HALF_POT and POT raises, which fixed limit does not offer), the smallest raise,
    the bets made, and per seat whether it folded and whether it has chips behind (who could
    still answer a raise)."""
    seat, stacks = bets.to_act[0], bets.stacks
    pot = None if fixed_limit else bets.pot
    return (
        seat,
        stacks[seat],
        bets.to_call(seat),
        bets.current_bet > 0,
        pot,
        bets.min_raise,
        bets.bets,
        *bets.folded,
        *map(gt, stacks, repeat(0)),
    )


def public_discards(state: DividhaState, seat: int) -> list[int]:
    """The cards `seat` traded in from its public slots (they were face up)."""
    choice = state.trades[seat]
    if choice < 0:
        return []
    return [card for card, public in zip(state.discards[seat], _PUBLIC_TRADED[choice]) if public]


def _split_id(move: Move) -> int:
    return -1 if move.split is None else move.split


def _key_json(key: tuple[Any, ...]) -> list[Any]:
    """A hand key as JSON: its `high` tuple becomes a list."""
    return [*key[:4], list(key[4])]


_ACTION_KINDS = ("fold", "check", "call", "raise", TRADE_KIND)
_SHOWDOWN_FIELDS = frozenset(
    ("hand", "dealer", "ante", "folded", "shown", "actions", "trades", "public", "traded_in")
    + ("win", "lose", "paid", "forfeit", "received")
)
_REPLAYED: tuple[str, ...] = ("dealer", "stacks", "in_match", "stock", "cards", "discards", "trades", "phase")
_REPLAYED += ("betting_round", "folded", "win", "lose", "paid", "pot", "forfeit", "actions")


def _check_fields(game: DividhaGame, state: DividhaState) -> None:
    """Each field's JSON type, range and size (`Game.check_state`)."""
    config, n = game.config, game.num_players
    chips = config.starting_stack * n
    check.integer(state.deal_seed, "deal_seed", 0, check.MAX_SEED)
    check.seat(state.dealer, "dealer", n)
    check.integers(state.stacks, "stacks", 0, chips, (n, n))
    check.flags(state.in_match, "in_match", n)
    check.integer(state.hand_number, "hand_number", 0, config.max_hands if config.match else 1)
    check.integer(state.ante, "ante", 0, chips)
    check.cards(state.stock, "stock", NUM_CARDS)
    for seat, slots in enumerate(check.items(state.cards, "cards", n, n)):
        check.integers(slots, f"cards[{seat}]", EMPTY, NUM_CARDS - 1, (NUM_SLOTS, NUM_SLOTS))
    for seat, traded in enumerate(check.items(state.discards, "discards", n, n)):
        check.cards(traded, f"discards[{seat}]", NUM_CARDS, (0, 2))
    check.integers(state.trades, "trades", -1, len(TRADE_CHOICES) - 1, (n, n))
    check.integer(state.phase, "phase", BETTING, OVER)
    check.integer(state.betting_round, "betting_round", WAGER_ROUND, LAST_ROUND)
    check.integer(state.turn, "turn", 0, n)
    check.flags(state.folded, "folded", n)
    for name in ("win", "lose", "paid"):
        check.integers(getattr(state, name), name, 0, chips, (n, n))
    check.integer(state.pot, "pot", 0, chips)
    check.integer(state.forfeit, "forfeit", 0, chips)
    if state.bets is not None:
        state.bets.check("bets", n, game.betting_rules, chips)
    for number, record in enumerate(check.items(state.actions, "actions", 0, game.max_decisions())):
        where = f"actions[{number}]"
        check.items(record, where, 6, 6)
        check.seat(record[0], f"{where}[0]", n)
        check.integer(record[1], f"{where}[1]", WAGER_ROUND, LAST_ROUND)
        check.text(record[2], f"{where}[2]", _ACTION_KINDS)
        check.integer(record[3], f"{where}[3]", 0, chips)
        check.integer(record[4], f"{where}[4]", -1, len(SPLITS) - 1)
        check.integer(record[5], f"{where}[5]", 0, chips)
    _check_showdown(state, n, chips)
    check.numbers(state.returns, "returns", n)
    check.flag(state.terminal, "terminal")
    check.flag(state.truncated, "truncated")
    check.hand_history(state.log, n)


def _check_showdown(state: DividhaState, n: int, chips: int) -> None:
    """The last settled hand's outcome: null before the first one ends, else its fields (the views
    and the rendering read them; the settlement that wrote them is not replayed)."""
    record = state.showdown
    if record is None and state.hand_number == 0:
        return
    if type(record) is not dict or set(record) != _SHOWDOWN_FIELDS:
        raise check.fail(
            "showdown", f"must be the last hand's outcome, an object of {', '.join(sorted(_SHOWDOWN_FIELDS))}"
        )
    check.integer(record["hand"], "showdown.hand", state.hand_number - 1, state.hand_number - 1)
    check.seat(record["dealer"], "showdown.dealer", n)
    check.integer(record["ante"], "showdown.ante", 0, chips)
    check.integers(record["folded"], "showdown.folded", 0, n - 1, (0, n))
    for name in ("win", "lose", "paid", "received"):
        check.integers(record[name], f"showdown.{name}", 0, chips, (n, n))
    check.integer(record["forfeit"], "showdown.forfeit", 0, chips)
    shown = record["shown"]
    if type(shown) is not dict or not set(shown) <= {str(seat) for seat in range(n)}:
        raise check.fail("showdown.shown", "must be an object from seats to the hands shown")
    for seat, hand in shown.items():
        if type(hand) is not dict or set(hand) != {"cards", "key", "name"}:
            raise check.fail(f"showdown.shown.{seat}", "must be an object of cards, key, name")
        for index, code in enumerate(check.items(hand["cards"], f"showdown.shown.{seat}.cards", 0, NUM_SLOTS)):
            check.text(code, f"showdown.shown.{seat}.cards[{index}]", rules.DECK)
    for name in ("trades", "public", "traded_in"):
        check.items(record[name], f"showdown.{name}", n, n)
    _check_plain(record, "showdown")


def _check_plain(value: Any, field: str) -> None:
    """Plain JSON that reads back equal: no NaN or infinity anywhere inside."""
    if isinstance(value, dict):
        for key, item in value.items():
            _check_plain(item, f"{field}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_plain(item, f"{field}[{index}]")
    elif type(value) is float:
        check.number(value, field)


def _check_places(config: DividhaConfig, state: DividhaState) -> None:
    """Each card of the deck in one slot, the discards or the stock; the chips in the stacks, the
    pot and the forfeits are the stacks dealt out."""
    places = {f"cards[{seat}]": [card for card in slots if card != EMPTY] for seat, slots in enumerate(state.cards)}
    places |= {f"discards[{seat}]": traded for seat, traded in enumerate(state.discards)}
    check.each_card_once(places | {"stock": state.stock}, NUM_CARDS)
    total, held = config.starting_stack * config.num_players, sum(state.stacks) + state.pot + state.forfeit
    if held != total:
        raise check.fail("stacks", f"the pot and the forfeits come to {held}, not the {total} dealt out")
    if not config.match and not all(state.in_match):
        raise check.fail("in_match", "must be every seat outside a match")
    if any(stack for stack, playing in zip(state.stacks, state.in_match) if not playing):
        raise check.fail("stacks", "of a seat out of the match must be 0 (its chips are forfeit)")


def _check_over(config: DividhaConfig, state: DividhaState) -> None:
    """Once the episode is over: no round open, the chips settled, the returns what the stacks give."""
    start = config.starting_stack
    if state.bets is not None or state.pot or state.forfeit:
        raise check.fail("bets", "must be null, with the pot and forfeits paid out, once the episode is over")
    if state.terminal == state.truncated or (state.truncated and state.hand_number < config.max_hands):
        raise check.fail("terminal", "or 'truncated' (after the last hand of a match) must be true once over")
    if state.returns != [float(stack - start) for stack in state.stacks]:
        raise check.fail("returns", "must be each stack less the starting stack once the episode is over")


def _check_replay(game: DividhaGame, state: DividhaState) -> None:
    """The hand replayed by the rules from its deal (the stock before any card was dealt) and the
    stacks before its antes gives the state back: every move legal in turn (4.1-4.4, 6)."""
    start = game.config.starting_stack
    if state.terminal or state.truncated or sum(state.in_match) < 2 or not state.in_match[state.dealer]:
        raise check.fail(
            "in_match", "must hold the dealer and another seat, the episode not over, while a hand is played"
        )
    if state.ante != game.ante_of_hand(state.hand_number):
        raise check.fail("ante", f"must be this hand's ante, {game.ante_of_hand(state.hand_number)}")
    before = [stack + paid for stack, paid in zip(state.stacks, state.paid)]
    if state.returns != [float(chips - start) for chips in before]:
        raise check.fail("returns", "must be each stack before this hand less the starting stack")
    replay = DividhaState(
        deal_seed=state.deal_seed,
        dealer=state.dealer,
        stacks=before,
        in_match=list(state.in_match),
        hand_number=state.hand_number,
        ante=state.ante,
        forfeit=state.forfeit,
        showdown=state.showdown,
        returns=list(state.returns),
    )
    game._deal_hand(replay, _stock_as_shuffled(game.num_players, state))
    for number, record in enumerate(state.actions):
        replay = _replay_move(game, replay, record, state.trades, f"actions[{number}]")
    for name in _REPLAYED:
        if getattr(replay, name) != getattr(state, name):
            raise check.fail(name, f"is {getattr(state, name)!r}, but the hand's moves give {getattr(replay, name)!r}")
    if state.phase == TRADING and replay.turn != state.turn:  # outside trading the turn is a stale index, unread
        raise check.fail("turn", f"is {state.turn!r}, but the hand's moves give {replay.turn!r}")
    if (replay.bets and replay.bets.to_json()) != (state.bets and state.bets.to_json()):
        raise check.fail("bets", "is not the round the hand's moves open")


def _stock_as_shuffled(n: int, state: DividhaState) -> list[int]:
    """The stock before the hand's first deal: each deal's cards in the order they were dealt (a
    traded card where it lay before the trade, its replacement after the second deal), then the stock."""
    clockwise = [(state.dealer + k) % n for k in range(1, n + 1)]
    dealt_cards = [list(slots) for slots in state.cards]
    replacements = []
    for seat in clockwise:
        slots = TRADE_CHOICES[state.trades[seat]] if state.trades[seat] >= 0 else ()
        if len(state.discards[seat]) != len(slots):
            raise check.fail(f"discards[{seat}]", f"must hold the {len(slots)} cards the seat's trade gave up")
        for slot, card in zip(slots, state.discards[seat]):
            replacements.append(dealt_cards[seat][slot])
            dealt_cards[seat][slot] = card
    stock = []
    for number in (1, 2, LAST_ROUND):
        for slot in DEALS[number]:
            stock += [dealt_cards[seat][slot] for seat in clockwise if dealt_cards[seat][slot] != EMPTY]
        if number == 2:
            stock += replacements
    stock += state.stock
    if sorted(stock) != list(range(NUM_CARDS)):
        raise check.fail("cards", "and the discards do not fit the deals and trades of a hand")
    return stock


def _replay_move(
    game: DividhaGame, replay: DividhaState, record: list[Any], trades: list[int], field: str
) -> DividhaState:
    """`replay` after the legal move that `record` ([seat, round, kind, chips, split, stack after]) names."""
    seat, _, kind, _, split, _ = record
    if replay.phase != OVER and game.current_player(replay) == seat:
        for action in game.legal_actions(replay):
            move = decode(action)
            if move.kind != kind or _split_id(move) != split or (kind == TRADE_KIND and move.choice != trades[seat]):
                continue
            twin = game.clone(replay)
            game.apply(twin, action)
            if twin.actions[-1] == record:
                return twin
    raise check.fail(field, f"({record}) is not a legal move after the ones before it")
