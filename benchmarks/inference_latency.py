"""Inference latency: one `act()` at batch size 1 for loaded yokir agents, and the checkpoint's load time.

    python benchmarks/inference_latency.py [--checkpoint PATH] [--observations 5000] [--passes 5] [--seed 0]

Rows, every agent loaded by `cardarena.agents.load`:
- the trained checkpoint (`--checkpoint`; default `checkpoints/yokir/ppo-selfplay` of this
  repository if it exists, else a throwaway one trained here for a few hundred steps by
  `cardarena.training.train.Trainer`, with the yokir config's network: a checkpoint's latency
  depends on its network's shape, not on how well it plays). It is a `PolicyAgent`: the actor
  network in numpy, argmax of the masked logits.
- `yokir/heuristic` and `random`, for comparison.
- the same checkpoint's SB3 policy, `predict(..., action_masks=...)` (torch, one thread), which is
  what inference would cost without the numpy export: its `model.zip`, or for a shipped bot (which
  has none) an SB3 policy of the card's shape given the checkpoint's weights (`load_weights`).

Observations are real seat views: the deciding seat's `{"observation", "action_mask"}` at every
decision of random-play yokir_v1 hands, `--observations` of them. Each agent acts on every one,
timed alone with `time.perf_counter_ns`, over `--passes` passes (one warm-up pass first), the
agents interleaved pass by pass so that load from other processes falls on all alike. Percentiles
and max are over all timed calls; actions/s is calls divided by their summed time.

Load time: *cold* is `load(...)` as the first thing in a fresh Python process after
`import cardarena.agents` (so it includes importing torch for a checkpoint, SB3 for model.zip),
the median of 3 processes; *warm* is the median of 5 repeated loads in this process.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

REPOSITORY = Path(__file__).resolve().parents[1]
SHIPPED_CHECKPOINT = REPOSITORY / "checkpoints" / "yokir" / "ppo-selfplay"
THROWAWAY_STEPS = 512

Observation = dict[str, np.ndarray]
Act = Callable[[Observation], int]


@dataclass
class Row:
    name: str
    act: Act
    loader: str
    """Python source of an expression that loads the agent, with `path` bound to the checkpoint folder."""


@dataclass
class Latency:
    nanoseconds: np.ndarray
    cold_load: float | None
    warm_load: float | None

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.nanoseconds, q)) / 1e3

    @property
    def actions_per_second(self) -> float:
        return self.nanoseconds.size * 1e9 / float(self.nanoseconds.sum())


def random_play_observations(count: int, seed: int) -> list[Observation]:
    """The deciding seat's observation at each decision of random-play yokir_v1 hands."""
    from cardarena.envs import make

    env, rng, seen = make("yokir_v1"), random.Random(seed), []
    env.reset(seed=seed)
    while len(seen) < count:
        env.reset()
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            seen.append({key: value.copy() for key, value in observation.items()})
            env.step(rng.choice(observation["action_mask"].nonzero()[0]))
    return seen[:count]


def throwaway_checkpoint(folder: Path, seed: int) -> Path:
    """A yokir checkpoint with the packaged config's network, trained for THROWAWAY_STEPS steps."""
    from cardarena.training.config import load_train_config
    from cardarena.training.train import Trainer

    overrides = [
        f"seed={seed}",
        f"total_steps={THROWAWAY_STEPS}",
        "n_envs=2",
        "ppo.n_steps=128",
        "ppo.batch_size=128",
        "pretrain.teacher=null",
        "eval.episodes=3",
        "eval.opponents=[random]",
    ]
    config = load_train_config("yokir", overrides=overrides)
    return Trainer.start(config, folder / "run").run().final_checkpoint


def sb3_policy(checkpoint: Path):
    """An SB3 MaskablePPO policy of the checkpoint's shape holding its weights (a yokir policy has no action head)."""
    import gymnasium as gym
    import torch
    from cardarena.agents.checkpoint import read_card
    from cardarena.training.checkpoint import load_weights
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    card = read_card(checkpoint)
    hidden = card["policy"]["hidden"]
    policy = MaskableActorCriticPolicy(
        gym.spaces.Box(-np.inf, np.inf, (card["observation_shape"][0],), np.float32),
        gym.spaces.Discrete(card["num_actions"]),
        lambda _: 0.0,
        net_arch={"pi": hidden, "vf": hidden},
        activation_fn={"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[card["policy"]["activation"]],
    )
    load_weights(policy, checkpoint, "yokir")
    return policy.eval()


def build_rows(checkpoint: Path, seed: int) -> list[Row]:
    from cardarena.agents import load
    from cardarena.training.checkpoint import load_model

    policy = load(str(checkpoint), game="yokir", seed=seed)
    has_model = (checkpoint / "model.zip").is_file()
    model = load_model(checkpoint) if has_model else sb3_policy(checkpoint)

    def sb3_act(observation: Observation) -> int:
        action, _ = model.predict(
            observation["observation"], action_masks=observation["action_mask"].astype(bool), deterministic=True
        )
        return int(action)

    return [
        Row("checkpoint (PolicyAgent, numpy)", policy.act, 'load(path, game="yokir")'),
        Row("yokir/heuristic", load("yokir/heuristic").act, 'load("yokir/heuristic")'),
        Row("random", load("random", seed=seed).act, 'load("random")'),
        Row(
            "checkpoint SB3 policy (SB3 predict, torch)",
            sb3_act,
            "load_model(path)" if has_model else "sb3_policy(path)",
        ),
    ]


def time_calls(act: Act, observations: list[Observation]) -> np.ndarray:
    clock = time.perf_counter_ns
    elapsed = np.empty(len(observations), np.int64)
    for index, observation in enumerate(observations):
        start = clock()
        act(observation)
        elapsed[index] = clock() - start
    return elapsed


def run_all(rows: list[Row], observations: list[Observation], passes: int) -> dict[str, np.ndarray]:
    """Every call's nanoseconds per row, rows interleaved pass by pass after one warm-up pass."""
    for row in rows:
        time_calls(row.act, observations)
    timings: dict[str, list[np.ndarray]] = {row.name: [] for row in rows}
    for _ in range(passes):
        for row in rows:
            timings[row.name].append(time_calls(row.act, observations))
    return {name: np.concatenate(runs) for name, runs in timings.items()}


LOAD_PROGRAM = """
import sys, time
from pathlib import Path
from cardarena.agents import load
from cardarena.training.checkpoint import load_model
sys.path.insert(0, sys.argv[2])
from inference_latency import sb3_policy
path = Path(sys.argv[1])
start = time.perf_counter()
{loader}
print(time.perf_counter() - start)
"""


def cold_load_seconds(loader: str, checkpoint: Path, processes: int = 3) -> float:
    """Median seconds of `loader` run first thing in fresh processes (after importing cardarena.agents)."""
    program = LOAD_PROGRAM.format(loader=loader)
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", program, str(checkpoint), str(Path(__file__).parent)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for _ in range(processes)
    ]
    return statistics.median(runs)


def warm_load_seconds(loader: str, checkpoint: Path, repeat: int = 5) -> float:
    from cardarena.agents import load
    from cardarena.training.checkpoint import load_model

    namespace = {"load": load, "load_model": load_model, "sb3_policy": sb3_policy, "path": checkpoint}
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        eval(loader, namespace)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def results_table(rows: list[Row], results: dict[str, Latency], calls: int) -> Table:
    table = Table(title=f"act() at batch size 1 on {calls:,} real yokir_v1 observations per agent (all passes)")
    columns = ("agent", "p50 µs", "p90 µs", "p99 µs", "max µs", "actions/s", "load cold ms", "load warm ms")
    for column in columns:
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in rows:
        latency = results[row.name]
        table.add_row(
            row.name,
            f"{latency.percentile(50):.1f}",
            f"{latency.percentile(90):.1f}",
            f"{latency.percentile(99):.1f}",
            f"{latency.nanoseconds.max() / 1e3:,.0f}",
            f"{latency.actions_per_second:,.0f}",
            f"{latency.cold_load * 1e3:,.0f}" if latency.cold_load is not None else "",
            f"{latency.warm_load * 1e3:,.2f}" if latency.warm_load is not None else "",
        )
    return table


def main(
    checkpoint: Path = typer.Option(
        None, help="Checkpoint folder (default: checkpoints/yokir/ppo-selfplay, else a throwaway one)."
    ),
    observations: int = typer.Option(5_000, min=1, help="Random-play observations each agent acts on per pass."),
    passes: int = typer.Option(5, min=1, help="Timed passes over the observations (after one warm-up pass)."),
    seed: int = typer.Option(0, help="Seed of the random-play hands and of the agents."),
) -> None:
    """Per-action latency (p50/p90/p99/max) and load time of a trained yokir checkpoint, the heuristic and random."""
    import torch

    torch.set_num_threads(1)
    console = Console(width=140)
    with tempfile.TemporaryDirectory() as scratch:
        if checkpoint is None and SHIPPED_CHECKPOINT.is_dir():
            checkpoint = SHIPPED_CHECKPOINT
        elif checkpoint is None:
            checkpoint = throwaway_checkpoint(Path(scratch), seed)
            console.print(
                f"No checkpoint at {SHIPPED_CHECKPOINT}: trained a throwaway one ({THROWAWAY_STEPS} steps, "
                f"the yokir config's network) in {checkpoint}; same latency as a trained one, meaningless play."
            )
        rows = build_rows(checkpoint, seed)
        seen = random_play_observations(observations, seed)
        timings = run_all(rows, seen, passes)
        results = {
            row.name: Latency(
                timings[row.name], cold_load_seconds(row.loader, checkpoint), warm_load_seconds(row.loader, checkpoint)
            )
            for row in rows
        }
    console.print(f"checkpoint: {checkpoint}")
    console.print(results_table(rows, results, observations * passes))


if __name__ == "__main__":
    typer.run(main)
