"""Every package directory is listed in pyproject.toml, so a built wheel never silently drops one."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setuptools() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["setuptools"]


def _packages_on_disk() -> dict[str, Path]:
    """Import name -> directory of every folder with an __init__.py under each package-dir root."""
    found = {}
    for name, folder in _setuptools()["package-dir"].items():
        root = ROOT / folder
        for init in root.rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            parts = init.parent.relative_to(root).parts
            found[".".join((name, *parts))] = init.parent
    return found


def test_package_dirs_cover_the_code_folders():
    mapping = _setuptools()["package-dir"]
    assert mapping == {
        "cardarena": "src/cardarena",
        "cardarena.envs": "envs",
        "cardarena.agents": "agents",
        "cardarena.training": "training",
        "cardarena.configs": "configs",
        "cardarena.checkpoints": "checkpoints",
    }


def test_every_package_directory_is_listed():
    listed = set(_setuptools()["packages"])
    on_disk = _packages_on_disk()
    assert {"cardarena.envs.core", "cardarena.envs.yokir"} <= set(on_disk)
    missing = sorted(set(on_disk) - listed)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_every_listed_package_exists():
    stale = sorted(set(_setuptools()["packages"]) - set(_packages_on_disk()))
    assert not stale, f"listed in pyproject.toml but no folder with __init__.py: {stale}"


def test_shipped_checkpoint_files_go_into_the_wheel():
    patterns = _setuptools()["package-data"]["cardarena.checkpoints"]
    for name in ("card.json", "policy.pt", "model.zip"):
        assert any(fnmatch(f"yokir/ppo-selfplay/{name}", pattern) for pattern in patterns), name
