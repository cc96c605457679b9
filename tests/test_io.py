"""Every input format of FORMATS.md §1–2, detection, round trips and located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import (
    format_board,
    format_document,
    format_grid,
    format_line,
    read_puzzles,
    read_text,
)
from satsudoku.rules.classic import Diagonal
from tests.conftest import BUNDLED, grid_from_line

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_GRID = grid_from_line(EASY)
LEETCODE = [
    ["5", "3", ".", ".", "7", ".", ".", ".", "."],
    ["6", ".", ".", "1", "9", "5", ".", ".", "."],
    [".", "9", "8", ".", ".", ".", ".", "6", "."],
    ["8", ".", ".", ".", "6", ".", ".", ".", "3"],
    ["4", ".", ".", "8", ".", "3", ".", ".", "1"],
    ["7", ".", ".", ".", "2", ".", ".", ".", "6"],
    [".", "6", ".", ".", ".", ".", "2", "8", "."],
    [".", ".", ".", "4", "1", "9", ".", ".", "5"],
    [".", ".", ".", ".", "8", ".", ".", "7", "9"],
]


def only(text: str, **kwargs: object) -> Grid:
    puzzles = read_text(text, **kwargs)  # type: ignore[arg-type]
    assert len(puzzles) == 1
    return puzzles[0].givens


@pytest.mark.parametrize("blank", [".", "0", "-", "_", "*"])
def test_line_format_accepts_every_blank(blank: str) -> None:
    assert only(EASY.replace(".", blank)) == EASY_GRID


@pytest.mark.parametrize("trailer", ["  2.5", " # rated 7.2", ":1", "\t9.1 extra words", ",3.0"])
def test_trailing_ratings_and_notes_are_ignored(trailer: str) -> None:
    assert only(EASY + trailer) == EASY_GRID


def test_pretty_grid_with_box_borders() -> None:
    text = format_grid(EASY_GRID, Shape(3, 3), read_text(EASY)[0].symbols)
    assert "------+-------+------" in text
    puzzle = read_text(text)[0]
    assert puzzle.givens == EASY_GRID and puzzle.layout == "grid"


def test_judge_rows_with_zero_blanks() -> None:
    rows = [EASY[r * 9 : r * 9 + 9].replace(".", "0") for r in range(9)]
    spaced = "\n".join(" ".join(row) for row in rows)
    assert spaced.splitlines()[0] == "0 0 3 0 2 0 6 0 0"
    assert only(spaced) == EASY_GRID
    assert only("\n".join(rows)) == EASY_GRID  # '003020600' rows


def test_project_euler_file_with_titles_holds_many_grids() -> None:
    rows = [EASY[r * 9 : r * 9 + 9].replace(".", "0") for r in range(9)]
    text = "Grid 01\n" + "\n".join(rows) + "\nGrid 02\n" + "\n".join(rows) + "\n"
    puzzles = read_text(text)
    assert [p.givens for p in puzzles] == [EASY_GRID, EASY_GRID]


def test_16x16_letters_with_dash_blanks() -> None:
    line = (BUNDLED / "16x16-acwing169-sample.txt").read_text().strip()
    rows = [line[r * 16 : r * 16 + 16].replace(".", "-") for r in range(16)]
    puzzle = read_text("\n".join(rows))[0]
    assert puzzle.size == 16 and puzzle.symbols.symbols == "ABCDEFGHIJKLMNOP"
    assert puzzle.givens == grid_from_line(line)
    assert format_line(puzzle.givens, puzzle.symbols) == line


def test_16x16_numeric_tokens() -> None:
    grid = grid_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text())
    text = "\n".join(" ".join(str(v) for v in row) for row in grid.rows())
    assert "12" in text or "16" in text
    assert only(text) == grid


def test_16x16_default_symbols_1_to_G() -> None:
    grid = grid_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text())
    symbols = "123456789ABCDEFG"
    line = "".join(symbols[v - 1] if v else "." for v in grid.values)
    puzzle = read_text(line)[0]
    assert puzzle.givens == grid and puzzle.symbols.symbols == symbols


def test_custom_symbols() -> None:
    grid = grid_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text())
    symbols = "0123456789ABCDEF"
    line = "".join(symbols[v - 1] if v else "." for v in grid.values)
    assert only(line, symbols=symbols) == grid


def test_leetcode_board_and_its_writer() -> None:
    puzzle = read_text(json.dumps(LEETCODE))[0]
    assert puzzle.layout == "leetcode" and puzzle.givens[(0, 0)] == 5
    assert json.loads(format_board(puzzle.givens, puzzle.symbols)) == LEETCODE


def test_many_line_puzzles_in_one_file(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text("# a comment\n" + EASY + "\n\n" + EASY.replace(".", "0") + " 3.4\n")
    puzzles = read_puzzles(path)
    assert [p.givens for p in puzzles] == [EASY_GRID, EASY_GRID]
    assert puzzles[1].origin == f"{path}:4"


@pytest.mark.parametrize(("size", "box"), [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (12, (3, 4))])
def test_small_and_rectangular_sizes(size: int, box: tuple[int, int]) -> None:
    puzzle = read_text("." * size * size, fmt="line")[0]
    assert (puzzle.shape.box_rows, puzzle.shape.box_cols) == box
    forced = read_text("." * size * size, fmt="line", box=(box[1], box[0]))[0]
    assert (forced.shape.box_rows, forced.shape.box_cols) == (box[1], box[0])


def test_json_document_with_rules_and_solution() -> None:
    solution = "612879345437516892589324617923751486851643279764298153298167534176435928345982761"
    doc = {
        "title": "X",
        "givens": (BUNDLED / "x-sudoku-sample.txt").read_text().split()[0],
        "rules": [{"type": "diagonal"}],
        "solution": solution,
    }
    puzzle = read_text(json.dumps(doc))[0]
    assert puzzle.rules == (Diagonal(),) and puzzle.solution == grid_from_line(solution)
    again = read_text(format_document(puzzle))[0]
    assert again == puzzle


def test_toml_document_with_row_list_and_jigsaw_regions(tmp_path: Path) -> None:
    path = tmp_path / "jigsaw.toml"
    path.write_text(
        'title = "tiny jigsaw"\n'
        'givens = ["1...", "....", "....", "...."]\n'
        'regions = ["aaab", "cabb", "ccdb", "cddd"]\n'
    )
    puzzle = read_puzzles(path)[0]
    assert puzzle.shape.is_jigsaw and puzzle.givens[(0, 0)] == 1
    assert read_text(format_document(puzzle))[0].shape == puzzle.shape


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (EASY[:-1], "expected a puzzle of n² symbols (81 for 9x9, 256 for 16x16), found 80"),
        (EASY[:40] + "x" + EASY[41:], "<input>:1:41: unknown symbol 'x' at r5c5"),
        ("." * 25, "size 5 has no rectangular box shape"),
        ("123\n456\n78\n", "<input>:3: grid row has 2 cells, the other rows have 3"),
        (
            "\n".join(["10 0 0 0 0 0 0 0 0"] + ["0 0 0 0 0 0 0 0 0"] * 8),
            "<input>:1:1: digit 10 at r1c1 is out of range 1..9",
        ),
        ("", "empty input, no puzzle found"),
        ("# only a comment\n", "no puzzle found"),
        ("[[1, 2], [3]]", "row 2 has 1 entries, expected 2"),
        (
            '{"givens": "' + EASY + '", "rules": [{"type": "nosuchrule"}]}',
            "unknown rule type 'nosuchrule'",
        ),
        ('{"givens": "' + EASY + '", "colour": 1}', "unknown field 'colour'"),
        (
            '{"givens": "' + EASY + '", "rules": [{"type": "diagonal", "x": 1}]}',
            "rule 'diagonal': unexpected field 'x'",
        ),
        ('{"size": 9, "givens": "' + EASY + '",}', "invalid JSON"),
        ("." * 36, None),  # 6x6 is fine: no error
    ],
)
def test_bad_input_is_named_with_its_place(text: str, message: str | None) -> None:
    if message is None:
        assert read_text(text, source="<input>")
        return
    with pytest.raises(PuzzleError) as info:
        read_text(text, source="<input>")
    assert message in str(info.value)


def test_missing_file_is_a_clear_error() -> None:
    with pytest.raises(PuzzleError, match="no such file"):
        read_puzzles("/nonexistent/puzzles.txt")


def test_grid_with_blank_lines_between_box_bands() -> None:
    rows = [" ".join(EASY[r * 9 : r * 9 + 9]) for r in range(9)]
    text = "\n".join(rows[0:3]) + "\n\n" + "\n".join(rows[3:6]) + "\n\n" + "\n".join(rows[6:9])
    assert only(text) == EASY_GRID
    assert [p.givens for p in read_text(text + "\n\n" + text)] == [EASY_GRID, EASY_GRID]


def test_killer_collection_lines_are_detected() -> None:
    # Cages of the shared killer files: labels, one total per label, solution ('-': unknown).
    line = "AABBCCDDEEFFGGHH 3,7,7,3,3,7,7,3 1234341221434321"
    (auto,) = read_text(line)
    (forced,) = read_text(line, fmt="killer")
    assert auto == forced and auto.solution == grid_from_line("1234341221434321")
    assert [rule.type for rule in auto.rules] == ["killer"]
    # A puzzle line with a trailing "rating,count" is not a killer line: fewer totals than
    # the symbols it uses.
    (plain,) = read_text("AB....AB........ 3,4")
    assert plain.rules == () and plain.givens.values[:2] == (1, 2)
