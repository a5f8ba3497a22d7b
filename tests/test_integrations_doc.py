"""docs/integrations.md's examples run as written, at a tiny budget: each trains from its `TOTAL_STEPS`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "integrations.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
BUDGET = re.compile(r"^TOTAL_STEPS = [\d_]+$", re.MULTILINE)
TRAINING_EXAMPLES = ["sb3-contrib: MaskablePPO", "A CleanRL-style loop in plain PyTorch"]


def _examples() -> dict[str, str]:
    """The page's Python blocks that set a training budget, by the heading above them."""
    text = PAGE.read_text(encoding="utf-8")
    examples = {}
    for block in PYTHON_BLOCK.finditer(text):
        if BUDGET.search(block.group(1)):
            heading = re.findall(r"^## (.+)$", text[: block.start()], re.MULTILINE)[-1]
            examples[heading] = block.group(1)
    return examples


def test_the_page_has_its_training_examples():
    assert sorted(_examples()) == sorted(TRAINING_EXAMPLES)


@pytest.mark.parametrize("heading", TRAINING_EXAMPLES)
def test_the_example_trains_and_plays_at_a_tiny_budget(heading, capsys):
    code = BUDGET.sub("TOTAL_STEPS = 64", _examples()[heading])
    exec(compile(code, f"{PAGE.name}: {heading}", "exec"), {"__name__": "__main__"})
    assert re.search(r"[+-]\d\.\d{3}", capsys.readouterr().out), "the example prints its result"
