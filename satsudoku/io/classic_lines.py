"""The leading run of plain classic lines in a file, read as arrays of givens in bulk.

A plain classic line is exactly 81 symbols, `1`-`9` with `.` or `0` for a blank, then `\n` or
`\r\n`; the text reader reads such a line as one classic puzzle once the lines before it were
plain or empty. So numpy can split and decode a megabyte of them at a
time, with no Python per line. The run stops at the first other line (a comment, a grid, a
trailer, a bad line): from there the general reader takes over (`ClassicRun.stopped`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

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
