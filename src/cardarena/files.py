"""Writing files so that a stop midway never leaves half of one."""

from __future__ import annotations

import os
from pathlib import Path


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write `text` through a temporary file beside `path`, renamed over it: never a half-written file."""
    target = Path(path)
    temporary = target.parent / f".{target.name}.{os.getpid()}.tmp"
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
