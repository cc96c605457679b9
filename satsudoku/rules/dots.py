"""Border rules between adjacent cells: kropki dots and XV, each with its negative constraint."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import Constraint, Pair, Relation
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.fields import as_list, integer, orthogonal_pairs
from satsudoku.rules.schema import CellPair, Declared, Kind, empty, spec

Dot = tuple[Cell, Cell, int]  # the two cells and the dot's value (difference, ratio or sum)
PAIR = CellPair()


@dataclass(frozen=True)
class Dots(Kind[tuple[Dot, ...]]):
    """`[[c1, c2], …]`; an entry may also be `{"cells": [c1, c2], "value": k}`."""

    default: int

    def read(self, value: Any, shape: Shape, where: str) -> tuple[Dot, ...]:
        dots = []
        for i, item in enumerate(as_list(value, where)):
            at = f"{where}[{i}]"
            number = self.default
            if isinstance(item, Mapping):
                unknown = sorted(set(item) - {"cells", "value"})
                if unknown or "cells" not in item:
                    raise PuzzleError(f"{at} must be [c1, c2] or {{cells: [c1, c2], value: k}}")
                number = integer(item.get("value", self.default), f"{at}.value", low=1)
                item = item["cells"]
            dots.append((*PAIR.read(item, shape, at), number))
        return tuple(dots)

    def write(self, value: tuple[Dot, ...]) -> list[Any]:
        out: list[Any] = []
        for a, b, number in value:
            cells = [cell_name(a), cell_name(b)]
            out.append(cells if number == self.default else {"cells": cells, "value": number})
        return out

    def describe(self) -> str:
        return (
            "list, each item [a, b], two orthogonally adjacent cells, or {`cells`: [a, b], "
            f"`value`: k}} for a value other than {self.default}"
        )


@dataclass(frozen=True)
class FixedDots(Kind[tuple[tuple[Cell, Cell], ...]]):
    """Marks that always mean `total` (an X is 10, a V 5): a mark stating another value is
    refused, not ignored."""

    total: int

    def read(self, value: Any, shape: Shape, where: str) -> tuple[tuple[Cell, Cell], ...]:
        dots = Dots(self.total).read(value, shape, where)
        for i, (a, b, number) in enumerate(dots):
            if number != self.total:
                raise PuzzleError(
                    f"{where}[{i}] ({cell_name(a)}-{cell_name(b)}): {where.upper()} always means"
                    f" a sum of {self.total}, not {number}; use a killer cage for another total"
                )
        return tuple((a, b) for a, b, _ in dots)

    def write(self, value: tuple[tuple[Cell, Cell], ...]) -> list[Any]:
        return [PAIR.write(pair) for pair in value]

    def describe(self) -> str:
        return "list, each item [a, b], two orthogonally adjacent cells"


@dataclass(frozen=True)
class Negative(Kind[frozenset[str]]):
    """`true` (every kind of mark) or a list naming some of `kinds`."""

    kinds: tuple[str, ...]

    def read(self, value: Any, shape: Shape, where: str) -> frozenset[str]:
        if isinstance(value, bool):
            return frozenset(self.kinds) if value else frozenset()
        chosen = frozenset(as_list(value, where))
        if not chosen <= set(self.kinds):
            wrong = sorted(chosen - set(self.kinds))[0]
            raise PuzzleError(f"{where}: {wrong!r} is not one of {', '.join(self.kinds)} (or true)")
        return chosen

    def write(self, value: frozenset[str]) -> bool | list[str]:
        return True if value == set(self.kinds) else sorted(value)

    def describe(self) -> str:
        return f"true, false, or a list of some of {', '.join(self.kinds)}"


def _undotted(shape: Shape, dots: tuple[Dot, ...]) -> Iterator[tuple[Cell, Cell]]:
    marked = {frozenset((a, b)) for a, b, _ in dots}
    for a, b in orthogonal_pairs(shape):
        if frozenset((a, b)) not in marked:
            yield a, b


@register_rule("kropki")
@dataclass(frozen=True)
class Kropki(Declared):
    """White dots join digits that differ by 1, black dots digits in ratio 1:2. With `negative`,
    every adjacent pair without a dot (of that colour) lacks that relation."""

    type: ClassVar[str] = "kropki"
    white: tuple[Dot, ...] = spec(Dots(1), absent=[], omit=empty, default=())
    black: tuple[Dot, ...] = spec(Dots(2), absent=[], omit=empty, default=())
    negative: frozenset[str] = spec(
        Negative(("white", "black")), absent=False, omit=empty, default=frozenset()
    )

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for a, b, value in self.white:
            yield Pair(a, b, Relation.DIFFERENCE, value)
        for a, b, value in self.black:
            yield Pair(a, b, Relation.RATIO, value)
        if self.negative:
            for a, b in _undotted(shape, self.white + self.black):
                if "white" in self.negative:
                    yield Pair(a, b, Relation.NOT_DIFFERENCE, 1)
                if "black" in self.negative:
                    yield Pair(a, b, Relation.NOT_RATIO, 2)


@register_rule("xv")
@dataclass(frozen=True)
class XV(Declared):
    """An X joins digits adding to 10, a V digits adding to 5. With `negative` (`true`, or
    `["v"]` for a rules text saying only "all V pairs are given"), no adjacent pair without a
    mark adds to 10 or 5 (that one)."""

    type: ClassVar[str] = "xv"
    x: tuple[tuple[Cell, Cell], ...] = spec(FixedDots(10), absent=[], omit=empty, default=())
    v: tuple[tuple[Cell, Cell], ...] = spec(FixedDots(5), absent=[], omit=empty, default=())
    negative: frozenset[str] = spec(
        Negative(("x", "v")), absent=False, omit=empty, default=frozenset()
    )

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for a, b in self.x:
            yield Pair(a, b, Relation.SUM, 10)
        for a, b in self.v:
            yield Pair(a, b, Relation.SUM, 5)
        if self.negative:
            marked = tuple((a, b, 0) for a, b in self.x + self.v)
            for a, b in _undotted(shape, marked):
                if "x" in self.negative:
                    yield Pair(a, b, Relation.NOT_SUM, 10)
                if "v" in self.negative:
                    yield Pair(a, b, Relation.NOT_SUM, 5)
