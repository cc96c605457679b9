"""`Condition`: a rule's own test over its cells, for the families that no vocabulary kind states.

The verifier judges a solution by the rule's wording (`test`), while backends get `parts`, an
exact rewrite into vocabulary kinds (mostly small Tables), so a wrong table cannot hide a
wrong grid: the brute-force tests compare both against an oracle written separately.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from satsudoku.constraints import (
    MAX_TABLE,
    SEARCH_LIMIT,
    Constraint,
    Table,
    TableTooLargeError,
)
from satsudoku.deadline import check_building
from satsudoku.grid import Cell, Digit, Shape

Digits = tuple[Digit, ...]


@dataclass(frozen=True, slots=True)
class Condition:
    """`test(digits of cells)` holds once every cell is filled; posted as `parts(shape)`."""

    cells: tuple[Cell, ...]
    label: str
    test: Callable[[Digits], bool] = field(compare=False)
    parts: Callable[[Shape], tuple[Constraint, ...]] = field(compare=False)

    def check(self, values: Mapping[Cell, Digit]) -> bool:
        if not all(cell in values for cell in self.cells):
            return True  # judged once complete; the parts prune partial boards
        return self.test(tuple(values[cell] for cell in self.cells))

    def decompose(self, shape: Shape) -> tuple[Constraint, ...]:
        return self.parts(shape)

    def __str__(self) -> str:
        return self.label


def distinct_table(
    cells: tuple[Cell, ...],
    size: int,
    keep: Callable[[Digits], bool],
    what: str,
    viable: Callable[[Digits], bool] | None = None,
) -> Table:
    """The Table of tuples of pairwise different digits over `cells` (cells of one house) that
    `keep` accepts, enumerated depth-first; `viable(prefix)` False prunes every extension of a
    prefix. Refuses up front when there are more than SEARCH_LIMIT digit orders to search (all
    of 9×9 fits; a clue on a large board would search for minutes), and once it passes MAX_TABLE
    rows."""
    orders = math.perm(size, len(cells))
    if orders > SEARCH_LIMIT:
        raise TableTooLargeError(
            f"{what} needs a search over more than {SEARCH_LIMIT:,} digit orders "
            f"({len(cells)} cells of {size} digits), too large for the generic Table path"
        )
    rows: list[Digits] = []
    prefix: list[Digit] = []
    used = [False] * (size + 1)
    visited = [0]

    def extend() -> None:
        visited[0] += 1
        if visited[0] % 4096 == 0:
            check_building()  # a skyscraper clue of a 9×9 visits a million prefixes
        if len(prefix) == len(cells):
            row = tuple(prefix)
            if keep(row):
                rows.append(row)
                if len(rows) > MAX_TABLE:
                    raise TableTooLargeError(
                        f"{what} needs a table of more than {MAX_TABLE:,} tuples, too large "
                        "for the generic Table path"
                    )
            return
        for d in range(1, size + 1):
            if used[d]:
                continue
            prefix.append(d)
            if viable is None or viable(tuple(prefix)):
                used[d] = True
                extend()
                used[d] = False
            prefix.pop()

    extend()
    return Table(cells, frozenset(rows))


def implication_table(
    cells: tuple[Cell, Cell], size: int, when: Digit, then: frozenset[Digit], distinct: bool
) -> Table:
    """'first == when  ⇒  second ∈ then' as the table of at most n² digit pairs; `distinct`
    drops equal pairs (the two cells share a house)."""
    digits = range(1, size + 1)
    rows = frozenset(
        (a, b)
        for a in digits
        for b in digits
        if (a != when or b in then) and not (distinct and a == b)
    )
    return Table(cells, rows)
