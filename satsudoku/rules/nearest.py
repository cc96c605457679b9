"""Clues beside the grid about the three digits nearest them in their row or column: the sum or
the difference of the largest and the smallest of them, or where the largest stands.

Neither f-puzzles nor SudokuPad has a key for these: setters write the clues as plain numbers
outside the grid and say in the rules text what they mean; `--outside TYPE` reads them. Each
clue is a `Condition` over three cells of one house, posted as the Table of the digit orders it
allows (at most n(n-1)(n-2)/3 rows: 168 on 9×9), which every backend takes. Each rule writes
its rows out per digit triple (`orders`) rather than testing all n(n-1)(n-2) orders of three
cells (249,984 on a 64×64: a third of a second a clue); the verifier judges by `reading`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import permutations
from typing import ClassVar

from satsudoku.constraints import Constraint, Table
from satsudoku.deadline import check_building
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits
from satsudoku.rules.outside import _OutsideRule
from satsudoku.rules.schema import BySize

NEAREST = 3  # the rules texts' "three digits nearest the clue"


def min_max_sum(digits: Digits) -> int:
    """The largest digit plus the smallest."""
    return max(digits) + min(digits)


def min_max_difference(digits: Digits) -> int:
    """The largest digit minus the smallest."""
    return max(digits) - min(digits)


def largest_position(digits: Digits) -> int:
    """Where the largest digit stands, counted from 1 at the clue's side."""
    return digits.index(max(digits)) + 1


def _reads(digits: Digits, of: Callable[[Digits], int], clue: int) -> bool:
    return of(digits) == clue


@dataclass(frozen=True)
class _NearestRule(_OutsideRule):
    """An outside clue equal to `reading` of the three digits nearest it."""

    what: ClassVar[str]  # how a label names the clue

    @staticmethod
    def reading(digits: Digits) -> int:
        """What the clue states about its three digits."""
        raise NotImplementedError

    @staticmethod
    def orders(size: int, clue: int) -> Iterator[Digits]:
        """Every order of three different digits 1..size (nearest first) that meets `clue`,
        written out in time proportional to their number: the Table; the verifier reads
        `reading` instead."""
        raise NotImplementedError

    @classmethod
    def admit(cls, shape: Shape) -> None:
        if shape.size < NEAREST:
            raise PuzzleError(
                f"{cls.type} reads the {NEAREST} digits nearest a clue: the board "
                f"is {shape.size}x{shape.size}"
            )

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        reading = type(self).reading
        for place, line, clue in self.lines(shape):
            cells = line[:NEAREST]
            label = f"{self.what} {place} = {clue}"
            test = partial(_reads, of=reading, clue=clue)
            orders = partial(type(self).orders, clue=clue)
            yield Condition(cells, label, test, partial(_table, cells, orders))


def _table(
    cells: tuple[Cell, ...], orders: Callable[[int], Iterator[Digits]], shape: Shape
) -> tuple[Constraint, ...]:
    check_building()  # a 64×64 position clue has 83,328 rows
    return (Table(cells, frozenset(orders(shape.size))),)


def _with_middle(low: int, high: int) -> Iterator[Digits]:
    """Every order of low, high and one digit between them."""
    for middle in range(low + 1, high):
        yield from permutations((low, middle, high))


@register_rule("minmaxsum")
@dataclass(frozen=True)
class MinMaxSum(_NearestRule):
    """A clue is the largest plus the smallest of the three digits nearest it in its row or
    column.

    Meaning: "Minimax" as published ("clues outside of the grid give the sum of the largest and
    smallest of the three digits nearest the clue in that row or column", Nickleaton/sudoku
    2xwva23o; "Minmax Sudoku", yfh7d499). Read with `--outside minmaxsum`.
    """

    type: ClassVar[str] = "minmaxsum"
    what: ClassVar[str] = "largest + smallest of 3"

    @staticmethod
    def reading(digits: Digits) -> int:
        return min_max_sum(digits)

    @staticmethod
    def orders(size: int, clue: int) -> Iterator[Digits]:
        for low in range(max(1, clue - size), (clue + 1) // 2):
            yield from _with_middle(low, clue - low)

    highest = BySize("2n−1", lambda n: 2 * n - 1)

    @staticmethod
    def ends_fit(smallest: int, largest: int, clue: int) -> bool:
        return smallest + largest == clue


@register_rule("minmaxdifference")
@dataclass(frozen=True)
class MinMaxDifference(_NearestRule):
    """A clue is the largest minus the smallest of the three digits nearest it in its row or
    column.

    Meaning: "Maximin" as published ("clues outside of the grid give the difference of the
    largest and smallest of the three digits nearest the clue in that row or column",
    Nickleaton/sudoku 256onkxo). Read with `--outside minmaxdifference`.
    """

    type: ClassVar[str] = "minmaxdifference"
    what: ClassVar[str] = "largest − smallest of 3"

    @staticmethod
    def reading(digits: Digits) -> int:
        return min_max_difference(digits)

    @staticmethod
    def orders(size: int, clue: int) -> Iterator[Digits]:
        for low in range(1, size - clue + 1):
            yield from _with_middle(low, low + clue)

    highest = BySize("n−1", lambda n: n - 1)

    @staticmethod
    def ends_fit(smallest: int, largest: int, clue: int) -> bool:
        return largest - smallest == clue


@register_rule("maxposition")
@dataclass(frozen=True)
class MaxPosition(_NearestRule):
    """A clue (1, 2 or 3) is where the largest of the three digits nearest it stands, counted
    from the clue's side.

    Meaning: "Position Sudoku" as published ("clues tell you the relative position of the
    largest digit out of the three digits nearest that clue ... counted inwards from the
    direction of the clue", Nickleaton/sudoku 2k48xsnf; yj36quyd). Read with
    `--outside maxposition`.
    """

    type: ClassVar[str] = "maxposition"
    what: ClassVar[str] = "place of the largest of 3"

    @staticmethod
    def reading(digits: Digits) -> int:
        return largest_position(digits)

    @staticmethod
    def orders(size: int, clue: int) -> Iterator[Digits]:
        for high in range(3, size + 1):
            for a, b in permutations(range(1, high), 2):
                both = [a, b]
                both.insert(clue - 1, high)  # a clue above 3 is refused by the schema
                yield tuple(both)

    highest = BySize(str(NEAREST), lambda n: NEAREST)
