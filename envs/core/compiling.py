"""A game's compiled kernels, compiled in a background thread while the game plays on its reference.

numba compiles a function the first time it is called. On a fresh install (an empty numba cache:
none can ship in a wheel, as numba keys it on the source files' timestamps) that takes a game's
first steps from about a second to tens of seconds. A game whose compiled fast paths stand beside
a plain reference that tests hold bit-identical to them asks a `Background` for its kernels: the
first ask starts a thread that compiles them (or reads them from numba's cache) and answers None,
and the game plays on its reference until an ask answers the kernels. Which path plays a step
changes nothing the game does, only how fast it does it. When numba's cache already holds every
kernel (`in_numba_cache`), the first ask reads them at once instead: a fraction of a second, which
a thread would stretch to seconds while the game's reference holds the interpreter.

`wait()` blocks until the kernels are ready: for code that times or tests the compiled path
itself; `wait_all()` does so for every `Background` asked for so far. The thread shares the
interpreter with the game, so on an empty cache the kernels take about twice as long to be ready
as compiling them alone would, while the game plays on at its references' pace.

A fork while a thread compiles waits for the function under compilation to finish (numba's
compiler lock, copied held into the child, would block the child's every compilation); the child
starts its own thread when first asked.
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["Background", "in_numba_cache", "wait_all"]

Kernels = TypeVar("Kernels")

_EVERY: weakref.WeakSet[Background] = weakref.WeakSet()  # every Background made (a game's: module-level)


class Background(Generic[Kernels]):
    """What `build` returns (compiled functions: a call to it compiles them, or reads them from
    numba's cache), built once per process: by the first `ready()` when `cached()` says numba's
    cache holds them, else in a background thread that the first `ready()` starts."""

    def __init__(self, name: str, build: Callable[[], Kernels], cached: Callable[[], bool]) -> None:
        self.name = name
        self._build = build
        self._cached = cached
        self._kernels: Kernels | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        _EVERY.add(self)

    def ready(self) -> Kernels | None:
        """The kernels once compiled, else None (the caller plays on its reference); the first
        call starts their compilation. A compilation that failed raises its error here."""
        if self._kernels is None:
            if self._thread is None:
                self._start()
            elif self._error is not None:
                raise self._error
        return self._kernels

    def wait(self) -> Kernels:
        """The kernels, compiled first if they are not yet."""
        self._start()
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._kernels is not None
        return self._kernels

    def _start(self) -> None:
        with self._starting:
            if self._thread is None and self._kernels is None:
                if self._cached():
                    self._kernels = self._build()
                    return
                self._thread = threading.Thread(target=self._compile, name=f"compile {self.name}", daemon=True)
                self._thread.start()

    def _compile(self) -> None:
        try:
            self._kernels = self._build()
        except BaseException as error:  # raised to the game by its next `ready()`
            self._error = error

    def _forget_thread(self) -> None:
        """In a forked child: the parent's thread is not there, so an unfinished build starts again."""
        self._starting = threading.Lock()
        if self._kernels is None and self._error is None:
            self._thread = None


def in_numba_cache(*functions: Any) -> bool:
    """Whether numba's cache holds a compilation of each of these `njit(cache=True)` functions for
    their source files as they are now: numba's own check, the index file of each function. A
    numba whose cache is laid out otherwise answers False (the kernels then compile in the background)."""
    try:
        return all(function._cache._cache_file._load_index() for function in functions)
    except AttributeError:
        return False


def wait_all() -> None:
    """Wait for the builds of every `Background` asked for so far (a failed one raises at its next `ready()`)."""
    for background in _EVERY:
        thread = background._thread
        if thread is not None:
            thread.join()


def _compiler_lock() -> Any:
    """numba's global compiler lock, if numba is loaded and one of our threads compiles."""
    if "numba" not in sys.modules or not any(b._thread is not None and b._thread.is_alive() for b in _EVERY):
        return None
    from numba.core.compiler_lock import global_compiler_lock

    return global_compiler_lock


_held_for_fork: list[Any] = []


def _before_fork() -> None:
    lock = _compiler_lock()
    if lock is not None:
        lock.acquire()
        _held_for_fork.append(lock)


def _after_fork_in_parent() -> None:
    while _held_for_fork:
        _held_for_fork.pop().release()


def _after_fork_in_child() -> None:
    _after_fork_in_parent()
    for background in _EVERY:
        background._forget_thread()


os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent, after_in_child=_after_fork_in_child)
