"""core/compiling.py: kernels built once in a background thread (or at once when numba's cache
holds them), a failed build raised to the game, and a fork during a build that leaves the child
able to compile."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
from cardarena.envs.core.compiling import Background, wait_all
from numba import njit


def test_the_first_ask_starts_the_build_and_later_asks_get_its_kernels():
    release, builds = threading.Event(), []

    def build() -> str:
        release.wait(timeout=30)
        builds.append(1)
        return "kernels"

    background = Background("test", build, cached=lambda: False)
    assert background.ready() is None  # building, in the background
    assert background.ready() is None
    release.set()
    assert background.wait() == "kernels"
    assert background.ready() == "kernels"
    assert builds == [1]


def test_kernels_in_numba_s_cache_are_read_at_the_first_ask():
    background = Background("test", lambda: "kernels", cached=lambda: True)
    assert background.ready() == "kernels"
    assert background._thread is None


def test_a_failed_build_is_raised_to_the_game():
    def build() -> str:
        raise RuntimeError("no compiler")

    background = Background("test", build, cached=lambda: False)
    assert background.ready() is None
    with pytest.raises(RuntimeError, match="no compiler"):
        background.wait()
    with pytest.raises(RuntimeError, match="no compiler"):
        background.ready()


def test_wait_all_waits_for_every_build_started():
    release = threading.Event()
    background = Background("test", lambda: release.wait(timeout=30) and "kernels", cached=lambda: False)
    background.ready()
    release.set()
    wait_all()
    assert background.ready() == "kernels"


def test_a_function_is_in_numba_s_cache_once_a_process_has_compiled_it(tmp_path):
    kernel = "from numba import njit\n\n\n@njit(cache=True)\ndef add(x):\n    return x + 1\n"
    (tmp_path / "kernel.py").write_text(kernel)
    check = (
        "import kernel\n"
        "from cardarena.envs.core.compiling import in_numba_cache\n"
        "print(in_numba_cache(kernel.add), kernel.add(1))\n"
    )
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    runs = [
        subprocess.run([sys.executable, "-c", check], env=environment, capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert [run.stdout.split() for run in runs] == [["False", "2"], ["True", "2"]]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_during_a_build_compiles_its_own():
    """numba's compiler lock is held through a compilation: a fork waits for it to be free, so the
    child (which has no build thread) compiles on its own thread without blocking forever."""
    started = threading.Event()

    def build():
        started.set()

        @njit
        def add(x, y):
            return x + y

        add(1, 2)  # a compilation: numba's compiler lock held in the build thread
        return add

    background = Background("test", build, cached=lambda: False)
    background.ready()
    started.wait(timeout=30)
    child = os.fork()
    if child == 0:  # the child: build again on its own thread, within a time limit
        code = 1
        try:
            import signal

            signal.alarm(60)
            code = 0 if background.wait()(2, 3) == 5 else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert background.wait()(1, 2) == 3
