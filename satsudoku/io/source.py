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
_CHUNK = 1 << 20
# The start of the first line that is neither blank nor a `#` comment.
_CONTENT_LINE = re.compile(rb"^[ \t\r\f\v]*[^ \t\r\f\v\n#]", re.MULTILINE)
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
    """A binary stream read as UTF-8 text in bounded pieces, counting lines for messages.

    Reads go through one buffer of whole chunks, so that skipping a million comment lines is
    a regular-expression match per chunk rather than Python work per line.
    """

    def __init__(self, raw: BinaryIO, source: str) -> None:
        self.raw = raw
        self.source = source
        self._read_some = getattr(raw, "read1", raw.read)  # read1: what is there, a pipe streams
        self.lineno = 0  # lines read so far
        self._buf = b""
        self._pos = 0
        self._eof = False
        self._partial = b""  # the first content line's bytes, when it was cut at the limit

    def _fill(self) -> bool:
        """Append a chunk to the buffer (dropping what was read); False at the end of input."""
        if self._eof:
            return False
        chunk = self._read_some(_CHUNK)
        self._buf = self._buf[self._pos :] + chunk
        self._pos = 0
        if not chunk:
            self._eof = True
        return bool(chunk)

    def _read_line(self) -> bytes:
        """The next line with its newline; a line longer than MAX_LINE_CHARS comes back cut
        to MAX_LINE_CHARS + 1 bytes without one, and b"" means the end of input."""
        while True:
            end = self._buf.find(b"\n", self._pos, self._pos + MAX_LINE_CHARS + 1)
            if end >= 0 or len(self._buf) - self._pos > MAX_LINE_CHARS or not self._fill():
                break
        if end >= 0:
            stop = end + 1
        else:
            stop = min(len(self._buf), self._pos + MAX_LINE_CHARS + 1)
        data = self._buf[self._pos : stop]
        self._pos = stop
        if data:
            self.lineno += 1
        return data

    def _decode(self, data: bytes, lineno: int) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PuzzleError(
                f"not UTF-8 text (byte 0x{data[exc.start]:02x}: {exc.reason})",
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
        if not self._fill():
            return 0, 0, ""
        self._buf = self._buf.removeprefix(_BOM)
        skipped = chars = 0
        while True:
            found = _CONTENT_LINE.search(self._buf, self._pos)
            if found is not None:
                end = found.start()
            else:  # every whole line here is skipped; the unfinished last one waits for more
                end = self._buf.rfind(b"\n", self._pos) + 1 or self._pos
            self._check_utf8(self._buf[self._pos : end], skipped)
            skipped += self._buf.count(b"\n", self._pos, end)
            chars += end - self._pos
            self._pos = end
            if found is not None or len(self._buf) - end > MAX_LINE_CHARS or not self._fill():
                break
        self.lineno = skipped
        data = self._read_line()
        if data.strip() and not data.lstrip().startswith(b"#"):
            return skipped, chars, self._decode_start(data)
        if data:  # a blank or comment line too long to be skipped
            raise self._too_long(self.lineno)
        return skipped, chars, ""

    def _check_utf8(self, data: bytes, lines_before: int) -> None:
        """Skipped lines are still text: bad UTF-8 in a comment is reported as anywhere else."""
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            start = data.rfind(b"\n", 0, exc.start) + 1
            line = lines_before + data.count(b"\n", 0, exc.start) + 1
            self._decode(data[start : data.find(b"\n", exc.start) + 1 or None], line)

    def _decode_start(self, data: bytes) -> str:
        """The first content line; a cut one keeps its first bytes for format detection."""
        if len(data) > MAX_LINE_CHARS and not data.endswith(b"\n"):
            self._partial = data
            return data[:MAX_LINE_CHARS].decode("utf-8", "ignore")
        return self._decode(data, self.lineno)

    def text_lines(self, first: str) -> Iterator[str]:
        """The lines for the text formats, from `first` on (line number self.lineno); a line
        longer than any puzzle needs is an error, raised before it is kept."""
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
        head = (self._partial or first.encode("utf-8")) + self._buf[self._pos :]
        budget = MAX_DOCUMENT_CHARS - skipped_chars - len(head)
        rest = self.raw.read(budget + 1) if budget >= 0 and not self._eof else b""
        if budget < 0 or len(rest) > budget:
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
