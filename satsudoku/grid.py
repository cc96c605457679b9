"""Geometry and values: cells, digits, board shapes (regular boxes or jigsaw regions) and grids."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from satsudoku.errors import OptionTypeError, PuzzleError
from satsudoku.options import integral, shown

Cell = tuple[int, int]  # (row, col), 0-based; files and messages use 1-based "r1c1"
Digit = int  # 1..shape.size; 0 means "empty" inside a Grid

MAX_SIZE = 64  # 64×64 = 4096 cells; larger boards are not a use case we measure
# One label per region of the largest board, none of them a space (readers drop spaces).
_REGION_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%&"


def cell_name(cell: Cell) -> str:
    """Return the 1-based name users see, e.g. (2, 4) -> 'r3c5'."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def default_box(size: int) -> tuple[int, int]:
    """Infer the box shape of an n×n board: the factor pair r×c, r <= c, closest to square."""
    best = max((r for r in range(2, math.isqrt(size) + 1) if size % r == 0), default=0)
    if not best:
        raise PuzzleError(
            f"size {size} has no rectangular box shape; give --box RxC or jigsaw regions"
        )
    return best, size // best


def _box_side(value: object, name: str) -> int:
    """A shape's side as an int (a numpy integer too): Shape(1.5, 2) and Shape(nan, 2) ran on
    to a TypeError deep inside, Shape(True, 2) was a 1x2 box."""
    side = integral(value)
    if side is None:
        raise OptionTypeError(f"Shape's {name} must be an integer, not {shown(value)}")
    return side


@dataclass(frozen=True)
class Shape:
    """An n×n board cut into `regions`: box_rows × box_cols boxes, or irregular (jigsaw) ones.

    A regular shape is `Shape(3, 3)`; a jigsaw one comes from `Shape.jigsaw(labels)`, which
    keeps `box_rows == box_cols == 0` and stores the regions explicitly.
    """

    box_rows: int = 3
    box_cols: int = 3
    custom_regions: tuple[tuple[Cell, ...], ...] | None = field(default=None, compare=True)

    def __post_init__(self) -> None:
        if self.custom_regions is None:
            for name in ("box_rows", "box_cols"):
                object.__setattr__(self, name, _box_side(getattr(self, name), name))
            if self.box_rows < 1 or self.box_cols < 1 or self.size < 1:
                raise PuzzleError(f"box shape {self.box_rows}x{self.box_cols} is not valid")
            if self.size > MAX_SIZE:
                raise PuzzleError(f"size {self.size} is larger than the supported {MAX_SIZE}")
        elif len(self.custom_regions) > MAX_SIZE:
            raise PuzzleError(
                f"{len(self.custom_regions)} regions, more than the supported {MAX_SIZE}"
            )

    @classmethod
    def for_size(cls, size: int) -> Shape:
        """The regular shape an n×n board gets when no box shape is given."""
        size = _box_side(size, "size")
        if size < 1 or size > MAX_SIZE:
            raise PuzzleError(f"size {size} is outside the supported 1..{MAX_SIZE}")
        if size == 1:
            return regular_shape(1, 1)
        return regular_shape(*default_box(size))

    @classmethod
    def jigsaw(cls, labels: Sequence[Sequence[str]]) -> Shape:
        """Build an irregular shape from n rows of n region labels (any hashable symbols)."""
        n = len(labels)
        if n == 0:
            raise PuzzleError("regions: no rows given")
        if n > MAX_SIZE:  # before the labels are grouped: a 200x200 layout costs 40k cells
            raise PuzzleError(f"regions: {n} rows, more than the supported size {MAX_SIZE}")
        groups: dict[str, list[Cell]] = {}
        for r, row in enumerate(labels):
            if len(row) != n:
                raise PuzzleError(f"regions: row {r + 1} has {len(row)} labels, expected {n}")
            for c, label in enumerate(row):
                groups.setdefault(label, []).append((r, c))
        if len(groups) != n:
            raise PuzzleError(f"regions: found {len(groups)} distinct labels, expected {n}")
        for label, cells in groups.items():
            if len(cells) != n:
                raise PuzzleError(f"regions: region {label!r} has {len(cells)} cells, expected {n}")
        return cls(0, 0, tuple(tuple(cells) for cells in groups.values()))

    @property
    def size(self) -> int:
        if self.custom_regions is not None:
            return len(self.custom_regions)
        return self.box_rows * self.box_cols

    @property
    def is_jigsaw(self) -> bool:
        return self.custom_regions is not None

    def cells(self) -> Iterator[Cell]:
        n = self.size
        return ((r, c) for r in range(n) for c in range(n))

    def rows(self) -> Iterator[tuple[Cell, ...]]:
        n = self.size
        return (tuple((r, c) for c in range(n)) for r in range(n))

    def columns(self) -> Iterator[tuple[Cell, ...]]:
        n = self.size
        return (tuple((r, c) for r in range(n)) for c in range(n))

    def regions(self) -> Iterator[tuple[Cell, ...]]:
        """Boxes of a regular shape, or the jigsaw regions."""
        if self.custom_regions is not None:
            yield from self.custom_regions
            return
        for top in range(0, self.size, self.box_rows):
            for left in range(0, self.size, self.box_cols):
                yield tuple(
                    (top + r, left + c) for r in range(self.box_rows) for c in range(self.box_cols)
                )

    def houses(self) -> Iterator[tuple[Cell, ...]]:
        """Every row, column and region: the groups classic Sudoku makes all-different."""
        yield from self.rows()
        yield from self.columns()
        yield from self.regions()

    @property
    def house_indices(self) -> tuple[tuple[int, ...], ...]:
        """Every house as flat row-major indices, computed once per distinct shape (hot in
        verify, which runs on every solution of every puzzle)."""
        return _house_indices(self)

    @cached_property
    def region_labels(self) -> tuple[str, ...]:
        """One label per cell (row-major) naming its region; used by writers."""
        labels = [""] * (self.size * self.size)
        for index, region in enumerate(self.regions()):
            for r, c in region:
                labels[r * self.size + c] = _REGION_LABELS[index]
        return tuple(labels)

    def describe(self) -> str:
        """Human-readable name, e.g. '9x9 (3x3 boxes)' or '9x9 jigsaw'."""
        n = self.size
        if self.is_jigsaw:
            return f"{n}x{n} jigsaw"
        return f"{n}x{n} ({self.box_rows}x{self.box_cols} boxes)"


@lru_cache(maxsize=64)
def regular_shape(box_rows: int, box_cols: int) -> Shape:
    """One shared Shape per box size, so per-shape caches are hit across a whole file."""
    return Shape(box_rows, box_cols)


@lru_cache(maxsize=64)
def _house_indices(shape: Shape) -> tuple[tuple[int, ...], ...]:
    n = shape.size
    return tuple(tuple(r * n + c for r, c in house) for house in shape.houses())


@dataclass(frozen=True, slots=True)
class Grid:
    """An immutable n×n board of digits, row-major; 0 marks an empty cell."""

    size: int
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.values) != self.size * self.size:
            raise PuzzleError(f"a {self.size}x{self.size} grid needs {self.size**2} values")

    @classmethod
    def empty(cls, size: int) -> Grid:
        return cls(size, (0,) * (size * size))

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]]) -> Grid:
        return cls(len(rows), tuple(v for row in rows for v in row))

    def __str__(self) -> str:
        """Rows of symbols (1-9, then A, B, …; `.` empty), as `solve` prints a grid read as
        rows; past 61 symbols, rows of numbers. No box borders: a grid does not know its boxes."""
        from satsudoku.io.writers import format_rows  # the writers import this module
        from satsudoku.symbols import DEFAULT_SYMBOLS, Alphabet

        if self.size <= len(DEFAULT_SYMBOLS):
            return format_rows(self, Alphabet.default(self.size))
        return format_rows(self, Alphabet.numeric(self.size))

    def __getitem__(self, cell: Cell) -> int:
        return self.values[cell[0] * self.size + cell[1]]

    def rows(self) -> list[tuple[int, ...]]:
        n = self.size
        return [self.values[r * n : (r + 1) * n] for r in range(n)]

    def filled(self) -> dict[Cell, Digit]:
        """The non-empty cells as a mapping, the form constraint checks take."""
        n = self.size
        return {divmod(i, n): v for i, v in enumerate(self.values) if v}

    def count_filled(self) -> int:
        return sum(1 for v in self.values if v)

    def is_complete(self) -> bool:
        return all(self.values)

    def with_value(self, cell: Cell, digit: Digit) -> Grid:
        values = list(self.values)
        values[cell[0] * self.size + cell[1]] = digit
        return Grid(self.size, tuple(values))
