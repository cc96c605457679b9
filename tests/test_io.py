"""Every input format of FORMATS.md §1–2, detection, round trips and located errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import (
    format_as_read,
    format_board,
    format_document,
    format_grid,
    format_line,
    puzzle_document,
    read_puzzles,
    read_text,
)
from satsudoku.puzzle import LAYOUTS, Puzzle
from satsudoku.rules.classic import Diagonal
from satsudoku.symbols import Alphabet
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


# -- numbers, LeetCode boards and ASCII digits ------------------------------------------------

ACWING = grid_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text())


def board_with(entries: dict[tuple[int, int], str], n: int = 9) -> list[list[str]]:
    board = [["."] * n for _ in range(n)]
    for (r, c), text in entries.items():
        board[r][c] = text
    return board


def test_leetcode_entries_are_decoded_one_by_one() -> None:
    board = [["." if v == 0 else str(v) for v in row] for row in ACWING.rows()]
    puzzle = read_text(json.dumps(board))[0]
    assert puzzle.givens == ACWING and puzzle.symbols.is_numeric
    assert json.loads(format_board(puzzle.givens, puzzle.symbols)) == board


@pytest.mark.parametrize(
    ("board", "message"),
    [
        (board_with({(0, 1): "55"}), "<input>:1:8: board 1: digit 55 at r1c2 is out of range 1..9"),
        (board_with({(0, 1): "10"}), "<input>:1:8: board 1: digit 10 at r1c2 is out of range 1..9"),
        (board_with({(3, 3): "17"}, 16), "board 1: digit 17 at r4c4 is out of range 1..16"),
        (board_with({(0, 0): "²"}), "<input>:1:3: board 1: unknown symbol '²' at r1c1"),
        (board_with({(0, 0): "١"}), "<input>:1:3: board 1: unknown symbol '١' at r1c1"),
        (board_with({(0, 0): "-3"}), "board 1: unknown symbol '-3' at r1c1"),
    ],
)
def test_bad_leetcode_entries_are_located(board: list[list[str]], message: str) -> None:
    with pytest.raises(PuzzleError) as info:
        read_text(json.dumps(board), source="<input>")
    assert message in str(info.value)


def test_leetcode_errors_name_the_board_and_its_real_line() -> None:
    text = "[\n" + json.dumps(LEETCODE) + ",\n" + json.dumps(board_with({(1, 2): "x"})) + "\n]"
    with pytest.raises(PuzzleError) as info:
        read_text(text, source="b.json")
    assert str(info.value).startswith("b.json:3:")
    assert "board 2: unknown symbol 'x' at r2c3" in str(info.value)
    short = "[" + json.dumps(LEETCODE) + ",\n\n" + json.dumps(LEETCODE[:8]) + "]"
    with pytest.raises(PuzzleError, match=r"^b.json:3:2: board 2: row 1 has 9 entries, expected 8"):
        read_text(short, source="b.json")
    puzzles = read_text("[\n" + json.dumps(LEETCODE) + ",\n" + json.dumps(LEETCODE) + "]")
    assert [p.origin for p in puzzles] == ["<input>:2", "<input>:3"]


@pytest.mark.parametrize("text", ["[]", '{"puzzles": []}', "  [ ]\n"])
def test_an_empty_json_list_holds_no_puzzle(text: str) -> None:
    with pytest.raises(PuzzleError, match="^<input>: no puzzle found$"):
        read_text(text, source="<input>")


@pytest.mark.parametrize("digit", ["²", "١", "٣", "𝟙"])
def test_only_ascii_digits_are_digits(digit: str) -> None:
    judge = "\n".join([f"8 0 0 0 0 0 0 0 {digit}"] + ["0 0 0 0 0 0 0 0 0"] * 8)
    with pytest.raises(PuzzleError, match=f"<input>:1:17: unknown symbol '{digit}' at r1c9"):
        read_text(judge, source="<input>")
    with pytest.raises(PuzzleError, match=f"unknown symbol '{digit}' at r9c9"):
        read_text(EASY[:-1] + digit, source="<input>")
    numbers = " ".join(["12"] + ["0"] * 254 + [digit])  # not 256 numbers: no line puzzle
    with pytest.raises(PuzzleError, match="^<input>:1: expected a puzzle of n² symbols"):
        read_text(numbers, source="<input>")


def test_a_huge_number_is_out_of_range_not_a_crash() -> None:
    judge = "\n".join(["9" * 5000 + " 0 0 0 0 0 0 0 0"] + ["0 0 0 0 0 0 0 0 0"] * 8)
    with pytest.raises(PuzzleError, match=r"<input>:1:1: digit 999999999… at r1c1 is out of range"):
        read_text(judge, source="<input>")


@pytest.mark.parametrize(
    ("symbols", "message"),
    [("aac456789", "'a' appears twice"), ("12 456789", "symbol 3 is whitespace")],
)
def test_custom_symbols_must_be_distinct(symbols: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=f"symbols '{symbols}': {message}"):
        read_text(EASY, symbols=symbols)


# -- blocks of equal lines: one puzzle per line unless they are really grids ------------------


@pytest.mark.parametrize(("size", "count"), [(4, 16), (4, 32), (6, 36), (8, 64)])
def test_a_block_of_line_puzzles_is_not_one_big_grid(size: int, count: int) -> None:
    line = "1" + "." * (size * size - 1)
    puzzles = read_text("\n".join([line] * count))
    assert len(puzzles) == count and {p.size for p in puzzles} == {size}
    assert {p.layout for p in puzzles} == {"line"}
    (grid,) = read_text("\n".join([line] * size * size), fmt="grid")  # the ambiguity, forced
    assert grid.size == size * size


def test_a_blank_line_between_line_puzzles_is_no_box_band_gap() -> None:
    lines = ["1234341221434321", "1..4............"] * 4
    puzzles = read_text("\n".join(lines) + "\n\n" + "\n".join(lines))
    assert len(puzzles) == 16 and {p.size for p in puzzles} == {4}


def test_a_16x16_grid_of_compact_rows_is_still_a_grid() -> None:
    line = (BUNDLED / "16x16-acwing169-sample.txt").read_text().split()[0]
    rows = [line[r * 16 : r * 16 + 16] for r in range(16)]
    (puzzle,) = read_text("\n".join(rows))
    assert puzzle.size == 16 and puzzle.layout == "rows" and puzzle.givens == ACWING
    halves = "\n".join(rows[:8]) + "\n\n" + "\n".join(rows[8:])  # a gap between box bands
    assert read_text(halves)[0].givens == ACWING


def test_a_line_that_is_no_puzzle_among_line_puzzles_is_named() -> None:
    lines = ["1234341221434321"] * 15 + ["1234341221434325"]
    with pytest.raises(PuzzleError, match=r"<input>:16:16: unknown symbol '5' at r4c4.*--format"):
        read_text("\n".join(lines), source="<input>")


def test_a_blank_line_inside_a_box_band_ends_the_grid() -> None:
    rows = [EASY[r * 9 : r * 9 + 9] for r in range(9)]
    text = "\n".join(rows[:2]) + "\n\n" + "\n".join(rows[2:])
    with pytest.raises(PuzzleError, match="<input>:1: a 9x9 grid needs 9 rows, found 2"):
        read_text(text, source="<input>")


@pytest.mark.parametrize(
    ("box", "gap_after", "fits"),
    [(None, 2, True), (None, 3, False), ((3, 2), 3, True), ((3, 2), 2, False)],
)
def test_a_blank_line_is_bridged_only_between_box_bands(
    box: tuple[int, int] | None, gap_after: int, fits: bool
) -> None:
    rows = ["123456", "456123", "231564", "564231", "312645", "645312"]
    text = "\n".join(rows[:gap_after]) + "\n\n" + "\n".join(rows[gap_after:])
    if fits:
        assert read_text(text, box=box)[0].givens == grid_from_line("".join(rows))
    else:
        with pytest.raises(PuzzleError, match="a 6x6 grid needs 6 rows"):
            read_text(text, box=box)


# -- answers in the input's own layout: read -> write -> read ---------------------------------

EASY_ROWS = [EASY[r * 9 : r * 9 + 9] for r in range(9)]
LAYOUT_SAMPLES = {
    "line": EASY,
    "rows": "\n".join(row.replace(".", "0") for row in EASY_ROWS),
    "spaced-rows": "\n".join(" ".join(row.replace(".", "0")) for row in EASY_ROWS),
    "grid": format_grid(EASY_GRID, Shape(3, 3), read_text(EASY)[0].symbols),
    "leetcode": json.dumps(LEETCODE),
    "numeric spaced-rows": "\n".join(" ".join(str(v) for v in row) for row in ACWING.rows()),
    "numeric line": " ".join(str(v) for v in ACWING.values),
    "numeric leetcode": json.dumps([[str(v or ".") for v in row] for row in ACWING.rows()]),
    "numeric grid": format_grid(ACWING, Shape(4, 4), Alphabet.numeric(16)),
    "letters rows": "\n".join(
        "".join("ABCDEFGHIJKLMNOP"[v - 1] if v else "-" for v in row) for row in ACWING.rows()
    ),
}


def read_one(text: str) -> Puzzle:
    (puzzle,) = read_text(text)
    return puzzle


@pytest.mark.parametrize("name", list(LAYOUT_SAMPLES))
def test_every_layout_reads_back_as_written(name: str) -> None:
    puzzle = read_one(LAYOUT_SAMPLES[name])
    assert puzzle.layout == name.split()[-1] and puzzle.layout in LAYOUTS
    assert puzzle.symbols.is_numeric == name.startswith("numeric")
    again = read_one(format_as_read(puzzle.givens, puzzle))
    assert again == puzzle


def test_answers_keep_the_layout_of_the_input() -> None:
    solution = grid_from_line(
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
    )
    rows = format_as_read(solution, read_one(LAYOUT_SAMPLES["rows"]))
    assert rows.splitlines()[0] == "483921657"
    judge = format_as_read(solution, read_one(LAYOUT_SAMPLES["spaced-rows"]))
    assert judge.splitlines()[0] == "4 8 3 9 2 1 6 5 7"
    numeric = read_one(LAYOUT_SAMPLES["numeric spaced-rows"])
    first_row = format_as_read(numeric.givens, numeric).splitlines()[0]
    assert first_row == " ".join(str(v) for v in ACWING.rows()[0])
    assert format_line(numeric.givens, numeric.symbols).split() == [str(v) for v in ACWING.values]


@pytest.mark.parametrize(
    ("name", "first_row"),
    [
        ("rows", "483921657"),
        ("spaced-rows", "4 8 3 9 2 1 6 5 7"),
        ("grid", "4 8 3 | 9 2 1 | 6 5 7"),
        ("numeric spaced-rows", "6 16 1 8 13 10 5 3 14 12 2 4 11 15 7 9"),
    ],
)
def test_solve_answers_in_the_layout_it_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, first_row: str
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(LAYOUT_SAMPLES[name])
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# puzzle 1: unique [bitmask,") and out.splitlines()[1] == first_row
    assert read_text(out)[0].givens.is_complete()  # the answer reads back as a puzzle
    assert read_text(out)[0].layout == name.split()[-1]


def test_json_solution_of_a_numeric_board_is_space_separated_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(LAYOUT_SAMPLES["numeric spaced-rows"])
    assert main(["solve", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    numbers = [int(token) for token in record["solution"].split(" ")]
    assert len(numbers) == 256 and numbers[:4] == [6, 16, 1, 8]
    assert read_text(record["solution"])[0].givens.values == tuple(numbers)


@pytest.mark.parametrize("size", [61, 63, 64])
def test_jigsaw_labels_cover_the_largest_boards(size: int) -> None:
    """Regions past the 61st were all written as "?", which the reader took for one region."""
    # Region k: row k, except that the first two cells of rows 0 and 1 trade places.
    labels = [[str(r)] * size for r in range(size)]
    labels[0][0], labels[1][0] = "1", "0"
    labels[0][1], labels[1][1] = "1", "0"
    shape = Shape.jigsaw(labels)
    puzzle = Puzzle(shape, Grid.empty(size), alphabet=Alphabet.numeric(size))
    (again,) = read_text(json.dumps(puzzle_document(puzzle)))
    assert again.shape == shape
    assert len(set(shape.region_labels)) == size


def test_a_jigsaw_larger_than_64_is_refused_before_it_is_built() -> None:
    with pytest.raises(PuzzleError, match="regions: 70 rows, more than the supported size 64"):
        Shape.jigsaw([["a"] * 70] * 70)
