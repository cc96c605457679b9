"""DRAT refutations written by the bitmask search itself: its search tree, lemma by lemma.

Each refuted node of the search writes the clause ¬(its decisions), children before parents.
A failed child's clause is RUP because the kernel's naked and hidden singles are unit
propagation on the extended encoding (Lynce & Ouaknine 2006); a parent's follows from its
children's clauses and the branch cell's at-least-one clause; the solution's leaf is refuted
by the blocking clause. Whatever the kernel deduces beyond unit propagation (locked candidates
at the root; table, cage, sum and sandwich consistency) is checked against a pysat propagator
and, where unit propagation does not reach the same conflict, justified by branching further
below the node on cells until it does. Sums get extension variables first (`proof.extension`):
their automata, defined by RAT clauses, after which unit propagation is arc consistency on
them and, where their distinct-digit groups are runs of cells, makes the kernel's deductions;
three-cell tables get pair variables (`proof.triples`), which do the same for their revision.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from satsudoku.backends.bitmask import _DECAY_EVERY, _RESTART_FROM
from satsudoku.deadline import OutOfTime
from satsudoku.encoders.cnf import (
    AtMostOne,
    Clause,
    CnfFormula,
    Encoding,
    parse_encoding,
)
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Grid
from satsudoku.options import checked_max_nodes
from satsudoku.proof.binary import added_clauses
from satsudoku.proof.certificate import (
    SEARCH_PROOF_WRITER,
    CertificateTimeoutError,
    SatCertificate,
    too_large_to_certify,
)
from satsudoku.proof.extension import SumAutomaton, extend_sums
from satsudoku.proof.formulas import puzzle_formula
from satsudoku.proof.supports import (
    covered_cages,
    covered_tables,
    pair_supports,
    read_selectors,
    selector_supports,
    state_supports,
    triple_projections,
)
from satsudoku.proof.triples import (
    Triple,
    TripleExtension,
    extend_triples,
    forbidden_held,
    root_facts,
)
from satsudoku.puzzle import Puzzle
from satsudoku.sat.solvers import SolverRun, new_solver
from satsudoku.search.kernel import _Kernel, _kernel_for

PROPAGATOR = "glucose4"  # pysat's propagate() is plain unit propagation there, and fast
_CHECK_NODES = 64  # nodes between clock checks
# Sums' state supports are checked one propagate call each before they are written: at most
# this many per cell-digit variable (the published little killer has 1,279, 1.8 per variable).
_STATE_CANDIDATES = 2
# Three-cell tables' projection lemmas (`triple_projections`), each checked the same way: at most
# this many per cell-digit variable.
_TRIPLE_CANDIDATES = 4
_EXTEND = True  # define the sums' automata (`proof.extension`); False: the path before them
_TRIPLES = True  # define three-cell tables' pair variables (`proof.triples`); False: as before
# Root deductions on a sum too large for an automaton are justified by this proof-logging
# solver, its lemmas (not its deletions) spliced in: i-bet-someone-did-this-already's arrow
# (81 terms) took past 60 s by branching, 6 s so. 1.5.3 adds no variables of its own.
CDCL_SOLVER = "cadical153"


class _Propagator:
    """Unit propagation over formula + lemmas, through pysat's `propagate` (no search).

    pysat reports only literals implied above level 0, so the level-0 closure (givens, unit
    lemmas, longer clauses unit there, and what they imply) is kept here as `root` and added
    to every answer: the answers are the whole closure, which the lemma loops rely on.
    """

    def __init__(self, clauses: Sequence[Clause]) -> None:
        units: list[Clause] = []
        longer: list[Clause] = []
        self.empty = False  # an empty clause: then everything conflicts
        for clause in clauses:  # one pass: an 81-term arrow's formula has 317,000 clauses
            if len(clause) > 1:
                longer.append(clause)
            elif clause:
                units.append(clause)
            else:
                self.empty = True
        self.solver = new_solver(PROPAGATOR)
        self.solver.append_formula(longer)
        self.root: set[int] = set()
        ok, implied = self.solver.propagate(assumptions=[unit[0] for unit in units])
        self._root(ok, implied, units)

    def _root(self, ok: bool, implied: Sequence[int], units: Sequence[Clause]) -> None:
        if not ok:
            self.empty = True
            return
        self.root.update(implied)
        for unit in units:
            self.solver.add_clause(unit)

    def add(self, clause: Clause) -> None:
        """Add a clause, following it at level 0 when `root` leaves it unit or false there."""
        if self.empty:
            return
        root = self.root
        if any(lit in root for lit in clause):
            self.solver.add_clause(clause)  # satisfied at level 0: it propagates nothing
            return
        free = [lit for lit in clause if -lit not in root]
        if len(free) == 1:
            ok, implied = self.solver.propagate(assumptions=free)
            self._root(ok, implied, [free])
        elif free:
            self.solver.add_clause(clause)
        else:
            self.empty = True

    def closure(self, decisions: Sequence[int]) -> set[int] | None:
        """The literals unit propagation makes true under `decisions`; None on conflict."""
        if self.empty:
            return None
        ok, implied = self.solver.propagate(assumptions=decisions)
        return self.root.union(implied) if ok else None

    def missing(self, decisions: Sequence[int], lits: Sequence[int]) -> list[int] | None:
        """Those of `lits` unit propagation does not make true under `decisions`; None on
        conflict. Cheaper than `closure` when few literals are asked about."""
        if self.empty:
            return None
        ok, implied = self.solver.propagate(assumptions=decisions)
        if not ok:
            return None
        got, root = set(implied), self.root
        return [lit for lit in lits if lit not in got and lit not in root]

    def refutes(self, decisions: Sequence[int]) -> bool:
        """Whether unit propagation finds a conflict under `decisions` (a RUP check)."""
        return self.empty or not self.solver.propagate(assumptions=decisions)[0]

    def close(self) -> None:
        self.solver.delete()


@dataclass
class SearchProof:
    """The search's verdict and, for unique or unsatisfiable, its certificate."""

    status: str  # "unique", "unsatisfiable" or "multiple" (out of time or nodes: an exception)
    solutions: list[Grid]
    certificate: SatCertificate | None
    stats: dict[str, int | float] = field(default_factory=dict)


@dataclass
class _Frame:
    """A node being expanded: its decisions, children still to visit, lemmas to delete later."""

    decisions: list[int]
    masks: list[int]
    children: list[tuple[int, list[int]]]
    text: str = ""  # ¬decisions as the proof writes it: its children's lemmas extend it
    lemmas: list[str] = field(default_factory=list)  # proof lines
    sure: bool = False  # unit propagation reaches the kernel's state here (`_saturate`)


def _bits(mask: int) -> Iterator[int]:
    """The set bits of `mask`, lowest first."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit


class _Prover:
    """One proof-logging search: the kernel's, with every refuted node written as a lemma."""

    def __init__(
        self,
        puzzle: Puzzle,
        kernel: _Kernel,
        formula: CnfFormula,
        deadline: float | None,
        max_nodes: int | None,
    ) -> None:
        self.puzzle, self.kernel, self.formula = puzzle, kernel, formula
        self.n = puzzle.size
        self.deadline = deadline
        self.max_nodes = max_nodes
        self._oracle: _Propagator | None = None  # built on first use: a classic search
        self._unloaded: list[Clause] = []  # without locked candidates never needs it
        # Lemmas written before the propagator exists are kept for it, except during a search
        # that never consults it: a propagator missing lemmas only checks less, never wrongly.
        self._keep = True
        self._digit_memo: dict[int, tuple[int, ...]] = {}
        # With houses, two-cell tables and cages of several digit sets only, every deduction
        # inside the search is a singles step (unit propagation on the extended encoding) or
        # a pair's or a cage's revision, which is unit propagation once the support lemmas
        # are written (`_supports`, first thing in `run`): lemmas need no checking there.
        steps = {step for _, step, _ in kernel.extras}
        # Selector groups are read for cages only: a large table's selectors (x-sum's 15 clues)
        # took longer to read and support than the search they spared, and a sandwich's
        # (published minimax: 0.036 -> 0.058 s, 460 -> 3,136 lemmas) more lemmas than they saved.
        tables = [index for _, step, index in kernel.extras if step == kernel._table]
        # Tables of four cells or more (quadruples) are read too: their selectors' supports
        # make the kernel's revision unit propagation (`covered_tables`), where quadruple-x's
        # search was checked at every node (2,277 propagations over 770 selectors a table).
        wide = bool(tables) and all(len(t.cells) >= 4 for t in tables)
        self.selectors = (
            read_selectors(formula.clauses, self.n) if kernel._cage in steps or wide else None
        )
        cages = [
            (index.cells, {frozenset(self._digits(bits)) for bits in index.sets})
            for _, step, index in kernel.extras
            if step == kernel._cage
        ]
        self.cages_ok = not cages or (
            self.selectors is not None and covered_cages(self.selectors, cages)
        )
        self.tables_ok = (
            wide
            and self.selectors is not None
            and covered_tables(
                self.selectors,
                [
                    (t.cells, {tuple(map(kernel.digit, row)) for row in t.rows if all(row)})
                    for t in tables
                ],
            )
        )
        self.steps = steps
        self.automata: list[SumAutomaton | None] = []  # `_extend`, once the root needs search
        self.triples: TripleExtension | None = None  # `_extend` too (`proof.triples`)
        self._covered_steps()
        # Cell-digit variable -> (cell, open bit), for reading propagation states quickly.
        self.where = [(0, 0)] + [
            (cell, kernel.bit[d]) for cell in range(self.n * self.n) for d in range(self.n)
        ]
        # The plain search's branching (conflict scores on rules beyond houses, bumped as its
        # children fail): on fewest candidates alone doggo-experiment-8 took 9,891 nodes here
        # against the plain search's 2,428.
        uses_scores = self.n < _RESTART_FROM and bool(kernel.active or kernel.derived)
        self.scores: list[int] | None = [0] * (self.n * self.n) if uses_scores else None
        self.failures = 0
        self.proof: list[str] = []
        self.lemmas = 0
        self.solutions: list[Grid] = []
        self.stats: dict[str, int | float] = {
            "nodes": 0,
            "root_lemmas": 0,
            "support_lemmas": 0,
            "refined_nodes": 0,
            "propagations": 0,
            "extension_lemmas": 0,
            "extension_arcs": 0,
            "pair_variables": 0,
            "cdcl_lemmas": 0,
        }

    def _emit(self, clause: Clause, text: str | None = None) -> str:
        """Write `clause` (`text`: its literals as written, if the caller has them); its line."""
        if text is None:
            text = " ".join(map(str, clause))
        line = text + " 0" if text else "0"
        self.proof.append(line)
        self.lemmas += 1
        if self._oracle is not None:
            self._oracle.add(clause)
        elif self._keep:
            self._unloaded.append(clause)
        return line

    def _delete(self, lines: list[str]) -> None:
        """Drop lemmas (their proof lines) a parent's lemma subsumes: checkers then watch fewer
        clauses. The lines are reused as written: a search's lemmas are most of its proof."""
        self.proof.extend(["d " + line for line in lines if line != "0"])

    def _closure(self, decisions: Sequence[int]) -> set[int] | None:
        self.stats["propagations"] += 1
        return self._propagator().closure(decisions)

    def _refutes(self, decisions: Sequence[int]) -> bool:
        self.stats["propagations"] += 1
        return self._propagator().refutes(decisions)

    def _propagator(self) -> _Propagator:
        if self._oracle is None:
            self._oracle = _Propagator([*self.formula.clauses, *self._unloaded])
            self._unloaded = []
        return self._oracle

    def close(self) -> None:
        if self._oracle is not None:
            self._oracle.close()

    def refute(
        self,
        decisions: list[int],
        hint: list[int] | None,
        checked: bool,
        focus: tuple[int, ...] | None = None,
        text: str | None = None,
    ) -> str:
        """Write ¬decisions as a lemma, first justifying it where unit propagation falls short;
        its proof line.

        `hint` is the kernel's masks at (or on the way to) the conflict; `focus` the cells of
        the constraint whose reasoning is being justified, branched on first; `text` the
        lemma's literals as written, when the caller extends its parent's.
        """
        below = self._justify(decisions, hint, focus) if checked else []
        line = self._emit([-lit for lit in decisions], text)
        self._delete(below)
        return line

    def _justify(
        self, decisions: list[int], hint: list[int] | None, focus: tuple[int, ...] | None
    ) -> list[str]:
        """Lemmas under `decisions` until unit propagation refutes them; their lines, to delete
        once ¬decisions is written.

        Without a `focus`, the kernel's constraints beyond houses are replayed on the
        unit-propagation state, and each digit one of them removes becomes a lemma (a failed
        literal, or refuted by branching on that constraint's cells); a constraint that fails
        outright is branched on the same way. With a focus (the cells of the constraint being
        justified), only those cells are branched on: unit propagation on the encoding is
        complete once a constraint's cells are assigned, so this ends.
        """
        below: list[str] = []
        if self._refutes(decisions):
            return below  # the common case: the kernel's conflict is unit propagation's too
        if focus is None and hint is not None:
            self._catch_up(decisions, hint, below)
        while (state := self._closure(decisions)) is not None:
            self.stats["refined_nodes"] += 1
            self._check_limits()
            within = focus
            cell, digits = self._split(state, hint, focus) if focus else (-1, [])
            if cell < 0:
                failed = self._extra_lemmas(decisions, state, below)
                if failed == ():
                    continue  # lemmas written: propagate again
                within = failed  # the children branch on the failing constraint's cells too
                cell, digits = self._split(state, hint, failed)
                if cell < 0:
                    within = None
                    cell, digits = self._split(state, hint, None)
            if cell < 0:
                raise BackendBugError(
                    "bitmask search refuted a node that unit propagation extends to a full grid"
                )
            base = cell * self.n
            below += [self.refute([*decisions, base + d], hint, True, within) for d in digits]
            # ¬decisions now follows from `below` and the cell's at-least-one clause.
        return below

    def _extra_lemmas(
        self, decisions: list[int], state: set[int], below: list[str]
    ) -> tuple[int, ...] | None:
        """Replay the extra constraints, one pass, on the unit-propagation state under
        `decisions`: () once lemmas were written, the cells of a constraint that fails there,
        or None when the extras have nothing to add."""
        kernel, n = self.kernel, self.n
        trial = self._masks(state)
        wrote = False
        for get, step, index in kernel.extras:
            cells = tuple(index.cells)
            before = [trial[cell] for cell in cells]
            if step(trial, index, get(trial)) < 0:
                return () if wrote else cells
            for cell, mask in zip(cells, before, strict=True):
                for bit in _bits(kernel.open_bits(mask) & ~kernel.open_bits(trial[cell])):
                    lit = cell * n + kernel.digit(bit)
                    if self._refutes([*decisions, lit]):  # a failed literal: RUP at once
                        line = self._emit([-x for x in decisions] + [-lit])
                    else:
                        line = self.refute([*decisions, lit], trial.copy(), True, cells)
                    below.append(line)
                    wrote = True
        return () if wrote else None

    def _masks(self, state: set[int]) -> list[int]:
        """The kernel's masks for a unit-propagation state: placed digits at the guard bit."""
        kernel, top, where = self.kernel, self.n**3, self.where
        up = kernel.width - 1
        masks = [kernel.full] * (self.n * self.n)
        placed = []
        if len(state) > 2 * top:  # mostly auxiliaries (a large table's selectors): look up cells
            for lit in range(1, top + 1):
                if -lit in state:
                    cell, bit = where[lit]
                    masks[cell] &= ~bit
                elif lit in state:
                    placed.append(lit)
        else:
            for lit in state:
                if 0 < lit <= top:
                    placed.append(lit)
                elif -top <= lit < 0:  # auxiliary variables (past n³) say nothing about cells
                    cell, bit = where[-lit]
                    masks[cell] &= ~bit
        for lit in placed:
            cell, bit = where[lit]
            masks[cell] = bit << up
        return masks

    def _split(
        self, state: set[int], hint: list[int] | None, cells: tuple[int, ...] | None
    ) -> tuple[int, list[int]]:
        """The cell to branch on (among `cells` if given) and its open digits; -1 if none.

        Digits the kernel ruled out are expected to fail at once, so the cell with fewest
        digits the kernel still allows (then fewest open) comes first.
        """
        n, kernel = self.n, self.kernel
        best, best_key, best_digits = -1, (n + 1, n + 1), []
        for cell in range(n * n) if cells is None else cells:
            base = cell * n
            digits = [d for d in range(1, n + 1) if -(base + d) not in state]
            if any(base + d in state for d in digits):
                continue  # placed (without cell at-most-one, other digits may stay open)
            allowed = kernel.open_bits(hint[cell]) if hint is not None else kernel.full
            kept = sum(1 for d in digits if allowed & kernel.bit[d - 1])
            key = (kept, len(digits))
            if key < best_key:
                best, best_key, best_digits = cell, key, digits
        return best, best_digits

    def _extend(self) -> None:
        """Sums get their automata as extension variables (`proof.extension`), three-cell
        tables their pair variables (`proof.triples`): where each of a sum's distinct-digit
        groups is one run of its cells, the kernel's sum deductions are unit propagation too,
        as its table revisions are once the tables' lemmas check, and the search needs no
        checks."""
        kernel = self.kernel
        sums = [index for _, step, index in kernel.extras if step == kernel._sum]
        tables = [index for _, step, index in kernel.extras if step == kernel._table]
        triples = _TRIPLES and bool(tables) and all(len(t.cells) == 3 for t in tables)
        if not (sums and _EXTEND) and not triples:
            return
        # Digits the givens' unit propagation removes get no arcs: the proof's root state is
        # the formula's closure (lemmas come after the automata), found once here.
        top = self.n**3
        root = _Propagator(self.formula.clauses) if sums and _EXTEND else None
        closure = set() if root is None or root.empty else root.root
        absent = frozenset(-lit for lit in closure if -top <= lit < 0)
        if sums and _EXTEND:
            self.automata = extend_sums(
                [(index.cells, index.weights, index.total, index.groups) for index in sums],
                self.formula,
                absent=absent,
            )
        if triples:
            last = max([self.formula.num_vars, *(a.top for a in self.automata if a)])
            rows = [
                [(kernel.digit(a), kernel.digit(b), kernel.digit(c)) for a, b, c in t.rows]
                for t in tables
            ]
            held: set[frozenset[int]]
            if root is None:  # no sums: their closure is not needed
                absent, held = root_facts(self.formula.clauses, self.n)
            else:
                held = root_facts(self.formula.clauses, self.n)[1]
            found: list[Triple] = [(t.cells, r) for t, r in zip(tables, rows, strict=True)]
            if all(forbidden_held(table, self.n, held, absent) for table in found):
                self.triples = extend_triples(found, self.n, last, absent)
                self.stats["pair_variables"] = self.triples.pairs
        self._covered_steps()
        if root is None:
            return
        if self.trusted or self._oracle is not None or self._unloaded:
            root.close()  # a trusted search may never need one: built again if it does
        else:
            self._oracle = root  # no lemma yet: it is the propagator `_propagator` would build

    def _covered_steps(self) -> None:
        """Trust the search once every extra step is unit propagation: covered sums, tables
        with pair variables (`_extend`; their lemmas are written first in `_supports`)."""
        kernel = self.kernel
        trusting = {kernel._pair, kernel._cage}
        if self.automata and all(a is not None and a.covered for a in self.automata):
            trusting.add(kernel._sum)
        if self.triples is not None or self.tables_ok:
            trusting.add(kernel._table)
        self.trusted = self.steps <= trusting and self.cages_ok

    def run(self) -> str:
        """Search the whole tree, writing the refutation; the verdict."""
        kernel, n = self.kernel, self.n
        givens = self.puzzle.givens.values
        root = kernel.initial(givens)
        if root is not None and kernel.branch_cell(root) >= 0:
            self._extend()  # a root that propagation settles is justified more cheaply
        self._supports()
        if root is None:
            root = self._singles_root(givens)
            if root is None:
                self.refute([], None, True)  # the root's conflict, justified as any node's
                return "unsatisfiable"
        singles = self._singles_root(givens) if self.trusted else None
        if singles is None or singles != root:  # locked candidates (or extras) narrowed it
            if singles is None or self._root_lemmas_by_kernel(singles, root):
                self._root_lemmas(root)
        if kernel.branch_cell(root) < 0:  # the givens and propagation fill the grid
            self.stats["nodes"] += 1
            self.solutions.append(Grid(n, tuple(map(kernel.digit, root))))
            self._block(self.solutions[0])
            # Trusted steps are unit propagation (with the supports and root lemmas written):
            # the blocking clause then conflicts at level 0, no propagator needs building.
            self.refute([], root, not self.trusted)
            return "unique"
        checked = not self.trusted
        self._keep = checked
        frames = [self._expand([], root, root, self._branch(root), checked, "")]
        while frames:
            frame = frames[-1]
            if frame.children:
                lit, masks = frame.children.pop()
                decisions = [*frame.decisions, lit]
                text = f"{frame.text} {-lit}" if frame.text else str(-lit)
                self._check_limits()
                choices = self._branch(masks)
                if not choices:  # a solution
                    self.stats["nodes"] += 1
                    self.solutions.append(Grid(n, tuple(map(kernel.digit, masks))))
                    if len(self.solutions) > 1:
                        return "multiple"
                    self._block(self.solutions[0])
                    frame.lemmas.append(self.refute(decisions, masks, checked, text=text))
                else:
                    frames.append(
                        self._expand(decisions, masks, frame.masks, choices, checked, text)
                    )
                continue
            frames.pop()
            # Every choice the kernel kept has its lemma now; where unit propagation reaches the
            # kernel's state (`sure`), the others are false under it, and the cell's (or the
            # crust's line's) at-least-one clause makes ¬decisions RUP.
            lemma = self.refute(
                frame.decisions, frame.masks, checked and not frame.sure, text=frame.text
            )
            if frames:  # after the root's empty clause there is nothing left to check
                self._delete(frame.lemmas)
                frames[-1].lemmas.append(lemma)
        return "unique" if self.solutions else "unsatisfiable"

    def _expand(
        self,
        decisions: list[int],
        masks: list[int],
        parent: list[int],
        choices: list[tuple[int, int]],
        checked: bool,
        text: str,
    ) -> _Frame:
        """Branch on `choices` (cell, open bit), the plain search's (`_branch`; the node, whose
        parent has `parent` masks, is no full grid, `text` its ¬decisions as written): failed
        children are refuted at once, the others queued."""
        kernel = self.kernel
        self.stats["nodes"] += 1
        frame = _Frame(decisions, masks, [], text)
        prefix = text + " " if text else ""
        if checked:
            frame.sure = self._saturate(decisions, masks, parent, frame.lemmas)
        for cell, bit in choices:  # lowest digit (or place) first, as the backend
            lit = cell * self.n + kernel.digit(bit)
            child = masks.copy()
            dirty = kernel.assign(child, cell, bit)
            if dirty >= 0 and kernel.propagate(child, dirty):
                frame.children.append((lit, child))
            else:
                line = self.refute([*decisions, lit], child, checked, text=f"{prefix}{-lit}")
                frame.lemmas.append(line)
                self._failed(cell)
        frame.children.reverse()  # pop() takes the lowest digit first
        return frame

    def _branch(self, masks: list[int]) -> list[tuple[int, int]]:
        """The plain search's choices here, as (cell, open bit): its cell's digits, or a sandwich
        crust's places where they are no more (`BitmaskBackend._dfs`); [] on a full grid."""
        kernel = self.kernel
        cell = (
            kernel.branch_cell(masks)
            if self.scores is None
            else kernel.branch_scored(masks, self.scores)
        )
        if cell < 0:
            return []
        choices = [(cell, bit) for bit in _bits(masks[cell])]
        if kernel.crusts:
            places = kernel.crust_places(masks)
            if places and len(places) <= len(choices):
                return places
        return choices

    def _failed(self, cell: int) -> None:
        """A digit placed at `cell` failed at once: bump its score as the plain search does."""
        scores = self.scores
        if scores is not None:
            scores[cell] += 1
            self.failures += 1
            if self.failures % _DECAY_EVERY == 0:
                scores[:] = [s >> 1 for s in scores]

    def _catch_up(self, decisions: list[int], masks: list[int], lemmas: list[str]) -> None:
        """Lemmas under `decisions` for the digits the kernel removed (`masks`) and unit
        propagation did not, as far as each is a failed literal once those before it are
        written: the kernel's extras remove digits so one at a time, in some order."""
        kernel, n = self.kernel, self.n
        state = self._closure(decisions)
        if state is None:
            return
        reached = self._masks(state)
        pending = [
            cell * n + kernel.digit(bit)
            for cell, (mine, theirs) in enumerate(zip(reached, masks, strict=True))
            for bit in _bits(kernel.open_bits(mine) & ~kernel.open_bits(theirs))
        ]
        clause = [-lit for lit in decisions]
        while pending:
            rest: list[int] = []
            for lit in pending:
                if state is None:
                    return  # refuted already
                if -lit in state:
                    continue  # follows from the lemmas just written
                if self._refutes([*decisions, lit]):
                    lemmas.append(self._emit([*clause, -lit]))
                    state = self._closure(decisions)
                else:
                    rest.append(lit)
            if len(rest) == len(pending):
                return  # the rest need more than a failed literal each
            pending = rest

    def _saturate(
        self, decisions: list[int], masks: list[int], parent: list[int], lemmas: list[str]
    ) -> bool:
        """Lemmas under `decisions` for what the extras removed at this node beyond unit
        propagation, written before its children so that every child builds on them. True
        if unit propagation then reaches the kernel's state (or a conflict): the node's own
        lemma, once its children's are written, is RUP without a check.

        Only the digits removed since the parent (`parent`: its masks) are looked at first:
        unit propagation here reaches all it reached at the parent, which was at least the
        kernel's state there (the root's by its root lemmas). Most nodes end at that check.
        """
        kernel, n = self.kernel, self.n
        open_bits, digits = kernel.open_bits, self._digits
        lost: list[int] = []
        for i, (mine, theirs) in enumerate(zip(masks, parent, strict=True)):
            if mine != theirs:
                base = -i * n
                lost += [base - d for d in digits(open_bits(theirs) & ~open_bits(mine))]
        self.stats["propagations"] += 1
        if not self._propagator().missing(decisions, lost):
            return True  # refuted (its children will be too), or the kernel is ahead nowhere
        self._catch_up(decisions, masks, lemmas)
        while (state := self._closure(decisions)) is not None:
            reached = self._masks(state)
            behind = any(
                open_bits(mine) & ~open_bits(theirs)
                for mine, theirs in zip(reached, masks, strict=True)
            )
            if not behind:
                return True
            if self._extra_lemmas(decisions, state, lemmas) != ():
                return False
        return True

    def _digits(self, bits: int) -> tuple[int, ...]:
        """The digits of open bits `bits` (memoised: masks recur)."""
        found = self._digit_memo.get(bits)
        if found is None:
            found = tuple(self.kernel.digit(bit) for bit in _bits(bits))
            if len(self._digit_memo) < 1 << 16:
                self._digit_memo[bits] = found
        return found

    def _supports(self) -> None:
        """The support lemmas (`proof.supports`), RUP on the formula, before anything else:
        the pairs' make their arc consistency unit propagation, the selector groups' its cage
        revision; sums get their automata (`_extend`), else their states' supports (each
        checked first), which bring it closer to its sums (all but their distinct digits)."""
        kernel = self.kernel
        for clause in pair_supports(kernel, self.puzzle.givens.values):
            self._emit(clause)
            self.stats["support_lemmas"] += 1
        if self.triples is not None:
            self._triple_lemmas(self.triples)
        triples = [] if self.triples is not None else list(triple_projections(kernel))
        if len(triples) <= _TRIPLE_CANDIDATES * self.n**3:
            for clause in triples:
                if self._refutes([-lit for lit in clause]):
                    self._emit(clause)
                    self.stats["support_lemmas"] += 1
        if self.selectors is not None:
            for clause in selector_supports(self.selectors):
                self._emit(clause)
                self.stats["support_lemmas"] += 1
        for automaton in self.automata:
            if automaton is not None:
                for clause in automaton.clauses:
                    self._emit(clause)
                self.stats["extension_lemmas"] += len(automaton.clauses)
                self.stats["extension_arcs"] += automaton.arcs
        if any(step == kernel._sum for _, step, _ in kernel.extras) and (
            not self.automata or None in self.automata
        ):
            cap = _STATE_CANDIDATES * self.n**3
            # Every state of an inner layer but the last has a candidate (s → its successors):
            # past the cap on that count alone, the formula is not read for the rest.
            inner = sum(len(layer) for sums in self.formula.sums for layer in sums.states[1:-2])
            candidates = [] if inner > cap else list(state_supports(self.formula.clauses, self.n))
            if len(candidates) > cap:
                candidates = []  # a 78-cell arrow has 26,273: checking them outlasts the search
            for clause in candidates:
                if self._refutes([-lit for lit in clause]):
                    self._emit(clause)
                    self.stats["support_lemmas"] += 1

    def _triple_lemmas(self, extension: TripleExtension) -> None:
        """The tables' pair variables and lemmas (`proof.triples`): RUP by construction once
        `forbidden_held` passed, so not checked; with them the kernel's table revisions are
        unit propagation, and trusted."""
        for clause in extension.definitions:
            self._emit(clause)
        self.stats["extension_lemmas"] += len(extension.definitions)
        for lemmas in extension.lemmas:
            for clause in lemmas:
                self._emit(clause)
            self.stats["support_lemmas"] += len(lemmas)

    def _singles_root(self, givens: Sequence[int]) -> list[int] | None:
        """The root with givens and singles only: searched when locked candidates or extras
        found the conflict at once, so that the proof still comes from the kernel's search."""
        kernel = self.kernel
        cands = list(kernel.allowed)
        if any(m == 0 for m in cands):
            return None
        for i, value in enumerate(givens):
            if value:
                bit, m = kernel.bit[value - 1], cands[i]
                if not kernel.open_bits(m) & bit:
                    return None
                if m & (m - 1) and kernel.assign(cands, i, bit) < 0:
                    return None
        for i, m in enumerate(cands):  # a one-digit domain is a given in disguise, as in initial
            if not m & (m - 1) and kernel.allowed[i] == m and not givens[i]:
                if kernel.assign(cands, i, m) < 0:
                    return None
        dirty = (1 << len(kernel.houses)) - 1
        return cands if kernel.propagate(cands, dirty) else None

    def _root_lemmas_by_kernel(self, singles: list[int], root: list[int]) -> bool:
        """`_root_lemmas` without a propagator, for a kernel with houses only: its singles are
        then unit propagation on the extended encoding, so a digit whose placement the kernel
        refutes from `singles` (plus the lemmas so far) is a failed literal. True if some of
        the root's eliminations were left unwritten."""
        kernel, n = self.kernel, self.n
        state = singles.copy()
        pending = [
            (cell, bit)
            for cell in range(n * n)
            for bit in _bits(kernel.open_bits(state[cell]) & ~kernel.open_bits(root[cell]))
        ]
        while pending:
            rest = []
            for cell, bit in pending:
                if not state[cell] & bit:
                    continue  # placed, or removed by the lemmas' consequences
                trial = state.copy()
                dirty = kernel.assign(trial, cell, bit)
                if dirty >= 0 and kernel.propagate(trial, dirty):
                    rest.append((cell, bit))
                    continue
                self._emit([-(cell * n + kernel.digit(bit))])
                self.stats["root_lemmas"] += 1
                state[cell] &= ~bit
                if not state[cell] & (state[cell] - 1):  # one digit left: place it
                    dirty = kernel.assign(state, cell, state[cell])
                else:
                    dirty = kernel.house_bits[cell]
                if dirty < 0 or not kernel.propagate(state, dirty):
                    return False  # the root is refuted: every lemma after this one is RUP
            if len(rest) == len(pending):
                return True
            pending = rest
        return False

    def _root_lemmas(self, root: list[int]) -> None:
        """Unit lemmas for the root's eliminations unit propagation does not make (locked
        candidates, extras), each written once it is RUP given the ones before it."""
        n, kernel = self.n, self.kernel
        state = self._closure([])
        if state is None:
            return  # the formula alone is refuted: every node's lemma is RUP
        pending = [
            cell * n + d
            for cell in range(n * n)
            for d in range(1, n + 1)
            if not kernel.open_bits(root[cell]) & kernel.bit[d - 1] and -(cell * n + d) not in state
        ]
        while pending:
            state = self._closure([])
            if state is None:
                return
            rest = []
            for lit in pending:
                if -lit in state:
                    continue
                if self._closure([lit]) is None:
                    self._emit([-lit])
                    self.stats["root_lemmas"] += 1
                else:
                    rest.append(lit)
            if len(rest) == len(pending):
                break
            pending = rest
        if pending and any(automaton is None for automaton in self.automata):
            self._cdcl_units(pending)
        for lit in pending:  # what a chain of single failed literals cannot show
            state = self._closure([])
            if state is not None and -lit not in state:
                self.refute([lit], root, True)
                self.stats["root_lemmas"] += 1

    def _cdcl_units(self, lits: list[int]) -> None:
        """Splice in a CDCL solver's lemmas refuting each of `lits` at the root.

        The solver gets the formula and every clause the proof has added so far; each of its
        lemmas is RUP or restores a clause it had, so all hold where they are spliced. Its
        deletions are left out (they may name the formula's clauses). Under the assumption
        `lit` it ends in a conflict unit propagation on its lemmas reaches, so ¬lit is RUP
        afterwards (`_root_lemmas` still checks). Past the deadline: CertificateTimeoutError.
        """
        clauses = list(self.formula.clauses)
        clauses += [
            [int(x) for x in line.split()[:-1]] for line in self.proof if not line.startswith("d")
        ]
        solver = new_solver(CDCL_SOLVER, with_proof=True)
        try:
            solver.append_formula(clauses)
            run = SolverRun(solver, CDCL_SOLVER)
            for lit in lits:
                if self.deadline is None:
                    answer = solver.solve(assumptions=[lit])
                else:
                    answer = run.solve([lit], self.deadline)
                if answer is None:
                    raise CertificateTimeoutError("the bitmask proof search did not finish in time")
                if answer:
                    raise BackendBugError(f"the kernel removed {lit} at the root, a model has it")
            lemmas = added_clauses(solver)
        finally:
            solver.delete()
        for lemma in lemmas:
            self._emit(lemma)
        self.stats["cdcl_lemmas"] += len(lemmas)

    def _block(self, solution: Grid) -> None:
        """The blocking clause joins the formula (its last clause) and the propagator."""
        block = self.formula.block(solution, self.puzzle.givens)
        self.formula.clauses.append(block)
        if self._oracle is not None:
            self._oracle.add(block)

    def _check_limits(self) -> None:
        nodes = self.stats["nodes"] + self.stats["refined_nodes"]
        if self.max_nodes is not None and nodes > self.max_nodes:
            raise CertificateTimeoutError(f"the proof search passed {self.max_nodes} nodes")
        if (
            self.deadline is not None
            and nodes % _CHECK_NODES == 0
            and time.perf_counter() >= self.deadline
        ):
            raise CertificateTimeoutError("the bitmask proof search did not finish in time")


def prove_by_search(
    puzzle: Puzzle,
    *,
    encoding: Encoding | str = Encoding.EXTENDED,
    deadline: float | None = None,
    max_nodes: int | None = None,
    backend: str = "bitmask",
) -> SearchProof:
    """Settle `puzzle` by the bitmask search and certify a unique or unsatisfiable verdict.

    The certificate's formula is the SAT backend's (rules ∧ givens, ∧ the blocking clause for
    'unique'), so `verify_certificate` and drat-trim check it unchanged. `backend` names who
    settled the verdict in the manifest when this search only writes the proof. Raises
    CertificateTimeoutError past `deadline` (a perf_counter time) or `max_nodes`.
    """
    max_nodes = checked_max_nodes(max_nodes)
    if why := too_large_to_certify(puzzle.size):
        raise PuzzleError(why)
    encoding = parse_encoding(encoding)
    if encoding is Encoding.REDUCED:
        encoding = Encoding.EXTENDED  # reduced clauses are simplified: not traceable one by one
    if encoding is not Encoding.EXTENDED:
        # Hidden singles need house at-least-one clauses to be unit propagation; without
        # them each would have to be justified by branching (a 9x9 took over 20 s).
        raise PuzzleError(
            f"bitmask proofs use the extended encoding, not {encoding.value} "
            "(use --encoding extended, or --proof-by sat)"
        )
    start, cpu = time.perf_counter(), time.process_time()
    try:  # the rules are encoded once per set
        formula = puzzle_formula(puzzle, encoding, AtMostOne.PAIRWISE, deadline)
    except OutOfTime:  # a 36x36's formula (3 s) once ran past --timeout 1, then was checked
        raise CertificateTimeoutError("the proof's formula was not encoded in time") from None
    encoded, encoded_cpu = time.perf_counter(), time.process_time()
    prover = _Prover(puzzle, _kernel_for(puzzle), formula, deadline, max_nodes)
    try:
        status = prover.run()
    except RecursionError:
        # Justifying one deduction by branching nests a level per cell: only a board with
        # hundreds of cells in one constraint could get here.
        raise PuzzleError(
            "the bitmask proof nests deeper than Python allows here; use --proof-by sat"
        ) from None
    finally:
        prover.close()
    stats = {
        **prover.stats,
        "lemmas": prover.lemmas,
        "encode_s": encoded - start,  # the certificate's formula: any paradigm's proof needs it
        "encode_cpu_s": encoded_cpu - cpu,  # the same in CPU seconds of this process
        "time_s": time.perf_counter() - start,
    }
    if status == "multiple":
        return SearchProof(status, prover.solutions, None, stats)
    certificate = SatCertificate(
        puzzle,
        status,
        prover.solutions[0] if prover.solutions else None,
        formula,
        SEARCH_PROOF_WRITER,
        prover.proof,
        backend=backend,
    )
    return SearchProof(status, prover.solutions, certificate, stats)
