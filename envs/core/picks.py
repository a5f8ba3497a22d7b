"""Choices of several cards made one card at a time: `PICK(x)` actions, closed by `DONE` or complete at a fixed size.

A game keeps a `PickState` (the picks so far, in order) inside its own state and builds a
`PickRule` for the decision at hand: which cards may be picked, the size of the final set,
whether `DONE` closes the choice or it completes by itself at its size, and the game's rule
for a legal final set. The mask offers a card only if a legal set can still be completed
after picking it, so a started choice can always be finished; `DONE` is offered exactly when
the set picked so far is legal. `PickActions` maps the game's action ids to cards and gives
the encoder its labels and the picked-cards vector.

Games whose rulebook numbers each card set as one action (every subset of a small hand, or
every trade, as its own id) keep those actions and do not use this module.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

from .cards import Deck
from .errors import IllegalActionError

# Most final sets an exhaustive search may try; a larger choice needs `hereditary` or a `can_complete` oracle.
SEARCH_LIMIT = 1 << 16

LegalSet = Callable[[frozenset[int]], bool]
CanComplete = Callable[[frozenset[int], frozenset[int]], bool]


@dataclass(slots=True)
class PickState:
    """The cards picked so far in the current choice, in pick order (deck indices)."""

    picked: list[int] = field(default_factory=list)

    def clone(self) -> PickState:
        return PickState(self.picked[:])

    def to_json(self) -> dict[str, Any]:
        return {"picked": self.picked[:]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PickState:
        """The pick state of `to_json`; ValueError naming the problem for anything else."""
        picked = data.get("picked") if isinstance(data, dict) else None
        if not isinstance(picked, list) or not all(type(card) is int and card >= 0 for card in picked):
            raise ValueError(f"pick state needs 'picked': a list of card indices, got {data!r}")
        if len(set(picked)) != len(picked):
            raise ValueError(f"pick state picks a card twice: {picked}")
        return cls(picked)

    def _finish(self) -> list[int]:
        """The chosen cards, leaving the state empty for the next choice."""
        chosen, self.picked = self.picked, []
        return chosen


@dataclass(frozen=True, slots=True)
class PickRule:
    """The rules of one pick decision.

    - `candidates`: the cards that may be picked (deck indices: a hand, a pool).
    - `min_size`, `max_size`: bounds on the final set's size; `max_size=None` allows every candidate.
    - `done`: True when the picker closes the choice with `DONE`; False when it completes by
      itself on reaching its one size (`min_size == max_size`, see `PickRule.fixed`).
    - `legal_set(cards)`: the game's rule for a final set; None accepts any set of a legal size.
    - `hereditary`: every subset of a legal set is legal too (one suit, a sum at most N), so
      the search stops at the first illegal set.
    - `can_complete(picked, rest)`: the game's own exact answer to "do some cards of `rest` (the
      candidates not picked) complete `picked` to a legal set of a legal size?", for pools too
      large to search. Without it the rule searches the completions itself (up to SEARCH_LIMIT sets).
    """

    candidates: frozenset[int]
    min_size: int = 0
    max_size: int | None = None
    done: bool = True
    legal_set: LegalSet | None = None
    hereditary: bool = False
    can_complete: CanComplete | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "candidates", frozenset(self.candidates))
        if self.min_size < 0 or (self.max_size is not None and self.max_size < self.min_size):
            raise ValueError(f"pick sizes need 0 <= min_size <= max_size, got {self.min_size} and {self.max_size}")
        if not self.done and (self.max_size != self.min_size or self.min_size < 1):
            raise ValueError("a choice that completes by itself needs one size of at least 1 (min_size == max_size)")
        if self.can_complete is not None and self.legal_set is None:
            raise ValueError("a can_complete oracle answers for a legal_set rule: give both")
        if self._needs_search() and (sets := self._search_size()) > SEARCH_LIMIT:
            raise ValueError(
                f"searching {sets} sets of {len(self.candidates)} candidates is too slow: "
                "mark the rule hereditary or supply can_complete"
            )

    @classmethod
    def fixed(cls, candidates: Collection[int], size: int, legal_set: LegalSet | None = None, **rule: Any) -> PickRule:
        """A choice of exactly `size` cards that completes by itself at that size (no `DONE`)."""
        return cls(frozenset(candidates), size, size, False, legal_set, **rule)

    @property
    def largest(self) -> int:
        """The most cards the final set can hold."""
        return len(self.candidates) if self.max_size is None else min(self.max_size, len(self.candidates))

    def completable(self, picked: Iterable[int]) -> bool:
        """Whether the candidates not in `picked` can complete `picked` to a legal final set."""
        chosen = frozenset(picked)
        if not chosen <= self.candidates or len(chosen) > self.largest or self.largest < self.min_size:
            return False
        rest = self.candidates - chosen
        if self.can_complete is not None:
            return self.can_complete(chosen, rest)
        return self.legal_set is None or self._extends(chosen, sorted(rest))

    def legal_picks(self, picked: Collection[int]) -> list[int]:
        """The cards that may be picked next, ascending: those after which a legal set can still be completed."""
        chosen = frozenset(picked)
        if len(chosen) >= self.largest or self.largest < self.min_size or not chosen <= self.candidates:
            return []
        rest = sorted(self.candidates - chosen)
        if self.legal_set is None:  # any set of a legal size: each card is legal while one more fits
            return rest
        if self.can_complete is not None:
            unpicked = frozenset(rest)
            return [card for card in rest if self.can_complete(chosen | {card}, unpicked - {card})]
        return [card for i, card in enumerate(rest) if self._extends(chosen | {card}, rest[:i] + rest[i + 1 :])]

    def done_legal(self, picked: Collection[int]) -> bool:
        """Whether `DONE` may close the choice now: it closes with `DONE` and `picked` is a legal final set."""
        chosen = frozenset(picked)
        return (
            self.done
            and self.min_size <= len(chosen) <= self.largest
            and chosen <= self.candidates
            and self._legal(chosen)
        )

    def pick(self, state: PickState, card: int) -> list[int] | None:
        """Pick `card`; the chosen cards (in pick order) when that completes a fixed-size choice, else None."""
        if card in state.picked or not self.completable([*state.picked, card]):
            raise IllegalActionError(f"card {card} cannot be picked after {state.picked}: no legal set would follow")
        state.picked.append(card)
        if not self.done and len(state.picked) == self.min_size:
            return state._finish()
        return None

    def close(self, state: PickState) -> list[int]:
        """Close the choice with `DONE`; the chosen cards in pick order, leaving `state` empty."""
        if not self.done_legal(state.picked):
            raise IllegalActionError(f"DONE is not legal after picks {state.picked}: they are not a legal final set")
        return state._finish()

    def _legal(self, cards: frozenset[int]) -> bool:
        return self.legal_set is None or self.legal_set(cards)

    def _extends(self, chosen: frozenset[int], rest: list[int]) -> bool:
        """Whether some cards of `rest` (ascending) extend `chosen` to a legal set of a legal size."""
        legal = self._legal(chosen)
        if legal and len(chosen) >= self.min_size:
            return True
        if (self.hereditary and not legal) or len(chosen) == self.largest:
            return False
        return any(
            self._extends(chosen | {card}, rest[i + 1 :])
            for i, card in enumerate(rest)
            if len(chosen) + len(rest) - i >= self.min_size
        )

    def _needs_search(self) -> bool:
        return self.legal_set is not None and not self.hereditary and self.can_complete is None

    def _search_size(self) -> int:
        """How many final sets of a legal size the candidates hold."""
        return sum(comb(len(self.candidates), size) for size in range(self.min_size, self.largest + 1))


@dataclass(frozen=True, slots=True)
class PickActions:
    """Where a game's action table puts its picks.

    `PICK(x)` is id `first_pick + x` for every card x of `deck`; `DONE` is id `done`."""

    deck: Deck
    first_pick: int
    done: int

    def __post_init__(self) -> None:
        if self.first_pick < 0:
            raise ValueError(f"the first PICK id must be at least 0, got {self.first_pick}")
        if self.is_pick(self.done):
            raise ValueError(f"DONE id {self.done} lies among the PICK ids {self._pick_ids()}")

    def is_pick(self, action: int) -> bool:
        return self.first_pick <= action < self.first_pick + len(self.deck)

    def pick_id(self, card: int) -> int:
        """The action id of `PICK(card)`."""
        if not 0 <= card < len(self.deck):
            raise ValueError(f"card index {card} is not in the {len(self.deck)}-card deck")
        return self.first_pick + card

    def card_of(self, action: int) -> int:
        """The card of a `PICK` action id."""
        if not self.is_pick(action):
            raise ValueError(f"action {action} is not a PICK id ({self._pick_ids()})")
        return action - self.first_pick

    def legal_actions(self, rule: PickRule, state: PickState) -> list[int]:
        """The legal `PICK` ids and `DONE`, ascending."""
        actions = [self.first_pick + card for card in rule.legal_picks(state.picked)]
        if rule.done_legal(state.picked):
            actions.append(self.done)
        return sorted(actions)

    def apply(self, rule: PickRule, state: PickState, action: int) -> list[int] | None:
        """Play a `PICK` or `DONE` id; the chosen cards in pick order once the choice is complete, else None."""
        if action == self.done:
            return rule.close(state)
        return rule.pick(state, self.card_of(action))

    def label(self, action: int) -> str:
        """`"pick <code>"` or `"done"`."""
        return "done" if action == self.done else f"pick {self.deck.codes[self.card_of(action)]}"

    def picked_vector(self, state: PickState) -> np.ndarray:
        """1.0 at each picked card's deck index, for the observation."""
        vector = np.zeros(len(self.deck), dtype=np.float32)
        vector[state.picked] = 1.0
        return vector

    def _pick_ids(self) -> str:
        return f"{self.first_pick}..{self.first_pick + len(self.deck) - 1}"
