"""The shared constraint vocabulary: what rules emit, backends post and the verifier checks.

Core kinds (`AllDifferent`, `Allowed`, `Table`) must be handled by every backend; any other
kind provides `decompose()` into simpler kinds, so a backend that lacks a native version still
accepts it (CPMpy's design). `check()` is safe on partial assignments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from satsudoku.grid import Cell, Digit, Shape, cell_name


@runtime_checkable
class Constraint(Protocol):
    """Anything a solution must obey; `cells` is its scope."""

    @property
    def cells(self) -> tuple[Cell, ...]: ...

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        """Return False only if the assigned cells already break the constraint."""
        ...


@runtime_checkable
class Decomposable(Constraint, Protocol):
    """A constraint that can be rewritten into simpler (eventually core) constraints."""

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]: ...


@dataclass(frozen=True, slots=True)
class AllDifferent:
    """No digit appears twice among `cells` (a house when it has n cells)."""

    cells: tuple[Cell, ...]

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        placed = [values[cell] for cell in self.cells if cell in values]
        return len(placed) == len(set(placed))

    def __str__(self) -> str:
        return f"all-different({', '.join(map(cell_name, self.cells))})"


@dataclass(frozen=True, slots=True)
class Allowed:
    """`cell` holds one of `digits` (odd/even cells, givens as a domain, …)."""

    cell: Cell
    digits: frozenset[Digit]

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.cell,)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        return self.cell not in values or values[self.cell] in self.digits

    def __str__(self) -> str:
        return f"{cell_name(self.cell)} in {{{', '.join(map(str, sorted(self.digits)))}}}"


@dataclass(frozen=True, slots=True)
class Table:
    """The digits of `cells`, read in order, form one of the `tuples`: the universal fallback."""

    cells: tuple[Cell, ...]
    tuples: frozenset[tuple[Digit, ...]]

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        known = [(i, values[cell]) for i, cell in enumerate(self.cells) if cell in values]
        return any(all(row[i] == v for i, v in known) for row in self.tuples)

    def __str__(self) -> str:
        return f"table({', '.join(map(cell_name, self.cells))}; {len(self.tuples)} tuples)"


@dataclass(frozen=True, slots=True)
class Less:
    """`low` holds a smaller digit than `high` (thermometers, inequality signs)."""

    low: Cell
    high: Cell

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.low, self.high)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        if self.low in values and self.high in values:
            return values[self.low] < values[self.high]
        return True

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        """Less as the table of increasing digit pairs."""
        digits = range(1, shape.size + 1)
        pairs = frozenset((a, b) for a in digits for b in digits if a < b)
        return (Table((self.low, self.high), pairs),)

    def __str__(self) -> str:
        return f"{cell_name(self.low)} < {cell_name(self.high)}"


CORE_KINDS: tuple[type, ...] = (AllDifferent, Allowed, Table)


def lower(
    constraints: Iterable[Constraint], shape: Shape, native: tuple[type, ...] = CORE_KINDS
) -> list[Constraint]:
    """Decompose every constraint a backend has no native support for, recursively."""
    out: list[Constraint] = []
    pending = list(constraints)
    while pending:
        constraint = pending.pop()
        if isinstance(constraint, native):
            out.append(constraint)
        elif isinstance(constraint, Decomposable):
            pending.extend(constraint.decompose(shape))
        else:
            raise TypeError(f"{type(constraint).__name__} is neither native nor decomposable")
    out.reverse()
    return out
