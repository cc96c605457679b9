"""Extension variables for bitmask proofs: a sum's automaton, defined in the proof itself, so
that unit propagation is arc consistency on the sum (and its distinct-digit runs).

The formula's prefix-sum encoding (`encoders.cnf._sum`) propagates less than the kernel's sum
reasoning (`search.sums`): a digit needs a state before it *and* one after it that fit each
other, which no clause over states alone says. DRAT lets a proof define fresh variables
(extended resolution): a clause whose first literal is a variable used nowhere before is RAT.
So each sum gets, at the root of the proof, a layered automaton of its own:

- arcs A(i, u, d) ↔ S(i, u) ∧ x(c_i, d): (¬A ∨ S), (¬A ∨ x), (A ∨ ¬S ∨ ¬x), RAT on A;
- states S(i+1, t) ↔ ⋁ the arcs into t: (S ∨ ¬A) each, then (¬S ∨ ⋁ A), RAT on S;

where a state is (partial sum, digits used so far in the current run of cells the kernel
holds pairwise distinct: a little killer's cells in one box, an arrow's in one row). Layer 0 is
the constant start (its arcs are the digits themselves), and arcs end only in partial sums the
formula's own layers keep. Then lemmas, each RUP once those before it are written:

- per arc, A → s(i+1, v) (the formula's state of that partial sum), per state S → s (links);
- per state and used digit d, S → d on an earlier cell of the run, and S → ¬x(c, d) for the
  next cell (the houses' binary at-most-one clauses, checked present);
- per state, S → ⋁ its arcs out; per layer, ⋁ its states; per digit, x → ⋁ its arcs.

With these, unit propagation is the regular constraint's decomposition (Bacchus 2007): it
removes exactly the digits on no path to the total, which includes every digit the kernel's
sum reasoning removes when each of its distinct-digit groups is one run of consecutive cells.
Such a sum is `covered`: its deductions need no check in the search. The sizes are bounded
(`MAX_ARCS`); a sum past that keeps the old path (checks, branching).

Digits unit propagation rules out at the proof's root (the givens' consequences: `absent`) get
no arcs, and the lemmas that would read them are left out: such an arc is false wherever a
checker looks, so every step that used it (to falsify its digit, or in a state's definition)
is made without it, and the lemmas stay RUP. On the published little killer this drops most
of the automaton's arcs, which the checkers otherwise propagate through for nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from satsudoku.bits import bit_indices
from satsudoku.encoders.cnf import Clause, CnfFormula, SumStates

# Arcs of one sum's automaton (the published little killer's 42 along a diagonal with box
# runs: 7,282; the 78-cell arrow of i-bet-someone-did-this-already: past 200,000 without runs),
# and of all of a puzzle's: each arc costs ~6 lemmas.
MAX_ARCS = 60_000
MAX_TOTAL_ARCS = 400_000
RUNS = True  # distinct-digit runs in the states (False: partial sums only, for measuring)


@dataclass
class SumAutomaton:
    """One sum's extension: its definitions and lemmas in proof order, and whether its runs
    are the kernel's groups (then the kernel's sum deductions are unit propagation)."""

    clauses: list[Clause]
    definitions: int  # how many of `clauses` come first as RAT definitions
    arcs: int
    top: int  # the last variable it defines
    covered: bool = False


State = tuple[int, int]  # (partial sum, bit set of digits used in the current run)


def runs_of(groups: Sequence[Sequence[int]], k: int) -> tuple[list[int], bool]:
    """Per position its run (-1: none) from the kernel's groups: each group split into runs
    of consecutive positions; True when every group was one run already."""
    run = [-1] * k
    whole = True
    label = 0
    for group in groups:
        ordered = sorted(group)
        pieces: list[list[int]] = [[ordered[0]]]
        for p in ordered[1:]:
            if p == pieces[-1][-1] + 1:
                pieces[-1].append(p)
            else:
                pieces.append([p])
        whole = whole and len(pieces) == 1
        for piece in pieces:
            if len(piece) > 1:
                for p in piece:
                    run[p] = label
                label += 1
    return run, whole


def build(
    layout: SumStates,
    run: Sequence[int],
    n: int,
    top: int,
    max_arcs: int = MAX_ARCS,
    absent: frozenset[int] = frozenset(),
) -> SumAutomaton | None:
    """The extension of one sum over fresh variables from `top` + 1; None past `max_arcs`.
    Cell-digit variables in `absent` (false by unit propagation at the root) get no arcs.

    `run` must only join positions whose cells the formula keeps pairwise distinct (binary
    clauses per digit): the caller checks it."""
    cells, weights, domains, old = layout.cells, layout.weights, layout.domains, layout.states
    k = len(cells)
    if k == 0 or not old[0]:
        return None

    def var(cell: int, d: int) -> int:
        return cell * n + d

    # Layers of states, each state's arcs out as (digit, arc literal, target).
    layers: list[dict[State, int]] = [{(0, 0): 0}]  # state -> variable (0: the constant start)
    arcs_out: list[dict[State, list[tuple[int, int, State]]]] = []
    definitions: list[Clause] = []
    fresh = top
    count = 0
    for i in range(k):
        w, cell = weights[i], cells[i]
        keeps = run[i] >= 0 and i + 1 < k and run[i + 1] == run[i]
        live = old[i + 1]
        out: dict[State, list[tuple[int, int, State]]] = {}
        into: dict[State, list[int]] = {}
        for (v, used), s in layers[i].items():
            mine = out.setdefault((v, used), [])
            for d in domains[i]:
                x = var(cell, d)
                if used >> d & 1 or v + w * d not in live or x in absent:
                    continue
                target = (v + w * d, used | 1 << d if keeps else 0)
                if s == 0:
                    a = x
                else:
                    fresh += 1
                    a = fresh
                    definitions += [[-a, s], [-a, x], [a, -s, -x]]
                mine.append((d, a, target))
                into.setdefault(target, []).append(a)
                count += 1
                if count > max_arcs:
                    return None
        arcs_out.append(out)
        layer: dict[State, int] = {}
        for target in sorted(into):
            fresh += 1
            t = fresh
            layer[target] = t
            definitions += [[t, -a] for a in into[target]]
            definitions.append([-t, *into[target]])
        layers.append(layer)
    lemmas = _lemmas(layout, run, n, layers, arcs_out, absent)
    return SumAutomaton(definitions + lemmas, len(definitions), count, fresh)


def count_arcs(
    layout: SumStates,
    run: Sequence[int],
    n: int,
    limit: int,
    absent: frozenset[int] = frozenset(),
) -> int:
    """The arcs `build` would make, counted without making them; past `limit` the count
    stops there. A sum past the limit costs `build` most of a second before it gives up
    (i-bet-someone-did-this-already's arrow: 0.7 s each for runs and plain sums, this 0.03)."""
    cells, weights, domains, old = layout.cells, layout.weights, layout.domains, layout.states
    k = len(cells)
    if k == 0 or not old[0]:
        return 0
    layer: set[State] = {(0, 0)}
    count = 0
    for i in range(k):
        keeps = run[i] >= 0 and i + 1 < k and run[i + 1] == run[i]
        live = old[i + 1]
        steps = [(weights[i] * d, 1 << d) for d in domains[i] if cells[i] * n + d not in absent]
        grown: set[State] = set()
        for v, used in layer:
            for step, bit in steps:
                if used & bit or v + step not in live:
                    continue
                grown.add((v + step, used | bit if keeps else 0))
                count += 1
            if count > limit:
                return count
        layer = grown
    return count


def _lemmas(
    layout: SumStates,
    run: Sequence[int],
    n: int,
    layers: list[dict[State, int]],
    arcs_out: list[dict[State, list[tuple[int, int, State]]]],
    absent: frozenset[int],
) -> list[Clause]:
    """The RUP lemmas over the defined automaton, in an order where each follows by unit
    propagation from the formula, the definitions and the lemmas before it (module doc)."""
    cells, old, domains = layout.cells, layout.states, layout.domains
    k = len(cells)
    out: list[Clause] = []
    for i in range(k):  # links, used digits, exclusions of layer i + 1
        after = old[i + 1]
        for arcs in arcs_out[i].values():
            if i == 0:
                continue  # the arc is the digit: the formula's transition clause is the link
            for _, a, (v, _) in arcs:
                if after[v]:
                    out.append([-a, after[v]])
        for (v, used), t in layers[i + 1].items():
            if after[v]:
                out.append([-t, after[v]])
            if used:
                start = i
                while start > 0 and run[start - 1] == run[i]:
                    start -= 1
                for d in bit_indices(used):
                    out.append([-t, *(cells[j] * n + d for j in range(start, i + 1))])
                    out.append([-t, -(cells[i + 1] * n + d)])
    for i in range(k):
        if i:
            for u, s in layers[i].items():  # a state needs an arc out
                out.append([-s, *(a for _, a, _ in arcs_out[i][u])])
        out.append(list(layers[i + 1].values()))  # some state of the next layer holds
        if i:
            reading: dict[int, list[int]] = {d: [] for d in domains[i]}
            for arcs in arcs_out[i].values():
                for d, a, _ in arcs:
                    reading[d].append(a)
            for d, arcs_d in reading.items():
                x = cells[i] * n + d
                if x not in absent:  # false at the root: its arcs were never made
                    out.append([-x, *arcs_d])
    return out


def distinct_pairs(clauses: Sequence[Clause], n: int) -> set[tuple[int, int]]:
    """Cell pairs (a < b) the formula keeps apart digit by digit: binary ¬x(a, d) ∨ ¬x(b, d)
    for every digit d."""
    top = n**3
    seen: dict[tuple[int, int], int] = {}
    for clause in clauses:
        if len(clause) == 2 and -top <= clause[0] < 0 and -top <= clause[1] < 0:
            a, da = divmod(-clause[0] - 1, n)
            b, db = divmod(-clause[1] - 1, n)
            if da == db and a != b:
                key = (min(a, b), max(a, b))
                seen[key] = seen.get(key, 0) | 1 << da
    every = (1 << n) - 1
    return {pair for pair, digits in seen.items() if digits == every}


def extend_sums(
    sums: Sequence[tuple[tuple[int, ...], tuple[int, ...], int, Sequence[Sequence[int]]]],
    formula: CnfFormula,
    max_total: int = MAX_TOTAL_ARCS,
    absent: frozenset[int] = frozenset(),
) -> list[SumAutomaton | None]:
    """Per sum (flat cells, weights, total, the kernel's distinct-digit groups of positions),
    its automaton over the formula's layers, or None (not posted alike, or too large);
    `absent`: cell-digit variables false by unit propagation on the formula at the root."""
    n = formula.shape.size
    layouts = {(s.cells, s.weights, s.total): s for s in formula.sums}
    pairs: set[tuple[int, int]] | None = None
    top = formula.num_vars
    total = 0
    found: list[SumAutomaton | None] = []
    for cells, weights, goal, groups in sums:
        layout = layouts.get((cells, weights, goal))
        if layout is None or total >= max_total:
            found.append(None)
            continue
        run, whole = runs_of(groups, len(cells))
        if not RUNS:
            run, whole = [-1] * len(cells), not groups
        if any(r >= 0 for r in run):
            if pairs is None:
                pairs = distinct_pairs(formula.clauses, n)
            for p in range(len(cells) - 1):
                if run[p] < 0 or run[p + 1] != run[p]:
                    continue
                members = [j for j in range(len(cells)) if run[j] == run[p]]
                if any(
                    (min(cells[a], cells[b]), max(cells[a], cells[b])) not in pairs
                    for a in members
                    for b in members
                    if a < b
                ):
                    whole = False
                    run = [-1 if r == run[p] else r for r in run]
        limit = min(MAX_ARCS, max_total - total)
        automaton = None
        if count_arcs(layout, run, n, limit, absent) <= limit:
            automaton = build(layout, run, n, top, limit, absent)
        if automaton is None and any(r >= 0 for r in run):
            whole = False  # the runs' states are too many: plain partial sums
            plain = [-1] * len(cells)
            if count_arcs(layout, plain, n, limit, absent) <= limit:
                automaton = build(layout, plain, n, top, limit, absent)
        if automaton is not None:
            automaton.covered = whole
            top = automaton.top
            total += automaton.arcs
        found.append(automaton)
    return found
