"""Rules texts that give cells a value other than their digit ("the value of a shaded cell is
one more than its digit") are refused, naming the sentence: their arrows and dots look like
ordinary ones, and reading them on digits answers another puzzle (Sudoku-Bench puzzle_0037
'Thermal Balance' and puzzle_0062 'Nosferatu Crossfire', whose stored solutions break the arrows
read on digits)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.fpuzzles_values import redefined_value
from satsudoku.io.sudokupad import sudokupad_json
from tests.test_fpuzzles_lines import corpus_entry
from tests.test_sudokupad import MAKER_BULB

THERMAL = "Hot/Cold: The value of a shaded cell is one more than it's digit"
PREY = "The values of all Prey cells are 0"
INDEXER = "The value of an indexer cell is the digit in the cell it indexes"


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        (f"Normal Sudoku rules apply.\n{THERMAL}. The value of an unshaded cell is …", THERMAL),
        (f"Nosferatu: nine cells.\n{PREY}. The value of a Nosferatu cell is the sum …", PREY),
        (f"Indexing. {INDEXER}. For all other cells, their value is their own digit.", INDEXER),
        (
            "For all other cells, their value is their own digit.",
            "For all other cells, their value is their own digit",
        ),
    ],
)
def test_a_sentence_giving_cells_values_is_found(text: str, sentence: str) -> None:
    assert redefined_value(text) == sentence


@pytest.mark.parametrize(
    "text",
    [
        "Arrows: Values on an arrow sum to the value in the arrow's circle.",  # 'Negative Arrows'
        "Digits in cages cannot repeat and must sum to the value shown in the corner.",
        "Adjacent digits along a green whisper line must differ in value by at least 5.",
        "A white dot: the value in one cell is exactly 1 greater than the value of the other.",
        "Digits on each segment of the same line sum to the same value.",
        "Skyscrapers: digits are skyscrapers, with their values corresponding to their heights.",
    ],
)
def test_values_of_digits_are_not_a_redefinition(text: str) -> None:
    """Rules texts of the corpus that say 'value' of the digits themselves."""
    assert redefined_value(text) is None


def arrow_pad(rules: str, solution: str | None = None) -> str:
    """A 4x4 Sudoku Maker arrow from a circle on r1c1 through r2c2 (r1c1 = r2c2 on digits)."""
    metadata: dict[str, Any] = {"title": "Values", "rules": rules}
    if solution is not None:
        metadata["solution"] = solution
    pad = {
        "cells": [[{} for _ in range(4)] for _ in range(4)],
        "metadata": metadata,
        "arrows": [
            {
                "wayPoints": [[0.782, 0.782], [1.5, 1.5]],
                "headLength": 0.35,
                "color": "#aaaf",
                "thickness": 3.2,
            }
        ],
        "overlays": [{**MAKER_BULB, "center": [0.5, 0.5]}],
    }
    return json.dumps(pad)


def test_a_puzzle_whose_rules_give_values_is_refused_even_without_a_solution() -> None:
    """Without a stored solution nothing else would notice: the arrow read on digits makes
    r1c1 = r2c2, impossible in one box, so the answer would be a wrong 'unsatisfiable'."""
    plain = read_text(arrow_pad("Arrows: digits along an arrow sum to the digit in its circle."))
    assert [rule.to_spec()["type"] for rule in plain[0].rules] == ["arrow"]
    with pytest.raises(
        PuzzleError,
        match=r"gives cells a value other than their digit "
        r"\(\"The value of a shaded cell is one more than its digit\"\)",
    ):
        read_text(arrow_pad("The value of a shaded cell is one more than its digit."))


def test_the_refusal_is_one_line_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    path = tmp_path / "values.json"
    path.write_text(arrow_pad(f"{PREY}.\nArrows: values along an arrow sum to its circle."))
    assert main(["solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f'value other than their digit ("{PREY}")' in err and "not read" in err


def test_fpuzzles_rules_texts_are_checked_too() -> None:
    grid = [[{} for _ in range(4)] for _ in range(4)]
    data = {"size": 4, "grid": grid, "ruleset": f"{INDEXER}.", "odd": [{"cell": "R1C1"}]}
    with pytest.raises(PuzzleError, match=r"^f-puzzles: the rules text gives cells a value"):
        read_text(json.dumps(data))


@pytest.mark.parametrize(
    ("number", "sentence"), [("0037", THERMAL), ("0062", PREY), ("0022", INDEXER)]
)
def test_sudoku_bench_puzzles_giving_values_are_refused_for_it(number: str, sentence: str) -> None:
    """With and without the solution stored with them (which their arrows read on digits
    break: 0037's r6c3 arrow, 0062's r3c6 arrow)."""
    entry = corpus_entry(number)
    pad = sudokupad_json(entry["encoded_puzzle"])
    pad["metadata"].pop("solution", None)
    for text in (entry["encoded_puzzle"], json.dumps(pad)):
        with pytest.raises(PuzzleError, match="value other than their digit") as caught:
            read_text(text)
        assert sentence in str(caught.value)
