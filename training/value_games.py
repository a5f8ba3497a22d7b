"""Value games: the network's own games, whose returns fit its critic (`expert.value_games`).

The guided search values its leaves with the network's critic, the return a seat can expect from
there when every seat plays the network. Fitted to the search games' returns alone (a few
thousand decisions a generation, every other seat a sampled opponent) the critic can say little;
the network's own games are cheap (no search) and give as many positions as wanted. Every seat
plays the network's first choice, or with chance `expert.value_explore` a move drawn from its
policy (so the positions include those a search's other moves lead to). At each decision one
seat, drawn at random, gives a position: its observation and the return it received from there to
the end of the episode. The games are played and fitted in chunks of `CHUNK_GAMES`, each chunk's
positions seen once (Adam at `expert.learning_rate`, batches of `expert.batch_size`), so memory
stays bounded however many games are asked for and no position is fitted twice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from cardarena.agents.policy import PolicyAgent, export_policy, policy_layers
from cardarena.envs import make
from cardarena.envs.core.table import Table

from .config import TrainConfig
from .pretrain import actor_critic_outputs

CHUNK_GAMES = 500
CRITIC = "critic"  # the training mode that refits a start's critic alone (training/train.py)


def play_value_game(config: TrainConfig, agent: PolicyAgent, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """One game of `agent` in every seat at a table size drawn as the run draws them: the
    observations of the positions it gives and the return from each (see the module docstring)."""
    env_config = config.drawn_env(rng)
    env = make(config.game, **env_config)
    table = Table(env)
    table.reset(seed=rng.getrandbits(63))
    seats = len(env.possible_agents)
    positions: list[tuple[int, np.ndarray, float]] = []
    while (seat := table.advance({})) is not None:
        sampled = rng.randrange(seats)
        positions.append((sampled, table.observe(sampled)["observation"], table.totals[sampled]))
        table.play(_move(agent, table.observe(seat), rng, config.expert.value_explore))
    width = env.encoder.observation_size  # a game without decisions: no positions
    observations = np.asarray([row[1] for row in positions], np.float32).reshape(len(positions), width)
    returns = np.asarray([table.totals[sampled] - so_far for sampled, _, so_far in positions], np.float32)
    return observations, returns


def _move(agent: PolicyAgent, observation: dict[str, np.ndarray], rng: random.Random, explore: float) -> int:
    logits = np.where(observation["action_mask"].astype(bool), agent.logits(observation["observation"]), -np.inf)
    if rng.random() >= explore:
        return int(np.argmax(logits))
    weights = np.exp(logits - logits.max())
    return rng.choices(range(len(weights)), weights=weights.tolist())[0]


def fit_critic_to_own_games(
    policy: Any, config: TrainConfig, seed: int, on_game: Callable[[int], None] | None = None
) -> dict[str, float]:
    """Fit `policy`'s critic (an SB3 actor-critic policy; the actor is left as it is) to
    `expert.value_games` games of its own (see the module docstring). Returns the positions fitted
    and the critic's mean squared error on the first and on the last chunk before fitting it,
    which it had not seen: how well it predicted returns before and after."""
    settings = config.expert
    agent = PolicyAgent(export_policy(policy))
    rng = random.Random(seed)
    generator = torch.Generator().manual_seed(seed)
    critic = [parameter for layer in policy_layers(policy)["value"] for parameter in layer.parameters()]
    optimizer = torch.optim.Adam(critic, lr=settings.learning_rate)
    errors, positions, played = [], 0, 0
    while played < settings.value_games:
        chunk = min(CHUNK_GAMES, settings.value_games - played)
        games = [play_value_game(config, agent, rng) for _ in range(chunk)]
        played += chunk
        if on_game is not None:
            on_game(played)
        observations = torch.as_tensor(np.concatenate([game[0] for game in games]), device=policy.device)
        returns = torch.as_tensor(np.concatenate([game[1] for game in games]), device=policy.device)
        errors.append(_critic_error(policy, observations, returns))
        positions += len(returns)
        policy.train()
        for batch in torch.randperm(len(returns), generator=generator).split(settings.batch_size):
            loss = torch.nn.functional.mse_loss(_values(policy, observations[batch]), returns[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        policy.eval()
    return {"value_positions": float(positions), "value_error_first": errors[0], "value_error_last": errors[-1]}


def _values(policy: Any, observations: torch.Tensor) -> torch.Tensor:
    return actor_critic_outputs(policy, observations)[1]


def _critic_error(policy: Any, observations: torch.Tensor, returns: torch.Tensor) -> float:
    with torch.no_grad():
        return float(torch.nn.functional.mse_loss(_values(policy, observations), returns))
