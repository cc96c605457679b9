"""Two --line or --cell options one drawing can match: the first that matches says what it is,
so a later option whose every drawing an earlier one of another meaning already takes would be
dropped without a word (h72 found `--cell ff0000=low --cell ff0000=high` reading every red
circle as low). Such a pair is refused, naming both; a narrower style before a wider one still
reads as written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text
from satsudoku.io.sudokupad_lines import parse_cell_type, parse_line_type, refuse_clashing_styles
from tests.test_rules import all_4x4, v

RED = "#FF0000"


def shape(cell: str) -> dict[str, Any]:
    return {"cells": [cell], "baseC": RED, "outlineC": "#000000", "width": 0.8, "height": 0.8}


DOCUMENT = json.dumps(
    {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "circle": [shape("R2C2")],
        "rectangle": [shape("R3C3")],
    }
)


@pytest.mark.parametrize(
    ("options", "never"),
    [
        (["--cell", "ff0000=odd", "--cell", "ff0000=even"], "--cell FF0000=even never applies"),
        (["--cell", "f00=odd", "--cell", "ff0000:round=even"], "--cell FF0000:round=even"),
        (["--line", "ccc=renban", "--line", "ccc:5=thermometer"], "--line CCCCCC:5=thermo"),
        (["--line", "cccccc=renban", "--line", "cccccc40=whispers"], "--line CCCCCC40=whispers"),
        (["--line", "ccc=distinctline:2", "--line", "ccc=distinctline:3"], "distinctline:3 never"),
    ],
)
def test_an_option_that_never_applies_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], never: str
) -> None:
    path = tmp_path / "red.json"
    path.write_text(DOCUMENT)
    assert main(["count", str(path), *options]) == 1
    err = capsys.readouterr().err.strip()
    assert never in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_the_library_refuses_it_too() -> None:
    with pytest.raises(PuzzleError, match="FF0000=even never applies"):
        read_text(DOCUMENT, cells=[parse_cell_type("ff0000=odd"), parse_cell_type("f00=even")])


def test_styles_that_leave_each_other_drawings_are_read() -> None:
    lines = [parse_line_type(s) for s in ("ccc:5=thermometer", "ccc=renban", "ccc=renban")]
    cells = [
        parse_cell_type(s)
        for s in ("ff000080=low", "ff0000:round=odd", "ff0000=even", "ff0000:round=sum")
    ]
    refuse_clashing_styles(lines, cells)  # nothing raised: narrower first, marks, alpha


def test_a_narrower_style_first_reads_both() -> None:
    """The red circle is odd (the narrower option), the red square even (the wider one)."""
    (puzzle,) = read_text(
        DOCUMENT, cells=[parse_cell_type("ff0000:round=odd"), parse_cell_type("ff0000=even")]
    )
    expected = sum(1 for g in all_4x4() if v(g, "r2c2") % 2 == 1 and v(g, "r3c3") % 2 == 0)
    assert 0 < expected < 288
    assert get_backend("sat").solve(puzzle, limit=300).count == expected
