"""Which digits a puzzle cannot tell apart: relabelling them maps solutions onto solutions.

A rule declares `digit_symmetric = True` when its meaning never names a digit (all-different
groups, equal cells); a rule that does not say so is taken to be asymmetric, so a new rule is
safe by default. The declaration is trusted, never guessed from the constraints.
"""

from __future__ import annotations

from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule


def declares_symmetry(rule: Rule) -> bool:
    """True when the rule's class states that relabelling digits preserves it."""
    return getattr(type(rule), "digit_symmetric", False) is True


def interchangeable_digits(puzzle: Puzzle) -> frozenset[int]:
    """Digits any permutation of which maps the puzzle's solutions onto its solutions.

    With digit-symmetric rules these are the digits no given uses: givens pin their own digits,
    the rest stay free to swap (an empty grid: all n). Without symmetry: none.
    """
    if not all(declares_symmetry(rule) for rule in puzzle.rules):
        return frozenset()
    used = set(puzzle.givens.values)
    return frozenset(d for d in range(1, puzzle.size + 1) if d not in used)
