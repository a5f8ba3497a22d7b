"""Every lint or type suppression in the tracked Python files names its reason: `# noqa: E402 - why`,
`# type: ignore[code]  # why`, `# fmt: skip  # why`. A code alone says what is silenced, not why."""

from __future__ import annotations

import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# a marker, then the codes it silences (`: E402, B008` or `[arg-type]`), then whatever follows
MARKER = re.compile(
    r"#\s*(?P<marker>noqa|type:\s*ignore|fmt:\s*(?:skip|off))"
    r"(?P<codes>\s*:\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*|\[[\w\-, ]*\])?"
    r"(?P<rest>.*)",
    re.IGNORECASE,
)
REASON = re.compile(r"[A-Za-z]{2,}\W+[A-Za-z]{2,}")  # at least two words


def unexplained_markers(source: str) -> list[tuple[int, str]]:
    """(line, comment) for each suppression comment in `source` that gives no reason after its codes."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        for match in MARKER.finditer(token.string):
            if not REASON.search(match["rest"]):
                found.append((token.start[0], token.string))
    return found


def _tracked_python_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return listed


@pytest.mark.parametrize(
    ("comment", "explained"),
    [
        ("x = 1  # noqa", False),
        ("x = 1  # noqa: E501", False),
        ("x = 1  # noqa: E402, B008", False),
        ("x = 1  # type: ignore", False),
        ("x = 1  # type: ignore[arg-type]", False),
        ("x = 1  # type: ignore[arg-type]  # ok", False),
        ("x = (1,)  # fmt: skip", False),
        ("x = 1  # noqa: E402 - found through the sys.path line above", True),
        ("x = 1  # type: ignore[misc]  # the very assignment a frozen config refuses", True),
        ("x = (1,)  # fmt: skip  # the table reads as rows", True),
        ("x = '# noqa'  # a string is no comment", True),
    ],
)
def test_a_marker_needs_words_after_its_codes(comment: str, explained: bool):
    assert (unexplained_markers(comment + "\n") == []) is explained


def test_every_suppression_names_its_reason():
    unexplained = [
        f"{name}:{line}: {comment}"
        for name in _tracked_python_files()
        for line, comment in unexplained_markers((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert unexplained == [], "suppressions without a reason:\n" + "\n".join(unexplained)
