"""Arrows whose bulb is not a sum: the largest digit on the shaft (maximum arrows) or the
product of the shaft's digits (product arrows)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from satsudoku.constraints import Automaton, Constraint, State
from satsudoku.errors import PuzzleError
from satsudoku.grid import Digit, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits
from satsudoku.rules.schema import Cells, Declared, ListOf, Object, spec
from satsudoku.rules.sums import Arrow

Step = Callable[[State, Digit], "State | None"]


def largest_is_bulb(digits: Digits) -> bool:
    """The wording of a maximum arrow, digits read shaft first, bulb last: the bulb's digit is
    the largest on the shaft (at least one shaft digit equals it, none is larger)."""
    return max(digits[:-1]) == digits[-1]


def product_is_bulb(digits: Digits) -> bool:
    """The wording of a product arrow: the shaft's digits multiply to the bulb's digit."""
    return math.prod(digits[:-1]) == digits[-1]


def _max_step(state: State, d: Digit, shaft: int) -> State | None:
    """(cells read, largest shaft digit so far); the bulb, read last, must equal that."""
    read, largest = state
    if read < shaft:
        return (read + 1, max(largest, d))
    return (read + 1, largest) if read == shaft and d == largest else None


def _product_step(state: State, d: Digit, shaft: int, size: int) -> State | None:
    """(cells read, product so far), dead once the product passes the largest digit (digits
    are at least 1, so it never comes back down); the bulb must equal the product."""
    read, product = state
    if read < shaft:
        return (read + 1, product * d) if product * d <= size else None
    return (read + 1, product) if read == shaft and d == product else None


def _done(state: State, shaft: int) -> bool:
    return state[0] == shaft + 1


class _BulbArrows(Declared):
    """Arrows with a one-cell bulb whose digit some function of the shaft's digits gives."""

    arrows: tuple[Arrow, ...]
    test: ClassVar[Callable[[Digits], bool]]
    what: ClassVar[str]

    def validate(self, shape: Shape) -> None:
        for i, arrow in enumerate(self.arrows):
            where = f"arrows[{i}]"
            if len(arrow.bulb) != 1:
                # A pill would be a number read across cells; no rules text of these arrows
                # says so, and guessing would solve another puzzle.
                raise PuzzleError(f"{where}: a {self.type} bulb is one cell, not {len(arrow.bulb)}")
            if not arrow.shaft:
                raise PuzzleError(f"{where}: the arrow has no shaft")
            if set(arrow.bulb) & set(arrow.shaft):
                raise PuzzleError(f"{where}: the shaft runs through the bulb")

    def _step(self, shaft: int, size: int) -> Step:
        raise NotImplementedError

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        n = shape.size
        for arrow in self.arrows:
            cells = arrow.shaft + arrow.bulb
            k = len(arrow.shaft)
            label = f"{self.what} arrow {cell_name(arrow.bulb[0])}"
            automaton = Automaton(
                cells, n, (0, 1), self._step(k, n), partial(_done, shaft=k), label
            )
            yield Condition(cells, label, type(self).test, partial(_parts, automaton))


def _parts(automaton: Automaton, shape: Shape) -> tuple[Constraint, ...]:
    """Posted as its automaton (one layer per cell, at most n states each)."""
    return (automaton,)


@register_rule("maxarrow")
@dataclass(frozen=True)
class MaxArrow(_BulbArrows):
    """The digit in each arrow's bulb is the largest digit on its shaft (digits may repeat).

    Meaning: Nickleaton/sudoku's `maxarrow` key (its files of f-puzzles data, 'Minmax'-style
    puzzles), whose rules text says "the digit in the round bulb of each arrow tells you what
    the *largest* digit is along the line attached to that arrow … there has to be at least
    one additional 6 somewhere along the arrow line, and all of the other digits along the
    line must be less than 6". Not one of f-puzzles' own tools.
    """

    type: ClassVar[str] = "maxarrow"
    what: ClassVar[str] = "maximum"
    test: ClassVar[Callable[[Digits], bool]] = largest_is_bulb
    arrows: tuple[Arrow, ...] = spec(ListOf(Object({"bulb": Cells(), "shaft": Cells()}, Arrow)))

    def _step(self, shaft: int, size: int) -> Step:
        return partial(_max_step, shaft=shaft)


@register_rule("productarrow")
@dataclass(frozen=True)
class ProductArrow(_BulbArrows):
    """The digits along each arrow's shaft multiply to the digit in its bulb.

    Meaning: Nickleaton/sudoku's `productarrow` key, whose rules text says "Digits along each
    arrow must _multiply_ to give the product shown in the circle". Not one of f-puzzles' own
    tools.
    """

    type: ClassVar[str] = "productarrow"
    what: ClassVar[str] = "product"
    test: ClassVar[Callable[[Digits], bool]] = product_is_bulb
    arrows: tuple[Arrow, ...] = spec(ListOf(Object({"bulb": Cells(), "shaft": Cells()}, Arrow)))

    def _step(self, shaft: int, size: int) -> Step:
        return partial(_product_step, shaft=shaft, size=size)
