"""First use of every game: `make()`, `reset()` and 100 random steps in a fresh process with an empty numba cache.

    python benchmarks/first_use.py [--steps 100] [--game piktas_v1 ...]

Each game runs in its own subprocess whose `NUMBA_CACHE_DIR` is a new empty folder, as on a fresh
install (numba's cache is keyed on the source files' timestamps, so none can ship in a wheel), then
once more in a second subprocess on the cache the first one wrote. Each times, from before
`import cardarena.envs` to the last step, the AEC loop a user writes first: `env.last()` (the
observation and its mask) and a random legal action at every step, a new episode when one ends.
A game's kernels compile in a background thread while it plays on its references
(envs/core/compiling.py), so the child then waits for them and reports when they were ready too.
The table shows both times, when the compiled paths were ready on the empty cache ("compiled ready"), and the seconds
numba spent compiling (its dispatcher events, each outermost compilation once, in any thread, until
then); `--detail` lists them by function.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

FIRST_STEPS = """
import json, sys, time
from collections import defaultdict
from numba.core import event

env_id, steps = sys.argv[1], int(sys.argv[2])
compiled = defaultdict(float)


class CompileTimes(event.Listener):
    started = []  # one start per compilation under way: a callee compiled inside counts in its caller

    def on_start(self, evt):
        self.started.append(time.perf_counter())

    def on_end(self, evt):
        seconds = time.perf_counter() - self.started.pop()
        if not self.started:
            compiled[evt.data["dispatcher"].py_func.__qualname__] += seconds


event.register("numba:compile", CompileTimes())
start = time.perf_counter()
import numpy as np
from cardarena.envs import make

env = make(env_id)
env.reset(seed=0)
rng = np.random.default_rng(0)
for step in range(steps):
    if not env.agents:
        env.reset(seed=step)
    observation, reward, termination, truncation, info = env.last()
    legal = np.flatnonzero(observation["action_mask"])
    env.step(None if termination or truncation else int(rng.choice(legal)))
seconds = time.perf_counter() - start
from cardarena.envs.core.compiling import wait_all

wait_all()
ready = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "ready": ready, "compiled": dict(compiled)}))
"""


def first_steps(env_id: str, steps: int, cache_dir: str) -> dict:
    """The child's report: its seconds, when its compiled paths were ready, and the compile seconds of
    each outermost numba compilation."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST_STEPS, env_id, str(steps)],
        env={**os.environ, "NUMBA_CACHE_DIR": cache_dir},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{env_id}: the first steps failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main(
    steps: Annotated[int, typer.Option(min=1, help="Random steps after the first reset.")] = 100,
    game: Annotated[list[str] | None, typer.Option(help="Env ids to run (default: every registered game).")] = None,
    detail: Annotated[bool, typer.Option(help="Also list every compiled function with its seconds.")] = False,
) -> None:
    from cardarena.envs import GAMES

    console = Console()
    table = Table(title=f"first make + reset + {steps} random steps, fresh process ({os.cpu_count()} CPUs)")
    columns = ("game", "empty numba cache s", "compiled ready s", "compiling s", "functions compiled", "warm cache s")
    for column in columns:
        table.add_column(column, justify="left" if column == "game" else "right")
    details = []
    for env_id in game or GAMES:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache_dir:
            cold = first_steps(env_id, steps, cache_dir)
            warm = first_steps(env_id, steps, cache_dir)
        compiling = cold["compiled"]
        table.add_row(
            env_id,
            f"{cold['seconds']:.2f}",
            f"{cold['ready']:.2f}",
            f"{sum(compiling.values()):.2f}",
            str(len(compiling)),
            f"{warm['seconds']:.2f}",
        )
        details += [(env_id, name, seconds) for name, seconds in compiling.items()]
    console.print(table)
    if detail:
        listing = Table(title="compile seconds per outermost compilation (its callees included)")
        for column in ("game", "function", "s"):
            listing.add_column(column, justify="right" if column == "s" else "left")
        for env_id, name, seconds in sorted(details, key=lambda row: -row[2]):
            listing.add_row(env_id, name, f"{seconds:.2f}")
        console.print(listing)


if __name__ == "__main__":
    typer.run(main)
