"""Nothing shared names a game: a new game is its folder plus a registration (docs/architecture.md)."""

from __future__ import annotations

import re
from pathlib import Path

from cardarena.envs import registered

ROOT = Path(__file__).resolve().parents[1]
SHARED = [
    "envs/core",
    "training",
    "src/cardarena",
    "agents/loading.py",
    "agents/policy.py",
    "agents/base.py",
    "agents/__init__.py",
]


def _shared_files() -> list[Path]:
    return [
        path
        for place in SHARED
        for path in ([ROOT / place] if place.endswith(".py") else sorted((ROOT / place).rglob("*.py")))
    ]


def _names_in(line: str, pattern: re.Pattern, path: Path) -> set[str]:
    """Game names on one line; a shared deck's module (envs/core/decks/<deck>.py) may name its deck."""
    found = {match.lower() for match in pattern.findall(line)}
    return found - {path.stem} if path.parent.name == "decks" else found


def test_shared_code_names_no_game():
    names = sorted({entry.name for entry in registered() if entry.module.startswith("cardarena.")})
    pattern = re.compile(r"\b(" + "|".join(names) + r")", re.IGNORECASE)
    hits = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _shared_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _names_in(line, pattern, path)
    ]
    assert len(names) >= 2 and len(_shared_files()) > 20
    assert not hits, f"shared code names a game: {hits}"
