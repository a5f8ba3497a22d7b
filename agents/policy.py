"""Trained policies at inference time: the actor and critic of a MaskablePPO policy, run in numpy.

Inference needs neither SB3 nor gradients: `export_policy` copies the actor's layers (and an
action-feature head, training/policies.py) and the critic's out of an SB3 policy into plain
arrays, and `PolicyAgent` evaluates them with a few matrix products (batch size 1, CPU), masking
illegal actions before choosing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .base import ObservationShape

POLICY_FORMAT = 1
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def _arrays(layers: list[Any]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    weights = [layer.weight.detach().cpu().numpy().astype(np.float32).copy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32).copy() for layer in layers]
    return weights, biases


def policy_layers(policy: Any) -> dict[str, list[Any]]:
    """The linear layers of an SB3 (Maskable)ActorCriticPolicy, in order: the actor's ("actor"),
    the critic's ("value") and, where the actor has one, the action-feature head's ("action_head")."""
    import torch.nn as nn

    head = getattr(policy.action_net, "score", None)
    output = policy.action_net.linear if head is not None else policy.action_net
    layers = {
        "actor": [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)] + [output],
        "value": [m for m in policy.mlp_extractor.value_net if isinstance(m, nn.Linear)] + [policy.value_net],
    }
    if head is not None:
        layers["action_head"] = [m for m in head if isinstance(m, nn.Linear)]
    return layers


def export_policy(policy: Any) -> dict[str, Any]:
    """The actor and critic of an SB3 (Maskable)ActorCriticPolicy as plain float32 arrays.

    An actor with an action-feature head (training/policies.py) also exports the head: the
    observation index of each action's features and the head's two layers.
    """
    activation = policy.activation_fn.__name__.lower()
    if activation not in ACTIVATIONS:
        raise ValueError(f"cannot export activation {activation!r}; supported: {', '.join(ACTIVATIONS)}")
    layers = policy_layers(policy)
    weights, biases = _arrays(layers["actor"])
    value_weights, value_biases = _arrays(layers["value"])
    exported = {
        "format": POLICY_FORMAT,
        "activation": activation,
        "weights": weights,
        "biases": biases,
        "value": {"weights": value_weights, "biases": value_biases},
    }
    if "action_head" in layers:
        head_weights, head_biases = _arrays(layers["action_head"])
        columns = policy.mlp_extractor.columns.cpu().numpy()
        exported["action_head"] = {
            "columns": np.where(columns >= weights[0].shape[1], -1, columns).astype(np.int64),
            "weights": head_weights,
            "biases": head_biases,
        }
    return exported


def _float32_layers(layers: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weight transposed, bias) per layer, as float32 whatever the stored precision."""
    return [
        (np.asarray(w, np.float32).T.copy(), np.asarray(b, np.float32))
        for w, b in zip(layers["weights"], layers["biases"], strict=True)
    ]


class PolicyAgent:
    """An agent that plays a trained policy: argmax (or a sample) of the masked action logits."""

    def __init__(
        self, policy: dict[str, Any], deterministic: bool = True, seed: int | None = None, name: str = "policy"
    ):
        self.name = name
        self.deterministic = deterministic
        self._activation = ACTIVATIONS[policy["activation"]]
        self._layers = _float32_layers(policy)
        self._value_layers = _float32_layers(policy["value"]) if "value" in policy else None
        head = policy.get("action_head")
        self._head = None
        if head is not None:
            columns = np.asarray(head["columns"], np.int64)
            self._head = (np.where(columns < 0, self.observation_size, columns), _float32_layers(head))
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
        observations = np.asarray(observation, np.float32)
        logits = self._forward(self._layers, observations)
        if self._head is not None:
            columns, ((inner, inner_bias), (outer, outer_bias)) = self._head
            padded = np.concatenate([observations, np.zeros((*observations.shape[:-1], 1), np.float32)], axis=-1)
            per_action = padded[..., columns]
            logits = logits + (np.tanh(per_action @ inner + inner_bias) @ outer + outer_bias)[..., 0]
        return logits

    def value(self, observation: np.ndarray) -> float | np.ndarray:
        """The critic's estimate of the acting seat's return from one observation vector (a float),
        or from a batch of them (one per row)."""
        if self._value_layers is None:
            raise ValueError(f"policy {self.name!r} has no value network (a checkpoint from before critics were saved)")
        values = self._forward(self._value_layers, np.asarray(observation, np.float32))[..., 0]
        return float(values) if values.ndim == 0 else values

    def _forward(self, layers: list[tuple[np.ndarray, np.ndarray]], hidden: np.ndarray) -> np.ndarray:
        """A chain of linear layers, the activation between them."""
        for weight, bias in layers[:-1]:
            hidden = self._activation(hidden @ weight + bias)
        weight, bias = layers[-1]
        return hidden @ weight + bias

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
