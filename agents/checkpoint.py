"""Reading checkpoints: a checkpoint folder's card, checked against the installed game and every
file's sha256, and the policy agent it holds.

Layout of a checkpoint folder:

    policy.npz   the actor, its action-feature head if any, and the critic as plain numpy arrays
                 (float32, or float16 in a shipped bot), for inference and to start training from
    model.zip    the MaskablePPO model (`model.save`) with its optimizer state, to resume training;
                 training's run checkpoints have it, shipped bots do not
    <extra>      files the trainer adds, e.g. its resume state
    card.json    game, env version, observation and action shapes, policy shape, config, steps,
                 evaluation results, creation time, and the sha256 of every other file

Checkpoints written before policy.npz hold `policy.pt` (the actor as torch tensors) instead, and
model.zip: they still load, reading policy.pt with torch. Any problem is a `CheckpointError`
naming the folder and the reason. Inference (`load_policy_agent`) needs numpy only for policy.npz
and never imports stable-baselines3. Training writes checkpoints (`cardarena.training.checkpoint`).
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

from .policy import ACTIVATIONS, POLICY_FORMAT, PolicyAgent

CARD_FORMAT = 1
CARD_FILE = "card.json"
MODEL_FILE = "model.zip"
POLICY_FILE = "policy.npz"
LEGACY_POLICY_FILE = "policy.pt"
PRECISIONS = ("float32", "float16")
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
    """A `PolicyAgent` playing the checkpoint's policy (numpy inference).

    `name` defaults to the folder's name.
    """
    folder = Path(directory)
    card = verify_checkpoint(folder)
    policy = read_policy(folder, card)
    check_policy_fits(policy, card["observation_shape"][0], card["num_actions"], folder)
    return PolicyAgent(policy, deterministic=deterministic, seed=seed, name=name or folder.name)


def read_policy(folder: Path, card: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint's policy as arrays (`export_policy`'s form), from policy.npz or, in a checkpoint
    written before it, from policy.pt (the actor alone, read with torch)."""
    if POLICY_FILE not in card["files"] and LEGACY_POLICY_FILE in card["files"]:
        return _checked_policy(folder, LEGACY_POLICY_FILE, _read_legacy_policy(folder, card))
    path = listed_file(folder, card, POLICY_FILE)
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {key: stored[key] for key in stored.files}
    except Exception as error:
        raise CheckpointError(f"{folder}: {POLICY_FILE} cannot be read, the file is corrupt ({error})") from None
    return _checked_policy(folder, POLICY_FILE, _policy_from_arrays(folder, arrays))


def policy_arrays(policy: dict[str, Any], precision: str = "float32") -> dict[str, np.ndarray]:
    """The flat name -> array form of a policy that policy.npz stores, its layers in `precision`."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}; choose one of {', '.join(PRECISIONS)}")
    arrays = {"format": np.array(policy["format"]), "activation": np.array(policy["activation"])}
    for part, layers in _parts(policy).items():
        for index, (weight, bias) in enumerate(zip(layers["weights"], layers["biases"], strict=True)):
            arrays[f"{part}.weight.{index}"] = np.asarray(weight).astype(precision)
            arrays[f"{part}.bias.{index}"] = np.asarray(bias).astype(precision)
    if "action_head" in policy:
        arrays["action_head.columns"] = np.asarray(policy["action_head"]["columns"], np.int64)
    return arrays


def _parts(policy: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The policy's chains of layers by name: the actor, and the critic and action-feature head where present."""
    parts = {"actor": policy}
    parts.update({part: policy[part] for part in ("value", "action_head") if part in policy})
    return parts


def _policy_from_arrays(folder: Path, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """`policy_arrays` undone: the nested policy, every layer as float32."""
    problem = f"{folder}: {POLICY_FILE} does not hold a policy"
    if not {"format", "activation", "actor.weight.0"} <= set(arrays):
        raise CheckpointError(f"{problem} (expected format, activation and actor layers)")
    policy: dict[str, Any] = {"format": arrays["format"].item(), "activation": str(arrays["activation"])}
    for part in ("actor", "value", "action_head"):
        count = sum(1 for key in arrays if key.startswith(f"{part}.weight."))
        if not count:
            continue
        try:
            layers = {
                plural: [arrays[f"{part}.{kind}.{index}"].astype(np.float32) for index in range(count)]
                for kind, plural in (("weight", "weights"), ("bias", "biases"))
            }
        except KeyError as missing:
            raise CheckpointError(f"{problem} (it lacks {missing})") from None
        if part == "actor":
            policy.update(layers)
        else:
            policy[part] = layers
    if "action_head" in policy:
        if "action_head.columns" not in arrays:
            raise CheckpointError(f"{problem} (its action_head has no columns)")
        policy["action_head"]["columns"] = arrays["action_head.columns"].astype(np.int64)
    return policy


def _read_legacy_policy(folder: Path, card: dict[str, Any]) -> Any:
    """The contents of policy.pt, with its tensors as numpy arrays."""
    import torch

    try:
        saved = torch.load(listed_file(folder, card, LEGACY_POLICY_FILE), map_location="cpu", weights_only=True)
    except Exception as error:
        raise CheckpointError(f"{folder}: {LEGACY_POLICY_FILE} cannot be read, the file is corrupt ({error})") from None
    return _as_numpy(saved)


def _as_numpy(saved: Any) -> Any:
    """Every tensor in nested dicts and lists as a numpy array (float32, or int64 for indices)."""
    import torch

    if isinstance(saved, dict):
        return {key: _as_numpy(value) for key, value in saved.items()}
    if isinstance(saved, list):
        return [_as_numpy(value) for value in saved]
    if isinstance(saved, torch.Tensor):
        return saved.detach().numpy().astype(np.int64 if not saved.is_floating_point() else np.float32)
    return saved


def _checked_policy(folder: Path, file: str, saved: Any) -> dict[str, Any]:
    """The policy, checked to be chains of linear layers of a known activation and format."""
    problem = f"{folder}: {file} does not hold a policy"
    if not isinstance(saved, dict) or not {"format", "activation", "weights", "biases"} <= set(saved):
        raise CheckpointError(f"{problem} (expected format, activation, weights, biases)")
    if saved["format"] != POLICY_FORMAT:
        raise CheckpointError(f"{folder}: {file} format {saved['format']!r} is not {POLICY_FORMAT}")
    if saved["activation"] not in ACTIVATIONS:
        raise CheckpointError(f"{folder}: {file} has an unknown activation {saved['activation']!r}")
    _check_chain(problem, saved)
    if "value" in saved:
        _check_chain(problem, saved["value"])
        if saved["value"]["weights"][0].shape[1] != saved["weights"][0].shape[1] or saved["value"]["biases"][
            -1
        ].shape != (1,):
            raise CheckpointError(f"{problem} (its value network does not map the observation to one value)")
    if "action_head" in saved:
        _check_action_head(problem, saved["action_head"], saved["weights"][-1].shape[0], saved["weights"][0].shape[1])
    return saved


def _check_chain(problem: str, layers: Any) -> None:
    weights, biases = (layers.get("weights"), layers.get("biases")) if isinstance(layers, dict) else (None, None)
    if not (isinstance(weights, list) and isinstance(biases, list)) or not weights or len(weights) != len(biases):
        raise CheckpointError(f"{problem} (weights and biases must be lists of equal, non-zero length)")
    width = None
    for weight, bias in zip(weights, biases, strict=True):
        if not (isinstance(weight, np.ndarray) and isinstance(bias, np.ndarray)):
            raise CheckpointError(f"{problem} (a layer is not made of arrays)")
        if weight.ndim != 2 or bias.shape != (weight.shape[0],) or (width is not None and weight.shape[1] != width):
            raise CheckpointError(f"{problem} (layer shapes {weight.shape} and {bias.shape} do not chain)")
        width = weight.shape[0]


def _check_action_head(problem: str, head: Any, num_actions: int, observation_size: int) -> None:
    """An action-feature head: columns [action][feature] into the observation, then two layers to one score."""
    ok = isinstance(head, dict) and isinstance(head.get("columns"), np.ndarray)
    ok = ok and isinstance(head.get("weights"), list) and isinstance(head.get("biases"), list)
    ok = ok and len(head["weights"]) == len(head["biases"]) == 2
    ok = ok and all(isinstance(array, np.ndarray) for array in [*head["weights"], *head["biases"]])
    if ok:
        columns, (inner, outer), (inner_bias, outer_bias) = head["columns"], head["weights"], head["biases"]
        ok = columns.ndim == 2 and columns.shape[0] == num_actions and int(columns.max()) < observation_size
        ok = ok and inner.shape == (inner_bias.shape[0], columns.shape[1]) and outer.shape == (1, inner.shape[0])
        ok = ok and outer_bias.shape == (1,)
    if not ok:
        raise CheckpointError(f"{problem} (its action_head is not columns plus two chained layers)")


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
        raise CheckpointError(f"{folder}: its policy does not fit the game: {message}")


def sha256_of(path: Path) -> str:
    """The file's sha256, as a card lists it."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
