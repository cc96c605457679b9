"""Hostile and broken inputs through `python -m satsudoku` in its own process, memory and time
capped: exit 1 with one located line and no traceback, and peak memory well under the bound
docs/limits.md states (300 MB for any input). Big inputs are generated here, never committed.

The process is forked from this one (tests/forked.py: the interpreter's start-up is not paid
again for every input); a named pipe and a terminal on stdin are read by a real interpreter."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.forked import Run, satsudoku

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
PEAK_MB = 300  # the bound docs/limits.md states


def refused(run: Run, message: str) -> None:
    """Exit 1, nothing on stdout, exactly one line on stderr holding `message`."""
    assert run.code == 1, run.err
    assert run.out == ""
    assert "Traceback" not in run.err
    assert run.err.count("\n") == 1 and run.err.startswith("satsudoku: "), run.err
    assert message in run.err, run.err
    assert run.peak_mb < PEAK_MB, f"{run.peak_mb:.0f} MB"


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# -- sizes: lines, documents, numbers, nesting ----------------------------------------------------


def test_a_10_mb_line_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path / "long.txt", "." * 10_000_000 + "\n")
    run = satsudoku("solve", str(path))
    refused(run, f"{path}:1: line longer than 65,536 bytes")
    assert run.seconds < 5


def test_a_long_line_after_good_puzzles_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path / "late.txt", EASY + "\n" + "7" * 200_000 + "\n")
    run = satsudoku("solve", str(path))
    assert run.code == 1 and "Traceback" not in run.err
    assert run.out.startswith(EASY_SOLUTION + " unique")  # the good one was answered first
    assert f"{path}:2: line longer than" in run.err


def test_endless_bytes_on_stdin_stop_at_the_line_limit() -> None:
    """`/dev/zero` as standard input: no newline ever; refused after 64 kB, not grown."""
    with open("/dev/zero", "rb") as zero:
        run = satsudoku("solve", "-", stdin=zero.fileno())
    refused(run, "<stdin>:1: line longer than 65,536 bytes")


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("deep.json", "[" * 100_000, "FILE:1:65: JSON: nested deeper than 64 levels"),
        ("deepobj.json", '{"a":' * 5000 + "1" + "}" * 5000, "JSON: nested deeper than 64"),
        ("deep.toml", "a = " + "[" * 100_000, "FILE:1:69: TOML: nested deeper than 64 levels"),
        ("int.json", '{"size": ' + "9" * 5000 + "}", "FILE:1:10: JSON: a number of 5000 digits"),
        ("int.toml", "size = " + "9" * 5000, "FILE:1:8: TOML: a number of 5000 digits"),
        ("nan.json", '{"size": NaN}', "NaN is not a number"),
        ("list.json", "[" + ",".join(['[["."]]'] * 1_300_000) + "]", "over the 8 MiB limit"),
        ("givens.json", json.dumps({"givens": "." * 5_000_000}), "5,000,000 characters, more"),
        ("empties.json", "[" + "[]," * 1_500_000 + "[]]", "1,500,002 arrays and objects, more"),
        ("tallboard.json", json.dumps([["."]] * 100_000), "FILE:1:1: board 1: 100000 rows, more"),
        (
            "regions.json",
            json.dumps({"regions": ["a" * 200] * 200}),
            "the board would be 200x200, outside the supported 1..64",
        ),
        ("size.json", json.dumps({"size": 70}), "field 'size' must be an integer 1..64"),
        (
            "jigsaw70.txt",
            "." * 4900 + " " + "a" * 4900 + " -",
            "PUZZLE has 4900 characters, not n*n for a board of 4 <= n <= 64",
        ),
        (
            "killersum.txt",
            "AABBCCDDEEFFGGHH " + "3," * 7 + "9" * 5000 + " -",
            "SUMS: a number of 5000 digits",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 20 else "",
)
def test_oversized_and_overdeep_documents(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = write(tmp_path / name, text)
    options = ["--format", "jigsaw"] if "jigsaw" in name else []
    options += ["--format", "killer"] if "killer" in name else []
    refused(satsudoku("solve", str(path), *options), message.replace("FILE", str(path)))


def test_deep_nesting_on_stdin_is_refused_alike(tmp_path: Path) -> None:
    path = write(tmp_path / "deep.json", "[" * 100_000)
    refused(satsudoku("solve", "-", stdin=path), "<stdin>:1:65: JSON: nested deeper than 64")


# -- memory follows one puzzle, not the file ------------------------------------------------------


def test_back_to_back_grids_stream(tmp_path: Path) -> None:
    """Grids with no blank line between them: ten times the grids, the same memory (reading
    them whole took ~120x the file: 1,500 grids, 135 kB, would add ~16 MB; 300 and 3,000 grids
    took 2.2 s of CPU, these half that)."""
    rows = "\n".join(EASY[r * 9 : r * 9 + 9] for r in range(9)) + "\n"
    peaks = []
    for count in (150, 1500):
        path = write(tmp_path / f"grids{count}.txt", rows * count)
        run = satsudoku("convert", str(path), "--to", "line", timeout=60)
        assert run.code == 0, run.err
        assert run.out == (EASY + "\n") * count
        peaks.append(run.peak_mb)
    assert peaks[1] - peaks[0] < 8, peaks


def test_a_million_comment_lines_cost_no_memory(tmp_path: Path) -> None:
    path = write(tmp_path / "comments.txt", "# nothing to see\n" * 1_000_000 + EASY + "\n")
    run = satsudoku("solve", str(path))
    assert run.code == 0, run.err
    assert run.out == EASY_SOLUTION + " unique\n"
    assert run.peak_mb < 100, f"{run.peak_mb:.0f} MB"


# -- files that are not files ---------------------------------------------------------------------


def test_a_directory_and_a_device_are_refused(tmp_path: Path) -> None:
    refused(satsudoku("solve", str(tmp_path)), f"{tmp_path}: is a directory, not a puzzle file")
    refused(satsudoku("solve", "/dev/zero"), "/dev/zero: is a device, not a puzzle file")


def test_a_named_pipe_without_writer_is_announced_then_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "satsudoku", "solve", str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        text=True,
    )
    assert proc.stderr is not None
    notice = proc.stderr.readline()  # blocks until the notice: the reader is waiting
    assert notice == f"satsudoku: {fifo}: waiting for a writer on this named pipe\n"
    fifo.write_text(EASY + "\n")
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert out == EASY_SOLUTION + " unique\n"


def test_a_terminal_on_stdin_is_told_how_to_end() -> None:
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "satsudoku", "solve"],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            text=True,
        )
        assert proc.stderr is not None
        notice = proc.stderr.readline()
        assert notice == "satsudoku: reading puzzles from standard input (Ctrl-D to end)\n"
        os.write(leader, (EASY + "\n").encode() + b"\x04")  # a line, then Ctrl-D
        out, _ = proc.communicate(timeout=20)
    finally:
        os.close(leader)
        os.close(follower)
    assert proc.returncode == 0
    assert out == EASY_SOLUTION + " unique\n"


def test_invalid_utf8_reads_the_same_from_a_file_and_stdin(tmp_path: Path) -> None:
    path = write(tmp_path / "latin1.txt", ("# café\n" + EASY + "\n").encode("latin-1"))
    from_file = satsudoku("solve", str(path))
    from_stdin = satsudoku("solve", "-", stdin=path)
    refused(from_file, f"{path}:1:6: not UTF-8 text (byte 0xe9: invalid continuation byte)")
    assert from_stdin.err == from_file.err.replace(str(path), "<stdin>")


# -- documents that contradict themselves ---------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"givens": EASY, "symbols": ""}, "field 'symbols': give at least one"),
        (
            {"givens": EASY, "solution": EASY_SOLUTION[:-2] + "28"},
            "field 'solution' does not solve the puzzle: house r1c8..r9c8 repeats a digit",
        ),
        (
            {"givens": "1" + EASY[1:], "solution": EASY_SOLUTION},
            "field 'solution' does not solve the puzzle: r1c1 is 4 but the given is 1",
        ),
        (
            {"givens": "." * 16, "box": [2, 2], "regions": ["abab", "abab", "cdcd", "cdcd"]},
            "fields 'box' [2, 2] and 'regions' disagree",
        ),
        ({"givens": "." * 80}, "field 'givens' has 80 cells, not n²"),
        (
            {"size": 6, "givens": "1234"},
            "field 'givens': expected 36 cells for the 6x6 board, found 4",
        ),
    ],
    ids=["symbols", "solution-rules", "solution-givens", "box-regions", "givens-80", "size-6"],
)
def test_contradictions_are_named(tmp_path: Path, doc: dict[str, object], message: str) -> None:
    path = write(tmp_path / "doc.json", json.dumps(doc))
    refused(satsudoku("solve", str(path)), message)


def test_a_plus_sign_is_no_digit(tmp_path: Path) -> None:
    """'+4' in a grid row: the '+' is a symbol (it was dropped as if a border, reading 4)."""
    rows = [EASY[r * 9 : r * 9 + 9] for r in range(9)]
    rows[0] = "+4" + rows[0][2:]
    path = write(tmp_path / "plus.txt", "\n".join(rows) + "\n")
    refused(satsudoku("solve", str(path)), f"{path}:1:1: unknown symbol '+' at r1c1")


def test_a_jigsaw_line_read_as_classic_is_warned_about_once(tmp_path: Path) -> None:
    line = (
        "8...........1.....2.....4.6.....8..5...62..18.3...4.2....5..1.7..2.........8...9. "
        "999998888555998888555998333555111333222111333222111444222766444777766444777766666"
    )
    path = write(tmp_path / "jigsaw.txt", f"{line} -\n{line} -\n")
    run = satsudoku("solve", str(path), "--limit", "1")
    assert run.code == 0 and run.out.count("\n") == 2
    assert run.err.count("\n") == 1
    assert f"satsudoku: warning: {path}:1: the text after the puzzle looks like jigsaw" in run.err
    assert "--format jigsaw" in run.err
    quiet = satsudoku("solve", str(path), "--format", "jigsaw")
    assert quiet.code == 0 and quiet.err == ""
    assert quiet.out.count(" unique\n") == 2
