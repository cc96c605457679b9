"""The `fast` backend's compiled kernel (Numba): search over one uint64 candidate word per cell.

Bit d-1 of a cell's word is set while digit d is possible (n <= 64). Propagation is naked
singles (a queue of cells that became single), hidden singles over the n-cell houses
(once/twice accumulation: `twice |= once & m; once |= m`) and locked candidates over house
pairs sharing cells; branching takes the cell with the fewest candidates. Changes are undone
from a trail, so memory is O(cells · digits) whatever the depth, and the search is resumable:
it returns after a node budget, a full solution buffer or exhaustion, with its state in arrays.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast, overload

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import config as numba_config
from numba.extending import intrinsic

EXHAUSTED, FULL, BUDGET = 0, 1, 2  # why `search` returned
DESCEND, NEXT = 0, 1  # phase: expand the current node, or try the next digit of the top level
# Slots of the int64 state vector `st` (one per search; the kernel reads and writes them).
TRAIL, DEPTH, NODES, BACKTRACKS, PHASE, FOUND = range(6)
STATE_SLOTS = 6
config: Any = numba_config  # CACHE_DIR is set from the environment at run time: untyped
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def _safe_cache_dir() -> tuple[str | None, str]:
    """Where compiled code is cached, and why there (or why nowhere).

    Numba caches are pickles: loading one from a directory others can write runs their code.
    So the default is a per-user directory that we own and nobody else can write, never the
    package folder (perhaps shared or read-only) and never a shared /tmp path. NUMBA_CACHE_DIR,
    when the user sets it, is their choice and is respected.
    """
    if config.CACHE_DIR:
        return str(config.CACHE_DIR), "NUMBA_CACHE_DIR"
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):  # XDG says a relative value is to be ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None, "no home directory to cache compiled code in"
        base = os.path.join(home, ".cache")
    path = Path(base, "satsudoku", "numba")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError as exc:
        return None, f"cannot create {path}: {exc.strerror}"
    if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None, f"{path} is not private to this user"
    if not os.access(path, os.W_OK | os.X_OK):
        return None, f"{path} is not writable"
    return str(path), "user cache"


CACHE_DIR, CACHE_REASON = _safe_cache_dir()


F = TypeVar("F", bound=Callable[..., Any])


@overload
def compiled(function: F, /) -> F: ...
@overload
def compiled(function: None = None, /, **options: Any) -> Callable[[F], F]: ...


def compiled(function: F | None = None, /, **options: Any) -> F | Callable[[F], F]:
    """`njit`, its machine code cached in CACHE_DIR (or nowhere): every compiled module of the
    package decorates with this, as `@compiled` or `@compiled(inline="always")`.

    Numba picks a function's cache folder when the function is decorated, reading
    config.CACHE_DIR then; it is set for the decoration alone and the user's value restored,
    so the rest of the process (the user's own Numba code) never sees it changed.
    """

    def decorate(py_function: F) -> F:
        saved = config.CACHE_DIR
        if CACHE_DIR is not None:
            config.CACHE_DIR = CACHE_DIR
        try:
            return cast(F, njit(cache=CACHE_DIR is not None, **options)(py_function))
        finally:
            config.CACHE_DIR = saved

    return decorate if function is None else decorate(function)


def _popcount_typer(typingctx: Any, x: Any) -> Any:
    """Number of set bits of a uint64 (LLVM ctpop: one POPCNT where the CPU has it)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


def _lowest_typer(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a nonzero uint64 (LLVM cttz)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


# Called only from compiled code; typed Any because their Python signature is the typer's.
_popcount: Any = intrinsic(_popcount_typer)
_lowest: Any = intrinsic(_lowest_typer)


@compiled(inline="always")
def _set(cands: Any, cell: int, mask: Any, trail_cell: Any, trail_mask: Any, st: Any) -> None:
    """cands[cell] = mask, remembering the old word on the trail."""
    t = st[TRAIL]
    trail_cell[t] = cell
    trail_mask[t] = cands[cell]
    st[TRAIL] = t + 1
    cands[cell] = mask


@compiled
def _propagate(
    cands: Any,
    queue: Any,
    queued: Any,  # np.int64: one compiled variant for every caller
    peer_ptr: Any,
    peers: Any,
    houses: Any,
    full: Any,
    lock_seg: Any,
    lock_cells: Any,
    locks: bool,
    trail_cell: Any,
    trail_mask: Any,
    st: Any,
) -> bool:
    """Singles (and locked candidates if `locks`) to a fixpoint; False on a contradiction.

    `queue[:queued]` holds cells just made single. Invariant on success: every single-bit
    word has had its digit removed from all its peers, so "single" means "placed".
    """
    t = st[TRAIL]  # the trail's length, kept in a register here (written back on return)
    n_houses, n = houses.shape
    n_locks = (lock_seg.shape[0] - 1) // 3
    while True:
        head = 0
        while head < queued:  # naked singles, cascading through the queue
            cell = queue[head]
            head += 1
            bit = cands[cell]
            for k in range(peer_ptr[cell], peer_ptr[cell + 1]):
                peer = peers[k]
                m = cands[peer]
                if m & bit:
                    m ^= bit
                    if m == _ZERO:
                        st[TRAIL] = t
                        return False
                    trail_cell[t] = peer
                    trail_mask[t] = cands[peer]
                    t += 1
                    cands[peer] = m
                    if m & (m - _ONE) == _ZERO:
                        queue[queued] = peer
                        queued += 1
        head = queued = 0
        for h in range(n_houses):  # hidden singles: a digit with one place left in a house
            once = _ZERO
            twice = _ZERO
            placed = _ZERO
            for j in range(n):
                m = cands[houses[h, j]]
                twice |= once & m
                once |= m
                if m & (m - _ONE) == _ZERO:
                    placed |= m
            if once != full:
                st[TRAIL] = t
                return False  # some digit has no place left in this house
            # A placed digit is always once-only; only the others can be hidden singles.
            exact = once & ~twice & ~placed
            if exact == _ZERO:
                continue
            for j in range(n):
                cell = houses[h, j]
                m = cands[cell]
                hit = m & exact
                if hit != _ZERO and hit != m:  # an open cell holding a hidden single
                    if hit & (hit - _ONE) != _ZERO:
                        st[TRAIL] = t
                        return False  # the only place of two digits
                    trail_cell[t] = cell
                    trail_mask[t] = cands[cell]
                    t += 1
                    cands[cell] = hit
                    queue[queued] = cell
                    queued += 1
        if queued or not locks:
            if queued:
                continue
            st[TRAIL] = t
            return True
        narrowed = False
        for k in range(n_locks):  # locked candidates between two houses A and B
            both = in_a = in_b = _ZERO
            base = k * 3
            for j in range(lock_seg[base], lock_seg[base + 1]):
                m = cands[lock_cells[j]]
                if m & (m - _ONE) != _ZERO:  # placed digits are in neither rest already
                    both |= m
            for j in range(lock_seg[base + 1], lock_seg[base + 2]):
                in_a |= cands[lock_cells[j]]
            for j in range(lock_seg[base + 2], lock_seg[base + 3]):
                in_b |= cands[lock_cells[j]]
            # A digit of A∩B that B∖A cannot hold must be in A∩B, so A∖B loses it; and back.
            for side in range(2):
                drop = both & ~(in_b if side == 0 else in_a)
                if drop == _ZERO:
                    continue
                for j in range(lock_seg[base + 1 + side], lock_seg[base + 2 + side]):
                    cell = lock_cells[j]
                    m = cands[cell]
                    if m & drop:
                        m &= ~drop
                        if m == _ZERO:
                            st[TRAIL] = t
                            return False
                        trail_cell[t] = cell
                        trail_mask[t] = cands[cell]
                        t += 1
                        cands[cell] = m
                        narrowed = True
                        if m & (m - _ONE) == _ZERO:
                            queue[queued] = cell
                            queued += 1
        if not narrowed:
            st[TRAIL] = t
            return True  # (a narrowing that leaves a single also sets `narrowed`)


@compiled
def start(
    givens: Any,
    allowed: Any,
    cands: Any,
    queue: Any,
    peer_ptr: Any,
    peers: Any,
    houses: Any,
    full: Any,
    lock_seg: Any,
    lock_cells: Any,
    locks: bool,
    trail_cell: Any,
    trail_mask: Any,
    st: Any,
) -> bool:
    """Post domains and givens and propagate (`locks`: with locked candidates); False if
    contradictory.

    Leaves `st` ready for `search`: an empty trail (the root is never undone), depth 0.
    """
    for slot in range(STATE_SLOTS):
        st[slot] = 0
    st[PHASE] = NEXT  # a contradictory root: `search` finds nothing to try and is exhausted
    queued = 0
    for i in range(cands.shape[0]):
        m = allowed[i]
        g = givens[i]
        if g:
            m &= _ONE << np.uint64(g - 1)
        if m == _ZERO:
            return False
        cands[i] = m
        if m & (m - _ONE) == _ZERO:
            queue[queued] = i
            queued += 1
    ok = _propagate(
        cands, queue, np.int64(queued), peer_ptr, peers, houses, full, lock_seg, lock_cells,
        locks, trail_cell, trail_mask, st,
    )  # fmt: skip
    st[TRAIL] = 0
    if ok:
        st[PHASE] = DESCEND
    return ok


@compiled
def search(
    cands: Any,
    queue: Any,
    peer_ptr: Any,
    peers: Any,
    houses: Any,
    full: Any,
    lock_seg: Any,
    lock_cells: Any,
    locks: bool,
    trail_cell: Any,
    trail_mask: Any,
    lvl_cell: Any,
    lvl_rest: Any,
    lvl_mark: Any,
    conflicts: Any,
    st: Any,
    sols: Any,
    budget: int,
) -> int:
    """Depth-first search from the state in `st`; returns EXHAUSTED, FULL or BUDGET.

    Solutions go to `sols[st[FOUND]:]` as digits 1..n; FULL means `sols` has no row left (the
    caller empties it, resets st[FOUND] and calls again). BUDGET means `budget` nodes were
    expanded; calling again resumes exactly where the search stopped.
    """
    n_cells = cands.shape[0]
    capacity = sols.shape[0]
    spent = 0
    while True:
        if st[PHASE] == DESCEND:
            if spent >= budget:
                return BUDGET
            spent += 1
            st[NODES] += 1
            best = -1
            fewest = np.uint64(65)
            heat = -1
            for i in range(n_cells):  # fewest candidates first, then the most conflicts
                m = cands[i]
                if m & (m - _ONE) != _ZERO:
                    count = _popcount(m)
                    if count < fewest or (count == fewest and conflicts[i] > heat):
                        fewest = count
                        best = i
                        heat = conflicts[i]
            st[PHASE] = NEXT
            if best < 0:  # every cell single (so placed, by the invariant): a solution
                row = st[FOUND]
                for i in range(n_cells):
                    sols[row, i] = _lowest(cands[i]) + _ONE
                st[FOUND] = row + 1
                if row + 1 >= capacity:
                    return FULL
                continue
            depth = st[DEPTH]
            lvl_cell[depth] = best
            lvl_rest[depth] = cands[best]
            lvl_mark[depth] = st[TRAIL]
            st[DEPTH] = depth + 1
        depth = st[DEPTH]
        if depth == 0:
            return EXHAUSTED
        top = depth - 1
        mark = lvl_mark[top]
        t = st[TRAIL]
        while t > mark:  # undo the last child (or nothing, right after descending)
            t -= 1
            cands[trail_cell[t]] = trail_mask[t]
        st[TRAIL] = t
        rest = lvl_rest[top]
        if rest == _ZERO:
            st[DEPTH] = top
            continue
        bit = rest & (~rest + _ONE)  # lowest remaining digit first
        lvl_rest[top] = rest ^ bit
        cell = lvl_cell[top]
        _set(cands, cell, bit, trail_cell, trail_mask, st)
        queue[0] = cell
        if _propagate(
            cands, queue, np.int64(1), peer_ptr, peers, houses, full, lock_seg, lock_cells, locks,
            trail_cell, trail_mask, st,
        ):  # fmt: skip
            st[PHASE] = DESCEND
        else:
            st[BACKTRACKS] += 1
            conflicts[cell] += 1


@compiled
def solve_batch(
    givens: Any,
    allowed: Any,
    peer_ptr: Any,
    peers: Any,
    houses: Any,
    full: Any,
    lock_seg: Any,
    lock_cells: Any,
    root_locks: bool,
    locks: bool,
    budget: int,
    sols: Any,
    found: Any,
    counters: Any,
) -> None:
    """Solve every row of `givens` (one puzzle each) with at most `budget` nodes apiece.

    Writes up to sols.shape[1] solutions of puzzle p to sols[p], their number to found[p], and
    (nodes, backtracks, finished) to counters[p]; finished is 0 when the budget ran out (the
    caller re-runs that puzzle on the resumable path, where it can watch the clock).
    """
    n_cells = givens.shape[1]
    n = houses.shape[1]
    capacity = n_cells * n + 1  # every trail entry removes a digit from a cell
    cands = np.empty(n_cells, np.uint64)
    queue = np.empty(n_cells, np.uint32)  # a cell turns single once per propagation
    trail_cell = np.empty(capacity, np.uint32)
    trail_mask = np.empty(capacity, np.uint64)
    lvl_cell = np.empty(n_cells + 1, np.uint32)
    lvl_rest = np.empty(n_cells + 1, np.uint64)
    lvl_mark = np.empty(n_cells + 1, np.int64)
    conflicts = np.zeros(n_cells, np.int64)
    st = np.zeros(STATE_SLOTS, np.int64)
    for p in range(givens.shape[0]):
        conflicts[:] = 0
        code = EXHAUSTED
        if start(
            givens[p], allowed, cands, queue, peer_ptr, peers, houses, full, lock_seg,
            lock_cells, root_locks, trail_cell, trail_mask, st,
        ):  # fmt: skip
            code = search(
                cands, queue, peer_ptr, peers, houses, full, lock_seg, lock_cells, locks,
                trail_cell, trail_mask, lvl_cell, lvl_rest, lvl_mark, conflicts, st, sols[p],
                budget,
            )  # fmt: skip
        found[p] = st[FOUND]
        counters[p, 0] = st[NODES]
        counters[p, 1] = st[BACKTRACKS]
        counters[p, 2] = 0 if code == BUDGET else 1
