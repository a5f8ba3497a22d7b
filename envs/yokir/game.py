"""Yokir as a state machine: deal, two bidding rounds, the caller's discard, five tricks, scoring.

Follows ../shared/rules/yokir.md; section numbers below refer to it.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field

from cardarena.envs.core.cards import hand_seed
from cardarena.envs.core.config import GameConfig
from cardarena.envs.core.game import Game

from . import rules
from .rules import DECK, NUM_PLAYERS, NUM_TRICKS, SUITS

PASS = 24
FIRST_SUIT_ACTION = 25
NUM_ACTIONS = FIRST_SUIT_ACTION + len(SUITS)

BID1, DISCARD, BID2, PLAY, OVER = range(5)
PHASE_NAMES = ("bid1", "discard", "bid2", "play", "over")


class YokirConfig(GameConfig):
    """Yokir's settings (rulebook section 8)."""

    num_players: Literal[3] = 3
    match: bool = False
    target_score: Annotated[int, Field(ge=1)] = 10
    max_hands: Annotated[int, Field(ge=1)] = 200
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


class YokirGame(Game[YokirState]):
    name = "yokir"
    version = 1
    config_cls = YokirConfig
    num_actions = NUM_ACTIONS
    min_players = NUM_PLAYERS
    max_players = NUM_PLAYERS
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

    def returns(self, state: YokirState) -> list[float]:
        return state.returns

    def is_terminal(self, state: YokirState) -> bool:
        return state.terminal

    def is_truncated(self, state: YokirState) -> bool:
        return state.truncated

    def action_label(self, state: YokirState, action: int) -> str:
        if 0 <= action < PASS:
            verb = {DISCARD: "discard", PLAY: "play"}.get(state.phase, "card")
            return f"{verb} {DECK.codes[action]}"
        if PASS <= action < NUM_ACTIONS:
            return bid_label(action, 2 if state.phase == BID2 else 1)
        return f"unknown action {action}"

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
        )

    def state_to_json(self, state: YokirState) -> dict[str, Any]:
        return {"game": self.env_id, **dataclasses.asdict(state)}

    def state_from_json(self, data: dict[str, Any]) -> YokirState:
        fields = {key: value for key, value in data.items() if key != "game"}
        if data.get("game", self.env_id) != self.env_id:
            raise ValueError(f"state is for {data.get('game')!r}, not {self.env_id}")
        return YokirState(**fields)


def bid_label(action: int, bidding_round: int) -> str:
    """A bid in words: round 1 'reject' / 'accept <suit>', round 2 'pass' / 'call <suit>'."""
    if action == PASS:
        return "reject" if bidding_round == 1 else "pass"
    verb = "accept" if bidding_round == 1 else "call"
    return f"{verb} {SUITS[action - FIRST_SUIT_ACTION]}"


def bidding_round(bid_index: int) -> int:
    """Round of the bid at this position of the hand's bidding (round 1 has at most 3 bids)."""
    return 1 if bid_index < NUM_PLAYERS else 2


def deal(state: YokirState) -> None:
    """Shuffle and deal one hand (section 3): five cards each from the dealer's left, then the up-card."""
    stock = DECK.shuffled(hand_seed(state.deal_seed, state.hand_number))
    first = (state.dealer + 1) % NUM_PLAYERS
    dealt = NUM_PLAYERS * rules.HAND_SIZE
    # One card at a time clockwise: the seat k places after `first` gets positions k, k + 3, ...
    state.hands = [stock[(seat - first) % NUM_PLAYERS : dealt : NUM_PLAYERS] for seat in range(NUM_PLAYERS)]
    state.up_card = stock[dealt]
    state.out_of_play = stock[dealt + 1 :]
    state.phase = BID1
    state.to_act = first
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
    state.tricks_won[winner] += 1
    state.trick = []
    state.leader = state.to_act = winner
    if len(state.tricks) == NUM_TRICKS:
        _end_hand(config, state)


def _end_hand(config: YokirConfig, state: YokirState) -> None:
    """Score the hand (5); end the episode, or in match mode deal the next hand (4.6)."""
    caller = state.caller if state.caller >= 0 else None
    points = rules.score_hand_ids(caller, state.tricks_won) if caller is not None else [0] * NUM_PLAYERS
    if not config.match:
        total = sum(points)
        relative = config.reward_mode == "relative"
        # (3p - total) / 3 rather than p - total / 3: exact thirds that sum to exactly zero.
        state.returns = [(NUM_PLAYERS * p - total) / NUM_PLAYERS if relative else float(p) for p in points]
        _finish(state, terminal=True)
        return
    state.scores = [score + p for score, p in zip(state.scores, points)]
    state.hand_number += 1
    winner = rules.match_winner(state.scores, config.target_score)
    if winner is not None:
        state.returns = [1.0 if seat == winner else -0.5 for seat in range(NUM_PLAYERS)]
        _finish(state, terminal=True)
    elif state.hand_number >= config.max_hands:
        _finish(state, terminal=False)
    else:
        state.dealer = (state.dealer + 1) % NUM_PLAYERS
        deal(state)


def _finish(state: YokirState, terminal: bool) -> None:
    state.phase = OVER
    state.to_act = -1
    state.terminal = terminal
    state.truncated = not terminal
