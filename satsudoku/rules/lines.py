"""Line rules: thermometers (strict and slow), palindromes, renban, German whispers, between."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from satsudoku.constraints import Allowed, Between, Constraint, DigitSets, Less, Pair, Relation
from satsudoku.grid import Cell, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.schema import (
    N_MINUS_1,
    BySize,
    Declared,
    FpuzzlesKey,
    Integer,
    Line,
    ListOf,
    spec,
)

Lines = tuple[tuple[Cell, ...], ...]


def lines_field(minimum: int = 2) -> Any:
    """The `lines` field every line rule has: a list of lines of at least `minimum` cells."""
    return spec(ListOf(Line(minimum)))


@dataclass(frozen=True)
class LineRule(Declared):
    """Base of the rules whose one field is `lines`."""

    lines: Lines = lines_field()

    # A line too long for its rule (a thermometer of n + 1 cells) is not refused: like a
    # killer cage with an impossible sum or contradictory givens, it makes the puzzle
    # unsatisfiable, a verdict every backend reaches and the proofs certify.


@cache
def digit_range(low: int, high: int) -> frozenset[int]:
    """The digits low..high, one shared set per range: a 64×64 board's 131,000 two-cell
    thermometers stated 263,000 bounds, each its own set of 63 digits (2 KB), 560 MB."""
    return frozenset(range(low, high + 1))


@register_rule("thermometer")
@dataclass(frozen=True)
class Thermometer(LineRule):
    """Digits strictly increase from each line's bulb (its first cell)."""

    type: ClassVar[str] = "thermometer"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("thermometer", "lines")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        for line in self.lines:
            for a, b in zip(line, line[1:], strict=False):
                yield Less(a, b)
            # Implied bounds (the i-th cell is at least i+1), stated so search prunes early.
            for i, cell in enumerate(line):
                yield Allowed(cell, digit_range(i + 1, n - len(line) + i + 1))


@register_rule("slowthermometer")
@dataclass(frozen=True)
class SlowThermometer(LineRule):
    """Digits never decrease from each line's bulb (its first cell)."""

    type: ClassVar[str] = "slowthermometer"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("slowthermometer", "lines")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for a, b in zip(line, line[1:], strict=False):
                yield Pair(a, b, Relation.LESS_EQUAL)


@register_rule("palindrome")
@dataclass(frozen=True)
class Palindrome(LineRule):
    """Each line reads the same from both ends."""

    type: ClassVar[str] = "palindrome"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("palindrome", "lines")
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for i in range(len(line) // 2):
                yield Pair(line[i], line[-1 - i], Relation.EQUAL)


@register_rule("renban")
@dataclass(frozen=True)
class Renban(LineRule):
    """Each line holds a set of different consecutive digits, in any order."""

    type: ClassVar[str] = "renban"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("renban", "lines")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        for line in self.lines:
            k = len(line)
            runs = frozenset(frozenset(range(low, low + k)) for low in range(1, n - k + 2))
            yield DigitSets(line, runs, "consecutive")


@register_rule("whispers")
@dataclass(frozen=True)
class Whispers(LineRule):
    """Neighbours along each line differ by at least `difference`.

    Without a `difference` it is ⌈n/2⌉ for digits 1..n: 5 on 9×9 (German whispers), 3 on
    6×6, 2 on 4×4. This is f-puzzles' meaning, whose whispers carry no difference: its solver
    (dclamage/SudokuSolver `WhispersConstraint`) defaults to (MAX_VALUE + 1) / 2.
    """

    type: ClassVar[str] = "whispers"
    # Always written back: its default depends on the board size, which a spec does not carry.
    difference: int = spec(Integer(1, N_MINUS_1), absent=BySize("⌈n/2⌉", lambda n: (n + 1) // 2))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for a, b in zip(line, line[1:], strict=False):
                yield Pair(a, b, Relation.AT_LEAST, self.difference)


@register_rule("between")
@dataclass(frozen=True)
class BetweenLine(LineRule):
    """Digits inside each line lie strictly between the digits at its two ends."""

    type: ClassVar[str] = "between"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("betweenline", "lines")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for cell in line[1:-1]:
                yield Between(line[0], line[-1], cell)
