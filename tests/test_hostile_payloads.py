"""Hostile SudokuPad and f-puzzles payloads on the newer reading paths: refused in one line,
with memory and time bounded by what a puzzle can hold."""

from __future__ import annotations

import pytest

from satsudoku.errors import PuzzleError
from satsudoku.io import read_text, sclzip
from satsudoku.io.limits import MAX_CONTAINERS


def test_empty_array_slots_count_as_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """PuzzleZipper's empty slot (`[,,]`) is an empty object each: 7 MB of commas in a zipped
    SudokuPad file built 7 million dicts (535 MB, 15 s) before the grid check refused it."""
    monkeypatch.setattr(sclzip, "MAX_CONTAINERS", 1000)
    with pytest.raises(PuzzleError, match="more than the 1,000 arrays and objects"):
        sclzip.unzip("{cells:[" + "," * 5000 + "]}")
    # 996 commas: 997 slots, and the outer object and array: 999 of the 1,000
    assert len(sclzip.unzip("{cells:[" + "," * 996 + "]}")["cells"]) == 997


def test_the_limit_is_the_json_one() -> None:
    assert sclzip.MAX_CONTAINERS == MAX_CONTAINERS


def test_a_zipped_file_of_commas_is_one_line_error() -> None:
    with pytest.raises(PuzzleError) as caught:
        read_text("{cells:[[,,],[,," + ",," * 20 + "]]}")
    assert "\n" not in str(caught.value)
