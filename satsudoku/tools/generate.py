"""Puzzle generation: a random complete grid from a randomised search, clues read off it, then
top-down removal of givens (in symmetric orbits) and, with `minimal`, of rule instances, each
kept only when the puzzle would stop being unique without it.

The distribution is not uniform over puzzles: top-down removal in a random order stops at the
first minimal puzzle it meets, which favours puzzles with fewer clues than a uniform sample of
minimal puzzles has, and the grids come from a randomised search, not a uniform sampler.
Randomness comes only from random.Random(seed), and every verdict is exact, so a seed gives
the same puzzles on any machine.
"""

from __future__ import annotations

import gc
import importlib.util
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from satsudoku.backends import get_backend, unsupported
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.deadline import OutOfTime, check
from satsudoku.errors import PuzzleError, SatsudokuError
from satsudoku.grid import Cell, Grid, Shape
from satsudoku.options import (
    checked_int,
    checked_range,
    checked_seed,
    checked_timeout,
)
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import Rule, make_rule
from satsudoku.search.kernel import search_kernel
from satsudoku.tools.clues import READERS
from satsudoku.tools.minimal import Items, items_of
from satsudoku.tools.regions import random_regions

SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal")
MAX_ATTEMPTS = 100  # grids tried per puzzle before the clues are declared too weak
_GRID_NODES = 64  # node budget per cell for one randomised grid search before a restart
_GRID_RESTARTS = 50
_CHECK_EVERY = 64  # refutation nodes between readings of the clock
Stats = dict[str, int | float | str]


class GenerateError(SatsudokuError):
    """The request cannot be met (no grid exists, the clues never pin one down): a usage
    error, exit 2, as the options are what must change."""


@dataclass(frozen=True)
class Request:
    """What to generate: the board, the fixed rules (a diagonal), the rule types whose
    instances are read off each grid (killer cages), and how givens are removed."""

    shape: Shape
    rules: tuple[Rule, ...] = ()
    clues: tuple[str, ...] = ()
    symmetry: str = "none"
    minimal: bool = False  # also remove rule instances read off the grid
    givens: bool = True  # False: no givens at all, the clues alone
    seed: int = 0
    timeout: float | None = None  # seconds per puzzle
    rating: tuple[float, float] | None = None  # keep only puzzles `rate` puts in LO..HI
    jigsaw: bool = False  # random jigsaw regions of shape.size, drawn afresh for each grid

    def __post_init__(self) -> None:
        object.__setattr__(self, "seed", checked_seed(self.seed))  # frozen: set once
        object.__setattr__(self, "timeout", checked_timeout(self.timeout))
        object.__setattr__(self, "rating", checked_range(self.rating, "rating"))
        if self.symmetry not in SYMMETRIES:
            raise GenerateError(
                f"unknown symmetry {self.symmetry!r}; choose from {', '.join(SYMMETRIES)}"
            )
        unknown = [kind for kind in self.clues if kind not in READERS]
        if unknown:
            raise GenerateError(
                f"cannot read {unknown[0]!r} clues off a grid; readable: {', '.join(READERS)}"
            )
        if not self.givens and not self.clues:
            raise GenerateError(
                "--givens 0 needs clues read off the grid, e.g. --rule killer; "
                "without givens or clues every grid is a solution"
            )


@dataclass(frozen=True)
class Generated:
    """One generated puzzle (unique) with its solution."""

    puzzle: Puzzle
    solution: Grid
    attempts: int  # grids tried; more than 1 when the clues left several solutions
    stats: Stats = field(default_factory=dict)


_COLLECTED = False  # whether `_generated` has run its one collection after loading kernels


def generate(request: Request, count: int) -> Iterator[Generated]:
    """`count` unique puzzles, one at a time (each may raise OutOfTime past its timeout); a
    bad `count` is refused at once, before the first puzzle is asked for."""
    return _generated(request, checked_int(count, "count", least=0))


def _generated(request: Request, count: int) -> Iterator[Generated]:
    rng = random.Random(request.seed)
    _load_compiled_search(request)
    if request.rating is not None:  # rating runs the logic: its kernels, before any clock
        from satsudoku.logic.solver import load_compiled_kernels

        load_compiled_kernels()
    # Loading them left a full collection due (0.13-0.17 s over Numba's objects at load 8),
    # which otherwise fell inside the first puzzle's clock: `--timeout 0.2` made nothing.
    # Once per process: later calls find the kernels loaded (a collection each cost the
    # test suite's 25 generate tests 2 s).
    global _COLLECTED
    if not _COLLECTED:
        gc.collect()
        _COLLECTED = True
    for _ in range(count):
        yield generate_one(request, rng)


def generate_one(request: Request, rng: random.Random) -> Generated:
    """One unique puzzle from `rng`: grids are drawn until the clues pin one down."""
    start = time.perf_counter()
    deadline = None if request.timeout is None else start + request.timeout
    shape = request.shape
    no_grid = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        if request.jigsaw:
            shape = random_regions(request.shape.size, rng, deadline)
            try:  # few restarts: some drawn regions admit no grid, and another draw is cheap
                grid = complete_grid(shape, request.rules, rng, deadline, restarts=3)
            except GenerateError:
                no_grid += 1
                continue
        else:
            grid = complete_grid(shape, request.rules, rng, deadline)
        clue_rules = tuple(
            make_rule(READERS[kind](grid, shape, rng), shape) for kind in request.clues
        )
        givens = grid if request.givens else Grid.empty(shape.size)
        layout = "line" if not request.rules and not clue_rules else "document"
        full = Puzzle(shape, givens, request.rules + clue_rules, layout=layout)
        puzzle = _reduce(full, grid, request, rng, deadline)
        if puzzle is None:
            continue
        stats: Stats = {}
        if request.rating is not None:
            stats["rating"] = rating = rating_of(puzzle, deadline)
            if not request.rating[0] <= rating <= request.rating[1]:
                continue
        stats["time_s"] = time.perf_counter() - start
        return Generated(puzzle, grid, attempt, stats)
    if no_grid == MAX_ATTEMPTS:
        n = request.shape.size
        raise GenerateError(f"no grid found for {MAX_ATTEMPTS} random {n}x{n} jigsaw drawings")
    if request.rating is not None:
        low, high = request.rating
        raise GenerateError(f"no puzzle rated {low:g}..{high:g} in {MAX_ATTEMPTS} grids")
    raise GenerateError(
        f"no unique puzzle in {MAX_ATTEMPTS} grids: the {', '.join(request.clues)} clues read "
        "off a grid never pinned it down; keep the givens or add other clue types"
    )


def _load_compiled_search(request: Request) -> None:
    """Load (or compile) the `fast` kernel that `_other_solution_test` will use before any
    puzzle's clock starts: loading it took 0.5-2 s of the first puzzle's --timeout, so
    `generate --box 2x2 --timeout 1` made nothing (exit 2) on a busy machine."""
    if not request.givens or request.clues or importlib.util.find_spec("numba") is None:
        return  # removal by the SAT oracle or the bitmask Refuter: nothing compiled to load
    fast = get_backend("fast")
    if unsupported(fast, Puzzle.empty(request.shape, request.rules)) is None:
        fast.solve(Puzzle.empty(Shape(1, 1)), limit=1)


def rating_of(puzzle: Puzzle, deadline: float | None = None) -> float:
    """The SE-like rating of `satsudoku rate` (logic only, no machine figures); OutOfTime when
    `deadline` passes first: logic cut short rates 12.0, which --rating must not take for the
    puzzle's figure (a 16x16's logic can take longer than making it)."""
    from satsudoku.logic.rating import rate  # the logic solver only when a rating is asked for

    left = None if deadline is None else max(deadline - time.perf_counter(), 0.0)
    rated = rate(puzzle, machine=False, timeout=left)
    if rated.status == "timeout":
        raise OutOfTime
    return rated.rating


def complete_grid(
    shape: Shape,
    rules: Sequence[Rule],
    rng: random.Random,
    deadline: float | None = None,
    *,
    restarts: int = _GRID_RESTARTS,
) -> Grid:
    """A complete grid obeying `rules`, by the bitmask search with randomly ordered children;
    a search that exceeds its node budget restarts with a new seed (heavy tails).

    When every rule maps solutions to solutions under relabelling of the digits, any
    permutation of 1..n is the first row of some solution: the first row is drawn at once,
    which takes about half of the 9×9 search away.
    """
    n = shape.size
    empty = Puzzle.empty(shape, rules)
    if all(getattr(rule, "digit_symmetric", False) for rule in rules):
        first_row = rng.sample(range(1, n + 1), n)
        empty = replace(empty, givens=Grid(n, tuple(first_row) + (0,) * (n * n - n)))
    budget = _GRID_NODES * n * n
    for _ in range(restarts):
        check(deadline)
        backend = BitmaskBackend(max_nodes=budget, random_seed=rng.getrandbits(31))
        left = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
        result = backend.solve(empty, limit=1, timeout=left)
        if result.solutions:
            return result.solutions[0]
        if result.status is Status.UNSATISFIABLE:
            raise GenerateError(f"no complete {shape.describe()} grid obeys these rules")
        check(deadline)
    raise GenerateError(
        f"no complete {shape.describe()} grid found in {restarts} randomised searches "
        f"of {budget} nodes each"
    )


def orbit(cell: Cell, n: int, symmetry: str) -> tuple[Cell, ...]:
    """The cells `symmetry` maps `cell` to (itself included), sorted."""
    r, c = cell
    images = {cell}
    if symmetry == "rot180":
        images.add((n - 1 - r, n - 1 - c))
    elif symmetry == "rot90":
        images.update({(c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)})
    elif symmetry == "mirror":
        images.add((r, n - 1 - c))
    elif symmetry == "diagonal":
        images.add((c, r))
    return tuple(sorted(images))


def orbits(n: int, symmetry: str) -> list[tuple[Cell, ...]]:
    """Every cell's orbit once, row-major by first cell."""
    seen: set[Cell] = set()
    found = []
    for r in range(n):
        for c in range(n):
            if (r, c) not in seen:
                group = orbit((r, c), n, symmetry)
                seen.update(group)
                found.append(group)
    return found


def _reduce(
    puzzle: Puzzle,
    grid: Grid,
    request: Request,
    rng: random.Random,
    deadline: float | None,
) -> Puzzle | None:
    """The puzzle after greedy removal, or None when it is not unique to begin with."""
    if request.minimal and request.clues:
        # The plain search first: building the oracle (instances, guarded CNF) costs about
        # three times as much, and a drawing of clues without givens is often not unique.
        if not request.givens and not _is_unique(puzzle, deadline):
            return None
        return _reduce_with_instances(puzzle, request, rng, deadline)
    if not request.givens:  # nothing to remove: the clues must pin the grid by themselves
        return puzzle if _is_unique(puzzle, deadline) else None
    other = _other_solution_test(puzzle, grid, deadline)
    n = puzzle.size
    values = list(puzzle.givens.values)
    units = [[r * n + c for r, c in group] for group in orbits(n, request.symmetry)]
    rng.shuffle(units)
    for unit in units:
        trial = values.copy()
        for index in unit:
            trial[index] = 0
        if not other(trial, unit):
            values = trial
    return Puzzle(puzzle.shape, Grid(n, tuple(values)), puzzle.rules, layout=puzzle.layout)


def _is_unique(puzzle: Puzzle, deadline: float | None) -> bool:
    """One SAT search for two solutions (cages and sums are where SAT beats the bitmask)."""
    left = None if deadline is None else deadline - time.perf_counter()
    if left is not None and left <= 0:
        raise OutOfTime
    result = get_backend("sat").solve(puzzle, limit=2, timeout=left)
    if result.status is Status.UNKNOWN:
        raise OutOfTime
    return result.status is Status.UNIQUE


OtherTest = Callable[[list[int], Iterable[int]], bool]


def _other_solution_test(puzzle: Puzzle, grid: Grid, deadline: float | None) -> OtherTest:
    """Whether another solution exists: the compiled `fast` backend (two solutions looked for,
    ~0.1 ms a 9×9 test) when Numba is installed and the rules are all-different groups, else
    the bitmask `Refuter` (~1 ms)."""
    if importlib.util.find_spec("numba") is not None:
        fast = get_backend("fast")
        if unsupported(fast, puzzle) is None:

            def by_fast(givens: list[int], unit: Iterable[int]) -> bool:
                left = None if deadline is None else deadline - time.perf_counter()
                if left is not None and left <= 0:
                    raise OutOfTime
                trial = replace(puzzle, givens=Grid(puzzle.size, tuple(givens)))
                result = fast.solve(trial, limit=2, timeout=left)
                if result.status is Status.UNKNOWN:
                    raise OutOfTime
                return result.status is not Status.UNIQUE

            return by_fast
    return Refuter(puzzle, grid, deadline).other_solution


def _reduce_with_instances(
    puzzle: Puzzle, request: Request, rng: random.Random, deadline: float | None
) -> Puzzle | None:
    """Greedy removal over given orbits and the clue rules' instances together, by the SAT
    oracle of `minimal` (guard literals for instances, assumptions for givens)."""
    from satsudoku.tools.minimal_sat import SatOracle  # pysat only when instances are removed

    items = items_of(puzzle, rules=True, deadline=deadline)
    oracle = SatOracle(items, deadline)
    try:
        status, _ = oracle.verdict()
        if status is not Status.UNIQUE:
            return None
        units = _units(items, request)
        rng.shuffle(units)
        removed: frozenset[int] = frozenset()
        for unit in units:
            if oracle.still_unique(removed | unit):
                removed |= unit
    finally:
        oracle.close()
    return items.puzzle_without(removed)


def _units(items: Items, request: Request) -> list[frozenset[int]]:
    """What is removed at once: a given orbit, or one instance of a rule read off the grid
    (the fixed rules, such as a diagonal, are never removed)."""
    n = items.puzzle.size
    number = {cell: k for k, (cell, _) in enumerate(items.givens)}
    units = [
        frozenset(number[cell] for cell in group)
        for group in orbits(n, request.symmetry)
        if group[0] in number
    ]
    g, fixed = len(items.givens), len(request.rules)
    units += [frozenset((g + k,)) for k, inst in enumerate(items.instances) if inst.rule >= fixed]
    return units


class Refuter:
    """Searches for a solution that differs from the known one, by the bitmask kernel.

    Greedy removal only needs "is there a solution of these givens other than `solution`?"
    after removing cells `unit` from a puzzle known to be unique: any other solution then
    differs from `solution` inside `unit` (elsewhere it would solve the previous puzzle too),
    so each cell is one search with its solution digit ruled out, stopped at the first grid.
    """

    def __init__(self, puzzle: Puzzle, solution: Grid, deadline: float | None) -> None:
        self.kernel = search_kernel(puzzle)
        self.solution = solution.values
        self.deadline = deadline
        self.nodes = 0

    def other_solution(self, givens: Sequence[int], unit: Iterable[int]) -> bool:
        """True when some solution of `givens` differs from the known one in a cell of `unit`
        (all cells of `unit` must be empty in `givens`)."""
        kernel = self.kernel
        root = kernel.initial(givens)
        if root is None:
            raise PuzzleError("the known solution does not satisfy the givens")
        for index in unit:
            bit = kernel.bit[self.solution[index] - 1]
            mask = root[index] & ~bit
            if mask == root[index] or not kernel.open_bits(mask):
                continue  # placed by propagation: no other digit is possible there
            start = root.copy()
            start[index] = mask
            if mask & (mask - 1):
                dirty = kernel.house_bits[index]
            else:
                dirty = kernel.assign(start, index, mask)
            if dirty >= 0 and kernel.propagate(start, dirty) and self._any_solution(start):
                return True
        return False

    def _any_solution(self, root: list[int]) -> bool:
        """Depth-first search for one completion of `root`."""
        kernel = self.kernel
        assign, propagate, branch_cell = kernel.assign, kernel.propagate, kernel.branch_cell
        stack = [root]
        while stack:
            self.nodes += 1
            if self.nodes % _CHECK_EVERY == 0:
                check(self.deadline)
            cands = stack.pop()
            best = branch_cell(cands)
            if best < 0:
                return True
            mask = cands[best]
            while mask:
                bit = mask & -mask
                mask ^= bit
                child = cands.copy()
                dirty = assign(child, best, bit)
                if dirty >= 0 and propagate(child, dirty):
                    stack.append(child)
        return False
