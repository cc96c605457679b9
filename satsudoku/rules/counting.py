"""Counting circles: a digit in a circle says how many circles hold that digit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from satsudoku.constraints import (
    MAX_TRANSITIONS,
    Allowed,
    Automaton,
    Constraint,
    State,
    TableTooLargeError,
)
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
    circles contain that digit." Posted as one `Automaton` over the circles counting every
    digit (or, past its size, one per digit: `_parts`), digits larger than the number of
    circles forbidden in them; the verifier reads the wording (`counts_itself`).
    """

    type: ClassVar[str] = "countingcircles"
    cells: tuple[Cell, ...] = spec(Cells())

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        label = f"counting circles {', '.join(map(cell_name, self.cells[:3]))}" + (
            ", …" if len(self.cells) > 3 else ""
        )
        yield Condition(self.cells, label, counts_itself, partial(_parts, self.cells, label))


def _parts(cells: tuple[Cell, ...], label: str, shape: Shape) -> tuple[Constraint, ...]:
    """A digit above the number of circles cannot count itself. Then one automaton over all
    the circles, counting every digit at once and cut where the cells left cannot complete
    the counts (the bitmask search gets the whole rule's arc consistency, and solves a 9x9
    with 15 circles in a few nodes); where that unrolls too large (45 circles on a 9x9 hold
    every digit in 10! count vectors), one automaton per digit d instead (0 or d circles hold
    d): the same rule, each digit apart."""
    n, k = shape.size, len(cells)
    parts: list[Constraint] = []
    if k < n:
        parts.extend(Allowed(cell, frozenset(range(1, k + 1))) for cell in cells)
    start = (0,) * (min(n, k) + 1)  # (cells read, count of 1s, count of 2s, ...)
    joint = Automaton(
        cells, n, start, partial(_joint_step, total=k), partial(_joint_done, total=k), label
    )
    try:
        if _joint_bound(n, k) > MAX_TRANSITIONS:
            raise TableTooLargeError(f"{label}: the joint automaton is too large")
        joint.layers()
    except TableTooLargeError:
        for digit in range(1, min(n, k) + 1):
            step = partial(_count_step, digit=digit)
            done = partial(_count_done, digit=digit)
            parts.append(Automaton(cells, n, (0,), step, done, f"{label}: {digit}s"))
        return tuple(parts)
    parts.append(joint)
    return tuple(parts)


def _joint_bound(n: int, k: int) -> int:
    """An upper bound on the transitions the joint automaton tries: every state it reaches is
    a part of the count vector of some set of digits summing to k (a set S has prod(d + 1)
    parts, d in S), tried with n digits; known before unrolling (45 circles on a 9x9: 3.3e7,
    1.1 s of CPU to find out by unrolling; 15 circles: 36,396, of which 10,131 arcs live)."""
    parts = [1] + [0] * k  # parts[s]: the sum over digit sets summing to s of prod(d + 1)
    for digit in range(1, min(n, k) + 1):
        for s in range(k, digit - 1, -1):
            parts[s] += parts[s - digit] * (digit + 1)
    return parts[k] * n


def _joint_step(state: State, d: Digit, total: int) -> State | None:
    """(cells read, count of each digit) after one more circle holding `d`; None once a
    count passes its digit or the circles left cannot complete the counts: the started digits
    need d - count more each, and what remains must be the sum of digits not yet used."""
    if d >= len(state) or state[d] == d:
        return None
    counts = list(state)
    counts[0] += 1
    counts[d] += 1
    spare = total - counts[0]
    reachable = 1  # bit s: some set of unused digits sums to s
    for digit in range(1, len(counts)):
        if counts[digit] == 0:
            reachable |= reachable << digit
        else:
            spare -= digit - counts[digit]
    if spare < 0 or not (reachable >> spare) & 1:
        return None
    return tuple(counts)


def _joint_done(state: State, total: int) -> bool:
    return state[0] == total and all(c in (0, d) for d, c in enumerate(state) if d)


def _count_step(state: State, d: Digit, digit: int) -> State | None:
    """The `digit`s seen so far, one more if `d` is one; None once past `digit`."""
    seen = state[0] + (d == digit)
    return (seen,) if seen <= digit else None


def _count_done(state: State, digit: int) -> bool:
    return state[0] in (0, digit)
