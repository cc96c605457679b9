"""Per-cell digit domains that the solver models (CP-SAT, MIP) post as bounds, and the one check
that a puzzle's givens fit them, shared so both models refuse the same givens the same way."""

from __future__ import annotations

from collections.abc import Sequence

from satsudoku.constraints import Allowed, Constraint
from satsudoku.grid import Digit, Grid, cell_name


def allowed_domains(constraints: Sequence[Constraint], n: int) -> list[frozenset[Digit]]:
    """Every cell's digits, narrowed by the `Allowed` constraints among `constraints`."""
    domains = [frozenset(range(1, n + 1))] * (n * n)
    for constraint in constraints:
        if isinstance(constraint, Allowed):
            r, c = constraint.cell
            domains[r * n + c] &= constraint.digits
    return domains


def given_conflict(domains: Sequence[frozenset[Digit]], givens: Grid) -> str | None:
    """Why these givens cannot be posted as domains (a given, or every digit, outside its
    cell's domain), naming the cell; None when they can."""
    n = givens.size
    for index, domain in enumerate(domains):
        value = givens.values[index]
        if not domain or (value and value not in domain):
            allowed = ", ".join(map(str, sorted(domain))) or "no digit"
            what = f"the given {value} is" if value else "no digit is"
            return f"{cell_name(divmod(index, n))}: {what} outside its rules ({allowed})"
    return None
