"""Yokir as a state machine: deal, two bidding rounds, the caller's discard, five tricks, scoring.

Follows ../shared/rules/yokir.md; section numbers below refer to it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args

from cardarena.envs.core import validation as check
from cardarena.envs.core.cards import hand_seed
from cardarena.envs.core.config import MAX_HANDS, GameConfig
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.game import Game
from cardarena.envs.core.hidden import Place, deal_unseen
from cardarena.envs.core.history import RESULT, emit, seen_by
from cardarena.envs.core.views import SeenLegalAction, read_view, view_card
from pydantic import BaseModel, ConfigDict, Field

from . import rules
from .rules import DECK, HAND_SIZE, NUM_PLAYERS, NUM_TRICKS, SUITS, Suit

PASS = 24
FIRST_SUIT_ACTION = 25
NUM_ACTIONS = FIRST_SUIT_ACTION + len(SUITS)
MAX_HAND_DECISIONS = 2 * NUM_PLAYERS + NUM_PLAYERS * NUM_TRICKS  # two bidding rounds, fifteen plays (4.0)
OUT_OF_PLAY = len(DECK) - NUM_PLAYERS * HAND_SIZE - 1  # the stock after the deal and the up-card (3)
MAX_HAND_POINTS = 3  # the caller's points for all five tricks (5)

BID1, DISCARD, BID2, PLAY, OVER = range(5)
PhaseName = Literal["bid1", "discard", "bid2", "play", "over"]
PHASE_NAMES: tuple[PhaseName, ...] = get_args(PhaseName)


class YokirConfig(GameConfig):
    """Yokir's settings (rulebook section 8)."""

    num_players: Literal[3] = 3
    match: bool = False
    target_score: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 10
    max_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 200
    dealer: Annotated[int, Field(ge=0, le=NUM_PLAYERS - 1)] | None = None
    reward_mode: Literal["relative", "points"] = "relative"


@dataclass(slots=True)
class YokirState:
    """Everything about one episode. Card ids are deck indices; -1 means none."""

    deal_seed: int
    dealer: int
    hand_number: int = 0
    scores: list[int] = field(default_factory=lambda: [0] * NUM_PLAYERS)
    hands: list[list[int]] = field(default_factory=list)
    up_card: int = -1
    out_of_play: list[int] = field(default_factory=list)
    phase: int = BID1
    to_act: int = -1
    bids: list[list[int]] = field(default_factory=list)  # [seat, action] in bidding order
    caller: int = -1
    trump: int = -1
    discard: int = -1
    leader: int = -1
    trick: list[int] = field(default_factory=list)  # cards of the current trick, in play order
    tricks: list[list[int]] = field(default_factory=list)  # completed: [leader, card, card, card, winner]
    tricks_won: list[int] = field(default_factory=lambda: [0] * NUM_PLAYERS)
    returns: list[float] = field(default_factory=lambda: [0.0] * NUM_PLAYERS)
    terminal: bool = False
    truncated: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)  # the hand history (core history.py)


class YokirGame(Game[YokirState]):
    name = "yokir"
    version = 1
    deck = DECK
    config_cls = YokirConfig
    state_cls = YokirState
    num_actions = NUM_ACTIONS
    min_players = NUM_PLAYERS
    max_players = NUM_PLAYERS
    conformance_modes = ({}, {"match": True})
    config: YokirConfig

    @property
    def num_players(self) -> int:
        return NUM_PLAYERS

    def new_state(self, seed: int) -> YokirState:
        dealer = self.config.dealer if self.config.dealer is not None else random.Random(seed).randrange(NUM_PLAYERS)
        state = YokirState(deal_seed=seed, dealer=dealer)
        deal(state)
        return state

    def current_player(self, state: YokirState) -> int:
        return state.to_act

    def legal_actions(self, state: YokirState) -> list[int]:
        phase = state.phase
        if phase == PLAY:
            led = state.trick[0] if state.trick else None
            return rules.legal_play_ids(state.hands[state.to_act], led, state.trump)
        if phase == BID1:
            return [PASS, FIRST_SUIT_ACTION + rules.suit_of(state.up_card)]
        if phase == DISCARD:
            return sorted(state.hands[state.caller])
        if phase == BID2:
            up_suit = rules.suit_of(state.up_card)
            return [PASS] + [FIRST_SUIT_ACTION + s for s in range(len(SUITS)) if s != up_suit]
        return []

    def apply(self, state: YokirState, action: int) -> None:
        phase = state.phase
        if phase == PLAY:
            _play_card(self.config, state, action)
        elif phase == DISCARD:
            state.hands[state.caller].remove(action)
            state.discard = action
            _start_play(state)
        else:
            _bid(self.config, state, action)

    def is_truncated(self, state: YokirState) -> bool:
        return state.truncated

    def max_decisions(self) -> int:
        """At most 21 decisions a hand (4.0), and at most `max_hands` hands in a match (4.6)."""
        return MAX_HAND_DECISIONS * (self.config.max_hands if self.config.match else 1)

    def returns_total(self) -> float | None:
        """Zero-sum (7), except a single hand paid in points."""
        return None if self.config.reward_mode == "points" and not self.config.match else 0.0

    def hands_played(self, state: YokirState) -> int:
        return state.hand_number if self.config.match else int(state.phase == OVER)

    def conserved(self, state: YokirState) -> dict[str, Any]:
        """The 24 cards: hands, out of play, played, the discard and a turned-down up-card."""
        played = [card for _leader, *cards, _winner in state.tricks for card in cards] + state.trick
        cards = [card for hand in state.hands for card in hand] + state.out_of_play + played
        cards += [state.discard] if state.discard >= 0 else []
        cards += [] if _up_card_taken(state) else [state.up_card]
        return {"cards": sorted(cards)}

    def check_state(self, state: YokirState) -> None:
        """Every field in range, each of the 24 cards in one place, and the hand so far the bids,
        discard and tricks the rules allow from the cards each seat was dealt (sections 3-5)."""
        _check_fields(self.config, state)
        _check_places(state)
        _check_replay(self, state)

    def resample_hidden(self, state: YokirState, seat: int, rng: random.Random) -> YokirState:
        """Deal again the other hands, the out-of-play cards, the caller's discard (unless `seat`
        is the caller) and the later hands of a match (section 9).

        Kept: every card `seat` has seen (its hand and discard, the up-card, every card played);
        a player who did not follow an effective suit led holds no card of it (4.5); an accepted
        up-card not yet played stays with the caller, in hand or (after the discard) discarded;
        the history as `seat` knows it (the other seats' private events are dropped).
        """
        twin = self.clone(state)
        twin.deal_seed = rng.getrandbits(63)
        others = [player for player in range(NUM_PLAYERS) if player != seat]
        hides_discard = state.discard >= 0 and state.caller != seat
        unseen = [card for player in others for card in state.hands[player]] + state.out_of_play
        unseen += [state.discard] if hides_discard else []
        up_card = {state.up_card} & set(unseen)
        voids = _shown_out(state)
        places = [
            Place(
                len(state.hands[player]),
                _of_suits(voids[player], state.trump) | (set() if player == state.caller else up_card),
            )
            for player in others
        ]
        places.append(Place(len(state.out_of_play), up_card))
        places += [Place(1)] if hides_discard else []
        dealt = deal_unseen(unseen, places, rng)
        for player, hand in zip(others, dealt):
            twin.hands[player] = sorted(hand)
        twin.out_of_play = dealt[len(others)]
        if hides_discard:
            twin.discard = dealt[-1][0]
        twin.log = seen_by(state.log, seat)
        return twin

    def action_label(self, state: YokirState, action: int) -> str:
        return _decode(state, action)[0]

    def action_details(self, state: YokirState, action: int) -> dict[str, Any]:
        """Kind `discard` or `play` with the card; `reject`, `pass`, `accept` (taking the
        up-card) or `call`, the last two with their `suit`."""
        return _decode(state, action)[1]

    def public_label(self, state: YokirState, action: int, label: str) -> str:
        """The caller discards face down (section 9): the others see "discard", not the card."""
        return "discard" if state.phase == DISCARD else label

    def clone(self, state: YokirState) -> YokirState:
        return YokirState(
            deal_seed=state.deal_seed,
            dealer=state.dealer,
            hand_number=state.hand_number,
            scores=state.scores[:],
            hands=[hand[:] for hand in state.hands],
            up_card=state.up_card,
            out_of_play=state.out_of_play[:],
            phase=state.phase,
            to_act=state.to_act,
            bids=[bid[:] for bid in state.bids],
            caller=state.caller,
            trump=state.trump,
            discard=state.discard,
            leader=state.leader,
            trick=state.trick[:],
            tricks=[trick[:] for trick in state.tricks],
            tricks_won=state.tricks_won[:],
            returns=state.returns[:],
            terminal=state.terminal,
            truncated=state.truncated,
            log=state.log[:],
        )

    def state_from_view(self, view: dict[str, Any]) -> YokirState:
        """Replay the view's public history on a deal that gives the seat its own cards (see `Game.state_from_view`).

        Each other seat is dealt the cards it has played plus unseen cards; a caller that took
        the up-card and has not played it is taken to have discarded it.
        """
        seen = read_view(YokirSeatView, view, self)
        hand = [_card(code, "hand") for code in seen.hand]
        discard = _card(seen.discard, "discard") if seen.discard is not None else -1
        up_card = _card(seen.up_card, "up_card")
        plays = _plays(seen)
        bids = [[bid.seat, _bid_action(number, bid)] for number, bid in enumerate(seen.bids)]
        taker = next((bidder for bidder, action in bids[:NUM_PLAYERS] if action != PASS), -1)
        _check_each_card_once(seen.seat, hand, discard, plays, up_card, taker)
        scores, hand_number = self._score_before_replay(seen)
        state = YokirState(deal_seed=0, dealer=seen.dealer, hand_number=hand_number, scores=scores)
        hands, out_of_play = _deal_before_bidding(seen.seat, hand, discard, plays, up_card, taker)
        lay_out(state, hands, up_card, out_of_play)
        self._replay(state, seen, bids, plays, discard)
        return state

    def _score_before_replay(self, seen: YokirSeatView) -> tuple[list[int], int]:
        """Match scores and hand number before this hand: a finished match's view already counts its last hand."""
        if not (self.config.match and seen.phase == PHASE_NAMES[OVER]):
            return list(seen.scores), seen.hand_number
        won = [sum(trick.winner == seat for trick in seen.tricks) for seat in range(NUM_PLAYERS)]
        points = rules.score_hand_ids(seen.caller, won) if seen.caller is not None else [0] * NUM_PLAYERS
        return [score - p for score, p in zip(seen.scores, points)], seen.hand_number - 1

    def _replay(
        self, state: YokirState, seen: YokirSeatView, bids: list[list[int]], plays: list[tuple[int, int]], discard: int
    ) -> None:
        """Play the view's bids, the caller's discard and the trick cards in order, checking whose turn each was."""
        for number, (bidder, action) in enumerate(bids):
            if state.phase not in (BID1, BID2) or state.to_act != bidder or action not in self.legal_actions(state):
                then = f"seat {state.to_act} was to bid" if state.phase in (BID1, BID2) else "bidding was over"
                raise SeatViewError(
                    f"seat view bids[{number}] (seat {bidder} {seen.bids[number].action}) "
                    f"cannot follow the bids before it: {then}"
                )
            self.apply(state, action)
        if state.phase == DISCARD and seen.phase != PHASE_NAMES[DISCARD]:
            if state.caller == seen.seat and discard < 0:
                raise SeatViewError(f"seat {seen.seat} took the up-card and play has begun, but its discard is null")
            self.apply(state, discard if state.caller == seen.seat else _hidden_discard(state, plays))
        for player, card in plays:
            if state.phase != PLAY or state.to_act != player:
                then = f"seat {state.to_act} was to play" if state.phase == PLAY else "no card could be played then"
                raise SeatViewError(f"seat view has seat {player} playing {DECK.codes[card]}, but {then}")
            self.apply(state, card)


Seat = Annotated[int, Field(ge=0, le=NUM_PLAYERS - 1)]
_VIEW_MODEL = ConfigDict(extra="forbid", strict=True)


class SeenBid(BaseModel):
    model_config = _VIEW_MODEL
    seat: Seat
    round: Literal[1, 2]
    action: str


class SeenTrick(BaseModel):
    model_config = _VIEW_MODEL
    leader: Seat
    cards: Annotated[list[str], Field(min_length=NUM_PLAYERS, max_length=NUM_PLAYERS)]
    winner: Seat


class SeenCurrentTrick(BaseModel):
    model_config = _VIEW_MODEL
    leader: Seat | None
    cards: Annotated[list[str], Field(max_length=NUM_PLAYERS - 1)]


class YokirSeatView(BaseModel):
    """The shape of Yokir's JSON seat view (docs/protocol.md lists every field); the rules are checked on replay."""

    model_config = _VIEW_MODEL
    game: str
    seat: Seat
    hand_number: Annotated[int, Field(ge=0)]
    scores: Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=NUM_PLAYERS, max_length=NUM_PLAYERS)]
    dealer: Seat
    phase: PhaseName
    to_act: Seat | None
    hand: Annotated[list[str], Field(max_length=HAND_SIZE + 1)]
    up_card: str
    bids: Annotated[list[SeenBid], Field(max_length=2 * NUM_PLAYERS)]
    caller: Seat | None
    trump: Suit | None
    oracle: str | None
    sage: str | None
    discard: str | None
    tricks: Annotated[list[SeenTrick], Field(max_length=NUM_TRICKS)]
    trick: SeenCurrentTrick
    tricks_won: Annotated[list[int], Field(min_length=NUM_PLAYERS, max_length=NUM_PLAYERS)]
    returns: Annotated[list[float], Field(min_length=NUM_PLAYERS, max_length=NUM_PLAYERS)] | None
    legal_actions: list[SeenLegalAction] | None = None


def _card(code: str, field: str) -> int:
    return view_card(DECK, code, field)


def _bid_action(number: int, bid: SeenBid) -> int:
    try:
        return _BID_ACTIONS[bid.round, bid.action]
    except KeyError:
        allowed = ", ".join(label for r, label in _BID_ACTIONS if r == bid.round)
        raise SeatViewError(
            f"seat view bids[{number}].action {bid.action!r} is not a round {bid.round} bid: {allowed}"
        ) from None


def _plays(seen: YokirSeatView) -> list[tuple[int, int]]:
    """(player, card) of every card played this hand, in play order."""
    if seen.trick.cards and seen.trick.leader is None:
        raise SeatViewError("seat view field 'trick' holds cards but its leader is null")
    tricks = [(f"tricks[{n}]", trick.leader, trick.cards) for n, trick in enumerate(seen.tricks)]
    tricks.append(("trick", seen.trick.leader or 0, seen.trick.cards))
    return [
        ((leader + position) % NUM_PLAYERS, _card(code, f"{field}.cards"))
        for field, leader, cards in tricks
        for position, code in enumerate(cards)
    ]


def _check_each_card_once(
    seat: int, hand: list[int], discard: int, plays: list[tuple[int, int]], up_card: int, taker: int
) -> None:
    """No card in two places; the up-card only with the seat that accepted it in round 1."""
    places = [(card, "hand", seat) for card in hand] + [
        (card, f"a play by seat {player}", player) for player, card in plays
    ]
    if discard >= 0:
        places.append((discard, "discard", seat))
    found: dict[int, str] = {}
    for card, place, holder in places:
        if card in found:
            raise SeatViewError(f"seat view holds {DECK.codes[card]} twice: in {found[card]} and in {place}")
        found[card] = place
        if card == up_card and holder != taker:
            raise SeatViewError(
                f"seat view has the up-card {DECK.codes[card]} in {place}, "
                "but only a seat that accepted it in round 1 takes it"
            )


def _deal_before_bidding(
    seat: int, hand: list[int], discard: int, plays: list[tuple[int, int]], up_card: int, taker: int
) -> tuple[list[list[int]], list[int]]:
    """Hands as dealt (the seat's own cards, everyone's played cards, unseen cards to make five) and the
    out-of-play cards."""
    dealt = [[card for player, card in plays if player == s] for s in range(NUM_PLAYERS)]
    dealt[seat] += hand + ([discard] if discard >= 0 else [])
    if taker >= 0 and up_card in dealt[taker]:
        dealt[taker].remove(up_card)
    if len(dealt[seat]) != HAND_SIZE:
        raise SeatViewError(
            f"seat {seat}'s hand, discard and played cards come to {len(dealt[seat])} cards dealt to it; "
            f"each seat is dealt {HAND_SIZE}"
        )
    known = {card for cards in dealt for card in cards} | {up_card}
    unseen = [card for card in range(len(DECK)) if card not in known]
    for other in range(NUM_PLAYERS):
        missing = HAND_SIZE - len(dealt[other])
        if missing < 0:
            raise SeatViewError(
                f"seat view has seat {other} playing {len(dealt[other])} cards; each seat is dealt {HAND_SIZE}"
            )
        dealt[other] += unseen[:missing]
        unseen = unseen[missing:]
    return dealt, unseen


def _hidden_discard(state: YokirState, plays: list[tuple[int, int]]) -> int:
    """A discard for a caller whose discard the seat cannot see: a card the caller never plays, the up-card
    if it can."""
    played = {card for player, card in plays if player == state.caller}
    return next(card for card in [state.up_card, *state.hands[state.caller]] if card not in played)


def _check_fields(config: YokirConfig, state: YokirState) -> None:
    """Each field's JSON type, range and size (`Game.check_state`)."""
    most_hands = config.max_hands if config.match else 0
    deck_size = len(DECK)
    check.integer(state.deal_seed, "deal_seed", 0, check.MAX_SEED)
    check.seat(state.dealer, "dealer", NUM_PLAYERS)
    check.integer(state.hand_number, "hand_number", 0, most_hands)
    check.integers(state.scores, "scores", 0, MAX_HAND_POINTS * most_hands, (NUM_PLAYERS, NUM_PLAYERS))
    for seat, hand in enumerate(check.items(state.hands, "hands", NUM_PLAYERS, NUM_PLAYERS)):
        check.cards(hand, f"hands[{seat}]", deck_size, (0, HAND_SIZE + 1))
    check.card(state.up_card, "up_card", deck_size)
    check.cards(state.out_of_play, "out_of_play", deck_size, (OUT_OF_PLAY, OUT_OF_PLAY))
    check.integer(state.phase, "phase", BID1, OVER)
    check.seat(state.to_act, "to_act", NUM_PLAYERS, none=True)
    for number, bid in enumerate(check.items(state.bids, "bids", 0, 2 * NUM_PLAYERS)):
        check.items(bid, f"bids[{number}]", 2, 2)
        check.seat(bid[0], f"bids[{number}][0]", NUM_PLAYERS)
        check.integer(bid[1], f"bids[{number}][1]", PASS, NUM_ACTIONS - 1)
    check.seat(state.caller, "caller", NUM_PLAYERS, none=True)
    check.integer(state.trump, "trump", -1, len(SUITS) - 1)
    check.card(state.discard, "discard", deck_size, none=True)
    check.seat(state.leader, "leader", NUM_PLAYERS, none=True)
    check.cards(state.trick, "trick", deck_size, (0, NUM_PLAYERS - 1))
    for number, trick in enumerate(check.items(state.tricks, "tricks", 0, NUM_TRICKS)):
        check.items(trick, f"tricks[{number}]", NUM_PLAYERS + 2, NUM_PLAYERS + 2)
        check.seat(trick[0], f"tricks[{number}][0]", NUM_PLAYERS)
        for position in range(1, NUM_PLAYERS + 1):
            check.card(trick[position], f"tricks[{number}][{position}]", deck_size)
        check.seat(trick[-1], f"tricks[{number}][{NUM_PLAYERS + 1}]", NUM_PLAYERS)
    check.integers(state.tricks_won, "tricks_won", 0, NUM_TRICKS, (NUM_PLAYERS, NUM_PLAYERS))
    check.numbers(state.returns, "returns", NUM_PLAYERS)
    check.flag(state.terminal, "terminal")
    check.flag(state.truncated, "truncated")
    check.hand_history(state.log, NUM_PLAYERS)


def _check_places(state: YokirState) -> None:
    """Each card in one place: hands, out of play, the tricks, the discard, an up-card not taken (3)."""
    places: dict[str, list[int]] = {f"hands[{seat}]": hand for seat, hand in enumerate(state.hands)}
    places |= {"out_of_play": state.out_of_play, "trick": state.trick}
    places |= {f"tricks[{number}]": trick[1:-1] for number, trick in enumerate(state.tricks)}
    places["discard"] = [state.discard] if state.discard >= 0 else []
    places["up_card"] = [] if _up_card_taken(state) else [state.up_card]
    check.each_card_once(places, len(DECK))


_REPLAYED: tuple[str, ...] = (
    "dealer",
    "hand_number",
    "scores",
    "phase",
    "to_act",
    "bids",
    "caller",
    "trump",
    "discard",
    "leader",
)
_REPLAYED += ("trick", "tricks", "tricks_won", "returns", "terminal", "truncated")


def _check_replay(game: YokirGame, state: YokirState) -> None:
    """The hand replayed by the rules from its deal (each seat's hand, played cards and discard)
    gives the state back: every bid and discard legal, every card played in turn from its
    player's hand, and the phase, scores and returns that follow from them."""
    plays = _plays_of(state)
    hand_number, scores = state.hand_number, state.scores
    if game.config.match and state.phase == OVER:
        caller = state.caller if state.caller >= 0 else None
        points = rules.score_hand_ids(caller, state.tricks_won) if caller is not None else [0] * NUM_PLAYERS
        hand_number, scores = hand_number - 1, [score - p for score, p in zip(scores, points)]
        if hand_number < 0 or min(scores) < 0:
            raise check.fail("scores", f"cannot follow a finished hand's points {points}: {state.scores}")
    elif game.config.match and rules.match_winner(scores, game.config.target_score) is not None:
        raise check.fail("scores", f"{scores} have won the match, but phase {PHASE_NAMES[state.phase]!r} plays on")
    replay = YokirState(deal_seed=state.deal_seed, dealer=state.dealer, hand_number=hand_number, scores=scores[:])
    lay_out(replay, _dealt(state, plays), state.up_card, state.out_of_play[:])
    for number, (bidder, action) in enumerate(state.bids):
        _replay_move(game, replay, bidder, action, f"bids[{number}]")
    if replay.phase == DISCARD and state.phase != DISCARD:
        _replay_move(game, replay, state.caller, state.discard, "discard")
    for number, (player, card) in enumerate(plays):
        # Held, not necessarily followed suit: a state rebuilt from a seat view may give an
        # opponent a suit it showed out of (`Game.state_from_view`).
        if replay.phase != PLAY or replay.to_act != player or card not in replay.hands[player]:
            raise check.fail(f"card {number} played this hand", f"(seat {player}, card {card}) is not its turn or card")
        game.apply(replay, card)
    for seat, hand in enumerate(state.hands):
        if sorted(hand) != sorted(replay.hands[seat]):
            raise check.fail(f"hands[{seat}]", "is not what the seat was dealt less what it played")
    for name in _REPLAYED:
        if getattr(replay, name) != getattr(state, name):
            raise check.fail(name, f"is {getattr(state, name)!r}, but the hand's moves give {getattr(replay, name)!r}")


def _plays_of(state: YokirState) -> list[tuple[int, int]]:
    """(player, card) of every card played this hand, in play order."""
    tricks = [(leader, cards) for leader, *cards, _winner in state.tricks] + [(state.leader, state.trick)]
    return [
        ((leader + position) % NUM_PLAYERS, card) for leader, cards in tricks for position, card in enumerate(cards)
    ]


def _dealt(state: YokirState, plays: list[tuple[int, int]]) -> list[list[int]]:
    """The five cards each seat was dealt: its hand, the cards it played, the caller's discard
    less an up-card it took (3, 4.2)."""
    dealt = [hand + [card for player, card in plays if player == seat] for seat, hand in enumerate(state.hands)]
    if state.discard >= 0:
        if state.caller < 0:
            raise check.fail("discard", f"is card {state.discard}, but no seat has called")
        dealt[state.caller].append(state.discard)
    if _up_card_taken(state) and state.caller < 0:
        raise check.fail("caller", "is -1, but a seat accepted the up-card")
    if _up_card_taken(state) and state.up_card in dealt[state.caller]:
        dealt[state.caller].remove(state.up_card)
    for seat, cards in enumerate(dealt):
        if len(cards) != HAND_SIZE:
            raise check.fail(
                f"hands[{seat}]", f"with the cards seat {seat} played come to {len(cards)}, not {HAND_SIZE}"
            )
    return dealt


def _replay_move(game: YokirGame, replay: YokirState, seat: int, action: int, field: str) -> None:
    if replay.to_act != seat or action not in game.legal_actions(replay):
        raise check.fail(field, f"(seat {seat}, action {action}) is not a legal move after the ones before it")
    game.apply(replay, action)


def _up_card_taken(state: YokirState) -> bool:
    """A player accepted the up-card in bidding round 1 of this hand (4.1)."""
    return any(action != PASS for _bidder, action in state.bids[:NUM_PLAYERS])


def _shown_out(state: YokirState) -> list[set[int]]:
    """Per seat, the effective suits it did not follow when they were led this hand (4.5)."""
    voids: list[set[int]] = [set() for _ in range(NUM_PLAYERS)]
    tricks = [(leader, cards) for leader, *cards, _winner in state.tricks] + [(state.leader, state.trick)]
    for leader, cards in tricks:
        suits = [rules.EFFECTIVE_SUIT[state.trump][card] for card in cards]
        for position, suit in enumerate(suits[1:], start=1):
            if suit != suits[0]:
                voids[(leader + position) % NUM_PLAYERS].add(suits[0])
    return voids


def _of_suits(suits: set[int], trump: int) -> set[int]:
    """Every card whose effective suit under `trump` is one of `suits` (none before trump is fixed)."""
    if not suits:
        return set()
    return {card for card in range(len(DECK)) if rules.EFFECTIVE_SUIT[trump][card] in suits}


def _decode(state: YokirState, action: int) -> tuple[str, dict[str, Any]]:
    """An action id at this decision point: its label and its details (`Game.action_details`)."""
    if 0 <= action < PASS:
        verb, card = {DISCARD: "discard", PLAY: "play"}.get(state.phase, "card"), DECK.codes[action]
        return f"{verb} {card}", {"kind": verb, "cards": [card]}
    if PASS <= action < NUM_ACTIONS:
        bidding_round = 2 if state.phase == BID2 else 1
        verb, suit = bid_words(action, bidding_round)
        details = {"kind": verb, "cards": [DECK.codes[state.up_card]] if verb == "accept" else []}
        return bid_label(action, bidding_round), {**details, "suit": suit} if suit else details
    return f"unknown action {action}", {"kind": "unknown", "cards": []}


def bid_words(action: int, bidding_round: int) -> tuple[str, str | None]:
    """A bid's verb and suit: round 1 'reject' / 'accept' <suit>, round 2 'pass' / 'call' <suit>."""
    if action == PASS:
        return ("reject" if bidding_round == 1 else "pass"), None
    return ("accept" if bidding_round == 1 else "call"), SUITS[action - FIRST_SUIT_ACTION]


def bid_label(action: int, bidding_round: int) -> str:
    """A bid in words: round 1 'reject' / 'accept <suit>', round 2 'pass' / 'call <suit>'."""
    verb, suit = bid_words(action, bidding_round)
    return f"{verb} {suit}" if suit else verb


_BID_ACTIONS = {(r, bid_label(a, r)): a for r in (1, 2) for a in range(PASS, NUM_ACTIONS)}


def bidding_round(bid_index: int) -> int:
    """Round of the bid at this position of the hand's bidding (round 1 has at most 3 bids)."""
    return 1 if bid_index < NUM_PLAYERS else 2


def deal(state: YokirState) -> None:
    """Shuffle and deal one hand (section 3): five cards each from the dealer's left, then the up-card."""
    stock = DECK.shuffled(hand_seed(state.deal_seed, state.hand_number))
    first = (state.dealer + 1) % NUM_PLAYERS
    dealt = NUM_PLAYERS * rules.HAND_SIZE
    # One card at a time clockwise: the seat k places after `first` gets positions k, k + 3, ...
    hands = [stock[(seat - first) % NUM_PLAYERS : dealt : NUM_PLAYERS] for seat in range(NUM_PLAYERS)]
    lay_out(state, hands, stock[dealt], stock[dealt + 1 :])
    _log_deal(state)


def _log_deal(state: YokirState) -> None:
    """The hand's start in the history: the dealer, each seat's own five cards, the up-card for all."""
    hand, first = state.hand_number, (state.dealer + 1) % NUM_PLAYERS
    emit(state.log, hand, "start", dealer=state.dealer)
    for seat in ((first + k) % NUM_PLAYERS for k in range(NUM_PLAYERS)):
        emit(state.log, hand, "deal", seat, {"cards": DECK.codes_of(state.hands[seat])}, count=len(state.hands[seat]))
    emit(state.log, hand, "deal", place="up_card", cards=[DECK.codes[state.up_card]])


def lay_out(state: YokirState, hands: list[list[int]], up_card: int, out_of_play: list[int]) -> None:
    """Start a hand from a given deal: the dealer's left bids first."""
    state.hands = hands
    state.up_card = up_card
    state.out_of_play = out_of_play
    state.phase = BID1
    state.to_act = (state.dealer + 1) % NUM_PLAYERS
    state.bids = []
    state.caller = state.trump = state.discard = -1
    state.leader = -1
    state.trick = []
    state.tricks = []
    state.tricks_won = [0] * NUM_PLAYERS


def _bid(config: YokirConfig, state: YokirState, action: int) -> None:
    """Bidding rounds 1 and 2 (4.1, 4.3): the first ACCEPT or CALL fixes trump and the caller."""
    seat = state.to_act
    state.bids.append([seat, action])
    if action != PASS:
        state.caller = seat
        state.trump = action - FIRST_SUIT_ACTION
        if state.phase == BID1:
            state.hands[seat].append(state.up_card)
            state.phase = DISCARD
        else:
            _start_play(state)
        return
    if seat != state.dealer:
        state.to_act = (seat + 1) % NUM_PLAYERS
    elif state.phase == BID1:
        state.phase = BID2
        state.to_act = (state.dealer + 1) % NUM_PLAYERS
    else:
        _end_hand(config, state)


def _start_play(state: YokirState) -> None:
    state.phase = PLAY
    state.leader = state.to_act = (state.dealer + 1) % NUM_PLAYERS


def _play_card(config: YokirConfig, state: YokirState, card: int) -> None:
    """One card to the trick (4.5); the third card settles it and its winner leads next."""
    state.hands[state.to_act].remove(card)
    state.trick.append(card)
    if len(state.trick) < NUM_PLAYERS:
        state.to_act = (state.to_act + 1) % NUM_PLAYERS
        return
    winner = (state.leader + rules.trick_winner_id(state.trick, state.trump)) % NUM_PLAYERS
    state.tricks.append([state.leader, *state.trick, winner])
    emit(state.log, state.hand_number, "trick", **trick_record(state.tricks[-1]))
    state.tricks_won[winner] += 1
    state.trick = []
    state.leader = state.to_act = winner
    if len(state.tricks) == NUM_TRICKS:
        _end_hand(config, state)


def _end_hand(config: YokirConfig, state: YokirState) -> None:
    """Score the hand (5); end the episode, or in match mode deal the next hand (4.6)."""
    caller = state.caller if state.caller >= 0 else None
    points = rules.score_hand_ids(caller, state.tricks_won) if caller is not None else [0] * NUM_PLAYERS
    hand, returns_before = state.hand_number, list(state.returns)
    if not config.match:
        total = sum(points)
        relative = config.reward_mode == "relative"
        # (3p - total) / 3 rather than p - total / 3: exact thirds that sum to exactly zero.
        state.returns = [(NUM_PLAYERS * p - total) / NUM_PLAYERS if relative else float(p) for p in points]
        _finish(state, terminal=True)
    else:
        state.scores = [score + p for score, p in zip(state.scores, points)]
        state.hand_number += 1
        winner = rules.match_winner(state.scores, config.target_score)
        if winner is not None:
            state.returns = [1.0 if seat == winner else -0.5 for seat in range(NUM_PLAYERS)]
            _finish(state, terminal=True)
        elif state.hand_number >= config.max_hands:
            _finish(state, terminal=False)
    _log_result(state, hand, points, returns_before)
    if state.phase != OVER:
        state.dealer = (state.dealer + 1) % NUM_PLAYERS
        deal(state)


def _log_result(state: YokirState, hand: int, points: list[int], returns_before: list[float]) -> None:
    """The hand's result in the history (the seat view's `last_hand`): caller, trump, every trick,
    tricks won, the hand's points, the match scores after it and each seat's reward for it."""
    emit(
        state.log,
        hand,
        RESULT,
        caller=state.caller if state.caller >= 0 else None,
        trump=SUITS[state.trump] if state.trump >= 0 else None,
        tricks=[trick_record(trick) for trick in state.tricks],
        tricks_won=list(state.tricks_won),
        points=list(points),
        scores=list(state.scores),
        rewards=[after - before for after, before in zip(state.returns, returns_before)],
    )


def trick_record(trick: list[int]) -> dict[str, Any]:
    """A completed trick ([leader, card, card, card, winner]) as JSON: its leader, the cards in play order,
    the winner."""
    leader, *cards, winner = trick
    return {"leader": leader, "cards": [DECK.codes[card] for card in cards], "winner": winner}


def _finish(state: YokirState, terminal: bool) -> None:
    state.phase = OVER
    state.to_act = -1
    state.terminal = terminal
    state.truncated = not terminal
