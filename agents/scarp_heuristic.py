"""A rule-based Scarp player that reads only its observation vector and action mask.

Strategy, as a sensible player would play:
- Naming: name the suit it holds fewest cards of (more of that suit is left in the deck).
- Main phase, in order: the Ghost draws five cards for one; an Essence strips an opponent of six
  or more cards (half her hand for one card), and a second Essence draws three (one is kept for
  answering: an Essence in an answer brings the Challenge card); the Quake takes a pile of four or
  more; the double Shrike takes the best card of the deck; an Emp (three cards for three, and the
  opponent loses one) when its hand holds five or more. Then it challenges with its lowest
  numbered card (low totals have the fewest answers), naming the challenge suit it holds or has
  seen discarded most (the fewest left for the opponent); without a numbered card it draws and
  passes. It never folds.
- Responses: it answers whenever it can, taking the opponent's cards first (they are stolen),
  then an Essence (it brings the Challenge card), then its highest card, and stops as soon as the
  answer is valid unless another stolen card or an Essence still fits. Without an answer it spends
  the Ghost to look into the challenger's hand, else reverses with a spare Shrike when its hand
  holds five or more cards, else declines.
- Picks: combinations spend its least useful cards (low numbers of its weaker colour, never an
  Essence while another card fits, a same-suit Emp when it can, to open the double Shrike);
  strip and Quake discards drop the least useful cards; pile and deck picks take the most useful
  (an Essence, the Ghost, then a card of its stronger colour).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from cardarena.agents.base import ObservationShape
from cardarena.envs.scarp.encode import COMBO_KINDS, OBSERVATION_SIZE, SLICES
from cardarena.envs.scarp.game import (
    COMBO,
    DECK_PICK,
    DECLINE,
    DONE,
    DOUBLE_SHRIKE,
    DRAW_PASS,
    EMP,
    EMP_PILE,
    FIRST_CHALLENGE,
    FIRST_ESSENCE_DRAW,
    FIRST_ESSENCE_STRIP,
    FIRST_NAME,
    FIRST_PICK,
    FOLD,
    GHOST_ANSWER,
    GHOST_DRAW,
    MAIN,
    NAMING,
    NUM_ACTIONS,
    QUAKE,
    RESPONSE,
    REVERSE,
    REVERSE_CHALLENGE,
)
from cardarena.envs.scarp.rules import COLOUR, DECK, GHOST_ID, NUMBER, OPPOSITE, SUIT, is_essence_id

SHAPE = ObservationShape(OBSERVATION_SIZE, NUM_ACTIONS, "the scarp heuristic")
CARDS = len(DECK)
STRIP_AT = 6  # opponent hand size worth an Essence's strip
QUAKE_AT = 4  # pile size worth the Quake
EMP_AT = 5  # own hand size for an Emp


@dataclass(slots=True)
class TableView:
    """One seat's knowledge decoded from its observation."""

    hand: list[int]
    opponent_known: list[int]
    pile: list[int]
    picked: list[int]
    phase: int
    combo: str
    opponent_size: int
    strong_colour: int  # the colour its hand holds more numbered cards of (0 white, 1 black)

    def usefulness(self, card: int) -> float:
        """How much a card is worth keeping: Essences, then the Ghost, then its stronger colour, mid numbers."""
        if is_essence_id(card):
            return 30.0
        if card == GHOST_ID:
            return 25.0
        return 10.0 + 5.0 * (COLOUR[card] == self.strong_colour) - 0.5 * abs(NUMBER[card] - 4)


def stronger_colour(hand: list[int]) -> int:
    """The colour a hand holds more numbered cards of (0 white, 1 black)."""
    black = sum(COLOUR[card] == 1 for card in hand if card < 40)
    return int(black * 2 > sum(card < 40 for card in hand))


def _cards(observation: np.ndarray, segment: str) -> list[int]:
    return np.flatnonzero(observation[SLICES[segment]]).tolist()


def read_view(observation: np.ndarray) -> TableView:
    """Decode the seat-relative observation vector (see encode.SLICES)."""
    combo = _cards(observation, "combo")
    hand = _cards(observation, "hand")
    return TableView(
        hand=hand,
        opponent_known=_cards(observation, "opponent_known"),
        pile=_cards(observation, "pile"),
        picked=_cards(observation, "picked"),
        phase=int(np.argmax(observation[SLICES["phase"]])),
        combo=COMBO_KINDS[combo[0]] if combo else "",
        opponent_size=round(float(observation[SLICES["hand_sizes"]][1]) * CARDS),
        strong_colour=stronger_colour(hand),
    )


class ScarpHeuristic:
    """The rule-based player of the module docstring; deterministic."""

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        SHAPE.check(observation)
        legal = set(np.flatnonzero(observation["action_mask"]).tolist())
        view = read_view(observation["observation"])
        if view.phase == NAMING:
            return min(legal, key=lambda action: (sum(SUIT[card] == action - FIRST_NAME for card in view.hand), action))
        if view.phase == MAIN:
            return self._main(view, legal)
        if view.phase == RESPONSE:
            return self._respond(view, legal)
        if view.phase == REVERSE_CHALLENGE:
            return self._challenge(view, legal)
        return self._pick(view, legal)

    def _main(self, view: TableView, legal: set[int]) -> int:
        essences = sorted(a for a in legal if FIRST_ESSENCE_STRIP <= a < GHOST_DRAW)
        draws = sorted(a for a in legal if FIRST_ESSENCE_DRAW <= a < FIRST_ESSENCE_STRIP)
        if GHOST_DRAW in legal:
            return GHOST_DRAW
        if essences and view.opponent_size >= STRIP_AT:
            return essences[0]
        if len(draws) >= 2:
            return draws[0]
        if QUAKE in legal and len(view.pile) >= QUAKE_AT:
            return QUAKE
        if DOUBLE_SHRIKE in legal:
            return DOUBLE_SHRIKE
        if EMP in legal and len(view.hand) >= EMP_AT:
            return EMP
        if DRAW_PASS in legal:
            return DRAW_PASS
        return self._challenge(view, legal)

    def _challenge(self, view: TableView, legal: set[int]) -> int:
        """The lowest numbered card, naming the suit least likely to be in the opponent's hand."""
        seen = view.hand + view.pile

        def score(action: int) -> tuple[int, int, int]:
            card, w = divmod(action - FIRST_CHALLENGE, 2)
            suit = OPPOSITE[SUIT[card]][w]
            return (NUMBER[card], -sum(SUIT[c] == suit for c in seen), action)

        challenges = [a for a in legal if FIRST_CHALLENGE <= a < FIRST_PICK]
        return min(challenges, key=score) if challenges else FOLD

    def _respond(self, view: TableView, legal: set[int]) -> int:
        picks = [a - FIRST_PICK for a in legal if FIRST_PICK <= a < DONE]
        stolen = [card for card in picks if card in view.opponent_known and card not in view.hand]
        essences = [card for card in picks if is_essence_id(card)]
        if DONE in legal and not stolen and not essences:
            return DONE
        if picks:
            best = max(picks, key=lambda card: (card in stolen, is_essence_id(card), NUMBER[card], card))
            return FIRST_PICK + best
        if GHOST_ANSWER in legal:
            return GHOST_ANSWER
        if REVERSE in legal and len(view.hand) >= EMP_AT:
            return REVERSE
        return DECLINE

    def _pick(self, view: TableView, legal: set[int]) -> int:
        cards = [a - FIRST_PICK for a in legal if FIRST_PICK <= a < DONE]
        if view.phase in (EMP_PILE, DECK_PICK):
            return FIRST_PICK + max(cards, key=lambda card: (view.usefulness(card), card))
        if view.phase == COMBO:
            return FIRST_PICK + min(cards, key=lambda card: self._spend_order(view, card))
        return FIRST_PICK + min(cards, key=lambda card: (view.usefulness(card), card))

    @staticmethod
    def _spend_order(view: TableView, card: int) -> tuple[float, int]:
        """Combination cards to spend first: the least useful, of the suit already picked for an Emp (a Shrike)."""
        same_suit = view.combo == "emp" and any(SUIT[card] == SUIT[first] for first in view.picked)
        return (view.usefulness(card) - 8.0 * same_suit, card)


def heuristic(seed: int | None = None) -> ScarpHeuristic:
    """The registered `scarp/heuristic` (deterministic: the seed is not needed)."""
    return ScarpHeuristic()
