"""The workers' shared compile (tests/compile_once.py): two processes asking for the same cached
Numba function at the same moment compile it once; the other loads it and gets the same answer."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO

pytest.importorskip("numba")

KERNEL = """
from numba import njit

@njit(cache=True)
def triangle(n):
    total = 0
    for i in range(n + 1):
        total += i
    return total
"""

# A worker, with the shared compile or without it: wait for the start signal so both ask
# for the function together, then print the answer and whether it compiled (1) or loaded (0).
WORKER = """
import sys, time
from pathlib import Path
folder, shared = Path(sys.argv[1]), sys.argv[2] == "shared"
sys.path[:0] = [sys.argv[3], str(folder)]
if shared:
    from tests import compile_once
    compile_once.install()
import kernel
(folder / f"ready{sys.argv[4]}").touch()
while not (folder / "go").exists():
    time.sleep(0.001)
print(kernel.triangle(100), sum(kernel.triangle._cache_misses.values()))
"""


def compiles(tmp_path: Path, shared: bool) -> list[tuple[int, int]]:
    """(answer, compiled) of two workers started together on an empty cache."""
    (tmp_path / "kernel.py").write_text(KERNEL)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    mode = "shared" if shared else "own"
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tmp_path), mode, str(REPO), str(k)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for k in range(2)
    ]
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"ready{k}").exists() for k in range(2)):
        assert time.monotonic() < deadline and all(w.poll() is None for w in workers)
        time.sleep(0.01)
    (tmp_path / "go").touch()
    outputs = [w.communicate(timeout=120)[0].split() for w in workers]
    assert all(w.returncode == 0 for w in workers)
    return sorted((int(answer), int(compiled)) for answer, compiled in outputs)


@pytest.mark.slow  # two processes importing Numba and compiling: ~3 s of CPU
def test_two_workers_compile_a_function_once(tmp_path: Path) -> None:
    """Without the shared compile both usually compile (each misses the empty cache): not
    asserted, since a worker scheduled late may find the other's entry already saved."""
    assert compiles(tmp_path, shared=True) == [(5050, 0), (5050, 1)]
