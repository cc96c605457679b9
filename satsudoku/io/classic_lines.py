"""The leading run of plain classic lines in a file, read as arrays of givens in bulk, and
their answers written from arrays by compiled code (the fast backend's command-line path).

A plain classic line is exactly 81 symbols, `1`-`9` with `.` or `0` for a blank, then `\n` or
`\r\n`; the text reader reads such a line as one classic puzzle once the lines before it were
plain or empty. So compiled code can split and decode a megabyte of them at a
time, with no Python per line. The run stops at the first other line (a comment, a grid, a
trailer, a bad line): from there the general reader takes over (`ClassicRun.stopped`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from satsudoku.backends.fast_kernel import compiled

CELLS = 81
_CHUNK = 1 << 20
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
    data: bytes  # the read the lines are in, to read one again in full
    starts: npt.NDArray[np.int64]  # where line k starts in `data`

    def text(self, k: int) -> str:
        """Line k as written (its 81 symbols)."""
        start = int(self.starts[k])
        return self.data[start : start + CELLS].decode("ascii")


class ClassicRun:
    """Reads `raw` from its start while its lines are plain classic lines or empty.

    `batches` yields them in order; afterwards `stopped` is True if a line of another kind
    ended the run (the file is not all plain lines), False if the whole file was read.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.stopped = False

    def batches(self, size: int | Callable[[], int]) -> Iterator[Lines]:
        """Batches of at most `size` lines, or of `size()` lines asked before each batch (the
        caller may pace them); every chunk read is split so."""
        wanted = size if callable(size) else lambda: size
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
            room = len(data) // (CELLS + 1) + 1  # a plain line takes 82 bytes at least
            givens = np.empty((room, CELLS), dtype=np.uint8)
            numbers = np.empty(room, dtype=np.int64)
            starts = np.empty(room, dtype=np.int64)
            count, lines, used, stopped = _scan(
                array, _VALUE, lines_before, givens, numbers, starts
            )
            if lines == 0 and not stopped:  # no whole line yet
                if len(data) > CELLS + 1 or not chunk:  # too long for a plain line
                    self.stopped = True
                    return
                carry = data
                continue
            first = 0
            while first < count:
                part = slice(first, min(first + max(1, wanted()), count))
                yield Lines(givens[part], numbers[part], data, starts[part])
                first = part.stop
            if stopped:
                self.stopped = True
                return
            if not chunk:
                return
            lines_before += lines
            carry = data[used:]


@compiled
def _scan(
    data: Any, value: Any, lines_before: int, givens: Any, numbers: Any, starts: Any
) -> tuple[int, int, int, bool]:
    """Read the whole lines of `data` into givens/numbers/starts while they are plain classic
    lines or empty (a plain line: 81 symbols `value` maps below 255, then `\n` or `\r\n`).

    Returns (plain lines read, lines passed, bytes passed, whether a line of another kind
    stopped the reading); a line cut by the end of `data` is left for the next read.
    """
    count = lines = start = 0
    size = data.shape[0]
    while True:
        # The common case first: 81 plain symbols and the line's end right after them.
        after = start + CELLS
        if after < size and (
            data[after] == _NEWLINE
            or (data[after] == _RETURN and after + 1 < size and data[after + 1] == _NEWLINE)
        ):
            plain = True
            for i in range(CELLS):
                digit = value[data[start + i]]
                if digit == 255:  # not plain after all (or a shorter line): look closer
                    plain = False
                    break
                givens[count, i] = digit
            if plain:
                numbers[count] = lines_before + lines + 1
                starts[count] = start
                count += 1
                lines += 1
                start = after + 1 if data[after] == _NEWLINE else after + 2
                continue
        end = start
        while end < size and data[end] != _NEWLINE:
            end += 1
        if end == size:  # no newline: the line goes on in the next read
            return count, lines, start, False
        length = end - start
        if length > 0 and data[end - 1] == _RETURN:  # `\r\n` ends a line as `\n` does
            length -= 1
        if length != 0:  # neither plain nor empty: the general reader takes over here
            return count, lines, start, True
        lines += 1
        start = end + 1


# -- writing: records assembled in compiled code from a per-verdict template ----------------

LITERAL, INDEX, LINENO, NODES, BACKTRACKS, GRID, SECONDS = range(7)  # template operations
_DIGITS = 20  # characters of the widest int64
_SECONDS = 32  # characters a time (a float's repr) may take


class Template:
    """How to write one answer, per kind of answer (e.g. the number of solutions found): its
    literal text and fields, as `(operation, argument)` steps. LITERAL's argument is the text,
    GRID's the solution to write; SECONDS writes the batch's time, given to `write`."""

    def __init__(self, kinds: list[list[tuple[int, int | str]]]) -> None:
        literals = b""
        # (operation, a, b) per step; a LITERAL copies literals[a:b], a GRID writes grid a.
        steps: list[tuple[int, int, int]] = []
        step_ptr = [0]
        self.bound = []  # the most bytes an answer of each kind can take, its newline included
        for kind in kinds:
            bound = 1
            for operation, argument in kind:
                if operation == LITERAL:
                    text = str(argument).encode("utf-8")
                    steps.append((LITERAL, len(literals), len(literals) + len(text)))
                    literals += text
                    bound += len(text)
                else:
                    steps.append((operation, int(argument), 0))
                    bound += {GRID: CELLS, SECONDS: _SECONDS}.get(operation, _DIGITS)
            step_ptr.append(len(steps))
            self.bound.append(bound)
        # Unsigned, as the kernel's indices are: compiled indexing then needs no negative-index
        # fix-up, and the byte copies become block copies (17clue's JSON lines: 2.6x faster).
        self.bounds = np.array(self.bound, dtype=np.int64)
        self.steps = np.array(steps, dtype=np.uint64).reshape(len(steps), 3)
        self.step_ptr = np.array(step_ptr, dtype=np.uint64)
        self.literals = np.frombuffer(literals or b"\0", dtype=np.uint8)
        # Written again by every call: megabytes allocated afresh each time cost their page
        # faults, and a copy out of them the caches (17clue: 2% of the kernel's time).
        self.out = np.empty(0, dtype=np.uint8)

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
        view, ends = self.write_view(seconds, first, kinds, linenos, nodes, backtracks, sols)
        return bytes(view), ends

    def write_view(
        self,
        seconds: str,
        first: int,
        kinds: npt.NDArray[np.int64],
        linenos: npt.NDArray[np.int64],
        nodes: npt.NDArray[np.int64],
        backtracks: npt.NDArray[np.int64],
        sols: npt.NDArray[np.uint8],
    ) -> tuple[memoryview, npt.NDArray[np.int64]]:
        """`write`'s answers in this template's own buffer, which the next call overwrites."""
        time = np.frombuffer(seconds.encode("ascii")[:_SECONDS], dtype=np.uint8)
        need = int(self.bounds[kinds[kinds >= 0]].sum())
        if len(self.out) < need:
            self.out = np.empty(max(need, 2 * len(self.out)), dtype=np.uint8)
        ends = np.empty(len(kinds), dtype=np.int64)
        # Contiguous always (a counters column is strided unless it holds one puzzle): one
        # layout, one compiled _assemble, not a second 1.5 s compile for 'A' arrays.
        c = np.ascontiguousarray
        used = _assemble(
            self.step_ptr, self.steps, self.literals, time, first, c(kinds), c(linenos),
            c(nodes), c(backtracks), c(sols), self.out, ends,
        )  # fmt: skip
        return self.out.data[:used], ends


@compiled(inline="always")
def _write_int(out: Any, pos: Any, value: int) -> Any:
    """`value` in decimal at out[pos:] (pos unsigned); the position after it."""
    one = np.uint64(1)
    if value < 0:
        out[pos] = 45  # '-'
        pos += one
        value = -value
    end = pos + one
    rest = value // 10
    while rest:
        end += one
        rest //= 10
    at = end
    while True:  # the digits from the last
        at -= one
        out[at] = 48 + value % 10
        value //= 10
        if value == 0:
            return end


@compiled
def _assemble(
    step_ptr: Any,
    steps: Any,
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
    one = np.uint64(1)
    pos = np.uint64(0)
    for k in range(kinds.shape[0]):
        if kinds[k] >= 0:
            kind = np.uint64(kinds[k])
            for s in range(step_ptr[kind], step_ptr[kind + one]):
                operation = steps[s, 0]
                if operation == LITERAL:
                    start = steps[s, 1]
                    for i in range(steps[s, 2] - start):
                        out[pos + i] = literals[start + i]
                    pos += steps[s, 2] - start
                elif operation == GRID:  # digits 1..9 as their symbols
                    grid = sols[k, steps[s, 1]]
                    for i in range(np.uint64(grid.shape[0])):
                        out[pos + i] = grid[i] + 48
                    pos += np.uint64(grid.shape[0])
                elif operation == SECONDS:
                    for i in range(np.uint64(time.shape[0])):
                        out[pos + i] = time[i]
                    pos += np.uint64(time.shape[0])
                elif operation == INDEX:
                    pos = _write_int(out, pos, first + k)
                elif operation == LINENO:
                    pos = _write_int(out, pos, linenos[k])
                elif operation == NODES:
                    pos = _write_int(out, pos, nodes[k])
                else:
                    pos = _write_int(out, pos, backtracks[k])
            out[pos] = 10  # '\n'
            pos += one
        ends[k] = pos
    return int(pos)
