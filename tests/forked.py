"""`python -m satsudoku ARGS` in a process forked from this test process, memory capped.

A fresh interpreter costs ~0.45 s of CPU before the command starts (start-up and importing
satsudoku), more than most hostile-input commands take. A fork of the test process already has
everything imported: the command then runs as `python -m satsudoku` would (`__main__` through
runpy, standard streams rebuilt on the file descriptors, the exit code from SystemExit), in its
own process, so a runaway allocation, a crash or a hang stays there. Only its memory is
measured differently: the fork starts at this process's resident size, so the peak reported is
the increase over that start plus what a fresh `python -m satsudoku` holds after its imports
(START_MB, measured once per test process).
Tests of the process itself (start-up imports, a real pipe or terminal, signals) start a real
interpreter instead.
"""

from __future__ import annotations

import importlib
import io
import os
import resource
import runpy
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).parent.parent
ADDRESS_SPACE = 1536 * 1024 * 1024  # RLIMIT_AS above the fork's start: fails fast, never swaps

# A real `python -m satsudoku --version`'s resident size at exit: what every command holds
# before it reads anything (VmHWM in kB).
_START_PROBE = """
import atexit, runpy, sys
def report():
    with open("/proc/self/status") as status:
        sys.__stderr__.write(next(l for l in status if l.startswith("VmHWM:")).split()[1])
atexit.register(report)
sys.argv = ["satsudoku", "solve", "-"]
runpy.run_module("satsudoku", run_name="__main__", alter_sys=True)
"""


@dataclass
class Run:
    code: int
    out: str
    err: str
    peak_mb: float
    seconds: float


@cache
def start_mb() -> float:
    """Peak resident MB of a real `python -m satsudoku solve -` on empty input."""
    done = subprocess.run(
        [sys.executable, "-c", _START_PROBE],
        input=b"",
        capture_output=True,
        cwd=REPO,
        check=False,
    )
    return int(done.stderr.decode().strip().splitlines()[-1]) / 1024


@cache
def _imported() -> None:
    """Import here, once, what the commands import when they run: a fork then starts with it
    (importing satsudoku.io and a command in every fork cost ~0.2 s of its CPU)."""
    from satsudoku.backends import bitmask  # noqa: F401  (the default backend)
    from satsudoku.commands import command_modules

    for name in command_modules():
        importlib.import_module(f"satsudoku.commands.{name}")


def _status(field: str) -> int:
    """A /proc/self/status figure in kB."""
    with open("/proc/self/status") as status:
        return int(next(line for line in status if line.startswith(field + ":")).split()[1])


def _child(
    args: tuple[str, ...], streams: tuple[int, int, int], report: int, limits: tuple[int, int]
) -> None:
    """The forked side: never returns (os._exit), whatever the command does."""
    code = 1
    stdin, out, err = streams
    address_space, file_size = limits
    try:
        os.dup2(stdin, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        for handle in (stdin, out, err):
            if handle > 2:
                os.close(handle)
        os.chdir(REPO)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        encoding, errors = sys.__stdout__.encoding, sys.__stdout__.errors  # type: ignore[union-attr]
        sys.stdin = io.TextIOWrapper(
            io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding, errors
        )
        sys.stdout = io.TextIOWrapper(
            io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding, errors
        )
        sys.stderr = io.TextIOWrapper(
            io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
            encoding,
            "backslashreplace",
            line_buffering=True,
        )
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")  # the peak restarts from the resident size now
        start = _status("VmRSS")
        limit = _status("VmSize") * 1024 + address_space
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if file_size >= 0:  # writes past it fail with EFBIG (Python ignores SIGXFSZ)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
        sys.argv = ["satsudoku", *args]
        try:
            runpy.run_module("satsudoku", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):
                sys.stderr.write(exc.code + "\n")
        except BaseException:  # what the interpreter would print: the tests look for it
            traceback.print_exc()
            code = 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:
                code = 120  # as the interpreter exits when its final flush fails
        os.write(report, str(_status("VmHWM") - start).encode())
    finally:
        os._exit(code)


def satsudoku(
    *args: str,
    stdin: Path | int | None = None,
    stdout: int | None = None,
    timeout: float = 20.0,
    address_space: int = ADDRESS_SPACE,
    file_size: int = -1,
) -> Run:
    """Run `python -m satsudoku ARGS` in a memory-capped fork; time it and take its peak.

    `stdin` and `stdout` are a file or descriptor to read from and one to write to (default:
    nothing to read, output captured); `address_space` caps the memory the command may add,
    `file_size` (bytes, when given) any file it writes."""
    start_peak = start_mb()
    _imported()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        if isinstance(stdin, Path):
            source = os.open(stdin, os.O_RDONLY)
        elif stdin is None:
            source = os.open(os.devnull, os.O_RDONLY)
        else:
            source = os.dup(stdin)
        readable, report = os.pipe()
        began = time.perf_counter()
        try:
            pid = os.fork()
            if pid == 0:
                os.close(readable)
                target = out.fileno() if stdout is None else stdout
                _child(args, (source, target, err.fileno()), report, (address_space, file_size))
        finally:
            os.close(source)
            os.close(report)
        status = _wait(pid, timeout)
        seconds = time.perf_counter() - began
        with os.fdopen(readable, "rb") as pipe:
            grown = pipe.read().decode() or "0"
        out.seek(0)
        err.seek(0)
        return Run(
            os.waitstatus_to_exitcode(status),
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            start_peak + int(grown) / 1024,
            seconds,
        )


def _wait(pid: int, timeout: float) -> int:
    """The child's wait status; killed, and the test failed, past `timeout` seconds."""
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired(["satsudoku"], timeout)
        time.sleep(delay)
        delay = min(delay * 2, 0.02)
