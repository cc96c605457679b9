"""Declared rule fields: a rule states each document field once (its kind, default, when to leave
it out) and reading with one-line errors, writing back and the docs' field tables follow from it.

A rule is a frozen dataclass deriving from `Declared` whose fields are `spec(Kind, …)`:

    @register_rule("renban")
    @dataclass(frozen=True)
    class Renban(Declared):
        type: ClassVar[str] = "renban"
        lines: tuple[tuple[Cell, ...], ...] = spec(ListOf(Line()))

        def constraints(self, shape: Shape) -> Iterator[Constraint]: ...
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, NamedTuple, Self, TypeVar, cast

from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import parse_cell
from satsudoku.rules.fields import adjacent, as_list, cells_of, check_fields, integer, line_of

T = TypeVar("T")


@dataclass(frozen=True)
class BySize:
    """A bound or default that depends on the board size n, with the text the docs show."""

    text: str
    of: Callable[[int], Any]


N = BySize("n", lambda n: n)
N_MINUS_1 = BySize("n−1", lambda n: n - 1)
NO_CLUES = BySize("", lambda n: [None] * n)  # an outside-clue field left out: n blanks
Bound = int | BySize | None


def _bound(bound: Bound, n: int) -> int | None:
    return bound.of(n) if isinstance(bound, BySize) else bound


def _bound_text(bound: Bound) -> str:
    return bound.text if isinstance(bound, BySize) else str(bound)


class Kind(ABC, Generic[T]):
    """How one field's document value is read (errors name `where`), written back, described."""

    @abstractmethod
    def read(self, value: Any, shape: Shape, where: str) -> T: ...

    @abstractmethod
    def write(self, value: T) -> Any: ...

    @abstractmethod
    def describe(self) -> str:
        """A short phrase for the docs' field table, e.g. 'integer 1..n'."""


@dataclass(frozen=True)
class Cells(Kind[tuple[Cell, ...]]):
    """A list of distinct cells ('r1c1' or [1, 1]), at least `minimum` of them."""

    minimum: int = 1

    def read(self, value: Any, shape: Shape, where: str) -> tuple[Cell, ...]:
        return cells_of(value, shape, where, minimum=self.minimum)

    def write(self, value: tuple[Cell, ...]) -> list[str]:
        return [cell_name(cell) for cell in value]

    def describe(self) -> str:
        return "list of distinct cells" + (f" (≥ {self.minimum})" if self.minimum > 1 else "")


@dataclass(frozen=True)
class Region(Cells):
    """Like `Cells`, but a single cell written alone ('r1c1') stands for a one-cell region."""

    def read(self, value: Any, shape: Shape, where: str) -> tuple[Cell, ...]:
        if isinstance(value, str):
            return (parse_cell(value, shape, where),)
        return super().read(value, shape, where)

    def describe(self) -> str:
        return "a cell or a list of distinct cells"


@dataclass(frozen=True)
class Line(Cells):
    """Distinct cells in order, each a king's move from the one before."""

    minimum: int = 2

    def read(self, value: Any, shape: Shape, where: str) -> tuple[Cell, ...]:
        return line_of(value, shape, where, minimum=self.minimum)

    def describe(self) -> str:
        return f"a line of ≥ {self.minimum} distinct cells, each a king's move from the one before"


@dataclass(frozen=True)
class CellPair(Kind[tuple[Cell, Cell]]):
    """Two orthogonally adjacent cells; `order` says what their order means, if anything."""

    order: str = ""

    def read(self, value: Any, shape: Shape, where: str) -> tuple[Cell, Cell]:
        pair = as_list(value, where)
        if len(pair) != 2:
            order = f", {self.order}" if self.order else ""
            raise PuzzleError(f"{where} must name exactly two cells{order}")
        a, b = (parse_cell(c, shape, f"{where}[{k}]") for k, c in enumerate(pair))
        if not adjacent(a, b):
            raise PuzzleError(f"{where}: {cell_name(a)} and {cell_name(b)} are not adjacent")
        return a, b

    def write(self, value: tuple[Cell, Cell]) -> list[str]:
        return [cell_name(value[0]), cell_name(value[1])]

    def describe(self) -> str:
        return "[a, b], two orthogonally adjacent cells" + (f", {self.order}" if self.order else "")


@dataclass(frozen=True)
class Integer(Kind[int]):
    """An integer within [low, high] (a string of digits, as f-puzzles writes them, too)."""

    low: Bound = None
    high: Bound = None

    def read(self, value: Any, shape: Shape, where: str) -> int:
        n = shape.size
        return integer(value, where, low=_bound(self.low, n), high=_bound(self.high, n))

    def write(self, value: int) -> int:
        return value

    def describe(self) -> str:
        if self.high is None:
            return "integer" + (f" ≥ {_bound_text(self.low)}" if self.low is not None else "")
        return f"integer {_bound_text(self.low)}..{_bound_text(self.high)}"


@dataclass(frozen=True)
class Digits(Kind[tuple[Digit, ...]]):
    """Digits 1..n as a list, or as a string of digits ("129"); repeats allowed."""

    def read(self, value: Any, shape: Shape, where: str) -> tuple[Digit, ...]:
        items = list(value) if isinstance(value, str) else as_list(value, where)
        return tuple(
            integer(d, f"{where}[{k}]", low=1, high=shape.size) for k, d in enumerate(items)
        )

    def write(self, value: tuple[Digit, ...]) -> list[int]:
        return list(value)

    def describe(self) -> str:
        return "list of digits 1..n (or a string of digits)"


@dataclass(frozen=True)
class Flag(Kind[bool]):
    """true or false."""

    def read(self, value: Any, shape: Shape, where: str) -> bool:
        if not isinstance(value, bool):
            raise PuzzleError(f"{where} must be true or false, not {value!r}")
        return value

    def write(self, value: bool) -> bool:
        return value

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class Clues(Kind[tuple[int | None, ...]]):
    """One entry per row or column (n of them), each a clue 0..high or none.

    `zero_is_clue`: a sandwich of 0 is a clue (the crusts touch) and null is no clue; other
    outside clues are never 0, and TOML has no null, so there 0 means no clue and is written back.
    """

    high: Bound = None
    zero_is_clue: bool = False

    def read(self, value: Any, shape: Shape, where: str) -> tuple[int | None, ...]:
        n = shape.size
        items = as_list(value, where)
        if len(items) != n:
            blank = "null" if self.zero_is_clue else "0"
            raise PuzzleError(f"{where} needs {n} entries ({blank} for no clue), got {len(items)}")
        high = _bound(self.high, n)
        values = (
            None if v is None else integer(v, f"{where}[{i}]", low=0, high=high)
            for i, v in enumerate(items)
        )
        return tuple(values) if self.zero_is_clue else tuple(v or None for v in values)

    def write(self, value: tuple[int | None, ...]) -> list[int | None]:
        return list(value) if self.zero_is_clue else [0 if v is None else v for v in value]

    def describe(self) -> str:
        low, blank = (0, "null") if self.zero_is_clue else (1, "0 or null")
        bound = "" if self.high is None else f" {low}..{_bound_text(self.high)}"
        return f"n entries, each a clue{bound}, or {blank} for none"


@dataclass(frozen=True)
class ListOf(Kind[tuple[T, ...]]):
    """A list whose items are each of `item`'s kind; errors name the item as where[i]."""

    item: Kind[T]

    def read(self, value: Any, shape: Shape, where: str) -> tuple[T, ...]:
        return tuple(
            self.item.read(v, shape, f"{where}[{i}]") for i, v in enumerate(as_list(value, where))
        )

    def write(self, value: tuple[T, ...]) -> list[Any]:
        return [self.item.write(v) for v in value]

    def describe(self) -> str:
        return f"list, each item {self.item.describe()}"


@dataclass(frozen=True)
class Both(Kind[tuple[T, T]]):
    """A pair [a, b] of two values of one kind (a clone's two regions)."""

    item: Kind[T]
    form: str  # how the docs and errors show it, e.g. "[cells_a, cells_b]"

    def read(self, value: Any, shape: Shape, where: str) -> tuple[T, T]:
        sides = as_list(value, where)
        if len(sides) != 2:
            raise PuzzleError(f"{where} must be {self.form}")
        return self.item.read(sides[0], shape, f"{where}[0]"), self.item.read(
            sides[1], shape, f"{where}[1]"
        )

    def write(self, value: tuple[T, T]) -> list[Any]:
        return [self.item.write(value[0]), self.item.write(value[1])]

    def describe(self) -> str:
        return f"{self.form}, each {self.item.describe()}"


def _values(obj: Any) -> tuple[Any, ...]:
    if dataclasses.is_dataclass(obj):
        return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
    return tuple(obj)


@dataclass(frozen=True)
class Object(Kind[T]):
    """An object {key: value, …} with declared keys; `build(*values)` makes the rule's item (a
    tuple by default, or a small dataclass whose fields follow the keys' order).

    Keys in `optional` may be absent or null (None); they are left out when written back.
    """

    fields: Mapping[str, Kind[Any]]
    build: Callable[..., T] = cast(Callable[..., T], lambda *values: values)
    optional: frozenset[str] = frozenset()

    def _wanted(self) -> str:
        keys = [f"'{k}'" for k in self.fields if k not in self.optional]
        more = [f"optional '{k}'" for k in self.fields if k in self.optional]
        if not more:
            return "exactly " + " and ".join(keys)
        return " and ".join(keys + more)

    def read(self, value: Any, shape: Shape, where: str) -> T:
        if not isinstance(value, Mapping):
            raise PuzzleError(f"{where} must be an object with {self._wanted()}")
        if not self.optional and set(value) != set(self.fields):
            raise PuzzleError(f"{where} must be an object with {self._wanted()}")
        unknown = sorted(set(value) - set(self.fields))
        if unknown:
            known = ", ".join(self.fields)
            raise PuzzleError(f"{where}: unexpected field {unknown[0]!r} (fields: {known})")
        out: list[Any] = []
        for key, kind in self.fields.items():
            if value.get(key) is None and key in self.optional:
                out.append(None)
            elif key not in value:
                raise PuzzleError(f"{where}: missing field {key!r}")
            else:
                out.append(kind.read(value[key], shape, f"{where}.{key}"))
        return self.build(*out)

    def write(self, value: T) -> dict[str, Any]:
        pairs = zip(self.fields.items(), _values(value), strict=True)
        return {key: kind.write(v) for (key, kind), v in pairs if v is not None}

    def describe(self) -> str:
        parts = [
            f"`{key}`{'?' if key in self.optional else ''}: {kind.describe()}"
            for key, kind in self.fields.items()
        ]
        return "an object {" + "; ".join(parts) + "}"


REQUIRED: Any = dataclasses.MISSING
_META = "satsudoku.spec"


class Declaration(NamedTuple):
    """What `spec` attaches to a dataclass field."""

    kind: Kind[Any]
    absent: Any  # the document value read when the field is missing; REQUIRED if none
    omit: Callable[[Any], bool] | None  # left out of to_spec when this says so


def spec(
    kind: Kind[Any],
    *,
    absent: Any = REQUIRED,
    omit: Callable[[Any], bool] | None = None,
    default: Any = dataclasses.MISSING,
) -> Any:
    """Declare a rule field: its kind, the document value used when it is missing (a `BySize`
    for one that depends on n), when `to_spec` leaves it out, and its Python default."""
    metadata = {_META: Declaration(kind, absent, omit)}
    return dataclasses.field(default=default, metadata=metadata)


def empty(value: Any) -> bool:
    """`omit=empty`: leave out an empty list, False, or clues that are all none."""
    if isinstance(value, tuple) and value and all(v is None for v in value):
        return True
    return not value


class FieldDoc(NamedTuple):
    """One row of a rule's field table in the docs."""

    key: str
    required: bool
    default: str  # the default's text ('' when required or when absent means "none")
    value: str


@dataclass(frozen=True)
class FpuzzlesKey:
    """Where f-puzzles keeps a rule, in one of its standard forms, so that import and export
    follow from the declaration: "lines" (entries `{lines: [[R1C1, …]]}` for the rule's
    `lines`), "cell" (one `{cell: R1C1}` entry per cell of its `cells`) or "flag" (`true`, for a
    rule with no field)."""

    key: str
    form: Literal["lines", "cell", "flag"]


class Declared:
    """Base of a rule whose dataclass fields are declared with `spec`: `from_spec` and `to_spec`
    follow from the declarations. Override `admit` to refuse a board up front and `validate`
    for checks across fields or against the board."""

    type: ClassVar[str]
    # The f-puzzles key holding exactly this rule's field, where f-puzzles has one (io/fpuzzles).
    fpuzzles: ClassVar[FpuzzlesKey | None] = None

    @classmethod
    def declarations(cls) -> list[tuple[str, Declaration]]:
        return [
            (f.name, f.metadata[_META])
            for f in dataclasses.fields(cast(Any, cls))
            if _META in f.metadata
        ]

    @classmethod
    def admit(cls, shape: Shape) -> None:
        """Raise PuzzleError when the rule means nothing on this board."""

    def validate(self, shape: Shape) -> None:
        """Raise PuzzleError for what single fields cannot see (lengths against n, overlaps)."""

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Self:
        declared = cls.declarations()
        required = {name for name, d in declared if d.absent is REQUIRED}
        check_fields(spec, required, {name for name, _ in declared} - required)
        cls.admit(shape)
        values = {}
        for name, d in declared:
            if name in spec:
                raw = spec[name]
            else:  # the default goes through the same checks (lockout's 4 needs n ≥ 5)
                raw = d.absent.of(shape.size) if isinstance(d.absent, BySize) else d.absent
            values[name] = d.kind.read(raw, shape, name)
        rule = cast(Self, cast(Any, cls)(**values))
        rule.validate(shape)
        return rule

    def to_spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name, d in self.declarations():
            value = getattr(self, name)
            if d.omit is None or not d.omit(value):
                out[name] = d.kind.write(value)
        return out


def field_docs(cls: type[Any]) -> list[FieldDoc]:
    """The declared fields of a rule class, for the docs; [] for a class that declares none."""
    if not (isinstance(cls, type) and issubclass(cls, Declared)):
        return []
    docs = []
    for name, d in cls.declarations():
        absent = d.absent
        if absent is REQUIRED:
            docs.append(FieldDoc(name, True, "", d.kind.describe()))
            continue
        shown = absent.text if isinstance(absent, BySize) else absent
        quiet = shown in ([], False, "")  # absent means "none of these": no default to show
        docs.append(FieldDoc(name, False, "" if quiet else str(shown), d.kind.describe()))
    return docs
