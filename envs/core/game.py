"""The contract between a game's state machine (game.py, encode.py) and the shared AEC environment."""

from __future__ import annotations

import dataclasses
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic

import numpy as np

from .cards import Deck
from .config import GameConfig
from .errors import SeatViewError, StateError
from .history import ACTION, emit, seen_by
from .state_json import StateT, copy_state, read_state


class Game(ABC, Generic[StateT]):
    """A game's rules as a state machine over a plain, JSON-serialisable state.

    `apply` mutates the state in place (fast); `clone` copies it for search.
    Rewards are exposed as `returns(state)`: each seat's cumulative reward so far.
    `deck` holds every card code the game's views and actions use.

    `conformance_modes` lists the settings the conformance suite plays at the smallest, default
    and largest table, one config per mode of the rulebook (a match, a betting mode...); the
    suite also checks `max_decisions`, `returns_total`, `conserved` and `resample_hidden`.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    deck: ClassVar[Deck]
    config_cls: ClassVar[type[GameConfig]]
    num_actions: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    conformance_modes: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    state_cls: ClassVar[type[Any]]
    """The game's state dataclass, plain data that `state_to_json` writes field by field."""
    nested_fields: ClassVar[Mapping[str, Callable[[Any, str], Any]]] = {}
    """The state's fields that `read_json` rebuilds from their JSON, in this order: the field's name ->
    its reader, (the field's JSON, the env id) -> its value, raising StateError for JSON it cannot read
    (a betting round, a pick state)."""
    open_information: ClassVar[bool] = False
    seats_leave: ClassVar[bool] = False  # True where `seat_done` may be true before the end (the environment asks it)
    """True for a game in which no seat holds what another seat cannot see (every hand public):
    only the order of the stock is hidden, from every seat alike. Its `resample_hidden` deals the
    stock anew and changes no seat's observation, and its history has no private event; the
    conformance suite checks it so."""

    def __init__(self, config: GameConfig):
        self.config = config

    @property
    def env_id(self) -> str:
        return f"{self.name}_v{self.version}"

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def new_state(self, seed: int) -> StateT:
        """The initial state of an episode; the same seed gives the same deal."""

    @abstractmethod
    def current_player(self, state: StateT) -> int:
        """Seat to act, or -1 when the episode is over."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> list[int]:
        """Legal action ids at the current decision point, ascending."""

    @abstractmethod
    def apply(self, state: StateT, action: int) -> None:
        """Play a legal action (the caller has checked legality)."""

    def play(self, state: StateT, action: int) -> None:
        """Play a legal `action` by the rules (`apply`), logging it in the hand history first."""
        label = self.action_label(state, action)
        public = self.public_label(state, action, label)
        hidden = {"label": label} if label != public else None
        emit(self.event_log(state), self.hands_played(state), ACTION, self.current_player(state), hidden, label=public)
        self.apply(state, action)

    def returns(self, state: StateT) -> list[float]:
        """Each seat's cumulative reward so far: by default the state's field `returns`."""
        plain: Any = state
        return plain.returns

    def is_terminal(self, state: StateT) -> bool:
        """Whether the episode is over: by default the state's field `terminal`."""
        plain: Any = state
        return plain.terminal

    def is_truncated(self, state: StateT) -> bool:
        """Whether the episode was cut short (a match's hand limit): by default never."""
        return False

    def seat_done(self, state: StateT, seat: int) -> bool:
        """Whether `seat` has left a running episode for good (e.g. eliminated); it is never selected again.
        A seat leaves only in the move that finishes a hand (`hands_played` goes up): the environment
        asks only then, and only a game that sets `seats_leave`."""
        return False

    def max_decisions(self) -> int:
        """The most decisions (steps with an action) an episode can take under this config."""
        raise NotImplementedError(f"{self.env_id} declares no max_decisions")

    def returns_total(self) -> float | None:
        """What the seats' returns sum to at the end of an episode: 0.0 for a zero-sum game (the
        default), None where the rulebook fixes no total (e.g. rewards that pay points)."""
        return 0.0

    def hands_played(self, state: StateT) -> int:
        """Hands finished so far in the episode; the default is for games whose episode is one hand."""
        return int(self.is_terminal(state) or self.is_truncated(state))

    def conserved(self, state: StateT) -> dict[str, Any]:
        """Quantities no move changes, by name: `"cards"`, every card the state holds wherever it
        lies (hands, table, stock, discards), sorted; `"chips"`, the chips in stacks and pots,
        where the game has chips. The default declares none."""
        return {}

    def resample_hidden(self, state: StateT, seat: int, rng: random.Random) -> StateT:
        """A new state in which everything `seat` cannot see is drawn again at random.

        Hidden cards (other hands, face-down piles, the stock's order and the deals of later
        hands) and other seats' private choices are dealt anew, consistent with everything `seat`
        has seen in the episode (perfect recall: each game's implementation lists the constraints
        it keeps, such as a suit a player showed out of). What `seat` observes is unchanged
        (observation vector, JSON seat view and history), play continues from the new state by
        the rules, and `state` itself is left as it was. The new state is a function of what
        `seat` knows and of `rng` alone: two states the seat cannot tell apart give the same world
        for the same draws (`hidden.deal_unseen` deals a set of cards, whatever their true places).
        Search agents use it to sample worlds; the conformance suite checks all of this.
        """
        raise NotImplementedError(f"{self.env_id} does not resample hidden information")

    def information_key(self, state: StateT, seat: int, since: int = 0) -> str:
        """Everything `seat` has seen this episode as one string (perfect recall): its share of the
        hand history (`history.seen_by`), which every move played through `play` adds to.
        Two states give the same key exactly when the seat's observation histories are the same
        (the conformance suite checks it); information-set search keys its tree on it. `since`
        leaves out the history's first events: states known to share them (the worlds of one
        search) are told apart by the rest alone, at less cost."""
        return json.dumps(seen_by(self.event_log(state)[since:], seat), sort_keys=True, separators=(",", ":"))

    @abstractmethod
    def action_label(self, state: StateT, action: int) -> str:
        """The action in the game's words and card codes, at this decision point."""

    def public_label(self, state: StateT, action: int, label: str) -> str:
        """What the other seats see of the action whose `action_label` is `label`, for the hand
        history: `label` itself unless the rulebook hides part of it (e.g. a face-down discard
        is "discard", without the card)."""
        return label

    def event_log(self, state: StateT) -> list[dict[str, Any]]:
        """The hand history the state keeps (history.py), a list the environment appends each
        action to and the game its other events (`history.emit`: deals, reveals, and one
        `"result"` event closing each hand): by default the state's field `log`."""
        plain: Any = state
        return plain.log

    @abstractmethod
    def action_details(self, state: StateT, action: int) -> dict[str, Any]:
        """The action at this decision point as a frontend draws it: `kind` (the label's verb,
        e.g. "play"), `cards` (the card codes of `deck` it plays, moves or takes, possibly none)
        and any key of the game's (e.g. a field `position`). The game's label and its details
        come from one decoding of the action."""

    def clone(self, state: StateT) -> StateT:
        """A copy for search and twins: it shares nothing that play changes (lists, dicts and
        nested objects are copied), only the events of its hand history, which are never changed
        once logged."""
        return copy_state(state, self.event_log(state))

    def state_to_json(self, state: StateT) -> dict[str, Any]:
        """The state as JSON: `{"game": env_id}` and the fields of its dataclass (`state_cls`)."""
        return {"game": self.env_id, **dataclasses.asdict(state)}

    def state_from_json(self, data: dict[str, Any]) -> StateT:
        """The state `state_to_json` wrote, sharing nothing with `data` and checked (`check_state`);
        StateError naming what does not fit, also where a game's own engine (a pick state, a betting
        round) refuses a value while the state is rebuilt or checked."""
        try:
            state = self.read_json(data)
            self.check_state(state)
        except StateError:
            raise
        except ValueError as err:
            raise StateError(f"not a consistent {self.env_id} state: {err}") from None
        return state

    def read_json(self, data: dict[str, Any]) -> StateT:
        """The state dataclass built from JSON with its field names checked and its `nested_fields`
        rebuilt, its values not yet checked."""
        state = read_state(self.state_cls, data, self.env_id)
        for name, read in self.nested_fields.items():
            setattr(state, name, read(getattr(state, name), self.env_id))
        return state

    def check_state(self, state: StateT) -> None:
        """Raise StateError naming the field and what is wrong unless `state` is one this game's
        play can continue from: every field of the right JSON type, range and size (the helpers of
        validation.py), every card in one place, and the game's own invariants (phase, turn,
        scores, chips that total what `conserved` says). `state_from_json`, `CardGameEnv.load_state`
        and `load_view` call it, so that no rule and no compiled kernel sees an unchecked value;
        `clone` and play do not (a state play reaches is consistent). The default checks nothing:
        a game without its own checks trusts the states it is given."""

    def state_from_view(self, view: dict[str, Any]) -> StateT:
        """A full state that one seat's JSON view could have come from, for acting from that view alone.

        `view` is what `env.observe_json` sends: `Encoder.seat_view(state, seat)` with the table's
        `settings`, which `views.read_view` checks against this game's config, and possibly its
        `legal_actions` and `last_hand`, which this method ignores (`load_view` puts `last_hand`
        back in the rebuilt state's history); it names its seat in `view["seat"]`. The cards
        the seat cannot see are dealt in any arrangement that fits the public counts, so that for
        the returned state `s`: `encoder.observation(s, seat)` equals the observation of the real
        table, `current_player(s)` and `legal_actions(s)` equal the real ones, and
        `encoder.seat_view(s, seat)` equals `view` (less `settings`, `legal_actions` and `last_hand`).
        The hidden arrangement need not be reachable by legal play (an opponent may be given a
        suit it showed out of): the state serves that seat's decision, not sampling of hidden cards.

        Raises SeatViewError naming the field and the problem for a view that does not fit the
        game: a missing or mistyped field, a wrong length, an unknown card code, a card twice,
        a history the rules cannot produce. `CardGameEnv.load_view` then checks the rebuilt
        state (`check_state`) and the round trip.
        A game without its own implementation serves its bots at tables only.
        """
        raise SeatViewError(f"{self.env_id} cannot rebuild a state from a seat view; play it at a table instead")


class Encoder(ABC, Generic[StateT]):
    """What one seat sees: the observation vector, the JSON seat view and the text rendering.

    `action_feature_slices` names observation segments that hold one value per action id (from
    id 0): trained policies score each action by its own values there (training/policies.py).
    """

    observation_size: ClassVar[int]
    action_feature_slices: ClassVar[tuple[slice, ...]] = ()
    has_acting_observation: ClassVar[bool] = False  # True where the encoder overrides `acting_observation`

    def __init__(self, game: Game[StateT]):
        self.game = game

    @abstractmethod
    def observation(self, state: StateT, seat: int) -> np.ndarray:
        """float32 vector of everything `seat` may legally know, seat-relative."""

    def acting_observation(self, state: StateT, seat: int, legal: Sequence[int]) -> np.ndarray:
        """`observation(state, seat)` of the seat to act, given its legal actions, which the
        environment holds already: an observation built from them overrides this to skip
        computing them again, and sets `has_acting_observation` so that the environment calls it.
        The same vector either way."""
        return self.observation(state, seat)

    @abstractmethod
    def seat_view(self, state: StateT, seat: int) -> dict[str, Any]:
        """The same knowledge as JSON in canonical card codes (absolute seat numbers)."""

    @abstractmethod
    def render(self, state: StateT, seat: int | None) -> str:
        """The table as text from `seat`'s view, or the whole table when seat is None."""


def segment_slices(segments: list[tuple[str, int]]) -> dict[str, slice]:
    """Name -> slice of each (name, size) segment laid end to end in an observation vector."""
    slices, start = {}, 0
    for name, size in segments:
        slices[name] = slice(start, start + size)
        start += size
    return slices
