"""Outputs that cannot be written: one located line, a non-zero exit, no half-written file, and
a reader that leaves early (`| head -1`) ends the command quietly."""

from __future__ import annotations

import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from satsudoku.cli import main
from tests.conftest import REPO
from tests.test_cli import EASY, EASY_SOLUTION, write

FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def satsudoku(*argv: str, **options: object) -> subprocess.CompletedProcess[str]:
    """The real command in a fresh interpreter: what happens at exit is part of the contract."""
    command = [sys.executable, "-m", "satsudoku", *argv]
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **options}
    return subprocess.run(command, text=True, cwd=REPO, check=False, **streams)  # type: ignore[call-overload, no-any-return]


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_encode_output_is_written_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.cnf"
    out.write_text("old\n")
    out.chmod(0o640)
    assert main(["encode", write(tmp_path, EASY), "-o", str(out)]) == 0
    assert out.read_text().splitlines()[-1].endswith(" 0")  # DIMACS clauses end with 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640  # rewriting a file keeps its permissions
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.cnf", "p.txt"]  # no temporary left
    assert capsys.readouterr().err == f"wrote {out}\n"


def test_encode_onto_a_directory_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out"
    target.mkdir()
    assert main(["encode", write(tmp_path, EASY), "-o", str(target)]) == 1
    err = one_line(capsys.readouterr().err)
    assert err == f"satsudoku: cannot write {target}: Is a directory\n"
    assert list(target.iterdir()) == []


def test_encode_into_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no" / "p.cnf"
    assert main(["encode", write(tmp_path, EASY), "-o", str(target)]) == 1
    err = one_line(capsys.readouterr().err)
    assert err == f"satsudoku: cannot write {target}: No such file or directory\n"


def test_encode_refuses_to_follow_a_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "p.cnf"
    link.symlink_to(victim)
    assert main(["encode", write(tmp_path, EASY), "-o", str(link)]) == 1
    assert "is a symbolic link" in one_line(capsys.readouterr().err)
    assert victim.read_text() == "precious\n" and link.is_symlink()


def test_encode_dash_is_standard_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["encode", write(tmp_path, EASY), "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("c ")
    assert not (tmp_path / "-").exists()


def test_a_write_cut_short_leaves_the_old_file_and_no_partial(tmp_path: Path) -> None:
    """A file-size limit stands in for a full disk: the write fails half-way, for real."""
    out = tmp_path / "p.cnf"
    out.write_text("old\n")

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = satsudoku("encode", write(tmp_path, EASY), "-o", str(out), preexec_fn=small_files)
    assert done.returncode == 1
    assert one_line(done.stderr) == f"satsudoku: cannot write {out}: File too large\n"
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.cnf", "p.txt"]


@needs_dev_full
def test_encode_onto_a_full_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["encode", write(tmp_path, EASY), "-o", str(FULL)]) == 1
    err = one_line(capsys.readouterr().err)
    assert err == f"satsudoku: cannot write {FULL}: No space left on device\n"


@needs_dev_full
@pytest.mark.parametrize(
    "command", [["solve"], ["solve", "--json"], ["count"], ["convert", "--to", "line"], ["encode"]]
)
def test_standard_output_on_a_full_device(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    with FULL.open("w") as full:
        sys.stdout = full  # restored by capsys; main() wraps whatever stdout it finds
        code = main([*command, write(tmp_path, EASY)])
    assert code == 1
    err = one_line(capsys.readouterr().err)
    assert err == "satsudoku: cannot write standard output: No space left on device\n"


@needs_dev_full
def test_a_full_stdout_is_one_line_to_the_very_end(tmp_path: Path) -> None:
    """Nothing more at interpreter exit (the buffer's last flush must not fail again)."""
    with FULL.open("w") as full:
        done = satsudoku("solve", write(tmp_path, EASY), stdout=full)
    assert done.returncode == 1
    assert done.stderr == "satsudoku: cannot write standard output: No space left on device\n"


@pytest.mark.parametrize("command", [["solve"], ["convert", "--to", "line"]])
def test_a_reader_that_leaves_early_ends_it_quietly(tmp_path: Path, command: list[str]) -> None:
    """`satsudoku solve big.txt | head -1`: no BrokenPipeError, the status of a GNU tool
    ended by SIGPIPE (128 + 13), whether the pipe breaks mid-run or at the final flush."""
    big = write(tmp_path, (EASY + "\n") * 3000)  # 246 KB: more than a pipe holds
    with subprocess.Popen(
        [sys.executable, "-m", "satsudoku", *command, big],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    ) as child:
        assert child.stdout is not None and child.stderr is not None
        first = child.stdout.readline()
        child.stdout.close()
        err = child.stderr.read()
    assert first.split()[0] in (EASY_SOLUTION, EASY)
    assert err == "" and child.returncode == 128 + signal.SIGPIPE


def test_a_planted_symlink_at_the_temporary_name_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone who guesses the temporary name and plants a link there gains nothing: the name
    is skipped (O_EXCL|O_NOFOLLOW), the link's target is untouched, the link left alone."""
    from satsudoku.io import output

    names = iter(["planted", "free"])
    monkeypatch.setattr("satsudoku.io.output.secrets.token_hex", lambda _: next(names))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    trap = tmp_path / ".p.cnf.planted.partial"
    trap.symlink_to(victim)
    output.write_output(tmp_path / "p.cnf", "p cnf 0 0\n")
    assert (tmp_path / "p.cnf").read_text() == "p cnf 0 0\n"
    assert victim.read_text() == "precious\n" and trap.is_symlink()
    assert not (tmp_path / ".p.cnf.free.partial").exists()
