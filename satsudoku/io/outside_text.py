"""`--outside TYPE`: numbers written as plain text beside the grid, read as clues of TYPE.

Frame sums, skyscrapers, X-sums and numbered rooms are often drawn as bare numbers in the ring
of cells around the grid (f-puzzles' `text`, SudokuPad's text overlays), their meaning only in
the rules text ("clues outside the grid give the sum of the first three digits"). A number
there is one clue for the row or column it stands beside, read from that side; anything else
(a corner, a cell of the grid, a text that is not a whole number) stays a drawing. Both sites'
readers put the clues under the f-puzzles key of TYPE, so one translation reads them.
`contains` ("Outside Sudoku": the clue's digits appear among the first three cells from its
side) and the types of `satsudoku.rules.linedigits` take a list of digits (`12`, `1 2`) instead
of a number.
"""

from __future__ import annotations

import re

from satsudoku.io.border_marks import mark_digits
from satsudoku.io.fpuzzles_families import outside_side

# --outside TYPE → the (f-puzzles) key its clues are read under.
OUTSIDE_KEYS = {
    "frame": "frame",
    "sandwich": "sandwichsum",
    "skyscraper": "skyscraper",
    "xsum": "xsum",
    "numberedroom": "numberedroom",
    "minmaxsum": "minmaxsum",
    "minmaxdifference": "minmaxdifference",
    "maxposition": "maxposition",
    "evensandwich": "evensandwich",
    "besidelargest": "besidelargest",
    "prefixsum": "prefixsum",
    "ascendingsum": "ascendingsum",
    "longestascending": "longestascending",
    "paritylongest": "paritylongest",
    "tripletsum": "tripletsum",
    "contains": "outsidecontains",  # not an f-puzzles key: read as quadruples
    "besidelargestdigits": "besidelargestdigits",
    "adjacentpair": "adjacentpair",
    "descriptivepair": "descriptivepair",
}
OUTSIDE_CELLS = 3  # an outside-contains clue's digits appear among this many nearest cells
# The types whose clues list digits ("4 8", "12"), with how many a clue lists: least, most.
DIGIT_LISTS = {
    "contains": (1, OUTSIDE_CELLS),
    "besidelargestdigits": (1, 2),
    "adjacentpair": (2, 2),
    "descriptivepair": (2, 2),
}
_WHOLE = re.compile(r"[0-9]{1,6}")


def outside_clue(cell: str, text: str, size: int, kind: str | None = None) -> dict[str, str] | None:
    """The clue entry (`{cell: "R0C3", value: "11"}`) a text makes at f-puzzles cell `cell`
    (R0Cc above column c, RrC0 left of row r, …), or None when it is no clue: not beside a
    row or column, or not a whole number (for a DIGIT_LISTS type: not as many digits of the
    board as it takes)."""
    value = text.strip()
    if kind in DIGIT_LISTS:
        digits = mark_digits(value, size)
        low, high = DIGIT_LISTS[kind]
        if digits is None or not low <= len(digits) <= high:
            return None
        value = " ".join(map(str, digits))
    elif not _WHOLE.fullmatch(value):
        return None
    try:
        outside_side(cell, size)
    except ValueError:
        return None
    return {"cell": cell.upper(), "value": value}


def outside_option(cell: str | None, text: str, size: int) -> str:
    """The option a refusal names for a drawing that could be such a clue, else ''."""
    if cell is None or all(outside_clue(cell, text, size, k) is None for k in (None, *DIGIT_LISTS)):
        return ""
    return f"--outside TYPE ({', '.join(OUTSIDE_KEYS)})"
