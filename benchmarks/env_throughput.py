"""Environment throughput: random legal play in our games beside two peer implementations.

    python benchmarks/env_throughput.py [--seconds 5] [--repeat 3] [--hands N] [--seed 0]
                                        [--only piktas --only texas] [--breakdown yokir_v1]

Rows: one per game registered in `cardarena.envs`, at its default configuration, then the peers.
- `yokir_v1`: `cardarena.envs.make("yokir_v1")`, one hand per episode, through the AEC loop.
- `piktas_v1`: `cardarena.envs.make("piktas_v1")` at its default 4 seats, one round per episode;
  every observation includes the exact scorer's evaluation, the acting seat's also the secured and
  the whole-field score after each legal exchange id.
- `scarp_v1`: `cardarena.envs.make("scarp_v1")`, one game per episode (random play folds early).
- `tilt_v2`: `cardarena.envs.make("tilt_v2")` at its default 4 seats with the full Void deck, one
  hand per episode; every observation includes the seat's best hand key (cached per cards and Hazards).
- `dividha_v1`: `cardarena.envs.make("dividha_v1")` at its default 4 seats, one hand per episode;
  every observation includes the seat's own hand key (cached per set of cards held).
- `antipoker_v1`: `cardarena.envs.make("antipoker_v1")` at its default 2 seats with betting, one
  hand per episode; every observation includes the hand's value from the compiled evaluator.
- Each of our rows plays one hand before it is timed, so imports and compiled code are loaded.
- `texas_holdem_v4`: PettingZoo classic's `texas_holdem_v4.env()` (its default wrappers), same loop.
- `euchre`: OpenSpiel's C++ `euchre` through pyspiel, random legal play on `state.legal_actions()`.
- `euchre + infostate`: the same, also computing `state.information_state_tensor()` at every
  decision, the closest pyspiel analogue of an AEC observation.

The AEC loop is the standard one, observation and mask included::

    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else rng.choice(obs["action_mask"].nonzero()[0])
        env.step(action)

Counting: a *step* is one decision, the same in every row. For AEC rows it is an `env.step` call
with a real action; the `env.step(None)` calls that retire finished agents are run and timed but
not counted. For pyspiel rows it is an `apply_action` at a player's decision node; chance nodes
(the deal, sampled from `chance_outcomes()`) are run and timed but not counted. A *hand* is one
episode (one deal played out). Time includes resets and random action choice.

Each row is measured `--repeat` times, the rows interleaved so that load from other processes
falls on all of them alike; the table shows the median run. Missing peer packages give a row
saying how to install them (`pip install .[bench]`).

`--breakdown ENV_ID` (repeatable) adds where that environment's loop spends its time: each part is
timed alone over the states of recorded random hands (the observation once per `last()`, the
finished seats' final ones included) and spread over the decision steps; what the parts leave of
the whole loop's time is the AEC adapter's own bookkeeping: the mask and observation dict, legality
check, rewards, agent selection, PettingZoo's `agent_iter`, `last` and dead-agent steps. A part
timed alone runs warm (its caches and the processor's hold only its own work), so the table's last
row measures the observation in place instead: the whole loop again with the encoder handing out
one blank vector, its cost the difference.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import typer
from cardarena.envs import registered
from rich.console import Console
from rich.table import Table
from rich.text import Text

INSTALL_HINT = "not installed (pip install .[bench])"

PlayHand = Callable[[random.Random], int]
"""Plays one hand with random legal actions and returns its number of decision steps."""


@dataclass
class Measurement:
    steps: int
    hands: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def microseconds_per_step(self) -> float:
        return self.seconds * 1e6 / self.steps


def aec_player(make_env: Callable[[], Any], seed: int) -> PlayHand:
    """One hand of random legal play through the AEC loop of a PettingZoo environment."""
    env = make_env()
    env.reset(seed=seed)

    def play_hand(rng: random.Random) -> int:
        env.reset()
        decisions = 0
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(observation["action_mask"].nonzero()[0]))
            decisions += 1
        return decisions

    return play_hand


def openspiel_player(information_state: bool) -> PlayHand:
    """One hand of OpenSpiel euchre with random legal play, optionally encoding the infostate."""
    import pyspiel

    game = pyspiel.load_game("euchre")

    def play_hand(rng: random.Random) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
                continue
            if information_state:
                state.information_state_tensor()
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        return decisions

    return play_hand


def cardarena_player(env_id: str) -> Callable[[int], PlayHand]:
    """Random play through one of our environments at its default table."""

    def build(seed: int) -> PlayHand:
        from cardarena.envs import make
        from cardarena.envs.core.compiling import wait_all

        play_hand = aec_player(lambda: make(env_id), seed)
        play_hand(random.Random(seed + 1))  # imports and compiled code (numba's cache) load before timing
        wait_all()  # the compiled paths, not the references they stand in for while compiling
        return play_hand

    return build


def texas_holdem_player(seed: int) -> PlayHand:
    from pettingzoo.classic import texas_holdem_v4

    return aec_player(texas_holdem_v4.env, seed)


OUR_ROWS = [entry.env_id for entry in registered() if entry.module.startswith("cardarena.")]
ROWS: dict[str, Callable[[int], PlayHand]] = {
    **{env_id: cardarena_player(env_id) for env_id in OUR_ROWS},
    "texas_holdem_v4 (PettingZoo)": texas_holdem_player,
    "euchre (OpenSpiel)": lambda seed: openspiel_player(information_state=False),
    "euchre + infostate (OpenSpiel)": lambda seed: openspiel_player(information_state=True),
}
BASELINE = "texas_holdem_v4 (PettingZoo)"


def measure(play_hand: PlayHand, rng: random.Random, seconds: float, hands: int | None) -> Measurement:
    """Play hands until `hands` are done, or else until `seconds` have passed."""
    steps = played = 0
    start = time.perf_counter()
    deadline = start + seconds
    while (played < hands) if hands else (time.perf_counter() < deadline):
        steps += play_hand(rng)
        played += 1
    return Measurement(steps, played, time.perf_counter() - start)


def load_players(seed: int, rows: list[str]) -> tuple[dict[str, PlayHand], dict[str, str]]:
    """A hand player per row (of `rows`), and for rows whose package is missing the reason."""
    players, missing = {}, {}
    for name, build in ROWS.items():
        if name not in rows:
            continue
        try:
            players[name] = build(seed)
        except ImportError:
            missing[name] = INSTALL_HINT
    return players, missing


def run_all(
    players: dict[str, PlayHand], seed: int, seconds: float, hands: int | None, repeat: int
) -> dict[str, Measurement]:
    """The median run of each row, rows interleaved across repeats; one warm-up hand each first."""
    runs: dict[str, list[Measurement]] = {name: [] for name in players}
    rngs = {name: random.Random(seed) for name in players}
    for name, play_hand in players.items():
        play_hand(rngs[name])
    for _ in range(repeat):
        for name, play_hand in players.items():
            runs[name].append(measure(play_hand, rngs[name], seconds, hands))
    return {name: _median_run(results) for name, results in runs.items()}


def _median_run(results: list[Measurement]) -> Measurement:
    ranked = sorted(results, key=lambda m: m.steps_per_second)
    return ranked[(len(ranked) - 1) // 2]


def results_table(results: dict[str, Measurement], missing: dict[str, str]) -> Table:
    baseline = results.get(BASELINE)
    table = Table(title="Random legal play, one process (median run)")
    for column in ("environment", "steps/s", "hands/s", "µs/step", "steps/hand", f"× {BASELINE.split()[0]}"):
        table.add_column(column, justify="left" if column == "environment" else "right")
    for name in [name for name in ROWS if name in results or name in missing]:
        if name in missing:
            table.add_row(name, Text(missing[name]), "", "", "", "")
            continue
        m = results[name]
        ratio = f"{m.steps_per_second / baseline.steps_per_second:.2f}" if baseline else "n/a"
        table.add_row(
            name,
            f"{m.steps_per_second:,.0f}",
            f"{m.hands_per_second:,.0f}",
            f"{m.microseconds_per_step:.1f}",
            f"{m.steps / m.hands:.1f}",
            ratio,
        )
    return table


class Decision(NamedTuple):
    """One recorded decision: the state before it, who chose, their mask and choice."""

    state: Any
    seat: int
    mask: np.ndarray
    action: int


def loop_breakdown(env_id: str, seed: int, hands: int) -> list[tuple[str, float]]:
    """(part, µs per decision step) of the environment's random-play loop; see the module docstring."""
    from cardarena.envs import make
    from cardarena.envs.core.compiling import wait_all

    env = make(env_id)
    game, encoder, rng = env.game, env.encoder, random.Random(seed)
    play_hand = aec_player(lambda: env, seed)
    play_hand(random.Random(seed + 1))
    wait_all()  # the compiled paths, not the references they stand in for while compiling
    whole = _fastest_loop(play_hand, rng, hands)
    observed, decisions, played = _record_hands(env, rng, hands)

    def per_step(part: Callable[[Any], object], items: list[Any]) -> float:
        """µs per decision step of `part` run on every item, less the cost of the calls."""
        return (_fastest_pass(part, items) - _fastest_pass(_no_op, items)) * 1e6 / len(decisions)

    game_name, encoder_name = type(game).__name__, type(encoder).__name__
    parts = [
        ("deal (reset, spread over the hand)", per_step(lambda _: env.reset(), [None] * hands)),
        (
            f"observation vector ({encoder_name}.observation)",
            per_step(lambda seen: encoder.observation(*seen), observed),
        ),
        (f"legal actions ({game_name}.legal_actions)", per_step(lambda d: game.legal_actions(d.state), decisions)),
        (
            f"rules transition ({game_name}.apply, each hand played again in order)",
            per_step(lambda hand: _replay(game, game.clone(hand[0]), hand[1]), played)
            - per_step(lambda hand: game.clone(hand[0]), played),
        ),
        ("random player (mask.nonzero() + choice)", per_step(lambda d: rng.choice(d.mask.nonzero()[0]), decisions)),
    ]
    rest = whole - sum(cost for _, cost in parts)
    blank = np.zeros(encoder.observation_size, np.float32)
    encoder.observation = lambda state, seat: blank  # on this instance only: the loop with a free observation
    in_place = whole - _fastest_loop(play_hand, rng, hands)
    return [
        *parts,
        ("AEC adapter bookkeeping (the rest)", rest),
        ("whole loop", whole),
        ("observation vector in place (whole loop less the loop with a blank one)", in_place),
    ]


def _fastest_loop(play_hand: PlayHand, rng: random.Random, hands: int) -> float:
    """µs per decision step of the fastest of five runs of `hands` hands."""
    return min(measure(play_hand, rng, 0.0, hands).microseconds_per_step for _ in range(5))


def _record_hands(
    env: Any, rng: random.Random, hands: int
) -> tuple[list[tuple[Any, int]], list[Decision], list[tuple[Any, list[int]]]]:
    """Random hands' (state, seat) of every `last()` (finished seats' included), their decisions,
    and each hand as its dealt state and the actions played."""
    observed, decisions, played = [], [], []
    for _ in range(hands):
        env.reset()
        played.append((env.game.clone(env.state), []))
        for agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            state, seat = env.game.clone(env.state), env.possible_agents.index(agent)
            observed.append((state, seat))
            if termination or truncation:
                env.step(None)
                continue
            action = int(rng.choice(observation["action_mask"].nonzero()[0]))
            decisions.append(Decision(state, seat, observation["action_mask"], action))
            played[-1][1].append(action)
            env.step(action)
    return observed, decisions, played


def _replay(game: Any, state: Any, actions: list[int]) -> None:
    for action in actions:
        game.apply(state, action)


def _fastest_pass(part: Callable[[Any], object], items: Iterable[Any], passes: int = 5) -> float:
    """Seconds of the fastest of `passes` passes calling `part(item)` on every item."""
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        for item in items:
            part(item)
        best = min(best, time.perf_counter() - start)
    return best


def _no_op(_item: Any) -> None:
    pass


def breakdown_table(env_id: str, parts: list[tuple[str, float]]) -> Table:
    total = dict(parts)["whole loop"]
    table = Table(title=f"{env_id}: where a decision step's time goes")
    table.add_column("part")
    table.add_column("µs/step", justify="right")
    table.add_column("share", justify="right")
    for name, cost in parts:
        table.add_row(name, f"{cost:.2f}", f"{cost / total:.0%}")
    return table


def main(
    seconds: float = typer.Option(5.0, min=0.1, help="Seconds per measurement (ignored with --hands)."),
    hands: int = typer.Option(0, min=0, help="Hands per measurement instead of a time budget (0: --seconds)."),
    repeat: int = typer.Option(3, min=1, help="Measurements per row; the median is shown."),
    seed: int = typer.Option(0, help="Seed of the environments and of the random players."),
    breakdown: list[str] = typer.Option(
        [], help="Also show where this environment's loop spends its time (500 hands; repeatable)."
    ),
    only: list[str] = typer.Option(
        [], help="Only the rows whose name starts with this (repeatable); all rows by default."
    ),
) -> None:
    """Steps/s and hands/s of random legal play for our games, texas_holdem_v4 and OpenSpiel euchre."""
    rows = [name for name in ROWS if not only or any(name.startswith(prefix) for prefix in only)]
    players, missing = load_players(seed, rows)
    results = run_all(players, seed, seconds, hands or None, repeat)
    console = Console(width=120)
    console.print(results_table(results, missing))
    for env_id in breakdown:
        console.print(breakdown_table(env_id, loop_breakdown(env_id, seed, hands or 500)))


if __name__ == "__main__":
    typer.run(main)
