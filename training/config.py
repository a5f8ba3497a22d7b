"""Training configuration: YAML files validated into one TrainConfig, every field but the game with a default.

Precedence: the model's defaults < the game's registered agents (`registered_defaults`) < the
game's packaged YAML (configs/<game>.yaml) < a --config file < --set KEY=VALUE overrides (dotted
keys reach nested settings, e.g. ppo.learning_rate=1e-4).
"""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from cardarena.agents.loading import RANDOM
from cardarena.agents.search import parse_search_name
from cardarena.envs import lookup
from cardarena.envs.core.errors import ConfigError
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

PositiveInt = Annotated[int, Field(ge=1)]
Fraction = Annotated[float, Field(ge=0.0, le=1.0)]


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PPOSettings(_Settings):
    """MaskablePPO hyperparameters (sb3-contrib names)."""

    learning_rate: Annotated[float, Field(gt=0)] = 3e-4
    n_steps: PositiveInt = 256
    batch_size: PositiveInt = 512
    n_epochs: PositiveInt = 4
    gamma: Fraction = 1.0
    gae_lambda: Fraction = 0.95
    clip_range: Annotated[float, Field(gt=0)] = 0.2
    ent_coef: Annotated[float, Field(ge=0)] = 0.01
    vf_coef: Annotated[float, Field(ge=0)] = 0.5
    max_grad_norm: Annotated[float, Field(gt=0)] = 0.5
    net_arch: list[PositiveInt] = [128, 128]
    activation: Literal["tanh", "relu"] = "tanh"


class OpponentSettings(_Settings):
    """Who fills the seats the learner does not play."""

    strategy: Literal["latest", "uniform", "prioritized"] = "prioritized"
    baselines: list[str] = [RANDOM]
    baseline_share: Fraction = 0.25
    snapshot_every: PositiveInt = 25_000
    max_snapshots: PositiveInt = 20
    priority_power: Annotated[float, Field(ge=0)] = 2.0


class PretrainSettings(_Settings):
    """Behaviour cloning of a teacher before self-play (training/pretrain.py); teacher null skips it."""

    teacher: str | None = None
    episodes: PositiveInt = 15_000
    partners: list[str] = ["random"]
    epochs: PositiveInt = 8
    batch_size: PositiveInt = 512
    learning_rate: Annotated[float, Field(gt=0)] = 1e-3
    fit: Literal["head", "all"] = "head"
    temperature: Annotated[float, Field(gt=0)] = 1.0


class EvalSettings(_Settings):
    """Periodic evaluation of the learner against baselines during training, and the final one."""

    every: PositiveInt = 50_000
    episodes: PositiveInt = 300
    final_episodes: PositiveInt | None = None
    opponents: list[str] = [RANDOM]


class ExpertSettings(_Settings):
    """Expert iteration (algo: expert-iteration, training/expert.py): search games, learning, the gate."""

    generations: PositiveInt = 10
    games: PositiveInt = 200
    teacher: str | None = None
    teacher_temperature: Annotated[float, Field(ge=0)] = 0.0
    iterations: PositiveInt = 64
    c_puct: Annotated[float, Field(ge=0)] = 1.5
    prior_temperature: Annotated[float, Field(gt=0)] = 1.0
    temperature: Annotated[float, Field(ge=0)] = 1.0
    epochs: PositiveInt = 4
    batch_size: PositiveInt = 256
    learning_rate: Annotated[float, Field(gt=0)] = 1e-3
    value_weight: Annotated[float, Field(ge=0)] = 0.5
    holdout: Annotated[float, Field(ge=0, lt=1)] = 0.0
    sharpening: Annotated[float, Field(gt=0, le=1)] = 1.0
    window: PositiveInt = 1
    ppo_steps: Annotated[int, Field(ge=0)] = 0
    value_games: Annotated[int, Field(ge=0)] = 0
    value_explore: Annotated[float, Field(ge=0, le=1)] = 0.2
    gate_episodes: PositiveInt = 400
    workers: PositiveInt = 1

    @field_validator("teacher")
    @classmethod
    def _fixed_budget_search(cls, teacher: str | None) -> str | None:
        if teacher is None:
            return None
        parsed = parse_search_name(teacher)
        if parsed is None:
            raise ValueError(f"expert.teacher must name a search agent (pimc:... or ismcts:...), got {teacher!r}")
        if parsed[1]["ms"]:
            raise ValueError(f"expert.teacher {teacher!r} has a time budget: give worlds or iterations instead")
        return teacher


class RaySettings(_Settings):
    """Rollouts on --backend ray (docs/scaling.md): tables each worker plays at once, batching
    the learner's moves across them; how many updates old the workers' weights may be (0: they
    wait for each update, 1: they play the next rollout while the learner updates); and the
    buffer columns each worker fills (null: n_envs in all, whatever the number of workers)."""

    tables: PositiveInt = 8
    max_lag: Annotated[int, Field(ge=0, le=1)] = 1
    columns_per_worker: PositiveInt | None = None


class TrainConfig(_Settings):
    """Everything a training run needs; `cardarena train <game>` fills it from YAML and --set."""

    game: str
    name: str = "ppo-selfplay"
    algo: Literal["ppo", "expert-iteration", "critic"] = "ppo"
    total_steps: PositiveInt = 300_000
    n_envs: PositiveInt = 8
    seed: int = 0
    start_from: str | None = None
    torch_threads: PositiveInt = 1
    env: dict[str, Any] = {}
    env_sampling: dict[str, list[Any]] = {}
    checkpoint_every: PositiveInt = 50_000
    ppo: PPOSettings = PPOSettings()
    pretrain: PretrainSettings = PretrainSettings()
    opponents: OpponentSettings = OpponentSettings()
    eval: EvalSettings = EvalSettings()
    expert: ExpertSettings = ExpertSettings()
    ray: RaySettings = RaySettings()

    def drawn_env(self, rng: random.Random) -> dict[str, Any]:
        """The env settings of one game: `env`, each `env_sampling` key drawn with `rng`."""
        return {**self.env, **{key: rng.choice(choices) for key, choices in self.env_sampling.items()}}

    @model_validator(mode="after")
    def _check_game_settings(self) -> TrainConfig:
        entry = lookup(self.game)
        config_cls = entry.env_cls.game_cls.config_cls
        config_cls.build(**self.env)
        for key, choices in self.env_sampling.items():
            if not choices:
                raise ValueError(f"env_sampling.{key} needs at least one value")
            for choice in choices:
                config_cls.build(**{**self.env, key: choice})
        return self

    @model_validator(mode="after")
    def _check_critic_refit(self) -> TrainConfig:
        if self.algo == "critic" and not (self.start_from and self.expert.value_games):
            raise ValueError("algo: critic refits start_from's critic: set start_from and expert.value_games above 0")
        return self


def packaged_config(name: str) -> Path:
    """Path of a YAML config shipped with cardarena (configs/<name>.yaml)."""
    return Path(str(resources.files("cardarena.configs").joinpath(f"{name}.yaml")))


def load_train_config(
    game: str, config_file: str | Path | None = None, overrides: list[str] | None = None
) -> TrainConfig:
    """The validated config for training `game`, from the layers described in this module's docstring."""
    layers: list[dict[str, Any]] = [registered_defaults(game)]
    game_defaults = packaged_config(game.rsplit("_v", 1)[0])
    if game_defaults.is_file():
        layers.append(_read_yaml(game_defaults))
    if config_file is not None:
        layers.append(_read_yaml(Path(config_file)))
    layers.append({"game": game})
    layers.append(parse_overrides(overrides or []))
    merged: dict[str, Any] = {}
    for layer in layers:
        merged = merge_settings(merged, layer)
    return validate_train_config(merged)


def registered_defaults(game: str) -> dict[str, Any]:
    """The settings that follow from `game`'s registered agents (e.g. its heuristics).

    They are the opponent pool's baselines, the first of them is the pretraining teacher, and the
    learner is evaluated against `default_eval_opponents`. A game that registers no agent trains
    from scratch against random.
    """
    agents = list(lookup(game).agents)
    return {
        "opponents": {"baselines": agents or [RANDOM]},
        "pretrain": {"teacher": agents[0] if agents else None},
        "eval": {"opponents": default_eval_opponents(game)},
    }


def default_eval_opponents(game: str) -> list[str]:
    """Random and each agent `game` registers: whom a bot of `game` is measured against by default."""
    return [RANDOM, *lookup(game).agents]


def validate_train_config(data: dict[str, Any]) -> TrainConfig:
    try:
        return TrainConfig(**data)
    except ValidationError as err:
        problems = []
        for issue in err.errors():
            key = ".".join(str(part) for part in issue["loc"]) or "<config>"
            value = issue.get("input")
            shown = "" if isinstance(value, dict) else f"={value!r}"
            problems.append(f"{key}{shown}: {issue['msg']}")
        raise ConfigError("bad training config: " + "; ".join(problems)) from None


def parse_overrides(overrides: list[str]) -> dict[str, Any]:
    """`["ppo.learning_rate=1e-4", "n_envs=4"]` -> nested dict with YAML-typed values."""
    result: dict[str, Any] = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set expects KEY=VALUE, got {item!r}")
        node = result
        *parents, leaf = key.strip().split(".")
        for parent in parents:
            node = node.setdefault(parent, {})
        node[leaf] = yaml.safe_load(value)
    return result


def _read_yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} does not exist")
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as err:
        raise ConfigError(f"config file {str(path)!r} is not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config file {str(path)!r} must hold a mapping of settings, got {type(data).__name__}")
    return data


def merge_settings(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """`update` layered over `base`; nested mappings merge key by key."""
    merged = dict(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_settings(merged[key], value)
        else:
            merged[key] = value
    return merged
