"""A built wheel carries every file under the code roots: setuptools finds the packages and their data by pattern."""

from __future__ import annotations

import contextlib
import importlib
import tomllib
import warnings
from pathlib import Path

import pytest
from cardarena.envs import registered
from setuptools.config.pyprojecttoml import apply_configuration
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parents[1]
CODE_FOLDERS = ("cardarena", "cardarena.envs", "cardarena.agents", "cardarena.training")


def _package_dir(root: Path) -> dict[str, str]:
    with open(root / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["setuptools"]["package-dir"]


def _disk_files(root: Path) -> set[str]:
    """The installed path (cardarena/envs/yokir/web.js) of every file under each package-dir root."""
    found = set()
    for name, folder in _package_dir(root).items():
        base = root / folder
        for path in base.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                found.add("/".join((*name.split("."), *path.relative_to(base).parts)))
    return found


def wheel_files(root: Path) -> set[str]:
    """The files `pip wheel` would put under cardarena/, as setuptools' build_py lists them (nothing is built)."""
    with contextlib.chdir(root), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # setuptools calls [tool.setuptools] beta
        dist = apply_configuration(Distribution({"script_name": "setup.py"}), "pyproject.toml")
        dist.set_defaults()
        build_py = dist.get_command_obj("build_py")
        build_py.ensure_finalized()
        return {Path(out).relative_to(build_py.build_lib).as_posix() for out in build_py.get_outputs(False)}


def files_left_out(root: Path) -> list[str]:
    """Files under the code roots that a wheel would drop."""
    return sorted(_disk_files(root) - wheel_files(root))


def folders_without_init(root: Path) -> list[str]:
    """Code folders holding Python files but no __init__.py: they would ship as namespace packages."""
    package_dir = _package_dir(root)
    return sorted(
        str(folder.relative_to(root))
        for name in CODE_FOLDERS
        for folder in {path.parent for path in (root / package_dir[name]).rglob("*.py")}
        if "__pycache__" not in folder.parts and not (folder / "__init__.py").is_file()
    )


def _packages(root: Path) -> list[str]:
    """Import name of every folder with an __init__.py under each package-dir root."""
    found = []
    for name, folder in _package_dir(root).items():
        base = root / folder
        for init in base.rglob("__init__.py"):
            found.append(".".join((name, *init.parent.relative_to(base).parts)))
    return sorted(found)


def test_package_dirs_cover_the_code_folders():
    assert _package_dir(ROOT) == {
        "cardarena": "src/cardarena",
        "cardarena.envs": "envs",
        "cardarena.agents": "agents",
        "cardarena.training": "training",
        "cardarena.configs": "configs",
        "cardarena.checkpoints": "checkpoints",
    }


def test_the_wheel_carries_every_file_under_the_code_roots():
    wheel = wheel_files(ROOT)
    assert {"cardarena/envs/yokir/web.js", "cardarena/serve/web/index.html", "cardarena/configs/yokir.yaml"} <= wheel
    assert {f"cardarena/checkpoints/yokir/ppo-selfplay/{name}" for name in ("card.json", "policy.npz")} <= wheel
    missing = files_left_out(ROOT)
    assert not missing, f"a wheel would drop these: match them in [tool.setuptools.package-data]: {missing}"


def test_every_package_is_in_the_wheel():
    wheel = wheel_files(ROOT)
    missing = [name for name in _packages(ROOT) if f"{name.replace('.', '/')}/__init__.py" not in wheel]
    assert not missing, f"packages a wheel would drop: {missing}"


def test_every_code_folder_is_a_package():
    loose = folders_without_init(ROOT)
    assert not loose, (
        f"these folders hold Python files but no __init__.py, add one so they are regular packages: {loose}"
    )


def test_a_new_game_folder_ships_without_an_entry_and_a_stray_file_is_named(tmp_path):
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for folder in ("src/cardarena", "envs", "envs/newgame", "agents", "training", "configs", "checkpoints"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "envs/newgame/game.py").write_text("")
    (tmp_path / "envs/newgame/web.js").write_text("")
    (tmp_path / "checkpoints/newgame/ppo-selfplay").mkdir(parents=True)
    (tmp_path / "checkpoints/newgame/ppo-selfplay/card.json").write_text("{}")
    (tmp_path / "envs/newgame/notes.txt").write_text("")
    (tmp_path / "envs/half").mkdir()
    (tmp_path / "envs/half/game.py").write_text("")
    wheel = wheel_files(tmp_path)
    assert {"cardarena/envs/newgame/game.py", "cardarena/envs/newgame/web.js"} <= wheel
    assert "cardarena/checkpoints/newgame/ppo-selfplay/card.json" in wheel
    assert files_left_out(tmp_path) == ["cardarena/envs/newgame/notes.txt"]
    assert folders_without_init(tmp_path) == ["envs/half"]


@pytest.mark.parametrize("package", _packages(ROOT))
def test_every_package_imports(package):
    assert importlib.import_module(package).__name__ == package


def test_registered_games_and_agents_are_packaged():
    """Ours, that is: a game registered from outside cardarena (like the tests' toy games) ships elsewhere."""
    wheel = wheel_files(ROOT)
    modules = {entry.module for entry in registered()}
    modules |= {target.split(":")[0] for entry in registered() for target in entry.agents.values()}
    ours = {module for module in modules if module.startswith("cardarena.")}
    paths = {module: module.replace(".", "/") for module in ours}
    outside = sorted(m for m, path in paths.items() if f"{path}.py" not in wheel and f"{path}/__init__.py" not in wheel)
    assert not outside, f"registered modules no wheel carries: {outside}"
