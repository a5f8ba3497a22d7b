"""Ray scaling: Ray workers against training steps/s and tournament hands/s, beside the local backend.

    python benchmarks/ray_scaling.py [--workers 1 --workers 2] [--steps 16384] [--episodes 30000] [--repeat 3]
        [--busy 0] [--set ray.tables=8 --set ray.max_lag=1] [--seed 0]

Rows, one per worker count (0: the local backend):
- *training steps/s*: the learner of `cardarena train yokir` (`--backend ray --workers N` for N > 0)
  over `--steps` steps after a warm-up rollout, measured as `train_throughput.py` measures its
  rows (one torch thread); `--set` changes the training config (e.g. `ray.max_lag=0`,
  `ray.tables=1`, `ray.columns_per_worker=4`); `--device cuda` puts the Ray rows' learner on a GPU.
- *tournament hands/s*: `cardarena eval yokir --agents heuristic,random,random --episodes E`
  (`--backend ray --workers N`): episodes per second of `run_tournaments`, the Ray actors'
  start and imports included, Ray's own start not (the title gives that once).

Ray starts on this machine with one logical CPU per worker of all the training rows plus the
most workers of one row, so every row's actors can stay up. Rows are measured `--repeat` times,
interleaved; the table shows medians and every run. `--busy N` keeps N other processes spinning.
"""

from __future__ import annotations

import statistics
import time

import typer
from cardarena.training.cluster import RayBackend, import_ray
from cardarena.training.config import TrainConfig, load_train_config
from cardarena.training.tournament import LocalBackend, Tournament, run_tournaments
from rich.console import Console
from rich.table import Table
from train_throughput import SETUPS, build_models, busy_processes, measure, ray_models, ray_row

EVAL_AGENTS = ["heuristic", "random", "random"]


def hands_per_second(workers: int, episodes: int, seed: int) -> float:
    """Episodes per second of the Yokir eval tournament on `workers` Ray actors (0: this process)."""
    backend = LocalBackend() if workers == 0 else RayBackend(workers)
    start = time.perf_counter()
    run_tournaments([Tournament("yokir_v1", EVAL_AGENTS, episodes, seed)], backend)
    return episodes / (time.perf_counter() - start)


def main(
    workers: list[int] = typer.Option([1, 2], help="Ray worker counts to measure (repeat the option)."),
    steps: int = typer.Option(16_384, min=1, help="Training steps per measurement (rounded up to whole rollouts)."),
    episodes: int = typer.Option(30_000, min=1, help="Episodes of the eval tournament per measurement."),
    repeat: int = typer.Option(3, min=1, help="Measurements per row; the median is shown."),
    busy: int = typer.Option(0, min=0, help="Other processes spinning a core each during the measurements."),
    settings: list[str] = typer.Option([], "--set", help="A training config override KEY=VALUE (repeat the option)."),
    seed: int = typer.Option(0, help="Seed of the models, the deals and the opponents."),
    device: str = typer.Option("cpu", help="The torch device of the Ray rows' learner (cpu, cuda)."),
) -> None:
    """Training steps/s and tournament hands/s against the number of Ray workers."""
    config = load_train_config("yokir", overrides=[f"seed={seed}", *settings])
    started = time.perf_counter()
    import_ray().init(
        num_cpus=sum(workers) + max(workers), include_dashboard=False, log_to_driver=False, logging_level="warning"
    )
    ray_start = time.perf_counter() - started
    local, _ = build_models(config, [1])
    remote = ray_models(config, workers, None, device)
    models = {0: local[next(iter(SETUPS)), 1], **{count: remote[ray_row(count), 1] for count in workers}}
    counts = [0, *workers]
    training = {count: [] for count in counts}
    hands = {count: [] for count in counts}
    with busy_processes(busy):
        for _ in range(repeat):
            for count in counts:
                training[count].append(measure(models[count], steps, 1).steps_per_second)
                hands[count].append(hands_per_second(count, episodes, seed))
    Console(width=160).print(scaling_table(training, hands, config, ray_start, busy))


def scaling_table(
    training: dict[int, list[float]], hands: dict[int, list[float]], config: TrainConfig, ray_start: float, busy: int
) -> Table:
    table = Table(
        title=(
            f"yokir_v1: ray.tables {config.ray.tables}, ray.max_lag {config.ray.max_lag}, "
            f"ray.columns_per_worker {config.ray.columns_per_worker}, n_envs {config.n_envs}, "
            f"n_steps {config.ppo.n_steps} (median run); Ray started in {ray_start:.1f} s"
            + (f", {busy} busy process{'es' if busy > 1 else ''} beside" if busy else "")
        )
    )
    for column in (
        "workers",
        "training steps/s",
        "× local",
        "hands/s",
        "× local",
        "steps/s of all runs",
        "hands/s of all runs",
    ):
        table.add_column(column, justify="right")
    local_steps, local_hands = statistics.median(training[0]), statistics.median(hands[0])
    for count in training:
        steps, played = statistics.median(training[count]), statistics.median(hands[count])
        table.add_row(
            "local" if count == 0 else str(count),
            f"{steps:,.0f}",
            f"{steps / local_steps:.2f}",
            f"{played:,.0f}",
            f"{played / local_hands:.2f}",
            " ".join(f"{run:,.0f}" for run in training[count]),
            " ".join(f"{run:,.0f}" for run in hands[count]),
        )
    return table


if __name__ == "__main__":
    typer.run(main)
