"""Clues outside the grid read along a row or column from their side: X-sums, skyscrapers,
numbered rooms and frames (sandwiches, whose clue reads the same from both ends, live in
`sums`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from satsudoku.constraints import Allowed, Automaton, Constraint, State, Sum
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits, implication_table
from satsudoku.rules.schema import NO_CLUES, BySize, Clues, Declaration, Declared, N, empty, spec

SIDES = ("left", "right", "top", "bottom")
SIDE = Clues()  # each rule's `highest` bounds its clues (see `declarations`)
SideClues = tuple[tuple[int | None, ...], ...]  # one tuple per side in SIDES order, n entries each


def side_line(shape: Shape, side: str, index: int) -> tuple[Cell, ...]:
    """The cells a clue beside row/column `index` sees, nearest first."""
    n = shape.size
    if side in ("left", "right"):
        line = tuple((index, c) for c in range(n))
    else:
        line = tuple((r, index) for r in range(n))
    return line[::-1] if side in ("right", "bottom") else line


def where(side: str, index: int) -> str:
    """How messages name a clue, e.g. 'left of r3', 'below c5'."""
    house = "r" if side in ("left", "right") else "c"
    place = {"left": "left of", "right": "right of", "top": "above", "bottom": "below"}[side]
    return f"{place} {house}{index + 1}"


@dataclass(frozen=True)
class _OutsideRule(Declared):
    """Shared by the rules whose fields are the sides `left`, `right`, `top`, `bottom`: n
    entries each, 0 (or null) where that row or column has no clue on that side. No clue of
    these rules can be 0, and TOML has no null, so documents are written with 0."""

    highest: ClassVar[BySize]  # the largest clue on an n×n board
    left: tuple[int | None, ...] = spec(SIDE, absent=NO_CLUES, omit=empty, default=())
    right: tuple[int | None, ...] = spec(SIDE, absent=NO_CLUES, omit=empty, default=())
    top: tuple[int | None, ...] = spec(SIDE, absent=NO_CLUES, omit=empty, default=())
    bottom: tuple[int | None, ...] = spec(SIDE, absent=NO_CLUES, omit=empty, default=())

    @property
    def clues(self) -> SideClues:
        """The four sides in SIDES order."""
        return self.left, self.right, self.top, self.bottom

    def lines(self, shape: Shape) -> Iterator[tuple[str, tuple[Cell, ...], int]]:
        """(where, the cells from the clue's side, clue) for every clue."""
        for name, clues in zip(SIDES, self.clues, strict=True):
            for index, clue in enumerate(clues):
                if clue is not None:
                    yield where(name, index), side_line(shape, name, index), clue

    @classmethod
    def declarations(cls) -> list[tuple[str, Declaration]]:
        """The four sides, their clues bounded by this rule's `highest`."""
        side = Clues(cls.highest)
        return [(name, d._replace(kind=side)) for name, d in super().declarations()]


def x_sum(line: Digits, total: int) -> bool:
    """The first X digits add up to `total`, X being the first digit."""
    return sum(line[: line[0]]) == total


def x_reaches(size: int, x: int, total: int) -> bool:
    """Whether X, with X-1 other different digits 1..size, can add up to `total`: subset sums
    by count as bit sets (sums[k] bit s ⇔ k digits other than X sum to s), O(size² · total)."""
    rest = total - x
    if rest < 0:
        return False
    sums = [1] + [0] * (x - 1)
    mask = (1 << (rest + 1)) - 1
    for d in range(1, size + 1):
        if d == x:
            continue
        for k in range(x - 1, 0, -1):
            sums[k] |= (sums[k - 1] << d) & mask
    return bool(sums[x - 1] >> rest & 1)


def visible(line: Digits) -> int:
    """How many digits are taller than every digit before them (seen from the line's start)."""
    count, tallest = 0, 0
    for d in line:
        if d > tallest:
            count, tallest = count + 1, d
    return count


def numbered_room(line: Digits, clue: int) -> bool:
    """The X-th digit is `clue`, X being the first digit."""
    return line[line[0] - 1] == clue


@register_rule("xsum")
@dataclass(frozen=True)
class XSum(_OutsideRule):
    """A clue is the sum of the first X digits of its row or column seen from its side, X being
    the first of them (its own digit included).

    Meaning: f-puzzles key `xsum` as rangsk's SudokuSolver reads it, and ISS `XSum` ("the sum of
    the first X numbers must add up to the given sum; X is the number in the first cell").
    Posted as the first cell's possible X plus an `Automaton` over (X, digits counted, their
    sum) along the shortest prefix that decides every possible X, with distinct digits (its
    Table has up to 10,800 rows on 9×9; a clue of 45 needs neither).
    """

    type: ClassVar[str] = "xsum"

    highest = BySize("n(n+1)/2", lambda n: n * (n + 1) // 2)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for place, line, total in self.lines(shape):
            label = f"x-sum {place} = {total}"
            test = partial(x_sum, total=total)
            yield Condition(line, label, test, partial(_x_sum_parts, line, total, label))


def _x_sum_parts(
    line: tuple[Cell, ...], total: int, label: str, shape: Shape
) -> tuple[Constraint, ...]:
    n = shape.size
    # X = 1 needs total 1; otherwise X and X-1 other different digits must reach the total.
    feasible = frozenset(x for x in range(1, n + 1) if x_reaches(n, x, total))
    parts: list[Constraint] = [Allowed(line[0], feasible)]
    # X = n always sums to n(n+1)/2, so only the shorter X need the automaton (n is then alone).
    width = max((x for x in feasible if x < n), default=1)
    if width >= 2:
        step = partial(_x_sum_step, total=total, size=n)
        done = partial(_x_sum_done, total=total)
        automaton = Automaton(line[:width], n, (0, 0, 0), step, done, label, distinct=True)
        automaton.layers()  # a clue too large to unroll is refused here, before any encoding
        parts.append(automaton)
    return tuple(parts)


def _x_sum_step(state: State, digit: Digit, total: int, size: int) -> State | None:
    """(X, digits counted, their sum) after one more digit; None once the sum passes `total`.
    A first digit of `size` (X = n, the whole line) is settled at once (`feasible` says if)."""
    x, counted, reached = state
    if not counted:
        if digit == size:
            return (size, size, total)
        x = digit
    if counted >= x:
        return state
    reached += digit
    return (x, counted + 1, reached) if reached <= total else None


def _x_sum_done(state: State, total: int) -> bool:
    x, counted, reached = state
    return counted >= x and reached == total


@register_rule("skyscraper")
@dataclass(frozen=True)
class Skyscraper(_OutsideRule):
    """A clue counts the digits visible from its side: a digit is seen when it is taller
    (larger) than every digit before it.

    Meaning: f-puzzles key `skyscraper` as rangsk's SudokuSolver reads it, and ISS `Skyscraper`
    ("higher skyscrapers obscure smaller ones"). Clue 1 and clue n are stated as domains; other
    clues as an `Automaton` over (tallest so far, digits seen) with distinct digits: at most
    (n+1)·(k+1) states a position, where the Table of line permutations with k records (the
    unsigned Stirling number c(n, k)) has up to 118,124 rows on 9×9, for k = 3.
    """

    type: ClassVar[str] = "skyscraper"

    highest = N

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for place, line, count in self.lines(shape):
            label = f"skyscraper {place} sees {count}"
            test = partial(sees, count=count)
            yield Condition(line, label, test, partial(_skyscraper_parts, line, count, label))


def sees(line: Digits, count: int) -> bool:
    return visible(line) == count


def _skyscraper_parts(
    line: tuple[Cell, ...], count: int, label: str, shape: Shape
) -> tuple[Constraint, ...]:
    n = shape.size
    if count == 1:
        return (Allowed(line[0], frozenset({n})),)
    if count == n:
        return tuple(Allowed(cell, frozenset({i + 1})) for i, cell in enumerate(line))
    step = partial(_skyline_step, count=count)
    done = partial(_skyline_done, count=count)
    automaton = Automaton(line, n, (0, 0), step, done, label, distinct=True)
    automaton.layers()  # a clue too large to unroll is refused here, before any encoding
    return (automaton,)


def _skyline_step(state: State, digit: Digit, count: int) -> State | None:
    """(tallest so far, digits seen) after one more digit; None once more than `count` are seen."""
    tallest, seen = state
    if digit <= tallest:
        return state
    return (digit, seen + 1) if seen < count else None


def _skyline_done(state: State, count: int) -> bool:
    return state[1] == count


@register_rule("numberedroom")
@dataclass(frozen=True)
class NumberedRoom(_OutsideRule):
    """A clue is the digit standing X cells in from its side, X being the first digit there.

    Meaning: ISS `NumberedRoom` ("the digit which has to be placed in the Nth cell in the
    corresponding direction, where N is the digit placed in the first cell"); rangsk's
    SudokuSolver `numberedroom` likewise. Posted as one implication per X: "first = X ⇒ the X-th
    cell holds the clue", each a table of at most n² pairs.
    """

    type: ClassVar[str] = "numberedroom"

    highest = N

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for place, line, clue in self.lines(shape):
            label = f"numbered room {place} = {clue}"
            test = partial(numbered_room, clue=clue)
            yield Condition(line, label, test, partial(_numbered_room_parts, line, clue))


def _numbered_room_parts(line: tuple[Cell, ...], clue: int, shape: Shape) -> tuple[Constraint, ...]:
    n = shape.size
    parts: list[Constraint] = []
    if clue != 1:  # X = 1 points at the first cell itself, which would have to hold the clue
        parts.append(Allowed(line[0], frozenset(range(2, n + 1))))
    for x in range(2, n + 1):
        parts.append(implication_table((line[0], line[x - 1]), n, x, frozenset({clue}), True))
    return tuple(parts)


@register_rule("frame")
@dataclass(frozen=True)
class Frame(_OutsideRule):
    """A clue is the sum of the digits of the nearest box's cells in its row or column: the
    first three on 9×9 (box width for a row's clue, box height for a column's).

    Meaning: "Frame sudoku" as published ("clues outside of the grid give the sum of the first
    three digits seen in that row or column, starting from the direction of the clue", clover's
    "Frame", Nickleaton/sudoku 24fufvcr). Neither f-puzzles nor SudokuPad has a key for it:
    the clues are text outside the grid, read with `--outside frame`. Posted as a linear `Sum`
    of distinct digits, which every backend takes natively; a clue no box's digits reach
    leaves the puzzle without a solution (a verdict).
    """

    type: ClassVar[str] = "frame"

    highest = BySize("n(n+1)/2", lambda n: n * (n + 1) // 2)

    @classmethod
    def admit(cls, shape: Shape) -> None:
        if shape.is_jigsaw:
            raise PuzzleError("frame needs regular boxes (its clues sum a box's width or height)")

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for side, clues in zip(SIDES, self.clues, strict=True):
            depth = shape.box_cols if side in ("left", "right") else shape.box_rows
            pairs = tuple((i, j) for i in range(depth) for j in range(i + 1, depth))
            for index, clue in enumerate(clues):
                if clue is not None:
                    cells = side_line(shape, side, index)[:depth]
                    yield Sum(cells, clue, distinct=pairs)
