"""Paradigm as a state machine: suit choice, the setup reveal, then one turn per card of the deck
(reveal, processing or Essence, cancel windows, the play round) until the deck is exhausted.

Follows ../shared/rules/paradigm.md; section numbers below refer to it.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Annotated, Any

from cardarena.envs.core import validation as check
from cardarena.envs.core.cards import hand_seed, shuffle
from cardarena.envs.core.config import GameConfig
from cardarena.envs.core.game import Game
from cardarena.envs.core.hidden import Place, deal_unseen
from cardarena.envs.core.history import RESULT, emit, seen_by
from pydantic import Field

from . import rules
from .rules import DECK, ERROR_LENGTH, GHOST_ID, SUIT, SUITS, VALUE
from .state import (
    CANCEL,
    ESSENCE,
    FIRST_CANCEL,
    FIRST_CARD,
    FIRST_ON_TOP,
    FIRST_SUIT,
    FROM_HAND,
    HAND_ID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEW_PILE_ID,
    NUM_ACTIONS,
    OVER,
    PASS_ID,
    PENDING_NAMES,
    PHASE_NAMES,
    PLACE,
    PLAY,
    PROCESS,
    PROCESSING,
    START,
    SUIT_PHASE,
    TO_HAND,
    TO_NEW_PILE,
    UNDECIDED,
    ParadigmState,
    current_scores,
    lead_seat,
)
from .view import state_from_view


class ParadigmConfig(GameConfig):
    """Paradigm's settings (rulebook section 8)."""

    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 4


class ParadigmGame(Game[ParadigmState]):
    name = "paradigm"
    version = 2
    deck = DECK
    config_cls = ParadigmConfig
    state_cls = ParadigmState
    num_actions = NUM_ACTIONS
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    open_information = True
    config: ParadigmConfig

    @property
    def num_players(self) -> int:
        return self.config.num_players

    def new_state(self, seed: int) -> ParadigmState:
        """Shuffle the deck (3.1); seat 0 chooses a suit first."""
        n = self.num_players
        state = ParadigmState(seed=seed, num_players=n, suits=[-1] * n, deck=DECK.shuffled(hand_seed(seed, 0)))
        state.hands = [[] for _ in range(n)]
        state.returns = [0.0] * n
        emit(state.log, 0, "start", players=n)
        return state

    def current_player(self, state: ParadigmState) -> int:
        return state.to_act

    def legal_actions(self, state: ParadigmState) -> list[int]:
        phase, seat = state.phase, state.to_act
        if phase == SUIT_PHASE:
            return [FIRST_SUIT + suit for suit in range(len(SUITS)) if suit not in state.suits]
        if phase == START:
            return [FIRST_CARD + card for card in starting_options(state, seat)]
        if phase == PROCESS:
            return [HAND_ID, NEW_PILE_ID] + _on_top_ids(state)
        if phase == PLACE:
            return [NEW_PILE_ID] + _on_top_ids(state)
        if phase == PLAY:
            return [FIRST_CARD + card for card in state.hands[seat]] + [PASS_ID]
        if phase == CANCEL:
            return [PASS_ID] + [FIRST_CANCEL + v - 1 for v in rules.error_starts_ids(state.hands[seat])]
        return []

    def apply(self, state: ParadigmState, action: int) -> None:
        phase = state.phase
        if phase == SUIT_PHASE:
            _choose_suit(state, action - FIRST_SUIT)
        elif phase == START:
            _take_starting_card(state, action - FIRST_CARD)
            _ask_starting_cards(state, state.to_act + 1)
        elif phase in (PROCESS, PLACE):
            state.pending[3] = _destination(action)
            _open_window(state, (state.pending[2] + 1) % state.num_players)
        elif phase == PLAY:
            _play_from_hand(state, action)
        elif phase == CANCEL:
            _answer_window(state, action)

    def max_decisions(self) -> int:
        """Setup: at most n suit choices and n starting picks (3). Each of the 45 - n turns: the
        reveal's resolution takes at most n decisions (processing and n - 1 cancel offers, or n
        offers for an Essence), and the play round at most n + 1 per seat (a card, its placement
        and n - 1 cancel offers) (4.1-4.4)."""
        n = self.num_players
        return 2 * n + (len(DECK) - n) * (n + n * (n + 1))

    def conserved(self, state: ParadigmState) -> dict[str, Any]:
        """The 45 cards: deck, setup reveal, table, hands, discard pile and a pending card."""
        cards = state.deck + state.setup_revealed + state.discard
        cards += [card for pile in state.table for card in pile] + [card for hand in state.hands for card in hand]
        cards += [state.pending[1]] if state.pending else []
        return {"cards": sorted(cards)}

    def check_state(self, state: ParadigmState) -> None:
        """Every field in range, each card of the deck in one place, piles and hands as play builds
        them, the phase's pending move, seat to act and window, and returns that follow from the
        final scores (sections 3-7)."""
        _check_fields(self.num_players, state)
        _check_places(state)
        if state.phase in (SUIT_PHASE, START):
            _check_setup(state)
        else:
            _check_turn(state)

    def resample_hidden(self, state: ParadigmState, seat: int, rng: random.Random) -> ParadigmState:
        """Shuffle the draw deck again, and draw a new seed for the setup's reshuffle (section 9).

        Every other card is public (hands too, R8), so everything but the deck's order is kept,
        the history included; the deck's contents are known to all and stay.
        """
        twin = self.clone(state)
        twin.seed = rng.getrandbits(63)
        twin.deck = deal_unseen(state.deck, [Place(len(state.deck))], rng)[0]
        twin.log = seen_by(state.log, seat)
        return twin

    def action_label(self, state: ParadigmState, action: int) -> str:
        return _decode(state, action)[0]

    def action_details(self, state: ParadigmState, action: int) -> dict[str, Any]:
        """Kinds `suit` (with `suit`), `start`, `play`, `hand`, `new_pile`, `on_top` (with `target`,
        the covered top card), `pass` and `cancel` (with `error`, the Error's lowest value)."""
        return _decode(state, action)[1]

    def clone(self, state: ParadigmState) -> ParadigmState:
        return ParadigmState(
            seed=state.seed,
            num_players=state.num_players,
            suits=state.suits[:],
            deck=state.deck[:],
            phase=state.phase,
            to_act=state.to_act,
            setup_revealed=state.setup_revealed[:],
            table=[pile[:] for pile in state.table],
            hands=[hand[:] for hand in state.hands],
            discard=state.discard[:],
            turn=state.turn,
            revealed=state.revealed,
            pending=state.pending[:],
            window_start=state.window_start,
            round_seat=state.round_seat,
            returns=state.returns[:],
            terminal=state.terminal,
            log=state.log[:],
        )

    def state_from_view(self, view: dict[str, Any]) -> ParadigmState:
        """Every card but the deck's order is in the view (R8): the state is the view's, with the
        unseen cards as the deck in deck order (see `Game.state_from_view`)."""
        return state_from_view(self, view)


# ---------------------------------------------------------------- setup (3)


def owner_of(state: ParadigmState, card: int) -> int:
    """The seat whose suit `card` is, or -1 (an unowned suit, the Ghost)."""
    suit = SUIT[card]
    return state.suits.index(suit) if suit >= 0 and suit in state.suits else -1


def starting_options(state: ParadigmState, seat: int) -> list[int]:
    """The revealed numbered cards of `seat`'s suit, ascending (3.4)."""
    suit = state.suits[seat]
    return sorted(card for card in state.setup_revealed if VALUE[card] and SUIT[card] == suit)


def _choose_suit(state: ParadigmState, suit: int) -> None:
    """A suit for the seat to act (R2); with four players the last seat gets the one left (3.2)."""
    seat, n = state.to_act, state.num_players
    state.suits[seat] = suit
    if n == len(SUITS) and seat == n - 2:
        last = next(other for other in range(len(SUITS)) if other not in state.suits)
        state.suits[seat + 1] = last
        emit(state.log, 0, "suit", seat + 1, suit=SUITS[last])
        seat += 1
    if seat + 1 < n:
        state.to_act = seat + 1
        return
    _reveal_for_setup(state)
    _ask_starting_cards(state, 0)


def _reveal_for_setup(state: ParadigmState) -> None:
    """Turn cards over until every chosen suit has shown a numbered card (3.3, R3)."""
    missing = set(state.suits)
    while missing:
        card = state.deck.pop()
        state.setup_revealed.append(card)
        if VALUE[card]:
            missing.discard(SUIT[card])
    emit(state.log, 0, "reveal", cards=[DECK.codes[card] for card in state.setup_revealed])


def _ask_starting_cards(state: ParadigmState, first: int) -> None:
    """Seats from `first` pick a starting card, taken without a decision when only one was revealed (3.4)."""
    for seat in range(first, state.num_players):
        options = starting_options(state, seat)
        if len(options) > 1:
            state.phase, state.to_act = START, seat
            return
        _take_starting_card(state, options[0])
        emit(state.log, 0, "start_card", seat, cards=[DECK.codes[options[0]]])
    _finish_setup(state)


def _take_starting_card(state: ParadigmState, card: int) -> None:
    state.setup_revealed.remove(card)
    state.table.append([card])


def _finish_setup(state: ParadigmState) -> None:
    """The other revealed cards go back and the deck is shuffled (3.5, R3); turn 0 begins."""
    state.deck += state.setup_revealed
    state.setup_revealed = []
    state.deck.sort()
    shuffle(state.deck, hand_seed(state.seed, 1))
    emit(state.log, 0, "shuffle", count=len(state.deck))
    start_turn(state)


# ---------------------------------------------------------------- a turn (4.1)


def start_turn(state: ParadigmState) -> None:
    """Reveal the deck's top card and resolve it (4.1)."""
    card = state.deck.pop()
    state.revealed = card
    emit(state.log, 0, "reveal", turn=state.turn, cards=[DECK.codes[card]])
    if card == GHOST_ID:
        cleared = [code for pile in state.table for code in DECK.codes_of(pile)]
        state.discard += [c for pile in state.table for c in pile] + [card]
        state.table = []
        emit(state.log, 0, "ghost", cards=cleared)
        _start_play_round(state)
    elif not VALUE[card]:
        state.pending = [ESSENCE, card, -1, UNDECIDED]
        _open_window(state, lead_seat(state))
    elif owner_of(state, card) < 0:
        state.discard.append(card)
        emit(state.log, 0, "unowned", cards=[DECK.codes[card]])
        _start_play_round(state)
    else:
        owner = owner_of(state, card)
        state.pending = [PROCESSING, card, owner, UNDECIDED]
        state.phase, state.to_act = PROCESS, owner


def _destination(action: int) -> int:
    if action == HAND_ID:
        return TO_HAND
    if action == NEW_PILE_ID:
        return TO_NEW_PILE
    return action - FIRST_ON_TOP


def _on_top_ids(state: ParadigmState) -> list[int]:
    return [FIRST_ON_TOP + top for top in rules.covered_tops_ids(state.pending[1], state.table)]


# ---------------------------------------------------------------- cancel windows (4.3)


def _open_window(state: ParadigmState, first: int) -> None:
    state.window_start = first
    _ask_from(state, 0)


def _ask_from(state: ParadigmState, position: int) -> None:
    """Ask the next eligible seat of the window, round the table once from its start; carry
    the move out once nobody is left to ask (R15, R19)."""
    n, mover = state.num_players, state.pending[2]
    for k in range(position, n):
        seat = (state.window_start + k) % n
        if seat != mover and rules.error_starts_ids(state.hands[seat]):
            state.phase, state.to_act = CANCEL, seat
            return
    _carry_out(state)


def _answer_window(state: ParadigmState, action: int) -> None:
    seat = state.to_act
    if action == PASS_ID:
        _ask_from(state, (seat - state.window_start) % state.num_players + 1)
        return
    low = action - FIRST_CANCEL + 1
    error = [rules.card_id(state.suits[seat], value) for value in range(low, low + ERROR_LENGTH)]
    for card in error:
        state.hands[seat].remove(card)
    kind, card = state.pending[0], state.pending[1]
    state.discard += error + [card]
    emit(state.log, 0, "cancelled", seat, pending=PENDING_NAMES[kind], cards=[DECK.codes[card]])
    _resolved(state, kind)


def _carry_out(state: ParadigmState) -> None:
    """The pending move or Essence takes effect (4.2, R9)."""
    kind, card, mover, destination = state.pending
    if kind == ESSENCE:
        before = [c for pile in state.table for c in pile]
        state.table = rules.apply_essence_ids(state.table, card)
        after = {c for pile in state.table for c in pile}
        removed = [c for c in before if c not in after]
        state.discard += removed + [card]
        emit(state.log, 0, "essence", cards=[DECK.codes[c] for c in removed])
    elif destination == TO_HAND:
        insort(state.hands[mover], card)
    elif destination == TO_NEW_PILE:
        state.table.append([card])
    else:
        next(pile for pile in state.table if pile[-1] == destination).append(card)
    _resolved(state, kind)


def _resolved(state: ParadigmState, kind: int) -> None:
    """After a window: the play round follows a reveal's resolution; the next seat's
    opportunity follows a play from hand."""
    state.pending = []
    state.window_start = -1
    if kind == FROM_HAND:
        _offer_from(state, (state.round_seat - lead_seat(state)) % state.num_players + 1)
    else:
        _start_play_round(state)


# ---------------------------------------------------------------- the play round (4.4)


def _start_play_round(state: ParadigmState) -> None:
    _offer_from(state, 0)


def _offer_from(state: ParadigmState, position: int) -> None:
    """The next seat of the round, from the lead seat, with a card in hand decides (R7, R19)."""
    n, lead = state.num_players, lead_seat(state)
    for k in range(position, n):
        seat = (lead + k) % n
        if state.hands[seat]:
            state.phase, state.to_act, state.round_seat = PLAY, seat, seat
            return
    _end_turn(state)


def _play_from_hand(state: ParadigmState, action: int) -> None:
    seat = state.to_act
    if action == PASS_ID:
        _offer_from(state, (seat - lead_seat(state)) % state.num_players + 1)
        return
    card = action - FIRST_CARD
    state.hands[seat].remove(card)
    state.pending = [FROM_HAND, card, seat, UNDECIDED]
    state.phase = PLACE


def _end_turn(state: ParadigmState) -> None:
    state.round_seat = -1
    state.turn += 1
    if state.deck:
        start_turn(state)
    else:
        _end_game(state)


# ---------------------------------------------------------------- the end (5, 7)


def rewards_for(winners: list[int], n: int) -> list[float]:
    """+1/w to each of the w winners and -1/(n - w) to the others; 0 to all when all tie (7)."""
    if len(winners) == n:
        return [0.0] * n
    return [1 / len(winners) if seat in winners else -1 / (n - len(winners)) for seat in range(n)]


def _end_game(state: ParadigmState) -> None:
    scores = current_scores(state)
    winners = rules.winners_of(scores)
    state.returns = rewards_for(winners, state.num_players)
    state.phase, state.to_act, state.terminal = OVER, -1, True
    emit(
        state.log,
        0,
        RESULT,
        table=[[DECK.codes[c] for c in pile] for pile in state.table],
        scores=scores,
        winners=winners,
        rewards=list(state.returns),
    )


# ---------------------------------------------------------------- checked states


def _check_fields(n: int, state: ParadigmState) -> None:
    """Each field's JSON type, range and size (`Game.check_state`)."""
    deck_size = len(DECK)
    check.integer(state.seed, "seed", 0, check.MAX_SEED)
    check.integer(state.num_players, "num_players", n, n)
    check.integers(state.suits, "suits", -1, len(SUITS) - 1, (n, n))
    check.cards(state.deck, "deck", deck_size)
    check.integer(state.phase, "phase", SUIT_PHASE, OVER)
    check.seat(state.to_act, "to_act", n, none=True)
    check.cards(state.setup_revealed, "setup_revealed", deck_size)
    for number, pile in enumerate(check.items(state.table, "table")):
        check.cards(pile, f"table[{number}]", deck_size, (1, None))
    for seat, hand in enumerate(check.items(state.hands, "hands", n, n)):
        check.cards(hand, f"hands[{seat}]", deck_size)
    check.cards(state.discard, "discard", deck_size)
    check.integer(state.turn, "turn", 0, deck_size)
    check.card(state.revealed, "revealed", deck_size, none=True)
    if check.items(state.pending, "pending", 0, 4) and len(state.pending) != 4:
        raise check.fail("pending", f"must be [] or [kind, card, mover, destination], got {state.pending!r}")
    if state.pending:
        check.integer(state.pending[0], "pending[0]", PROCESSING, ESSENCE)
        check.card(state.pending[1], "pending[1]", deck_size)
        check.seat(state.pending[2], "pending[2]", n, none=True)
        check.integer(state.pending[3], "pending[3]", UNDECIDED, deck_size - 1)
    check.seat(state.window_start, "window_start", n, none=True)
    check.seat(state.round_seat, "round_seat", n, none=True)
    check.numbers(state.returns, "returns", n)
    check.flag(state.terminal, "terminal")
    check.hand_history(state.log, n)


def _check_places(state: ParadigmState) -> None:
    """Each card of the deck in one place; distinct suits; piles strictly increasing from bottom
    to top and hands ascending, of numbered cards of their seat's suit (R2, R5, R8)."""
    places = {"deck": state.deck, "setup_revealed": state.setup_revealed, "discard": state.discard}
    places |= {f"table[{number}]": pile for number, pile in enumerate(state.table)}
    places |= {f"hands[{seat}]": hand for seat, hand in enumerate(state.hands)}
    places["pending[1]"] = state.pending[1:2]
    check.each_card_once(places, len(DECK))
    chosen = [suit for suit in state.suits if suit >= 0]
    if len(set(chosen)) != len(chosen):
        raise check.fail("suits", f"must be distinct, got {state.suits!r}")
    for number, pile in enumerate(state.table):
        try:
            rules.pile_product([DECK.codes[card] for card in pile])
        except ValueError as err:
            raise check.fail(f"table[{number}]", str(err)) from None
    for seat, hand in enumerate(state.hands):
        if hand != sorted(hand) or any(not VALUE[card] or SUIT[card] != state.suits[seat] for card in hand):
            raise check.fail(f"hands[{seat}]", "must hold numbered cards of the seat's suit, ascending")


def _check_setup(state: ParadigmState) -> None:
    """Suits chosen in seat order, then the starting cards picked in seat order (3)."""
    n, seat = state.num_players, state.to_act
    turn_fields = (state.turn, state.revealed, state.pending, state.window_start, state.round_seat, state.terminal)
    if turn_fields != (0, -1, [], -1, -1, False) or state.discard or any(state.hands) or any(state.returns):
        raise check.fail("phase", f"is {PHASE_NAMES[state.phase]!r}, but a turn has begun")
    if state.phase == SUIT_PHASE:
        last = n - 2 if n == len(SUITS) else n - 1
        if not 0 <= seat <= last or any((suit >= 0) != (k < seat) for k, suit in enumerate(state.suits)):
            raise check.fail("suits", f"{state.suits!r} are not the choices before seat {seat}'s")
        if state.setup_revealed or state.table:
            raise check.fail("setup_revealed", "must be empty before every suit is chosen")
        return
    if (
        -1 in state.suits
        or len(state.table) != seat
        or any([SUIT[card] for card in pile] != [state.suits[k]] for k, pile in enumerate(state.table))
    ):
        raise check.fail("table", f"must hold one starting card of each seat before seat {seat}")
    options = [len(starting_options(state, other)) for other in range(seat, n)]
    if options[0] < 2 or 0 in options:
        raise check.fail("setup_revealed", f"leaves seats {seat}.. no choice of starting card")


def _check_turn(state: ParadigmState) -> None:
    """A turn's revealed card, pending move, window and play round as the phase needs them, or the
    end with its rewards (4, 5, 7)."""
    n, phase = state.num_players, state.phase
    over = phase == OVER
    if -1 in state.suits or state.setup_revealed:
        raise check.fail("phase", f"is {PHASE_NAMES[phase]!r}, but the setup is not done")
    if state.revealed < 0 or state.revealed in state.deck:
        raise check.fail("revealed", f"must be a card out of the deck once a turn has begun, got {state.revealed}")
    if over and state.deck:
        raise check.fail("deck", f"must be empty at the end, got {len(state.deck)} cards")
    if state.turn + len(state.deck) + (0 if over else 1) > len(DECK):
        raise check.fail("turn", f"{state.turn} and the deck's {len(state.deck)} cards are more turns than cards")
    if state.terminal != over or (state.to_act < 0) != over:
        raise check.fail("terminal", f"and to_act {state.to_act} do not fit phase {PHASE_NAMES[phase]!r}")
    expected = rewards_for(rules.winners_of(current_scores(state)), n) if over else [0.0] * n
    if state.returns != expected:
        raise check.fail("returns", f"must be {expected!r}, got {state.returns!r}")
    if phase == CANCEL:
        _check_window(state)
    elif state.window_start != -1:
        raise check.fail("window_start", f"must be -1 outside a cancel window, got {state.window_start}")
    expected_pending = {
        PROCESS: [PROCESSING, state.revealed, owner_of(state, state.revealed), UNDECIDED],
        PLACE: state.pending[:2] + [state.to_act, UNDECIDED],
        PLAY: [],
        OVER: [],
    }.get(phase, state.pending)
    if (
        state.pending != expected_pending
        or (phase == PLACE and state.pending[0] != FROM_HAND)
        or (phase == PROCESS and state.to_act != state.pending[2])
    ):
        raise check.fail("pending", f"{state.pending!r} does not fit phase {PHASE_NAMES[phase]!r}")
    in_round = phase in (PLAY, PLACE) or (phase == CANCEL and state.pending[0] == FROM_HAND)
    if state.round_seat != (state.to_act if phase in (PLAY, PLACE) else state.round_seat if in_round else -1):
        raise check.fail("round_seat", f"{state.round_seat} does not fit phase {PHASE_NAMES[phase]!r}")
    if phase == PLAY and not state.hands[state.to_act]:
        raise check.fail("hands", f"seat {state.to_act} plays from an empty hand")
    if phase in (PLACE, CANCEL) and state.pending[0] == FROM_HAND:
        _check_from_hand(state)


def _check_window(state: ParadigmState) -> None:
    """A cancel window: its pending move, first seat and a seat to ask that holds an Error (4.3)."""
    if not state.pending:
        raise check.fail("pending", "must hold the move a cancel window is opened for")
    kind, card, mover, destination = state.pending
    first = lead_seat(state) if kind == ESSENCE else (mover + 1) % state.num_players
    decided = destination != UNDECIDED and (kind == PROCESSING or destination != TO_HAND)
    moves = {
        ESSENCE: card == state.revealed and mover == -1 and destination == UNDECIDED and not VALUE[card],
        PROCESSING: card == state.revealed and mover == owner_of(state, card) >= 0 and decided,
        FROM_HAND: mover == state.round_seat >= 0 and decided,
    }
    if not moves.get(kind, False):
        raise check.fail("pending", f"{state.pending!r} is no move a cancel window is opened for")
    if state.window_start != first:
        raise check.fail("window_start", f"must be seat {first}, got {state.window_start}")
    if state.to_act == mover or not rules.error_starts_ids(state.hands[state.to_act]):
        raise check.fail("to_act", f"seat {state.to_act} cannot cancel this move")
    if destination >= 0 and destination not in rules.covered_tops_ids(card, state.table):
        raise check.fail("pending[3]", f"card {destination} is no pile top lower than card {card}")


def _check_from_hand(state: ParadigmState) -> None:
    """A card played from hand is the playing seat's (4.4)."""
    card, mover = state.pending[1], state.pending[2]
    if not VALUE[card] or SUIT[card] != state.suits[mover]:
        raise check.fail("pending[1]", f"card {card} is not a numbered card of seat {mover}'s suit")


# ---------------------------------------------------------------- labels


def _decode(state: ParadigmState, action: int) -> tuple[str, dict[str, Any]]:
    """An action id at this decision point: its label and its details (`Game.action_details`)."""
    codes = DECK.codes
    if FIRST_SUIT <= action < FIRST_CARD:
        suit = SUITS[action - FIRST_SUIT]
        return f"suit {suit}", {"kind": "suit", "cards": [], "suit": suit}
    if FIRST_CARD <= action < HAND_ID:
        verb, card = "start" if state.phase == START else "play", codes[action - FIRST_CARD]
        return f"{verb} {card}", {"kind": verb, "cards": [card]}
    moving = [codes[state.pending[1]]] if state.pending else []
    if action == HAND_ID:
        return f"hand {' '.join(moving)}".strip(), {"kind": "hand", "cards": moving}
    if action == NEW_PILE_ID:
        return f"new_pile {' '.join(moving)}".strip(), {"kind": "new_pile", "cards": moving}
    if FIRST_ON_TOP <= action < PASS_ID:
        top = codes[action - FIRST_ON_TOP]
        return f"on_top {top} with {' '.join(moving)}".strip(), {
            "kind": "on_top",
            "cards": moving + [top],
            "target": top,
        }
    if action == PASS_ID:
        return "pass", {"kind": "pass", "cards": []}
    if FIRST_CANCEL <= action < NUM_ACTIONS:
        low = action - FIRST_CANCEL + 1
        suit_id = state.suits[state.to_act] if state.to_act >= 0 else -1
        error = [codes[rules.card_id(suit_id, v)] for v in range(low, low + ERROR_LENGTH)] if suit_id >= 0 else []
        return f"cancel {' '.join(error) or low}", {"kind": "cancel", "cards": error, "error": low}
    return f"unknown action {action}", {"kind": "unknown", "cards": []}
