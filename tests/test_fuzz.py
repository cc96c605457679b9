"""Property-based fuzzing of the readers (Hypothesis, derandomized so CI repeats itself).

Whatever the bytes, reading either yields puzzles or raises one PuzzleError, in every format;
puzzles written by our writers read back as the same board; and a handful of mutated inputs
go through a real `python -m satsudoku solve` process: exit 0 or 1, never a traceback.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satsudoku.commands.convert import toml_document
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape, regular_shape
from satsudoku.io import (
    FORMATS,
    format_board,
    format_grid,
    format_line,
    iter_puzzles,
    puzzle_document,
)
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet
from tests import forked
from tests.conftest import REPO

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_ROWS = [EASY[r * 9 : r * 9 + 9] for r in range(9)]
JIGSAW = (
    "8...........1.....2.....4.6.....8..5...62..18.3...4.2....5..1.7..2.........8...9. "
    "999998888555998888555998333555111333222111333222111444222766444777766444777766666 -"
)
MODELS = sorted([*(REPO / "models").glob("**/*.json"), *(REPO / "models").glob("**/*.toml")])
# One valid input per reader: mutations of these reach deep into each parser.
SEEDS = [
    EASY,
    "\n".join(EASY_ROWS),
    "+-------+\n" + "\n".join(" | ".join([row[:3], row[3:6], row[6:]]) for row in EASY_ROWS),
    "\n".join(" ".join("0" if ch == "." else ch for ch in row) for row in EASY_ROWS),
    json.dumps([list(row) for row in EASY_ROWS]),
    json.dumps(
        {"givens": EASY, "rules": [{"type": "killer", "cages": [{"cells": ["r1c1"], "sum": 4}]}]}
    ),
    'size = 4\nbox = [2, 2]\ngivens = ["1...", "....", "....", "...4"]\n',
    "AABBCCDDEEFFGGHH 3,7,7,3,3,7,7,3 -",
    JIGSAW,
    "# a comment\n\nGrid 01\n" + "\n".join(EASY_ROWS) + "\n\n" + EASY + " 4.5\n",
    *(path.read_text() for path in MODELS[::3]),  # every third model: rules of many kinds
]
# 40 examples a property by default (~0.8 s of CPU for both); 120 under -m slow (~2.4 s).
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
MORE = settings(SETTINGS, max_examples=120)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A seed with a few bytes inserted, deleted or replaced, or plain random bytes."""
    if draw(st.booleans()) and draw(st.booleans()):
        return draw(st.binary(max_size=400))
    data = bytearray(draw(st.sampled_from(SEEDS)).encode())
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        edit = draw(st.sampled_from(["insert", "delete", "replace"]))
        chunk = draw(st.sampled_from([b"[", b"{", b'"', b"\n", b" ", b"9", b"+", b"\xff"]))
        chunk = draw(st.one_of(st.just(chunk), st.binary(min_size=1, max_size=4)))
        if edit == "insert":
            data[at:at] = chunk
        elif edit == "delete":
            del data[at : at + len(chunk)]
        else:
            data[at : at + len(chunk)] = chunk
    return bytes(data)


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


def read_all(path: Path, fmt: str) -> list[Puzzle]:
    """Every puzzle, or the PuzzleError; warnings are collected, not raised."""
    notices: list[str] = []
    return list(iter_puzzles(path, fmt=fmt, notify=notices.append))


@SETTINGS
@given(data=mutated(), fmt=st.sampled_from(FORMATS))
def test_any_bytes_read_as_puzzles_or_one_puzzle_error(
    scratch: Path, data: bytes, fmt: str
) -> None:
    _read_as_puzzles_or_one_puzzle_error(scratch, data, fmt)


@pytest.mark.slow
@MORE
@given(data=mutated(), fmt=st.sampled_from(FORMATS))
def test_more_bytes_read_as_puzzles_or_one_puzzle_error(
    scratch: Path, data: bytes, fmt: str
) -> None:
    _read_as_puzzles_or_one_puzzle_error(scratch, data, fmt)


def _read_as_puzzles_or_one_puzzle_error(scratch: Path, data: bytes, fmt: str) -> None:
    path = scratch / "input.txt"
    path.write_bytes(data)
    try:
        puzzles = read_all(path, fmt)
    except PuzzleError as exc:
        assert "\n" not in exc.located(), exc.located()
        return
    for puzzle in puzzles:
        assert 1 <= puzzle.size <= 64
        assert len(puzzle.givens.values) == puzzle.size**2


SHAPES = [regular_shape(2, 2), regular_shape(2, 3), regular_shape(3, 3), regular_shape(4, 4)]


@st.composite
def boards(draw: st.DrawFn) -> tuple[Shape, Grid]:
    """A board of a common shape with any digits (readers do not judge them) and blanks."""
    shape = draw(st.sampled_from(SHAPES))
    n = shape.size
    values = draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    return shape, Grid(n, tuple(values))


LAYOUTS = st.sampled_from(["line", "grid", "leetcode", "json", "toml"])


@SETTINGS
@given(board=boards(), layout=LAYOUTS)
def test_written_puzzles_read_back_the_same(
    scratch: Path, board: tuple[Shape, Grid], layout: str
) -> None:
    _reads_back_the_same(scratch, board, layout)


@pytest.mark.slow
@MORE
@given(board=boards(), layout=LAYOUTS)
def test_more_written_puzzles_read_back_the_same(
    scratch: Path, board: tuple[Shape, Grid], layout: str
) -> None:
    _reads_back_the_same(scratch, board, layout)


def _reads_back_the_same(scratch: Path, board: tuple[Shape, Grid], layout: str) -> None:
    shape, grid = board
    alphabet = Alphabet.default(shape.size)
    puzzle = Puzzle(shape, grid, alphabet=alphabet)
    text = {
        "line": lambda: format_line(grid, alphabet),
        "grid": lambda: format_grid(grid, shape, alphabet),
        "leetcode": lambda: format_board(grid, alphabet),
        "json": lambda: json.dumps(puzzle_document(puzzle)),
        "toml": lambda: toml_document(puzzle_document(puzzle)),
    }[layout]()
    path = scratch / f"board.{layout}"
    path.write_text(text + "\n", encoding="utf-8")
    fmt = layout if layout in ("line", "grid") else "auto"  # 4x4 lines vs 16x16 grid rows
    (again,) = read_all(path, fmt)
    assert again.shape == shape
    assert again.givens == grid


@settings(max_examples=6, deadline=None, derandomize=True, database=None)
@given(data=mutated())
def test_the_command_never_shows_a_traceback(scratch: Path, data: bytes) -> None:
    path = scratch / "cli-input.txt"
    path.write_bytes(data)
    done = forked.satsudoku("solve", str(path), "--timeout", "2", timeout=60)
    assert done.code in (0, 1), done.err
    assert "Traceback" not in done.err
    assert all(line.startswith("satsudoku: ") for line in done.err.splitlines())
