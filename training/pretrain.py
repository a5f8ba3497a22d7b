"""Behaviour cloning from a teacher agent: a warm start for self-play.

From scratch, PPO learns to pass in the bidding long before its card play is good enough to
make calling pay, and then rarely tries calling again. Cloning a rule-based teacher first
(actor: cross-entropy on the teacher's choices under the action mask; critic: the returns the
teacher's seat went on to receive) starts self-play from sensible play instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from cardarena.agents import Agent, load
from cardarena.envs import lookup
from cardarena.envs.core.table import Table, decide

from .policies import ActionFeatureHead


@dataclass
class Demonstrations:
    """Teacher decisions: observation, action mask, chosen action, and the return that followed."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def collect_demonstrations(
    game: str,
    teacher: str,
    episodes: int,
    env_config: dict | None = None,
    partners: tuple[str, ...] = ("random",),
    seed: int = 0,
    on_episode: Callable[[int], None] | None = None,
) -> Demonstrations:
    """Play `episodes` with the teacher in one rotating seat and the others drawn from teacher + partners.

    Every decision the teacher makes (in any seat it holds) is recorded with the total reward
    its seat received from that decision to the end of the episode.
    """
    entry = lookup(game)
    env = entry.env_cls(**(env_config or {}))
    rng = np.random.default_rng(seed)
    teacher_agent = load(teacher, game=entry.name, seed=seed)
    others = [teacher_agent] + [load(name, game=entry.name, seed=seed + i + 1) for i, name in enumerate(partners)]
    observations, masks, actions, returns = [], [], [], []
    table = Table(env)
    for episode in range(episodes):
        seats = len(env.possible_agents)
        seated: list[Agent] = [others[rng.integers(len(others))] for _ in range(seats)]
        seated[episode % seats] = teacher_agent
        partner_seats = {seat: agent for seat, agent in enumerate(seated) if agent is not teacher_agent}
        table.reset(seed=int(rng.integers(2**63)))
        decisions: list[tuple[int, float]] = []  # (seat, its total before the decision)
        while (seat := table.advance(partner_seats)) is not None:
            observation = table.observe(seat)
            action = decide(teacher_agent, env, seat, observation)  # a search agent teaches from the table
            decisions.append((seat, table.totals[seat]))
            observations.append(observation["observation"])
            masks.append(observation["action_mask"].astype(bool))
            actions.append(action)
            table.play(action)
        for seat, before in decisions:
            returns.append(table.totals[seat] - before)
        if on_episode is not None:
            on_episode(episode + 1)
    return Demonstrations(
        np.asarray(observations, np.float32),
        np.asarray(masks, bool),
        np.asarray(actions, np.int64),
        np.asarray(returns, np.float32),
    )


def behaviour_clone(
    policy,
    demonstrations: Demonstrations,
    epochs: int,
    batch_size: int = 512,
    learning_rate: float = 1e-3,
    seed: int = 0,
    fit: str = "head",
    temperature: float = 1.0,
) -> dict[str, float]:
    """Fit an SB3 MaskableActorCriticPolicy to the demonstrations, then divide its logits by
    `temperature` (`sharpen`); returns the final accuracy, the critic's error and the actor's mean
    entropy over the demonstrations. `fit`: what of an actor with an action-feature head is fitted
    (`_cloned_parameters`)."""
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(_cloned_parameters(policy, fit), lr=learning_rate)
    observations = torch.as_tensor(demonstrations.observations, device=policy.device)
    masks = torch.as_tensor(demonstrations.masks, device=policy.device)
    actions = torch.as_tensor(demonstrations.actions, device=policy.device)
    returns = torch.as_tensor(demonstrations.returns, device=policy.device)
    policy.train()
    for _ in range(epochs):
        for batch in torch.randperm(len(actions), generator=generator).split(batch_size):
            logits, values = actor_critic_outputs(policy, observations[batch])
            logits = logits.masked_fill(~masks[batch], -1e8)
            actor_loss = torch.nn.functional.cross_entropy(logits, actions[batch])
            critic_loss = torch.nn.functional.mse_loss(values, returns[batch])
            optimizer.zero_grad()
            (actor_loss + 0.5 * critic_loss).backward()
            optimizer.step()
    policy.eval()
    sharpen(policy, temperature)
    with torch.no_grad():
        logits, values = actor_critic_outputs(policy, observations)
        logits = logits.masked_fill(~masks, -1e8)
        return {
            "accuracy": float((logits.argmax(dim=1) == actions).float().mean()),
            "critic_mse": float(torch.nn.functional.mse_loss(values, returns)),
            "entropy": float(torch.distributions.Categorical(logits=logits).entropy().mean()),
        }


def sharpen(policy, temperature: float) -> None:
    """Divide the actor's logits by `temperature`, its first choice everywhere unchanged.

    A teacher whose choices vary with chance (a search agent samples worlds) leaves a clone with
    nearly flat logits: its first choice plays well, but sampled, as the learner's rollouts and
    the self-play pool's snapshots sample it, it plays close to random. A temperature below 1
    makes sampled play follow the first choice."""
    if temperature == 1.0:
        return
    head = policy.action_net
    last_layers = (
        head.output_layers() if isinstance(head, ActionFeatureHead) else [head]
    )  # every logit is linear in these
    with torch.no_grad():
        for layer in last_layers:
            layer.weight.div_(temperature)
            layer.bias.div_(temperature)


def _cloned_parameters(policy, fit: str) -> list[torch.nn.Parameter]:
    """What cloning fits: the whole policy, or, when the actor has an action-feature head
    (training/policies.py) and `fit` is "head", that head and the critic. Where every decision's
    actions have features, the head generalises from a few thousand demonstrations and the
    actor's MLP would memorise their cards instead, so it starts neutral and learns in self-play.
    Where some decisions have none (bets beside card sets), `fit="all"` clones them through the MLP."""
    if not isinstance(policy.action_net, ActionFeatureHead) or fit == "all":
        return list(policy.parameters())
    actor_mlp = {id(p) for p in [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.linear.parameters()]}
    return [p for p in policy.parameters() if id(p) not in actor_mlp]


def actor_critic_outputs(policy, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The action logits and the values of an SB3 actor-critic policy for a batch of observations."""
    features = policy.extract_features(observations)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(-1)
