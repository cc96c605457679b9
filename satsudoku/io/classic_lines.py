"""The leading run of plain classic lines in a file, read as arrays of givens in bulk, and
their answers written from arrays by compiled code (the fast backend's command-line path).

A plain classic line is exactly 81 symbols, `1`-`9` with `.` or `0` for a blank, then `\n` or
`\r\n`; the text reader reads such a line as one classic puzzle once the lines before it were
plain or empty. So numpy can split and decode a megabyte of them at a
time, with no Python per line. The run stops at the first other line (a comment, a grid, a
trailer, a bad line): from there the general reader takes over (`ClassicRun.stopped`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt
from numba import njit

from satsudoku.backends.fast_kernel import CACHE_DIR, config

CELLS = 81
_CHUNK = 1 << 20
_CACHE = CACHE_DIR is not None  # compiled code is cached where the fast kernel's is
_SAVED_CACHE_DIR = config.CACHE_DIR  # Numba reads it when a function is decorated
if CACHE_DIR is not None:
    config.CACHE_DIR = CACHE_DIR
_NEWLINE, _RETURN = 10, 13
_VALUE = np.full(256, 255, dtype=np.uint8)  # byte -> digit, 0 blank, 255 not plain
_VALUE[ord(".")] = _VALUE[ord("0")] = 0
for _digit in range(1, 10):
    _VALUE[ord(str(_digit))] = _digit


@dataclass
class Lines:
    """A batch of plain classic lines: givens[k] was read on line linenos[k] (1-based)."""

    givens: npt.NDArray[np.uint8]  # (k, 81)
    linenos: npt.NDArray[np.int64]
    symbols: npt.NDArray[np.uint8]  # (k, 81): the lines' bytes, to read one again in full

    def text(self, k: int) -> str:
        """Line k as written (its 81 symbols)."""
        return bytes(self.symbols[k]).decode("ascii")


class ClassicRun:
    """Reads `raw` from its start while its lines are plain classic lines or empty.

    `batches` yields them in order; afterwards `stopped` is True if a line of another kind
    ended the run (the file is not all plain lines), False if the whole file was read.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.stopped = False

    def batches(self, size: int) -> Iterator[Lines]:
        """Batches of at most `size` lines (every chunk read is split at that size)."""
        carry = b""
        lines_before = 0  # newlines before `carry`: line numbers are counted as the reader does
        while True:
            chunk = self.raw.read(_CHUNK)
            data = carry + chunk
            if not chunk:  # the end: a last line without its newline reads like one with it
                if data and not data.endswith(b"\n"):
                    data += b"\n"
                if not data:
                    return
            array = np.frombuffer(data, dtype=np.uint8)
            ends = np.flatnonzero(array == _NEWLINE)
            if len(ends) == 0:
                if len(data) > CELLS + 1 or not chunk:  # too long for a plain line
                    self.stopped = True
                    return
                carry = data
                continue
            starts = np.empty_like(ends)
            starts[0] = 0
            starts[1:] = ends[:-1] + 1
            lengths = ends - starts
            crlf = array[ends - 1] == _RETURN  # `\r\n` ends a line as `\n` does
            plain = (lengths == CELLS) | ((lengths == CELLS + 1) & crlf)
            rows = starts[plain, None] + np.arange(CELLS)
            symbols = array[rows] if len(rows) else np.empty((0, CELLS), np.uint8)
            values = _VALUE[symbols]
            good = (values != 255).all(axis=1)
            ok = (lengths == 0) | ((lengths == 1) & crlf)  # empty: nothing between puzzles
            ok[plain] = good
            bad = np.flatnonzero(~ok)
            last = bad[0] if len(bad) else len(ends)  # lines [0, last) are read here
            keep = np.flatnonzero(plain[:last])
            numbers = lines_before + 1 + keep
            for first in range(0, len(keep), size):
                part = slice(first, min(first + size, len(keep)))
                yield Lines(values[part], numbers[part], symbols[part])
            if len(bad):
                self.stopped = True
                return
            if not chunk:
                return
            lines_before += len(ends)
            carry = data[ends[-1] + 1 :]


# -- writing: records assembled in compiled code from a per-verdict template ----------------

LITERAL, INDEX, LINENO, NODES, BACKTRACKS, GRID, SECONDS = range(7)  # template operations
_DIGITS = 20  # characters of the widest int64
_SECONDS = 32  # characters a time (a float's repr) may take


class Template:
    """How to write one answer, per kind of answer (e.g. the number of solutions found): its
    literal text and fields, as `(operation, argument)` steps. LITERAL's argument is the text,
    GRID's the solution to write; SECONDS writes the batch's time, given to `write`."""

    def __init__(self, kinds: list[list[tuple[int, int | str]]]) -> None:
        literals: list[bytes] = []
        steps: list[tuple[int, int]] = []
        self.step_ptr = [0]
        self.bound = []  # the most bytes an answer of each kind can take, its newline included
        for kind in kinds:
            bound = 1
            for operation, argument in kind:
                if operation == LITERAL:
                    text = str(argument).encode("utf-8")
                    steps.append((LITERAL, len(literals)))
                    literals.append(text)
                    bound += len(text)
                else:
                    steps.append((operation, int(argument)))
                    bound += {GRID: CELLS, SECONDS: _SECONDS}.get(operation, _DIGITS)
            self.step_ptr.append(len(steps))
            self.bound.append(bound)
        self.bounds = np.array(self.bound, dtype=np.int64)
        self.steps = np.array(steps, dtype=np.int64).reshape(len(steps), 2)
        self.steps_at = np.array(self.step_ptr, dtype=np.int64)
        self.literal_ptr = np.cumsum([0, *map(len, literals)], dtype=np.int64)
        self.literals = np.frombuffer(b"".join(literals) or b"\0", dtype=np.uint8)

    def write(
        self,
        seconds: str,
        first: int,
        kinds: npt.NDArray[np.int64],
        linenos: npt.NDArray[np.int64],
        nodes: npt.NDArray[np.int64],
        backtracks: npt.NDArray[np.int64],
        sols: npt.NDArray[np.uint8],
    ) -> tuple[bytes, npt.NDArray[np.int64]]:
        """The answers of puzzles k (kind kinds[k], -1 for none) numbered from `first`, each
        ending in a newline; and where each ends in those bytes."""
        time = np.frombuffer(seconds.encode("ascii")[:_SECONDS], dtype=np.uint8)
        out = np.empty(int(self.bounds[kinds[kinds >= 0]].sum()), dtype=np.uint8)
        ends = np.empty(len(kinds), dtype=np.int64)
        used = _assemble(
            self.steps_at, self.steps, self.literal_ptr, self.literals, time, first, kinds,
            linenos, nodes, backtracks, sols, out, ends,
        )  # fmt: skip
        return out[:used].tobytes(), ends


@njit(cache=_CACHE)
def _write_int(out: Any, pos: int, value: int) -> int:
    """`value` in decimal at out[pos:]; the position after it."""
    if value < 0:
        out[pos] = 45  # '-'
        pos += 1
        value = -value
    width = 1
    while width < 19 and value >= 10**width:
        width += 1
    for i in range(width - 1, -1, -1):
        out[pos + i] = 48 + value % 10
        value //= 10
    return pos + width


@njit(cache=_CACHE)
def _assemble(
    step_ptr: Any,
    steps: Any,
    literal_ptr: Any,
    literals: Any,
    time: Any,
    first: int,
    kinds: Any,
    linenos: Any,
    nodes: Any,
    backtracks: Any,
    sols: Any,
    out: Any,
    ends: Any,
) -> int:
    """Write every answer of `Template.write` into `out`; the bytes used."""
    pos = 0
    for k in range(kinds.shape[0]):
        kind = kinds[k]
        if kind >= 0:
            for s in range(step_ptr[kind], step_ptr[kind + 1]):
                operation = steps[s, 0]
                argument = steps[s, 1]
                if operation == LITERAL:
                    for i in range(literal_ptr[argument], literal_ptr[argument + 1]):
                        out[pos] = literals[i]
                        pos += 1
                elif operation == GRID:  # digits 1..9 as their symbols
                    for i in range(sols.shape[2]):
                        out[pos] = sols[k, argument, i] + 48
                        pos += 1
                elif operation == SECONDS:
                    for i in range(time.shape[0]):
                        out[pos] = time[i]
                        pos += 1
                elif operation == INDEX:
                    pos = _write_int(out, pos, first + k)
                elif operation == LINENO:
                    pos = _write_int(out, pos, linenos[k])
                elif operation == NODES:
                    pos = _write_int(out, pos, nodes[k])
                else:
                    pos = _write_int(out, pos, backtracks[k])
            out[pos] = 10  # '\n'
            pos += 1
        ends[k] = pos
    return pos


config.CACHE_DIR = _SAVED_CACHE_DIR
