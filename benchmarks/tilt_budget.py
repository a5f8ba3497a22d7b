"""What tilt_v2's observation may cost for 3× texas_holdem_v4's steps/s, and what cutting it can give.

    python benchmarks/tilt_budget.py [--hands 1500] [--seed 0]

The same random-play AEC loop as env_throughput.py (µs per decision step, fastest of five runs of
`--hands` hands), texas_holdem_v4 measured in the same process. Rows:

- the budget: texas / 3, the loop with a blank observation (everything but the observation), and
  what is left for the observation in place;
- best-key misses: every run plays the same hands with the game's key cache cleared first, as new
  hands find it; the misses' cost is the difference to runs that keep it from the run before;
- the observation's parts, each timed alone over the states of recorded hands (fastest of five
  passes, µs per observation): the whole observation, the compiled writer, the hand strength
  (the best key looked up), and what is left: turning the state into the writer's buffers;
- the compiled parts in place: the loop run back to back with and without one part, the part
  replaced by a stand-in that does nothing (the writer, the card-set features), its cost the
  difference. Only the vectors' contents change, not the play (random actions from the masks),
  so the runs play the same hands. Timed in place, a part pays for what it finds in the
  processor's caches during play, not when timed alone. Each row is the median of five such
  pairs; differences under about half a µs are within run-to-run noise;
- caching per seat: how often a seat's own cards, or every seat's face-up cards, are unchanged
  since that seat's previous observation (what a per-seat cache of those segments would hit).

The parts and the caching rows use the first 500 of the hands (at most).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
import typer
from cardarena.envs import make
from cardarena.envs.core.compiling import wait_all
from cardarena.envs.tilt.encode import TiltEncoder
from env_throughput import _fastest_pass, _no_op, _record_hands, aec_player, measure, texas_holdem_player
from rich.console import Console
from rich.table import Table

ENV_ID = "tilt_v2"


def fastest(
    play_hand: Callable[[random.Random], int], hands: int, seed: int, before: Callable[[], None] = lambda: None
) -> float:
    """µs per decision step, the fastest of five runs of the same `hands` hands (`before` runs before each)."""
    best = float("inf")
    for _ in range(5):
        before()
        best = min(best, measure(play_hand, random.Random(seed), 0.0, hands).microseconds_per_step)
    return best


def loop_rows(hands: int, seed: int) -> list[tuple[str, str]]:
    env = make(ENV_ID)
    env.reset(seed=seed)
    env.last()
    wait_all()  # the compiled observation writers, not the reference they stand in for while compiling
    play_hand = aec_player(lambda: env, seed)

    def run(cold: bool = True) -> float:
        """The same hands every run; the key cache cleared first (as new hands find it) unless not `cold`."""
        return fastest(play_hand, hands, seed, lambda: (env.reset(seed=seed), cold and env.game._keys.clear()))

    texas = fastest(texas_holdem_player(seed), hands, seed)
    whole = run()
    warm = run(cold=False)
    encoder: Any = env.encoder
    blank = np.zeros(encoder.observation_size, np.float32)
    encoder.observation = lambda state, seat: blank  # on this instance only
    blank_loop = run()
    del encoder.observation
    in_place = [
        (f"  {name}, in place (whole − the loop without it)", f"{cost:.2f}")
        for name, cost in _in_place_costs(env, play_hand, hands, seed)
    ]
    target = texas / 3
    return [
        ("texas_holdem_v4 (PettingZoo)", f"{texas:.2f}"),
        ("target: texas / 3", f"{target:.2f}"),
        (f"{ENV_ID} whole loop", f"{whole:.2f}  ({texas / whole:.2f}× texas)"),
        (f"{ENV_ID} with a blank observation", f"{blank_loop:.2f}  ({texas / blank_loop:.2f}× texas)"),
        ("observation in place (whole − blank)", f"{whole - blank_loop:.2f}"),
        ("left for the observation at 3× (target − blank)", f"{target - blank_loop:.2f}"),
        ("best-key misses (whole − the loop with every key cached)", f"{whole - warm:.2f}"),
        *in_place,
    ]


def _in_place_costs(
    env: Any, play_hand: Callable[[random.Random], int], hands: int, seed: int
) -> list[tuple[str, float]]:
    """Per part: the median over five rounds of (whole loop − the loop with the part's stand-in),
    each round running the two back to back on the same hands, the key cache cleared first."""
    encoder = env.encoder

    def once() -> float:
        env.reset(seed=seed)
        env.game._keys.clear()
        return measure(play_hand, random.Random(seed), 0.0, hands).microseconds_per_step

    costs = []
    for name, attribute, stand_in in _stand_ins(encoder):
        kept = encoder.__dict__.get(attribute)
        differences = []
        for _ in range(5):
            whole = once()
            setattr(encoder, attribute, stand_in)  # on this instance only
            differences.append(whole - once())
            if kept is None:
                delattr(encoder, attribute)
            else:
                setattr(encoder, attribute, kept)
        costs.append((name, statistics.median(differences)))
    return costs


def _stand_ins(encoder: TiltEncoder) -> list[tuple[str, str, Callable[..., Any]]]:
    """(row name, encoder attribute, a stand-in doing nothing) for each compiled part of the observation."""
    return [
        ("compiled writer", "_write", lambda *given: None),
        ("card-set features", "_encode_card_sets", lambda vector, state, own: None),
    ]


def part_rows(observed: list[tuple[Any, int]], decisions: int, encoder: TiltEncoder) -> list[tuple[str, str]]:
    game = encoder.game
    vector = np.zeros(encoder.observation_size, np.float32)
    inputs = [_writer_inputs(encoder, state, seat) for state, seat in observed]
    whole = _per_item(lambda seen: encoder.observation(*seen), observed)
    writer = _per_item(lambda given: encoder._write(vector, *given), inputs)
    strength = _per_item(lambda seen: game.best_key_of(seen[0], tuple(game.own_cards(*seen))), observed)
    return [
        ("whole observation, µs per observation", f"{whole:.2f}"),
        ("  compiled writer (write_observation's entry point), µs per observation", f"{writer:.2f}"),
        ("  hand strength (own cards, best key), µs per observation", f"{strength:.2f}"),
        ("  the state to buffers and the rest (whole − the two above)", f"{whole - writer - strength:.2f}"),
        ("observations per decision step", f"{len(observed) / decisions:.2f}"),
    ]


def _writer_inputs(encoder: TiltEncoder, state: Any, seat: int) -> tuple[Any, ...]:
    """`write_observation`'s arguments after the vector, as `TiltEncoder.observation` makes them."""
    captured: list[tuple[Any, ...]] = []
    write = encoder._write
    encoder._write = lambda _vector, *given: captured.append(given)  # on this instance only
    try:
        encoder.observation(state, seat)
    finally:
        encoder._write = write
    return captured[0]


def _per_item(part: Callable[[Any], object], items: list[Any]) -> float:
    """µs per item of `part`, less the cost of the calls."""
    return (_fastest_pass(part, items) - _fastest_pass(_no_op, items)) * 1e6 / len(items)


def cache_rows(observed: list[tuple[Any, int]], game: Any) -> list[tuple[str, str]]:
    last_own: dict[int, Any] = {}
    last_face_up: dict[int, Any] = {}
    own_hits = face_up_hits = 0
    for state, seat in observed:
        own = (
            state.thumbs[seat],
            state.palms[seat],
            game.hazard_flags(state),
            state.revealed,
            state.chicken,
            state.tariffs,
            state.grid,
        )
        face_up = (state.thumbs, state.revealed and (state.palms, state.folded))
        own_hits += last_own.get(seat) == own
        face_up_hits += last_face_up.get(seat) == face_up
        last_own[seat], last_face_up[seat] = _frozen(own), _frozen(face_up)
    count = len(observed)
    return [
        ("observations (finished seats' included)", f"{count:,}"),
        ("own cards unchanged since the seat's last look", f"{own_hits / count:.0%}"),
        ("face-up cards unchanged since the seat's last look", f"{face_up_hits / count:.0%}"),
    ]


def _frozen(value: Any) -> Any:
    """A deep copy of nested lists and tuples: later changes to the state do not reach it."""
    return type(value)(_frozen(item) for item in value) if isinstance(value, (list, tuple)) else value


def main(
    hands: int = typer.Option(1500, min=10, help="Hands per timed run."),
    seed: int = typer.Option(0, help="Seed of the environments and of the random players."),
) -> None:
    """Where tilt_v2 stands against the 3× texas_holdem_v4 goal, and what each cut can give."""
    table = Table(title=f"{ENV_ID}: the observation's budget")
    table.add_column("row")
    table.add_column("value", justify="right")
    env = make(ENV_ID)
    env.reset(seed=seed)
    env.last()
    wait_all()
    observed, decisions, _played = _record_hands(env, random.Random(seed), min(hands, 500))
    for name, value in (
        loop_rows(hands, seed) + part_rows(observed, len(decisions), env.encoder) + cache_rows(observed, env.game)
    ):
        table.add_row(name, value)
    Console(width=120).print(table)


if __name__ == "__main__":
    typer.run(main)
