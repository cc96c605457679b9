"""A user rule in its own file: no two cells a chess queen's move apart both hold `digit`.

Load it with `satsudoku solve PUZZLE --plugin examples/queen_rule.py --rule queen` (or
`{"type": "queen", "digit": 9}` in a puzzle document; `digit` defaults to the largest digit).
Its field is declared (`satsudoku.rules.schema`), which gives it `from_spec` and `to_spec`; a bad
one (`"digit": "x"`, `99` on 9x9) is a one-line error naming the rule and the field, as for
built-in rules. Rows and columns keep equal
digits apart, so only the diagonals need constraints: one two-cell `Table` per diagonal pair,
allowing every digit pair except (digit, digit). `Table` is part of the shared vocabulary, so the
rule runs unchanged on the bitmask, SAT and CP-SAT backends and in the verifier.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from satsudoku.constraints import Table
from satsudoku.grid import Shape
from satsudoku.rules import register_rule
from satsudoku.rules.schema import Declared, Integer, N, spec


@register_rule("queen")
@dataclass(frozen=True)
class Queen(Declared):
    """No two cells a queen's move apart both hold `digit`."""

    type: ClassVar[str] = "queen"
    digit: int = spec(Integer(1, N), absent=N, default=9)

    def constraints(self, shape: Shape) -> Iterator[Table]:
        """One two-cell Table per pair of cells on a common diagonal."""
        digits = range(1, shape.size + 1)
        both = (self.digit, self.digit)
        not_both = frozenset((a, b) for a in digits for b in digits if (a, b) != both)
        cells = list(shape.cells())
        for a in cells:
            for b in cells:
                if a < b and abs(a[0] - b[0]) == abs(a[1] - b[1]):  # same diagonal
                    yield Table((a, b), not_both)
