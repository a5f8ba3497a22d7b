"""docs/games/antipoker.md's observation and action tables match the encoder and the action table."""

from __future__ import annotations

import re
from pathlib import Path

from cardarena.envs.antipoker.encode import ACTION_NAMES, OBSERVATION_SIZE, SLICES
from cardarena.envs.antipoker.game import NUM_ACTIONS

PAGE = (Path(__file__).resolve().parents[3] / "docs" / "games" / "antipoker.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return PAGE.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def indices(cell: str) -> range:
    first, _, last = cell.replace("–", "-").partition("-")
    return range(int(first), int(last or first) + 1)


def test_the_observation_table_is_the_encoders_segments():
    text = section("Observation")
    rows = re.findall(r"^\| ([\d–]+) \| `(\w+)` \|", text, re.MULTILINE)
    assert [(name, indices(cells)) for cells, name in rows] == [
        (name, range(part.start, part.stop)) for name, part in SLICES.items()
    ]
    assert f"{OBSERVATION_SIZE} values" in PAGE


def test_the_action_table_is_the_games_action_table():
    text = section("Action table")
    rows = re.findall(r"^\| ([\d–]+) \| `(\w+)", text, re.MULTILINE)
    named = {index: name for cells, name in rows for index in indices(cells)}
    assert sorted(named) == list(range(NUM_ACTIONS)) and f"Discrete({NUM_ACTIONS})" in PAGE
    assert all(ACTION_NAMES[index].split("(")[0] == name for index, name in named.items())
