"""Clues beside the grid about the digits next to one digit of their row or column: the clue's
own digit between two even digits ("Even Sandwich"), or the sum of the digits beside the
largest digit ("Sum Next to 9").

Neither f-puzzles nor SudokuPad has a key for these: setters write the clues as plain numbers
outside the grid and say in the rules text what they mean; `--outside TYPE` reads them. The
digit concerned stands once in the row or column, so each clue is exact as one small table per
place it may stand ("if it stands here, its neighbours are such"), which every backend takes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from itertools import permutations
from typing import ClassVar

from satsudoku.constraints import MAX_TABLE, Allowed, Constraint, Table, TableTooLargeError
from satsudoku.deadline import check_building
from satsudoku.grid import Cell, Digit, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits, implication_table
from satsudoku.rules.outside import _OutsideRule
from satsudoku.rules.schema import BySize, N


def beside(digits: Digits, digit: Digit) -> Digits:
    """The one or two digits next to `digit` in a line holding it once; () when it is absent
    (no complete row or column lacks a digit)."""
    if digit not in digits:
        return ()
    i = digits.index(digit)
    return digits[max(0, i - 1) : i] + digits[i + 1 : i + 2]


def even_sandwich(digits: Digits, clue: int) -> bool:
    """The clue's digit has a digit on both sides, both even."""
    around = beside(digits, clue)
    return len(around) == 2 and all(d % 2 == 0 for d in around)


def beside_largest(digits: Digits, clue: int) -> bool:
    """The digits next to the largest digit of the line (n in a full row) add up to `clue`."""
    return sum(beside(digits, max(digits))) == clue


@register_rule("evensandwich")
@dataclass(frozen=True)
class EvenSandwich(_OutsideRule):
    """A clue's digit stands in its row or column between two even digits (never at an end).

    Meaning: "Even Sandwich" as published ("whenever a digit is shown outside of a row or
    column, that digit must be 'sandwiched' between two even digits in that row or that
    column", Nickleaton/sudoku yduxh3w3; "its two direct neighbours in the corresponding row or
    column must both be even", yzrxvbml). Read with `--outside evensandwich`; which side the
    clue stands on does not matter. Posted as "not at either end" and, for every other place,
    "the clue's digit here ⇒ each neighbour even", tables of n² pairs.
    """

    type: ClassVar[str] = "evensandwich"
    highest = N

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for place, line, clue in self.lines(shape):
            label = f"even sandwich {place}: {clue} between evens"
            test = partial(even_sandwich, clue=clue)
            yield Condition(line, label, test, partial(_sandwich_parts, line, clue))


def _sandwich_parts(line: tuple[Cell, ...], clue: int, shape: Shape) -> tuple[Constraint, ...]:
    n = shape.size
    others = frozenset(range(1, n + 1)) - {clue}
    evens = frozenset(range(2, n + 1, 2))
    parts: list[Constraint] = [Allowed(line[0], others), Allowed(line[-1], others)]
    for i in range(1, len(line) - 1):
        for j in (i - 1, i + 1):
            parts.append(implication_table((line[i], line[j]), n, clue, evens, True))
    return tuple(parts)


@register_rule("besidelargest")
@dataclass(frozen=True)
class BesideLargest(_OutsideRule):
    """A clue is the sum of the digit or two digits next to the largest digit (9 on 9×9) of its
    row or column.

    Meaning: "Sum Next to 9" as published ("clues outside of the grid give the sum of the
    digit(s) touching the 9 in that row or column ... if a 9 appears in r4c1 and a 6 clue
    appears left of r4, then r4c2 is 6", Nickleaton/sudoku 2hvh2otu). Read with `--outside
    besidelargest`; which side the clue stands on does not matter. Posted per place of the
    largest digit: at an end, "n here ⇒ the next cell holds the clue" (n² pairs); inside, the
    table of the three cells around it (n(n-1)(n-2) rows at most: 504 on 9×9).
    """

    type: ClassVar[str] = "besidelargest"
    highest = BySize("2n−3", lambda n: 2 * n - 3)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for place, line, clue in self.lines(shape):
            label = f"beside the largest {place} = {clue}"
            test = partial(beside_largest, clue=clue)
            yield Condition(line, label, test, partial(_largest_parts, line, clue, label))


def _largest_parts(
    line: tuple[Cell, ...], clue: int, label: str, shape: Shape
) -> tuple[Constraint, ...]:
    n = shape.size
    if math.perm(n, 3) > MAX_TABLE:
        raise TableTooLargeError(
            f"{label}: the three cells around the {n} take {math.perm(n, 3):,} rows, too many "
            "for the generic Table path"
        )
    top = frozenset({clue})
    parts: list[Constraint] = [
        implication_table((line[0], line[1]), n, n, top, True),
        implication_table((line[-1], line[-2]), n, n, top, True),
    ]
    check_building()
    rows = frozenset(
        (a, m, b) for a, m, b in permutations(range(1, n + 1), 3) if m != n or a + b == clue
    )
    parts.extend(Table(line[i - 1 : i + 2], rows) for i in range(1, len(line) - 1))
    return tuple(parts)
