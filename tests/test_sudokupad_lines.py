"""--line COLOUR[:WIDTH]=TYPE: SudokuPad lines whose type only the rules text gives. Real
published puzzles (SakanaAI Sudoku-Bench challenge_100, MIT: tests/data/sudokupad/) solved to
their published solutions with the options their rules texts call for, lines drawn in pieces or
as loops refused where reading them apart could be wrong, and small hand-written payloads."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid
from satsudoku.io import read_text
from satsudoku.io.sudokupad import fpuzzles_data, iter_sudokupad
from satsudoku.io.sudokupad_lines import LineType, parse_cell_type, parse_line_type
from satsudoku.io.text import ReadOptions
from satsudoku.puzzle import Puzzle
from satsudoku.verify import violations
from tests.conftest import REPO
from tests.test_sudokupad import editor_pad

DATA = Path(__file__).parent / "data"
REAL = {
    entry["file"][len("puzzle_") : -len(".json")]: entry
    for name in ("sudokupad/line-types.json", "sudokupad/editor-styles.json")
    for entry in json.loads((DATA / name).read_text())["puzzles"]
}
SAMPLE = {
    entry["puzzle_id"]: entry
    for entry in json.loads((DATA / "sudoku-bench-sample.json").read_text())["puzzles"]
}


def lines(*specs: str) -> list[LineType]:
    return [parse_line_type(spec) for spec in specs]


def read(number: str, *specs: str, ignore: bool = False, **typed: Any) -> Puzzle:
    text = REAL[number]["encoded_puzzle"]
    if ignore:  # the reader's options: read_text has no --ignore-drawings
        options = ReadOptions(ignore_drawings=True, lines=tuple(lines(*specs)), **typed)
        return next(iter_sudokupad(text, options))
    (puzzle,) = read_text(text, lines=lines(*specs), **typed)
    return puzzle


def solved(puzzle: Puzzle) -> tuple[str, str]:
    result = get_backend("sat").solve(puzzle, limit=2, timeout=60)
    digits = "".join(map(str, result.solution.values)) if result.solution else ""
    return result.status.value, digits


def kinds(puzzle: Puzzle) -> list[str]:
    return sorted(rule.to_spec()["type"] for rule in puzzle.rules)


# --- real published puzzles, as their rules texts say ---


@pytest.mark.parametrize(
    ("number", "specs", "expected"),
    [
        ("0029", ("f067f0=renban",), ["renban", "thermometer", "xv"]),
        ("0088", ("d23be7=renban",), ["renban"]),
        ("0077", ("34bbe6=regionsumline",), ["regionsumline"]),
        ("0085", ("2ecbff=regionsumline",), ["regionsumline"]),
        ("0089", ("2ecbff=regionsumline",), ["regionsumline"]),
        ("0042", ("dac391=slowthermometer",), ["kropki", "slowthermometer"]),
        ("0034", ("cccccc=slowthermometer",), ["slowthermometer"]),
        ("0032", ("dfc5fe=zipperline",), ["zipperline"]),
        ("0100", ("cccccc:19=thermometer",), ["thermometer"]),
        ("0086", ("bbb=arrow",), ["arrow"]),
        (
            "0059",
            ("67f067=whispers", "2ecbff=regionsumline"),
            ["kropki", "regionsumline", "whispers"],
        ),
    ],
)
def test_typed_lines_solve_to_the_published_solution(
    number: str, specs: tuple[str, ...], expected: list[str]
) -> None:
    """Renban (purple, pink), region sum lines (blue), slow thermometers (bulb of the line's
    colour), a zipper whose centre dot goes with it, Sudoku Maker thermometers typed by the
    user (read first: the user's word wins, the same answer), 'Arrowsome': arrows drawn as
    lines from a ringed circle, each head a chevron of its own; 'N is for Naughty and Nice':
    green whispers and a blue region sum loop."""
    puzzle = read(number, *specs)
    assert kinds(puzzle) == expected and not puzzle.ignored
    assert solved(puzzle) == ("unique", REAL[number]["solution"])


def test_an_entropic_loop_and_renban_solve_zeeta_moth() -> None:
    """'Zeeta-Moth' (99%Sneaky): peach entropic lines, one a closed loop (each run of three
    around it, across its start too), and purple renban."""
    puzzle = read("0021", "f067f0=renban", "fca=entropicline")
    (entropic,) = [r.to_spec() for r in puzzle.rules if r.to_spec()["type"] == "entropicline"]
    loop = [line for line in entropic["lines"] if "r2c5" in line]  # its start
    assert loop == [["r2c5", "r3c6", "r4c6"], ["r4c4", "r3c4", "r2c5"], ["r3c4", "r2c5", "r3c6"]]
    assert solved(puzzle) == ("unique", REAL["0021"]["solution"])


def test_the_cli_takes_line_and_reads_renban(capsys: pytest.CaptureFixture[str]) -> None:
    """'Introduction to Renban Lines' through `solve --line`: the refusal names the colour to
    type, and typed, the published grid comes out."""
    link = "https://sudokupad.app/" + str(
        SAMPLE["sxsm_MichaelLefkowitz_3ac77fd64f5032647403d6ac353c0c20"]["encoded_puzzle"]
    )
    assert main(["solve", link]) == 1
    assert "--line F067F0=TYPE" in capsys.readouterr().err
    assert main(["solve", link, "--json", "--line", "f067f0=renban"]) == 0
    record = json.loads(capsys.readouterr().out)
    expected = SAMPLE["sxsm_MichaelLefkowitz_3ac77fd64f5032647403d6ac353c0c20"]["solution"]
    assert record["status"] == "unique" and record["solution"] == expected


@pytest.mark.parametrize(
    ("number", "specs", "cells", "expected"),
    [
        (
            "0033",
            ("f067f0=renban", "67f067=whispers"),
            (),
            ["arrow", "killer", "renban", "whispers"],
        ),
        ("0098", (), (), ["arrow", "killer", "kropki"]),
        ("0065", (), ("d4da31:round=odd", "d4da31:square=even"), ["even", "killer", "odd"]),
        ("0064", (), ("000:square=even",), ["arrow", "even"]),
    ],
)
def test_cages_without_totals_and_marked_cells_solve_to_the_published_solution(
    number: str, specs: tuple[str, ...], cells: tuple[str, ...], expected: list[str]
) -> None:
    """--unique-cages ('Digits cannot repeat within a cage', 'sum to the number …, if
    given') and --cell ('The yellow circles contain odd digits. The yellow squares contain even
    digits', 'Grey square must contain even digit'); without them each is refused."""
    with pytest.raises(PuzzleError, match="drawings whose meaning is in the rules text"):
        read(number, *specs)
    typed = {
        "cells": [parse_cell_type(c) for c in cells],
        "unique_cages": not cells or number == "0065",
    }
    puzzle = read(number, *specs, **typed)
    assert kinds(puzzle) == expected and not puzzle.ignored
    assert solved(puzzle) == ("unique", REAL[number]["solution"])


@pytest.mark.parametrize(
    ("number", "specs", "expected"),
    [
        ("0066", ("ff9504fc=dutchwhispers", "9b86ec=lockout"), ["killer", "lockout", "whispers"]),
        ("0059", ("67f067=whispers",), ["kropki", "whispers"]),
    ],
)
def test_typed_lines_hold_in_the_published_solution(
    number: str, specs: tuple[str, ...], expected: list[str]
) -> None:
    """Puzzles with some other clue satsudoku cannot read (sequence lines, region sum loops,
    cages without totals): left out with --ignore-drawings, what was typed (whispers of 5 and
    Dutch whispers of 4, lockout) holds in the published grid, which is one of several."""
    entry = REAL[number]
    puzzle = read(number, *specs, ignore=True)
    assert kinds(puzzle) == expected
    grid = Grid(puzzle.size, tuple(int(ch) for ch in entry["solution"]))
    assert violations(puzzle, grid) == []
    assert solved(puzzle)[0] == "multiple"
    if number == "0066":
        whispers = [r.to_spec() for r in puzzle.rules if r.to_spec()["type"] == "whispers"]
        assert [w["difference"] for w in whispers] == [4]


@pytest.mark.parametrize(
    ("number", "specs", "message"),
    [
        (
            "0099",
            ("2ecbff=regionsumline", "67f067=whispers", "f067f0=renban"),
            "line 2ECBFF (thickness 9.6) through r7c6 r6c7 r4c7 r2c5 r2c3 r4c1 r7c1 r9c3 … meets "
            "another 2ECBFF line at r7c6: one regionsumline line drawn in pieces",
        ),
        (
            "0099",
            ("67f067=whispers", "f067f0=renban"),
            "line F067F0 (thickness 9.6) through r2c8 r1c9 meets another F067F0 line at r2c8",
        ),
    ],
)
def test_lines_drawn_in_pieces_or_loops_are_refused_where_reading_could_be_wrong(
    number: str, specs: tuple[str, ...], message: str
) -> None:
    """'Nautilus': the shell is two blue pictures meeting at r7c6 and the fish two purple
    ones; read apart, a piece of the shell has other segments and a piece of the fish need not
    be consecutive (the published grid breaks both readings)."""
    with pytest.raises(PuzzleError, match="SudokuPad: ") as info:
        read(number, *specs)
    assert message in info.value.message


# --- small payloads ---


def line(points: list[list[float]], colour: str = "#f067f0", width: float = 10) -> dict[str, Any]:
    return {"wayPoints": points, "color": colour, "thickness": width}


def dot(centre: list[float], colour: str, size: float = 0.8, **more: Any) -> dict[str, Any]:
    return {"center": centre, "backgroundColor": colour, "width": size, "height": size, **more}


def test_a_thermometer_bulb_at_either_end_gives_the_direction() -> None:
    """The bulb (round, the line's colour) at the last point turns the line round; one bulb
    may start several lines; a line with no bulb, or one at each end (its own or another
    thermometer's), is refused."""
    grey = "#aaaaaa"
    bulb = dot([0.5, 0.5], grey, rounded=True)
    pad = editor_pad(
        4,
        lines=[
            line([[0.5, 2.5], [0.5, 0.5]], grey),  # bulb at its end
            line([[0.5, 0.5], [2.5, 0.5]], grey),  # from the same bulb
        ],
        underlays=[bulb],
    )
    data, drawings = fpuzzles_data(pad, lines("aaaaaa=thermometer"))
    assert data["thermometer"] == [
        {"lines": [["R1C1", "R1C2", "R1C3"]]},
        {"lines": [["R1C1", "R2C1", "R3C1"]]},
    ]
    assert drawings == {}
    with pytest.raises(PuzzleError, match="needs a round bulb of its colour at exactly one end"):
        fpuzzles_data(
            editor_pad(4, lines=[line([[0.5, 2.5], [0.5, 0.5]], grey)]), lines("aaa=thermometer")
        )
    two = editor_pad(
        4,
        lines=[line([[0.5, 2.5], [0.5, 0.5]], grey)],
        underlays=[bulb, dot([0.5, 2.5], grey, rounded=True)],
    )
    with pytest.raises(PuzzleError, match="found at 2"):
        fpuzzles_data(two, lines("aaa=thermometer"))
    into = [line([[3.5, 1.5], [1.5, 1.5]], grey), line([[3.5, 3.5], [3.5, 1.5]], grey)]
    bulbs = [dot([3.5, 1.5], grey, rounded=True), dot([3.5, 3.5], grey, rounded=True)]
    for order in (into, into[::-1]):  # a tip on another's bulb: which end is its own?
        with pytest.raises(PuzzleError, match=r"r4c4 r4c2: --line AAAAAA=thermometer needs"):
            fpuzzles_data(editor_pad(4, lines=order, underlays=bulbs), lines("aaaaaa=thermometer"))


def test_an_arrow_takes_its_circle_and_its_head() -> None:
    """A line from a circle ringed (or filled) in its colour is an arrow, its head a chevron
    line at the other end; the circle may be at either end; a chevron with no shaft stays a
    drawing; a line with no circle, or one at each end, is refused."""
    grey = "#bbbbbb"
    circle = dot([0.5, 0.5], "#ffffff", 0.85, borderColor=grey, rounded=True)
    shaft = line([[2.5, 2.5], [1.5, 1.5], [0.5, 0.5]], grey, 3)  # drawn from the tip
    head = line([[2.2, 2.5], [2.5, 2.5], [2.5, 2.2]], grey, 3)
    stray = line([[3.25, 0.75], [3.5, 0.5], [3.75, 0.75]], grey, 3)
    pad = editor_pad(4, lines=[shaft, head, stray], overlays=[circle])
    data, drawings = fpuzzles_data(pad, lines("bbb=arrow"))
    assert data["arrow"] == [{"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C3"]]}]
    assert drawings == {"lines": 1}  # the chevron pointing at no shaft
    with pytest.raises(PuzzleError, match="needs a circle of its colour at exactly one end"):
        fpuzzles_data(editor_pad(4, lines=[shaft]), lines("bbb=arrow"))


def test_colour_alpha_and_thickness_select_the_lines() -> None:
    """RRGGBB matches any alpha, RRGGBBAA only that one; with :WIDTH only that thickness."""
    pad = editor_pad(
        4,
        lines=[
            line([[0.5, 0.5], [0.5, 2.5]], "#f067f0ff", 10),
            line([[1.5, 0.5], [1.5, 2.5]], "#f067f080", 10),
            line([[2.5, 0.5], [2.5, 2.5]], "#f067f0", 4),
        ],
    )
    assert fpuzzles_data(pad, lines("f067f0=renban"))[1] == {}
    data, drawings = fpuzzles_data(pad, lines("#F067F080=renban"))
    assert data["renban"] == [{"lines": [["R2C1", "R2C2", "R2C3"]]}] and drawings == {"lines": 2}
    data, drawings = fpuzzles_data(pad, lines("f067f0:4=whispers", "f067f0=renban"))
    assert data["whispers"] == [{"lines": [["R3C1", "R3C2", "R3C3"]]}]
    assert len(data["renban"]) == 2 and drawings == {}


def test_loops_read_as_steps_runs_or_sets() -> None:
    """A closed loop: whispers on each step (the closing one too), renban on its cells once,
    a modular line on each run of three around it, a region sum line from a region border
    round to it (rows here: no regions); a palindrome loop is refused."""
    loop = line([[0.5, 0.5], [0.5, 1.5], [1.5, 1.5], [1.5, 0.5], [0.5, 0.5]])
    pad = editor_pad(4, lines=[loop])
    data = fpuzzles_data(pad, lines("f067f0=whispers"))[0]
    assert data["whispers"] == [
        {"lines": [["R1C1", "R1C2"], ["R1C2", "R2C2"], ["R2C2", "R2C1"], ["R2C1", "R1C1"]]}
    ]
    data = fpuzzles_data(pad, lines("f067f0=renban"))[0]
    assert data["renban"] == [{"lines": [["R1C1", "R1C2", "R2C2", "R2C1"]]}]
    runs = fpuzzles_data(pad, lines("f067f0=modularline"))[0]["modularline"][0]["lines"]
    assert len(runs) == 4 and ["R2C1", "R1C1", "R1C2"] in runs
    with pytest.raises(PuzzleError, match="closes a loop or comes back to a cell"):
        fpuzzles_data(pad, lines("f067f0=palindrome"))
    mid = line([[0.5, 1.5], [1.5, 1.5], [1.5, 0.5], [0.5, 0.5], [0.5, 1.5]])  # starts mid-row
    data = fpuzzles_data(editor_pad(4, lines=[mid]), lines("f067f0=regionsumline"))[0]
    assert data["regionsumline"] == [{"lines": [["R2C2", "R2C1", "R1C1", "R1C2"]]}]


def test_end_and_centre_decorations_go_with_their_line() -> None:
    """Between lines take the circles at their ends, zippers the dot on their centre cell;
    a dot elsewhere on a zipper stays a drawing; a typed line off the cell centres, or of one
    cell, is refused."""
    pad = editor_pad(
        5,
        lines=[line([[0.5, 0.5], [0.5, 4.5]], "#cfcfcf", 2)],
        overlays=[
            dot([0.5, 0.5], "#ffffff", borderColor="#cfcfcf", rounded=True),
            dot([0.5, 4.5], "#ffffff", borderColor="#cfcfcf", rounded=True),
        ],
    )
    data, drawings = fpuzzles_data(pad, lines("cfcfcf:2=between"))
    assert data["betweenline"] == [{"lines": [["R1C1", "R1C2", "R1C3", "R1C4", "R1C5"]]}]
    assert drawings == {}
    zipper = line([[1.5, 0.5], [1.5, 4.5]], "#dfc5fe")
    centre = dot([1.5, 2.5], "#dfc5fe", 0.44, rounded=True)
    data, drawings = fpuzzles_data(
        editor_pad(5, lines=[zipper], underlays=[centre]), lines("dfc5fe=zipperline")
    )
    assert data["zipperline"] == [{"lines": [["R2C1", "R2C2", "R2C3", "R2C4", "R2C5"]]}]
    assert drawings == {}
    off = dot([1.5, 1.5], "#dfc5fe", 0.44, rounded=True)
    assert fpuzzles_data(
        editor_pad(5, lines=[zipper], underlays=[off]), lines("dfc5fe=zipperline")
    )[1] == {"underlays": 1}
    corner = editor_pad(5, lines=[line([[1, 1], [1, 3]])])
    with pytest.raises(PuzzleError, match="r2c2 r2c4 is not a path through cell centres"):
        fpuzzles_data(corner, lines("f067f0=renban"))
    with pytest.raises(PuzzleError, match="has one cell"):
        fpuzzles_data(editor_pad(5, lines=[line([[1.5, 1.5], [1.5, 1.5]])]), lines("f067f0=renban"))


def test_the_refusal_names_the_option_only_where_it_can_read_the_drawing() -> None:
    """A hex-coloured line gets --line, a shape in a cell --cell, a cage without a total
    --unique-cages; a line coloured by name, or text, gets --ignore-drawings alone."""
    cases = [
        ({"lines": [line([[0.5, 0.5], [0.5, 1.5]], "#f067f0")]}, "add --line F067F0=TYPE"),
        ({"lines": [line([[0.5, 0.5], [0.5, 1.5]], "purple")]}, "(first: line purple"),
        (
            {"underlays": [dot([1.5, 1.5], "#d4da31", 0.7)]},
            "add --cell D4DA31=TYPE (odd, even, low, middle, high, countingcircles)",
        ),
        ({"cages": [{"cells": [[0, 0], [0, 1]], "unique": True}]}, "add --unique-cages, else"),
        ({"overlays": [{"center": [1.5, 1.5], "text": "A", "color": "#000"}]}, "; add --ign"),
    ]
    for pictures, message in cases:
        with pytest.raises(PuzzleError) as info:
            read_text(json.dumps(editor_pad(4, **pictures)))
        assert message in info.value.message and info.value.message.count("\n") == 0
    with pytest.raises(PuzzleError, match=r"line purple \(thickness 10\) through r1c1 r1c2\); add"):
        read_text(json.dumps(editor_pad(4, lines=cases[1][0]["lines"])))


def test_a_transparent_box_draws_nothing() -> None:
    """SudokuPad's board-position underlay (fill #FFFFFF00, no rim or text) is no drawing."""
    box = {
        "center": [2, 2],
        "width": 4.1,
        "height": 4.1,
        "backgroundColor": "#FFFFFF00",
        "class": "board-position",
    }
    assert fpuzzles_data(editor_pad(4, underlays=[box]))[1] == {}
    assert fpuzzles_data(editor_pad(4, underlays=[{**box, "borderColor": "#000"}]))[1] == {
        "underlays": 1
    }


def test_cells_of_a_typed_colour_and_shape() -> None:
    """--cell: the colour (any opacity for RRGGBB) and, when given, the shape choose the
    pictures; one that is not a shape within a cell, centred, is refused; text is no mark."""
    circle = {"center": [0.5, 0.5], "width": 0.7, "height": 0.7, "rounded": True}
    square = {"center": [1.5, 2.5], "width": 0.8, "height": 0.8}
    pad = editor_pad(
        4,
        underlays=[
            {**circle, "backgroundColor": "#d4da31e6"},
            {**square, "backgroundColor": "#d4da31"},
            {**square, "center": [2.5, 2.5], "backgroundColor": "#d4da31", "text": "3"},
        ],
    )
    cells = [parse_cell_type("d4da31:round=odd"), parse_cell_type("d4da31:square=even")]
    data, drawings = fpuzzles_data(pad, cells=tuple(cells))
    assert data["odd"] == [{"cell": "R1C1"}] and data["even"] == [{"cell": "R2C3"}]
    assert drawings == {"underlays": 1}  # the square with text
    data, drawings = fpuzzles_data(pad, cells=(parse_cell_type("#D4DA31E6=odd"),))
    assert data["odd"] == [{"cell": "R1C1"}] and drawings == {"underlays": 2}
    wide = editor_pad(4, underlays=[{**square, "width": 2, "backgroundColor": "#d4da31"}])
    with pytest.raises(PuzzleError, match="is not a shape within one cell, centred on it"):
        fpuzzles_data(wide, cells=(parse_cell_type("d4da31=even"),))


def test_unique_cages_reads_cages_without_a_total_as_killer_cages() -> None:
    """--unique-cages: a shown cage without a total is a killer cage with no sum; a hidden
    cage, or one with text that is no total, stays a drawing."""
    cells = [[0, 0], [0, 1]]
    pad = editor_pad(
        4,
        cages=[
            {"cells": cells, "unique": True},
            {"cells": [[1, 0], [1, 1]], "unique": True, "hidden": True},
            {"cells": [[2, 0], [2, 1]], "value": "C"},
            {"cells": [[3, 0], [3, 1]], "value": "7", "unique": True},
        ],
    )
    assert fpuzzles_data(pad)[1] == {"cages": 3}
    data, drawings = fpuzzles_data(pad, unique_cages=True)
    assert data["killercage"] == [
        {"cells": ["R1C1", "R1C2"]},
        {"cells": ["R4C1", "R4C2"], "value": "7"},
    ]
    assert drawings == {"cages": 2}


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--cell=d4da31=prime", "cell type 'prime' is not one of odd, even"),
        ("--cell=d4da31:oval=odd", "is not COLOUR[:round|square]=TYPE"),
        ("f067f0", "is not COLOUR[:THICKNESS]=TYPE"),
        ("f067f0=sumline", "line type 'sumline' is not one of thermometer, slowthermometer"),
        ("f067f=renban", "'f067f' is not a colour"),
        ("purple=renban", "is not COLOUR[:THICKNESS]=TYPE"),
    ],
)
def test_a_bad_line_option_is_one_line_exit_2(
    option: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "p.txt").write_text("." * 81 + "\n")
    args = [option] if option.startswith("--") else ["--line", option]
    with pytest.raises(SystemExit) as info:
        main(["solve", str(tmp_path / "p.txt"), *args])
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]  # after argparse's usage, as for every bad option
    name = option.partition("=")[0] if option.startswith("--") else "--line"
    assert info.value.code == 2 and last.startswith(f"satsudoku solve: error: argument {name}: ")
    assert message in last and "Traceback" not in err


CORPUS = Path(__file__).resolve().parents[2] / ".mirror" / "Hubiele+Sudoku-Bench" / "repo"


@pytest.mark.slow
def test_the_whole_corpus_with_its_rules_texts_lines_never_answers_wrong() -> None:
    """All of challenge_100 through benchmarks/sudokupad_corpus.py with the --line/--cell options
    its rules texts call for: no wrong answer, and at least the 49 solved when measured."""
    if not (CORPUS / "HEAD").exists():
        pytest.skip(f"Sudoku-Bench mirror not found at {CORPUS}")
    lines = REPO / "benchmarks" / "sudokupad_corpus_lines.txt"
    _, solved = corpus_run("sudokupad_corpus.py", CORPUS, 100, "--lines", str(lines), timeout=600)
    assert solved >= 49


def corpus_run(
    script: str, corpus: Path, puzzles: int, *options: str, timeout: float
) -> tuple[str, int]:
    """Run benchmarks/`script` over the mirror `corpus`: it must exit 0 (1 when any answer is
    wrong) and report all `puzzles` with WRONG 0; its output and how many it solved."""
    command = [sys.executable, str(REPO / "benchmarks" / script), "--corpus", str(corpus)]
    run = subprocess.run([*command, *options], capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stdout + run.stderr
    tally = re.search(rf"{puzzles} puzzles in .*: solved (\d+), .*WRONG 0", run.stdout)
    assert tally is not None, run.stdout
    return run.stdout, int(tally.group(1))


def test_all_marks_given_is_hinted_then_read_with_negative() -> None:
    """'sphinx of black quartz' (aqjhs): "Digits joined by a white dot are consecutive. All
    possible dots are given." and "Digits joined by a V sum to 5. All such pairs are given.":
    SudokuPad's data cannot say it, so reading warns naming --negative white and v; read with
    them (and its grey palindrome typed) it is unique, the published grid. With the V's
    negative alone it is not; `--rule nonconsecutive` instead would forbid the dots' own pairs, and
    is refused."""
    text = REAL["0097"]["encoded_puzzle"]
    with pytest.warns(
        UserWarning,
        match=r"all white dots and V marks are given.*"
        r"only --negative white --negative v add them",
    ):
        (plain,) = read_text(text, lines=lines("46386c45=palindrome"))
    assert solved(plain)[0] == "multiple"
    (puzzle,) = read_text(text, lines=lines("46386c45=palindrome"), negative=("white", "v"))
    assert kinds(puzzle) == ["antiknight", "kropki", "palindrome", "xv"]
    assert [r.to_spec().get("negative") for r in puzzle.rules if r.type in ("kropki", "xv")] == [
        ["white"],
        ["v"],
    ]
    assert solved(puzzle) == ("unique", REAL["0097"]["solution"])
    with pytest.warns(UserWarning, match="all white dots are given"):
        (vs,) = read_text(text, lines=lines("46386c45=palindrome"), negative=("v",))
    assert solved(vs)[0] == "multiple"
    with (
        pytest.warns(UserWarning, match="all white dots and V marks are given"),
        pytest.raises(PuzzleError, match="--rule nonconsecutive beside white kropki dots"),
    ):
        read_text(text, lines=lines("46386c45=palindrome"), rules=("nonconsecutive",))
