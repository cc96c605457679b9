"""A clue 0 written beside the grid: a sandwich clue (1 and n touch), but no frame, skyscraper,
X-sum or numbered-room clue is 0, and those rules read 0 as "no clue". A text '0' under
`--outside frame` (or such a key's own entry) was dropped unseen: the puzzle solved without
it (multiple) instead of being refused."""

from __future__ import annotations

import json

import pytest

from satsudoku.errors import PuzzleError
from satsudoku.io import read_text

N = 4


def fpuzzles(**keys: object) -> str:
    return json.dumps({"size": N, "grid": [[{} for _ in range(N)] for _ in range(N)], **keys})


def sudokupad(text: str) -> str:
    """SudokuPad's own JSON, one text overlay left of row 1."""
    cells: list[list[dict[str, object]]] = [[{} for _ in range(N)] for _ in range(N)]
    regions = [[[r + dr, c + dc] for dr in (0, 1) for dc in (0, 1)] for r in (0, 2) for c in (0, 2)]
    overlay = {"center": [0.5, -0.5], "width": 0.8, "height": 0.8, "text": text}
    return json.dumps({"cells": cells, "regions": regions, "overlays": [overlay]})


ZERO_TEXT = fpuzzles(text=[{"cells": ["R1C0"], "value": "0"}])
NEVER_ZERO = ["frame", "skyscraper", "xsum", "numberedroom"]


@pytest.mark.parametrize("kind", NEVER_ZERO)
@pytest.mark.parametrize("data", [ZERO_TEXT, sudokupad("0")], ids=["fpuzzles", "sudokupad"])
def test_a_written_zero_is_refused_where_no_clue_is_zero(kind: str, data: str) -> None:
    with pytest.raises(PuzzleError, match=f"clue 0 at R1C0: no {kind} clue is 0"):
        read_text(data, outside=kind)


@pytest.mark.parametrize("kind", NEVER_ZERO)
def test_a_keys_own_zero_entry_is_refused(kind: str) -> None:
    with pytest.raises(PuzzleError, match=f"clue 0 at R0C2: no {kind} clue is 0"):
        read_text(fpuzzles(**{kind: [{"cell": "R0C2", "value": "0"}]}))


@pytest.mark.parametrize("data", [ZERO_TEXT, sudokupad("0")], ids=["fpuzzles", "sudokupad"])
def test_a_zero_is_still_a_sandwich_clue(data: str) -> None:
    (puzzle,) = read_text(data, outside="sandwich")
    (rule,) = puzzle.rules
    assert rule.to_spec()["rows"] == [0, None, None, None]


def test_leading_zeros_still_read_as_the_number() -> None:
    (puzzle,) = read_text(fpuzzles(text=[{"cells": ["R1C0"], "value": "003"}]), outside="frame")
    assert [rule.to_spec() for rule in puzzle.rules] == [{"type": "frame", "left": [3, 0, 0, 0]}]
