"""CP-SAT --certified and the shared /tmp: nothing at the DRAT path but our own file is touched.

The hazards are planted in a private directory that stands in for /tmp (`cpsat.DRAT_PATH`);
"another user" is uid 65534 (nobody), which needs root to chown. One test runs the real
command in a private mount namespace whose /tmp is a scratch directory, so CP-SAT itself
meets the planted symlink; it never touches the machine's shared /tmp.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from satsudoku.backends import cpsat as cpsat_backend
from satsudoku.backends.cpsat import CpSatBackend, certify
from satsudoku.backends.drat_slot import DratSlot, UnsafeProofPathError
from satsudoku.cli import main
from satsudoku.result import Status
from tests.conftest import REPO, puzzle_from_line
from tests.test_cpsat import HARD

NOBODY = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")


@pytest.fixture
def fake_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A sticky, world-writable directory like /tmp; DRAT_PATH points into it."""
    directory = tmp_path / "tmp"
    directory.mkdir()
    directory.chmod(0o1777)
    monkeypatch.setattr(cpsat_backend, "DRAT_PATH", directory / "drat.txt")
    return directory


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of the runner's that a planted link points at; it must never change."""
    path = tmp_path / "precious.txt"
    path.write_text("keep me\n")
    return path


def _certify_refuses(match: str) -> None:
    with pytest.raises(UnsafeProofPathError, match=match):
        certify(puzzle_from_line(HARD), None)


def test_a_planted_symlink_is_refused_and_its_target_untouched(
    fake_tmp: Path, victim: Path
) -> None:
    (fake_tmp / "drat.txt").symlink_to(victim)
    _certify_refuses("is a symbolic link")
    assert victim.read_text() == "keep me\n"
    assert (fake_tmp / "drat.txt").is_symlink()  # not ours to remove either


def test_a_dangling_symlink_is_refused_and_creates_nothing(fake_tmp: Path, tmp_path: Path) -> None:
    (fake_tmp / "drat.txt").symlink_to(tmp_path / "would-be-created")
    _certify_refuses("is a symbolic link")
    assert not (tmp_path / "would-be-created").exists()


@as_root
def test_another_users_file_is_refused_at_once_not_waited_for(fake_tmp: Path) -> None:
    foreign = fake_tmp / "drat.txt"
    foreign.write_text("their proof\n")
    os.chown(foreign, NOBODY, NOBODY)
    with foreign.open() as held:  # even while they hold a lock on it
        fcntl.flock(held, fcntl.LOCK_EX)
        started = time.perf_counter()
        _certify_refuses(f"belongs to another user \\(uid {NOBODY}\\)")
        assert time.perf_counter() - started < 1
    assert foreign.read_text() == "their proof\n" and foreign.stat().st_uid == NOBODY


def test_a_fifo_is_refused_without_blocking(fake_tmp: Path) -> None:
    os.mkfifo(fake_tmp / "drat.txt")
    _certify_refuses("is not a regular file")


def test_a_hard_link_to_another_file_is_refused(fake_tmp: Path, victim: Path) -> None:
    os.link(victim, fake_tmp / "drat.txt")
    _certify_refuses("has 2 hard links")
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize(
    ("mode", "owner", "problem"),
    [
        (0o777, None, "writable by others without the sticky bit"),
        (0o1777, NOBODY, f"belongs to another user \\(uid {NOBODY}\\)"),
    ],
)
def test_a_directory_where_others_could_swap_the_file_is_refused(
    fake_tmp: Path, mode: int, owner: int | None, problem: str
) -> None:
    if owner is not None:
        if os.geteuid() != 0:
            pytest.skip("chown to another user needs root")
        os.chown(fake_tmp, owner, owner)
    fake_tmp.chmod(mode)
    _certify_refuses(problem)
    assert list(fake_tmp.iterdir()) == []


def test_the_cli_refuses_in_one_line_naming_the_fix(
    fake_tmp: Path, victim: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (fake_tmp / "drat.txt").symlink_to(victim)
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(HARD)
    assert main(["solve", str(puzzle), "--backend", "cpsat", "--certified"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "symbolic link" in err
    assert "satsudoku prove PUZZLE --certificate DIR" in err
    assert victim.read_text() == "keep me\n"


def test_our_own_stale_file_is_emptied_made_private_and_removed(fake_tmp: Path) -> None:
    stale = fake_tmp / "drat.txt"
    stale.write_text("0\n")  # an old proof, world-readable
    stale.chmod(0o644)
    slot = DratSlot(stale)
    assert slot.claim(None)
    assert stat.S_IMODE(stale.stat().st_mode) == 0o600 and slot.read() == ""
    slot.release()
    assert not stale.exists()


def test_a_fresh_claim_is_private_and_release_removes_it(fake_tmp: Path) -> None:
    path = fake_tmp / "drat.txt"
    slot = DratSlot(path)
    assert slot.claim(None)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.stat().st_uid == os.geteuid()
    path.write_text("1 2 0\n")  # what CP-SAT does: truncate and write through the path
    assert slot.read() == "1 2 0\n"
    slot.release()
    assert not path.exists()


@pytest.fixture
def held(fake_tmp: Path) -> Iterator[DratSlot]:
    """The path claimed by "another satsudoku run" of this user (another open file)."""
    other = DratSlot(fake_tmp / "drat.txt")
    assert other.claim(None)
    yield other
    other.release()


def test_waiting_for_another_run_honours_the_deadline(held: DratSlot) -> None:
    started = time.perf_counter()
    proof = certify(puzzle_from_line(HARD), None, deadline=started + 0.3)
    waited = time.perf_counter() - started
    assert proof.details["stopped"] == "timeout" and 0.25 < waited < 2


def test_a_timeout_spent_waiting_leaves_the_verdict_unknown(held: DratSlot) -> None:
    started = time.perf_counter()
    result = CpSatBackend(certified=True).solve(puzzle_from_line(HARD), timeout=0.5)
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert time.perf_counter() - started < 3


def test_a_waiter_starts_over_when_the_holder_removes_its_file(held: DratSlot) -> None:
    threading.Timer(0.2, held.release).start()
    waiter = DratSlot(held.path)
    assert waiter.claim(time.perf_counter() + 10)
    try:  # it holds the file the path names now, not the one removed under it
        assert held.fd == -1 and waiter.ident[1] == held.path.stat().st_ino
    finally:
        waiter.release()


_UNSHARE = shutil.which("unshare")
_OLD_TMP = ".old-tmp"


def _seen_from_private_tmp(path: Path) -> Path:
    """Where `path` is once the scratch directory is mounted on /tmp (the old /tmp inside it)."""
    absolute = Path(os.path.abspath(path))
    if absolute.parts[:2] == ("/", "tmp"):
        return Path("/tmp", _OLD_TMP, *absolute.parts[2:])
    return absolute


@pytest.mark.skipif(
    sys.platform != "linux" or os.geteuid() != 0 or _UNSHARE is None,
    reason="a private mount namespace needs Linux, root and unshare(1)",
)
def test_real_cpsat_in_a_private_tmp(tmp_path: Path, victim: Path) -> None:
    """CP-SAT itself: a planted /tmp/drat.txt symlink is refused; a clean run leaves no proof.

    pytest's tmp_path may itself lie under /tmp, hidden once the scratch directory is mounted
    there: the commands run in it and name its files relatively (the link via /proc/self/cwd).
    """
    scratch = tmp_path / "private-tmp"
    (scratch / _OLD_TMP).mkdir(parents=True)
    scratch.chmod(0o1777)
    (tmp_path / "p.txt").write_text(HARD)
    # The checkout or its venv may lie under /tmp too (a CI clone there): the real /tmp stays
    # reachable as /tmp/.old-tmp inside the namespace, and paths under it are named that way.
    python, repo = _seen_from_private_tmp(Path(sys.executable)), _seen_from_private_tmp(REPO)
    solve = f"{python} -m satsudoku solve p.txt --backend cpsat --certified"
    script = (
        f"mount --make-rprivate / && mount --rbind /tmp {scratch / _OLD_TMP} && "
        f"mount --rbind {scratch} /tmp && "
        f"ln -s /proc/self/cwd/{victim.name} /tmp/drat.txt && "
        f"{{ {solve}; echo exit=$?; rm /tmp/drat.txt; "
        f"{solve} --json | grep -c cp-drat; ls -A /tmp | grep -v '^{_OLD_TMP}$'; }}"
    )
    env = {**os.environ, "PYTHONPATH": str(repo)}
    run = subprocess.run(
        [_UNSHARE, "-m", "sh", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "exit=" not in run.stdout:
        pytest.skip(f"no private mount namespace here: {run.stderr.strip()}")
    assert victim.read_text() == "keep me\n"
    lines = run.stdout.splitlines()
    assert "exit=2" in lines and lines[-1] == "1"  # certified, and /tmp left empty
    assert run.stderr.count("\n") == 1 and "symbolic link" in run.stderr
