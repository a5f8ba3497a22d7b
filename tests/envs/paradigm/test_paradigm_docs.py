"""docs/games/paradigm.md's observation and action tables match the encoder and the action table."""

from __future__ import annotations

import re
from pathlib import Path

from cardarena.envs.paradigm.encode import ACTION_NAMES, OBSERVATION_SIZE, SLICES
from cardarena.envs.paradigm.game import NUM_ACTIONS

PAGE = Path(__file__).resolve().parents[3] / "docs" / "games" / "paradigm.md"
ROW = re.compile(r"^\| (\d+)(?:–(\d+))? \| `([^`]+)` \|", re.MULTILINE)


def section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else None]


def rows(title: str) -> list[tuple[int, int, str]]:
    return [(int(low), int(high or low), name) for low, high, name in ROW.findall(section(title))]


def test_the_observation_table_is_the_encoders():
    assert [(part.start, part.stop - 1, name) for name, part in SLICES.items()] == rows("Observation")
    assert f"float32, {OBSERVATION_SIZE} values" in section("Observation")


def test_the_action_table_is_the_games():
    listed = rows("Action table")
    assert listed[0][0] == 0 and listed[-1][1] == NUM_ACTIONS - 1
    for low, high, name in listed:
        prefix = name.split("(")[0]
        assert all(ACTION_NAMES[action].split("(")[0] == prefix for action in range(low, high + 1)), name
    assert f"Discrete({NUM_ACTIONS})" in section("Action table")
