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
from cardarena.envs.core import validation as check
from cardarena.envs.core.cards import hand_seed
from cardarena.envs.core.game import Game
from cardarena.envs.core.history import RESULT, emit, seen_by
from cardarena.envs.core.picks import PickActions, PickRule, PickState

from . import rules
from .config import AntipokerConfig
from .draw import deal_hidden, deal_in_order, discard_and_draw, draw_in_order, draw_order
from .rules import DECK, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from .state import BETTING, DRAW, OVER, PHASE_NAMES, AntipokerState
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
    nested_fields = {"bets": betting.BettingRound.read_field}
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
            assert state.bets is not None  # the betting phase holds its open round
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

    def check_state(self, state: AntipokerState) -> None:
        """Every field in range, each of the 45 cards in one place, the draws so far the discards,
        reshuffles and deck they give, and the betting round its moves replayed (3, 4, R16)."""
        _check_fields(self, state)
        check.each_card_once(
            {
                **{f"hands[{seat}]": hand for seat, hand in enumerate(state.hands)},
                "deck": state.deck,
                "pile": state.pile,
            },
            len(DECK),
        )
        _check_draws(self, state)
        _check_betting(self, state)

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
        assert state.bets is not None  # asked for only while a round is open
        return state.bets.decision(betting.BettingRound.choices, self.betting_rules)

    def _bet(self, state: AntipokerState, word: str) -> None:
        choices = self._choices(state)
        bets = state.bets
        assert bets is not None  # a betting action comes only while a round is open
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


def _most_chips(game: AntipokerGame) -> int:
    """The most chips one hand's pot can hold: every seat's ante and every bet of the round."""
    config = game.config
    return game.num_players * (config.ante + config.max_bets * config.bet_size)


def _check_fields(game: AntipokerGame, state: AntipokerState) -> None:
    """Each field's JSON type, range and size (`Game.check_state`)."""
    n, config, deck_size, chips = game.num_players, game.config, len(DECK), _most_chips(game)
    check.integer(state.deal_seed, "deal_seed", 0, check.MAX_SEED)
    check.seat(state.dealer, "dealer", n)
    check.integer(state.hand_number, "hand_number", 0, config.num_hands)
    for seat, hand in enumerate(check.items(state.hands, "hands", n, n)):
        check.cards(hand, f"hands[{seat}]", deck_size, (HAND_SIZE, HAND_SIZE))
    check.cards(state.deck, "deck", deck_size)
    check.cards(state.pile, "pile", deck_size)
    check.integers(state.pile_owner, "pile_owner", 0, n - 1, (len(state.pile), len(state.pile)))
    check.cards(state.picked, "picked", deck_size, (0, HAND_SIZE))
    for seat, cards in enumerate(check.items(state.discarded, "discarded", n, n)):
        check.cards(cards, f"discarded[{seat}]", deck_size, (0, HAND_SIZE))
    check.integers(state.drawn, "drawn", -1, HAND_SIZE, (n, n))
    for number, entry in enumerate(check.items(state.reshuffles, "reshuffles", 0, n)):
        check.items(entry, f"reshuffles[{number}]", 2, 2)
        check.seat(entry[0], f"reshuffles[{number}][0]", n)
        check.integer(entry[1], f"reshuffles[{number}][1]", 0, deck_size)
    check.integer(state.phase, "phase", DRAW, OVER)
    check.seat(state.to_act, "to_act", n, none=True)
    check.integers(state.contributed, "contributed", 0, chips, (n, n))
    for seat, out in enumerate(check.items(state.folded, "folded", n, n)):
        check.flag(out, f"folded[{seat}]")
    check.integer(state.pot, "pot", sum(state.contributed), sum(state.contributed))
    if check.integers(state.revealed, "revealed", 0, n - 1, (0, n)) != sorted(set(state.revealed)):
        raise check.fail("revealed", f"must list seats once each, ascending: {state.revealed}")
    check.numbers(state.returns, "returns", n)
    if abs(sum(state.returns)) > 1e-6 or max(map(abs, state.returns)) > chips * state.hand_number:
        raise check.fail("returns", f"{state.returns} are no running totals of {state.hand_number} hands")
    check.flag(state.terminal, "terminal")
    check.hand_history(state.log, n)


def _check_draws(game: AntipokerGame, state: AntipokerState) -> None:
    """The draws so far (4.1, R3): seats in turn from the dealer's left, and the reshuffles, the deck's
    size and who owns each pile card what discards of the counted sizes give; the drawing seat's picks its own."""
    replay = AntipokerState(deal_seed=state.deal_seed, dealer=state.dealer, hand_number=state.hand_number)
    deal_in_order(replay, game.num_players, game.config.ante)
    try:
        done = draw_in_order(replay, [None if count < 0 else count for count in state.drawn])
    except ValueError as error:
        raise check.fail("drawn", str(error)) from None
    order = draw_order(replay)
    to_act = order[len(done)] if len(done) < len(order) else -1
    if state.phase == DRAW and (to_act < 0 or state.to_act != to_act or state.terminal):
        raise check.fail("to_act", f"is {state.to_act}, but the draws give seat {to_act} to draw")
    if state.phase != DRAW and to_act >= 0:
        raise check.fail(
            "drawn", f"{state.drawn}: not every seat has drawn, yet the phase is {PHASE_NAMES[state.phase]!r}"
        )
    for name in ("reshuffles", "pile_owner"):
        if getattr(replay, name) != getattr(state, name):
            raise check.fail(
                name, f"is {getattr(state, name)}, but the draws {state.drawn} give {getattr(replay, name)}"
            )
    if len(replay.deck) != len(state.deck):
        raise check.fail("deck", f"holds {len(state.deck)} cards, but the draws {state.drawn} leave {len(replay.deck)}")
    for seat, cards in enumerate(state.discarded):
        if len(cards) not in (0, max(state.drawn[seat], 0)) or set(cards) & set(state.hands[seat]):
            raise check.fail(f"discarded[{seat}]", "is not a discard of the seat's counted size out of its hand")
    drawing = state.hands[state.to_act] if state.phase == DRAW else []
    if len(set(state.picked)) != len(state.picked) or not set(state.picked) <= set(drawing):
        raise check.fail("picked", f"{state.picked} are not cards of the drawing seat's hand")


def _check_betting(game: AntipokerGame, state: AntipokerState) -> None:
    """The chips, the betting round (its moves replayed from its opening, R16) and the end of the hand."""
    n, config = game.num_players, game.config
    over = state.phase == OVER
    if over != state.terminal or over != (state.hand_number == config.num_hands) or (over and state.to_act >= 0):
        raise check.fail("phase", f"{PHASE_NAMES[state.phase]!r} does not fit hand {state.hand_number} and terminal")
    if state.phase == DRAW or not config.betting:
        if state.bets is not None or (
            not over and (state.contributed != [config.ante] * n or any(state.folded) or state.revealed)
        ):
            raise check.fail("bets", "must be null, and the chips the antes, before the betting round")
        return
    if state.bets is None:
        raise check.fail("bets", f"is null in phase {PHASE_NAMES[state.phase]!r}")
    bets = state.bets
    bets.check("bets", n, game.betting_rules, _most_chips(game))
    replay = rules.open_betting(game.betting_rules, n, state.dealer, config.ante * n)
    for number, (seat, move) in enumerate(bets.history):
        if replay.finished or replay.seat_to_act != seat or move not in replay.options(game.betting_rules):
            raise check.fail(f"bets.history[{number}]", f"({seat}, {move!r}) cannot follow the moves before it")
        replay.act(game.betting_rules, move)
    if replay != bets or replay.finished != over:
        raise check.fail("bets", "is not the round its moves give from its opening")
    if state.contributed != [config.ante + paid for paid in bets.contributions] or state.folded != bets.folded:
        raise check.fail("contributed", "or folded are not the antes and the betting round's")
    if not over and state.to_act != bets.seat_to_act:
        raise check.fail("to_act", f"is {state.to_act}, but the betting round gives seat {bets.seat_to_act}")


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
        assert bets is not None  # the betting phase holds its open round
        owes = bets.current_bet > bets.contributions[state.to_act]
        word = {FOLD: "fold", CALL: "call" if owes else "check", RAISE: "raise" if bets.bets else "bet"}[action]
        return word, {"kind": word, "cards": []}
    if action in WORD_OF_ID:
        return WORD_OF_ID[action], {"kind": WORD_OF_ID[action], "cards": []}
    return f"unknown action {action}", {"kind": "unknown", "cards": []}
