"""A puzzle: a shape, its givens and its variant rules; `constraints()` is what a solution obeys."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

from satsudoku.constraints import Constraint
from satsudoku.deadline import check_building
from satsudoku.errors import OptionTypeError, PuzzleError
from satsudoku.grid import Cell, Grid, Shape
from satsudoku.options import integral, shown
from satsudoku.rules import Rule
from satsudoku.rules.classic import CLASSIC
from satsudoku.shown import UNPRINTABLE
from satsudoku.symbols import Alphabet

# How a puzzle can be written (FORMATS.md §1), each answered in kind (§3): "line" (81 symbols on
# one line), "rows" (`009008040` per row), "spaced-rows" (judge rows `8 0 0 …`, `12 0 3 …`),
# "grid" (box borders), "leetcode" (a JSON board) and "document" (answered as a grid).
LAYOUTS = ("line", "rows", "spaced-rows", "grid", "leetcode", "document")


@dataclass(frozen=True)
class Puzzle:
    """Shape + givens + rules, plus how the puzzle was written (for writing answers back)."""

    shape: Shape
    givens: Grid
    rules: tuple[Rule, ...] = ()
    title: str | None = None
    alphabet: Alphabet | None = None  # symbols of the input; None = the default for the size
    layout: str = "line"  # how the input was written, so answers come back alike: one of LAYOUTS
    solution: Grid | None = None  # a known answer carried by the input (documents, datasets)
    origin: str | None = field(default=None, compare=False)  # "file:line", for messages
    # What the setter wrote beside the grid (documents' `source` and `notes`: author, rules
    # text), and drawings an import left out when told to (--ignore-drawings): (key, count).
    source: str | None = field(default=None, compare=False)
    notes: str | None = field(default=None, compare=False)
    ignored: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.title is not None and UNPRINTABLE.search(self.title):
            # Titles are for people and shown inside one line of output: each reader's title
            # (document, f-puzzles, SudokuPad) is made one printable line here, once for all.
            object.__setattr__(self, "title", UNPRINTABLE.sub(" ", self.title))
        n = self.shape.size
        if self.givens.size != n:
            raise PuzzleError(f"givens are {self.givens.size}x{self.givens.size}, board is {n}x{n}")
        values = self.givens.values
        if (
            type(values) is not tuple
            or type(self.givens.size) is not int
            or {type(value) for value in values} != {int}
        ):
            values = _integer_givens(values, n)  # a list, numpy ints; or a float or bool refused
            object.__setattr__(self, "givens", Grid(n, values))
        if min(values) >= 0 and max(values) <= n:  # in C: the loop below only names the cell
            return
        for index, value in enumerate(values):
            if not 0 <= value <= n:
                r, c = divmod(index, n)
                raise PuzzleError(f"digit {value} at r{r + 1}c{c + 1} is out of range 1..{n}")

    @classmethod
    def empty(cls, shape: Shape, rules: Sequence[Rule] = ()) -> Puzzle:
        return cls(shape, Grid.empty(shape.size), tuple(rules))

    @property
    def size(self) -> int:
        return self.shape.size

    @property
    def symbols(self) -> Alphabet:
        """The input's alphabet (the default one for the size if none); numbers when it cannot
        write every digit: 1-9A-Za-z has 61 symbols, and a 64x64 read from dots once solved,
        then failed to print its answer (a ValueError traceback)."""
        alphabet = self.alphabet or Alphabet.default(self.size)
        return alphabet if alphabet.fits(self.size) else Alphabet.numeric(self.size)

    def constraints(self) -> Iterator[Constraint]:
        """Classic houses first, then whatever each rule adds, each distinct constraint once:
        a document drawing one dot 60,000 times holds 480 constraints, not 60,000 (its
        formula took 1.9 GB before). Repeating a constraint never changes a verdict."""
        seen: set[Constraint] = set()
        for constraint in chain(CLASSIC.constraints(self.shape), self.rule_constraints()):
            try:
                if constraint in seen:
                    check_building()  # a generator of endless repeats still meets the clock
                    continue
                seen.add(constraint)
            except TypeError:  # a constraint holding a list cannot be compared: posted as is
                pass
            yield constraint

    def rule_constraints(self) -> Iterator[Constraint]:
        """What the variant rules add beyond rows, columns and regions."""
        for rule in self.rules:
            yield from rule.constraints(self.shape)

    def given_cells(self) -> Iterator[tuple[Cell, int]]:
        n = self.size
        for index, value in enumerate(self.givens.values):
            if value:
                yield divmod(index, n), value

    def rule_names(self) -> list[str]:
        return ["classic"] + [str(rule.to_spec()["type"]) for rule in self.rules]


def _integer_givens(values: Sequence[object], n: int) -> tuple[int, ...]:
    """Givens built in Python as a list or from numpy come as ints; a float, a bool or a string
    is refused, naming the cell: a 0.5 reached CP-SAT as a given it called unsatisfiable, and
    the other backends as a TypeError deep inside."""
    out = []
    for index, value in enumerate(values):
        digit = integral(value)
        if digit is None:
            r, c = divmod(index, n)
            raise OptionTypeError(
                f"the given at r{r + 1}c{c + 1} must be an integer 0..{n}, not {shown(value)}"
            )
        out.append(digit)
    return tuple(out)
