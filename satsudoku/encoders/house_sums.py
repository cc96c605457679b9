"""Whole houses inside a linear sum folded into its total (house totals as constants).

On an n×n board every cell holds one digit of 1..n, so an all-different group of n distinct
cells (a row, column, box, jigsaw region, diagonal) holds each of 1..n once: its digits add
up to T = n(n+1)/2 whatever they are. A sum Σ w_c·x_c whose cells include such a house H may
subtract any w from the weights of H's cells and w·T from its total: with the house's rule
in the same formula, both say the same. Picking w as the commonest weight among H's cells
drops those cells from the sum. The SAT encoding's prefix-sum layers grow with every cell
(`cnf._sum`), so an arrow whose shaft is the rest of the grid (a 3-cell pill over 78 cells:
317,000 clauses) becomes a 3-cell sum with weights 101, 11, 2 and total 405.

Digits are always 1..n inside satsudoku (`--symbols` only changes how they are written), and
only groups of exactly n distinct cells count, so the house total is always T. A house only
folds in when it lies wholly inside the sum's cells: a cell outside the sum has weight 0 and
would enter it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from satsudoku.constraints import AllDifferent, Constraint, Sum


def house_total(n: int) -> int:
    """The digits 1..n added up: what every house of an n×n board holds."""
    return n * (n + 1) // 2


def fold_houses(
    cells: Sequence[int],
    weights: Sequence[int],
    total: int,
    houses: Sequence[frozenset[int]],
    n: int,
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The sum Σ weights[i]·x(cells[i]) == total with whole houses folded into the total:
    (cells, weights, total) of an equivalent sum given the houses' rules, in the cells' first
    order, cells of weight 0 left out (the sum unchanged if no house lies inside it). Houses
    are flat cell sets of exactly n cells; repeated cells have their weights added. Greedy:
    the house that drops the most cells first, while one drops any (each fold removes cells,
    so it ends)."""
    weight: dict[int, int] = {}
    for cell, w in zip(cells, weights, strict=True):
        weight[cell] = weight.get(cell, 0) + w
    inside = [h for h in houses if len(h) == n and all(weight.get(c, 0) for c in h)]
    if not inside:  # as stated, repeats apart: proofs match it to the kernel's sum
        return tuple(cells), tuple(weights), total
    t = house_total(n)
    best: dict[frozenset[int], tuple[int, int]] = {}  # house -> (cells it drops, its w)
    while inside:
        for house in inside:
            if house not in best:
                w, count = Counter(weight[c] for c in house).most_common(1)[0]
                best[house] = (count, w)
        house = max(inside, key=lambda h: best[h][0])  # the first of the best on ties
        w = best[house][1]
        for c in house:
            weight[c] -= w
        total -= w * t
        inside = [h for h in inside if all(weight[c] for c in h)]
        for h in inside:
            if not h.isdisjoint(house):
                del best[h]  # its weights changed
    kept = [c for c in weight if weight[c]]
    return tuple(kept), tuple(weight[c] for c in kept), total


def out_of_reach(constraint: Sum, n: int) -> bool:
    """Whether no digits 1..n meet the sum, its distinct pairs aside: its total lies outside
    what its terms can add up to. Such a sum is posted as a plain contradiction, so that a
    total of 10**19 (JSON reads 20 digits) or a 21-cell arrow bulb (weight 10**20) never
    reaches CP-SAT's 64-bit integers (a TypeError) or MIP's doubles (exact below 2**53)."""
    weights = constraint.coefficients()
    low = sum(min(w, w * n) for w in weights)
    high = sum(max(w, w * n) for w in weights)
    return not low <= constraint.total <= high


def folded_constraints(constraints: Sequence[Constraint], n: int) -> list[Constraint]:
    """`constraints` with each `Sum` folded (`fold_houses`) over the n-cell all-different
    groups among them, for models that post a sum as one linear term list (CP-SAT): a folded
    sum's distinct pairs come first as two-cell all-different groups, since their positions
    may have left the sum. Sums with no house inside are kept as they are, sums no digits can
    meet (`out_of_reach`) become a one-cell sum of 0."""
    houses = list(
        dict.fromkeys(
            group
            for c in constraints
            if isinstance(c, AllDifferent)
            and len(group := frozenset(r * n + col for r, col in c.cells)) == n
        )
    )
    out: list[Constraint] = []
    for constraint in constraints:
        if isinstance(constraint, Sum) and constraint.cells and out_of_reach(constraint, n):
            out.append(Sum(constraint.cells[:1], 0))  # no digit is 0: no solution, as it says
            continue
        if not isinstance(constraint, Sum) or not houses:
            out.append(constraint)
            continue
        flat = [r * n + c for r, c in constraint.cells]
        weights = constraint.coefficients()
        cells, folded, total = fold_houses(flat, weights, constraint.total, houses, n)
        if (cells, folded, total) == (tuple(flat), tuple(weights), constraint.total):
            out.append(constraint)
            continue
        for a, b in constraint.distinct:
            out.append(AllDifferent((constraint.cells[a], constraint.cells[b])))
        out.append(Sum(tuple(divmod(i, n) for i in cells), total, folded))
    return out
