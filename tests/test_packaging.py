"""Every package directory is listed in pyproject.toml, so a built wheel never silently drops one."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from cardarena.envs import registered

ROOT = Path(__file__).resolve().parents[1]
CODE_FOLDERS = ("cardarena", "cardarena.envs", "cardarena.agents", "cardarena.training")


def _setuptools(root: Path = ROOT) -> dict:
    with open(root / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["setuptools"]


def _packages_on_disk(root: Path, package_dir: dict[str, str]) -> dict[str, Path]:
    """Import name -> directory of every folder with an __init__.py under each package-dir root."""
    found = {}
    for name, folder in package_dir.items():
        base = root / folder
        for init in base.rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                found[".".join((name, *init.parent.relative_to(base).parts))] = init.parent
    return found


def unlisted_packages(root: Path) -> list[str]:
    """The packages on disk that pyproject.toml's `packages` leaves out (a wheel would drop them)."""
    setuptools = _setuptools(root)
    return sorted(set(_packages_on_disk(root, setuptools["package-dir"])) - set(setuptools["packages"]))


def folders_without_init(root: Path) -> list[str]:
    """Code folders holding Python files but no __init__.py: setuptools would not package them."""
    package_dir = _setuptools(root)["package-dir"]
    return sorted(
        str(folder.relative_to(root))
        for name in CODE_FOLDERS
        for folder in {path.parent for path in (root / package_dir[name]).rglob("*.py")}
        if "__pycache__" not in folder.parts and not (folder / "__init__.py").is_file()
    )


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
    missing = unlisted_packages(ROOT)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_every_code_folder_is_a_package():
    loose = folders_without_init(ROOT)
    assert not loose, f"these folders hold Python files but no __init__.py, so no wheel carries them: {loose}"


def test_a_missing_entry_is_named(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.setuptools]\npackage-dir = { "cardarena" = "src/cardarena", "cardarena.envs" = "envs", '
        '"cardarena.agents" = "agents", "cardarena.training" = "training" }\n'
        'packages = ["cardarena", "cardarena.envs", "cardarena.agents", "cardarena.training"]\n'
    )
    for folder in ("src/cardarena", "envs", "envs/newgame", "agents", "training"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "envs" / "half").mkdir()
    (tmp_path / "envs" / "half" / "game.py").write_text("")
    assert unlisted_packages(tmp_path) == ["cardarena.envs.newgame"]
    assert folders_without_init(tmp_path) == ["envs/half"]


def test_every_listed_package_exists():
    setuptools = _setuptools()
    stale = sorted(set(setuptools["packages"]) - set(_packages_on_disk(ROOT, setuptools["package-dir"])))
    assert not stale, f"listed in pyproject.toml but no folder with __init__.py: {stale}"


def test_registered_games_and_agents_are_in_listed_packages():
    """Ours, that is: a game registered from outside cardarena (like the tests' toy games) ships elsewhere."""
    listed = set(_setuptools()["packages"])
    modules = {entry.module for entry in registered()}
    modules |= {target.split(":")[0] for entry in registered() for target in entry.agents.values()}
    ours = {module for module in modules if module.startswith("cardarena.")}
    outside = sorted(m for m in ours if m not in listed and m.rpartition(".")[0] not in listed)
    assert not outside, f"registered modules outside the packages of pyproject.toml: {outside}"


def test_shipped_checkpoint_files_go_into_the_wheel():
    patterns = _setuptools()["package-data"]["cardarena.checkpoints"]
    for name in ("card.json", "policy.pt", "model.zip"):
        assert any(fnmatch(f"yokir/ppo-selfplay/{name}", pattern) for pattern in patterns), name
