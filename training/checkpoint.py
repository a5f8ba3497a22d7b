"""Writing checkpoints, atomically, and reading one back to train on: its SB3 model or its weights
(actor and critic), which a shipped bot's arrays rebuild without its model.

The layout of a checkpoint folder, reading its card and the policy agent it holds live with the
agents (`cardarena.agents.checkpoint`), which play checkpoints without importing training.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from cardarena.agents.checkpoint import (
    CARD_FILE,
    CARD_FORMAT,
    LEGACY_POLICY_FILE,
    MODEL_FILE,
    POLICY_FILE,
    check_policy_fits,
    listed_file,
    policy_arrays,
    read_policy,
    sha256_of,
    verify_checkpoint,
)
from cardarena.agents.policy import export_policy, policy_layers
from cardarena.envs import lookup
from cardarena.envs.core.errors import CheckpointError

from cardarena import __version__

_RESERVED = {CARD_FILE, MODEL_FILE, POLICY_FILE, LEGACY_POLICY_FILE}


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

    The folder holds the model (to resume training) and its policy's arrays (float32). `extra`
    maps plain file names to contents (the trainer's resume state); they are hashed into the card
    like the model. `env_id` may name the game alone (its name alone means its newest version).
    """
    return write_policy_checkpoint(
        directory,
        export_policy(model.policy),
        env_id=env_id,
        config=config,
        steps=steps,
        evaluation=evaluation,
        extra=extra,
        model=model,
    )


def write_policy_checkpoint(
    directory: str | os.PathLike[str],
    policy: dict[str, Any],
    *,
    env_id: str,
    config: dict[str, Any],
    steps: int,
    evaluation: dict[str, Any] | None = None,
    extra: dict[str, bytes] | None = None,
    model: Any = None,
    precision: str = "float32",
) -> Path:
    """Write `policy` (`export_policy`'s arrays, stored in `precision`) and, given one, its `model`
    as the checkpoint folder `directory`, atomically; returns its path.

    The folder is built beside its final place and renamed in, replacing an existing checkpoint
    there: a crash at any moment leaves the old complete folder or the new complete one.
    """
    final = Path(directory)
    entry = lookup(env_id)
    check_policy_fits(policy, entry.env_cls.encoder_cls.observation_size, entry.env_cls.game_cls.num_actions)
    arrays: dict[str, Any] = policy_arrays(policy, precision)  # Any: np.savez's stub types **kwds as its allow_pickle
    extra = dict(extra or {})
    for name in extra:
        _check_extra_name(name)
    _refuse_to_replace_other_folders(final)

    final.parent.mkdir(parents=True, exist_ok=True)
    _remove_dead_temporaries(final)
    building = _temporary(final, "tmp")
    building.mkdir()
    try:
        if model is not None:
            model.save(building / MODEL_FILE)
        with open(building / POLICY_FILE, "wb") as handle:
            np.savez(handle, **arrays)
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
                "precision": precision,
            },
            "config": config,
            "steps": int(steps),
            "evaluation": evaluation or {},
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "cardarena_version": __version__,
            "files": {file.name: sha256_of(file) for file in sorted(building.iterdir())},
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


def load_model(directory: str | os.PathLike[str], env: Any = None, device: str = "cpu", model_cls: Any = None) -> Any:
    """The checkpoint's model (to resume training) as a `model_cls` (default MaskablePPO).

    The checkpoint is verified first."""
    from sb3_contrib import MaskablePPO

    folder = Path(directory)
    card = verify_checkpoint(folder)
    model_path = listed_file(folder, card, MODEL_FILE)
    try:
        return (model_cls or MaskablePPO).load(model_path, env=env, device=device)
    except Exception as error:
        raise CheckpointError(f"{folder}: {MODEL_FILE} cannot be loaded ({type(error).__name__}: {error})") from None


def load_weights(policy: Any, directory: str | os.PathLike[str], game: str) -> None:
    """Copy the actor and critic of the checkpoint in `directory` (a `game` checkpoint) into the SB3
    `policy`, which must have the same shape (its config's `ppo.net_arch` and `ppo.activation`)."""
    folder = Path(directory)
    card = verify_checkpoint(folder, game)
    try:
        _copy_arrays(policy, read_actor_critic(folder))
    except ValueError as error:
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


def read_actor_critic(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The checkpoint's actor and critic as arrays (`export_policy`'s form): its policy.npz, or
    its model.zip's policy where the arrays lack the critic (a checkpoint written before policy.npz)."""
    folder = Path(directory)
    card = verify_checkpoint(folder)
    policy = read_policy(folder, card)
    return policy if "value" in policy else export_policy(load_model(folder).policy)


def _copy_arrays(policy: Any, saved: dict[str, Any]) -> None:
    """Set every linear layer of the SB3 `policy` from the arrays (ValueError where the shapes differ)."""
    import torch

    activation = policy.activation_fn.__name__.lower()
    if saved["activation"] != activation:
        raise ValueError(f"activation {saved['activation']} where this run's is {activation}")
    parts: dict[str, Any] = {
        "actor": saved,
        **{part: saved[part] for part in ("value", "action_head") if part in saved},
    }
    layers = policy_layers(policy)
    if set(parts) != set(layers):
        raise ValueError(f"parts {sorted(parts)} where this run's policy has {sorted(layers)}")
    for part, modules in layers.items():
        shapes = [tuple(weight.shape) for weight in parts[part]["weights"]]
        expected = [tuple(module.weight.shape) for module in modules]
        if shapes != expected:
            raise ValueError(f"{part} layers {shapes} where this run's are {expected}")
    with torch.no_grad():
        for part, modules in layers.items():
            for module, weight, bias in zip(modules, parts[part]["weights"], parts[part]["biases"], strict=True):
                module.weight.copy_(torch.from_numpy(weight))
                module.bias.copy_(torch.from_numpy(bias))


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
