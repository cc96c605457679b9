"""The fast paths of `solve`: batched answers say what one-by-one answers say, the answers
known before a bad puzzle still go out, and lines are written symbol for symbol."""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import build_parser, main
from satsudoku.commands import solve
from satsudoku.grid import Grid
from satsudoku.io import read_puzzles
from satsudoku.io.writers import format_line, format_rows
from satsudoku.symbols import Alphabet

DATA = Path(__file__).parent / "data"
LINES = (DATA / "17clue.txt").read_text().splitlines()


def _solve(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout, stderr; less the one-time notice of the fast kernel's compilation,
    which the first fast run on a fresh machine prints, whichever test that is."""
    code = main(argv)
    out, err = capsys.readouterr()
    lines = err.splitlines(keepends=True)
    err = "".join(line for line in lines if "compiled the fast backend's kernel" not in line)
    return code, out, err


def test_batched_answers_equal_answers_one_by_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """150 puzzles (more than two batches): the same JSON lines, in the same order."""
    path = tmp_path / "many.txt"
    path.write_text("\n".join(LINES * 5) + "\n")
    argv = ["solve", str(path), "--json", "--backend", "bitmask"]
    assert solve._may_batch(solve_args(argv))  # a regular file, stdout captured
    code, batched, _ = _solve(argv, capsys)
    monkeypatch.setattr(solve, "_may_batch", lambda args: False)
    records = _untimed(batched)
    assert code == 0 and records == _untimed(_solve(argv, capsys)[1])
    assert [r["index"] for r in records] == list(range(150))
    assert {r["status"] for r in records} == {"unique"}


def solve_args(argv: list[str]) -> argparse.Namespace:
    return build_parser("solve").parse_args(argv)


def _untimed(out: str) -> list[dict[str, Any]]:
    """The JSON lines without their times, which differ from run to run."""
    records = [json.loads(line) for line in out.splitlines()]
    for record in records:
        del record["time_s"], record["stats"]["time_s"]
    return records


def test_answers_read_before_a_bad_puzzle_are_written_before_its_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("\n".join([*LINES[:3], "12345", LINES[3]]) + "\n")
    code, out, err = _solve(["solve", str(path)], capsys)
    assert code == 1 and f"{path}:4" in err
    assert [line.split()[1] for line in out.splitlines()] == ["unique"] * 3


def test_cli_json_equals_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each line's solution is the backend's verified grid, written symbol for symbol."""
    path = tmp_path / "p.txt"
    path.write_text("\n".join(LINES) + "\n")
    _, out, _ = _solve(["solve", str(path), "--json", "--backend", "bitmask"], capsys)
    backend = get_backend("bitmask")
    expected = [backend.solve(p).solutions[0] for p in read_puzzles(path)]
    written = [json.loads(line)["solution"] for line in out.splitlines()]
    assert written == ["".join(str(v) for v in grid.values) for grid in expected]


@pytest.mark.parametrize(
    ("alphabet", "size"),
    [
        (Alphabet.default(9), 9),
        (Alphabet.default(16), 16),
        (Alphabet.letters(16), 16),
        (Alphabet.custom("αβγδ"), 4),  # not Latin-1: the per-cell path
        (Alphabet.numeric(16), 16),
    ],
)
def test_lines_and_rows_are_written_symbol_for_symbol(alphabet: Alphabet, size: int) -> None:
    values = tuple((3 * k) % (size + 1) for k in range(size * size))  # blanks among them
    grid = Grid(size, values)
    separator = " " if alphabet.is_numeric else ""
    cells = [alphabet.symbol(v, alphabet.blank) for v in values]
    assert format_line(grid, alphabet) == separator.join(cells)
    rows = [separator.join(cells[r * size : (r + 1) * size]) for r in range(size)]
    assert format_rows(grid, alphabet) == "\n".join(rows)


def test_a_digit_past_the_alphabet_is_refused_not_miswritten() -> None:
    with pytest.raises(ValueError, match="digit 10 has no symbol"):
        format_line(Grid(9, (10,) + (1,) * 80), Alphabet.default(9))


# -- the array path of --backend fast on plain classic lines ---------------------------------

needs_fast = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="the fast backend needs numba"
)
EMPTY = "." * 81  # two solutions are found at once: multiple
CLASH = "11" + "0" * 79  # two 1s in row 1: unsatisfiable, with `0` for blanks


def _untimed_text(out: str) -> list[str]:
    """The output's lines as written, times (and compile_s) blanked out."""
    out = re.sub(r', "compile_s": [0-9.e-]+', "", out)
    return re.sub(r'"time_s": [0-9.e-]+', '"time_s": 0', out).splitlines()


def _fast_and_general(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[tuple[int, list[str], str], tuple[int, list[str], str], list[tuple[int, bool]]]:
    """`solve ARGV` on the array path and on the general path: (exit, answers, stderr) each,
    and what the array path returned (puzzles answered, whether that was the whole file)."""
    taken: list[tuple[int, bool]] = []
    plain = solve._solve_plain_lines

    def spy(*args: Any) -> tuple[int, bool]:
        taken.append(plain(*args))
        return taken[-1]

    monkeypatch.setattr(solve, "_solve_plain_lines", spy)
    code, out, err = _solve(argv, capsys)
    fast = (code, _untimed_text(out), err)
    monkeypatch.setattr(solve, "_plain_lines_apply", lambda args, backend: False)
    code, out, err = _solve(argv, capsys)
    monkeypatch.undo()
    return fast, (code, _untimed_text(out), err), taken


@needs_fast
@pytest.mark.parametrize(
    "options",
    [["--json"], ["--json", "--limit", "1"], ["--json", "--limit", "3"], [], ["--format", "line"]],
)
def test_plain_lines_answer_as_the_general_path_does(
    options: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unique, multiple and unsatisfiable, `.` and `0` blanks, CRLF, empty lines, no final
    newline: the same answers, line numbers and indexes, with the file read in one pass."""
    path = tmp_path / "plain.txt"
    lines = [*LINES[:12], EMPTY, CLASH, LINES[12].replace(".", "0")]
    body = "\n".join(lines[:5]) + "\r\n\n" + "\r\n".join(lines[5:10]) + "\n\n\n"
    path.write_text(body + "\n".join(lines[10:]), newline="")
    fast, general, taken = _fast_and_general(
        ["solve", str(path), "--backend", "fast", *options], capsys, monkeypatch
    )
    assert taken == [(15, True)] and fast == general and fast[0] == 0
    if options[:1] == ["--json"]:
        records = [json.loads(line) for line in fast[1]]
        statuses = [record["status"] for record in records]
        one = "1" in options  # one solution asked for: found, not proved unique
        last, many = ("solved", "solved") if one else ("unique", "multiple")
        assert statuses == [last] * 12 + [many, "unsatisfiable", last]
        assert [record["source"].rsplit(":")[-1] for record in records][4:7] == ["5", "7", "8"]


@needs_fast
@pytest.mark.parametrize(
    "other",
    [
        "# a comment",
        "puzzle 2",  # a title line
        LINES[0] + " 4.5",  # a trailer
        "\n".join(LINES[0][r * 9 : r * 9 + 9] for r in range(9)) + "\n",  # a grid
        "12345",  # a bad line: the same answers before the same error
        "1" * 81,  # 81 symbols, not a puzzle the verifier would pass: unsatisfiable
        LINES[1][:80] + "x",
    ],
)
def test_the_general_reader_takes_over_where_plain_lines_end(
    other: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join([*LINES[:4], other, *LINES[4:7]]) + "\n")
    fast, general, taken = _fast_and_general(
        ["solve", str(path), "--backend", "fast", "--json"], capsys, monkeypatch
    )
    assert fast == general
    plain_first = other == "1" * 81
    assert taken == [(8, True)] if plain_first else taken == [(4, False)]
    if other in ("12345", LINES[1][:80] + "x"):
        assert fast[0] == 1 and len(fast[1]) == 4 and f"{path}:5" in fast[2]


@needs_fast
def test_puzzles_over_the_node_slice_are_finished_with_the_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a one-node slice every puzzle that branches goes to FastBackend.solve."""
    from satsudoku.backends import fast_lines

    path = tmp_path / "hard.txt"
    path.write_text("\n".join([*LINES[:6], EMPTY, CLASH]) + "\n")
    monkeypatch.setattr(fast_lines, "BUDGET", 1)
    solved: list[int] = []
    monkeypatch.setattr(solve, "_answer", _recording(solve._answer, solved))
    argv = ["solve", str(path), "--backend", "fast", "--json", "--timeout", "5"]
    code, out, _ = _solve(argv, capsys)
    assert 0 < len(solved) < 8  # some puzzles needed more than one node, some did not
    monkeypatch.setattr(fast_lines, "BUDGET", 1 << 30)
    monkeypatch.setattr(solve, "_plain_lines_apply", lambda args, backend: False)
    assert code == 0 and _untimed_text(out) == _untimed_text(_solve(argv, capsys)[1])


def _recording(answer: Any, calls: list[int]) -> Any:
    def wrapped(args: argparse.Namespace, index: int, *rest: Any) -> str:
        calls.append(index)
        return str(answer(args, index, *rest))

    return wrapped


class _Forging:
    """The fast kernel, but puzzle `victim`'s first grid is spoiled by `spoil`."""

    def __init__(self, victim: int, spoil: Any) -> None:
        from satsudoku.backends import fast_kernel

        self.real, self.victim, self.spoil = fast_kernel, victim, spoil

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def solve_batch(self, *args: Any) -> None:
        self.real.solve_batch(*args)
        sols, found = args[-3], args[-2]
        self.spoil(sols[self.victim], found, self.victim)


def _swap_two_cells(grids: Any, found: Any, victim: int) -> None:
    grids[0, 0], grids[0, 1] = grids[0, 1], grids[0, 0]  # r1 still holds 1..9: a column breaks


def _twice(grids: Any, found: Any, victim: int) -> None:
    grids[1] = grids[0]
    found[victim] = 2


@needs_fast
@pytest.mark.parametrize(
    ("spoil", "complaint"),
    [
        (_swap_two_cells, "returned a grid that house r1c1..r9c1 repeats a digit"),
        (_twice, "returned the same solution twice"),
    ],
)
def test_a_forged_grid_exits_3_after_the_answers_before_it(
    spoil: Any,
    complaint: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from satsudoku.backends import fast_lines

    path = tmp_path / "p.txt"
    path.write_text("\n".join(LINES[:6]) + "\n")
    monkeypatch.setattr(fast_lines, "kernel", _Forging(3, spoil))
    code, out, err = _solve(["solve", str(path), "--backend", "fast", "--json"], capsys)
    assert code == 3 and f"backend 'fast' {complaint}" in err and "Traceback" not in err
    assert [json.loads(line)["index"] for line in out.splitlines()] == [0, 1, 2]


@needs_fast
def test_plain_lines_across_read_chunks_keep_their_numbers(tmp_path: Path) -> None:
    """13,000 lines (1.07 MB): lines cut by the 1 MiB read are joined, numbered as read."""
    from satsudoku.io.classic_lines import ClassicRun

    lines = [LINES[k % len(LINES)] for k in range(13_000)]
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n")
    with path.open("rb") as raw:
        run = ClassicRun(raw)
        batches = list(run.batches(5000))
    # 1 MiB holds 12,787 lines and a piece of line 12,788: batches are cut per read
    assert not run.stopped and [len(b.linenos) for b in batches] == [5000, 5000, 2787, 213]
    numbers = [int(n) for b in batches for n in b.linenos]
    texts = [b.text(k) for b in batches for k in range(len(b.linenos))]
    assert numbers == list(range(1, 13_001)) and texts == lines
    givens = [bytes(row).decode() for b in batches for row in b.givens + ord("0")]
    assert givens == [line.replace(".", "0") for line in lines]


@needs_fast
def test_a_template_writes_numbers_grids_and_times_as_python_does() -> None:
    import numpy as np

    from satsudoku.io.classic_lines import GRID, INDEX, LINENO, LITERAL, NODES, SECONDS, Template

    template = Template([[(LITERAL, "x"), (INDEX, 0)], [(NODES, 0), (LINENO, 0), (SECONDS, 0)]])
    template_grid = Template([[(GRID, 1), (LITERAL, "é")]])  # UTF-8 literals are bytes too
    numbers = np.array([0, 9, 10, 123_456_789_012, 2**62], dtype=np.int64)
    data, ends = template.write(
        "1e-05",
        99,
        np.array([0, 1, -1, 1, 1]),
        numbers,
        numbers,
        numbers,
        np.zeros((5, 1, 81), np.uint8),
    )
    lines = [
        "x99\n",
        "991e-05\n",
        "",
        "1234567890121234567890121e-05\n",
        f"{2**62}" * 2 + "1e-05\n",
    ]
    assert data.decode() == "".join(lines)  # the third puzzle (kind -1) has no answer
    assert ends.tolist() == [sum(map(len, lines[: k + 1])) for k in range(5)]
    sols = np.arange(2 * 81, dtype=np.uint8).reshape(1, 2, 81) % 9 + 1
    grid, _ = template_grid.write("0", 0, np.array([0]), numbers, numbers, numbers, sols)
    assert grid.decode() == "".join(str(d) for d in sols[0, 1]) + "é\n"


@needs_fast
def test_a_file_name_needing_escapes_is_written_as_json_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / 'q"uo\\te é\t.txt'
    path.write_text("\n".join(LINES[:2]) + "\n")
    fast, general, taken = _fast_and_general(
        ["solve", str(path), "--backend", "fast", "--json"], capsys, monkeypatch
    )
    assert taken == [(2, True)] and fast == general
    assert [json.loads(line)["source"] for line in fast[1]] == [f"{path}:1", f"{path}:2"]
