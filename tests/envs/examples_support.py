"""The rulebooks' worked examples as test cases, shared by the games' rules tests."""

from __future__ import annotations

from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2].parent / "shared" / "rules"


def rulebook(game: str) -> Path:
    """The game's rulebook (absent where the checkout has no shared folder beside it)."""
    return RULES / f"{game}.md"


def example_cases(examples: dict[str, list[str]]) -> list:
    """One test case per line of each worked example, named "<example>-<line number>"."""
    return [
        pytest.param(line, id=f"{example}-{n}")
        for example, lines in examples.items()
        for n, line in enumerate(lines, start=1)
    ]
