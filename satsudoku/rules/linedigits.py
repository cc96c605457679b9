"""Clues beside the grid that list digits about their whole row or column: the digits next to
the largest digit ("Next to Nine"), two digits that stand side by side ("Best Friends"), a
pair X Y with X in the Y-th place or Y in the X-th ("Descriptive Pairs").

Neither f-puzzles nor SudokuPad has a key for these: setters write the digits as text outside
the grid and say in the rules text what they mean; `--outside TYPE` reads them. Each clue holds
its row or column from the clue's side and its digits; a digit stands once in the line, so
each clue is exact as small tables per place that digit may stand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import permutations
from typing import ClassVar

from satsudoku.constraints import MAX_TABLE, Allowed, Constraint, Table, TableTooLargeError
from satsudoku.deadline import check_building
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.beside import beside
from satsudoku.rules.condition import Condition, Digits
from satsudoku.rules.schema import Declared, Line, ListOf, Object, spec
from satsudoku.rules.schema import Digits as DigitList

LineClue = tuple[tuple[Cell, ...], tuple[Digit, ...]]


@dataclass(frozen=True)
class _LineDigitsRule(Declared):
    """`clues`: each a whole row or column read from the clue's side, and the clue's digits
    (`count` of them: one number, or a range)."""

    count: ClassVar[tuple[int, int]]  # how many digits a clue lists, least and most
    different: ClassVar[bool] = True  # whether they must differ (else no line meets the clue)
    clues: tuple[LineClue, ...] = spec(ListOf(Object({"cells": Line(), "digits": DigitList()})))

    def validate(self, shape: Shape) -> None:
        n = shape.size
        low, high = self.count
        for i, (cells, digits) in enumerate(self.clues):
            rows, cols = {r for r, _ in cells}, {c for _, c in cells}
            if len(cells) != n or (len(rows) != 1 and len(cols) != 1):
                raise PuzzleError(f"clues[{i}].cells: give a whole row or column ({n} cells)")
            repeats = self.different and len(set(digits)) != len(digits)
            if not low <= len(digits) <= high or repeats:
                many = str(low) if low == high else f"{low}..{high}"
                different = " different" if self.different else ""
                raise PuzzleError(f"clues[{i}].digits: give {many}{different} digits")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, digits in self.clues:
            label = f"{self.type} {cell_name(cells[0])}…: {' '.join(map(str, digits))}"
            yield self.clue(cells, digits, label, shape.size)

    def clue(self, cells: tuple[Cell, ...], digits: Digits, label: str, n: int) -> Constraint:
        raise NotImplementedError


def _around(
    line: tuple[Cell, ...],
    digit: Digit,
    fits: Callable[[Digits], bool],
    label: str,
    shape: Shape,
) -> tuple[Constraint, ...]:
    """'`digit` here ⇒ `fits(the digits next to it)`' for every place on the line: a pair
    table at each end, the table of the three cells around it inside."""
    n = shape.size
    if math.perm(n, 3) > MAX_TABLE:
        raise TableTooLargeError(
            f"{label}: the three cells around a digit take {math.perm(n, 3):,} rows, too many "
            "for the generic Table path"
        )
    check_building()
    pairs = frozenset(
        (a, b) for a, b in permutations(range(1, n + 1), 2) if a != digit or fits((b,))
    )
    middle = frozenset(
        (a, m, b) for a, m, b in permutations(range(1, n + 1), 3) if m != digit or fits((a, b))
    )
    parts: list[Constraint] = [Table((line[0], line[1]), pairs), Table((line[-1], line[-2]), pairs)]
    parts.extend(Table(line[i - 1 : i + 2], middle) for i in range(1, len(line) - 1))
    return tuple(parts)


def _neighbours_are(digits: Digits, largest: Digit, want: frozenset[Digit]) -> bool:
    return set(beside(digits, largest)) == want


@register_rule("besidelargestdigits")
@dataclass(frozen=True)
class BesideLargestDigits(_LineDigitsRule):
    """A clue lists all the digits (one or two) next to the largest digit of its row or column
    (9 on 9×9, 6 on 6×6).

    Meaning: "Next to Nine" as published ("clues outside the grid give ALL digits that are
    adjacent to the 9 in the corresponding row or column", Nickleaton/sudoku yhacmw2t); "Next
    to 6" (yzpzmf3t). Read with `--outside besidelargestdigits`.
    """

    type: ClassVar[str] = "besidelargestdigits"
    count = (1, 2)

    def clue(self, cells: tuple[Cell, ...], digits: Digits, label: str, n: int) -> Constraint:
        want = frozenset(digits)
        test = partial(_neighbours_are, largest=n, want=want)
        fits = partial(_set_is, want=want)
        return Condition(cells, label, test, partial(_around, cells, n, fits, label))


def _set_is(near: Digits, want: frozenset[Digit]) -> bool:
    return len(near) == len(want) and set(near) == want


def _side_by_side(digits: Digits, pair: Digits) -> bool:
    a, b = pair
    return abs(digits.index(a) - digits.index(b)) == 1


@register_rule("adjacentpair")
@dataclass(frozen=True)
class AdjacentPair(_LineDigitsRule):
    """A clue's two digits stand next to each other, in either order, in its row or column.

    Meaning: "Best Friends" as published ("clues tell you a pair of digits that must appear
    adjacent to each other (in either order) in that row or column", Nickleaton/sudoku
    2pwjjg9u). Read with `--outside adjacentpair`.
    """

    type: ClassVar[str] = "adjacentpair"
    count = (2, 2)

    def clue(self, cells: tuple[Cell, ...], digits: Digits, label: str, n: int) -> Constraint:
        first, second = digits
        test = partial(_side_by_side, pair=digits)
        fits = partial(_holds_digit, digit=second)
        return Condition(cells, label, test, partial(_around, cells, first, fits, label))


def _holds_digit(near: Digits, digit: Digit) -> bool:
    return digit in near


def _described(digits: Digits, pair: Digits) -> bool:
    x, y = pair
    return digits[y - 1] == x or digits[x - 1] == y


@register_rule("descriptivepair")
@dataclass(frozen=True)
class DescriptivePair(_LineDigitsRule):
    """A clue X Y: X stands in the Y-th cell of its row or column from the clue's side, or Y in
    the X-th (or both).

    Meaning: "Descriptive Pairs" as published ("either X appears in the Yth position in that
    row or column, or Y appears in the Xth position ... counting from the direction of the
    clue", Nickleaton/sudoku 27cgxe2j). Read with `--outside descriptivepair`. Posted as the
    table of the two cells' digit pairs.
    """

    type: ClassVar[str] = "descriptivepair"
    count = (2, 2)
    different = False

    def clue(self, cells: tuple[Cell, ...], digits: Digits, label: str, n: int) -> Constraint:
        test = partial(_described, pair=digits)
        return Condition(cells, label, test, partial(_pair_table, cells, digits))


def _pair_table(cells: tuple[Cell, ...], pair: Digits, shape: Shape) -> tuple[Constraint, ...]:
    """The digits of the X-th and Y-th cells: X in the Y-th, or Y in the X-th."""
    x, y = pair
    if x == y:  # "3 3": the 3 in the third cell
        return (Allowed(cells[x - 1], frozenset({x})),)
    digits = range(1, shape.size + 1)
    rows = frozenset((p, q) for p, q in permutations(digits, 2) if p == x or q == y)
    return (Table((cells[y - 1], cells[x - 1]), rows),)
