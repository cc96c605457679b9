"""`--cell COLOUR[:round|square]=sum|contains`: a shape on the border of two cells (or the
corner of four) holding a number, read as the rules text says it ("digits separated by an XV
sum to 15", "the digit in a white circle appears in one of the two cells").

Such a mark carries no type on either site: the same white circle with a 5 is a sum in one
puzzle, a product or the greater digit in another. The user names its meaning; the mark then
becomes a constraint satsudoku already has, with the same meaning:

  sum       two cells; the mark's number (digits or Roman numerals, `XV`, `vi`) is their sum:
            a killer cage of the two cells (orthogonal neighbours share a row or column, so
            its "different digits" adds nothing);
  contains  two cells or four around a corner; every digit written in the mark appears among
            them (as often as written): a quadruple;
  largest   two cells or four; the mark's digit is the largest of theirs: each holds at most
            it (given candidates) and one holds it (a quadruple);
  excludes  two cells or four; no digit written in the mark appears among them (given
            candidates without those digits);
  greaterthan  two cells; the mark is `<` or `>`, turned by f-puzzles' `angle` (degrees
            clockwise, a multiple of 90), its point towards the smaller digit: a greaterthan
            pair. A sign pointing along the border, or a SudokuPad sign turned by a key whose
            sense is not known, is refused.
"""

from __future__ import annotations

import re
from typing import Any

from satsudoku.errors import PuzzleError

# What `--cage TYPE` reads a cage's text as ("the digits in the top left of a cage must appear
# in that cage"): a quadruple of the cage's cells.
CAGE_TYPES = ("contains",)
# The types that read a mark on a border or corner, as opposed to a shape within one cell.
MARK_TYPES = ("sum", "contains", "largest", "excludes", "greaterthan")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_MAX_TOTAL = 2 * 64  # no two digits of the largest board add up to more


def roman(text: str) -> int | None:
    """A Roman numeral (any case, I V X L C) as its value when written the standard way
    (`XIV`, not `XIIII` or `IVX`); None otherwise. Marks like XV and VIII mean their sums."""
    upper = text.strip().upper()
    if not upper or any(ch not in _ROMAN for ch in upper) or len(upper) > 12:
        return None
    total = 0
    for i, ch in enumerate(upper):
        value = _ROMAN[ch]
        following = _ROMAN[upper[i + 1]] if i + 1 < len(upper) else 0
        total += -value if value < following else value
    return total if total > 0 and _as_roman(total) == upper else None


def _as_roman(value: int) -> str:
    out = ""
    for amount, letters in (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        count, value = divmod(value, amount)
        out += letters * count
    return out


def mark_total(text: str) -> int | None:
    """The sum a mark states: a whole number in decimal digits or Roman numerals; None if
    the text is neither (empty, `?`, `5+`)."""
    stripped = text.strip()
    if re.fullmatch(r"[0-9]{1,4}", stripped):
        return int(stripped)
    return roman(stripped)


def mark_digits(text: str, size: int) -> list[int] | None:
    """The digits a `contains` mark lists: on boards up to 9×9 each decimal digit (`12` is
    1 and 2, spaces and commas between them allowed), on larger ones numbers apart; None when
    the text holds anything else or a digit off the board."""
    stripped = text.strip()
    if not stripped or not re.fullmatch(r"[0-9 ,]{1,40}", stripped):
        return None
    if size <= 9:
        digits = [int(ch) for ch in stripped if ch.isdigit()]
    else:
        digits = [int(word) for word in re.split(r"[ ,]+", stripped) if word]
    return digits if digits and all(1 <= d <= size for d in digits) else None


def cage_entry(cells: list[str], text: str, size: int, described: str) -> dict[str, Any]:
    """The quadruple entry a cage's text amounts to under `--cage contains`; PuzzleError naming
    the cage (`described`) when its text lists no digits, or more than it has cells."""
    digits = mark_digits(text, size)
    if digits is None or len(digits) > len(cells):
        raise PuzzleError(
            f"{described}: --cage contains needs 1..{len(cells)} digits of 1..{size} in its "
            f"text, not {text[:20]!r}"
        )
    return {"cells": cells, "values": digits}


def mark_entries(
    kind: str,
    cells: list[str] | None,
    text: str,
    size: int,
    described: str,
    spec: str,
    turn: float | None = 0,
) -> list[tuple[str, dict[str, Any]]]:
    """The f-puzzles keys and entries a mark of `kind` amounts to, over the `cells` it
    touches (None when it sits on no inner border or corner); PuzzleError naming the mark
    (`described`) and the option (`spec`) when it cannot mean that. `markcandidates` is no
    f-puzzles key: the digits each cell may hold, read as given candidates. `turn`: the mark's
    rotation in degrees clockwise (None: turned in a way not known), for a `greaterthan` sign."""
    where = f"{described}: --cell {spec}"
    pair_only = kind in ("sum", "greaterthan")
    if cells is None or (pair_only and len(cells) != 2):
        place = "two cells" if pair_only else "two cells or the corner of four"
        raise PuzzleError(f"{where} reads a mark on the border of {place}; this one is not")
    if kind == "greaterthan":
        return [("greaterthan", {"cells": sign_pair(cells, text, turn, where)})]
    if kind == "sum":
        total = mark_total(text)
        if total is None or not 3 <= total <= _MAX_TOTAL:
            raise PuzzleError(f"{where} needs a sum in the mark (a number or XV, VI, …)")
        return [("killercage", {"cells": cells, "value": str(total)})]
    digits = mark_digits(text, size)
    most = 1 if kind == "largest" else len(cells)
    if digits is None or len(digits) > most:
        raise PuzzleError(
            f"{where} needs 1..{most} digits of 1..{size} in the mark, not {text[:20]!r}"
        )
    if kind == "contains":
        return [("quadruple", {"cells": cells, "values": digits})]
    if kind == "excludes":
        allowed = [d for d in range(1, size + 1) if d not in digits]
        return [("markcandidates", {"cells": cells, "values": allowed})]
    (top,) = digits
    return [
        ("markcandidates", {"cells": cells, "values": list(range(1, top + 1))}),
        ("quadruple", {"cells": cells, "values": [top]}),
    ]


_POINTS = {">": (0, 1), "<": (0, -1)}  # the way the sign's point faces, unturned (row, column)


def sign_pair(cells: list[str], text: str, turn: float | None, where: str) -> list[str]:
    """The two cells of an inequality sign, the greater first: the sign points at the smaller
    one (`3 < 5`), after turning it `turn` degrees clockwise; PuzzleError (naming the mark,
    `where`) for other text, another turn, or a point along the border."""
    point = _POINTS.get(text.strip())
    if point is None:
        raise PuzzleError(f"{where} needs the sign < or > in the mark, not {text[:20]!r}")
    if turn is None or turn % 90:
        raise PuzzleError(
            f"{where} reads signs turned by a multiple of 90 degrees; this one is not"
        )
    for _ in range(int(turn % 360) // 90):
        point = (point[1], -point[0])  # a quarter turn clockwise (rows grow downwards)
    (r1, c1), (r2, c2) = (_row_col(name) for name in cells)
    if (r2 - r1, c2 - c1) == point:
        return [cells[0], cells[1]]
    if (r1 - r2, c1 - c2) == point:
        return [cells[1], cells[0]]
    raise PuzzleError(f"{where}: the sign points along the border, at neither cell")


def _row_col(name: str) -> tuple[int, int]:
    row, col = name.upper().removeprefix("R").split("C")
    return int(row), int(col)
