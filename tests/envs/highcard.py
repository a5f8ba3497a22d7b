"""Highcard, a toy game with hidden cards that exists only in the tests: the conformance suite
covers it because it is registered, like any game (`register("highcard_v1", "highcard")`).

Nine cards `C1`..`C9` (value 1..9). Each of 2 or 3 seats is dealt two face-down cards; the rest
is the stock. Once each, from seat `hand_number % n` clockwise, a seat STANDs or SWAPs the card in
hand slot 0 or 1 (hand sorted by value): that card is laid face up and the stock's top card is
drawn face down. Then every hand is shown: the highest total wins, ties share, and each seat gets
1 / winners if it won, minus 1 / n (zero-sum). `num_hands` hands make an episode.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import numpy as np
from cardarena.envs.core import history
from cardarena.envs.core.cards import Deck, hand_seed
from cardarena.envs.core.config import GameConfig
from cardarena.envs.core.env import CardGameEnv
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.core.game import Encoder, Game
from cardarena.envs.core.hidden import Place, deal_unseen
from cardarena.envs.core.history import emit
from cardarena.envs.core.state_json import read_state
from cardarena.envs.core.views import SeenLegalAction, read_view, view_card
from pydantic import BaseModel, ConfigDict, Field

ENV_ID = "highcard_v1"
MODULE = "highcard"
DECK = Deck([f"C{value}" for value in range(1, 10)])
HAND_SIZE = 2
STAND = 0  # then SWAP of hand slot 0 or 1: actions 1 and 2


class HighcardConfig(GameConfig):
    num_players: Literal[2, 3] = 2
    num_hands: Annotated[int, Field(ge=1)] = 1


@dataclass(slots=True)
class HighcardState:
    """Cards are deck indices (value - 1); `moves` holds this hand's [seat, card laid up or -1]."""

    deal_seed: int
    hands: list[list[int]]
    stock: list[int]
    hand_number: int = 0
    moves: list[list[int]] = field(default_factory=list)
    shown: list[list[list[int]]] = field(default_factory=list)  # every finished hand's hands, shown
    returns: list[float] = field(default_factory=list)
    terminal: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)


class HighcardGame(Game[HighcardState]):
    name = "highcard"
    version = 1
    deck = DECK
    config_cls = HighcardConfig
    num_actions = 1 + HAND_SIZE
    min_players = 2
    max_players = 3
    conformance_modes = ({}, {"num_hands": 3})
    config: HighcardConfig

    @property
    def num_players(self) -> int:
        return self.config.num_players

    def new_state(self, seed: int) -> HighcardState:
        state = HighcardState(deal_seed=seed, hands=[], stock=[], returns=[0.0] * self.num_players)
        self._deal(state)
        return state

    def _deal(self, state: HighcardState) -> None:
        stock = DECK.shuffled(hand_seed(state.deal_seed, state.hand_number))
        cut = HAND_SIZE * self.num_players
        state.hands = [sorted(stock[seat : cut : self.num_players]) for seat in range(self.num_players)]
        state.stock, state.moves = stock[cut:], []
        for seat, hand in enumerate(state.hands):
            emit(state.log, state.hand_number, "deal", seat, {"cards": DECK.codes_of(hand)}, count=len(hand))

    def current_player(self, state: HighcardState) -> int:
        return -1 if state.terminal else (state.hand_number + len(state.moves)) % self.num_players

    def legal_actions(self, state: HighcardState) -> list[int]:
        return [] if state.terminal else list(range(self.num_actions))

    def apply(self, state: HighcardState, action: int) -> None:
        seat = self.current_player(state)
        laid = -1
        if action != STAND:
            hand = state.hands[seat]
            laid = hand.pop(action - 1)
            drawn = state.stock.pop(0)
            hand.append(drawn)
            hand.sort()
            emit(state.log, state.hand_number, "draw", seat, {"cards": [DECK.codes[drawn]]}, count=1)
        state.moves.append([seat, laid])
        if len(state.moves) == self.num_players:
            self._show(state)

    def _show(self, state: HighcardState) -> None:
        totals = [sum(card + 1 for card in hand) for hand in state.hands]
        winners = [seat for seat, total in enumerate(totals) if total == max(totals)]
        n = self.num_players
        state.returns = [
            r + (1 / len(winners) if seat in winners else 0.0) - 1 / n for seat, r in enumerate(state.returns)
        ]
        state.shown.append([list(hand) for hand in state.hands])
        shown = [DECK.codes_of(hand) for hand in state.hands]
        emit(
            state.log,
            state.hand_number,
            "result",
            hands=shown,
            totals=totals,
            winners=winners,
            returns=list(state.returns),
        )
        state.hand_number += 1
        if state.hand_number == self.config.num_hands:
            state.terminal = True
        else:
            self._deal(state)

    def max_decisions(self) -> int:
        return self.num_players * self.config.num_hands

    def hands_played(self, state: HighcardState) -> int:
        return state.hand_number

    def conserved(self, state: HighcardState) -> dict[str, Any]:
        laid = [card for _seat, card in state.moves if card >= 0]
        return {"cards": sorted([card for hand in state.hands for card in hand] + state.stock + laid)}

    def resample_hidden(self, state: HighcardState, seat: int, rng: random.Random) -> HighcardState:
        """Deal again the other hands, the stock and later hands; kept: cards laid face up, and
        every hand once the last hand is shown."""
        twin = self.clone(state)
        twin.deal_seed = rng.getrandbits(63)
        others = [] if state.terminal else [other for other in range(self.num_players) if other != seat]
        unseen = [card for other in others for card in state.hands[other]] + state.stock
        dealt = deal_unseen(unseen, [Place(HAND_SIZE) for _ in others] + [Place(len(state.stock))], rng)
        for other, hand in zip(others, dealt[:-1], strict=True):
            twin.hands[other] = sorted(hand)
        twin.stock = dealt[-1]
        twin.log = history.seen_by(state.log, seat)
        return twin

    def action_label(self, state: HighcardState, action: int) -> str:
        details = self.action_details(state, action)
        return " ".join([details["kind"], *details["cards"]])

    def action_details(self, state: HighcardState, action: int) -> dict[str, Any]:
        if action == STAND:
            return {"kind": "stand", "cards": []}
        if 0 < action < self.num_actions and not state.terminal:
            return {"kind": "swap", "cards": [DECK.codes[state.hands[self.current_player(state)][action - 1]]]}
        return {"kind": f"unknown action {action}", "cards": []}

    def clone(self, state: HighcardState) -> HighcardState:
        return self.state_from_json(self.state_to_json(state))

    def state_to_json(self, state: HighcardState) -> dict[str, Any]:
        return {"game": self.env_id, **dataclasses.asdict(state)}

    def state_from_json(self, data: dict[str, Any]) -> HighcardState:
        return read_state(HighcardState, data, self.env_id)

    def state_from_view(self, view: dict[str, Any]) -> HighcardState:
        """Other hands and the stock get the cards the seat has not seen, in deck order."""
        seen = read_view(HighcardView, view, self)
        hand = [view_card(DECK, code, "hand") for code in seen.hand]
        moves = [[move.seat, view_card(DECK, move.laid, "moves.laid") if move.laid else -1] for move in seen.moves]
        shown = [[[view_card(DECK, code, "shown") for code in cards] for cards in hands] for hands in seen.shown]
        if len(seen.hand) != HAND_SIZE or seen.seat >= self.num_players:
            raise SeatViewError(
                f"seat view needs a seat of this {self.num_players}-seat table and {HAND_SIZE} cards in 'hand'"
            )
        known = dict(enumerate(shown[-1])) if seen.phase == "over" and shown else {seen.seat: hand}
        seen_cards = {card for _seat, card in moves} | {card for cards in known.values() for card in cards}
        unseen = [card for card in range(len(DECK)) if card not in seen_cards]
        hands = [known[s] if s in known else [unseen.pop() for _ in range(HAND_SIZE)] for s in range(self.num_players)]
        if len(unseen) != seen.stock_size:
            raise SeatViewError(
                f"seat view 'stock_size' is {seen.stock_size}, but its cards leave {len(unseen)} in the stock"
            )
        return HighcardState(
            deal_seed=0,
            hands=[sorted(cards) for cards in hands],
            stock=unseen,
            hand_number=seen.hand_number,
            moves=moves,
            shown=shown,
            returns=list(seen.returns),
            terminal=seen.phase == "over",
        )


class SeenMove(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int
    laid: str | None


class HighcardView(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    seat: int
    phase: Literal["play", "over"]
    hand_number: int
    to_act: int | None
    hand: list[str]
    moves: list[SeenMove]
    stock_size: int
    shown: list[list[list[str]]]
    returns: list[float]
    legal_actions: list[SeenLegalAction] | None = None


class HighcardEncoder(Encoder[HighcardState]):
    """Own hand, cards laid up this hand, who acts (seat-relative) and the share of hands played."""

    observation_size = (
        2 * len(DECK) + 3 + 1 + 3 * len(DECK)
    )  # ..., and per rel seat its cards shown at the last showdown

    def observation(self, state: HighcardState, seat: int) -> np.ndarray:
        obs = np.zeros(self.observation_size, np.float32)
        obs[state.hands[seat]] = 1.0
        obs[[len(DECK) + card for _seat, card in state.moves if card >= 0]] = 1.0
        to_act = self.game.current_player(state)
        if to_act >= 0:
            obs[2 * len(DECK) + (to_act - seat) % self.game.num_players] = 1.0
        obs[2 * len(DECK) + 3] = state.hand_number / self.game.config.num_hands
        if state.shown:  # each seat's cards at the last showdown, seat-relative: what ended that hand
            n = self.game.num_players
            for other, hand in enumerate(state.shown[-1]):
                at = 2 * len(DECK) + 4 + (other - seat) % n * len(DECK)
                obs[[at + card for card in hand]] = 1.0
        return obs

    def seat_view(self, state: HighcardState, seat: int) -> dict[str, Any]:
        to_act = self.game.current_player(state)
        return {
            "game": self.game.env_id,
            "seat": seat,
            "phase": "over" if state.terminal else "play",
            "hand_number": state.hand_number,
            "to_act": to_act if to_act >= 0 else None,
            "hand": DECK.codes_of(state.hands[seat]),
            "moves": [{"seat": s, "laid": DECK.codes[card] if card >= 0 else None} for s, card in state.moves],
            "stock_size": len(state.stock),
            "shown": [[DECK.codes_of(hand) for hand in hands] for hands in state.shown],
            "returns": list(state.returns),
        }

    def render(self, state: HighcardState, seat: int | None) -> str:
        hands = [
            " ".join(DECK.codes_of(hand)) if seat in (None, s) or state.terminal else "?? ??"
            for s, hand in enumerate(state.hands)
        ]
        return f"{self.game.env_id} hand {state.hand_number}: " + " | ".join(hands)


class raw_env(CardGameEnv):
    game_cls = HighcardGame
    encoder_cls = HighcardEncoder
