"""Writing outputs whole: a file appears complete or not at all, and a failure is one line.

A file is written to a fresh temporary name beside it (O_EXCL|O_NOFOLLOW, so nothing planted
there is followed) and renamed over the target, so a reader never sees half of it and a full
disk leaves nothing behind. Devices and pipes (`/dev/full`, a FIFO) are written in place.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import Any, TextIO

from satsudoku.errors import OutputError

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_ASCII_SUPERSETS = frozenset({"utf8", "ascii", "usascii", "latin1", "iso88591", "cp1252"})


def write_output(path: str | Path, text: str | bytes) -> None:
    """Write `text` (or bytes, such as a PNG) to `path` ('-' is standard output, for text
    only), or raise an OutputError naming it."""
    where = str(path)
    if where == "-":
        if isinstance(text, bytes):
            raise OutputError("binary output cannot go to standard output; name a file")
        sys.stdout.write(text)
        return
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _error(where, exc) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise _error(where, OSError(errno.EISDIR, os.strerror(errno.EISDIR)))
    if info is not None and stat.S_ISLNK(info.st_mode):
        # Following it could overwrite any file the link names; replacing it would surprise.
        raise OutputError(f"cannot write {where}: it is a symbolic link (name its target, or -)")
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(where, data)  # a device or a FIFO: nothing to half-write or rename
        return
    _write_whole(Path(path), where, data, None if info is None else stat.S_IMODE(info.st_mode))


def _write_in_place(where: str, data: bytes) -> None:
    try:
        fd = os.open(where, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise _error(where, exc) from None
    try:
        _write_all(fd, data)
    except OSError as exc:
        raise _error(where, exc) from None
    finally:
        os.close(fd)


def _write_whole(target: Path, where: str, data: bytes, mode: int | None) -> None:
    """Temporary file beside `target`, then rename; the temporary file never outlives a failure."""
    partial = None
    try:
        for _ in range(100):  # a name already taken (even by a planted symlink) is skipped
            # The name cut to 50 characters (200 bytes of UTF-8 at most): a 250-byte target is a
            # legal name (255 at most), its temporary name 18 bytes longer would not be.
            candidate = target.with_name(f".{target.name[:50]}.{secrets.token_hex(4)}.partial")
            try:
                fd = os.open(candidate, _CREATE, 0o666)  # the umask applies, as for any new file
            except FileExistsError:
                continue
            partial = candidate
            break
        else:
            raise OSError(errno.EEXIST, "no free temporary name beside it")
        try:
            if mode is not None:
                os.fchmod(fd, mode)  # rewriting a file keeps its permissions
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(partial, target)
        partial = None
    except OSError as exc:
        raise _error(where, exc) from None
    finally:
        if partial is not None:  # also on Ctrl-C: no half-written file is left behind
            partial.unlink(missing_ok=True)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _error(where: str, exc: OSError) -> OutputError:
    return OutputError(f"cannot write {where}: {exc.strerror or exc}")


class GuardedStdout:
    """Standard output whose write errors (a full disk, a closed terminal) become OutputError.

    A closed pipe (BrokenPipeError) passes through unchanged: `satsudoku solve | head -1` is a
    reader that has seen enough, not a failure to report.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _error("standard output", exc) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _error("standard output", exc) from None

    def write_ascii(self, data: bytes | memoryview) -> None:
        """Write ASCII text already encoded and flush it (the fast path's batches of answers).

        It goes to the binary layer when that writes the same bytes as the text layer would
        (an ASCII-compatible encoding, no newline translation): megabytes are not decoded and
        encoded again (0.08 µs of the 10.4 a 17-clue answer costs the command).
        """
        buffer = getattr(self.stream, "buffer", None)
        encoding = str(getattr(self.stream, "encoding", "")).lower().replace("-", "")
        try:
            if buffer is None or os.linesep != "\n" or encoding not in _ASCII_SUPERSETS:
                self.stream.write(str(data, "ascii"))
                self.stream.flush()
                return
            self.stream.flush()  # text written before goes out first
            buffer.write(data)
            buffer.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _error("standard output", exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)  # isatty, fileno, encoding, buffer, ...


def silence(stream: TextIO) -> None:
    """Point a failed stream's descriptor at /dev/null, so the flush at exit cannot fail again
    (Python would print 'Exception ignored ... BrokenPipeError' after we exited quietly)."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return  # not a real file (a test's capture): nothing is flushed at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)
