"""The conformance suite's cases and checks (tests/envs/test_conformance.py).

A case is one registered environment at one table size (its smallest, default and largest) in
one mode (`Game.conformance_modes`). The checks run at decisions of random episodes, played by
`cardarena.envs.core.conformance.play_on`; each takes the environment at that decision and a
random stream, and leaves the environment as it found it (its twins are other environments).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import highcard
import numpy as np
from cardarena.envs import make, register, registered
from cardarena.envs.core import history, registry
from cardarena.envs.core.conformance import modes, play_on
from cardarena.envs.core.game import Game


@contextmanager
def highcard_registered() -> Iterator[None]:
    """The registry with the test-only game highcard_v1 registered, as it was again afterwards."""
    with registry.scoped_registrations():
        register(highcard.ENV_ID, highcard.MODULE)
        yield


@dataclass(frozen=True)
class Case:
    env_id: str
    num_players: int
    mode: dict[str, Any] = field(hash=False)

    def make(self) -> Any:
        return make(self.env_id, num_players=self.num_players, **self.mode)

    @property
    def name(self) -> str:
        mode = ",".join(f"{key}={value}" for key, value in self.mode.items()) or "default"
        return f"{self.env_id}-{self.num_players}p-{mode}"


def cases() -> list[Case]:
    """Every registered environment x smallest, default and largest table x each mode it declares."""
    return [Case(entry.env_id, n, mode) for entry in registered() for mode, sizes in modes(entry.env_id) for n in sizes]


def advance(env: Any) -> bool:
    """Step done agents out of the way until a seat must act; False once the episode is over."""
    while env.agents:
        agent = env.agent_selection
        if not (env.terminations[agent] or env.truncations[agent]):
            return True
        env.step(None)
    return False


def rebuilds_views(game: Game) -> bool:
    """Whether the game implements `state_from_view` (without it, it serves its bots at tables only)."""
    return type(game).state_from_view is not Game.state_from_view


def acting_seat(env: Any) -> int:
    return env.game.current_player(env.state)


def seat_sees(env: Any, seat: int) -> tuple[bytes, bytes, str]:
    """A seat's observation vector, action mask and JSON view, comparable with ==."""
    agent = env.possible_agents[seat]
    seen = env.observe(agent)
    return (
        seen["observation"].tobytes(),
        seen["action_mask"].tobytes(),
        json.dumps(env.observe_json(agent), sort_keys=True),
    )


def state_json(game: Game, state: Any) -> str:
    """The state as JSON text, keys sorted (JSON objects have no order), for comparing states."""
    return json.dumps(game.state_to_json(state), sort_keys=True)


def random_actions(env: Any, seed: int, limit: int) -> list[int]:
    """The first `limit` actions of a random episode from `reset(seed)`."""
    env.reset(seed=seed)
    rng, actions = random.Random(seed), []
    while len(actions) < limit and advance(env):
        actions.append(rng.choice(env.game.legal_actions(env.state)))
        env.step(actions[-1])
    return actions


def trace(env: Any, seed: int, actions: list[int]) -> list[Any]:
    """From `reset(seed)`: what every seat sees before each action, and the rewards and ends after it."""
    env.reset(seed=seed)
    seen: list[Any] = []
    for action in actions:
        advance(env)
        seen.append([env.agent_selection, *(seat_sees(env, seat) for seat in range(env.game.num_players))])
        env.step(action)
        seen.append((dict(env.rewards), dict(env.terminations), dict(env.truncations)))
    return seen


# ---------------------------------------------------------------- the checks


def check_masks(env: Any, rng: random.Random) -> None:
    """Only the seat to act has a mask, and it is the game's legal set."""
    to_act = acting_seat(env)
    for seat, agent in enumerate(env.possible_agents):
        mask = env.observe(agent)["action_mask"].nonzero()[0].tolist()
        assert mask == (env.game.legal_actions(env.state) if seat == to_act else []), f"{agent}'s mask"


def check_legal_actions(env: Any, rng: random.Random) -> None:
    """The acting seat's view lists its legal actions with their labels and details: each has a
    kind, and its cards are card codes of the game's deck."""
    to_act = acting_seat(env)
    if to_act < 0:
        return
    listed = env.observe_json(env.possible_agents[to_act])["legal_actions"]
    assert [entry["id"] for entry in listed] == env.game.legal_actions(env.state)
    for entry in listed:
        assert entry["label"] == env.game.action_label(env.state, entry["id"])
        assert isinstance(entry["kind"], str) and entry["kind"], f"{entry} has no kind"
        assert all(card in env.game.deck.index for card in entry["cards"]), f"{entry} names a card not in the deck"


@dataclass
class StateRoundTrip:
    """The state read back from its JSON, and a clone, give every seat the same observation and
    legal actions and, played with the same actions for `horizon` decisions, stay identical;
    playing the clone leaves the original untouched."""

    twins: tuple[Any, Any]
    horizon: int = 25

    def __call__(self, env: Any, rng: random.Random) -> None:
        game, original = env.game, state_json(env.game, env.state)
        restored = game.state_from_json(json.loads(json.dumps(game.state_to_json(env.state))))
        assert state_json(game, restored) == original
        by_json, by_clone = self.twins
        by_json.load_state(restored)
        by_clone.load_state(game.clone(env.state))
        for seat in range(game.num_players):
            assert seat_sees(by_json, seat) == seat_sees(env, seat) == seat_sees(by_clone, seat)
        assert by_json.history() == env.history() == by_clone.history()
        for _ in range(self.horizon):
            live = advance(by_json)
            assert advance(by_clone) == live
            if not live:
                break
            action = rng.choice(game.legal_actions(by_json.state))
            by_json.step(action)
            by_clone.step(action)
            assert state_json(game, by_json.state) == state_json(game, by_clone.state)
            assert (by_json.rewards, by_json.terminations) == (by_clone.rewards, by_clone.terminations)
        assert state_json(game, env.state) == original, "playing a clone changed the original"


@dataclass
class ObservedAfterEdits:
    """The environment's encoder gives every seat of a state the vector a new encoder of a new game
    gives that state's clone, whatever it observed before: states observed out of order (a later
    one, the earlier one, the later one again), and a state observed, then rewritten in place to the
    values of the same state with other seats' hidden cards dealt anew, and then of a later state
    (its lists kept, their items rewritten), and observed again. An encoder or game that remembers
    values by the identity of a state's objects fails here."""

    horizon: int = 6

    def __call__(self, env: Any, rng: random.Random) -> None:
        game = env.game
        earlier, later = game.clone(env.state), game.clone(env.state)
        for _ in range(self.horizon):
            legal = game.legal_actions(later)
            if game.is_terminal(later) or not legal:
                break
            game.apply(later, rng.choice(legal))
        for state in (later, earlier, later):
            self._check(env, state)
        seat = acting_seat(env)
        redealt = game.resample_hidden(env.state, seat, rng) if seat >= 0 else later
        for source in (redealt, later):
            edited_in_place(earlier, game.clone(source))
            self._check(env, earlier)

    @staticmethod
    def _check(env: Any, state: Any) -> None:
        fresh = type(env.encoder)(type(env.game)(env.game.config))
        twin = env.game.clone(state)
        for seat in range(env.game.num_players):
            assert np.array_equal(env.encoder.observation(state, seat), fresh.observation(twin, seat)), (
                f"seat {seat}: the observation differs from a new encoder's"
            )


def edited_in_place(state: Any, source: Any) -> None:
    """`state` given `source`'s field values, written into its own lists (and lists of lists) where it has them."""
    for name in (entry.name for entry in dataclasses.fields(state)):
        setattr(state, name, _written_into(getattr(state, name), getattr(source, name)))


def _written_into(current: Any, value: Any) -> Any:
    if type(current) is list and type(value) is list:
        current[:] = [_written_into(old, new) for old, new in zip(current, value, strict=False)] + value[len(current) :]
        return current
    if type(current) is bytearray and type(value) is bytearray:
        current[:] = value
        return current
    return value


@dataclass
class SeatViewRoundTrip:
    """A state rebuilt from each seat's JSON view gives that seat the same observation, turn,
    legal actions (and the seat to act some) and view (`Game.state_from_view`, `env.load_view`); the environment's
    observation of the seat to act (`Encoder.acting_observation`) is its `observation`."""

    twin: Any

    def __call__(self, env: Any, rng: random.Random) -> None:
        to_act = acting_seat(env)
        for seat, agent in enumerate(env.possible_agents):
            view = json.loads(json.dumps(env.observe_json(agent)))
            rebuilt = env.game.state_from_view(view)
            assert np.array_equal(env.encoder.observation(rebuilt, seat), env.encoder.observation(env.state, seat))
            assert env.game.current_player(rebuilt) == to_act
            assert to_act < 0 or env.game.legal_actions(rebuilt), f"seat {seat}'s view leaves seat {to_act} no action"
            if seat == to_act:
                assert env.game.legal_actions(rebuilt) == env.game.legal_actions(env.state)
                assert np.array_equal(env.observe(agent)["observation"], env.encoder.observation(env.state, seat)), (
                    "acting_observation differs"
                )
            assert self.twin.load_view(view) == agent
            assert self.twin.observe_json(agent) == view


@dataclass
class HiddenInformation:
    """`resample_hidden` for the seat to act and another seat: each draw leaves that seat's
    observation, mask, JSON view and history as they were, keeps the conserved quantities and the turn,
    is drawn alike (the same seed, the same world) from that draw as from the true state (a seat's
    worlds depend only on what it knows), and leaves the original state alone; one draw per point
    is played on to the end with the invariants kept. `changed` counts the draws in which another
    seat's observation differs: hidden cards were dealt anew; `redealt` those whose state differs at
    all (in a game of open information, `Game.open_information`, only the stock's order can)."""

    twin: Any
    draws: int = 6
    changed: int = 0
    redealt: int = 0
    checked: int = 0

    def dealt_anew(self, game: Game) -> bool:
        """Some draw dealt hidden cards anew: another seat saw a difference or, in a game of open
        information, no other seat did but the state changed."""
        if game.open_information:
            return self.changed == 0 and self.redealt > 0
        return self.changed > 0

    def __call__(self, env: Any, rng: random.Random) -> None:
        game, original = env.game, state_json(env.game, env.state)
        to_act = acting_seat(env)
        others = [seat for seat in range(game.num_players) if seat != to_act]
        seats = ([to_act] if to_act >= 0 else []) + [rng.choice(others)]
        for seat in seats:
            for _ in range(self.draws):
                self._check_draw(env, game.resample_hidden(env.state, seat, rng), seat)
            assert state_json(game, env.state) == original, "resample_hidden changed the state it was given"
        self.twin.load_state(game.resample_hidden(env.state, rng.choice(seats), rng))
        assert play_on(self.twin, rng).broken == []

    def _check_draw(self, env: Any, world: Any, seat: int) -> None:
        game = env.game
        self.twin.load_state(world)
        assert seat_sees(self.twin, seat) == seat_sees(env, seat), f"seat {seat} tells the resampled state apart"
        assert self.twin.history(seat) == env.history(seat), f"seat {seat}'s history tells the resampled state apart"
        assert game.conserved(world) == game.conserved(env.state)
        assert game.current_player(world) == game.current_player(env.state)
        seed = self.checked * 1_000_003 + seat
        again, from_truth = (
            state_json(game, game.resample_hidden(state, seat, random.Random(seed))) for state in (world, env.state)
        )
        assert again == from_truth, f"seat {seat}'s resampled worlds depend on where its unseen cards really lie"
        self.checked += 1
        self.redealt += state_json(game, world) != state_json(game, env.state)
        self.changed += any(
            not np.array_equal(env.encoder.observation(world, other), env.encoder.observation(env.state, other))
            for other in range(game.num_players)
            if other != seat
        )


@dataclass
class MovesSeenAsViewed:
    """A move adds to another seat's history only what that seat's JSON view shows of it: two
    legal moves of the seat to act after which another seat's view is the same add the same
    events to its history (a public label hides what the rulebook hides, such as a face-down
    discard, and no event tells what the view does not). `distinct` counts the moves compared
    that another seat could not tell apart."""

    twin: Any
    distinct: int = 0

    def __call__(self, env: Any, rng: random.Random) -> None:
        game, actor = env.game, acting_seat(env)
        if actor < 0:
            return
        logged = len(game.event_log(env.state))
        others = [seat for seat in range(game.num_players) if seat != actor]
        added: dict[tuple[int, str], list[Any]] = {}
        for action in game.legal_actions(env.state):
            self.twin.load_state(game.clone(env.state))
            advance(self.twin)
            self.twin.step(action)
            new_events = game.event_log(self.twin.state)[logged:]
            for seat in others:
                view = json.dumps(self.twin.observe_json(self.twin.possible_agents[seat]), sort_keys=True)
                events = history.seen_by(new_events, seat)
                earlier = added.setdefault((seat, view), events)
                self.distinct += earlier is not events
                assert earlier == events, (
                    f"seat {seat} sees the same view after two moves of seat {actor}, "
                    f"but its history gains {earlier} and {events}"
                )


def sometimes(points: float, *checks: Any) -> Any:
    """A visit for one episode that runs `checks` at its end and at decision k with chance
    points / (k + points): every decision of a short episode is likely checked, and a long one
    about points * ln(length / points) times, its late decisions too."""
    decisions = 0

    def visit(env: Any, rng: random.Random) -> None:
        nonlocal decisions
        if acting_seat(env) < 0 or rng.random() * (decisions + points) < points:
            for check in checks:
                check(env, rng)
        decisions += 1

    return visit


def information_trail(
    env: Any, deal: int, action_seed: int, limit: int = 400, since: int = 0
) -> list[tuple[int, str, tuple[bytes, ...]]]:
    """(seat, information key of the history after its first `since` events, the seat's
    observations at every step so far) after each step of a random episode of deal `deal`, every
    move played through the history as the environment plays it."""
    game = env.game
    env.reset(seed=deal)
    rng = random.Random(action_seed)
    seen: list[list[bytes]] = [[] for _ in range(game.num_players)]
    trail = []
    for _ in range(limit):
        for seat in range(game.num_players):
            seen[seat].append(env.encoder.observation(env.state, seat).tobytes())
            trail.append((seat, game.information_key(env.state, seat, since), tuple(seen[seat])))
        if game.is_terminal(env.state) or game.is_truncated(env.state):
            break
        game.play(env.state, rng.choice(game.legal_actions(env.state)))
    return trail
