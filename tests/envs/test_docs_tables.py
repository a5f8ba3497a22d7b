"""Every registered game's page, docs/games/<game>.md, tables its encoder: the observation table row by row
against the encoder module's `SLICES`, the action table against its `ACTION_NAMES`.

Both tables take one format: a first column of ids or indices (`7` or `7–12`) and a second column that
starts with a name in backticks; rows with an empty first column continue the row above.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from cardarena.envs import lookup, registered

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
ROW = re.compile(r"^\| (\d+)(?:–(\d+))? \| `([^`]+)`", re.MULTILINE)


def section(page: str, title: str) -> str:
    """The page's section whose heading starts with `title`, up to the next heading of its level."""
    start = page.index(f"\n## {title}")
    end = page.find("\n## ", start + 1)
    return page[start : end if end > 0 else None]


def rows(text: str) -> list[tuple[range, str]]:
    """(ids, backticked name) of each table row that starts with an id or a range of ids."""
    return [(range(int(low), int(high or low) + 1), name) for low, high, name in ROW.findall(text)]


def first_word(label: str) -> str:
    return re.split(r"[^a-z0-9]+", label.lower().replace("_", " "))[0]


@pytest.fixture(params=sorted({entry.name for entry in registered()}))
def game(request):
    """(page text, encoder module, game class) of the newest version of one registered game."""
    env_cls = lookup(request.param).env_cls
    page = (DOCS / f"{request.param}.md").read_text(encoding="utf-8")
    return page, sys.modules[env_cls.encoder_cls.__module__], env_cls.game_cls


def test_the_observation_table_is_the_encoders_segments(game):
    page, encoder, _ = game
    text = section(page, "Observation")
    assert [(name, ids) for ids, name in rows(text)] == [
        (name, range(part.start, part.stop)) for name, part in encoder.SLICES.items()
    ]
    assert f"float32, {encoder.OBSERVATION_SIZE} values" in text.splitlines()[1]


def test_the_action_table_is_the_games_action_table(game):
    page, encoder, game_cls = game
    text = section(page, "Action table")
    assert f"Discrete({game_cls.num_actions})" in text.splitlines()[1]
    documented = rows(text)
    assert [action for ids, _ in documented for action in ids] == list(range(game_cls.num_actions))
    assert len(encoder.ACTION_NAMES) == game_cls.num_actions
    for ids, name in documented:
        assert first_word(encoder.ACTION_NAMES[ids[0]]) == first_word(name), (ids, name)
