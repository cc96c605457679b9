"""`--outside TYPE`: numbers written as plain text beside the grid, read as clues of TYPE.

Frame sums, skyscrapers, X-sums and numbered rooms are often drawn as bare numbers in the ring
of cells around the grid (f-puzzles' `text`, SudokuPad's text overlays), their meaning only in
the rules text ("clues outside the grid give the sum of the first three digits"). A number
there is one clue for the row or column it stands beside, read from that side; anything else
(a corner, a cell of the grid, a text that is not a whole number) stays a drawing. Both sites'
readers put the clues under the f-puzzles key of TYPE, so one translation reads them.
"""

from __future__ import annotations

import re

from satsudoku.io.fpuzzles_families import outside_side

# --outside TYPE → the (f-puzzles) key its clues are read under.
OUTSIDE_KEYS = {
    "frame": "frame",
    "sandwich": "sandwichsum",
    "skyscraper": "skyscraper",
    "xsum": "xsum",
    "numberedroom": "numberedroom",
}
_WHOLE = re.compile(r"[0-9]{1,6}")


def outside_clue(cell: str, text: str, size: int) -> dict[str, str] | None:
    """The clue entry (`{cell: "R0C3", value: "11"}`) a text makes at f-puzzles cell `cell`
    (R0Cc above column c, RrC0 left of row r, …), or None when it is no clue: not beside a
    row or column, or not a whole number."""
    value = text.strip()
    if not _WHOLE.fullmatch(value):
        return None
    try:
        outside_side(cell, size)
    except ValueError:
        return None
    return {"cell": cell.upper(), "value": value}


def outside_option(cell: str | None, text: str, size: int) -> str:
    """The option a refusal names for a drawing that could be such a clue, else ''."""
    if cell is None or outside_clue(cell, text, size) is None:
        return ""
    return f"--outside TYPE ({', '.join(OUTSIDE_KEYS)})"
