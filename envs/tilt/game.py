"""Tilt as a state machine: ante, deal, betting, the Hazard, the exchange, betting, showdown; hands of a match.

Follows ../shared/rules/tilt.md. A hand is a `plan` of steps (STEPS) run in order; a step either
opens a decision (a betting round, an exchange, a Haul keep...) or plays itself out. Hazards
change the plan (Leak in the Fuel Line, Well-Stocked Armory, Counting the Haul) or the next
exchange and betting round; evaluation Hazards act through `rules.best_key` at showdown.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from operator import add
from typing import Any

from cardarena.envs.core import betting
from cardarena.envs.core import validation as check
from cardarena.envs.core.cards import hand_seed, sampled, shuffle
from cardarena.envs.core.game import Game
from cardarena.envs.core.history import emit, seen_by

from . import rules
from .config import CARD_CODES, DECK, MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS, VOID, VOID_CODES, TiltConfig
from .evaluator import tabled_key
from .state import (
    AUTO,
    BET,
    CARD_PHASES,
    EXCHANGE,
    HAUL,
    MOVE_FIELDS,
    OVER,
    PHASES,
    SABOTAGE,
    SHARE_DISCARD,
    SHARE_PASS,
    STEPS,
    TiltState,
)
from .view import deal_hidden_again, state_from_view

CREW = frozenset(card for card in range(NUM_CARDS) if rules.PRINTED_SUIT[card] == rules.CREW)  # Fine Galley
HAND_SIZE = 4
MAX_OWN = 7  # Thumb + three Palm cards + three received in a Shares pass
MAX_EXCHANGE = 3
GRID_SIZE, TARIFFS, FINE_PRINT = 9, 2, 4
DECISIONS_REMEMBERED = 100_000  # betting situations remembered per game
KEY_CACHE_LIMIT = 200_000  # best keys remembered per game, of hands no evaluator table holds (about 200 bytes each)

FOLD, CALL, RAISE = 0, 1, 2
FIRST_SET = 3
NUM_ACTIONS = FIRST_SET + (1 << MAX_OWN)
ENGINE_IDS = {betting.FOLD: FOLD, betting.CHECK: CALL, betting.CALL: CALL, betting.RAISE_MIN: RAISE}
ENGINE_ACTIONS = {FOLD: betting.FOLD, RAISE: betting.RAISE_MIN}
POPCOUNT = tuple(bin(m).count("1") for m in range(1 << MAX_OWN))
CARD_VERBS = {EXCHANGE: "discard", SABOTAGE: "discard", SHARE_PASS: "pass", SHARE_DISCARD: "discard", HAUL: "keep"}

BET_INDEX = PHASES.index(BET)

# A hand's starting plan (state.STEPS, 4.1); Hazards edit the plan as they take effect.
FULL_PLAN = ["bet1", "hazard1", "exchange", "bet2", "armory", "showdown", "settle"]
SIMPLE_PLAN = ["bet1", "exchange", "bet2", "showdown", "settle"]  # void_deck=False (R48)
EXCHANGE_HAZARDS = ("GALY", "TRIK", "VOTE", "SABO", "SHAR")  # Hazards that modify the next exchange (4.4)


def _read_moves(moves: Any, env_id: str) -> bytearray:
    """The state's `moves` packed again from their JSON, one [phase, round, seat, value] list a move."""
    if not isinstance(moves, list) or not all(_is_move(move) for move in moves):
        raise check.fail("moves", f"must list one [phase, round, seat, value] of integers 0-255 a move, got {moves!r}")
    return bytearray(value for move in moves for value in move)


def _is_move(move: Any) -> bool:
    """One move as JSON: [phase, round, seat, value], integers 0-255."""
    return (
        isinstance(move, list)
        and len(move) == MOVE_FIELDS
        and all(type(value) is int and 0 <= value < 256 for value in move)
    )


class TiltGame(Game[TiltState]):
    name = "tilt"
    version = 2
    deck = DECK
    config_cls = TiltConfig
    state_cls = TiltState
    nested_fields = {"moves": _read_moves, "bets": betting.BettingRound.read_field}
    num_actions = NUM_ACTIONS
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    conformance_modes = (
        {},
        {"void_deck": False},
        {"num_hands": 8, "starting_stack": 12, "ante": 2},
        {"void_cards": ["ARMR", "DIST", "SHAR", "HAUL", "SABO", "STSH"], "starting_stack": 6},
    )
    config: TiltConfig

    def __init__(self, config: TiltConfig):
        super().__init__(config)
        # By every input of a best key (values, `best_key`), per game since flags follow its config.
        self._keys: dict[tuple[Any, ...], tuple[int, ...]] = {}
        # By the row of Hazards and the carried Gravity (values): the flags depend on them alone.
        self._flags: dict[tuple[Any, ...], int] = {}
        # By the betting rules and the round's `situation()` (values): all a betting decision depends on.
        self._decisions: dict[tuple[Any, ...], tuple[tuple[int, ...], dict[str, int]]] = {}
        n = self._num_players = config.num_players  # the frozen config's values, read once (a pydantic read costs)
        self._clockwise = [
            tuple((dealer + k) % n for k in range(1, n + 1)) for dealer in range(n)
        ]  # from each dealer's left
        self._void_order = tuple(config.void_indices) if config.void_deck else ()

    @property
    def num_players(self) -> int:
        return self._num_players

    # ------------------------------------------------------------ the Game contract

    def new_state(self, seed: int) -> TiltState:
        n, config = self.num_players, self.config
        dealer = config.dealer if config.dealer is not None else random.Random(seed).randrange(n)
        state = TiltState(
            deal_seed=seed, dealer=dealer, stacks=[config.starting_stack] * n, carry=[0] * n, returns=[0.0] * n
        )
        self._step_deal(state)
        self._advance(state)
        return state

    def current_player(self, state: TiltState) -> int:
        if state.phase == BET:
            assert state.bets is not None  # the betting phase holds its open round
            return state.bets.to_act[0]
        if state.phase in CARD_PHASES:
            return state.order[state.turn]
        return -1

    def legal_actions(self, state: TiltState) -> list[int]:
        if state.phase == BET:
            return list(self._betting_decision(state)[0])
        if state.phase in CARD_PHASES:
            return self._legal_card_sets(state, state.order[state.turn])
        return []

    def apply(self, state: TiltState, action: int) -> None:
        if state.phase == BET:
            self._bet(state, action)
        else:
            self._card_decision(state, action)
        self._advance(state)

    def max_decisions(self) -> int:
        """Per hand three betting rounds, each at most one turn a seat plus one for every other seat
        after each bet or raise (6.2), and at most three card decisions a seat: an exchange and a
        Shares pass and discard-down after Armory, or an exchange and a Haul keep at showdown."""
        n, config = self.num_players, self.config
        return (3 * (n + config.max_bets * (n - 1)) + 3 * n) * config.num_hands

    def hands_played(self, state: TiltState) -> int:
        return state.hand_number

    def conserved(self, state: TiltState) -> dict[str, Any]:
        """Every Voyage card wherever it lies, every Void card, and the chips in stacks, pots and carried."""
        cards = [c for hand in state.thumbs + state.palms for c in hand]
        cards += (
            state.stock + state.discards + state.fine + state.chicken + state.tariffs + state.grid + state.sabotage_pile
        )
        voids = state.void_deck + state.row + ([state.signal] if state.signal >= 0 else [])
        voids += [VOID["GRAV"]] if state.gravity else []
        chips = sum(state.stacks) + sum(state.contributions) + sum(state.carry)
        return {"cards": sorted(cards), "voids": sorted(voids), "chips": chips}

    def resample_hidden(self, state: TiltState, seat: int, rng: random.Random) -> TiltState:
        """See `view.deal_hidden_again` for what is dealt again and what is kept; the history is
        kept as `seat` knows it (the other seats' private events are dropped)."""
        twin = self.clone(state)
        deal_hidden_again(self, twin, seat, rng)
        twin.log = seen_by(state.log, seat)
        return twin

    def state_to_json(self, state: TiltState) -> dict[str, Any]:
        """The state's dataclass fields, `moves` as one [phase, round, seat, value] list a move."""
        data = super().state_to_json(state)
        flat = data["moves"]
        data["moves"] = [list(flat[at : at + MOVE_FIELDS]) for at in range(0, len(flat), MOVE_FIELDS)]
        return data

    def check_state(self, state: TiltState) -> None:
        """Every field in range, each Voyage and Void card in one place, the chips of the table,
        and the open decision one that play reaches (its phase, plan, seats and betting round)."""
        _check_fields(self, state)
        _check_places(self, state)
        _check_flow(self, state)

    def state_from_view(self, view: dict[str, Any]) -> TiltState:
        """Other Palms and face-down piles get unseen cards in any arrangement; see `Game.state_from_view`."""
        return state_from_view(self, view)

    def action_label(self, state: TiltState, action: int) -> str:
        if action < FIRST_SET:
            return self._betting_name(state, action)
        return self._decode(state, action)[0]

    def action_details(self, state: TiltState, action: int) -> dict[str, Any]:
        """Kind `fold`, `check`, `call`, `bet`, `raise` (no cards), or a card set: `discard`, `pass`
        or `keep` with the `cards` it names (the empty set: no cards)."""
        return self._decode(state, action)[1]

    def public_label(self, state: TiltState, action: int, label: str) -> str:
        """A card set shows only how many cards it names; a Haul keep shows nothing (9)."""
        if action < FIRST_SET or state.phase not in CARD_PHASES:
            return label
        verb = CARD_VERBS[state.phase]
        return verb if state.phase == HAUL else f"{verb} {POPCOUNT[action - FIRST_SET]}"

    # ------------------------------------------------------------ what a seat holds and faces

    @staticmethod
    def own_cards(state: TiltState, seat: int) -> list[int]:
        """The seat's Thumb and Palm cards sorted by card index: slot i is the i-th (4.9)."""
        return sorted(state.thumbs[seat] + state.palms[seat])

    @staticmethod
    def hazards_in_force(state: TiltState) -> list[int]:
        """The face-up Void cards in force (Void indices), a carried Gravity included."""
        return state.row + [VOID["GRAV"]] if state.gravity else state.row

    def hazard_flags(self, state: TiltState) -> int:
        """The evaluation flags of the Hazards in force (rules.hazard_flags_ids), remembered per row."""
        row = (state.gravity, *state.row)
        flags = self._flags.get(row)
        if flags is None:
            flags = self._flags[row] = rules.hazard_flags_ids(self.hazards_in_force(state))
        return flags

    def best_key(self, state: TiltState, seat: int, flags: int | None = None) -> tuple[int, ...]:
        """The key of the best hand the seat can form now from its own cards and the table cards it
        can see: read from the evaluator's table where one holds the hand, else remembered (the same
        cards and Hazards give the same key, at showdown and in observations)."""
        return self.best_key_of(state, tuple(self.own_cards(state, seat)), flags)

    def best_key_of(self, state: TiltState, own: tuple[int, ...], flags: int | None = None) -> tuple[int, ...]:
        """`best_key` of the seat whose own cards, sorted by card index, are `own`."""
        flags = self.hazard_flags(state) if flags is None else flags
        shared = tuple(state.chicken) if state.revealed else ()
        if shared or state.tariffs or state.grid:
            cache_key: tuple[Any, ...] = (own, flags, shared, tuple(state.tariffs), tuple(state.grid))
        else:
            key = tabled_key(own, flags)  # most hands: read from the evaluator's table, not remembered here
            if key is not None:
                return key
            cache_key = (own, flags)
        key = self._keys.get(cache_key)
        if key is None:
            if len(self._keys) > KEY_CACHE_LIMIT:
                self._keys.clear()
            key = self._keys[cache_key] = rules.best_key_ids(own, flags, shared, state.tariffs, state.grid)
        return key

    def live_seats(self, state: TiltState) -> list[int]:
        """Live seats clockwise from the dealer's left."""
        folded = state.folded
        return [seat for seat in self._clockwise[state.dealer] if not folded[seat]]

    def exchange_limit(self, state: TiltState, seat: int) -> int:
        """The most Palm cards the seat may exchange now (4.4): three, the cards left to draw, the Palm."""
        kind = state.exchange_kind
        if kind == "SABO":
            return min(MAX_EXCHANGE, len(state.palms[seat]))
        available = len(state.stock) + len(state.discards)
        if kind == "TRIK":
            available -= len(state.thumbs[seat])
        return max(0, min(MAX_EXCHANGE, available, len(state.palms[seat])))

    def _legal_card_sets(self, state: TiltState, seat: int) -> list[int]:
        own = self.own_cards(state, seat)
        if state.phase == HAUL:
            return [FIRST_SET + (1 << slot) for slot in range(len(own))]
        palm = set(state.palms[seat])
        if state.phase == EXCHANGE and state.exchange_kind == "GALY":
            palm -= CREW
        allowed = sum(1 << slot for slot, card in enumerate(own) if card in palm)
        if state.phase == SHARE_DISCARD:
            low = high = len(state.palms[seat]) - MAX_EXCHANGE
        elif state.phase == SHARE_PASS:
            low, high = 0, min(MAX_EXCHANGE, len(palm))
        else:
            low, high = 0, self.exchange_limit(state, seat)
        return list(_card_sets(len(own), allowed, low, high))

    def _decode(self, state: TiltState, action: int) -> tuple[str, dict[str, Any]]:
        """An action id at this decision point: its label and its details."""
        if action < FIRST_SET:
            name = self._betting_name(state, action)
            return name, {"kind": name.split()[0], "cards": []}
        seat = self.current_player(state)
        verb = CARD_VERBS.get(state.phase, "choose")
        own = self.own_cards(state, seat) if seat >= 0 else []
        m = action - FIRST_SET
        if m >= 1 << len(own):
            return f"card set {m}", {"kind": verb, "cards": []}
        cards = [CARD_CODES[card] for slot, card in enumerate(own) if m >> slot & 1]
        return f"{verb} {' '.join(cards) if cards else 'nothing'}", {"kind": verb, "cards": cards}

    @staticmethod
    def _betting_name(state: TiltState, action: int) -> str:
        if state.phase != BET:
            return ("fold", "check or call", "bet or raise")[action]
        bets = state.bets
        assert bets is not None  # the betting phase holds its open round
        facing = bets.current_bet > bets.contributions[bets.to_act[0]]
        return ("fold", "call" if facing else "check", "raise" if facing else "bet")[action]

    # ------------------------------------------------------------ hands (3, 4.1)

    def _step_deal(self, state: TiltState) -> None:
        """Setup, ante and deal of a hand (3)."""
        config, n = self.config, self.num_players
        seed = hand_seed(state.deal_seed, state.hand_number)
        rng = random.Random(seed)
        state.shuffles = 0
        state.stock = sampled(range(NUM_CARDS), rng)
        state.discards, state.row, state.signal = [], [], -1
        state.fine, state.chicken, state.tariffs, state.grid, state.sabotage_pile = [], [], [], [], []
        voids = [v for v in self._void_order if VOID_CODES[v] != "GRAV"] if state.gravity else self._void_order
        state.void_deck = sampled(voids, rng)
        state.revealed = False
        state.in_hand = [chips > 0 for chips in state.stacks]
        state.folded = [not dealt for dealt in state.in_hand]
        state.contributions = [min(config.ante, chips) for chips in state.stacks]
        state.stacks = [chips - ante for chips, ante in zip(state.stacks, state.contributions)]
        state.thumbs, state.palms = [[] for _ in range(n)], [[] for _ in range(n)]
        state.own_discards, state.passed = [[] for _ in range(n)], [[] for _ in range(n)]
        state.received = [[] for _ in range(n)]
        state.thumb_discards, state.moves = [], bytearray()
        state.keeps, state.counts = [-1] * n, [0] * n
        state.exchange_kind, state.paycheck_unit, state.betting_round, state.last_bettor = "", -1, 0, -1
        state.bets, state.bet_rules, state.committed = None, [], []
        state.plan = list(FULL_PLAN if config.void_deck else SIMPLE_PLAN)
        state.phase = AUTO
        seats = self.live_seats(state)
        emit(
            state.log,
            state.hand_number,
            "start",
            dealer=state.dealer,
            seats=seats,
            ante=list(state.contributions),
            stacks=list(state.stacks),
            carried=list(state.carry),
            gravity=state.gravity,
            void_deck=len(state.void_deck),
        )
        stock = state.stock
        for seat in seats:  # the first round face up: the Thumbs
            state.thumbs[seat].append(stock.pop())
        for _round in range(HAND_SIZE - 1):
            for seat in seats:
                state.palms[seat].append(stock.pop())
        for seat in seats:
            emit(
                state.log,
                state.hand_number,
                "deal",
                seat,
                {"palm": codes(state.palms[seat])},
                thumb=codes(state.thumbs[seat]),
                palm=3,
            )

    def _advance(self, state: TiltState) -> None:
        """Play the plan's steps until a seat must decide or the episode is over."""
        while state.phase == AUTO:
            if state.plan[0] != "deal" and state.folded.count(False) < 2:
                self._settle(state, contested=False)
            else:
                _STEPS[state.plan.pop(0)](self, state)

    def _draw(self, state: TiltState) -> int | None:
        """The top card of the stock, the discard pile shuffled in first if the stock is empty (4.8)."""
        if not state.stock and state.discards:
            state.stock, state.discards = self._shuffled(state, state.discards), []
            state.thumb_discards = []
            emit(state.log, state.hand_number, "reshuffle", stock=len(state.stock))
        return state.stock.pop() if state.stock else None

    def _shuffled(self, state: TiltState, cards: list[int]) -> list[int]:
        state.shuffles += 1
        pile = list(cards)
        shuffle(pile, hand_seed(hand_seed(state.deal_seed, state.hand_number), state.shuffles))
        return pile

    def _deal_to(self, state: TiltState, count: int) -> list[int]:
        cards = [self._draw(state) for _ in range(count)]
        return [card for card in cards if card is not None]

    # ------------------------------------------------------------ betting (section 6)

    def _step_bet1(self, state: TiltState) -> None:
        self._open_betting(state, 1, self.config.small_bet)

    def _step_bet2(self, state: TiltState) -> None:
        self._open_betting(state, 2, self.config.big_bet)

    def _step_bet3(self, state: TiltState) -> None:
        self._open_betting(state, 3, self.config.big_bet)

    def _open_betting(self, state: TiltState, number: int, unit: int) -> None:
        if state.paycheck_unit >= 0:  # a Paycheck round (6.4)
            state.bet_rules, state.paycheck_unit = [state.paycheck_unit, 1, "never"], -1
        else:
            state.bet_rules = [unit, self.config.max_bets, "facing_bet"]
        state.betting_round, state.committed = number, list(state.contributions)
        pot = sum(state.contributions) + sum(state.carry)
        bets = betting.BettingRound.open(
            self._rules(state), state.stacks, state.folded, (state.dealer + 1) % self._num_players, pot
        )
        state.last_bettor = -1
        if bets.finished:
            return
        state.bets, state.phase = bets, BET

    @staticmethod
    def _rules(state: TiltState) -> betting.BettingRules:
        return _betting_rules(*state.bet_rules)

    def _betting_decision(self, state: TiltState) -> tuple[tuple[int, ...], dict[str, int]]:
        """The open betting round's legal action ids and the engine's choices, kept by the round
        until it acts (the round's rules, `state.bet_rules`, are set when it opens)."""
        assert state.bets is not None  # asked for only while a round is open
        return state.bets.decision(self._remembered_decision, state.bet_rules)

    def _remembered_decision(
        self, bets: betting.BettingRound, bet_rules: list[Any]
    ) -> tuple[tuple[int, ...], dict[str, int]]:
        """A decision worked out once per situation (the round's rules and `situation()`) in this game."""
        situation = (*bet_rules, *bets.situation())
        decision = self._decisions.get(situation)
        if decision is None:
            if len(self._decisions) > DECISIONS_REMEMBERED:
                self._decisions.clear()
            decision = self._decisions[situation] = _decision_of(bets.choices(_betting_rules(*bet_rules)))
        return decision

    def _bet(self, state: TiltState, action: int) -> None:
        _ids, choices = self._betting_decision(state)
        bets = state.bets
        assert bets is not None  # a betting action comes only while a round is open
        seat = bets.to_act[0]
        name = ENGINE_ACTIONS.get(action) or (betting.CALL if betting.CALL in choices else betting.CHECK)
        bets.act(self._rules(state), name, choices)
        state.moves.extend((BET_INDEX, state.betting_round, seat, action))
        state.stacks, state.folded = list(bets.stacks), list(bets.folded)
        state.contributions = list(map(add, state.committed, bets.contributions))
        if action == FOLD:
            self._muck(state, seat)
        if bets.finished:
            state.last_bettor = -1 if bets.last_bettor is None else bets.last_bettor
            state.bets, state.phase = None, AUTO

    def _muck(self, state: TiltState, seat: int) -> None:
        """A folding seat's cards go face down onto the discard pile at once (4.8)."""
        state.discards += state.thumbs[seat] + state.palms[seat]
        state.thumbs[seat], state.palms[seat] = [], []

    # ------------------------------------------------------------ Hazards (4.3, 4.7)

    def _step_hazard1(self, state: TiltState) -> None:
        self._hazard_step(state, 1)

    def _step_hazard2(self, state: TiltState) -> None:
        self._hazard_step(state, 2)

    def _hazard_step(self, state: TiltState, stage: int) -> None:
        if not state.void_deck:
            emit(state.log, state.hand_number, "hazard", stage=stage, card=None)
            return
        card = state.void_deck.pop()
        state.row.append(card)
        code = VOID_CODES[card]
        emit(state.log, state.hand_number, "hazard", stage=stage, card=code)
        if code in EXCHANGE_HAZARDS:
            state.exchange_kind = code
        _HAZARD_EFFECTS[code](self, state, False)

    # Each Hazard's effect, drawn in play or revealed at showdown (`at_showdown`: what it deals is
    # dealt face up, and what would change later play has nothing left to change).

    def _hazard_fine(self, state: TiltState, at_showdown: bool) -> None:
        state.fine = self._deal_to(state, FINE_PRINT)
        self._log_deal(state, "fine_print", state.fine, at_showdown)

    def _hazard_leak(self, state: TiltState, at_showdown: bool) -> None:
        if not at_showdown:
            state.plan = ["showdown", "settle"]

    def _hazard_dist(self, state: TiltState, at_showdown: bool) -> None:
        if state.void_deck and not at_showdown:
            state.signal = state.void_deck.pop()
            emit(state.log, state.hand_number, "signal", face_down=True)

    def _hazard_stsh(self, state: TiltState, at_showdown: bool) -> None:
        self._draw_to_six(state, face_up=at_showdown)

    def _hazard_armr(self, state: TiltState, at_showdown: bool) -> None:
        """In play the plan step `armory` acts; at showdown the next Void card is revealed too."""
        if at_showdown and state.void_deck:
            self._reveal_at_showdown(state, state.void_deck.pop())

    def _step_armory(self, state: TiltState) -> None:
        """After Well-Stocked Armory as the first Hazard: a second Hazard, exchange and betting round (R24)."""
        if "ARMR" in [VOID_CODES[v] for v in state.row[:1]]:
            state.plan[:0] = ["hazard2", "exchange", "bet3"]

    def _hazard_haul(self, state: TiltState, at_showdown: bool) -> None:
        if "exchange" in state.plan:
            state.plan.remove("exchange")
        self._open_cards(state, HAUL, self.live_seats(state))

    def _hazard_chkn(self, state: TiltState, at_showdown: bool) -> None:
        self._discard_thumbs(state)
        state.chicken = self._deal_to(state, 1)
        self._log_deal(state, "chicken", state.chicken, at_showdown)

    def _hazard_payc(self, state: TiltState, at_showdown: bool) -> None:
        if not at_showdown:
            pot = sum(state.contributions) + sum(state.carry)
            state.paycheck_unit = min(self.config.big_bet, pot // len(self.live_seats(state)))

    def _hazard_trik(self, state: TiltState, at_showdown: bool) -> None:
        """In play it shapes the exchange (EXCHANGE_HAZARDS); at showdown every live Thumb is dealt again."""
        if at_showdown:
            for seat in self.live_seats(state):
                thumbs = state.thumbs[seat]
                self._discard_thumbs_of(state, seat)
                state.thumbs[seat] = self._deal_to(state, len(thumbs))
                self._log_draw(state, seat, state.thumbs[seat], face_up=True)

    def _hazard_taxs(self, state: TiltState, at_showdown: bool) -> None:
        state.tariffs = self._deal_to(state, TARIFFS)
        self._log_deal(state, "tariffs", state.tariffs, True)

    def _hazard_engb(self, state: TiltState, at_showdown: bool) -> None:
        self._discard_thumbs(state)

    def _log_deal(self, state: TiltState, place: str, cards: list[int], face_up: bool) -> None:
        shown = {"cards": codes(cards)} if face_up else {"count": len(cards)}
        emit(state.log, state.hand_number, "deal", place=place, **shown)

    def _discard_thumbs(self, state: TiltState) -> None:
        """Every live seat's Thumb cards go face up onto the discard pile (R44)."""
        for seat in self.live_seats(state):
            self._discard_thumbs_of(state, seat)

    def _draw_to_six(self, state: TiltState, face_up: bool) -> None:
        for seat in self.live_seats(state):
            drawn = self._deal_to(state, max(0, 6 - len(state.thumbs[seat]) - len(state.palms[seat])))
            state.palms[seat] += drawn
            self._log_draw(state, seat, drawn, face_up)

    def _log_draw(self, state: TiltState, seat: int, drawn: list[int], face_up: bool) -> None:
        if face_up:
            emit(state.log, state.hand_number, "draw", seat, cards=codes(drawn), count=len(drawn))
        else:
            emit(state.log, state.hand_number, "draw", seat, {"cards": codes(drawn)}, count=len(drawn))

    # ------------------------------------------------------------ card decisions (4.4, 4.9)

    def _step_exchange(self, state: TiltState) -> None:
        kind = state.exchange_kind
        if kind == "SHAR":
            start = state.last_bettor if state.last_bettor >= 0 else state.dealer
            n = self.num_players
            order = [seat for seat in ((start + k) % n for k in range(n)) if not state.folded[seat]]
            self._open_cards(state, SHARE_PASS, order)
        else:
            self._open_cards(state, SABOTAGE if kind == "SABO" else EXCHANGE, self.live_seats(state))

    def _open_cards(self, state: TiltState, phase: str, order: list[int]) -> None:
        state.phase, state.order, state.turn = phase, order, 0
        state.counts = [0] * self._num_players
        if phase == HAUL:
            state.keeps = [-1] * self._num_players
        if not order:
            state.phase = AUTO

    def _card_decision(self, state: TiltState, action: int) -> None:
        seat = state.order[state.turn]
        own = self.own_cards(state, seat)
        chosen = [card for slot, card in enumerate(own) if (action - FIRST_SET) >> slot & 1]
        state.moves.extend((PHASES.index(state.phase), state.betting_round, seat, len(chosen)))
        choose, close = _CARD_DECISIONS[state.phase]
        choose(self, state, seat, chosen)
        state.turn += 1
        if state.turn == len(state.order):
            close(self, state)

    def _choose_exchange(self, state: TiltState, seat: int, chosen: list[int]) -> None:
        kind, palm = state.exchange_kind, state.palms[seat]
        aside = list(chosen)
        for card in chosen:
            palm.remove(card)
        if kind == "TRIK":
            aside += state.thumbs[seat]
            state.thumb_discards += state.thumbs[seat]
            if state.thumbs[seat]:
                emit(state.log, state.hand_number, "discard_thumb", seat, cards=codes(state.thumbs[seat]))
            state.thumbs[seat] = []
        drawn = self._deal_to(state, len(aside))
        (state.thumbs if kind == "VOTE" else state.palms)[seat].extend(drawn)
        state.discards += aside
        state.own_discards[seat] += aside
        self._log_draw(state, seat, drawn, face_up=kind == "VOTE")

    def _close_exchange(self, state: TiltState) -> None:
        state.exchange_kind, state.phase = "", AUTO

    def _choose_sabotage(self, state: TiltState, seat: int, chosen: list[int]) -> None:
        for card in chosen:
            state.palms[seat].remove(card)
        state.sabotage_pile += chosen
        state.own_discards[seat] += chosen
        state.counts[seat] = len(chosen)

    def _close_sabotage(self, state: TiltState) -> None:
        """The Saboteur pile is shuffled and each seat draws its own number of discards from it (R41)."""
        pile = self._shuffled(state, state.sabotage_pile)
        state.sabotage_pile = []
        for seat in state.order:
            drawn = [pile.pop() for _ in range(state.counts[seat])]
            state.palms[seat] += drawn
            self._log_draw(state, seat, drawn, face_up=False)
        self._close_exchange(state)

    def _choose_share_pass(self, state: TiltState, seat: int, chosen: list[int]) -> None:
        receiver = state.order[(state.order.index(seat) + 1) % len(state.order)]
        for card in chosen:
            state.palms[seat].remove(card)
        state.palms[receiver] += chosen
        state.passed[seat] += chosen
        state.received[receiver] += chosen
        emit(state.log, state.hand_number, "receive", receiver, {"cards": codes(chosen)}, giver=seat, count=len(chosen))

    def _close_share_pass(self, state: TiltState) -> None:
        order = [seat for seat in state.order if len(state.palms[seat]) > MAX_EXCHANGE]
        self._open_cards(state, SHARE_DISCARD, order)
        if not order:
            self._close_share_discard(state)

    def _choose_share_discard(self, state: TiltState, seat: int, chosen: list[int]) -> None:
        for card in chosen:
            state.palms[seat].remove(card)
        state.discards += chosen
        state.own_discards[seat] += chosen

    def _close_share_discard(self, state: TiltState) -> None:
        start = state.last_bettor if state.last_bettor >= 0 else state.dealer
        n = self.num_players
        for seat in (seat for seat in ((start + k) % n for k in range(n)) if not state.folded[seat]):
            drawn = self._deal_to(state, max(0, MAX_EXCHANGE - len(state.palms[seat])))
            state.palms[seat] += drawn
            self._log_draw(state, seat, drawn, face_up=False)
        self._close_exchange(state)

    def _choose_haul(self, state: TiltState, seat: int, chosen: list[int]) -> None:
        state.keeps[seat] = chosen[0]

    def _close_haul(self, state: TiltState) -> None:
        """The keep choices take effect together, then the grid is dealt face up (R33)."""
        for seat in state.order:
            kept = state.keeps[seat]
            thumb_kept = kept in state.thumbs[seat]
            thrown = [card for card in self.own_cards(state, seat) if card != kept]
            thrown_thumbs = [card for card in state.thumbs[seat] if card != kept]
            state.discards += thrown
            state.thumb_discards += thrown_thumbs
            state.own_discards[seat] += thrown
            state.thumbs[seat], state.palms[seat] = ([kept], []) if thumb_kept else ([], [kept])
            emit(
                state.log,
                state.hand_number,
                "keep",
                seat,
                {"card": CARD_CODES[kept]},
                kept_thumb=thumb_kept,
                discarded_thumbs=codes(thrown_thumbs),
            )
        state.keeps = [-1] * self.num_players
        state.grid = self._deal_to(state, GRID_SIZE)
        emit(state.log, state.hand_number, "deal", place="grid", cards=[CARD_CODES[c] for c in state.grid])
        state.phase = AUTO

    # ------------------------------------------------------------ showdown and settlement (4.5, 6.6)

    def _step_showdown(self, state: TiltState) -> None:
        state.revealed = True
        live = self.live_seats(state)
        emit(
            state.log,
            state.hand_number,
            "showdown",
            hands={str(seat): codes(self.own_cards(state, seat)) for seat in live},
            fine_print=codes(state.fine),
            chicken=codes(state.chicken),
        )
        if state.signal >= 0:
            signal, state.signal = state.signal, -1
            self._reveal_at_showdown(state, signal)

    def _reveal_at_showdown(self, state: TiltState, card: int) -> None:
        state.row.append(card)
        code = VOID_CODES[card]
        emit(state.log, state.hand_number, "reveal", card=code)
        _HAZARD_EFFECTS[code](self, state, True)

    def _discard_thumbs_of(self, state: TiltState, seat: int) -> None:
        thumbs, state.thumbs[seat] = state.thumbs[seat], []
        if thumbs:
            state.discards += thumbs
            state.thumb_discards += thumbs
            emit(state.log, state.hand_number, "discard_thumb", seat, cards=codes(thumbs))

    def _step_settle(self, state: TiltState) -> None:
        self._settle(state, contested=True)

    def _settle(self, state: TiltState, contested: bool) -> None:
        """Pay the pots (6.6), close the hand, and start the next one or end the episode (4.6)."""
        n, flags = self.num_players, self.hazard_flags(state)
        live = self.live_seats(state)
        keys: list[tuple[int, ...] | None] = [None] * n
        if contested:
            for seat in live:
                keys[seat] = self.best_key(state, seat, flags)
        dummy = rules.best_key_ids(state.fine, flags) if state.fine and contested else None
        done = rules.settle_keys(state.contributions, state.folded, keys, flags, state.dealer, state.carry, dummy)
        pot = sum(state.contributions) + sum(state.carry)
        state.stacks = [chips + paid for chips, paid in zip(state.stacks, done.payouts)]
        state.contributions, state.carry = [0] * n, list(done.unawarded)
        state.hand_number += 1
        more = state.hand_number < self.config.num_hands and sum(chips > 0 for chips in state.stacks) >= 2
        if not more:
            state.stacks = [chips + owed for chips, owed in zip(state.stacks, state.carry)]
            state.carry = [0] * n
        before = list(state.returns)
        if not more:
            state.returns = [float(chips - self.config.starting_stack) for chips in state.stacks]
        shown = {str(seat): codes(self.own_cards(state, seat)) for seat in live} if contested else {}
        emit(
            state.log,
            state.hand_number - 1,
            "result",
            hazards=[VOID_CODES[v] for v in self.hazards_in_force(state)],
            live=live,
            hands=shown,
            keys={str(seat): list(key) for seat in live if (key := keys[seat]) is not None},
            fine_print=codes(state.fine) if dummy is not None else None,
            pot=pot,
            winners=done.winners,
            payouts=list(done.payouts),
            unpaid=list(done.unawarded),
            carried=list(state.carry),
            stacks=list(state.stacks),
            rewards=[after - b for after, b in zip(state.returns, before)],
        )
        if more:
            state.gravity = bool(flags & rules.GRAV) and done.orbitless
            state.dealer, state.plan = self._next_dealer(state), ["deal"]
        else:
            state.phase, state.terminal, state.plan = OVER, True, []

    def _next_dealer(self, state: TiltState) -> int:
        n = self.num_players
        return next(seat for seat in ((state.dealer + k) % n for k in range(1, n + 1)) if state.stacks[seat] > 0)


def codes(cards: list[int]) -> list[str]:
    """Card codes of card indices, sorted by card index."""
    return [CARD_CODES[card] for card in sorted(cards)]


# Keyed by the rules' three values; the rules are frozen, so sharing them is safe.
@functools.cache
def _betting_rules(unit: int, cap: int, fold: betting.FoldRule) -> betting.BettingRules:
    """Fixed-limit rules with stacks binding (6.1, 6.3); a Paycheck round is one bet and no fold (6.4)."""
    return betting.BettingRules(unit=unit, max_bets=cap, fold=fold)


# Keyed by four ints: a pure function of them, its tuple immutable.
@functools.cache
def _card_sets(held: int, allowed: int, low: int, high: int) -> tuple[int, ...]:
    """The ids of the card sets among `held` slots using only `allowed` slots, of `low` to `high` cards."""
    return tuple(FIRST_SET + m for m in range(1 << held) if m & ~allowed == 0 and low <= POPCOUNT[m] <= high)


def _decision_of(choices: dict[str, int]) -> tuple[tuple[int, ...], dict[str, int]]:
    """The action ids of the betting engine's choices, ascending, and the choices."""
    return _action_ids(tuple(choices)), choices


@functools.cache  # by the engine's option names, a tuple of strings: a value, and a few dozen at most
def _action_ids(options: tuple[str, ...]) -> tuple[int, ...]:
    """The action ids of the betting engine's options, ascending."""
    return tuple(sorted({ENGINE_IDS[name] for name in options}))


def _check_fields(game: TiltGame, state: TiltState) -> None:
    """Each field's JSON type, range and size (`Game.check_state`)."""
    n, config = game.num_players, game.config
    chips = config.starting_stack * n
    check.integer(state.deal_seed, "deal_seed", 0, check.MAX_SEED)
    check.seat(state.dealer, "dealer", n)
    for name in ("stacks", "carry", "contributions", "counts"):
        check.integers(getattr(state, name), name, 0, chips, (n, n))
    check.integer(state.hand_number, "hand_number", 0, config.num_hands)
    check.integer(state.shuffles, "shuffles", 0, check.MAX_SEED)
    for name in ("thumbs", "palms", "own_discards", "passed", "received"):
        for seat, held in enumerate(check.items(getattr(state, name), name, n, n)):
            check.cards(held, f"{name}[{seat}]", NUM_CARDS)
    for name, most in _PILES.items():
        check.cards(getattr(state, name), name, NUM_CARDS, (0, most))
    check.integers(state.void_deck, "void_deck", 0, len(VOID_CODES) - 1)
    check.integers(state.row, "row", 0, len(VOID_CODES) - 1)
    check.integer(state.signal, "signal", -1, len(VOID_CODES) - 1)
    for name in ("gravity", "revealed", "terminal"):
        check.flag(getattr(state, name), name)
    for name in ("folded", "in_hand"):
        for seat, value in enumerate(check.items(getattr(state, name), name, n, n)):
            check.flag(value, f"{name}[{seat}]")
    for number, step in enumerate(check.items(state.plan, "plan", 0, len(STEPS))):
        check.text(step, f"plan[{number}]", STEPS)
    check.text(state.phase, "phase", PHASES)
    check.integers(state.order, "order", 0, n - 1, (0, n))
    check.integer(state.turn, "turn", 0, n)
    check.text(state.exchange_kind, "exchange_kind", ("", *EXCHANGE_HAZARDS))
    if check.integer(state.paycheck_unit, "paycheck_unit", -1, config.big_bet) >= 0 and (
        state.paycheck_unit == 0 or VOID["PAYC"] not in state.row
    ):
        raise check.fail("paycheck_unit", f"is {state.paycheck_unit}, but no Paycheck of 1 chip or more is in the row")
    check.integer(state.betting_round, "betting_round", 0, 3)
    check.seat(state.last_bettor, "last_bettor", n, none=True)
    check.integers(state.keeps, "keeps", -1, NUM_CARDS - 1, (n, n))
    for number in range(0, len(state.moves), MOVE_FIELDS):
        _check_move(game, state.moves[number : number + MOVE_FIELDS], f"moves[{number // MOVE_FIELDS}]")
    check.numbers(state.returns, "returns", n)
    check.hand_history(state.log, n)


# Most cards each table pile holds: the Fine Print, the Chicken card, the Tariffs, the grid.
_PILES = {"stock": NUM_CARDS, "discards": NUM_CARDS, "fine": FINE_PRINT, "chicken": 1, "tariffs": TARIFFS}
_PILES |= {"grid": GRID_SIZE, "sabotage_pile": MAX_PLAYERS * MAX_EXCHANGE, "thumb_discards": NUM_CARDS}


def _check_move(game: TiltGame, move: bytearray, field: str) -> None:
    """A public move: a decision phase, a betting round, a seat, and a betting action or a card count."""
    phase, betting_round, seat, value = move
    if phase >= len(PHASES) or PHASES[phase] not in (BET, *CARD_PHASES) or betting_round > 3:
        raise check.fail(field, f"names no decision of a betting round 0-3: {list(move)}")
    check.seat(seat, f"{field}[2]", game.num_players)
    check.integer(value, f"{field}[3]", 0, RAISE if phase == BET_INDEX else MAX_OWN)


def _check_places(game: TiltGame, state: TiltState) -> None:
    """Each Voyage card in one place, the Void cards of the table each once, the table's chips (3)."""
    places = {f"thumbs[{seat}]": held for seat, held in enumerate(state.thumbs)}
    places |= {f"palms[{seat}]": held for seat, held in enumerate(state.palms)}
    places |= {name: getattr(state, name) for name in _PILES if name != "thumb_discards"}
    check.each_card_once(places, NUM_CARDS)
    voids = {"void_deck": state.void_deck, "row": state.row, "signal": [state.signal] if state.signal >= 0 else []}
    voids["gravity"] = [VOID["GRAV"]] if state.gravity else []
    check.each_card_once(voids, len(VOID_CODES), whole_deck=False)
    in_play = sorted(game.config.void_indices) if game.config.void_deck else []
    if sorted(void for held in voids.values() for void in held) != in_play:
        raise check.fail("void_deck", f"with the row, the Signal and a carried Gravity is not the Void deck {in_play}")
    for seat in range(game.num_players):
        if len(state.thumbs[seat]) + len(state.palms[seat]) > MAX_OWN:
            raise check.fail(f"palms[{seat}]", f"with the seat's Thumb cards holds more than {MAX_OWN} cards")
        if state.folded[seat] and (state.thumbs[seat] or state.palms[seat]):
            raise check.fail(f"folded[{seat}]", "is true, but the seat holds cards")
        if not state.in_hand[seat] and (not state.folded[seat] or state.contributions[seat]):
            raise check.fail(f"in_hand[{seat}]", "is false, but the seat plays the hand or put chips in")
    chips = sum(state.stacks) + sum(state.contributions) + sum(state.carry)
    if chips != game.config.starting_stack * game.num_players:
        raise check.fail("stacks", f"with contributions and carry total {chips} chips, not the table's starting stacks")


def _check_flow(game: TiltGame, state: TiltState) -> None:
    """The phase and plan a hand reaches: a decision open unless the episode is over (4.1, 6)."""
    if state.terminal != (state.phase == OVER) or (state.terminal and state.plan):
        raise check.fail("phase", f"{state.phase!r} does not fit terminal {state.terminal} and plan {state.plan}")
    if state.terminal:
        return
    if state.hand_number >= game.config.num_hands:
        raise check.fail("hand_number", f"is {state.hand_number}, but the match of {game.config.num_hands} plays on")
    steps = [STEPS.index(step) for step in state.plan]
    if state.phase == AUTO or not steps or steps != sorted(set(steps)) or steps[0] == 0 or state.plan[-1] != "settle":
        raise check.fail("plan", f"{state.plan} is not the rest of a hand at phase {state.phase!r}")
    if state.folded.count(False) < 2:
        raise check.fail("folded", "leaves fewer than two seats in a hand in play")
    if state.phase == BET:
        _check_betting(game, state)
    elif state.bets is not None:
        raise check.fail("bets", f"is a betting round, but the phase is {state.phase!r}")
    else:
        _check_card_decision(game, state)


def _check_betting(game: TiltGame, state: TiltState) -> None:
    """The open round (6): its rules, and its chips and seats those of the table."""
    n, config = game.num_players, game.config
    if state.bets is None:
        raise check.fail("bets", "is null in a betting phase")
    check.items(state.bet_rules, "bet_rules", 3, 3)
    check.integer(state.bet_rules[0], "bet_rules[0]", 1, max(config.small_bet, config.big_bet))
    check.integer(state.bet_rules[1], "bet_rules[1]", 1, config.max_bets)
    check.text(state.bet_rules[2], "bet_rules[2]", ("facing_bet", "never"))
    check.integers(state.committed, "committed", 0, config.starting_stack * n, (n, n))
    bets = state.bets
    bets.check("bets", n, game._rules(state), config.starting_stack * n)
    if bets.finished or state.betting_round == 0:
        raise check.fail("bets", "is a finished round in a betting phase")
    if bets.stacks != state.stacks or bets.folded != state.folded:
        raise check.fail("bets", "stacks or folded seats differ from the table's")
    if list(map(add, state.committed, bets.contributions)) != state.contributions:
        raise check.fail("contributions", "are not the committed chips plus the open round's")
    if bets.pot != sum(state.contributions) + sum(state.carry):
        raise check.fail("bets.pot", f"is {bets.pot}, not the chips put in and carried")


def _check_card_decision(game: TiltGame, state: TiltState) -> None:
    """An open card decision (4.4, 4.9): live seats in turn, each able to choose a set."""
    order, turn = state.order, state.turn
    if not order or len(set(order)) != len(order) or turn >= len(order):
        raise check.fail("order", f"{order} at turn {turn} is no open card decision")
    if any(state.folded[seat] for seat in order):
        raise check.fail("order", f"{order} names a seat that has folded")
    waiting = order[turn:]
    if state.phase == SHARE_DISCARD and any(len(state.palms[seat]) <= MAX_EXCHANGE for seat in waiting):
        raise check.fail("palms", f"of a seat to discard down hold {MAX_EXCHANGE} cards or fewer")
    if state.phase == HAUL:
        for seat in range(game.num_players):
            chosen = seat in order[:turn]
            keep = state.keeps[seat]
            if (keep in game.own_cards(state, seat)) != chosen or not (chosen or keep == -1):
                raise check.fail(f"keeps[{seat}]", f"is {keep}, not a card the seat holds and chose")
        if any(not game.own_cards(state, seat) for seat in waiting):
            raise check.fail("order", "names a seat with no card to keep")
    drawn = sum(state.counts[seat] for seat in order[:turn]) if state.phase == SABOTAGE else 0
    if drawn != len(state.sabotage_pile) or any(count > MAX_EXCHANGE for count in state.counts):
        raise check.fail("sabotage_pile", f"holds {len(state.sabotage_pile)} cards, the seats' counts {state.counts}")


def _no_effect(game: TiltGame, state: TiltState, at_showdown: bool) -> None:
    """A Void card acting only at evaluation or on the exchange (EXCHANGE_HAZARDS) has nothing to do when it
    comes up."""


# What each Void card does when it comes up, drawn in play or revealed at showdown (4.3, 4.7).
_HAZARD_EFFECTS: dict[str, Callable[[TiltGame, TiltState, bool], None]] = {
    "FINE": TiltGame._hazard_fine,
    "LEAK": TiltGame._hazard_leak,
    "MUTI": _no_effect,
    "DIST": TiltGame._hazard_dist,
    "STSH": TiltGame._hazard_stsh,
    "ARMR": TiltGame._hazard_armr,
    "BINY": _no_effect,
    "HULL": _no_effect,
    "GRAV": _no_effect,
    "TEAM": _no_effect,
    "TRST": _no_effect,
    "GALY": _no_effect,
    "HAUL": TiltGame._hazard_haul,
    "CHKN": TiltGame._hazard_chkn,
    "JUMP": _no_effect,
    "PAYC": TiltGame._hazard_payc,
    "TRIK": TiltGame._hazard_trik,
    "EXPD": _no_effect,
    "TAXS": TiltGame._hazard_taxs,
    "VOTE": _no_effect,
    "SABO": _no_effect,
    "SHAR": _no_effect,
    "ENGB": TiltGame._hazard_engb,
}
if sorted(_HAZARD_EFFECTS) != sorted(VOID_CODES):
    raise RuntimeError(
        f"Tilt's Hazard effects name {sorted(set(_HAZARD_EFFECTS) ^ set(VOID_CODES))} wrongly: one entry per Void card"
    )

# The methods a plan step and a card decision (its choice, then its close) run,
# looked up once: by name on each call they cost about 0.1 µs more.
_STEPS = {step: getattr(TiltGame, f"_step_{step}") for step in STEPS}
_CARD_DECISIONS = {
    phase: (getattr(TiltGame, f"_choose_{phase}"), getattr(TiltGame, f"_close_{phase}")) for phase in CARD_PHASES
}
