"""Numba compiles each cached function once for all pytest-xdist workers, not once per worker.

On an empty cache (a fresh clone, as CI has) every worker compiled the same kernels, logic
techniques and line reader side by side: about 40 s of CPU each on 2 workers. Here a worker
takes a file lock per function before compiling it; a worker that arrives second waits, then
finds the function in Numba's on-disk cache and loads it (Numba reads the cache index afresh on
every load). Only who compiles changes: the machine code is the same, so no test result does.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

WAIT = 300.0  # seconds; past this a worker compiles for itself (duplicate work, never a hang)


def _locked(path: Path, work: Callable[[], Any]) -> Any:
    """`work()` under an exclusive lock on `path` (waited for up to WAIT seconds), or without
    one where the lock file cannot be made (a read-only cache: Numba then does not save)."""
    try:
        handle = open(path, "a")  # closed by the with below
    except OSError:
        return work()
    with handle:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return work()
                time.sleep(0.05)
        try:
            return work()
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def install() -> None:
    """Wrap Numba's Dispatcher.compile (the one entry of top-level and nested compiles).

    Numba's in-process compiler lock is taken first, so threads of one worker never hold file
    locks in different orders; across workers a lock is held only while that function and the
    functions it calls compile, and calls have no cycles, so two workers cannot wait on each
    other.
    """
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # without Numba there is nothing to compile
        return
    original = Dispatcher.compile
    if getattr(original, "compile_once", False):
        return

    def compile(self: Any, sig: Any) -> Any:
        cache = self._cache
        folder = getattr(cache, "cache_path", None)
        if folder is None:  # not cached: nothing another worker could load
            return original(self, sig)
        with global_compiler_lock:
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError:
                return original(self, sig)
            lock = Path(folder, f"{cache._impl.filename_base}.compiling")
            return _locked(lock, lambda: original(self, sig))

    compile.compile_once = True  # type: ignore[attr-defined]
    Dispatcher.compile = compile
