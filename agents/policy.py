"""Trained policies at inference time: the actor network of a MaskablePPO policy, run in numpy.

Inference needs neither SB3 nor gradients: `export_policy` copies the actor's layers out of an
SB3 policy into plain arrays, and `PolicyAgent` evaluates them with a few matrix products
(batch size 1, CPU), masking illegal actions before choosing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

POLICY_FORMAT = 1
_ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def export_policy(policy: Any) -> dict[str, Any]:
    """The actor of an SB3 (Maskable)ActorCriticPolicy as plain float32 arrays."""
    import torch.nn as nn

    linear = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)] + [policy.action_net]
    activation = policy.activation_fn.__name__.lower()
    if activation not in _ACTIVATIONS:
        raise ValueError(f"cannot export activation {activation!r}; supported: {', '.join(_ACTIVATIONS)}")
    return {
        "format": POLICY_FORMAT,
        "activation": activation,
        "weights": [layer.weight.detach().cpu().numpy().astype(np.float32).copy() for layer in linear],
        "biases": [layer.bias.detach().cpu().numpy().astype(np.float32).copy() for layer in linear],
    }


class PolicyAgent:
    """An agent that plays a trained policy: argmax (or a sample) of the masked action logits."""

    def __init__(self, policy: dict[str, Any], deterministic: bool = True, seed: int | None = None, name: str = "policy"):
        self.name = name
        self.deterministic = deterministic
        self._activation = _ACTIVATIONS[policy["activation"]]
        self._layers = [(np.asarray(w, np.float32).T.copy(), np.asarray(b, np.float32)) for w, b in zip(policy["weights"], policy["biases"])]
        self.rng = np.random.default_rng(seed)

    @property
    def observation_size(self) -> int:
        return self._layers[0][0].shape[0]

    @property
    def num_actions(self) -> int:
        return self._layers[-1][0].shape[1]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        hidden = np.asarray(observation, np.float32)
        for weight, bias in self._layers[:-1]:
            hidden = self._activation(hidden @ weight + bias)
        weight, bias = self._layers[-1]
        return hidden @ weight + bias

    def act(self, observation: dict[str, np.ndarray]) -> int:
        logits = self.logits(observation["observation"])
        legal = observation["action_mask"].astype(bool)
        if not legal.any():
            raise ValueError("the action mask has no legal action")
        logits = np.where(legal, logits, -np.inf)
        if self.deterministic:
            return int(np.argmax(logits))
        probabilities = np.exp(logits - logits.max())
        probabilities /= probabilities.sum()
        return int(self.rng.choice(len(probabilities), p=probabilities))

    def reset(self) -> None:
        pass
