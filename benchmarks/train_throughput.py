"""Training throughput: MaskablePPO on yokir_v1 self-play, locally and with Ray rollout workers,
beside the same setup on Leduc hold'em.

    python benchmarks/train_throughput.py [--steps 40000] [--repeat 3] [--threads 1 --threads 2] [--busy 0] [--seed 0]
        [--ray-workers 1 --ray-workers 2] [--address ADDR]

Rows, one per setup and torch thread count (`torch.set_num_threads`):
- `yokir_v1 self-play`: `SelfPlayEnv` as `cardarena train yokir` builds it, the opponent pool
  holding the config's baselines (heuristic, random) plus one snapshot of the learner.
- `yokir_v1 self-play, Ray N workers` (with `--ray-workers N`, ray installed): the learner of
  `cardarena train yokir --backend ray --workers N`, its rollouts played by N Ray actors
  (`training/rollouts.py`), one torch thread. Without `--address` the script starts Ray on this
  machine with one logical CPU per worker of all the Ray rows, so every row's actors stay up.
- `leduc_holdem_v4 vs random (PettingZoo)`: PettingZoo classic's `leduc_holdem_v4.env()` (its
  default wrappers) seen from seat 0 as a Gymnasium env, the other seat playing uniformly random
  legal actions; the wrapper lives in this script, it is not project code.

Both use the SAME MaskablePPO setup, read from `load_train_config("yokir")`: every `ppo.*`
hyperparameter, `net_arch`, `activation`, and a `DummyVecEnv` of `n_envs` envs under `VecMonitor`,
built as `Trainer._new_model` builds it (the trainer's own callback, evaluations, snapshots and
TensorBoard logging are left out: this measures the PPO loop itself).

Counting: a *step* is one env step of the vectorised env, that is one learner decision (opponent
moves happen inside it). A measurement is one `model.learn(--steps, reset_num_timesteps=False)`
on a model that has already learned one rollout (the warm-up); SB3 rounds up to whole rollouts of
`n_steps * n_envs` steps. *Rollout* time runs from a callback's `on_rollout_start` to
`on_rollout_end` (stepping the envs, the policy's forward passes, advantages); the rest of
`learn` is the *update* (the PPO epochs over the rollout buffer). *Rollout steps/s* is steps per
second of rollout time alone: what the envs, or the Ray workers, deliver to the learner.

Rows are measured `--repeat` times, interleaved so that load from other processes falls on all
of them alike; the table shows the median run, and every run's steps/s in order (a run far below
the others was disturbed by another process). A missing peer package gives a row saying how to
install it (`pip install .[bench]`).

`--busy N` keeps N other processes spinning (`while True: pass`) for the whole measurement: the
rows as they are when another job (a second training run, the tests) shares the machine.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
import typer
from cardarena.agents.policy import export_policy
from cardarena.training.config import TrainConfig, load_train_config
from cardarena.training.train import build_model
from rich.console import Console
from rich.table import Table
from rich.text import Text
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecMonitor

INSTALL_HINT = "not installed (pip install .[bench])"


@dataclass
class Measurement:
    steps: int
    seconds: float
    rollout_seconds: float
    updates: int

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def microseconds_per_step(self) -> float:
        return self.seconds * 1e6 / self.steps

    @property
    def rollout_share(self) -> float:
        return self.rollout_seconds / self.seconds

    @property
    def rollout_steps_per_second(self) -> float:
        return self.steps / self.rollout_seconds

    @property
    def seconds_per_update(self) -> float:
        return (self.seconds - self.rollout_seconds) / self.updates


class PhaseClock(BaseCallback):
    """Seconds spent collecting rollouts, and how many rollouts (hence updates) there were."""

    def __init__(self) -> None:
        super().__init__()
        self.rollout_seconds = 0.0
        self.rollouts = 0
        self._started = 0.0

    def _on_rollout_start(self) -> None:
        self._started = time.perf_counter()

    def _on_rollout_end(self) -> None:
        self.rollout_seconds += time.perf_counter() - self._started
        self.rollouts += 1

    def _on_step(self) -> bool:
        return True


class LeducVersusRandom(gym.Env):
    """PettingZoo's leduc_holdem_v4 from seat 0, the other seat random; `action_masks()` for MaskablePPO."""

    metadata = {"render_modes": []}
    learner = "player_0"

    def __init__(self, seed: int):
        from pettingzoo.classic import leduc_holdem_v4

        self.table = leduc_holdem_v4.env()
        self.table.reset(seed=seed)
        self.observation_space = self.table.observation_space(self.learner)["observation"]
        self.action_space = self.table.action_space(self.learner)
        self._rng = random.Random(seed)
        self._mask = np.zeros(self.action_space.n, bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self._rng = random.Random(seed)
        while True:
            self.table.reset()
            observation = self._play_opponent()
            if observation is not None:
                return observation, {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        self.table.step(int(action))
        observation = self._play_opponent()
        if observation is not None:
            return observation, 0.0, False, False, {}
        reward = float(self.table.rewards[self.learner])
        return self.table.observe(self.learner)["observation"], reward, True, False, {}

    def action_masks(self) -> np.ndarray:
        return self._mask

    def _play_opponent(self) -> np.ndarray | None:
        """Random moves for seat 1 until seat 0 must decide (its observation) or the hand is over (None)."""
        table = self.table
        while True:
            agent = table.agent_selection
            if table.terminations[agent] or table.truncations[agent]:
                return None
            observation = table.observe(agent)
            if agent == self.learner:
                self._mask = observation["action_mask"].astype(bool)
                return observation["observation"]
            table.step(self._rng.choice(observation["action_mask"].nonzero()[0]))


def yokir_selfplay_envs(config: TrainConfig) -> list[gym.Env]:
    """Self-play envs sharing one pool of the config's baselines; `build_models` adds the snapshot."""
    from cardarena.training.selfplay import OpponentPool, SelfPlayEnv

    pool = OpponentPool(config.game, config.opponents, seed=config.seed)
    return [
        SelfPlayEnv(config.game, config.env, config.env_sampling, pool, seed=config.seed * 1_000 + index)
        for index in range(config.n_envs)
    ]


def leduc_envs(config: TrainConfig) -> list[gym.Env]:
    return [LeducVersusRandom(seed=config.seed * 1_000 + index) for index in range(config.n_envs)]


SETUPS: dict[str, Callable[[TrainConfig], list[gym.Env]]] = {
    "yokir_v1 self-play": yokir_selfplay_envs,
    "leduc_holdem_v4 vs random (PettingZoo)": leduc_envs,
}


def vectorise(envs: list[gym.Env]) -> VecEnv:
    return VecMonitor(DummyVecEnv([lambda env=env: env for env in envs]))


def measure(model: MaskablePPO, steps: int, threads: int) -> Measurement:
    torch.set_num_threads(threads)
    clock = PhaseClock()
    before = model.num_timesteps
    start = time.perf_counter()
    model.learn(total_timesteps=steps, callback=clock, reset_num_timesteps=False)
    seconds = time.perf_counter() - start
    return Measurement(model.num_timesteps - before, seconds, clock.rollout_seconds, clock.rollouts)


def ray_row(workers: int) -> str:
    return f"yokir_v1 self-play, Ray {workers} worker{'s' if workers > 1 else ''}"


def ray_models(
    config: TrainConfig, counts: list[int], address: str | None, device: str = "cpu"
) -> dict[tuple[str, int], MaskablePPO]:
    """A warmed-up Ray-fed learner on `device` per worker count (one torch thread), its workers kept up."""
    import tempfile
    from pathlib import Path

    from cardarena.training.cluster import RayWorkers, connect, import_ray
    from cardarena.training.train import Trainer

    if address is None and not import_ray().is_initialized():
        import_ray().init(num_cpus=sum(counts), include_dashboard=False, log_to_driver=False, logging_level="warning")
    connect(address, max(counts))
    models = {}
    for count in counts:
        trainer = Trainer(
            config, Path(tempfile.mkdtemp(prefix="train-throughput-")), device=device, workers=RayWorkers(count)
        )
        trainer.pool.add_snapshot(export_policy(trainer.model.policy), 0)
        measure(trainer.model, config.ppo.n_steps * config.n_envs, 1)
        models[ray_row(count), 1] = trainer.model
    return models


def build_models(config: TrainConfig, threads: list[int]) -> tuple[dict[tuple[str, int], MaskablePPO], dict[str, str]]:
    """A warmed-up model per (setup, thread count), and for setups whose package is missing the reason."""
    models, missing = {}, {}
    for name, make_envs in SETUPS.items():
        for count in threads:
            try:
                envs = make_envs(config)
            except ImportError:
                missing[name] = INSTALL_HINT
                break
            model = build_model(config, vectorise(envs))
            pool = getattr(envs[0], "pool", None)
            if pool is not None:
                pool.add_snapshot(export_policy(model.policy), 0)
            measure(model, config.ppo.n_steps * config.n_envs, count)
            models[name, count] = model
    return models, missing


def run_all(
    models: dict[tuple[str, int], MaskablePPO], steps: int, repeat: int
) -> dict[tuple[str, int], list[Measurement]]:
    """Every run of each row, rows interleaved across repeats."""
    runs: dict[tuple[str, int], list[Measurement]] = {row: [] for row in models}
    for _ in range(repeat):
        for (name, threads), model in models.items():
            runs[name, threads].append(measure(model, steps, threads))
    return runs


@contextmanager
def busy_processes(count: int) -> Iterator[None]:
    """`count` processes each spinning one core until the block ends."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def _median_run(results: list[Measurement]) -> Measurement:
    ranked = sorted(results, key=lambda m: m.steps_per_second)
    return ranked[(len(ranked) - 1) // 2]


def results_table(
    runs: dict[tuple[str, int], list[Measurement]],
    missing: dict[str, str],
    threads: list[int],
    config: TrainConfig,
    busy: int,
) -> Table:
    rollout = config.ppo.n_steps * config.n_envs
    table = Table(
        title=(
            f"MaskablePPO {config.ppo.net_arch} {config.ppo.activation}, DummyVecEnv({config.n_envs}), "
            f"n_steps {config.ppo.n_steps}, batch {config.ppo.batch_size}, {config.ppo.n_epochs} epochs (median run)"
            + (f", {busy} busy process{'es' if busy > 1 else ''} beside" if busy else "")
        )
    )
    columns = (
        "setup",
        "torch threads",
        "steps/s",
        "µs/step",
        "rollout share",
        "rollout steps/s",
        f"update s ({rollout:,} steps)",
        "steps/s of all runs",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "setup" else "right")
    for name in [*SETUPS, *sorted({row for row, _ in runs} - set(SETUPS))]:
        if name in missing:
            table.add_row(name, "", Text(missing[name]), "", "", "", "", "")
            continue
        for count in sorted(threads for row, threads in runs if row == name):
            m = _median_run(runs[name, count])
            table.add_row(
                name,
                str(count),
                f"{m.steps_per_second:,.0f}",
                f"{m.microseconds_per_step:.0f}",
                f"{m.rollout_share:.0%}",
                f"{m.rollout_steps_per_second:,.0f}",
                f"{m.seconds_per_update:.2f}",
                " ".join(f"{run.steps_per_second:,.0f}" for run in runs[name, count]),
            )
    return table


def main(
    steps: int = typer.Option(40_000, min=1, help="Env steps per measurement (rounded up to whole rollouts)."),
    repeat: int = typer.Option(3, min=1, help="Measurements per row; the median is shown."),
    threads: list[int] = typer.Option([1, 2], help="torch thread counts to compare (repeat the option)."),
    busy: int = typer.Option(0, min=0, help="Other processes spinning a core each during the measurements."),
    seed: int = typer.Option(0, help="Seed of the models, the deals and the opponents."),
    ray_workers: list[int] = typer.Option([], help="Add a Ray row with this many rollout workers (repeat the option)."),
    address: str = typer.Option(None, help="The Ray cluster for the Ray rows (default: start Ray on this machine)."),
) -> None:
    """Env steps/s of MaskablePPO training on yokir_v1 self-play (locally and with Ray rollout
    workers) and on PettingZoo's Leduc hold'em."""
    config = load_train_config("yokir", overrides=[f"seed={seed}"])
    models, missing = build_models(config, threads)
    if ray_workers:
        models.update(ray_models(config, ray_workers, address))
    with busy_processes(busy):
        runs = run_all(models, steps, repeat)
    Console(width=160).print(results_table(runs, missing, threads, config, busy))


if __name__ == "__main__":
    typer.run(main)
