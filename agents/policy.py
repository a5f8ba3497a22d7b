"""Trained policies at inference time: the actor network of a MaskablePPO policy, run in numpy.

Inference needs neither SB3 nor gradients: `export_policy` copies the actor's layers (and an
action-feature head, training/policies.py) out of an SB3 policy into plain arrays, and
`PolicyAgent` evaluates them with a few matrix products (batch size 1, CPU), masking illegal
actions before choosing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .base import ObservationShape

POLICY_FORMAT = 1
_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def _arrays(layers: list[Any]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    weights = [layer.weight.detach().cpu().numpy().astype(np.float32).copy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32).copy() for layer in layers]
    return weights, biases


def export_policy(policy: Any) -> dict[str, Any]:
    """The actor of an SB3 (Maskable)ActorCriticPolicy as plain float32 arrays.

    An actor with an action-feature head (training/policies.py) also exports the head: the
    observation index of each action's features and the head's two layers.
    """
    import torch.nn as nn

    head = getattr(policy.action_net, "score", None)
    output = policy.action_net.linear if head is not None else policy.action_net
    linear = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)] + [output]
    activation = policy.activation_fn.__name__.lower()
    if activation not in _ACTIVATIONS:
        raise ValueError(f"cannot export activation {activation!r}; supported: {', '.join(_ACTIVATIONS)}")
    weights, biases = _arrays(linear)
    exported = {"format": POLICY_FORMAT, "activation": activation, "weights": weights, "biases": biases}
    if head is not None:
        head_weights, head_biases = _arrays([m for m in head if isinstance(m, nn.Linear)])
        columns = policy.mlp_extractor.columns.cpu().numpy()
        exported["action_head"] = {
            "columns": np.where(columns >= weights[0].shape[1], -1, columns).astype(np.int64),
            "weights": head_weights,
            "biases": head_biases,
        }
    return exported


class PolicyAgent:
    """An agent that plays a trained policy: argmax (or a sample) of the masked action logits."""

    def __init__(
        self, policy: dict[str, Any], deterministic: bool = True, seed: int | None = None, name: str = "policy"
    ):
        self.name = name
        self.deterministic = deterministic
        self._activation = _ACTIVATIONS[policy["activation"]]
        self._layers = [
            (np.asarray(w, np.float32).T.copy(), np.asarray(b, np.float32))
            for w, b in zip(policy["weights"], policy["biases"], strict=True)
        ]
        head = policy.get("action_head")
        self._head = None
        if head is not None:
            columns = np.asarray(head["columns"], np.int64)
            layers = [
                (np.asarray(w, np.float32).T.copy(), np.asarray(b, np.float32))
                for w, b in zip(head["weights"], head["biases"], strict=True)
            ]
            self._head = (np.where(columns < 0, self.observation_size, columns), layers)
        self.rng = np.random.default_rng(seed)
        self._shape = ObservationShape(self.observation_size, self.num_actions, f"policy {name!r}")

    @property
    def observation_size(self) -> int:
        return self._layers[0][0].shape[0]

    @property
    def num_actions(self) -> int:
        return self._layers[-1][0].shape[1]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The action logits of one observation vector, or of a batch of them (one per row)."""
        hidden = observations = np.asarray(observation, np.float32)
        for weight, bias in self._layers[:-1]:
            hidden = self._activation(hidden @ weight + bias)
        weight, bias = self._layers[-1]
        logits = hidden @ weight + bias
        if self._head is not None:
            columns, ((inner, inner_bias), (outer, outer_bias)) = self._head
            padded = np.concatenate([observations, np.zeros((*observations.shape[:-1], 1), np.float32)], axis=-1)
            per_action = padded[..., columns]
            logits = logits + (np.tanh(per_action @ inner + inner_bias) @ outer + outer_bias)[..., 0]
        return logits

    def act(self, observation: dict[str, np.ndarray]) -> int:
        self._shape.check(observation)
        return int(self._choose(self.logits(observation["observation"])[None], observation["action_mask"][None])[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The actions for a batch of observation vectors and their action masks (one per row), in one pass."""
        return self._choose(self.logits(observations), masks)

    def _choose(self, logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
        legal = np.asarray(masks).astype(bool)
        if not legal.any(axis=1).all():
            raise ValueError("the action mask has no legal action")
        logits = np.where(legal, logits, -np.inf)
        if self.deterministic:
            return np.argmax(logits, axis=1)
        return np.array([self._draw(row)[0] for row in logits])

    def sample(self, observation: dict[str, np.ndarray]) -> tuple[int, float]:
        """A legal action drawn from the masked softmax of the logits, and its log-probability."""
        logits = np.where(observation["action_mask"].astype(bool), self.logits(observation["observation"]), -np.inf)
        return self._draw(logits)

    def sample_batch(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`sample` for a batch of observation vectors and masks (one per row), the logits in one pass."""
        logits = np.where(np.asarray(masks, bool), self.logits(observations), -np.inf)
        actions, log_probs = zip(*(self._draw(row) for row in logits), strict=True)
        return np.array(actions, np.int64), np.array(log_probs, np.float32)

    def _draw(self, logits: np.ndarray) -> tuple[int, float]:
        shifted = logits - logits.max()
        probabilities = np.exp(shifted)
        total = probabilities.sum()
        probabilities /= total
        action = int(self.rng.choice(len(probabilities), p=probabilities))
        return action, float(shifted[action] - np.log(total))

    def reset(self) -> None:
        pass
