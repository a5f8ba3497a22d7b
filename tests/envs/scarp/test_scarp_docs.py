"""docs/games/scarp.md's observation and action tables are the encoder's segments and the action table."""

from __future__ import annotations

import re
from pathlib import Path

from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp.encode import ACTION_NAMES, OBSERVATION_SIZE, SLICES

PAGE = Path(__file__).resolve().parents[3] / "docs" / "games" / "scarp.md"


def section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def table_rows(text: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")] for line in text.splitlines() if re.match(r"\| \d", line)
    ]


def span(cell: str) -> tuple[int, int]:
    """(first, last) of '12' or '12–56'."""
    first, _, last = cell.partition("–")
    return int(first), int(last or first)


def test_the_observation_table_is_the_encoders_segments():
    rows = table_rows(section("Observation"))
    documented = [(row[1].strip("`"), span(row[0])) for row in rows]
    assert documented == [(name, (piece.start, piece.stop - 1)) for name, piece in SLICES.items()]
    assert f"{OBSERVATION_SIZE} values" in section("Observation").splitlines()[0]


def test_the_action_table_is_the_games():
    rows = table_rows(section("Action table"))
    covered = [action for row in rows for action in range(span(row[0])[0], span(row[0])[1] + 1)]
    assert covered == list(range(scarp.NUM_ACTIONS)) and f"Discrete({scarp.NUM_ACTIONS})" in section("Action table")
    for row in rows:
        first, _ = span(row[0])
        word = ACTION_NAMES[first].split()[0]
        shown = row[1].split("(")[0].strip("` ").lower()
        assert word.replace("_", " ") in shown.replace("_", " ") or shown.startswith(word), (row, ACTION_NAMES[first])
