"""Border rules between adjacent cells: kropki dots and XV, each with its negative constraint."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from satsudoku.constraints import Constraint, Pair, Relation
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape, cell_name
from satsudoku.rules import parse_cell, register_rule
from satsudoku.rules.fields import adjacent, as_list, check_fields, integer, orthogonal_pairs

Dot = tuple[Cell, Cell, int]  # the two cells and the dot's value (difference, ratio or sum)


def _dots(spec: Mapping[str, Any], field: str, shape: Shape, default: int) -> tuple[Dot, ...]:
    """Read `[[c1, c2], …]`; an entry may also be `{"cells": [c1, c2], "value": k}`."""
    dots = []
    for i, item in enumerate(as_list(spec.get(field, []), field)):
        where = f"{field}[{i}]"
        value = default
        if isinstance(item, Mapping):
            unknown = sorted(set(item) - {"cells", "value"})
            if unknown or "cells" not in item:
                raise PuzzleError(f"{where} must be [c1, c2] or {{cells: [c1, c2], value: k}}")
            value = integer(item.get("value", default), f"{where}.value", low=1)
            item = item["cells"]
        pair = as_list(item, where)
        if len(pair) != 2:
            raise PuzzleError(f"{where} must name exactly two cells")
        a, b = (parse_cell(c, shape, f"{where}[{k}]") for k, c in enumerate(pair))
        if not adjacent(a, b):
            raise PuzzleError(f"{where}: {cell_name(a)} and {cell_name(b)} are not adjacent")
        dots.append((a, b, value))
    return tuple(dots)


def _negative(spec: Mapping[str, Any], kinds: tuple[str, ...]) -> frozenset[str]:
    """`negative: true` (every kind) or a list naming some of `kinds`."""
    value = spec.get("negative", False)
    if isinstance(value, bool):
        return frozenset(kinds) if value else frozenset()
    chosen = frozenset(as_list(value, "negative"))
    if not chosen <= set(kinds):
        wrong = sorted(chosen - set(kinds))[0]
        raise PuzzleError(f"negative: {wrong!r} is not one of {', '.join(kinds)} (or true)")
    return chosen


def _dot_spec(dots: tuple[Dot, ...], default: int) -> list[Any]:
    out: list[Any] = []
    for a, b, value in dots:
        cells = [cell_name(a), cell_name(b)]
        out.append(cells if value == default else {"cells": cells, "value": value})
    return out


def _undotted(shape: Shape, dots: tuple[Dot, ...]) -> Iterator[tuple[Cell, Cell]]:
    marked = {frozenset((a, b)) for a, b, _ in dots}
    for a, b in orthogonal_pairs(shape):
        if frozenset((a, b)) not in marked:
            yield a, b


@register_rule("kropki")
@dataclass(frozen=True)
class Kropki:
    """White dots join digits that differ by 1, black dots digits in ratio 1:2. With `negative`,
    every adjacent pair without a dot (of that colour) lacks that relation."""

    type: ClassVar[str] = "kropki"
    white: tuple[Dot, ...] = ()
    black: tuple[Dot, ...] = ()
    negative: frozenset[str] = frozenset()

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> Kropki:
        check_fields(spec, set(), {"white", "black", "negative"})
        white = _dots(spec, "white", shape, 1)
        black = _dots(spec, "black", shape, 2)
        return cls(white, black, _negative(spec, ("white", "black")))

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

    def to_spec(self) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": self.type}
        if self.white:
            spec["white"] = _dot_spec(self.white, 1)
        if self.black:
            spec["black"] = _dot_spec(self.black, 2)
        if self.negative:
            both = self.negative == {"white", "black"}
            spec["negative"] = True if both else sorted(self.negative)
        return spec


def _fixed(dots: tuple[Dot, ...], field: str, total: int) -> tuple[tuple[Cell, Cell], ...]:
    """An X always means 10 and a V 5: a mark that states another value is refused, not ignored."""
    for i, (a, b, value) in enumerate(dots):
        if value != total:
            raise PuzzleError(
                f"{field}[{i}] ({cell_name(a)}-{cell_name(b)}): {field.upper()} always means a"
                f" sum of {total}, not {value}; use a killer cage for another total"
            )
    return tuple((a, b) for a, b, _ in dots)


@register_rule("xv")
@dataclass(frozen=True)
class XV:
    """An X joins digits adding to 10, a V digits adding to 5. With `negative`, no other
    adjacent pair adds to 10 or 5."""

    type: ClassVar[str] = "xv"
    x: tuple[tuple[Cell, Cell], ...] = ()
    v: tuple[tuple[Cell, Cell], ...] = ()
    negative: bool = False

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], shape: Shape) -> XV:
        check_fields(spec, set(), {"x", "v", "negative"})
        x = _fixed(_dots(spec, "x", shape, 10), "x", 10)
        v = _fixed(_dots(spec, "v", shape, 5), "v", 5)
        negative = spec.get("negative", False)
        if not isinstance(negative, bool):
            raise PuzzleError(f"negative must be true or false, not {negative!r}")
        return cls(x, v, negative)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for a, b in self.x:
            yield Pair(a, b, Relation.SUM, 10)
        for a, b in self.v:
            yield Pair(a, b, Relation.SUM, 5)
        if self.negative:
            marked = tuple((a, b, 0) for a, b in self.x + self.v)
            for a, b in _undotted(shape, marked):
                yield Pair(a, b, Relation.NOT_SUM, 10)
                yield Pair(a, b, Relation.NOT_SUM, 5)

    def to_spec(self) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": self.type}
        if self.x:
            spec["x"] = [[cell_name(a), cell_name(b)] for a, b in self.x]
        if self.v:
            spec["v"] = [[cell_name(a), cell_name(b)] for a, b in self.v]
        if self.negative:
            spec["negative"] = True
        return spec
