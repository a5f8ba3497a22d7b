"""Scarp seat views rebuilt: every seat's real view at every decision of random games, loaded back.

    python benchmarks/scarp_views.py [--games 100] [--seed 0]

Plays `--games` games per rules mode (`challenge_suit` colour, then enemy) with random legal
actions, a FOLD only when nothing else is legal or one time in 33 (so that games run long and
reach combinations, answers and reverse challenges), and loads each seat's `observe_json` view
into a fresh table (`env.load_view`) at every decision. Prints per mode: the views loaded, those
refused (SeatViewError or StateError: a real view must never be), those whose rebuilt state left
the seat to act no legal action (must be none), the views of a seat watching its opponent in the
middle of a choice (a combination, an answer with picks, a reverse challenge), and the mean and
slowest rebuild time.
"""

from __future__ import annotations

import json
import random
import time

import typer
from cardarena.envs import make
from cardarena.envs.core.errors import SeatViewError, StateError
from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp.state import COMBO, RESPONSE, REVERSE_CHALLENGE

MODES = ({}, {"challenge_suit": "enemy"})
FOLD_EVERY = 33


def watching_a_choice(state: scarp.ScarpState, seat: int) -> bool:
    """`seat` watches its opponent choose cards its view may not show."""
    choosing = state.phase in (COMBO, REVERSE_CHALLENGE) or (state.phase == RESPONSE and state.picks.picked)
    return bool(choosing) and state.to_act == 1 - seat


def main(games: int = 100, seed: int = 0) -> None:
    rng = random.Random(seed)
    print("| mode | games | views | refused | no legal action | watching a choice | mean ms | slowest ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for mode in MODES:
        env, table = make("scarp_v1", **mode), make("scarp_v1", **mode)
        views = refused = stuck = watching = 0
        times: list[float] = []
        for _ in range(games):
            env.reset(seed=rng.getrandbits(32))
            while env.agents:
                for seat, agent in enumerate(env.possible_agents):
                    if env.state.phase == scarp.OVER:
                        break
                    view = json.loads(json.dumps(env.observe_json(agent)))
                    views += 1
                    watching += watching_a_choice(env.state, seat)
                    started = time.perf_counter()
                    try:
                        table.load_view(view)
                    except (SeatViewError, StateError):
                        refused += 1
                        continue
                    times.append(time.perf_counter() - started)
                    stuck += not table.game.legal_actions(table.state)
                legal = env.game.legal_actions(env.state) if env.state.phase != scarp.OVER else [None]
                calm = [action for action in legal if action != scarp.FOLD]
                env.step(rng.choice(calm if calm and rng.randrange(FOLD_EVERY) else legal))
        mean, slowest = 1000 * sum(times) / max(len(times), 1), 1000 * max(times, default=0.0)
        label = json.dumps(mode) if mode else "default"
        print(f"| {label} | {games} | {views:,} | {refused} | {stuck} | {watching:,} | {mean:.2f} | {slowest:.1f} |")


if __name__ == "__main__":
    typer.run(main)
