"""Counting circles: a digit in a circle says how many circles hold that digit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from satsudoku.constraints import Allowed, Automaton, Constraint, State
from satsudoku.grid import Cell, Digit, Shape, cell_name
from satsudoku.rules import register_rule
from satsudoku.rules.condition import Condition, Digits
from satsudoku.rules.schema import Cells, Declared, spec


def counts_itself(digits: Digits) -> bool:
    """The rule's wording: every digit d in the circles is in exactly d of them."""
    return all(count == digit for digit, count in Counter(digits).items())


@register_rule("countingcircles")
@dataclass(frozen=True)
class CountingCircles(Declared):
    """Any digit in a circle says exactly how many circles hold it: a 2 in a circle means two
    circles hold a 2 (and no other does). All the puzzle's circles form one rule.

    Meaning: the rules texts of 'Introduction to Counting Circles' (Michael Lefkowitz) and
    'Zippers and Circles' (Kitty Trouble): "Any digit in a circle indicates exactly how many
    circles contain that digit." Posted as one `Automaton` per digit d over the circles,
    counting d's (dead past d, accepting 0 or d), and digits larger than the number of circles
    forbidden in them; the verifier reads the wording (`counts_itself`).
    """

    type: ClassVar[str] = "countingcircles"
    cells: tuple[Cell, ...] = spec(Cells())

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        label = f"counting circles {', '.join(map(cell_name, self.cells[:3]))}" + (
            ", …" if len(self.cells) > 3 else ""
        )
        yield Condition(self.cells, label, counts_itself, partial(_parts, self.cells, label))


def _parts(cells: tuple[Cell, ...], label: str, shape: Shape) -> tuple[Constraint, ...]:
    """A digit above the number of circles cannot count itself; each other digit d is in
    0 or d circles, counted by an automaton whose state is the d's seen so far."""
    n, k = shape.size, len(cells)
    parts: list[Constraint] = []
    if k < n:
        parts.extend(Allowed(cell, frozenset(range(1, k + 1))) for cell in cells)
    for digit in range(1, min(n, k) + 1):
        step = partial(_count_step, digit=digit)
        done = partial(_count_done, digit=digit)
        parts.append(Automaton(cells, n, (0,), step, done, f"{label}: {digit}s"))
    return tuple(parts)


def _count_step(state: State, d: Digit, digit: int) -> State | None:
    """The `digit`s seen so far, one more if `d` is one; None once past `digit`."""
    seen = state[0] + (d == digit)
    return (seen,) if seen <= digit else None


def _count_done(state: State, digit: int) -> bool:
    return state[0] in (0, digit)
