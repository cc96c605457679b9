"""The reference backend: depth-first search over the candidate bitmasks of
`satsudoku.search.kernel` (its propagation, branching and masks are described there), with
restarts on large boards, limits, and the verdict as a `Result`."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from satsudoku.constraints import CORE_KINDS
from satsudoku.deadline import OutOfTime, building
from satsudoku.grid import Grid
from satsudoku.options import checked, checked_max_nodes, checked_optional_seed
from satsudoku.puzzle import Puzzle
from satsudoku.result import CheckedGrids, Proof, Result, make_result
from satsudoku.search.kernel import (
    _LOCKED_FROM,
    NATIVE_KINDS,
    Masks,
    _Kernel,
    _kernel_for,
)
from satsudoku.search.luby import luby
from satsudoku.search.probe import Known, probe

__all__ = ["BitmaskBackend"]

_LOCKED_AFTER_BACKTRACKS = 64  # locked candidates at every node once the search failed this often
# Boards from this size on restart their search when it looks for at most two solutions (see
# _search): the 25×25 band is heavy-tailed; on 9×9 and 16×16 the runs are short anyway.
_RESTART_FROM = 25
# Branching by conflict scores (the Interactive Sudoku Solver's history heuristic, after
# Boussemart et al.'s dom/wdeg): a digit placed at a cell that fails at once bumps the cell's
# score; the search branches on the open cell with the most failures per candidate, by fewest
# candidates until some open cell has failed; scores halve every _DECAY_EVERY failures, so
# they follow the region being searched. Used below _RESTART_FROM on rules beyond houses:
# forum killer line 37 settles in 13,118 nodes (none in 20,000 without), ISS Nabner in 2,581
# (none in 20,000), killer-X line 5 in 645 (8,053). On classic puzzles it saves 10-13 % of the
# nodes but costs 11-19 % of the speed, and on 25x25 (with restarts) it took twice the nodes
# as the branching rule; there the scores break fewest-candidate ties instead (`_run`).
_DECAY_EVERY = 1 << 14
_RESTART_UNIT = 256  # failed children per unit of a run (a 25x25 band solution: 100-300 nodes)
# Nodes this deep or shallower are probed (`search.probe`) on killers below _RESTART_FROM: a
# trial of each digit of every cell of 2-3 candidates, to a fixpoint. The forum killers need
# 2-10x fewer nodes (line 36: no answer in 6,700 nodes without, 499 with; line 40: 3,148 ->
# 32) at up to 5x the CPU a node near the root. Not on other rules: Raw Spaghetti's trials
# cost 2.2 -> 8.2 s CPU for 647 -> 604 nodes, the Miracle's 72 grids 5x the CPU a node
# (docs/backends.md).
_PROBE_DEPTH = 6
_PROBE_WIDEST = 3  # at the root
# Below the root only cells of two candidates (h74): nodes get cheaper, the forum killers settle
# 47 -> 49 of 70 in 10 s of CPU (lines 9 and 15), 313.5 -> 287.5 s CPU in all, though some trees
# grow (line 25: 55 -> 984 nodes, 1.0 -> 5.4 s); docs/backends.md "Probing".
_PROBE_WIDEST_BELOW = 2
# With restarts, a node's children go least constraining first (most candidates left after
# propagation: the child most likely to hold a solution) in run 1 and at this share of the
# nodes of later runs, drawn per node; the other nodes of later runs shuffle, so the runs still
# differ. 25×25 band lines 805-995, step 10, 5,000 nodes at most: 35,170 -> 22,440 nodes in
# all, 3 -> 2 unsettled; on the slow lines 804-991: 28,229 -> 7,918 (991: 13,904 -> 1,257).
# Every node (share 1): the runs repeat one order, and 6 of 8 slow lines stayed unsettled.
_ROOMY_SHARE = 0.5


class _Found:
    """The distinct solutions a search meets (restarts may meet one again), each made a grid
    and checked as it arrives: checked after the search, 38,000 grids of an empty 16x16 under
    `limit=10**9, timeout=5` took 4.7 s past the deadline (9.7 s in all)."""

    def __init__(self, kernel: _Kernel, grids: CheckedGrids) -> None:
        self.kernel = kernel
        self.grids = grids

    def add(self, cands: Masks) -> None:
        grid = Grid(self.kernel.n, tuple(map(self.kernel.digit, cands)))
        if grid not in self.grids:  # CheckedGrids knows what it holds
            self.grids.add(grid)

    def __len__(self) -> int:
        return len(self.grids)


@dataclass
class _Search:
    """Counters and limits of one search."""

    limit: int
    deadline: float | None
    max_nodes: int | None
    nodes: int = 0
    backtracks: int = 0
    stopped: str | None = None  # "timeout" / "node limit" when the search ended early
    restarts: int = 0
    locked: bool = False  # locked candidates at every node (`_Kernel.settle`)
    deep: bool = False  # ... not yet, but once the search has failed often enough
    scores: list[int] | None = None  # conflict scores per cell, when branching by them
    heat: bool = False  # ... or when they only break branch_cell's ties (restarts)


def _room(cands: Masks) -> int:
    """Candidates left on the board (a placed cell counts one): the least constraining child
    has the most."""
    return sum(map(int.bit_count, cands))


class BitmaskBackend:
    """Hand-written backtracking search: the reference the other paradigms are checked against."""

    name = "bitmask"

    def __init__(
        self, max_nodes: int | None = None, *, generic: bool = False, random_seed: int | None = None
    ) -> None:
        """`generic=True` posts cages, sums and sandwiches as their Table decompositions;
        `random_seed` tries each branch's digits in an order drawn by random.Random(seed),
        afresh per puzzle (`solve --random`): a solution reached by a randomised search, not
        one sampled uniformly."""
        self.max_nodes = checked_max_nodes(max_nodes)
        self.native = CORE_KINDS if generic else NATIVE_KINDS
        self.random_seed = checked_optional_seed(random_seed)

    def solve(
        self,
        puzzle: Puzzle,
        *,
        limit: int = 2,
        timeout: float | None = None,
        max_nodes: int | None = None,
    ) -> Result:
        """Look for up to `limit` solutions; stop with status unknown at the node/time limit."""
        limit, timeout = checked(limit, timeout)
        max_nodes = checked_max_nodes(max_nodes)
        start = time.perf_counter()
        search = _Search(
            limit=limit,
            deadline=None if timeout is None else start + timeout,
            max_nodes=max_nodes if max_nodes is not None else self.max_nodes,
        )
        try:
            with building(search.deadline):  # a cut-short build is not cached (lru_cache)
                kernel: _Kernel | None = _kernel_for(puzzle, self.native)
        except OutOfTime:
            kernel, search.stopped = None, "timeout"
        # Building a kernel for a large board takes a while: the clock may have run out already.
        rng = None if self.random_seed is None else random.Random(self.random_seed)
        grids = CheckedGrids(puzzle, self.name)
        if kernel is not None and not self._over_limit(search):
            self._search(kernel, puzzle.givens.values, search, rng, _Found(kernel, grids))
        exhausted = search.stopped is None and len(grids) < search.limit
        stats: dict[str, int | float | str] = {
            "nodes": search.nodes,
            "backtracks": search.backtracks,
            "time_s": time.perf_counter() - start,
        }
        if search.restarts:
            stats["restarts"] = search.restarts
        if search.stopped:
            stats["stopped"] = search.stopped
        proof = Proof(
            "exhaustive-search" if exhausted else "witness" if len(grids) >= 2 else "none",
            {"nodes": search.nodes, "complete": exhausted},
        )
        return make_result(
            puzzle,
            self.name,
            grids,
            exhausted=exhausted,
            limit=search.limit,
            stats=stats,
            proof=proof,
        )

    def _search(
        self,
        kernel: _Kernel,
        givens: Sequence[int],
        search: _Search,
        rng: random.Random | None,
        found: _Found,
    ) -> None:
        """Depth-first search from the propagated root (`_run`), its solutions into `found`,
        also when the deadline passes inside a long propagation."""
        # Locked candidates at every node (`kernel.settle`) pay off on puzzles, from the first
        # node (25×25 band line 801: 2,334 nodes with them from the start, no answer in 15 s
        # when they wait for 64 failures), but not on a near-empty board, which fills with few
        # failures: an empty 36×36 took 10.8 s against 1.0 s CPU in the same ~1,060 nodes. So
        # from the start with a fifth of the cells given, else once the search keeps failing.
        deep = kernel.n >= _LOCKED_FROM
        search.locked = deep and 5 * sum(1 for v in givens if v) >= kernel.n * kernel.n
        search.deep = deep and not search.locked
        # Conflict scores (see _DECAY_EVERY) below the restart size, for rules beyond houses.
        if kernel.n < _RESTART_FROM and (kernel.active or kernel.derived):
            search.scores = [0] * (kernel.n * kernel.n)
        try:
            with building(search.deadline):  # large tables read the clock as they are scanned
                self._run(kernel, givens, search, rng, found)
        except OutOfTime:
            search.stopped = "timeout"  # the grids found so far are still reported

    def _run(
        self,
        kernel: _Kernel,
        givens: Sequence[int],
        search: _Search,
        rng: random.Random | None,
        found: _Found,
    ) -> None:
        """The search proper, with restarts where they pay (below); `rng` shuffles each node's
        children, which are otherwise tried lowest digit first."""
        root = kernel.initial(givens)
        every_house = (1 << len(kernel.houses)) - 1
        if root is None or not kernel.settle(root, every_house, search.locked, root=True):
            return
        if rng is not None or search.limit > 2 or kernel.n < _RESTART_FROM:
            self._dfs(kernel, root, search, rng, None, found)
            return
        # Restarts (Gomes, Selman & Kautz 1998): a search that must find one or two solutions
        # can sink an early choice into a huge subtree without any. Run k stops after
        # _RESTART_UNIT · luby(k) failures and tries each node's digits in its own random order
        # (run 1 in the usual order); solutions found by any run count (distinct grids), and
        # the cutoffs grow without bound, so some run finishes within its cutoff: that run
        # has seen the whole tree, which keeps the verdict exact (a proof of uniqueness pays
        # the earlier runs on top, a log factor at most). On the 25×25 band (lines 801-991,
        # step 10) 19 of 20 found two solutions within 6,000 nodes, and within 10 s where 16
        # did before; doubling cutoffs settled fewer, a random cell among the fewest-candidate
        # ties did not help.
        run, shuffle = 1, None
        # Conflict scores kept over the runs break ties among the fewest-candidate cells
        # (before open peers), as in the fast backend: a later run branches first where
        # earlier ones failed, and a node's child that fails at once is a cheap one.
        search.scores, search.heat = [0] * (kernel.n * kernel.n), True
        while not self._dfs(kernel, root, search, shuffle, _RESTART_UNIT * luby(run), found):
            if search.stopped or len(found) >= search.limit:
                break
            run += 1
            search.restarts += 1
            shuffle = random.Random(run)  # a fixed seed per run: verdicts are repeatable

    def _dfs(
        self,
        kernel: _Kernel,
        root: Masks,
        search: _Search,
        rng: random.Random | None,
        cutoff: int | None,
        found: _Found,
    ) -> bool:
        """One iterative depth-first run (no recursion limit for 36×36 boards), adding the
        solutions it meets to `found` until it holds `search.limit`; True if the run saw the
        whole tree, False if a limit or `cutoff` (failed children in this run, as SAT solvers
        count conflicts: a run still descending without failing is never cut) stopped it."""
        stack = [root]
        depths = [0]  # per stacked node, its depth (probing is for shallow nodes)
        # Per stacked node, its parent's probe outcomes (`search.probe`'s `known`), if probed.
        knowns: list[Known | None] = [None]
        # Killer cages below _RESTART_FROM (where conflict scores are used, too).
        probing = search.scores is not None and not search.heat and kernel.killer_cages > 0
        assign, settle, branch_cell = kernel.assign, kernel.settle, kernel.branch_cell
        node_cap = search.max_nodes if search.max_nodes is not None else float("inf")
        run_cap = search.backtracks + cutoff if cutoff is not None else float("inf")
        locked = search.locked
        scores, branch_scored = search.scores, kernel.branch_scored
        crusts = bool(kernel.crusts)
        roomy = cutoff is not None  # restarts (see _ROOMY_SHARE)
        while stack:
            if search.deep and search.backtracks >= _LOCKED_AFTER_BACKTRACKS:
                search.locked = locked = True
                search.deep = False
            if search.nodes >= node_cap:  # max_nodes nodes expanded; another one is due
                search.stopped = "node limit"
                return False
            # The clock is read before every node (~0.1 µs against tens of µs a node): a rule's
            # tables can make one 9×9 node cost 20 ms, and 50 of them overran a 0.2 s timeout.
            if self._over_limit(search):
                return False  # also checked before the first node: building the root is slow
            if search.backtracks >= run_cap:
                return False
            cands = stack.pop()
            depth = depths.pop()
            inherited = knowns.pop()
            search.nodes += 1
            known: Known | None = None
            fresh: dict[tuple[int, int], list[int]] = {}  # probed children, settled
            if probing and depth <= _PROBE_DEPTH:
                known = {} if inherited is None else dict(inherited)
                widest = _PROBE_WIDEST_BELOW if depth else _PROBE_WIDEST
                if probe(kernel, cands, locked, widest=widest, known=known, fresh=fresh) < 0:
                    search.backtracks += 1  # the node has no solution
                    continue
            if scores is None or search.heat:
                best = branch_cell(cands, scores)
            else:
                best = branch_scored(cands, scores)
            if best < 0:
                found.add(cands)
                if len(found) >= search.limit:
                    return False
                continue
            mask = cands[best]
            choices = []
            while mask:
                bit = mask & -mask  # lowest remaining candidate
                mask ^= bit
                choices.append((best, bit))
            if crusts:  # a sandwich crust with as few places as the cell has digits
                places = kernel.crust_places(cands)
                if places and len(places) <= len(choices):
                    choices = places
            children = []
            for cell, bit in choices:
                ready = fresh.get((cell, bit)) if fresh else None
                if ready is not None:  # the probe's trial of this very child (h88)
                    children.append(ready.copy())
                    continue
                child = cands.copy()
                dirty = assign(child, cell, bit)
                if dirty >= 0 and settle(child, dirty, locked):
                    children.append(child)
                else:
                    search.backtracks += 1
                    if scores is not None:
                        scores[cell] += 1
                        if search.backtracks % _DECAY_EVERY == 0:
                            scores[:] = [s >> 1 for s in scores]
            if roomy and len(children) > 1 and (rng is None or rng.random() < _ROOMY_SHARE):
                children.sort(key=_room)  # pop() then explores the child with most room first
            elif rng is None:
                children.reverse()  # pop() then explores the lowest digit first
            else:
                rng.shuffle(children)
            stack.extend(children)
            depths.extend([depth + 1] * len(children))
            knowns.extend([known if depth < _PROBE_DEPTH else None] * len(children))
        return True

    @staticmethod
    def _over_limit(search: _Search) -> bool:
        if search.deadline is not None and time.perf_counter() >= search.deadline:
            search.stopped = "timeout"
        return search.stopped is not None
