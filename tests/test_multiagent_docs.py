"""The examples of docs/multiagent.md run as written, at a budget of two matches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "multiagent.md"
BUDGET = ("MATCHES = 100", "MATCHES = 2")


def example(section: str) -> str:
    """The Python code block of the page's `## {section}` section, at the test's budget."""
    text = PAGE.read_text(encoding="utf-8")
    body = re.search(rf"^## {section}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S).group(1)
    (code,) = re.findall(r"^```python\n(.*?)^```", body, flags=re.M | re.S)
    assert BUDGET[0] in code
    return code.replace(*BUDGET)


def test_the_tianshou_example_plays_its_matches_to_their_end():
    pytest.importorskip("tianshou", reason="needs the test extra (tianshou)")
    exec(compile(example("Tianshou"), str(PAGE), "exec"), {})


@pytest.mark.ray
def test_the_rllib_example_plays_its_matches_to_their_end():
    pytest.importorskip("ray.rllib", reason='needs the ray extra: pip install -e ".[ray]"')
    exec(compile(example("RLlib"), str(PAGE), "exec"), {})
