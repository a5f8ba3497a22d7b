"""Checkpoints: a folder holding the SB3 model, the exported policy and `card.json`, written atomically.

Layout of a checkpoint folder:

    model.zip    the MaskablePPO model (`model.save`), for resuming training
    policy.pt    the actor as plain tensors (`torch.load(..., weights_only=True)`), for inference
    <extra>      files the trainer adds, e.g. its resume state
    card.json    game, env version, observation and action shapes, policy shape, config, steps,
                 evaluation results, creation time, and the sha256 of every other file

Reading a checkpoint checks the card against the installed environment and every file against
its sha256; any problem is a `CheckpointError` naming the folder and the reason. Inference
(`load_policy_agent`) needs torch only to read `policy.pt`: it never imports stable-baselines3.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from cardarena.agents.policy import POLICY_FORMAT, PolicyAgent, export_policy
from cardarena.envs import lookup, registered
from cardarena.envs.core.errors import CheckpointError

from cardarena import __version__

CARD_FORMAT = 1
CARD_FILE = "card.json"
MODEL_FILE = "model.zip"
POLICY_FILE = "policy.pt"
_RESERVED = {CARD_FILE, MODEL_FILE, POLICY_FILE}
_CARD_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "env_id": str,
    "env_version": int,
    "observation_shape": list,
    "num_actions": int,
    "files": dict,
}


def write_checkpoint(
    directory: str | os.PathLike[str],
    model: Any,
    *,
    env_id: str,
    config: dict[str, Any],
    steps: int,
    evaluation: dict[str, Any] | None = None,
    extra: dict[str, bytes] | None = None,
) -> Path:
    """Write `model` (a MaskablePPO) as the checkpoint folder `directory`, atomically; returns its path.

    The folder is built beside its final place and renamed in, replacing an existing checkpoint
    there: a crash at any moment leaves the old complete folder or the new complete one.
    `extra` maps plain file names to contents (the trainer's resume state); they are hashed
    into the card like the model. `env_id` may name the game alone (its name alone means its newest version).
    """
    import torch

    final = Path(directory)
    entry = lookup(env_id)
    policy = export_policy(model.policy)
    _check_policy_fits(policy, entry.env_cls.encoder_cls.observation_size, entry.env_cls.game_cls.num_actions)
    extra = dict(extra or {})
    for name in extra:
        _check_extra_name(name)
    _refuse_to_replace_other_folders(final)

    final.parent.mkdir(parents=True, exist_ok=True)
    _remove_dead_temporaries(final)
    building = _temporary(final, "tmp")
    building.mkdir()
    try:
        model.save(building / MODEL_FILE)
        tensors = {**policy, **_as_tensors(policy)}
        if "action_head" in policy:
            tensors["action_head"] = {
                "columns": torch.from_numpy(policy["action_head"]["columns"]),
                **_as_tensors(policy["action_head"]),
            }
        torch.save(tensors, building / POLICY_FILE)
        for name, content in extra.items():
            (building / name).write_bytes(content)
        card = {
            "format": CARD_FORMAT,
            "game": entry.name,
            "env_id": entry.env_id,
            "env_version": entry.version,
            "observation_shape": [entry.env_cls.encoder_cls.observation_size],
            "num_actions": entry.env_cls.game_cls.num_actions,
            "policy": {
                "hidden": [int(w.shape[0]) for w in policy["weights"][:-1]],
                "activation": policy["activation"],
                "action_features": int(policy["action_head"]["columns"].shape[1]) if "action_head" in policy else 0,
            },
            "config": config,
            "steps": int(steps),
            "evaluation": evaluation or {},
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "cardarena_version": __version__,
            "files": {file.name: _sha256(file) for file in sorted(building.iterdir())},
        }
        (building / CARD_FILE).write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
        for file in building.iterdir():
            _fsync(file)
        _fsync(building)
        _move_into_place(building, final)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return final


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
        if _sha256(file) != digest:
            raise CheckpointError(
                f"{folder}: sha256 mismatch in {name}: the file is corrupt or was modified after the checkpoint was written"
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
    policy_path = _listed_file(folder, card, POLICY_FILE)
    try:
        saved = torch.load(policy_path, map_location="cpu", weights_only=True)
    except Exception as error:
        raise CheckpointError(f"{folder}: {POLICY_FILE} cannot be read, the file is corrupt ({error})") from None
    policy = _policy_arrays(folder, saved)
    _check_policy_fits(policy, card["observation_shape"][0], card["num_actions"], folder)
    try:
        return PolicyAgent(policy, deterministic=deterministic, seed=seed, name=name or folder.name)
    except KeyError:
        raise CheckpointError(f"{folder}: {POLICY_FILE} has an unknown activation {policy['activation']!r}") from None


def load_model(directory: str | os.PathLike[str], env: Any = None, device: str = "cpu", model_cls: Any = None) -> Any:
    """The checkpoint's model (to resume training) as a `model_cls` (default MaskablePPO), after verifying the checkpoint."""
    from sb3_contrib import MaskablePPO

    folder = Path(directory)
    card = verify_checkpoint(folder)
    model_path = _listed_file(folder, card, MODEL_FILE)
    try:
        return (model_cls or MaskablePPO).load(model_path, env=env, device=device)
    except Exception as error:
        raise CheckpointError(f"{folder}: {MODEL_FILE} cannot be loaded ({type(error).__name__}: {error})") from None


def load_weights(policy: Any, directory: str | os.PathLike[str], game: str) -> None:
    """Copy the actor and critic of the checkpoint in `directory` (a `game` checkpoint) into the SB3
    `policy`, which must have the same shape (its config's `ppo.net_arch` and `ppo.activation`)."""
    from stable_baselines3.common.save_util import load_from_zip_file

    folder = Path(directory)
    card = verify_checkpoint(folder, game)
    try:
        _data, params, _variables = load_from_zip_file(_listed_file(folder, card, MODEL_FILE), device=policy.device)
        policy.load_state_dict(params["policy"])
    except (RuntimeError, KeyError, ValueError) as error:
        ppo = card.get("config", {}).get("ppo", {})
        shape = (
            f"net_arch {ppo.get('net_arch')}, activation {ppo.get('activation')}"
            if ppo
            else "its shape is not on its card"
        )
        raise CheckpointError(
            f"{folder}: its network does not fit this run's (the checkpoint's {shape}; set ppo.net_arch and "
            f"ppo.activation to match): {str(error).splitlines()[0]}"
        ) from None


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
            f"{folder}: {CARD_FILE} contradicts itself: env_id {env_id} but game {card['game']!r} version {card['env_version']}"
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


def _listed_file(folder: Path, card: dict[str, Any], name: str) -> Path:
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
    layers = list(zip(weights, biases)) if isinstance(weights, list) and isinstance(biases, list) else []
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


def _as_tensors(layers: dict[str, Any]) -> dict[str, Any]:
    import torch

    return {
        "weights": [torch.from_numpy(weight) for weight in layers["weights"]],
        "biases": [torch.from_numpy(bias) for bias in layers["biases"]],
    }


def _check_policy_fits(
    policy: dict[str, Any], observation_size: int, num_actions: int, folder: Path | None = None
) -> None:
    sizes = (policy["weights"][0].shape[1], policy["weights"][-1].shape[0])
    if sizes != (observation_size, num_actions):
        message = (
            f"the policy maps {sizes[0]} observation values to {sizes[1]} actions, "
            f"the game has {observation_size} and {num_actions}"
        )
        if folder is None:
            raise ValueError(f"cannot write a checkpoint: {message}")
        raise CheckpointError(f"{folder}: {POLICY_FILE} does not fit the game: {message}")


def _check_extra_name(name: str) -> None:
    if name in _RESERVED or name.startswith(".") or "/" in name or "\\" in name or not name:
        raise ValueError(
            f"extra checkpoint file {name!r}: use a plain file name other than {', '.join(sorted(_RESERVED))}"
        )


def _refuse_to_replace_other_folders(final: Path) -> None:
    """Only a checkpoint (or an empty folder) may be replaced: never someone's data by a typo."""
    if final.exists() and not final.is_dir():
        raise CheckpointError(f"{final}: exists and is a file; refusing to replace it with a checkpoint folder")
    if final.is_dir() and not (final / CARD_FILE).is_file() and any(final.iterdir()):
        raise CheckpointError(
            f"{final}: exists and is not a checkpoint folder (no {CARD_FILE}); refusing to replace it"
        )


def _temporary(final: Path, kind: str) -> Path:
    return final.parent / f".{final.name}.{kind}-{os.getpid()}"


def _remove_dead_temporaries(final: Path) -> None:
    """Delete half-built folders left by writers of this checkpoint that were killed."""
    for kind in ("tmp", "old"):
        for stale in final.parent.glob(f".{_glob_escape(final.name)}.{kind}-*"):
            pid = stale.name.rsplit("-", 1)[1]
            if pid.isdigit() and not _alive(int(pid)) and not (kind == "old" and not final.exists()):
                shutil.rmtree(stale, ignore_errors=True)


def _glob_escape(name: str) -> str:
    return "".join(f"[{char}]" if char in "*?[" else char for char in name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _move_into_place(building: Path, final: Path) -> None:
    """Rename the finished folder to its final name, atomically swapping out an existing one.

    Where the swap is unsupported (not Linux, or a filesystem without RENAME_EXCHANGE) the old
    folder is first renamed aside: a crash between the two renames leaves it complete as
    `.<name>.old-<pid>`, and nothing partial under the final name.
    """
    if not final.exists():
        os.rename(building, final)
        _fsync(final.parent)
        return
    if _exchange(building, final):
        old = building
    else:
        old = _temporary(final, "old")
        os.rename(final, old)
        os.rename(building, final)
    _fsync(final.parent)
    shutil.rmtree(old)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    at_cwd, rename_exchange = -100, 2
    if renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def _renameat2() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    function = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if function is not None:
        function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        function.restype = ctypes.c_int
    return function


def _fsync(path: Path) -> None:
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) if path.is_dir() else os.O_RDONLY
    try:
        descriptor = os.open(path, flags)
    except OSError:
        if path.is_dir():
            return  # some platforms cannot open a directory; the rename is still atomic there
        raise
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
