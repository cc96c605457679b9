"""Certificate files on disk: bounded reads, whole-file writes, and never a symlink followed.

A certificate folder may come from a stranger, so each file is opened relative to its folder
with O_NOFOLLOW, must be a regular file, and is refused unread past a stated size. Writes go to
a fresh temporary name (O_EXCL) and are renamed into place; a failed write removes what it wrote.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from satsudoku.errors import PuzzleError

# Every name satsudoku writes into a certificate folder, temporary names included: the only
# files `clear` may remove, so --force can never delete anything a user put there.
CERTIFICATE_FILES = ("manifest.json", "formula.cnf", "proof.drat", "solution.txt")
OWN_FILES = (*CERTIFICATE_FILES, *(f".{name}.partial" for name in CERTIFICATE_FILES))

_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC  # NONBLOCK: a FIFO can't hang us
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a symbolic link; not followed"
    return exc.strerror or str(exc)


@contextmanager
def opened_folder(path: Path, *, follow: bool = True) -> Iterator[int]:
    """A file descriptor of the directory `path` (itself a symlink only if `follow`)."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        reason = _reason(exc)
        if exc.errno == errno.ENOTDIR:  # O_NOFOLLOW on a link to a folder says ENOTDIR too
            reason = "a symbolic link; not followed" if path.is_symlink() else "not a folder"
        raise PuzzleError(reason, source=str(path)) from None
    try:
        yield fd
    finally:
        os.close(fd)


def present(folder: int, names: Sequence[str]) -> list[str]:
    """Which of `names` exist in `folder` (a symlink counts, whatever it points to)."""
    found = []
    for name in names:
        try:
            os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            continue
        found.append(name)
    return found


def size_of(folder: int, name: str) -> int:
    """The size of regular file `name` in `folder` (never through a symlink)."""
    fd, size = _open_regular(folder, name)
    os.close(fd)
    return size


def read_bounded(folder: int, name: str, limit: int, why: str) -> bytes:
    """The bytes of regular file `name` in `folder`, refused unread when over `limit` bytes.

    `why` completes the refusal: "over the 1,048,576-byte limit {why}".
    """
    fd, found = _open_regular(folder, name)
    try:
        if found > limit:
            raise PuzzleError(f"{name}: {found:,} bytes, over the {limit:,}-byte limit {why}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow after fstat: never read past limit + 1
            chunk = os.read(fd, min(limit + 1 - size, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise PuzzleError(f"{name}: over the {limit:,}-byte limit {why}")
        return b"".join(chunks)
    except OSError as exc:
        raise PuzzleError(f"{name}: {_reason(exc)}") from None
    finally:
        os.close(fd)


def _open_regular(folder: int, name: str) -> tuple[int, int]:
    """An open descriptor of regular file `name` in `folder`, and its size."""
    try:
        fd = os.open(name, _READ, dir_fd=folder)
    except OSError as exc:
        raise PuzzleError(f"{name}: {_reason(exc)}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise PuzzleError(f"{name}: not a regular file")
    return fd, info.st_size


def read_text(folder: int, name: str, limit: int, why: str) -> str:
    """`read_bounded`, decoded as UTF-8."""
    data = read_bounded(folder, name, limit, why)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PuzzleError(f"{name}: not UTF-8 text (byte {exc.start + 1})") from None


def make_folder(path: Path) -> bool:
    """Create `path` (and its parents) unless it exists; whether it was created.

    `path` itself may not be a symlink. Errors are one line naming the path, e.g. a regular
    file on the way or /proc.
    """
    created = True
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(path)
    except FileExistsError:
        if not path.parent.is_dir():  # a file on the way: mkdir says 'exists' for it
            reason = os.strerror(errno.ENOTDIR)
            raise PuzzleError(
                f"cannot create the certificate folder ({reason})", source=str(path)
            ) from None
        created = False  # opened_folder(follow=False) below checks it is a real folder
    except OSError as exc:
        raise PuzzleError(
            f"cannot create the certificate folder ({_reason(exc)})", source=str(path)
        ) from None
    with opened_folder(path, follow=False):
        pass
    return created


def clear(path: Path, *, force: bool) -> None:
    """Make sure `path` and its subfolders hold no certificate files: with `force` remove them
    (satsudoku's own names only, one level deep, subfolders that end empty too), else refuse.

    Symlinked subfolders are neither entered nor removed.
    """
    with opened_folder(path, follow=False) as top:
        old: list[tuple[str | None, str]] = []
        try:
            old += [(None, name) for name in present(top, OWN_FILES)]
            for entry in _subfolders(top):
                with _opened_sub(top, entry) as inner:
                    old += [(entry, name) for name in present(inner, OWN_FILES)]
        except OSError as exc:
            where = path / exc.filename if isinstance(exc.filename, str) else path
            raise PuzzleError(f"cannot look inside ({_reason(exc)})", source=str(where)) from None
        if not old:
            return
        if not force:
            shown = ", ".join(name if sub is None else f"{sub}/{name}" for sub, name in old[:3])
            more = f" and {len(old) - 3} more" if len(old) > 3 else ""
            raise PuzzleError(
                f"already holds certificate files ({shown}{more}); new ones are not mixed with "
                "old: choose another folder, or pass --force to remove them",
                source=str(path),
            )
        emptied: set[str] = set()
        for sub, name in old:
            try:
                if sub is None:
                    os.unlink(name, dir_fd=top)
                else:
                    with _opened_sub(top, sub) as inner:
                        os.unlink(name, dir_fd=inner)
                    emptied.add(sub)
            except OSError as exc:
                where = path / name if sub is None else path / sub / name
                raise PuzzleError(f"cannot remove ({_reason(exc)})", source=str(where)) from None
        for sub in sorted(emptied):
            try:
                os.rmdir(sub, dir_fd=top)
            except OSError:
                pass  # it holds something else: leave it


def _subfolders(folder: int) -> list[str]:
    """Names of the real (not symlinked) directories in `folder`."""
    names = []
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            names.append(entry.name)
    return sorted(names)


@contextmanager
def _opened_sub(folder: int, name: str) -> Iterator[int]:
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(name, flags, dir_fd=folder)
    try:
        yield fd
    finally:
        os.close(fd)


def write_all(path: Path, files: Sequence[tuple[str, str]]) -> None:
    """Write each (name, text) whole into the existing folder `path`, in order.

    Each file goes to `.name.partial` (created fresh, never through a link) and is renamed into
    place. If any write fails, the partial file and the files this call wrote are removed, and
    the error is one line naming the file.
    """
    with opened_folder(path, follow=False) as folder:
        written: list[str] = []
        name = ""
        try:
            for name, text in files:
                _write_one(folder, name, text.encode())
                written.append(name)
        except BaseException as exc:
            for done in written:
                _unlink(folder, done)
            if isinstance(exc, OSError):
                raise PuzzleError(
                    f"cannot write ({_reason(exc)})", source=str(path / name)
                ) from None
            raise


def _write_one(folder: int, name: str, data: bytes) -> None:
    partial = f".{name}.partial"
    _unlink(folder, partial)  # a leftover, or a planted symlink: removed, never followed
    try:
        fd = os.open(partial, _CREATE, 0o644, dir_fd=folder)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(partial, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        _unlink(folder, partial)
        raise


def _unlink(folder: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=folder)
    except OSError:
        pass  # already gone, or never created
