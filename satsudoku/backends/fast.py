"""The `fast` backend: a compiled (Numba) search for puzzles whose rules are all-different groups.

Classic, jigsaw, diagonal, windoku, extra-region, disjoint-group, anti-king and anti-knight
puzzles up to 64×64 qualify; any other rule is refused with a one-line error (`supports` says
why beforehand). Batches of puzzles of one shape and rule set run in one kernel call, so the
Python overhead is paid once per batch; every grid still goes through `make_result`.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from satsudoku import verify_compiled
from satsudoku.backends import fast_kernel
from satsudoku.constraints import (
    CORE_KINDS,
    NEEDS_TABLES,
    AllDifferent,
    Allowed,
    Constraint,
    Decomposable,
    lower,
)
from satsudoku.errors import BackendBugError, PuzzleError, UnsupportedPuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.options import (
    checked,
    checked_limit,
    checked_max_nodes,
    checked_timeout,
)
from satsudoku.puzzle import Puzzle
from satsudoku.result import CheckedGrids, Proof, Result, make_result
from satsudoku.rules import Rule
from satsudoku.search.luby import luby

if TYPE_CHECKING:
    from satsudoku.tools.counting import Count

kernel: Any = fast_kernel  # Numba dispatchers: their types are only known once compiled
verifier: Any = verify_compiled
Words = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]
Cells = npt.NDArray[np.uint32]  # cell indices: unsigned, so compiled indexing needs no
# negative-index fix-up (measured: 17clue +40%, forum-hardest +10% over int64)
Digits = npt.NDArray[np.uint8]

FAMILY = (
    "classic, jigsaw, diagonal, windoku, extra regions, disjoint groups, anti-king, anti-knight"
)
_WORK_PER_CALL = 1 << 21  # cell·digit steps per kernel call between clock checks (~2-5 ms)
_BATCH_CELLS = 1 << 15  # cells per batch call: 404 9×9 puzzles, 8 of 64×64
# Locked candidates run at the root always; inside the search they cut nodes (forum-hardest-1106:
# 367 -> 286 a puzzle) but cost more than they save (354 -> 229 puzzles/s), so they stay off.
_SEARCH_LOCKS = False
_BATCH_MIN_TIMEOUT = 0.05  # below this a batch's slice could overrun the timeout: go one by one
_RESTART_FROM = 25  # boards this size and up restart (when one or two grids are wanted)
# Failed children a unit of a run's cutoff: 16 times the bitmask search's, as a compiled node
# costs about a hundredth of one there. 14 hard lines of the 25x25 band, 400,000 nodes each at
# most: units of 256 / 1,024 / 4,096 settled 9 / 9 / 10 in 3.31 / 3.00 / 2.21 million nodes.
_RESTART_UNIT = 4096


@dataclass(frozen=True, eq=False)
class Structure:
    """Everything the kernel needs about a shape and rule set, as flat arrays (built once)."""

    n: int
    allowed: Words  # per cell, the digits its domain allows (bit d-1 for digit d)
    peer_ptr: Ints  # peers of cell i: peers[peer_ptr[i]:peer_ptr[i + 1]]
    peers: Cells
    houses: Cells  # (houses, n): every all-different group of n cells
    full: np.uint64
    lock_seg: Ints  # per house pair k: lock_cells[seg[3k]:seg[3k+1]] is A∩B, then A∖B, B∖A
    lock_cells: Cells

    def args(self) -> tuple[object, ...]:
        return (self.peer_ptr, self.peers, self.houses, self.full, self.lock_seg, self.lock_cells)


def outside_family(puzzle: Puzzle) -> str | None:
    """Why the fast backend cannot take `puzzle` (naming the first such rule), or None.

    A rule is walked down its decompositions only while they may still end in all-different
    groups: the built-in kinds beyond them decompose into Tables alone, and building those to
    say no cost seconds (a little killer's diagonal: a 200,001-row table, refused as too large,
    which made `--backend all` refuse the puzzle)."""
    for rule in puzzle.rules:
        if not all(_in_family(c, puzzle.shape) for c in rule.constraints(puzzle.shape)):
            name = str(rule.to_spec().get("type", type(rule).__name__))
            return (
                f"the fast backend takes all-different rules only ({FAMILY}); rule {name!r} is "
                "not one: use --backend bitmask, sat or cpsat"
            )
    return None


def _in_family(constraint: Constraint, shape: Shape) -> bool:
    """Whether `constraint` is all-different groups and allowed digits only, decomposed as far
    as needed (a plugin's kind may decompose into groups)."""
    if isinstance(constraint, AllDifferent | Allowed):
        return True
    if isinstance(constraint, NEEDS_TABLES) or not isinstance(constraint, Decomposable):
        return False
    try:
        parts = constraint.decompose(shape)
    except PuzzleError:  # too large to decompose: it is not a few groups either
        return False
    return all(_in_family(part, shape) for part in parts)


def build_structure(shape: Shape, constraints: Iterable[Constraint]) -> Structure:
    """Peers, houses and house intersections of all-different `constraints`, as arrays."""
    n = shape.size
    cells = n * n
    full = (1 << n) - 1
    allowed = [full] * cells
    peer_sets: list[set[int]] = [set() for _ in range(cells)]
    houses: dict[tuple[int, ...], None] = {}
    for constraint in constraints:
        if isinstance(constraint, Allowed):
            r, c = constraint.cell
            allowed[r * n + c] &= sum(1 << (d - 1) for d in constraint.digits if 1 <= d <= n)
            continue
        if not isinstance(constraint, AllDifferent):  # outside_family() names the rule
            raise UnsupportedPuzzleError(f"the fast backend cannot post {constraint}")
        group = [r * n + c for r, c in constraint.cells]
        distinct = set(group)
        if len(distinct) < len(group):  # a cell that must differ from itself
            for i in group:
                allowed[i] = 0
        for i in distinct:
            peer_sets[i].update(distinct)
        if len(distinct) == n:  # pigeonhole: every digit exactly once
            houses[tuple(sorted(distinct))] = None
    peer_ptr = [0]
    peers: list[int] = []
    for i, peer_set in enumerate(peer_sets):
        peer_set.discard(i)
        peers.extend(sorted(peer_set))
        peer_ptr.append(len(peers))
    house_list = list(houses)
    # Locked candidates: every pair of houses sharing >= 2 cells (box-line in a classic grid).
    lock_seg = [0]
    lock_cells: list[int] = []
    for a, house_a in enumerate(house_list):
        set_a = set(house_a)
        for house_b in house_list[a + 1 :]:
            both = set_a.intersection(house_b)
            if len(both) >= 2:
                lock_cells.extend(sorted(both))
                lock_seg.append(len(lock_cells))
                lock_cells.extend(i for i in house_a if i not in both)
                lock_seg.append(len(lock_cells))
                lock_cells.extend(i for i in house_b if i not in both)
                lock_seg.append(len(lock_cells))
    return Structure(
        n,
        np.array(allowed, dtype=np.uint64),
        np.array(peer_ptr, dtype=np.int64),
        np.array(peers, dtype=np.uint32),
        np.array(house_list, dtype=np.uint32).reshape(len(house_list), n),
        np.uint64(full),
        np.array(lock_seg, dtype=np.int64),
        np.array(lock_cells, dtype=np.uint32),
    )


@lru_cache(maxsize=32)
def _cached_structure(shape: Shape, rules: tuple[Rule, ...]) -> Structure:
    return _structure_of(Puzzle.empty(shape, rules))


def _structure_of(puzzle: Puzzle) -> Structure:
    if reason := outside_family(puzzle):
        raise UnsupportedPuzzleError(reason)
    return build_structure(puzzle.shape, lower(puzzle.constraints(), puzzle.shape, CORE_KINDS))


def structure_for(puzzle: Puzzle) -> Structure:
    """The puzzle's structure; puzzles of one shape and rule set share it."""
    try:
        try:
            return _cached_structure(puzzle.shape, puzzle.rules)
        except TypeError:  # a user rule that is not hashable: build afresh
            return _structure_of(puzzle)
    except UnsupportedPuzzleError as exc:
        raise UnsupportedPuzzleError(exc.message, source=puzzle.origin) from None


class _Compilation:
    """First use compiles the kernel (or loads it from the disk cache); say so once if slow."""

    seconds: float | None = None

    @classmethod
    def ensure(cls) -> float | None:
        """Warm the kernel up on a 1×1 puzzle; the compile time if this call compiled."""
        if cls.seconds is not None:
            return None
        began = time.perf_counter()
        one = build_structure(Shape(1, 1), [])
        sols = np.zeros((1, 1, 1), dtype=np.uint8)
        kernel.solve_batch(
            np.zeros((1, 1), dtype=np.uint8), one.allowed, *one.args(), True, _SEARCH_LOCKS, 1,
            sols, np.zeros(1, dtype=np.int64), np.zeros((1, 3), dtype=np.int64),
        )  # fmt: skip
        blank = CheckedGrids(Puzzle.empty(Shape(1, 1)), FastBackend.name)
        _run(one, np.zeros(1, dtype=np.uint8), blank, limit=1, deadline=None, max_nodes=None)
        verifier.first_bad(
            np.zeros((1, 1), dtype=np.uint8), sols, np.zeros(1, dtype=np.int64), 1, 1
        )  # the command line's plain classic lines are verified in compiled code (fast_lines)
        cls.seconds = time.perf_counter() - began
        misses = sum(
            sum(fn.stats.cache_misses.values())
            for fn in (kernel.solve_batch, kernel.search, kernel.start, verifier.first_bad)
        )
        if misses:
            where = kernel.CACHE_DIR or f"nowhere ({kernel.CACHE_REASON})"
            print(
                f"satsudoku: compiled the fast backend's kernel in {cls.seconds:.1f} s "
                f"(cached in {where})",
                file=sys.stderr,
            )
            return cls.seconds
        return None


@dataclass
class _Outcome:
    """What one puzzle's search produced."""

    solutions: list[Grid] | CheckedGrids
    exhausted: bool
    nodes: int
    backtracks: int
    stopped: str | None = None
    restarts: int = 0


def _run(
    structure: Structure,
    givens: Digits,
    found: CheckedGrids,
    *,
    limit: int,
    deadline: float | None,
    max_nodes: int | None,
) -> _Outcome:
    """One puzzle on the resumable path: kernel calls of a bounded node budget, clock between;
    on boards of 25×25 and up, runs that restart when one or two solutions are wanted.

    Grids are checked into `found` as each call returns them, so the clock covers the checking.
    """
    runs = _Runs(structure, found, limit, deadline, max_nodes)
    if structure.n < _RESTART_FROM or limit > 2:
        end = runs.run(givens, structure.allowed, None, None)
    else:
        end = runs.restarting(givens)
    stopped = end if end in ("timeout", "node limit") else None
    exhausted = end == "exhausted" and len(found) < limit
    return _Outcome(found, exhausted, runs.nodes, runs.backtracks, stopped, runs.restarts)


class _Runs:
    """The arrays and counters of one puzzle's search, kept from run to run (the conflict
    scores too: a restarted run branches where the earlier ones failed)."""

    def __init__(
        self,
        structure: Structure,
        found: CheckedGrids,
        limit: int,
        deadline: float | None,
        max_nodes: int | None,
        keep: int | None = None,
    ) -> None:
        """`keep`: None lists every grid found into `found`; a number counts the grids and
        keeps only the first `keep` (witnesses), so a count holds no list (one run only)."""
        self.structure, self.found, self.limit = structure, found, limit
        self.deadline, self.max_nodes, self.keep = deadline, max_nodes, keep
        self.counted = 0  # grids found, when counting
        self.on_progress: Callable[[int], None] | None = None  # hears the running count
        n = structure.n
        self.cells = cells = n * n
        capacity = cells * n + 1  # a trail entry removes at least one digit from one cell
        self.cands = np.empty(cells, dtype=np.uint64)
        self.queue = np.empty(cells, dtype=np.uint32)
        self.trail_cell = np.empty(capacity, dtype=np.uint32)
        self.trail_mask = np.empty(capacity, dtype=np.uint64)
        self.st = np.zeros(kernel.STATE_SLOTS, dtype=np.int64)
        self.lvl_cell = np.empty(cells + 1, dtype=np.uint32)
        self.lvl_rest = np.empty(cells + 1, dtype=np.uint64)
        self.lvl_mark = np.empty(cells + 1, dtype=np.int64)
        self.conflicts = np.zeros(cells, dtype=np.int64)
        self.per_call = max(1, _WORK_PER_CALL // (cells * n))
        self.nodes = self.backtracks = self.restarts = 0  # over every run so far

    def run(self, givens: Digits, allowed: Words, back: Digits | None, cutoff: int | None) -> str:
        """Search from the root until the tree is done ("exhausted"), `limit` grids are found
        ("limit"), or "timeout", "node limit", or `cutoff` failed children ("cutoff"). `back`
        maps the digits of a relabelled run to the puzzle's own."""
        st, limit, max_nodes = self.st, self.limit, self.max_nodes
        args = self.structure.args()
        if not kernel.start(
            givens, allowed, self.cands, self.queue, *args, True, self.trail_cell,
            self.trail_mask, st,
        ):  # fmt: skip
            return "exhausted"
        this_run: set[Grid] = set()  # a grid twice within one run is a kernel bug
        try:
            while True:
                budget = self.per_call
                if max_nodes is not None:
                    budget = min(budget, max_nodes - self.nodes - int(st[kernel.NODES]))
                if budget > 0:
                    room = min(limit - self.total(), 1024)  # grids a call: memory stays bounded
                    sols = np.empty((room, self.cells), dtype=np.uint8)
                    code = kernel.search(
                        self.cands, self.queue, *args, _SEARCH_LOCKS, self.trail_cell,
                        self.trail_mask, self.lvl_cell, self.lvl_rest, self.lvl_mark,
                        self.conflicts, st, sols, budget,
                    )  # fmt: skip
                    rows = sols[: st[kernel.FOUND]]
                    st[kernel.FOUND] = 0
                    if self.keep is not None:
                        self._count(rows)
                    else:
                        self._keep(rows if back is None else back[rows], back is None, this_run)
                    if code == kernel.EXHAUSTED:
                        return "exhausted"
                    if self.total() >= limit:
                        return "limit"
                if max_nodes is not None and self.nodes + st[kernel.NODES] >= max_nodes:
                    return "node limit"
                if self.deadline is not None and time.perf_counter() >= self.deadline:
                    return "timeout"
                if cutoff is not None and st[kernel.BACKTRACKS] >= cutoff:
                    return "cutoff"
        finally:
            self.nodes += int(st[kernel.NODES])
            self.backtracks += int(st[kernel.BACKTRACKS])

    def total(self) -> int:
        """Grids found so far: distinct ones listed, or all counted."""
        return len(self.found) if self.keep is None else self.counted

    def _count(self, rows: Digits) -> None:
        """Count the grids of `rows`, checking into `found` only the first `keep`."""
        self.counted += len(rows)
        if self.on_progress is not None:
            self.on_progress(self.counted)
        assert self.keep is not None
        for row in rows[: max(0, self.keep - len(self.found))].tolist():
            self.found.add(Grid(self.structure.n, tuple(row)))

    def _keep(self, rows: Digits, first: bool, this_run: set[Grid]) -> None:
        """Check the grids of `rows` into `found`; a later run may meet an earlier run's."""
        n = self.structure.n
        for row in rows.tolist():
            grid = Grid(n, tuple(row))
            if first:
                self.found.add(grid)  # refuses a repeat itself
                continue
            if grid in this_run:
                raise BackendBugError(
                    f"backend {FastBackend.name!r} returned the same solution twice"
                )
            this_run.add(grid)
            if grid not in self.found:
                self.found.add(grid)

    def restarting(self, givens: Digits) -> str:
        """Runs of _RESTART_UNIT · luby(k) failed children, as the bitmask search restarts: a
        run that must find one or two grids can sink an early choice into a huge subtree
        without any. Run k > 1 searches the puzzle with its digits relabelled at random (the
        rules are all-different groups and allowed digits, which a relabelling maps onto the
        same puzzle), so its lowest-digit-first order is a random order of the puzzle's own
        digits. The cutoffs grow without bound, so some run finishes within its cutoff and has
        seen the whole tree: only such a run gives `unique` or `unsatisfiable`."""
        n = self.structure.n
        rng = random.Random(n)  # a fixed seed: verdicts and node counts are repeatable
        digits, allowed, back = givens, self.structure.allowed, None
        run = 1
        while True:
            end = self.run(digits, allowed, back, _RESTART_UNIT * luby(run))
            if end != "cutoff":
                return end
            run += 1
            self.restarts += 1
            order = list(range(1, n + 1))
            rng.shuffle(order)  # digit d is searched as order[d - 1]
            forward = np.array([0, *order], dtype=np.uint8)  # 0, an open cell, stays 0
            back = np.empty(n + 1, dtype=np.uint8)
            back[forward] = np.arange(n + 1, dtype=np.uint8)
            digits = forward[givens]
            allowed = _relabelled(self.structure.allowed, order)


def _relabelled(masks: Words, order: Sequence[int]) -> Words:
    """`masks` with digit d's bit moved to digit order[d - 1]'s."""
    out = np.zeros_like(masks)
    one = np.uint64(1)
    for d, image in enumerate(order, start=1):
        out |= ((masks >> np.uint64(d - 1)) & one) << np.uint64(image - 1)
    return out


def count_solutions(
    puzzle: Puzzle,
    *,
    limit: int | None = None,
    timeout: float | None = None,
    max_nodes: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Count:
    """Count the solutions of `puzzle` by the compiled search, listing none: every grid the
    kernel reaches is counted and the first two are checked and kept as witnesses (the
    bitmask count's contract, `tools.counting.Count`, without its digit-symmetry shortcut).
    Past `limit` (it finds limit + 1, to tell "exactly K" from "at least K"), `max_nodes` or
    `timeout` the count is a lower bound."""
    from satsudoku.tools.counting import Count

    limit = None if limit is None else checked_limit(limit)
    timeout = checked_timeout(timeout)
    max_nodes = checked_max_nodes(max_nodes)
    _Compilation.ensure()  # compiling is not counting: before the clock starts
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    structure = structure_for(puzzle)  # refuses a rule outside the family, naming it
    found = CheckedGrids(puzzle, FastBackend.name)
    target = (1 << 62) if limit is None else limit + 1
    runs = _Runs(structure, found, target, deadline, max_nodes, keep=2)
    runs.on_progress = on_progress
    givens = np.array(puzzle.givens.values, dtype=np.uint8)
    end = runs.run(givens, structure.allowed, None, None)
    return Count(
        count=runs.counted,
        complete=end == "exhausted",
        witnesses=tuple(found.grids),
        nodes=runs.nodes,
        symmetric_digits=0,
        time_s=time.perf_counter() - start,
        stopped=None if end == "exhausted" else end,
    )


class FastBackend:
    """Compiled search for all-different puzzles; the same verdicts as `bitmask`, faster."""

    name = "fast"

    def __init__(self, max_nodes: int | None = None) -> None:
        self.max_nodes = checked_max_nodes(max_nodes)

    def supports(self, puzzle: Puzzle) -> str | None:
        """None if this backend can solve `puzzle`; otherwise why not, in one line."""
        return outside_family(puzzle)

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
        compiled = _Compilation.ensure()
        begin = time.perf_counter()
        deadline = None if timeout is None else begin + timeout
        structure = structure_for(puzzle)
        givens = np.array(puzzle.givens.values, dtype=np.uint8)
        nodes_cap = max_nodes if max_nodes is not None else self.max_nodes
        found = CheckedGrids(puzzle, self.name)
        if deadline is not None and time.perf_counter() >= deadline:
            outcome = _Outcome(found, False, 0, 0, "timeout")  # building took all the time
        else:
            outcome = _run(
                structure,
                givens,
                found,
                limit=limit,
                deadline=deadline,
                max_nodes=nodes_cap,
            )
        return self._result(puzzle, outcome, limit, time.perf_counter() - begin, compiled)

    def solve_many(
        self, puzzles: Iterable[Puzzle], *, limit: int = 2, timeout: float | None = None
    ) -> Iterator[Result]:
        """Results for `puzzles` in order; runs of one shape and rule set go in batch calls
        (a bad `limit` or `timeout` is refused at once, before the first result is asked for)."""
        return self._many(puzzles, *checked(limit, timeout))

    def _many(
        self, puzzles: Iterable[Puzzle], limit: int, timeout: float | None
    ) -> Iterator[Result]:
        stream = iter(puzzles)
        if (timeout is not None and timeout < _BATCH_MIN_TIMEOUT) or self.max_nodes is not None:
            for puzzle in stream:
                yield self.solve(puzzle, limit=limit, timeout=timeout)
            return
        while True:
            chunk: list[Puzzle] = []
            try:
                chunk.extend(islice(stream, 64))
            except Exception:  # a bad puzzle: those read before it are answered first
                yield from self._runs(chunk, limit, timeout)
                raise
            if not chunk:
                return
            yield from self._runs(chunk, limit, timeout)

    def _runs(self, chunk: Sequence[Puzzle], limit: int, timeout: float | None) -> Iterator[Result]:
        """`chunk`'s results, a batch per run of one shape and rule set."""
        start = 0
        while start < len(chunk):
            key = (chunk[start].shape, chunk[start].rules)
            stop = start + 1
            while stop < len(chunk) and (chunk[stop].shape, chunk[stop].rules) == key:
                stop += 1
            yield from self._batch(chunk[start:stop], limit, timeout)
            start = stop

    def _batch(
        self, puzzles: Sequence[Puzzle], limit: int, timeout: float | None
    ) -> Iterator[Result]:
        """One shape and rule set; batch calls of up to _BATCH_CELLS cells."""
        compiled = _Compilation.ensure()
        structure = structure_for(puzzles[0])
        n = structure.n
        cells = n * n
        if limit * cells > _BATCH_CELLS:  # many solutions wanted: one by one, bounded memory
            for puzzle in puzzles:
                yield self.solve(puzzle, limit=limit, timeout=timeout)
            return
        step = max(1, _BATCH_CELLS // (cells * limit))
        budget = max(1, _WORK_PER_CALL // (cells * n))
        for first in range(0, len(puzzles), step):
            part = puzzles[first : first + step]
            begin = time.perf_counter()
            givens = np.array([p.givens.values for p in part], dtype=np.uint8)
            sols = np.empty((len(part), limit, cells), dtype=np.uint8)
            found = np.zeros(len(part), dtype=np.int64)
            counters = np.zeros((len(part), 3), dtype=np.int64)
            kernel.solve_batch(
                givens,
                structure.allowed,
                *structure.args(),
                True,
                _SEARCH_LOCKS,
                budget,
                sols,
                found,
                counters,
            )
            share = (time.perf_counter() - begin) / len(part)
            rows = sols.tolist()
            for k, puzzle in enumerate(part):
                if not counters[k, 2]:  # over the batch budget: the resumable path, with a clock
                    yield self.solve(puzzle, limit=limit, timeout=timeout)
                    continue
                grids = [Grid(n, tuple(row)) for row in rows[k][: found[k]]]
                outcome = _Outcome(
                    grids, len(grids) < limit, int(counters[k, 0]), int(counters[k, 1])
                )
                yield self._result(puzzle, outcome, limit, share, compiled)
                compiled = None

    def _result(
        self, puzzle: Puzzle, outcome: _Outcome, limit: int, seconds: float, compiled: float | None
    ) -> Result:
        stats: dict[str, int | float | str] = {
            "nodes": outcome.nodes,
            "backtracks": outcome.backtracks,
            "time_s": seconds,
        }
        if compiled is not None:
            stats["compile_s"] = round(compiled, 3)
        if outcome.stopped:
            stats["stopped"] = outcome.stopped
        if outcome.restarts:
            stats["restarts"] = outcome.restarts
        exhausted = outcome.exhausted
        found = outcome.solutions
        proof = Proof(
            "exhaustive-search" if exhausted else "witness" if len(found) >= 2 else "none",
            {"nodes": outcome.nodes, "complete": exhausted},
        )
        return make_result(
            puzzle, self.name, found, exhausted=exhausted, limit=limit, stats=stats, proof=proof
        )
