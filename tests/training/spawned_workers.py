"""The pool workers a process spawned (`training/spawned.py`), found in /proc, and whether they end with it."""

import signal
import subprocess
import time
from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()


def spawned_workers(parent: int) -> list[int]:
    """The pool workers `parent` spawned that are still running (not zombies)."""
    workers = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[1]) == parent and b"spawn_main" in command:
            workers.append(int(stat.parent.name))
    return workers


def workers_left_after_killing(process: subprocess.Popen, workers: list[int], wait: float = 15) -> list[int]:
    """SIGTERM to `process` alone (as `kill PID` sends it, unlike Ctrl-C to the whole group), then
    the workers still running after `wait` seconds."""
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    deadline = time.monotonic() + wait
    while (alive := [pid for pid in workers if _running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
