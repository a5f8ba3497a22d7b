"""Reading checkpoints: a checkpoint folder's card, checked against the installed game and every
file's sha256, and the policy agent it holds.

Layout of a checkpoint folder:

    model.zip    the MaskablePPO model (`model.save`), for resuming training
    policy.pt    the actor as plain tensors (`torch.load(..., weights_only=True)`), for inference
    <extra>      files the trainer adds, e.g. its resume state
    card.json    game, env version, observation and action shapes, policy shape, config, steps,
                 evaluation results, creation time, and the sha256 of every other file

Any problem is a `CheckpointError` naming the folder and the reason. Inference
(`load_policy_agent`) needs torch only to read `policy.pt`: it never imports stable-baselines3.
Training writes checkpoints (`cardarena.training.checkpoint`).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
from cardarena.envs import registered
from cardarena.envs.core.errors import CheckpointError

from .policy import POLICY_FORMAT, PolicyAgent

CARD_FORMAT = 1
CARD_FILE = "card.json"
MODEL_FILE = "model.zip"
POLICY_FILE = "policy.pt"
_CARD_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "env_id": str,
    "env_version": int,
    "observation_shape": list,
    "num_actions": int,
    "files": dict,
}


def read_card(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The parsed `card.json` of a checkpoint folder, with its required fields checked (not its files)."""
    folder = Path(directory)
    if not folder.exists():
        raise CheckpointError(f"{folder}: no such checkpoint folder")
    if not folder.is_dir():
        raise CheckpointError(f"{folder}: not a checkpoint folder but a file; give the folder that holds {CARD_FILE}")
    card_path = folder / CARD_FILE
    if not card_path.is_file():
        raise CheckpointError(f"{folder}: not a checkpoint folder: {CARD_FILE} is missing")
    try:
        card = json.loads(card_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CheckpointError(f"{folder}: {CARD_FILE} is not valid JSON ({error})") from None
    if not isinstance(card, dict):
        raise CheckpointError(f"{folder}: {CARD_FILE} must hold a JSON object, not {type(card).__name__}")
    if card.get("format") != CARD_FORMAT:
        raise CheckpointError(
            f"{folder}: card format {card.get('format')!r} is not one this cardarena reads (format {CARD_FORMAT})"
        )
    for key, kind in _CARD_FIELDS.items():
        if key not in card:
            raise CheckpointError(f"{folder}: {CARD_FILE} lacks the field {key!r}")
        if not isinstance(card[key], kind) or isinstance(card[key], bool):
            raise CheckpointError(f"{folder}: {CARD_FILE} field {key!r} has a bad value {card[key]!r}")
    return card


def verify_checkpoint(directory: str | os.PathLike[str], game: str | None = None) -> dict[str, Any]:
    """The card of a checkpoint after checking it against the installed game and every file's
    sha256 (and, given `game`, that the checkpoint plays it)."""
    folder = Path(directory)
    card = read_card(folder)
    if game is not None and card["game"] != game:
        raise CheckpointError(f"{folder}: this checkpoint plays {card['game']!r}, not {game!r}")
    _check_environment(folder, card)
    for name, digest in card["files"].items():
        if not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\\" in name or name == CARD_FILE:
            raise CheckpointError(f"{folder}: {CARD_FILE} lists a bad file name {name!r}")
        file = folder / name
        if not file.is_file():
            raise CheckpointError(f"{folder}: missing file {name} (listed in {CARD_FILE})")
        if sha256_of(file) != digest:
            raise CheckpointError(
                f"{folder}: sha256 mismatch in {name}: "
                "the file is corrupt or was modified after the checkpoint was written"
            )
    return card


def load_policy_agent(
    directory: str | os.PathLike[str], deterministic: bool = True, seed: int | None = None, name: str | None = None
) -> PolicyAgent:
    """A `PolicyAgent` playing the checkpoint's policy (numpy inference; torch only reads the file).

    `name` defaults to the folder's name.
    """
    import torch

    folder = Path(directory)
    card = verify_checkpoint(folder)
    policy_path = listed_file(folder, card, POLICY_FILE)
    try:
        saved = torch.load(policy_path, map_location="cpu", weights_only=True)
    except Exception as error:
        raise CheckpointError(f"{folder}: {POLICY_FILE} cannot be read, the file is corrupt ({error})") from None
    policy = _policy_arrays(folder, saved)
    check_policy_fits(policy, card["observation_shape"][0], card["num_actions"], folder)
    try:
        return PolicyAgent(policy, deterministic=deterministic, seed=seed, name=name or folder.name)
    except KeyError:
        raise CheckpointError(f"{folder}: {POLICY_FILE} has an unknown activation {policy['activation']!r}") from None


def _check_environment(folder: Path, card: dict[str, Any]) -> None:
    """The card's env_id is installed, agrees with its game and version, and has the card's shapes."""
    env_id = card["env_id"]
    installed = {entry.env_id: entry for entry in registered()}
    entry = installed.get(env_id)
    if entry is None:
        game = env_id.rsplit("_v", 1)[0]
        versions = [known for known, other in installed.items() if other.name == game]
        if versions:
            raise CheckpointError(
                f"{folder}: card says {env_id} but the installed game is {', '.join(versions)}; "
                f"this checkpoint needs the cardarena version it was trained with"
            )
        raise CheckpointError(f"{folder}: unknown game {game!r} ({env_id}); installed games: {', '.join(installed)}")
    if (card["game"], card["env_version"]) != (entry.name, entry.version):
        raise CheckpointError(
            f"{folder}: {CARD_FILE} contradicts itself: "
            f"env_id {env_id} but game {card['game']!r} version {card['env_version']}"
        )
    observation_shape = [entry.env_cls.encoder_cls.observation_size]
    if card["observation_shape"] != observation_shape:
        raise CheckpointError(
            f"{folder}: observation shape mismatch: card says {card['observation_shape']}, "
            f"installed {env_id} gives {observation_shape}"
        )
    num_actions = entry.env_cls.game_cls.num_actions
    if card["num_actions"] != num_actions:
        raise CheckpointError(
            f"{folder}: action count mismatch: card says {card['num_actions']}, installed {env_id} has {num_actions}"
        )


def listed_file(folder: Path, card: dict[str, Any], name: str) -> Path:
    """The path of the checkpoint's file `name`, which its card must list."""
    if name not in card["files"]:
        raise CheckpointError(f"{folder}: {CARD_FILE} lists no {name}, so this checkpoint has none")
    return folder / name


def _policy_arrays(folder: Path, saved: Any) -> dict[str, Any]:
    """The tensors of policy.pt as float32 numpy arrays, checked to form a chain of linear layers."""
    import torch

    problem = f"{folder}: {POLICY_FILE} does not hold a policy"
    if not isinstance(saved, dict) or not {"format", "activation", "weights", "biases"} <= set(saved):
        raise CheckpointError(f"{problem} (expected format, activation, weights, biases)")
    if saved["format"] != POLICY_FORMAT:
        raise CheckpointError(f"{folder}: {POLICY_FILE} format {saved['format']!r} is not {POLICY_FORMAT}")
    weights, biases = saved["weights"], saved["biases"]
    layers = list(zip(weights, biases, strict=False)) if isinstance(weights, list) and isinstance(biases, list) else []
    if not layers or len(weights) != len(biases):
        raise CheckpointError(f"{problem} (weights and biases must be lists of equal, non-zero length)")
    width = None
    for weight, bias in layers:
        if not (isinstance(weight, torch.Tensor) and isinstance(bias, torch.Tensor)):
            raise CheckpointError(f"{problem} (a layer is not made of tensors)")
        if weight.ndim != 2 or bias.shape != (weight.shape[0],) or (width is not None and weight.shape[1] != width):
            raise CheckpointError(
                f"{problem} (layer shapes {tuple(weight.shape)} and {tuple(bias.shape)} do not chain)"
            )
        width = weight.shape[0]
    policy = {
        "format": saved["format"],
        "activation": saved["activation"],
        "weights": [weight.detach().float().numpy() for weight in weights],
        "biases": [bias.detach().float().numpy() for bias in biases],
    }
    if "action_head" in saved:
        policy["action_head"] = _action_head_arrays(
            problem, saved["action_head"], weights[-1].shape[0], weights[0].shape[1]
        )
    return policy


def _action_head_arrays(problem: str, head: Any, num_actions: int, observation_size: int) -> dict[str, Any]:
    """An action-feature head: columns [action][feature] into the observation, then two layers to one score."""
    import torch

    ok = (
        isinstance(head, dict)
        and isinstance(head.get("columns"), torch.Tensor)
        and isinstance(head.get("weights"), list)
    )
    ok = ok and isinstance(head.get("biases"), list) and len(head["weights"]) == len(head["biases"]) == 2
    ok = ok and all(isinstance(t, torch.Tensor) for t in [*head["weights"], *head["biases"]])
    if ok:
        columns, (inner, outer), (inner_bias, outer_bias) = head["columns"], head["weights"], head["biases"]
        ok = columns.ndim == 2 and columns.shape[0] == num_actions and int(columns.max()) < observation_size
        ok = ok and inner.shape == (inner_bias.shape[0], columns.shape[1]) and outer.shape == (1, inner.shape[0])
        ok = ok and outer_bias.shape == (1,)
    if not ok:
        raise CheckpointError(f"{problem} (its action_head is not columns plus two chained layers)")
    return {
        "columns": head["columns"].numpy().astype(np.int64),
        "weights": [weight.detach().float().numpy() for weight in head["weights"]],
        "biases": [bias.detach().float().numpy() for bias in head["biases"]],
    }


def check_policy_fits(
    policy: dict[str, Any], observation_size: int, num_actions: int, folder: Path | None = None
) -> None:
    """The policy's input and output sizes are the game's (ValueError while writing, CheckpointError for `folder`)."""
    sizes = (policy["weights"][0].shape[1], policy["weights"][-1].shape[0])
    if sizes != (observation_size, num_actions):
        message = (
            f"the policy maps {sizes[0]} observation values to {sizes[1]} actions, "
            f"the game has {observation_size} and {num_actions}"
        )
        if folder is None:
            raise ValueError(f"cannot write a checkpoint: {message}")
        raise CheckpointError(f"{folder}: {POLICY_FILE} does not fit the game: {message}")


def sha256_of(path: Path) -> str:
    """The file's sha256, as a card lists it."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
