"""Golden episodes of every game: seeded random-legal-play logs that must not change.

Each file tests/envs/<game>/golden/<name>.json names its env_id, config and seed and records every step
(see golden_support.py). Any difference is a behaviour change: observations, actions and rules are frozen
within one version. Beside the folder, golden_coverage.json says what the episodes exercise together.

To change behaviour on purpose: bump the env version, then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/test_golden.py -k <game>
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cardarena.envs import registered
from golden_support import check_golden, coverage, golden_folders, read_episodes

FOLDERS = golden_folders(Path(__file__).parent)
MAX_BYTES = 400_000


@pytest.mark.parametrize(
    "path",
    [path for folder in FOLDERS for path in sorted(folder.glob("*.json"))],
    ids=lambda path: path.parent.parent.name + "/" + path.stem,
)
def test_golden_episode(path):
    check_golden(path)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: folder.parent.name)
def test_golden_files_are_small_and_cover_what_the_game_declares(folder):
    episodes = read_episodes(folder)
    assert episodes, f"{folder} holds no episode"
    assert all(path.stat().st_size < MAX_BYTES for path in folder.glob("*.json")), f"{folder} holds a file too large"
    assert {episode["env_id"].rsplit("_v", 1)[0] for episode in episodes} == {folder.parent.name}
    assert all(episode["steps"][-1]["terminations"] == {} for episode in episodes), (
        "an episode ends with every seat gone"
    )
    declared = json.loads((folder.parent / "golden_coverage.json").read_text(encoding="utf-8"))
    assert coverage(episodes) == declared


def test_every_registered_game_has_golden_episodes():
    games = {folder.parent.name for folder in FOLDERS}
    ours = {entry.env_id.rsplit("_v", 1)[0] for entry in registered() if entry.module.startswith("cardarena.")}
    assert ours <= games, f"games without golden episodes: {sorted(ours - games)}"
