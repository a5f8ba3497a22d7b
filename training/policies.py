"""An actor that also scores each action by the game's per-action observation features.

Some games put features of every action into the observation (for instance the score each
exchange would secure). A plain MLP has to learn which input belongs to which action from data, and on
few demonstrations it memorises card one-hots instead. Here each action's logit is the MLP's
logit plus a small head shared by all actions, applied to that action's own features: what a
rule of the form "take the action with the best feature" needs, learnt in a few parameters.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

HEAD_SIZE = 16


def action_feature_columns(slices: tuple[slice, ...], num_actions: int) -> list[list[int]]:
    """[action][feature] -> observation index of that feature of that action, -1 where it has none."""
    return [
        [piece.start + action if action < piece.stop - piece.start else -1 for piece in slices]
        for action in range(num_actions)
    ]


class ActionFeatureExtractor(MlpExtractor):
    """An MlpExtractor whose actor latent also carries each action's features, read from the observation."""

    columns: torch.Tensor

    def __init__(
        self, feature_dim: int, net_arch: Any, activation_fn: type[nn.Module], device: Any, columns: list[list[int]]
    ):
        super().__init__(feature_dim, net_arch, activation_fn, device)
        index = torch.as_tensor(columns, dtype=torch.long)
        self.register_buffer("columns", torch.where(index < 0, torch.full_like(index, feature_dim), index))
        self.hidden_dim_pi = self.latent_dim_pi
        self.latent_dim_pi = self.hidden_dim_pi + index.numel()

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        padded = torch.cat([features, features.new_zeros(features.shape[0], 1)], dim=1)
        per_action = padded[:, self.columns]
        return torch.cat([self.policy_net(features), per_action.flatten(1)], dim=1)


class ActionFeatureHead(nn.Module):
    """Logits: a linear layer on the MLP latent plus a shared head on each action's features."""

    def __init__(self, hidden_dim: int, num_actions: int, num_features: int):
        super().__init__()
        self.hidden_dim, self.num_actions, self.num_features = hidden_dim, num_actions, num_features
        self.linear = nn.Linear(hidden_dim, num_actions)
        self.score = nn.Sequential(nn.Linear(num_features, HEAD_SIZE), nn.Tanh(), nn.Linear(HEAD_SIZE, 1))
        nn.init.orthogonal_(self.linear.weight, gain=0.01)
        nn.init.zeros_(self.linear.bias)

    def output_layers(self) -> list[nn.Linear]:
        """The layers every logit is linear in: the MLP's logits and the shared score's last layer."""
        return [self.linear, cast(nn.Linear, self.score[-1])]

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        hidden, per_action = latent[:, : self.hidden_dim], latent[:, self.hidden_dim :]
        per_action = per_action.reshape(-1, self.num_actions, self.num_features)
        return self.linear(hidden) + self.score(per_action).squeeze(-1)


class ActionFeaturePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with an action-feature head (`action_feature_columns` gives `columns`)."""

    mlp_extractor: ActionFeatureExtractor

    def __init__(self, *args: Any, columns: list[list[int]], **kwargs: Any):
        self.columns = columns
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = ActionFeatureExtractor(
            self.features_dim, self.net_arch, self.activation_fn, self.device, self.columns
        )

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        columns = np.asarray(self.columns)
        self.action_net = ActionFeatureHead(self.mlp_extractor.hidden_dim_pi, *columns.shape)
        self.optimizer = self.optimizer_class(  # type: ignore[call-arg]  # SB3 types it as Optimizer, which takes no lr
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "columns": self.columns}
