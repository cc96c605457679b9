"""Clues beside the grid about runs of digits along their row or column, read from the clue's
side: a total some first cells reach ("Frameless"), the total of the first ascending run
("Ascending Starters"), the longest ascending run ("Max Ascending"), three neighbours somewhere
adding up to the clue ("Triplet Sum"), the longest run of one parity ("Max Odd/Even Run").

Neither f-puzzles nor SudokuPad has a key for these: setters write the clues as plain numbers
outside the grid and say in the rules text what they mean; `--outside TYPE` reads them. Each
clue is a `Condition` judged by its wording (`holds`), posted as an `Automaton` over the line
(states of a few integers), which every backend takes natively.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from satsudoku.constraints import Automaton, Constraint, State
from satsudoku.grid import Cell, Digit, Shape
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits
from satsudoku.rules.outside import _OutsideRule
from satsudoku.rules.schema import BySize, N

TRIANGLE = BySize("n(n+1)/2", lambda n: n * (n + 1) // 2)


@dataclass(frozen=True)
class _RunRule(_OutsideRule):
    """An outside clue judged by `holds` over its whole line (nearest cell first) and posted
    as the automaton of `start`, `step` and `accepting`."""

    what: ClassVar[str]  # how a label names the clue
    start: ClassVar[State] = (0, 0, 0)

    @staticmethod
    def holds(line: Digits, clue: int) -> bool:
        """The clue's wording, for the verifier."""
        raise NotImplementedError

    @staticmethod
    def step(state: State, digit: Digit, clue: int) -> State | None:
        """The state after one more digit; None once the clue cannot hold."""
        raise NotImplementedError

    @staticmethod
    def accepting(state: State, clue: int) -> bool:
        raise NotImplementedError

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        cls = type(self)
        for place, line, clue in self.lines(shape):
            label = f"{self.what} {place} = {clue}"
            test = partial(cls.holds, clue=clue)
            yield Condition(line, label, test, partial(_automaton, cls, line, clue, label))


def _automaton(
    cls: type[_RunRule], line: tuple[Cell, ...], clue: int, label: str, shape: Shape
) -> tuple[Constraint, ...]:
    step = partial(cls.step, clue=clue)
    accepting = partial(cls.accepting, clue=clue)
    automaton = Automaton(line, shape.size, cls.start, step, accepting, label, distinct=True)
    automaton.layers()  # a clue too large to unroll is refused here, before any encoding
    return (automaton,)


@register_rule("prefixsum")
@dataclass(frozen=True)
class PrefixSum(_RunRule):
    """A clue is the sum of the first X digits of its row or column from its side, for some X
    the solver finds (each clue its own).

    Meaning: "Frameless" as published ("if a clue appears outside of a row or column, then the
    first X cells in that direction must sum to the value of that clue. X may or may not be
    different for different clues", Nickleaton/sudoku 2ftcuu55). States: (reached, sum so far).
    """

    type: ClassVar[str] = "prefixsum"
    what: ClassVar[str] = "some first digits add up"
    highest = TRIANGLE

    @staticmethod
    def holds(line: Digits, clue: int) -> bool:
        return any(sum(line[:x]) == clue for x in range(1, len(line) + 1))

    @staticmethod
    def step(state: State, digit: Digit, clue: int) -> State | None:
        reached, total, _ = state
        if reached:
            return state
        total += digit
        if total > clue:
            return None
        return (1, 0, 0) if total == clue else (0, total, 0)

    @staticmethod
    def accepting(state: State, clue: int) -> bool:
        return state[0] == 1


@register_rule("ascendingsum")
@dataclass(frozen=True)
class AscendingSum(_RunRule):
    """A clue is the sum of the run of increasing digits that starts next to it (one digit
    when the second is smaller).

    Meaning: "Ascending Starters" as published ("clues adjacent to a row or column give the sum
    of the run of increasing digits in that row or column, that starts in the cell closest to
    the clue. A run may consist of only one cell", Nickleaton/sudoku 23x6hppz). States: (last
    digit of the run, its sum, run closed).
    """

    type: ClassVar[str] = "ascendingsum"
    what: ClassVar[str] = "first ascending run adds up"
    highest = TRIANGLE

    @staticmethod
    def holds(line: Digits, clue: int) -> bool:
        end = 1
        while end < len(line) and line[end] > line[end - 1]:
            end += 1
        return sum(line[:end]) == clue

    @staticmethod
    def step(state: State, digit: Digit, clue: int) -> State | None:
        last, total, closed = state
        if closed:
            return state
        if digit <= last:
            return (0, total, 1)
        total += digit
        return (digit, total, 0) if total <= clue else None

    @staticmethod
    def accepting(state: State, clue: int) -> bool:
        return state[1] == clue


@register_rule("longestascending")
@dataclass(frozen=True)
class LongestAscending(_RunRule):
    """A clue is the length of the longest run of neighbouring digits of its row or column that
    increase away from the clue.

    Meaning: "Max Ascending" as published ("a clue outside of a row or column gives the length
    of the longest contiguous 'run' of increasing digits in that row or column, from the
    direction of the clue ... there must NOT be a run of 7", Nickleaton/sudoku 23ndgmls).
    States: (last digit, current run, longest so far).
    """

    type: ClassVar[str] = "longestascending"
    what: ClassVar[str] = "longest ascending run"
    highest = N

    @staticmethod
    def holds(line: Digits, clue: int) -> bool:
        return _longest(line, lambda a, b: b > a) == clue

    @staticmethod
    def step(state: State, digit: Digit, clue: int) -> State | None:
        last, run, longest = state
        run = run + 1 if digit > last else 1  # the first digit (last 0) starts a run
        longest = max(longest, run)
        return (digit, run, longest) if longest <= clue else None

    @staticmethod
    def accepting(state: State, clue: int) -> bool:
        return state[2] == clue


@register_rule("paritylongest")
@dataclass(frozen=True)
class ParityLongest(_RunRule):
    """A clue is the length of the longest run of neighbouring digits of its row or column that
    are all odd or all even.

    Meaning: "Max Odd/Even Run" as published ("a number outside a row or column indicates the
    length of the longest run of sequential cells in that row or column which are either all
    odd or all even", Nickleaton/sudoku ykyg5ktn). States: (parity + 1, current run, longest).
    """

    type: ClassVar[str] = "paritylongest"
    what: ClassVar[str] = "longest run of one parity"
    highest = N

    @staticmethod
    def holds(line: Digits, clue: int) -> bool:
        return _longest(line, lambda a, b: a % 2 == b % 2) == clue

    @staticmethod
    def step(state: State, digit: Digit, clue: int) -> State | None:
        parity, run, longest = state
        run = run + 1 if parity == digit % 2 + 1 else 1
        longest = max(longest, run)
        return (digit % 2 + 1, run, longest) if longest <= clue else None

    @staticmethod
    def accepting(state: State, clue: int) -> bool:
        return state[2] == clue


@register_rule("tripletsum")
@dataclass(frozen=True)
class TripletSum(_RunRule):
    """Three neighbouring digits somewhere in the clue's row or column add up to the clue.

    Meaning: "Triplet Sum" as published ("if a clue is given outside the grid, then there must
    be three consecutive cells somewhere in that row or column which sum to the clue value",
    Nickleaton/sudoku y6gmulvs). States: (the two digits before, found), (0, 0, 1) once found.
    """

    type: ClassVar[str] = "tripletsum"
    what: ClassVar[str] = "three neighbours add up"
    highest = BySize("3n−3", lambda n: 3 * n - 3)

    @staticmethod
    def holds(line: Digits, clue: int) -> bool:
        return any(sum(line[i : i + 3]) == clue for i in range(len(line) - 2))

    @staticmethod
    def step(state: State, digit: Digit, clue: int) -> State | None:
        before, last, found = state
        if found:
            return state
        if before and before + last + digit == clue:
            return (0, 0, 1)
        return (last, digit, 0)

    @staticmethod
    def accepting(state: State, clue: int) -> bool:
        return state[2] == 1


def _longest(line: Digits, joins: Callable[[Digit, Digit], bool]) -> int:
    """The longest run of neighbours each pair of which `joins(a, b)` links."""
    longest = run = 1
    for a, b in zip(line, line[1:], strict=False):
        run = run + 1 if joins(a, b) else 1
        longest = max(longest, run)
    return longest
