"""Expert iteration: search guided by the network teaches the network, one generation at a time.

A generation (1) plays `expert.games` search games: the guided search (agents/guided_search.py,
the network's policy as its prior and its value head at the leaves) in one rotating seat, each
other seat the current network (sampled) or, with chance `opponents.baseline_share`, a baseline;
every search decision is recorded with its observation, mask, the search's action distribution
and the return that seat went on to receive. With `expert.teacher` (a search agent with a fixed
budget, e.g. `ismcts:iterations=80`) that agent plays the search seat instead, unguided, and the
target is its chosen action, or with `expert.teacher_temperature` above 0 the softmax of its
action values (its mean return of each action, in the game's reward units) divided by that
temperature: a way to learn from a search that beats the network while the guided one does not.
(2) Fits a copy of the network to that data (policy toward the search's distribution by
cross-entropy on the masked logits, value toward the returns by MSE), optionally followed by
`expert.ppo_steps` of self-play PPO. (3) Gates: the new network replaces the current one only if
its duplicate-deal margin over it has a 95% CI above zero.

Each game is seeded by (seed, generation, game index) and the games are merged in game order, so
a generation's data is the same whether one process, `expert.workers` spawned ones or the workers
of a Ray cluster (`SearchPlayers`, `cluster.RaySearch`) play it.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch
from cardarena.agents import load
from cardarena.agents.guided_search import GuidedSearchAgent
from cardarena.agents.policy import PolicyAgent, export_policy
from cardarena.agents.search import search_agent
from cardarena.envs import lookup, make
from cardarena.envs.core.errors import CheckpointError, ConfigError
from cardarena.envs.core.table import Table

from cardarena.files import write_text_atomically

from .config import ExpertSettings, TrainConfig
from .evaluate import (
    AgentScore,
    deal_count,
    deal_seeds,
    distinct_rotations,
    finite_or_none,
    mean_with_ci,
    play_deals,
    seat_names,
)
from .pretrain import actor_critic_outputs, sharpen
from .spawned import worker_pool
from .value_games import fit_critic_to_own_games

EXPERT_ITERATION = "expert-iteration"
SEARCH_DATA = "search_data"  # the run's search data: a generation's games while it plays them, the window's data
CANDIDATE, CURRENT = "candidate", "current"
GAMES_PER_FILE = 1000  # search games saved together while a generation plays them (`collect_search_data`)


class TorchGuide:
    """The guide protocol of agents/guided_search.py over an SB3 actor-critic policy: the masked
    softmax of its logits divided by `temperature` (as `PolicyGuide`'s), and its critic."""

    def __init__(self, policy: Any, temperature: float = 1.0):
        self.policy, self.temperature = policy, temperature

    def priors(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits, _ = self._outputs(observations)
        legal = torch.as_tensor(np.asarray(masks, bool), device=self.policy.device)
        return torch.softmax(logits.masked_fill(~legal, -torch.inf) / self.temperature, dim=1).cpu().numpy()

    def values(self, observations: np.ndarray) -> np.ndarray:
        return self._outputs(observations)[1].cpu().numpy()

    def _outputs(self, observations: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        with torch.no_grad():
            return actor_critic_outputs(self.policy, torch.as_tensor(observations, device=self.policy.device))


@dataclass
class SearchData:
    """Search decisions: observation, action mask, the search's action distribution, and the return that followed."""

    observations: np.ndarray
    masks: np.ndarray
    policies: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.returns)

    @classmethod
    def merged(cls, parts: list[SearchData]) -> SearchData:
        """The decisions of `parts`, in their order."""
        return cls(*(np.concatenate([getattr(part, field.name) for part in parts]) for field in fields(cls)))

    def save(self, path: Path) -> None:
        """Write the data to `path` (.npz), atomically."""
        path.parent.mkdir(parents=True, exist_ok=True)
        unfinished = path.with_name(f"{path.stem}.partial.npz")
        np.savez_compressed(unfinished, **{field.name: getattr(self, field.name) for field in fields(self)})
        os.replace(unfinished, path)

    @classmethod
    def load(cls, path: Path) -> SearchData:
        """The data `save` wrote to `path`; CheckpointError naming the file if it is missing or corrupt."""
        try:
            with np.load(path) as arrays:
                data = cls(*(arrays[field.name] for field in fields(cls)))
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
            raise CheckpointError(f"search data {str(path)!r} cannot be read: {error}") from None
        if len({len(getattr(data, field.name)) for field in fields(cls)}) != 1:
            raise CheckpointError(f"search data {str(path)!r} is corrupt: its arrays differ in length")
        return data


def derived_seed(*parts: Any) -> int:
    """A 63-bit seed that is a function of `parts` alone (any ints and strings)."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)


class SearchGames:
    """Plays the search games of a generation with `policy` guiding the search and in the pool."""

    def __init__(self, config: TrainConfig, policy: Any):
        self.config = config
        self.guide = TorchGuide(policy, config.expert.prior_temperature)
        self.exported = export_policy(policy)
        self.game = lookup(config.game).name

    def play(self, generation: int, index: int) -> SearchData:
        """Game `index` of `generation`: every decision of the search's seat."""
        config = self.config
        rng = random.Random(derived_seed(config.seed, generation, index))
        env_config = config.drawn_env(rng)
        env = make(config.game, **env_config)
        seats = len(env.possible_agents)
        learner = index % seats
        search = self._search(rng)
        others = {seat: self._opponent(rng) for seat in range(seats) if seat != learner}
        table = Table(env)
        table.reset(seed=rng.getrandbits(63))
        for agent in others.values():
            agent.reset()
        rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]] = []
        while (seat := table.advance(others)) is not None:
            observation = table.observe(seat)
            action, distribution = search(env, seat)
            rows.append(
                (observation["observation"], observation["action_mask"].astype(bool), distribution, table.totals[seat])
            )
            table.play(action)
        width, actions = env.encoder.observation_size, env.game.num_actions  # a seat that never acted: no rows
        return SearchData(
            np.asarray([row[0] for row in rows], np.float32).reshape(len(rows), width),
            np.asarray([row[1] for row in rows], bool).reshape(len(rows), actions),
            np.asarray([row[2] for row in rows], np.float32).reshape(len(rows), actions),
            np.asarray([table.totals[learner] - row[3] for row in rows], np.float32),
        )

    def _search(self, rng: random.Random) -> Callable[[Any, int], tuple[int, np.ndarray]]:
        """The search of one game: (action, target distribution) at a seat's decision."""
        settings = self.config.expert
        if settings.teacher is None:
            guided = GuidedSearchAgent(
                self.guide, settings.iterations, settings.c_puct, settings.temperature, seed=rng.getrandbits(63)
            )
            return guided.search
        teacher = search_agent(settings.teacher, rng.getrandbits(63), load)
        assert teacher is not None, "ExpertSettings accepts search agents only"
        teacher.load_rollout(self.game)

        def taught(env: Any, seat: int) -> tuple[int, np.ndarray]:
            action, values = teacher.search_in(env, seat)
            return action, teacher_target(action, values, env.game.num_actions, settings.teacher_temperature)

        return taught

    def _opponent(self, rng: random.Random) -> Any:
        """A baseline with chance `opponents.baseline_share`, else the current network, sampling its moves."""
        opponents = self.config.opponents
        if opponents.baselines and rng.random() < opponents.baseline_share:
            return load(rng.choice(opponents.baselines), game=self.game, seed=rng.getrandbits(63))
        return PolicyAgent(self.exported, deterministic=False, seed=rng.getrandbits(63), name=CURRENT)


def teacher_target(action: int, values: dict[int, float], num_actions: int, temperature: float) -> np.ndarray:
    """The target distribution of a teacher's decision: its move (temperature 0, or no values), else
    the softmax of its action values divided by `temperature` over the actions it valued."""
    target = np.zeros(num_actions, np.float32)
    if temperature == 0 or not values:
        target[action] = 1.0
        return target
    actions = np.fromiter(values, int, len(values))
    scaled = np.fromiter(values.values(), float, len(values)) / temperature
    weights = np.exp(scaled - scaled.max())
    target[actions] = weights / weights.sum()
    return target


class SearchPlayers(Protocol):
    """Plays search games in other processes (`cluster.RaySearch` on a Ray cluster)."""

    def play(
        self, config: TrainConfig, policy: bytes, games: list[tuple[int, int]], on_game: Callable[[int], None]
    ) -> list[SearchData]:
        """The data of each (generation, index) game of `games`, in their order, with `policy`
        (`policy_bytes`) guiding; `on_game` hears how many games are done."""
        ...


def policy_bytes(policy: Any) -> bytes:
    """`policy` saved on the CPU, for another process's `search_games`."""
    buffer = io.BytesIO()
    torch.save(copy.deepcopy(policy).to("cpu"), buffer)
    return buffer.getvalue()


def search_games(config: TrainConfig, policy: bytes) -> SearchGames:
    """The search games of another process, guided by `policy` (`policy_bytes`), with the run's torch threads."""
    torch.set_num_threads(config.torch_threads)
    return SearchGames(config, torch.load(io.BytesIO(policy), weights_only=False))


_worker_games: SearchGames | None = None  # each worker process's games, set by `_start_worker`


def _start_worker(config: TrainConfig, policy: bytes) -> None:
    global _worker_games
    _worker_games = search_games(config, policy)


def _play_in_worker(task: tuple[int, int]) -> SearchData:
    assert _worker_games is not None, "the pool's initializer sets the worker's games"
    return _worker_games.play(*task)


def collect_search_data(
    config: TrainConfig,
    policy: Any,
    generation: int,
    on_game: Callable[[int], None] | None = None,
    players: SearchPlayers | None = None,
    store: Path | None = None,
) -> SearchData:
    """The search games of `generation`, played on `players` if given, else here or in
    `expert.workers` spawned processes; merged in game order.

    With `store` (a folder), every `GAMES_PER_FILE` games are saved there as they finish, and the
    files already there, from a generation stopped midway, are read instead of played again: the
    same data either way. The folder keeps the settings its games were played with, and games
    played with other ones are refused (ConfigError)."""
    settings = config.expert
    starts = range(0, settings.games, GAMES_PER_FILE)
    parts = _stored_games(store, config, starts) if store is not None else {}
    done = sum(min(GAMES_PER_FILE, settings.games - start) for start in parts)
    missing = [start for start in starts if start not in parts]
    if missing:  # no worker is started for a generation whose games are all saved
        with _game_player(config, policy, players) as play:
            for start in missing:
                tasks = [(generation, index) for index in range(start, min(start + GAMES_PER_FILE, settings.games))]
                part = SearchData.merged(play(tasks, partial(_report_from, done, on_game)))
                if store is not None:
                    part.save(store / _games_file(start))
                parts[start], done = part, done + len(tasks)
    return SearchData.merged([parts[start] for start in starts])


@contextmanager
def _game_player(
    config: TrainConfig, policy: Any, players: SearchPlayers | None
) -> Iterator[Callable[[list[tuple[int, int]], Callable[[int], None]], list[SearchData]]]:
    """play(games, on_game): the data of each (generation, index) game, on `players`, here, or in
    `expert.workers` spawned processes started once for every call."""
    if players is not None:
        exported = policy_bytes(policy)
        yield lambda tasks, on_game: players.play(config, exported, tasks, on_game)
    elif config.expert.workers == 1:
        games = SearchGames(config, policy)
        yield lambda tasks, on_game: _gathered((games.play(*task) for task in tasks), on_game)
    else:
        with worker_pool(config.expert.workers, _start_worker, (config, policy_bytes(policy))) as pool:
            yield lambda tasks, on_game: _gathered(pool.map(_play_in_worker, tasks), on_game)


def _report_from(done_before: int, on_game: Callable[[int], None] | None, played: int) -> None:
    if on_game is not None:
        on_game(done_before + played)


def _gathered(results: Any, on_game: Callable[[int], None]) -> list[SearchData]:
    parts = []
    for part in results:
        parts.append(part)
        on_game(len(parts))
    return parts


def _games_file(start: int) -> str:
    return f"games_{start:07d}.npz"


def _search_settings(config: TrainConfig) -> dict[str, Any]:
    """What a generation's search games depend on, besides the network playing them."""
    played = config.model_dump(include={"game", "seed", "env", "env_sampling", "opponents"})
    fitting = {"epochs", "batch_size", "learning_rate", "value_weight", "holdout", "sharpening", "window"}
    later = {"ppo_steps", "value_games", "value_explore", "gate_episodes", "generations", "workers"}
    return {**played, "expert": config.expert.model_dump(exclude=fitting | later)}


def _stored_games(store: Path, config: TrainConfig, starts: range) -> dict[int, SearchData]:
    """The files of games `store` already holds, by first game; the settings recorded, or refused."""
    record, now = store / "settings.json", _search_settings(config)
    if record.is_file():
        try:
            kept = json.loads(record.read_text())
        except (OSError, ValueError) as error:
            raise CheckpointError(f"{record} cannot be read: {error}") from None
        if not isinstance(kept, dict):
            raise CheckpointError(f"{record} is not a mapping of settings")
        for key, value in now.items():
            if kept.get(key) != value:
                raise ConfigError(
                    f"{store} holds search games played with other {key} settings ({kept.get(key)!r}, not "
                    f"{value!r}): resume with the run's settings, or delete {store} to play them again"
                )
    else:
        store.mkdir(parents=True, exist_ok=True)
        write_text_atomically(record, json.dumps(now, sort_keys=True))
    return {start: SearchData.load(path) for start in starts if (path := store / _games_file(start)).is_file()}


def search_games_path(run_dir: Path, generation: int) -> Path:
    """Where a run keeps `generation`'s search games while it plays them (`collect_search_data`'s store)."""
    return Path(run_dir) / SEARCH_DATA / f"generation_{generation:04d}_games"


def search_data_path(run_dir: Path, generation: int) -> Path:
    """Where a run keeps `generation`'s search data."""
    return Path(run_dir) / SEARCH_DATA / f"generation_{generation:04d}.npz"


def fitting_window(run_dir: Path, generation: int, data: SearchData, window: int) -> SearchData:
    """`data` with the search data of the `window` - 1 generations before `generation`, oldest
    first; with a window above 1, `data` is kept in the run and data older than the window removed."""
    if window == 1:
        return data
    data.save(search_data_path(run_dir, generation))
    first = max(1, generation - window + 1)
    for old in range(1, first):
        search_data_path(run_dir, old).unlink(missing_ok=True)
    earlier = [SearchData.load(search_data_path(run_dir, kept)) for kept in range(first, generation)]
    return SearchData.merged([*earlier, data])


def fit_to_search(policy: Any, data: SearchData, settings: ExpertSettings, seed: int) -> dict[str, float]:
    """Train `policy` toward the search's distributions (cross-entropy on masked logits) and the
    returns (MSE); the losses over all the data afterwards, and how often its first choice is the search's.

    With `settings.holdout` above 0 the newest share of the decisions is not trained on, and the
    epoch whose policy loss on them is lowest is kept (the network as it came if no epoch lowers
    it). With `settings.sharpening` below 1 the logits are fitted at their scale before the
    clone's sharpening (`pretrain.sharpen`), which is applied again after the fit."""
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=settings.learning_rate)
    tensors = [torch.as_tensor(array, device=policy.device) for array in (data.observations, data.masks)]
    observations, masks = tensors
    targets = torch.as_tensor(data.policies, device=policy.device)
    returns = torch.as_tensor(data.returns, device=policy.device)
    held_out = int(len(data) * settings.holdout)
    trained = len(data) - held_out

    def losses(rows: Any) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        logits, values = actor_critic_outputs(policy, observations[rows])
        log_probs = torch.log_softmax(logits.masked_fill(~masks[rows], -1e8), dim=1)
        policy_loss = -(targets[rows] * log_probs).sum(dim=1).mean()
        return policy_loss, torch.nn.functional.mse_loss(values, returns[rows]), log_probs

    def held_out_loss() -> float:
        with torch.no_grad():
            return float(losses(slice(trained, None))[0])

    sharpen(policy, 1 / settings.sharpening)
    best = (held_out_loss(), 0, copy.deepcopy(policy.state_dict())) if held_out else None
    for epoch in range(1, settings.epochs + 1):
        policy.train()
        for batch in torch.randperm(trained, generator=generator).split(settings.batch_size):
            policy_loss, value_loss, _ = losses(batch)
            optimizer.zero_grad()
            (policy_loss + settings.value_weight * value_loss).backward()
            optimizer.step()
        policy.eval()
        if best is not None and (loss := held_out_loss()) < best[0]:
            best = (loss, epoch, copy.deepcopy(policy.state_dict()))
    figures = {}
    if best is not None:
        policy.load_state_dict(best[2])
        figures = {"held_out_policy_loss": best[0], "epochs_kept": float(best[1])}
    with torch.no_grad():
        policy_loss, value_loss, log_probs = losses(slice(None))
        agreement = (log_probs.argmax(dim=1) == targets.argmax(dim=1)).float().mean()
    sharpen(policy, settings.sharpening)
    return {
        "policy_loss": float(policy_loss),
        "value_loss": float(value_loss),
        "agreement": float(agreement),
        **figures,
    }


def gate_margin(config: TrainConfig, candidate: Any, current: Any, seed: int) -> AgentScore:
    """The candidate's mean margin a deal over the current network (their seats alternate, duplicate
    deals with rotated seats, `expert.gate_episodes` episodes) with its 95% CI."""
    env = make(config.game, **config.env)
    names = seat_names(config.game, [CANDIDATE, CURRENT], len(env.possible_agents))
    players = {
        CANDIDATE: PolicyAgent(export_policy(candidate), name=CANDIDATE),
        CURRENT: PolicyAgent(export_policy(current), name=CURRENT),
    }
    episodes = config.expert.gate_episodes
    seeds = deal_seeds(seed, deal_count(episodes, len(distinct_rotations(names))))
    means = play_deals(env, [(name, players[name]) for name in names], seeds, episodes).deal_means()
    return mean_with_ci("margin", (means[:, 0] - means[:, 1]).tolist())


def run_generation(trainer: Any, generation: int, on_progress: Callable[..., None] | None = None) -> dict[str, Any]:
    """Search, learn and gate once for `trainer` (a train.Trainer, which imports this module); the
    generation's figures (also logged to TensorBoard)."""
    config, settings, model = trainer.config, trainer.config.expert, trainer.model
    report = (lambda done: on_progress("search", done, settings.games, {})) if on_progress else None
    store = search_games_path(trainer.run_dir, generation)
    data = collect_search_data(config, model.policy, generation, report, trainer.search_players, store)
    fitted = fitting_window(trainer.run_dir, generation, data, settings.window)
    current = copy.deepcopy(model.policy)
    losses = fit_to_search(model.policy, fitted, settings, derived_seed(config.seed, generation, "fit"))
    model.num_timesteps += len(data)
    if settings.ppo_steps:
        trainer.learn(settings.ppo_steps)
    margin = gate_margin(config, model.policy, current, derived_seed(config.seed, generation, "gate"))
    accepted = bool(margin.low > 0)
    if accepted:
        trainer.pool.add_snapshot(export_policy(model.policy), trainer.steps)
        if settings.value_games:
            report = (lambda done: on_progress("value games", done, settings.value_games, {})) if on_progress else None
            seed = derived_seed(config.seed, generation, "value")
            losses |= fit_critic_to_own_games(model.policy, config, seed, report)
    else:
        model.policy.load_state_dict(current.state_dict())
    gate = {"margin": margin.mean, "ci95": finite_or_none(margin.ci95), "accepted": accepted}
    figures = {"generation": generation, "decisions": len(data), "fitted": len(fitted), **losses}
    for key, value in figures.items():
        model.logger.record(f"expert/{key}", value)
    model.logger.record("expert/gate_margin", margin.mean)
    model.logger.record("expert/gate_accepted", float(accepted))
    return {**figures, "gate": gate}
