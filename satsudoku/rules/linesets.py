"""Line rules about which kinds of digit sit together: entropic, modular and parity lines (a
class per run of cells), same-parity lines, nabner lines (no equal or consecutive pair) and
lockout lines."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from satsudoku.constraints import (
    MAX_TABLE,
    Automaton,
    Constraint,
    Pair,
    Relation,
    Table,
    table_of,
)
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits
from satsudoku.rules.lines import LineRule
from satsudoku.rules.schema import N_MINUS_1, FpuzzlesKey, Integer, N, spec

Classify = Callable[[Digit], int]


def _label(kind: str, line: tuple[Cell, ...]) -> str:
    return f"{kind}({cell_name(line[0])}..{cell_name(line[-1])})"


def runs_hold_every_class(line: Digits, classify: Classify, width: int) -> bool:
    """Every run of `width` consecutive digits (the whole line if shorter) has pairwise
    different classes: with `width` classes, one of each."""
    classes = [classify(d) for d in line]
    runs = [classes[i : i + width] for i in range(max(1, len(classes) - width + 1))]
    return all(len(set(run)) == len(run) for run in runs)


def class_line(kind: str, line: tuple[Cell, ...], classify: Classify, width: int) -> Condition:
    """The shared mechanism of entropic, modular and parity lines.

    Exact as pairs: cells closer than `width` along the line have different classes (so every
    run holds each class once), and cells `width` apart the same class (implied, but stated so
    search sees it at once). Each pair is a table of at most n² digit pairs.
    """

    def parts(shape: Shape) -> tuple[Constraint, ...]:
        out: list[Constraint] = []
        for i in range(len(line)):
            for j in range(i + 1, min(len(line), i + width + 1)):
                same = j - i == width
                out.append(
                    table_of(
                        (line[i], line[j]),
                        lambda a, b, same=same: (classify(a) == classify(b)) == same,
                        shape.size,
                    )
                )
        return tuple(out)

    return Condition(
        line,
        _label(kind, line),
        lambda t: runs_hold_every_class(t, classify, width),
        parts,
    )


def _entropic_classes(shape: Shape) -> Classify:
    third = shape.size // 3
    return lambda d: (d - 1) // third


@register_rule("entropicline")
@dataclass(frozen=True)
class EntropicLine(LineRule):
    """Every run of three cells along a line holds one low, one middle and one high digit
    (1-3, 4-6, 7-9 on 9×9; on n×n the thirds of 1..n); a line of two holds two classes.

    Meaning: f-puzzles key `entropicline` as rangsk's SudokuSolver reads it, and ISS `Entropic`
    ("every sequential group of 3 cells on the line must have different values from the groups
    {1,2,3}, {4,5,6} and {7,8,9}"), which also makes a two-cell line's classes differ.
    """

    type: ClassVar[str] = "entropicline"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("entropicline", "lines")

    @classmethod
    def admit(cls, shape: Shape) -> None:
        if shape.size % 3:
            raise PuzzleError(f"needs a size divisible by 3 (low, middle, high), not {shape.size}")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        classify = _entropic_classes(shape)
        for line in self.lines:
            yield class_line("entropic", line, classify, 3)


@register_rule("modularline")
@dataclass(frozen=True)
class ModularLine(LineRule):
    """Every run of `modulus` cells along a line (3 unless given) holds one digit of each
    residue modulo `modulus`; a shorter line holds different residues.

    Meaning: f-puzzles key `modularline` as rangsk's SudokuSolver reads it (residues 147, 258,
    369), and ISS `Modular~mod` ("every sequential group of 'mod' cells on the line must have
    different values when taken modulo 'mod'").
    """

    type: ClassVar[str] = "modularline"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("modularline", "lines")
    modulus: int = spec(Integer(2, N), absent=3, omit=lambda m: m == 3, default=3)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        m = self.modulus
        for line in self.lines:
            yield class_line(f"modular {m}", line, lambda d: d % m, m)


@register_rule("parityline")
@dataclass(frozen=True)
class ParityLine(LineRule):
    """Digits along a line alternate between odd and even.

    Meaning: the parity-line rule as setters state it, e.g. Marty Sears' "Parity Fish" in
    SakanaAI's Sudoku-Bench ("two cells adjacent along a red line must contain one even digit
    and one odd digit"); ISS expresses it as `Modular~2`, the modular line with modulus 2, and
    it is posted through the same mechanism.
    """

    type: ClassVar[str] = "parityline"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            yield class_line("parity", line, lambda d: d % 2, 2)


def same_parity(line: Digits) -> bool:
    """Every digit of the line has the parity of the first."""
    return all(d % 2 == line[0] % 2 for d in line)


@register_rule("sameparityline")
@dataclass(frozen=True)
class SameParityLine(LineRule):
    """The digits on a line are all odd or all even.

    Meaning: Nickleaton/sudoku's f-puzzles "Parity Lines" ("for each grey line in the grid,
    either all of the digits on it are odd, or all of them are even"; "digits on the same line
    have the same parity") and "Three-in-a-row" ("each line contains either three odd digits
    or three even digits"). Posted as pairs: each cell has the first cell's parity (n² rows).
    """

    type: ClassVar[str] = "sameparityline"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            yield Condition(
                line,
                _label("same parity", line),
                same_parity,
                partial(_same_parity_parts, line),
            )


def _same_parity_parts(line: tuple[Cell, ...], shape: Shape) -> tuple[Constraint, ...]:
    """One pair table per cell with the first, all sharing one set of rows: a 4,096-cell line
    of a 64×64 built 4,095 copies of the same 2,048 rows (1.08 GB) before its refusal."""
    digits = range(1, shape.size + 1)
    rows = frozenset((a, b) for a in digits for b in digits if a % 2 == b % 2)
    return tuple(Table((line[0], cell), rows) for cell in line[1:])


@register_rule("distinctline")
@dataclass(frozen=True)
class DistinctLine(LineRule):
    """Exactly `count` different digits appear on each line (digits may repeat along it where
    the houses let them).

    Meaning: Nickleaton/sudoku's f-puzzles "Repeat After Me" ("each marked diagonal only
    contains three distinct digits") and "Antidiagonal" (the same). Posted as an automaton over
    the line whose state is the set of digits seen (at most `count` of them), accepting
    exactly `count`.
    """

    type: ClassVar[str] = "distinctline"
    count: int = spec(Integer(1, N))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            yield Condition(
                line,
                _label(f"{self.count} distinct", line),
                partial(_has_distinct, self.count),
                partial(_distinct_parts, line, self.count),
            )


def _has_distinct(count: int, line: Digits) -> bool:
    return len(set(line)) == count


def _distinct_parts(line: tuple[Cell, ...], count: int, shape: Shape) -> tuple[Constraint, ...]:
    def step(state: tuple[int, ...], digit: Digit) -> tuple[int, ...] | None:
        seen = state[0] | 1 << digit
        return (seen,) if seen.bit_count() <= count else None

    def done(state: tuple[int, ...]) -> bool:
        return state[0].bit_count() == count

    label = _label(f"{count} distinct", line)
    return (Automaton(line, shape.size, (0,), step, done, label),)


@register_rule("arithmeticline")
@dataclass(frozen=True)
class ArithmeticLine(LineRule):
    """The digits along a line form an arithmetic sequence: every step along it changes the
    digit by the same amount (up, down or, where the houses allow, nothing).

    Meaning: Nickleaton/sudoku's f-puzzles "Sequence Sudoku" ("each grey line must consist of an
    arithmetic sequence ... like 1-2-3-4 or 3-5-7-9; the sequence can begin at either end") and,
    on three-cell lines, "Average Sudoku" ("the digit in the central cell must be the average
    of the two digits on the ends": 2b = a + c). Posted as an automaton whose state is the last
    digit and the step so far.
    """

    type: ClassVar[str] = "arithmeticline"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            label = _label("arithmetic", line)
            yield Condition(line, label, is_arithmetic, partial(_arithmetic_parts, line, label))


def is_arithmetic(line: Digits) -> bool:
    """Every difference of neighbours along the line is the first one."""
    return all(b - a == line[1] - line[0] for a, b in zip(line, line[1:], strict=False))


_NO_STEP = 0  # the state's step before the second digit; steps are stored as n + step ≥ 1


def _arithmetic_parts(line: tuple[Cell, ...], label: str, shape: Shape) -> tuple[Constraint, ...]:
    n = shape.size

    def step(state: tuple[int, ...], digit: Digit) -> tuple[int, ...] | None:
        last, stored = state
        if last == 0:
            return (digit, _NO_STEP)
        if stored == _NO_STEP:
            return (digit, n + digit - last)
        return (digit, stored) if digit - last == stored - n else None

    return (Automaton(line, n, (0, _NO_STEP), step, lambda state: True, label),)


@register_rule("segmentsumline")
@dataclass(frozen=True)
class SegmentSumLine(LineRule):
    """Each line divides into consecutive runs of cells, every run summing to `total`.

    Meaning: Nickleaton/sudoku's f-puzzles "10 Lines" ("the cells along each line can be
    divided into connected groups so that every group sums to exactly 10 ... every cell must
    be part of a group"). Digits are positive, so the cut is found reading from either end;
    posted as an automaton whose state is the sum of the run so far.
    """

    type: ClassVar[str] = "segmentsumline"
    total: int = spec(Integer(1, None))

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            label = _label(f"runs of {self.total}", line)
            yield Condition(
                line,
                label,
                partial(splits_into, self.total),
                partial(_segment_parts, line, self.total, label),
            )


def splits_into(total: int, line: Digits) -> bool:
    """Whether the line cuts into consecutive runs each summing to `total`.

    Digits are positive, so a run's sum only grows: the one cut possible is where the sum
    reaches `total`, and one pass finds it (trying every split recursed once per run, a
    RecursionError on a 64×64 line of 2,016 runs, and took cubic time to reject one).
    """
    run = 0
    for digit in line:
        run += digit
        if run > total:
            return False
        if run == total:
            run = 0
    return run == 0


def _segment_parts(
    line: tuple[Cell, ...], total: int, label: str, shape: Shape
) -> tuple[Constraint, ...]:
    def step(state: tuple[int, ...], digit: Digit) -> tuple[int, ...] | None:
        run = state[0] + digit
        return None if run > total else ((0,) if run == total else (run,))

    return (Automaton(line, shape.size, (0,), step, lambda state: state == (0,), label),)


_UP, _DOWN = 1, 2  # a step's direction in the states below (0: none yet)


def _direction(last: Digit, digit: Digit) -> int | None:
    return _UP if digit > last else _DOWN if digit < last else None


@register_rule("monotoneline")
@dataclass(frozen=True)
class MonotoneLine(LineRule):
    """The digits along a line strictly increase from one end to the other (which end is for
    the solver to find, line by line).

    Meaning: Nickleaton/sudoku's f-puzzles "Creasing Sudoku" ("along each line, digits either
    strictly increase or strictly decrease; whether ... is to be determined by the solver").
    Posted as an automaton over (last digit, direction).
    """

    type: ClassVar[str] = "monotoneline"

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            label = _label("monotone", line)
            yield Condition(line, label, is_monotone, partial(_monotone_parts, line, label))


def is_monotone(line: Digits) -> bool:
    return list(line) in (sorted(set(line)), sorted(set(line), reverse=True))


def _monotone_parts(line: tuple[Cell, ...], label: str, shape: Shape) -> tuple[Constraint, ...]:
    """An automaton over (last digit, direction of the steps so far): every step keeps it."""

    def step(state: tuple[int, ...], digit: Digit) -> tuple[int, ...] | None:
        last, going = state
        if last == 0:
            return (digit, 0)
        now = _direction(last, digit)
        if now is None or (going and now != going):
            return None
        return (digit, now)

    return (Automaton(line, shape.size, (0, 0), step, lambda state: True, label),)


@register_rule("nabner")
@dataclass(frozen=True)
class Nabner(LineRule):
    """No two digits on a line are equal or consecutive, wherever they stand on it.

    Meaning: rangsk's SudokuSolver `nabner` ("no two digits on the line may be the same or
    consecutive") and the ISS Nabner examples (every pair of line cells differs by 2 or more).
    """

    type: ClassVar[str] = "nabner"
    fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("nabner", "lines")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            for i, a in enumerate(line):
                for b in line[i + 1 :]:
                    yield Pair(a, b, Relation.AT_LEAST, 2)


def locked_out(line: Digits, difference: int) -> bool:
    """The ends differ by `difference` or more and no other digit lies between them (inclusive)."""
    low, high = sorted((line[0], line[-1]))
    return high - low >= difference and all(not low <= d <= high for d in line[1:-1])


@register_rule("lockout")
@dataclass(frozen=True)
class Lockout(LineRule):
    """The two ends of a line (its diamonds) differ by at least `difference` (4 unless given),
    and every other digit on the line lies outside the range they span, ends included.

    Meaning: ISS `Lockout~minDiff` ("values on the line must not be between the values in the
    diamonds; the values in the diamonds must differ by the difference given", default 4).
    Posted as the ends' difference pair and one table of at most n³ triples per inner cell.
    """

    type: ClassVar[str] = "lockout"
    difference: int = spec(Integer(1, N_MINUS_1), absent=4, omit=lambda d: d == 4, default=4)

    @classmethod
    def admit(cls, shape: Shape) -> None:
        if shape.size**3 > MAX_TABLE:  # each inner cell is a table of n³ digit triples
            raise PuzzleError(
                f"needs a board of at most 58x58 (its tables grow as n³), not size {shape.size}"
            )

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for line in self.lines:
            test = partial(locked_out, difference=self.difference)
            yield Condition(line, _label("lockout", line), test, partial(self._parts, line))

    def _parts(self, line: tuple[Cell, ...], shape: Shape) -> tuple[Constraint, ...]:
        first, last = line[0], line[-1]
        out: list[Constraint] = [Pair(first, last, Relation.AT_LEAST, self.difference)]
        for cell in line[1:-1]:
            out.append(
                table_of(
                    (first, last, cell),
                    lambda a, b, m: not min(a, b) <= m <= max(a, b),
                    shape.size,
                )
            )
        return tuple(out)
