"""The fast backend's command-line path on plain classic lines: kernel calls paced by time,
lines read across reads, the compiled verifier on every box shape, and answers written as
bytes that say what the text layer would, wherever standard output goes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the fast backend needs numba: pip install 'satsudoku[fast]'")

import numpy as np  # noqa: E402

from satsudoku.backends import fast_lines  # noqa: E402
from satsudoku.cli import main  # noqa: E402
from satsudoku.grid import Grid, Shape  # noqa: E402
from satsudoku.io.classic_lines import INDEX, LITERAL, ClassicRun, Template  # noqa: E402
from satsudoku.puzzle import Puzzle  # noqa: E402
from satsudoku.verify import violations  # noqa: E402
from satsudoku.verify_compiled import first_bad  # noqa: E402
from tests import forked  # noqa: E402
from tests.conftest import REPO  # noqa: E402
from tests.test_cli_stream import LINES, _fast_and_general, _untimed_text  # noqa: E402


def _verdicts(count: int, seconds: float) -> fast_lines.Verdicts:
    none = np.zeros(count, dtype=np.int64)
    grids = np.zeros((count, 2, 81), dtype=np.uint8)
    return fast_lines.Verdicts(grids, none, none, none, none == 0, seconds, count, None)


def test_calls_start_small_then_take_about_a_pace_each() -> None:
    pace = fast_lines.Pace(2)
    assert pace() == fast_lines.FIRST_CALL == 16 and pace.most == (1 << 20) // 162 == 6472
    pace.took(_verdicts(16, 16e-6))  # 1 µs a puzzle: 100,000 would fit; at most 4x the last
    assert pace() == 64
    for _ in range(5):
        pace.took(_verdicts(pace(), pace() * 1e-6))
    assert pace() == 6472  # no more than MOST_CELLS of grids
    pace.took(_verdicts(6472, 6472 / 1024))  # ~1 ms a puzzle: 102 take the pace's 0.1 s
    assert pace() == 102
    pace.took(_verdicts(100, 100 * 1.0))  # one puzzle is already past the pace
    assert pace() == 1
    assert fast_lines.Pace(404).most == 32  # 404 solutions asked: 32 puzzles hold 1 MB


def test_paced_batches_cover_every_line_in_order_across_reads(tmp_path: Path) -> None:
    """Sizes asked before each batch are kept (a read's end cuts one short); 13,000 lines of
    which the 1 MiB read ends with a line cut between its `\\r` and its `\\n`."""
    # 19 empty lines, 12,632 whole ones, then the 12,633rd puzzle's `\r` ends the first read
    # and its `\n` begins the next.
    assert 19 * 2 + 83 * 12_632 + 82 == 1 << 20
    lines = [LINES[k % len(LINES)] for k in range(13_000)]
    path = tmp_path / "crlf.txt"
    path.write_bytes(("\r\n" * 19 + "\r\n".join(lines) + "\r\n").encode())
    asked = iter([5, 1, 12_000, 1000, 7, *[10_000] * 5])
    with path.open("rb") as raw:
        run = ClassicRun(raw)
        batches = list(run.batches(lambda: next(asked)))
    assert not run.stopped
    assert [len(b.linenos) for b in batches] == [5, 1, 12_000, 626, 7, 361]
    assert [int(n) for b in batches for n in b.linenos] == list(range(20, 13_020))
    assert [b.text(k) for b in batches for k in range(len(b.linenos))] == lines


def test_plain_lines_over_many_paced_calls_answer_as_the_general_path_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """500 puzzles, so calls of 16, 64, ... puzzles: indexes and line numbers run on."""
    path = tmp_path / "many.txt"
    path.write_text("\n".join(LINES[k % len(LINES)] for k in range(500)) + "\n")
    calls: list[int] = []
    solve_classic = fast_lines.solve_classic

    def counted(givens: np.typing.NDArray[np.uint8], limit: int) -> fast_lines.Verdicts:
        calls.append(len(givens))
        return solve_classic(givens, limit)

    monkeypatch.setattr(fast_lines, "solve_classic", counted)
    # Calls sized by time alone: at load 4+ a slow first call made the second 56, not 64.
    monkeypatch.setattr(fast_lines, "PACE", 1e9)
    argv = ["solve", str(path), "--backend", "fast", "--json"]
    fast, general, taken = _fast_and_general(argv, capsys, monkeypatch)
    assert taken == [(500, True)] and fast == general and fast[0] == 0
    assert calls[:3] == [16, 64, 256] and sum(calls) == 500
    assert '"index": 499, ' in fast[1][-1] and fast[1][-1].endswith(f'"{path}:500"}}')


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 3), Shape(3, 2), Shape(2, 2)])
def test_the_compiled_verifier_reads_boxes_of_every_shape(shape: Shape) -> None:
    """A grid whose rows and columns hold every digit, its boxes too or not: the compiled check
    refuses exactly the grids `violations` refuses."""
    n, rows = shape.size, shape.box_rows
    # Rows in band order: row r starts at (r % rows) * box_cols + r // rows, so each band's rows
    # shift through whole boxes: a sudoku. A plain cyclic Latin square breaks the boxes.
    start = [(r % rows) * shape.box_cols + r // rows for r in range(n)]
    sudoku = [(start[r] + c) % n + 1 for r in range(n) for c in range(n)]
    latin = [(r + c) % n + 1 for r in range(n) for c in range(n)]
    puzzle = Puzzle.empty(shape)
    grids = np.array([sudoku, latin], dtype=np.uint8)[:, None, :]
    givens = np.zeros((2, n * n), dtype=np.uint8)
    bad = first_bad(givens, grids, np.ones(2, dtype=np.int64), shape.box_rows, shape.box_cols)
    truth = [bool(violations(puzzle, Grid(n, tuple(grid)))) for grid in (sudoku, latin)]
    assert truth == [False, True] and [bool(b) for b in bad] == truth


def test_a_template_buffer_is_reused_and_its_bytes_kept() -> None:
    template = Template([[(LITERAL, "answer "), (INDEX, 0)]])
    one, two = np.zeros(1, np.int64), np.zeros(2, np.int64)
    grids = np.zeros((2, 1, 81), np.uint8)
    first, _ = template.write("0", 7, np.array([0]), one, one, one, grids[:1])
    view, ends = template.write_view("0", 12345, np.array([0, 0]), two, two, two, grids)
    assert first == b"answer 7\n" and bytes(view) == b"answer 12345\nanswer 12346\n"
    assert ends.tolist() == [13, 26]


def _command(*argv: str, **options: object) -> subprocess.CompletedProcess[bytes]:
    """The real command in a fresh interpreter, its output as bytes."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **options}
    command = [sys.executable, "-m", "satsudoku", *argv]
    return subprocess.run(command, cwd=REPO, check=False, **streams)  # type: ignore[call-overload, no-any-return]


def test_answers_reach_a_non_ascii_encoding_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Standard output in UTF-16: the batches go through the text layer, not as raw bytes."""
    path = tmp_path / "p.txt"
    path.write_text("\n".join(LINES[:20]) + "\n")
    argv = ("solve", str(path), "--backend", "fast", "--json")
    wide = _command(*argv, env={**os.environ, "PYTHONIOENCODING": "utf-16"})
    assert main(list(argv)) == wide.returncode == 0  # in-process: UTF-8, the bytes path
    text = wide.stdout.decode("utf-16")
    assert _untimed_text(text) == _untimed_text(capsys.readouterr().out)
    assert len(text.splitlines()) == 20


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_plain_lines_into_a_full_stdout_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("\n".join(LINES) + "\n")
    with open("/dev/full", "wb") as full:  # a fork of this process: no start-up to pay
        done = forked.satsudoku(
            "solve", str(path), "--backend", "fast", "--json", stdout=full.fileno()
        )
    assert done.code == 1 and "Traceback" not in done.err
    assert done.err.endswith("satsudoku: cannot write standard output: No space left on device\n")


def test_a_reader_that_leaves_early_ends_the_fast_path_quietly(tmp_path: Path) -> None:
    """`solve big.txt --backend fast | head -1`: SIGPIPE's status (128 + 13), nothing said."""
    path = tmp_path / "big.txt"
    path.write_text("\n".join(LINES[k % len(LINES)] for k in range(20_000)) + "\n")
    with subprocess.Popen(
        [sys.executable, "-m", "satsudoku", "solve", str(path), "--backend", "fast", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    ) as child:
        assert child.stdout is not None and child.stderr is not None
        first = child.stdout.readline()
        child.stdout.close()
        err = child.stderr.read().decode()
    assert first.startswith(b'{"index": 0, "status": "unique"')
    err = "".join(line for line in err.splitlines(True) if "compiled the fast" not in line)
    assert err == "" and child.returncode == 128 + signal.SIGPIPE
