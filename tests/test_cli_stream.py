"""The fast paths of `solve`: batched answers say what one-by-one answers say, the answers
known before a bad puzzle still go out, and lines are written symbol for symbol."""

from __future__ import annotations

import argparse
import json
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
    code = main(argv)
    out, err = capsys.readouterr()
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
