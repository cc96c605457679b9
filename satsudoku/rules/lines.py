"""Line rules: thermometers (strict and slow), palindromes, renban, German whispers, between."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import Allowed, Between, Constraint, DigitSets, Less, Pair, Relation
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.fields import check_fields, integer, lines_of, names

Lines = tuple[tuple[Cell, ...], ...]


def _spec(kind: str, lines: Lines) -> dict[str, Any]:
    return {"type": kind, "lines": [names(line) for line in lines]}


@register_rule("thermometer")
@dataclass(frozen=True)
class Thermometer:
    """Digits strictly increase from each line's bulb (its first cell)."""

    type: ClassVar[str] = "thermometer"
    lines: Lines

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Thermometer:
        check_fields(spec, {"lines"})
        lines = lines_of(spec["lines"], shape, "lines")
        for i, line in enumerate(lines):
            if len(line) > shape.size:
                raise PuzzleError(f"lines[{i}]: {len(line)} cells cannot strictly increase")
        return cls(lines)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        for line in self.lines:
            for a, b in zip(line, line[1:], strict=False):
                yield Less(a, b)
            # Implied bounds (the i-th cell is at least i+1), stated so search prunes early.
            for i, cell in enumerate(line):
                yield Allowed(cell, frozenset(range(i + 1, n - len(line) + i + 2)))

    def to_spec(self) -> dict[str, Any]:
        return _spec(self.type, self.lines)


@register_rule("slowthermometer")
@dataclass(frozen=True)
class SlowThermometer:
    """Digits never decrease from each line's bulb (its first cell)."""

    type: ClassVar[str] = "slowthermometer"
    lines: Lines

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> SlowThermometer:
        check_fields(spec, {"lines"})
        return cls(lines_of(spec["lines"], shape, "lines"))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for a, b in zip(line, line[1:], strict=False):
                yield Pair(a, b, Relation.LESS_EQUAL)

    def to_spec(self) -> dict[str, Any]:
        return _spec(self.type, self.lines)


@register_rule("palindrome")
@dataclass(frozen=True)
class Palindrome:
    """Each line reads the same from both ends."""

    type: ClassVar[str] = "palindrome"
    digit_symmetric: ClassVar[bool] = True  # relabelling digits keeps it
    lines: Lines

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Palindrome:
        check_fields(spec, {"lines"})
        return cls(lines_of(spec["lines"], shape, "lines"))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for i in range(len(line) // 2):
                yield Pair(line[i], line[-1 - i], Relation.EQUAL)

    def to_spec(self) -> dict[str, Any]:
        return _spec(self.type, self.lines)


@register_rule("renban")
@dataclass(frozen=True)
class Renban:
    """Each line holds a set of different consecutive digits, in any order."""

    type: ClassVar[str] = "renban"
    lines: Lines

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Renban:
        check_fields(spec, {"lines"})
        lines = lines_of(spec["lines"], shape, "lines")
        for i, line in enumerate(lines):
            if len(line) > shape.size:
                raise PuzzleError(f"lines[{i}]: {len(line)} cells cannot hold different digits")
        return cls(lines)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        for line in self.lines:
            k = len(line)
            runs = frozenset(frozenset(range(low, low + k)) for low in range(1, n - k + 2))
            yield DigitSets(line, runs, "consecutive")

    def to_spec(self) -> dict[str, Any]:
        return _spec(self.type, self.lines)


@register_rule("whispers")
@dataclass(frozen=True)
class Whispers:
    """Neighbours along each line differ by at least `difference`.

    Without a `difference` it is ⌈n/2⌉ for digits 1..n: 5 on 9×9 (German whispers), 3 on
    6×6, 2 on 4×4. This is f-puzzles' meaning, whose whispers carry no difference: its solver
    (dclamage/SudokuSolver `WhispersConstraint`) defaults to (MAX_VALUE + 1) / 2.
    """

    type: ClassVar[str] = "whispers"
    lines: Lines
    difference: int

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Whispers:
        check_fields(spec, {"lines"}, {"difference"})
        lines = lines_of(spec["lines"], shape, "lines")
        difference = (shape.size + 1) // 2
        if "difference" in spec:
            difference = integer(spec["difference"], "difference", low=1, high=shape.size - 1)
        return cls(lines, difference)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for a, b in zip(line, line[1:], strict=False):
                yield Pair(a, b, Relation.AT_LEAST, self.difference)

    def to_spec(self) -> dict[str, Any]:
        # Always written: the default depends on the board size, which a spec does not carry.
        return {**_spec(self.type, self.lines), "difference": self.difference}


@register_rule("between")
@dataclass(frozen=True)
class BetweenLine:
    """Digits inside each line lie strictly between the digits at its two ends."""

    type: ClassVar[str] = "between"
    lines: Lines

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> BetweenLine:
        check_fields(spec, {"lines"})
        return cls(lines_of(spec["lines"], shape, "lines"))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for cell in line[1:-1]:
                yield Between(line[0], line[-1], cell)

    def to_spec(self) -> dict[str, Any]:
        return _spec(self.type, self.lines)
