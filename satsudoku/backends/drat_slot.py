"""Own the one path CP-SAT writes DRAT to, so that no other local user can redirect the proof.

OR-Tools 9.15 writes its DRAT proof to `/tmp/drat.txt` (C++ flag `--cp_model_drat_output`,
which Python cannot set) with `open(O_WRONLY|O_CREAT|O_TRUNC, 0666)`, three times per solve,
following symlinks (strace). So before the solve we create that file ourselves (`O_EXCL`,
`O_NOFOLLOW`, mode 0600) or reopen one we already own: in a sticky `/tmp` nobody but its owner
and root can then remove, rename or replace it, and CP-SAT truncates and writes *our* file.
Anything else at the path (a symlink, another user's file, a FIFO, a hard link) is refused.
The owned file is also the lock that serialises satsudoku processes of one user.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from pathlib import Path

from satsudoku.errors import SatsudokuError

_FALLBACK = (
    "or else certify with 'satsudoku prove PUZZLE --certificate DIR' (SAT DRAT, no fixed path)"
)
_POLL_S = 0.02  # between attempts to take a lock another satsudoku process holds


class UnsafeProofPathError(SatsudokuError):
    """CP-SAT's fixed proof path cannot be owned safely; the message says what to do."""


class DratSlot:
    """The DRAT path, claimed (created or reopened, locked, emptied) for one proof-logging solve.

    Protocol: claim, run CP-SAT, `read()`, `release()` (which removes the file). A process that
    waited for the lock re-checks that the path still names the file it locked: the holder
    removes its file when done, and the waiter then starts over on a fresh one.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1
        self.ident: tuple[int, int] = (0, 0)  # (st_dev, st_ino) of the file we hold

    def claim(self, deadline: float | None) -> bool:
        """Own and lock the path; False when `deadline` (a perf_counter time) passed first."""
        _check_directory(self.path.parent, self.path)
        while True:
            fd = self._open()
            if fd is None:
                continue  # the file vanished between two looks (its holder released it)
            if not _lock(fd, deadline):
                os.close(fd)
                return False
            held = os.fstat(fd)
            if not self._names(held):
                os.close(fd)  # its holder removed it while we waited: start over
                continue
            os.ftruncate(fd, 0)  # a stale proof must never pass for this solve's
            os.fchmod(fd, 0o600)  # one left by an older run may be world-readable
            self.fd, self.ident = fd, (held.st_dev, held.st_ino)
            return True

    def read(self) -> str:
        """The proof CP-SAT wrote, read through our descriptor once the path is verified ours."""
        if not self._names(os.fstat(self.fd)):
            raise UnsafeProofPathError(
                f"{self.path} was replaced during the solve (only its owner or root can do "
                "that): the proof is not used; run again"
            )
        chunks = []
        offset = 0
        while chunk := os.pread(self.fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks).decode("ascii", errors="replace")

    def release(self) -> None:
        """Remove the proof (only if the path is still our file) and drop the lock."""
        if self.fd < 0:
            return
        try:
            if self._names(os.fstat(self.fd)):
                os.unlink(self.path)
        finally:
            os.close(self.fd)  # closing releases the flock
            self.fd = -1

    def _open(self) -> int | None:
        """Create the file, or reopen one of ours already there; None if it just vanished."""
        flags = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK  # a FIFO never blocks
        try:
            return os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        except OSError as exc:
            raise UnsafeProofPathError(
                f"cannot create {self.path} for CP-SAT's DRAT proof: {exc.strerror}; {_FALLBACK}"
            ) from None
        try:
            before = os.lstat(self.path)
        except FileNotFoundError:
            return None
        _refuse_unless_ours(self.path, before)  # never open what is not ours, not even to look
        try:
            fd = os.open(self.path, flags)
        except FileNotFoundError:
            return None
        except OSError as exc:  # ELOOP: swapped for a symlink after the look (root only)
            raise UnsafeProofPathError(
                f"cannot open {self.path}: {exc.strerror}; {_FALLBACK}"
            ) from None
        opened = os.fstat(fd)
        if (opened.st_dev, opened.st_ino) != (before.st_dev, before.st_ino):
            os.close(fd)
            return None  # replaced between the look and the open: look again
        return fd

    def _names(self, held: os.stat_result) -> bool:
        """Whether the path still names the file `held` describes (same device and inode)."""
        try:
            now = os.lstat(self.path)
        except FileNotFoundError:
            return False
        return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def _refuse_unless_ours(path: Path, info: os.stat_result) -> None:
    """Raise unless `info` is a regular file of this user with one link."""
    if stat.S_ISLNK(info.st_mode):
        problem = "is a symbolic link: CP-SAT would write its proof wherever it points"
    elif not stat.S_ISREG(info.st_mode):
        problem = "is not a regular file"
    elif info.st_uid != os.geteuid():
        problem = f"belongs to another user (uid {info.st_uid}); ask them to remove it"
    elif info.st_nlink != 1:
        problem = f"has {info.st_nlink} hard links: writing it would change another file too"
    else:
        return
    raise UnsafeProofPathError(
        f"{path} {problem}; CP-SAT 9.15 writes its DRAT proof only to that path, so "
        f"cpsat --certified will not run until it is gone; {_FALLBACK}"
    )


def _check_directory(directory: Path, path: Path) -> None:
    """Refuse a directory where others could replace our file: writable by them, not sticky."""
    try:
        info = os.stat(directory)
    except OSError as exc:
        raise UnsafeProofPathError(
            f"{directory}: {exc.strerror}; CP-SAT writes its DRAT proof to {path}; {_FALLBACK}"
        ) from None
    shared = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    if shared and not info.st_mode & stat.S_ISVTX:
        problem = "is writable by others without the sticky bit"
    elif info.st_uid not in (0, os.geteuid()):
        problem = f"belongs to another user (uid {info.st_uid})"
    else:
        return
    raise UnsafeProofPathError(
        f"{directory} {problem}: {path}, where CP-SAT writes its DRAT proof, could be swapped "
        f"during the solve; {_FALLBACK}"
    )


def _lock(fd: int, deadline: float | None) -> bool:
    """Take an exclusive flock, polling so that `deadline` and Ctrl-C are honoured."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if deadline is not None and time.perf_counter() >= deadline:
                return False
            time.sleep(_POLL_S)
