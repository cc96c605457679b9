"""Opening puzzle input (a file, a pipe or standard input) and reading it as UTF-8 in bounded
pieces: lines no longer than the widest puzzle for text formats, one capped document otherwise.

Bytes are decoded here, line by line, so a file and the same bytes on standard input give the
same error, naming the line and column of the first byte that is not UTF-8.
"""

from __future__ import annotations

import os
import re
import select
import stat
from collections.abc import Callable, Iterator
from typing import BinaryIO

from satsudoku.errors import PuzzleError
from satsudoku.io.limits import MAX_DOCUMENT_CHARS, MAX_LINE_CHARS, MAX_SIZE

Notify = Callable[[str], None]  # receives a one-line notice, e.g. "waiting for a writer on p"

_BOM = b"\xef\xbb\xbf"
_LONE_CR = re.compile(r"(?<=\r)(?!\n)")  # old Mac line ends, which text mode also split on


def open_input(path: str, source: str, notify: Notify | None = None) -> BinaryIO:
    """Open `path` for binary reading; a directory, a device or a missing file is a one-line
    PuzzleError. A named pipe without a writer is waited for, after a notice."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise PuzzleError(f"{source}: no such file") from None
    except OSError as exc:
        raise PuzzleError(f"{source}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise PuzzleError(f"{source}: is a directory, not a puzzle file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        kind = "a socket" if stat.S_ISSOCK(mode) else "a device"
        raise PuzzleError(f"{source}: is {kind}, not a puzzle file (use - for standard input)")
    try:
        if stat.S_ISFIFO(mode):
            return _open_fifo(path, source, notify)
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise PuzzleError(f"{source}: cannot read ({exc.strerror})") from None


def _open_fifo(path: str, source: str, notify: Notify | None) -> BinaryIO:
    """A named pipe, opened without blocking so that `<(command)` reads at once and a pipe
    nobody writes to yet is announced rather than waited on silently."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    ready, _, _ = select.select([fd], [], [], 0.05)
    if not ready:
        if notify is not None:
            notify(f"{source}: waiting for a writer on this named pipe")
        select.select([fd], [], [])  # data or a hang-up: Linux reports neither before a writer
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


class InputText:
    """A binary stream read as UTF-8 text in bounded pieces, counting lines for messages."""

    def __init__(self, raw: BinaryIO, source: str) -> None:
        self.raw = raw
        self.source = source
        self.lineno = 0  # lines read so far
        self._first = True
        self._partial = b""  # the first content line's bytes, when it was cut at the limit

    def _read_line(self) -> bytes:
        data = self.raw.readline(MAX_LINE_CHARS + 1)
        if self._first:
            self._first = False
            data = data.removeprefix(_BOM)
        if data:
            self.lineno += 1
        return data

    def _decode(self, data: bytes, lineno: int) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = data[exc.start]
            raise PuzzleError(
                f"not UTF-8 text (byte 0x{bad:02x}: {exc.reason})",
                source=self.source,
                line=lineno,
                column=exc.start + 1,
            ) from None

    def _too_long(self, lineno: int) -> PuzzleError:
        return PuzzleError(
            f"line longer than {MAX_LINE_CHARS:,} bytes, more than a puzzle of the largest "
            f"size ({MAX_SIZE}x{MAX_SIZE}) needs; refused unread",
            source=self.source,
            line=lineno,
        )

    def skip_to_content(self) -> tuple[int, int, str]:
        """Pass blank and `#` lines; return their count, their total length and the first
        other line, which may be cut at MAX_LINE_CHARS ("" at the end of input). Nothing
        skipped is kept, so a million comment lines cost no memory."""
        skipped = chars = 0
        while data := self._read_line():
            if data.strip() and not data.lstrip().startswith(b"#"):
                return skipped, chars, self._decode_start(data)
            if len(data) > MAX_LINE_CHARS and not data.endswith(b"\n"):
                raise self._too_long(self.lineno)
            skipped += 1
            chars += len(data)
        return skipped, chars, ""

    def _decode_start(self, data: bytes) -> str:
        """The first content line; a cut one keeps its first bytes for format detection."""
        if len(data) > MAX_LINE_CHARS and not data.endswith(b"\n"):
            self._partial = data
            return data[:MAX_LINE_CHARS].decode("utf-8", "ignore")
        self._partial = b""
        return self._decode(data, self.lineno)

    def text_lines(self, first: str, skipped: int) -> Iterator[str]:
        """Every line for the text formats: `skipped` blank ones, then `first`, then the rest;
        a line longer than any puzzle needs is an error, raised before it is kept."""
        for _ in range(skipped):
            yield "\n"
        if self._partial:
            raise self._too_long(self.lineno)
        if first:
            yield from _split_lone_cr(first)
        while data := self._read_line():
            if len(data) > MAX_LINE_CHARS and not data.endswith(b"\n"):
                raise self._too_long(self.lineno)
            yield from _split_lone_cr(self._decode(data, self.lineno))

    def document(self, first: str, skipped: int, skipped_chars: int, what: str) -> str:
        """The whole input as one document (JSON, TOML, f-puzzles), blank lines kept in place
        for line numbers; over MAX_DOCUMENT_CHARS bytes is an error, refused before reading
        the excess."""
        head = self._partial or first.encode("utf-8")
        budget = MAX_DOCUMENT_CHARS - skipped_chars - len(head)
        rest = self.raw.read(budget + 1) if budget >= 0 else b"x"
        if len(rest) > budget:
            limit = MAX_DOCUMENT_CHARS // (1024 * 1024)
            raise PuzzleError(
                f"{self.source}: {what} input is over the {limit} MiB limit for one document; "
                "split it, or write the puzzles one per line"
            )
        data = head + rest
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = self.lineno + data.count(b"\n", 0, exc.start)
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            raise PuzzleError(
                f"not UTF-8 text (byte 0x{data[exc.start]:02x}: {exc.reason})",
                source=self.source,
                line=line,
                column=column,
            ) from None
        return "\n" * skipped + text


def _split_lone_cr(line: str) -> list[str]:
    return _LONE_CR.split(line) if "\r" in line[:-2] else [line]
