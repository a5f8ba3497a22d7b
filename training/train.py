"""Self-play training with MaskablePPO: snapshots into the opponent pool, periodic evaluation,
TensorBoard logs, atomic checkpoints, and resuming a killed run where it stopped."""

from __future__ import annotations

import json
import pickle
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import yaml
from cardarena.agents import load
from cardarena.agents.loading import checkpoint_folder
from cardarena.agents.policy import PolicyAgent, export_policy
from cardarena.envs import lookup
from cardarena.envs.core.errors import CheckpointError, ConfigError
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import configure
from stable_baselines3.common.utils import obs_as_tensor
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from .checkpoint import load_model, load_weights, verify_checkpoint, write_checkpoint
from .cluster import RaySearch
from .config import TrainConfig, merge_settings, validate_train_config
from .evaluate import evaluate, seat_names
from .expert import EXPERT_ITERATION, derived_seed, run_generation, search_games_path
from .policies import ActionFeaturePolicy, action_feature_columns
from .pretrain import behaviour_clone, collect_demonstrations
from .rollouts import Layout, buffer_columns, checked_worker_state, lay_out, worker_seed
from .selfplay import OpponentPool, SelfPlayEnv, rng_state_from_json
from .value_games import CRITIC, fit_critic_to_own_games

if TYPE_CHECKING:
    from .cluster import RayWorkers

CONFIG_FILE = "config.yaml"
HISTORY_FILE = "history.jsonl"
STATE_FILE = "trainer_state.json"
POOL_FILE = "pool.pt"
LEARNER = "learner"
# A run whose config.yaml has no `ray` settings was written before they existed: its Ray workers
# played one table each and waited for every update, and its saved worker states are one table's.
RAY_BEFORE_SETTINGS = {"tables": 1, "max_lag": 0}

ProgressHook = Callable[[str, int, int, dict[str, float]], None]  # phase, done, total, latest win rates


@dataclass
class TrainResult:
    run_dir: Path
    final_checkpoint: Path
    steps: int
    seconds: float
    evaluation: dict[str, Any]


def default_run_dir(config: TrainConfig) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("runs") / lookup(config.game).name / f"{config.name}-{stamp}"


@dataclass(frozen=True)
class SkippedCheckpoint:
    folder: Path
    problem: str  # the CheckpointError's message, which names the folder


@dataclass(frozen=True)
class ResumePoint:
    """Where `Trainer.resume` continued a run: the checkpoint it restored (None: the run had none
    yet and starts at step 0), and the newer checkpoints it skipped because they did not load."""

    checkpoint: Path | None
    skipped: tuple[SkippedCheckpoint, ...] = ()


def run_checkpoints(run_dir: Path) -> list[Path]:
    """The checkpoint folders of a run, newest first: `final` if the run finished, then by step
    (temp folders of an interrupted write, named with a leading dot, are not among them)."""
    final = [run_dir / "final"] if (run_dir / "final").exists() else []
    return final + sorted((run_dir / "checkpoints").glob("step_*"), key=lambda p: p.name, reverse=True)


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The newest checkpoint of a run that passes `verify_checkpoint`."""
    for candidate in run_checkpoints(run_dir):
        try:
            verify_checkpoint(candidate)
            return candidate
        except CheckpointError:
            continue
    return None


class Trainer:
    """One training run in `run_dir`. `Trainer.resume(run_dir)` continues a killed run.

    The learner runs on `device`. Rollouts come from its own `n_envs` self-play envs, or, given
    `workers` (`cluster.RayWorkers`), from rollout workers on a Ray cluster; the rollout buffer then has
    `rollouts.buffer_columns` columns, which the workers' episodes fill. With `workers`, expert
    iteration's search games are played by as many Ray actors (`cluster.RaySearch`).
    """

    def __init__(self, config: TrainConfig, run_dir: Path, device: str = "cpu", workers: RayWorkers | None = None):
        self.config = config
        self.run_dir = Path(run_dir)
        self.env_id = lookup(config.game).env_id
        self.device = device
        self.workers = workers
        self.search_players = RaySearch(workers.count) if workers is not None else None
        torch.set_num_threads(config.torch_threads)
        self.pool = OpponentPool(config.game, config.opponents, seed=config.seed)
        self.envs = [
            SelfPlayEnv(config.game, config.env, config.env_sampling, self.pool, seed=worker_seed(config.seed, index))
            for index in range(buffer_columns(config, workers.count) if workers is not None else config.n_envs)
        ]
        if workers is not None:
            workers.start(config)
        self.venv = VecMonitor(DummyVecEnv([_built(env) for env in self.envs]))
        self.model = self._new_model()
        self.history: list[dict[str, Any]] = []
        self.generation = 0  # expert iteration: the generations done
        self.restored = False
        self.resume_point: ResumePoint | None = None  # set by `resume`

    @classmethod
    def start(
        cls, config: TrainConfig, run_dir: Path | None = None, device: str = "cpu", workers: RayWorkers | None = None
    ) -> Trainer:
        run_dir = Path(run_dir) if run_dir is not None else default_run_dir(config)
        if (run_dir / CONFIG_FILE).exists():
            raise ConfigError(f"run directory {str(run_dir)!r} already holds a run; resume it with --resume {run_dir}")
        if config.start_from:
            game = lookup(config.game).name
            verify_checkpoint(checkpoint_folder(config.start_from, game), game)  # a bad start fails before the run does
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / CONFIG_FILE).write_text(yaml.safe_dump(config.model_dump(), sort_keys=False))
        return cls(config, run_dir, device, workers)

    @classmethod
    def resume(
        cls,
        run_dir: Path,
        overrides: dict[str, Any] | None = None,
        device: str = "cpu",
        workers: RayWorkers | None = None,
    ) -> Trainer:
        """Continue a run from its newest checkpoint that loads: steps, model, optimiser, pool and RNGs.

        Newer checkpoints that do not load are skipped; `resume_point` says which checkpoint was
        restored and which were skipped and why. A run with checkpoints none of which loads is a
        CheckpointError naming each; a run killed before its first checkpoint starts at step 0.
        A run written before the `ray` settings existed resumes with `RAY_BEFORE_SETTINGS`.
        """
        run_dir = Path(run_dir)
        config_path = run_dir / CONFIG_FILE
        if not config_path.is_file():
            raise CheckpointError(f"{str(run_dir)!r} is not a training run: {CONFIG_FILE} is missing")
        data = yaml.safe_load(config_path.read_text())
        if not isinstance(data, dict):
            raise CheckpointError(f"{config_path}: the run's config is not a mapping of settings")
        data.setdefault("ray", dict(RAY_BEFORE_SETTINGS))
        config = validate_train_config(merge_settings(data, overrides or {}))
        trainer = cls(config, run_dir, device, workers)
        trainer.resume_point = trainer._restore_newest()
        return trainer

    def pretrain(self, on_progress: ProgressHook | None = None) -> dict[str, float]:
        """Clone the teacher's play into the policy and critic (see training/pretrain.py)."""
        settings = self.config.pretrain
        if settings.teacher is None:
            raise ConfigError("pretraining needs a teacher: set pretrain.teacher in the config")
        report = (lambda done: on_progress("demonstrations", done, settings.episodes, {})) if on_progress else None
        demonstrations = collect_demonstrations(
            self.config.game,
            settings.teacher,
            settings.episodes,
            self.config.env,
            tuple(settings.partners),
            self.config.seed,
            report,
        )
        fit = behaviour_clone(
            self.model.policy,
            demonstrations,
            settings.epochs,
            settings.batch_size,
            settings.learning_rate,
            self.config.seed,
            settings.fit,
            settings.temperature,
        )
        for key, value in fit.items():
            self.model.logger.record(f"pretrain/{key}", value)
        self.model.logger.record("pretrain/decisions", len(demonstrations))
        self.model.logger.dump(0)
        return fit

    @property
    def steps(self) -> int:
        return int(self.model.num_timesteps)

    def run(self, on_progress: ProgressHook | None = None) -> TrainResult:
        """Pretrain (a fresh run), train until total_steps (PPO) or for expert.generations (expert
        iteration), then evaluate and write the final checkpoint."""
        started = time.perf_counter()
        if not self.restored:
            self._prepare(on_progress)
        if self.config.algo == EXPERT_ITERATION:
            self._run_generations(on_progress)
        elif self.config.algo == CRITIC:
            self._refit_critic(on_progress)
        elif (remaining := self.config.total_steps - self.steps) > 0:
            self.learn(remaining, _TrainingCallback(self, on_progress))
        evaluation = self.evaluate_learner(self.config.eval.final_episodes or self.config.eval.episodes, on_progress)
        final = self.save_checkpoint(self.run_dir / "final", evaluation)
        self._plot()
        return TrainResult(self.run_dir, final, self.steps, time.perf_counter() - started, evaluation)

    def learn(self, steps: int, callback: BaseCallback | None = None) -> None:
        """`steps` more PPO steps; the Ray rollout workers, if any, end afterwards, freeing their
        CPUs (for the next generation's search games, or for good)."""
        try:
            self.model.learn(total_timesteps=steps, callback=callback, reset_num_timesteps=self.steps == 0)
        finally:
            if self.workers is not None:
                self.workers.stop()

    def _run_generations(self, on_progress: ProgressHook | None) -> None:
        """Expert iteration from the generation after the last one done: each generation is
        evaluated, written to history.jsonl with its figures, and checkpointed."""
        for generation in range(self.generation + 1, self.config.expert.generations + 1):
            figures = run_generation(self, generation, on_progress)
            self.generation = generation
            self.evaluate_learner(self.config.eval.episodes, on_progress, {"expert": figures})
            self.save_checkpoint(self.run_dir / "checkpoints" / f"step_{self.steps:010d}")
            shutil.rmtree(search_games_path(self.run_dir, generation), ignore_errors=True)

    def _refit_critic(self, on_progress: ProgressHook | None) -> None:
        """`algo: critic`: the start's critic refitted to `expert.value_games` games of its own
        (training/value_games.py), its actor left as it is; evaluated, written to history.jsonl with
        the fit's figures and checkpointed at as many steps as positions fitted. A run resumed from
        that checkpoint does not fit again."""
        if self.workers is not None:
            self.workers.stop()  # the games are played here: Ray's rollout workers have nothing to do
        if self.steps:
            return
        games = self.config.expert.value_games
        report = (lambda done: on_progress("value games", done, games, {})) if on_progress else None
        seed = derived_seed(self.config.seed, CRITIC)
        figures = fit_critic_to_own_games(self.model.policy, self.config, seed, report)
        self.model.num_timesteps += int(figures["value_positions"])
        for key, value in figures.items():
            self.model.logger.record(f"critic/{key}", value)
        self.evaluate_learner(self.config.eval.episodes, on_progress, {"critic": figures})
        self.save_checkpoint(self.run_dir / "checkpoints" / f"step_{self.steps:010d}")

    def evaluate_learner(
        self, episodes: int, on_progress: ProgressHook | None = None, figures: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The learner against each baseline over `episodes` (one learner seat, the rest that
        baseline), and its rating (evaluate's Bradley-Terry on duplicate margins) at a table with
        every baseline; logged to TensorBoard and history.jsonl (with `figures`, if given).
        `on_progress` hears of each episode as the phase "evaluation"."""
        learner = PolicyAgent(export_policy(self.model.policy), name=LEARNER)
        game = lookup(self.config.game).name
        seats = len(lookup(self.config.game).env_cls(**self.config.env).possible_agents)
        seed = self.config.seed + self.steps
        results = {}
        tables = len(self.config.eval.opponents) + 1
        for index, opponent in enumerate(self.config.eval.opponents):
            lineup = [(LEARNER, learner)] + [
                (opponent, load(opponent, game=game, seed=seat)) for seat in range(1, seats)
            ]
            report = _episode_reporter(on_progress, index * episodes, tables * episodes)
            score = evaluate(self.env_id, lineup, episodes, seed, self.config.env, on_episode=report).score_of(LEARNER)
            results[opponent] = {"mean": score.mean, "ci95": score.ci95, "win_rate": score.win_rate}
            for key, value in results[opponent].items():
                self.model.logger.record(f"eval/{opponent}/{key}", value)
        names = seat_names(self.env_id, [LEARNER, *self.config.eval.opponents], seats)
        mixed = [
            (name, learner if name == LEARNER else load(name, game=game, seed=seat)) for seat, name in enumerate(names)
        ]
        report = _episode_reporter(on_progress, (tables - 1) * episodes, tables * episodes)
        rating = evaluate(self.env_id, mixed, episodes, seed, self.config.env, on_episode=report).score_of(LEARNER)
        self.model.logger.record("eval/rating_mu", rating.mu)
        self.model.logger.record("eval/rating_ordinal", rating.ordinal)
        row = {"steps": self.steps, "results": results, "rating": rating.rating(), **(figures or {})}
        self.history.append(row)
        with open(self.run_dir / HISTORY_FILE, "a") as handle:
            handle.write(json.dumps(row) + "\n")
        self.model.logger.dump(self.steps)
        return results

    def save_checkpoint(self, directory: Path, evaluation: dict[str, Any] | None = None) -> Path:
        state = {
            "steps": self.steps,
            "generation": self.generation,
            "env_rngs": [env.rng_state() for env in self.envs],
            "env_episodes": [env.episodes for env in self.envs],
            "python_rng": random.getstate(),
            "numpy_rng": _numpy_rng_state(),
            "history_rows": len(self.history),
            "worker_states": self.workers.states if self.workers is not None else [],
        }
        extra = {
            STATE_FILE: json.dumps(state).encode(),
            POOL_FILE: _torch_bytes(
                {"pool": _pool_to_tensors(self.pool.state_dict()), "torch_rng": torch.get_rng_state()}
            ),
        }
        return write_checkpoint(
            directory,
            self.model,
            env_id=self.env_id,
            config=self.config.model_dump(),
            steps=self.steps,
            evaluation=evaluation,
            extra=extra,
        )

    def _prepare(self, on_progress: ProgressHook | None) -> None:
        """A fresh run's step 0: the start_from checkpoint's weights or pretraining if configured,
        the first snapshot, a first checkpoint."""
        if self.config.start_from:
            game = lookup(self.config.game).name
            load_weights(self.model.policy, checkpoint_folder(self.config.start_from, game), game)
        elif self.config.pretrain.teacher:
            self.pretrain(on_progress)
        self.pool.add_snapshot(export_policy(self.model.policy), 0)
        self.save_checkpoint(self.run_dir / "checkpoints" / f"step_{0:010d}")
        self.restored = True

    def _new_model(self) -> MaskablePPO:
        model = build_model(self.config, self.venv, self.device, WorkerPPO if self.workers is not None else MaskablePPO)
        return self._attach(model)

    def _attach(self, model: MaskablePPO) -> MaskablePPO:
        """The model logging to the run's TensorBoard folder (and fed by the workers, if any)."""
        model.set_logger(configure(str(self.run_dir / "tb"), ["tensorboard"]))
        if isinstance(model, WorkerPPO) and self.workers is not None:
            model.rollout_workers, model.pool = self.workers, self.pool
        return model

    def _restore_newest(self) -> ResumePoint:
        """Restore the newest checkpoint that loads, skipping newer ones that do not (see `resume`)."""
        skipped: list[SkippedCheckpoint] = []
        for checkpoint in run_checkpoints(self.run_dir):
            try:
                self._restore(checkpoint)
            except CheckpointError as err:
                skipped.append(SkippedCheckpoint(checkpoint, str(err)))
                continue
            return ResumePoint(checkpoint, tuple(skipped))
        if skipped:
            problems = "; ".join(skip.problem for skip in skipped)
            raise CheckpointError(
                f"{self.run_dir}: none of its {len(skipped)} checkpoints can be resumed from: {problems}"
            )
        return ResumePoint(None)

    def _restore(self, checkpoint: Path) -> None:
        """Restore the run's state from `checkpoint`; a file that does not load is a CheckpointError.
        A failure part way leaves nothing that a later `_restore` does not set again."""
        model_cls = WorkerPPO if self.workers is not None else MaskablePPO
        model = load_model(checkpoint, env=self.venv, device=self.device, model_cls=model_cls)
        try:
            state = json.loads((checkpoint / STATE_FILE).read_text())
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise CheckpointError(f"{checkpoint}: {STATE_FILE} is not valid JSON ({err})") from None
        if not isinstance(state, dict):
            raise CheckpointError(f"{checkpoint}: {STATE_FILE} holds a {type(state).__name__}, not an object")
        try:
            saved = torch.load(checkpoint / POOL_FILE, weights_only=True)
        except pickle.UnpicklingError as err:
            raise CheckpointError(
                f"{checkpoint}: {POOL_FILE} holds objects other than tensors, lists and numbers, so it is not read: "
                f"{str(err).splitlines()[0]}"
            ) from None
        except (RuntimeError, EOFError, OSError) as err:
            raise CheckpointError(f"{checkpoint}: {POOL_FILE} cannot be read, the file is corrupt ({err})") from None
        try:
            worker_states = self._worker_states(state)
            self.pool.load_state_dict(_pool_from_tensors(saved["pool"]))
            torch.set_rng_state(saved["torch_rng"])
            for env, rng, episodes in zip(self.envs, state["env_rngs"], state["env_episodes"], strict=True):
                env.set_rng_state(rng)
                env.episodes = episodes
            random.setstate(rng_state_from_json(state["python_rng"]))
            keys, position, has_gauss, cached_gaussian = state["numpy_rng"]
            np.random.set_state(("MT19937", np.array(keys, dtype=np.uint32), position, has_gauss, cached_gaussian))
            history_rows = int(state["history_rows"])
            generation = int(state.get("generation", 0))
        except ConfigError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, RuntimeError) as err:
            raise CheckpointError(
                f"{checkpoint}: its resume state ({STATE_FILE}, {POOL_FILE}) is malformed ({type(err).__name__}: {err})"
            ) from None
        self.model = self._attach(model)
        self.generation = generation
        if self.workers is not None:
            self.workers.start(self.config, worker_states)
        history_path = self.run_dir / HISTORY_FILE
        rows = [json.loads(line) for line in history_path.read_text().splitlines()] if history_path.exists() else []
        self.history = rows[:history_rows]
        history_path.write_text("".join(json.dumps(row) + "\n" for row in self.history))
        self.restored = True

    def _worker_states(self, state: dict[str, Any]) -> list[dict[str, Any] | None]:
        """The saved states of the Ray rollout workers (none without Ray), checked against
        `ray.tables` (`rollouts.checked_worker_state`)."""
        if self.workers is None:
            return []
        saved = state.get("worker_states", [])
        if not isinstance(saved, list):
            raise ValueError(f"worker_states is a {type(saved).__name__}, not a list")
        return [checked_worker_state(worker, self.config.ray.tables) for worker in saved]

    def _plot(self) -> None:
        from .plots import plot_learning_curve

        if self.history:
            plot_learning_curve(self.history, self.run_dir / "learning_curve.png")


def check_device(device: str) -> None:
    """ValueError for a torch device that is malformed or absent here (e.g. cuda without a GPU)."""
    try:
        kind = torch.device(device).type
    except RuntimeError as err:
        raise ValueError(f"--device {device!r} is not a torch device ({err})") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"--device {device}: torch finds no CUDA GPU here (torch {torch.__version__})")


def build_model(
    config: TrainConfig, venv, device: str = "cpu", model_cls: type[MaskablePPO] = MaskablePPO
) -> MaskablePPO:
    """The MaskablePPO learner that `config.ppo` describes, on a vectorised self-play env."""
    ppo = config.ppo
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[ppo.activation]
    policy_kwargs: dict[str, Any] = {
        "net_arch": {"pi": list(ppo.net_arch), "vf": list(ppo.net_arch)},
        "activation_fn": activation,
    }
    env_cls = lookup(config.game).env_cls
    slices = env_cls.encoder_cls.action_feature_slices
    if slices:
        policy_kwargs["columns"] = action_feature_columns(slices, env_cls.game_cls.num_actions)
    return model_cls(
        ActionFeaturePolicy if slices else "MlpPolicy",
        venv,
        learning_rate=ppo.learning_rate,
        n_steps=ppo.n_steps,
        batch_size=ppo.batch_size,
        n_epochs=ppo.n_epochs,
        gamma=ppo.gamma,
        gae_lambda=ppo.gae_lambda,
        clip_range=ppo.clip_range,
        ent_coef=ppo.ent_coef,
        vf_coef=ppo.vf_coef,
        max_grad_norm=ppo.max_grad_norm,
        policy_kwargs=policy_kwargs,
        seed=config.seed,
        device=device,
        verbose=0,
    )


def _episode_reporter(on_progress: ProgressHook | None, before: int, total: int) -> Callable[[int], None] | None:
    """`evaluate`'s on_episode as the "evaluation" phase of `on_progress`, `before` episodes already done."""
    if on_progress is None:
        return None
    return lambda played: on_progress("evaluation", before + played, total, {})


class WorkerPPO(MaskablePPO):
    """MaskablePPO whose rollouts are whole episodes from rollout workers (`rollout_workers`,
    `cluster.RayWorkers`) playing against `pool`: the learner computes the values, fills the
    rollout buffer (`rollouts.lay_out`) and trains as MaskablePPO does. Callbacks see one step
    per buffer row, with each finished episode's outcome in `infos` as the local envs give it."""

    rollout_workers: RayWorkers
    pool: OpponentPool

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "rollout_workers", "pool"]

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int, use_masking: bool = True) -> bool:
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        callback.on_rollout_start()
        episodes = self.rollout_workers.collect(export_policy(self.policy), self.pool, n_rollout_steps * env.num_envs)
        layout = lay_out(episodes, n_rollout_steps, env.num_envs)
        values, rewards, last_values = self._values(layout)
        for row in range(n_rollout_steps):
            dones = np.zeros(env.num_envs, bool)
            infos: list[dict[str, Any]] = [{} for _ in range(env.num_envs)]
            for end_row, column, episode in layout.ends:
                if end_row == row:
                    dones[column] = True
                    infos[column] = {
                        "outcome": episode.outcome,
                        "episode": {"r": float(episode.rewards.sum()), "l": episode.steps},
                    }
            self.num_timesteps += env.num_envs
            callback.update_locals({"infos": infos, "dones": dones})
            if not callback.on_step():
                return False
            self._update_info_buffer(infos, dones)
            rollout_buffer.add(
                layout.observations[row],
                layout.actions[row].reshape(-1, 1),
                rewards[row],
                layout.starts[row],
                values[row],
                torch.as_tensor(layout.log_probs[row]),
                action_masks=layout.masks[row],
            )
        rollout_buffer.compute_returns_and_advantage(last_values=last_values, dones=layout.last_dones)
        callback.on_rollout_end()
        return True

    def _values(self, layout: Layout) -> tuple[torch.Tensor, np.ndarray, torch.Tensor]:
        """The critic's value of every buffer row, the rewards with a truncated episode's last
        one bootstrapped by the value of its final observation (as MaskablePPO does), and the
        values that bootstrap the columns' last rows."""
        rows, columns, size = layout.observations.shape
        rewards = layout.rewards.copy()
        with torch.no_grad():
            values = self.policy.predict_values(
                obs_as_tensor(layout.observations.reshape(-1, size), self.device)
            ).reshape(rows, columns)
            last_values = self.policy.predict_values(obs_as_tensor(layout.last_observations, self.device)).flatten()
            for row, column, episode in layout.ends:
                if episode.truncated:
                    final = obs_as_tensor(episode.observations[-1:], self.device)
                    rewards[row, column] += self.gamma * float(self.policy.predict_values(final))
        return values.cpu(), rewards, last_values


class _TrainingCallback(BaseCallback):
    """Snapshots, evaluations and checkpoints on their step schedules; episode statistics to TensorBoard."""

    def __init__(self, trainer: Trainer, on_progress: ProgressHook | None):
        super().__init__()
        self.trainer = trainer
        self.on_progress = on_progress
        self._marks: dict[str, int] = {}
        self._outcomes: list[dict[str, Any]] = []
        self._clock = (time.perf_counter(), 0)
        self._latest: dict[str, float] = {}

    def _on_training_start(self) -> None:
        config, steps = self.trainer.config, self.trainer.steps
        for name, every in (
            ("snapshot", config.opponents.snapshot_every),
            ("eval", config.eval.every),
            ("checkpoint", config.checkpoint_every),
        ):
            self._marks[name] = steps // every
        self._clock = (time.perf_counter(), steps)

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", []):
            if "outcome" in info:
                self._outcomes.append(info["outcome"])
        if self.on_progress is not None:
            self.on_progress("train", self.num_timesteps, self.trainer.config.total_steps, self._latest)
        return True

    def _on_rollout_start(self) -> None:
        """Between PPO updates: the policy is the one trained on every step so far."""
        config, steps = self.trainer.config, self.num_timesteps
        if self._due("snapshot", config.opponents.snapshot_every):
            self.trainer.pool.add_snapshot(export_policy(self.model.policy), steps)
        if self._due("eval", config.eval.every):
            results = self.trainer.evaluate_learner(config.eval.episodes)
            self._latest = {f"win vs {name}": r["win_rate"] for name, r in results.items()}
        if self._due("checkpoint", config.checkpoint_every):
            self.trainer.save_checkpoint(self.trainer.run_dir / "checkpoints" / f"step_{steps:010d}")

    def _on_rollout_end(self) -> None:
        logger = self.logger
        if self._outcomes:
            logger.record("selfplay/learner_reward", float(np.mean([o["reward"] for o in self._outcomes])))
            logger.record("selfplay/win_rate", float(np.mean([o["won"] for o in self._outcomes])))
            logger.record("selfplay/decisions_per_episode", float(np.mean([o["decisions"] for o in self._outcomes])))
            self._outcomes.clear()
        started, steps = self._clock
        now = time.perf_counter()
        logger.record("throughput/env_steps_per_s", (self.num_timesteps - steps) / max(now - started, 1e-9))
        self._clock = (now, self.num_timesteps)
        logger.record("selfplay/pool_snapshots", len(self.trainer.pool.snapshots))

    def _due(self, name: str, every: int) -> bool:
        mark = self.num_timesteps // every
        if mark > self._marks[name]:
            self._marks[name] = mark
            return True
        return False


def _built(env: SelfPlayEnv) -> Callable[[], SelfPlayEnv]:
    """A DummyVecEnv factory that hands over an environment built already."""
    return lambda: env


def _numpy_rng_state() -> list:
    state = np.random.get_state(legacy=True)
    assert isinstance(state, tuple), "the global generator is MT19937, whose legacy state is a tuple"
    _, keys, position, has_gauss, cached_gaussian = state
    return [keys.tolist(), position, has_gauss, cached_gaussian]


def _torch_bytes(obj: Any) -> bytes:
    import io

    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


def _pool_to_tensors(state: dict[str, Any]) -> dict[str, Any]:
    """The pool's state with every numpy array of its policies as a tensor (`torch.load(weights_only=True)` reads
    it)."""
    return {**state, "policies": _converted(state["policies"], np.ndarray, torch.from_numpy), "rng": list(state["rng"])}


def _pool_from_tensors(state: dict[str, Any]) -> dict[str, Any]:
    return {**state, "policies": _converted(state["policies"], torch.Tensor, torch.Tensor.numpy)}


def _converted(value: Any, kind: type, convert: Callable[[Any], Any]) -> Any:
    """`value` with every `kind` inside its dicts and lists replaced by `convert` of it."""
    if isinstance(value, kind):
        return convert(value)
    if isinstance(value, dict):
        return {key: _converted(item, kind, convert) for key, item in value.items()}
    if isinstance(value, list):
        return [_converted(item, kind, convert) for item in value]
    return value
