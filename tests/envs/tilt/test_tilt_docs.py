"""docs/games/tilt.md's observation and action tables against the encoder and the action table."""

from __future__ import annotations

import re
from pathlib import Path

from cardarena.envs.tilt.game import FIRST_SET, NUM_ACTIONS
from cardarena.envs.tilt.layout import OBSERVATION_SIZE, SEGMENTS

PAGE = Path(__file__).resolve().parents[3] / "docs" / "games" / "tilt.md"


def section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def test_the_observation_table_is_the_encoders():
    rows = re.findall(r"^\| `(\w+)` \| ([\d ×]+) \|", section("Observation"), re.MULTILINE)
    documented = [(name, eval(size.replace("×", "*"))) for name, size in rows]
    assert documented == SEGMENTS
    assert sum(size for _, size in documented) == OBSERVATION_SIZE


def test_the_action_table_is_the_games():
    text = section("Action table")
    assert f"`Discrete({NUM_ACTIONS})`" in text
    assert f"| {FIRST_SET} + m (m = 0…{NUM_ACTIONS - FIRST_SET - 1}) |" in text
