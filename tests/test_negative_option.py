"""`--negative KIND`: a rules text saying every mark of a kind is given ("all possible dots are
given", "all XV pairs are given"), which SudokuPad's data cannot hold.

Counts are checked against brute force over the 6×6 grids with a fixed first row (the oracle
of test_rule_meanings), with the marks split over two rules: the negative must exempt the marks
of both, so `--negative` merges them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_text, with_rules
from satsudoku.io.fpuzzles_export import fpuzzles_data
from satsudoku.io.sudokupad import negatives_named
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from tests.test_rule_meanings import ROW_6, XV_V, XV_X, at, marks, orthogonal, pairs_named
from tests.test_rules import all_6x6_first_row

SHAPE = Shape(2, 3)
WHITE = marks(lambda a, b: abs(a - b) == 1)  # every consecutive pair of R6 carries a dot
HALF = len(WHITE) // 2


def two_kropki_puzzle() -> Puzzle:
    rules = tuple(
        make_rule({"type": "kropki", "white": part}, SHAPE) for part in (WHITE[:HALF], WHITE[HALF:])
    )
    return Puzzle(SHAPE, Grid(6, ROW_6 + (0,) * 30), rules)


@cache
def brute_force_count() -> int:
    """Grids whose dotted pairs are consecutive and whose undotted pairs are not."""
    dotted = pairs_named(WHITE)
    return sum(
        1
        for g in all_6x6_first_row()
        if all(
            (abs(at(g, a) - at(g, b)) == 1) == (frozenset((a, b)) in dotted)
            for a, b in orthogonal(6)
        )
    )


@pytest.mark.parametrize(
    "backend", ["bitmask", "sat", pytest.param("cpsat", marks=pytest.mark.slow)]
)
def test_negative_white_merges_the_kropki_rules_and_counts_as_brute_force(backend: str) -> None:
    puzzle = with_rules(two_kropki_puzzle(), (), ("white",))
    (kropki,) = [rule.to_spec() for rule in puzzle.rules if rule.type == "kropki"]
    assert kropki["negative"] == ["white"] and len(kropki["white"]) == len(WHITE)
    expected = brute_force_count()
    assert 1 <= expected < 50  # R6 itself, and the negative cuts the 39,168 grids down
    result = get_backend(backend).solve(puzzle, limit=100)
    assert result.exhausted and result.count == expected


def test_negative_on_one_of_two_rules_would_differ() -> None:
    """Why the merge: a negative on the first rule alone bans the second rule's dotted pairs,
    which R6 needs consecutive, so the puzzle would lose R6."""
    first, second = two_kropki_puzzle().rules
    alone = make_rule({"type": "kropki", "white": WHITE[:HALF], "negative": ["white"]}, SHAPE)
    puzzle = Puzzle(SHAPE, Grid(6, ROW_6 + (0,) * 30), (alone, second))
    assert get_backend("sat").solve(puzzle, limit=100).count != brute_force_count()


def test_negative_v_merges_the_xv_rules_and_keeps_marks_exempt() -> None:
    """--negative v with the X in one rule and six V in another: unmarked pairs may not add to
    5 but may add to 10, and both rules' marks are exempt (1 grid, as test_rule_meanings'
    xv-negative-v-only case counts with the marks in one rule)."""
    rules = (
        make_rule({"type": "xv", "x": XV_X[:1]}, SHAPE),
        make_rule({"type": "xv", "v": XV_V[:6]}, SHAPE),
    )
    puzzle = with_rules(Puzzle(SHAPE, Grid(6, ROW_6 + (0,) * 30), rules), (), ("v",))
    (xv,) = [rule.to_spec() for rule in puzzle.rules]
    assert xv == {"type": "xv", "x": XV_X[:1], "v": XV_V[:6], "negative": ["v"]}
    marked = pairs_named(XV_X[:1] + XV_V[:6])
    expected = sum(
        1
        for g in all_6x6_first_row()
        if all(at(g, _rc(a)) + at(g, _rc(b)) == 10 for a, b in XV_X[:1])
        and all(at(g, _rc(a)) + at(g, _rc(b)) == 5 for a, b in XV_V[:6])
        and all(
            at(g, a) + at(g, b) != 5 for a, b in orthogonal(6) if frozenset((a, b)) not in marked
        )
    )
    assert expected == 1
    assert get_backend("sat").solve(puzzle, limit=100).count == expected
    empty = with_rules(Puzzle(SHAPE, Grid(6, ROW_6 + (0,) * 30)), (), ("x", "v"))
    assert [rule.to_spec() for rule in empty.rules] == [{"type": "xv", "negative": True}]


def _rc(name: str) -> tuple[int, int]:
    return int(name[1]) - 1, int(name[3]) - 1


def test_nonconsecutive_beside_white_dots_is_refused_with_the_option_to_use() -> None:
    with pytest.raises(PuzzleError, match=r"r1c\d-r\dc\d\); for .* use --negative white"):
        with_rules(two_kropki_puzzle(), ("nonconsecutive",))


def test_the_command_line_takes_negative(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = {
        "size": 6,
        "givens": "".join(map(str, ROW_6)) + "." * 30,
        "rules": [rule.to_spec() for rule in two_kropki_puzzle().rules],
    }
    path = tmp_path / "dots.json"
    path.write_text(json.dumps(document))
    assert main(["count", str(path), "--negative", "white", "--limit", "100"]) == 0
    assert capsys.readouterr().out.split()[-1] == str(brute_force_count())
    assert main(["count", str(path), "--rule", "nonconsecutive"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "use --negative white" in err and "Traceback" not in err


def test_xv_negative_for_one_sum_is_not_exported_to_fpuzzles() -> None:
    """f-puzzles' one xv negative forbids both sums: a V-only negative is refused, not widened."""
    (puzzle,) = read_text(
        json.dumps(
            {"size": 4, "rules": [{"type": "xv", "v": [["r1c1", "r1c2"]], "negative": ["v"]}]}
        )
    )
    with pytest.raises(PuzzleError, match="negative xv forbids both sums"):
        fpuzzles_data(puzzle)


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (
            "Digits joined by a white dot are consecutive. All possible dots are given.\n"
            "Digits joined by a V sum to 5. All such pairs are given.",
            ["white", "v"],
        ),
        (
            "White dots: consecutive. Black dots: double. All possible dots are given.",
            ["white", "black"],
        ),
        ("All kropki dots are given.", ["white", "black"]),
        ("All XV pairs are given.", ["x", "v"]),
        ("The negative constraint applies to V: all possible Vs are shown.", ["v"]),
        ("Not all dots are given.", []),
        ("Cells separated by an X sum to 10. Not all X are given.", []),
        ("Normal sudoku rules apply. All digits are given.", []),
    ],
)
def test_rules_texts_saying_all_marks_are_given(text: str, kinds: list[str]) -> None:
    assert negatives_named(text) == kinds


def test_a_long_rules_text_is_read_in_linear_time() -> None:
    """Each "all … given" sentence without a kind looked back through its whole paragraph:
    8,000 copies of "All dots are given." (160 kB of rules text) took 121 s of CPU, 50,000
    would take over an hour. The kinds named so far are now carried along: 50,000 in well
    under a second; the child is stopped at 60 s."""
    code = (
        "from satsudoku.io.sudokupad import negatives_named;"
        "print(negatives_named('All dots are given. ' * 50_000))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert run.stdout.strip() == "['white', 'black']"
