"""h89's hunt for wrong verdicts in the bitmask referee's newest code, each part against an oracle
written here: `SumTable` (implied sums of up to 4 terms listed once, exact supports by big-int
ANDs, memoised per masks and shared by `_sum_table` across kernels), probed children reused
(`probe`'s `fresh`), restarts breaking ties by conflict scores ("heat"), and `_locked`'s early
exit with `_Segments.columns` (forced onto small boards here). No wrong answer was found; these
keep the cases that exercise the new paths (the 6x6 killers below narrow through a listed sum
at search nodes, the 9x9 wrong totals are refuted by one) with brute-force or SAT answers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from satsudoku.backends import bitmask
from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.backends.sat import SatBackend
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result, Status
from satsudoku.rules.classic import Diagonal
from satsudoku.rules.sums import Cage, Killer
from satsudoku.search import kernel as kernel_module
from satsudoku.search.kernel import _SumTableIdx, search_kernel
from satsudoku.search.sums import SumTable
from tests.conftest import puzzle_from_line

# --- SumTable against brute force -------------------------------------------------------------


def _brute_supports(
    n: int,
    bits: tuple[int, ...],
    weights: tuple[int, ...],
    total: int,
    apart: list[tuple[int, int]],
    opened: list[int],
) -> tuple[int, ...] | None:
    """Per position the digits (bits) some solution within `opened` gives it; None if none."""
    keep = [0] * len(weights)
    found = False
    domains = [[d for d in range(1, n + 1) if mask & bits[d - 1]] for mask in opened]
    for digits in itertools.product(*domains):
        if any(digits[a] == digits[b] for a, b in apart):
            continue
        if sum(w * d for w, d in zip(weights, digits, strict=True)) != total:
            continue
        found = True
        for k, d in enumerate(digits):
            keep[k] |= bits[d - 1]
    return tuple(keep) if found else None


def _table_cases(seed: int, count: int) -> Iterator[tuple[int, ...]]:
    """(n, solutions found, tables cut short, mismatches) per random table, 6 mask sets each:
    weights ±1 or from a pool with 0, negatives, repeats and large ones; totals reachable,
    at the bounds, one past them or anywhere near; masks empty, single, full or random;
    apart pairs in either order, sometimes twice; kernel-spread or plain bits; listing budgets
    large or tiny (a cut-short table must say so)."""
    rng = random.Random(seed)
    pool = [-3, -2, -1, 0, 1, 1, 2, 3, 5, -7, 10, 100, -100, 1000]
    for _ in range(count):
        n = rng.choice([4, 6, 9, 9, 16])
        size = rng.choice([1, 2, 3, 4, 4]) if n < 16 else rng.choice([1, 2, 3])
        width = n.bit_length() + 1
        spread = rng.random() < 0.7
        bits = tuple(1 << (d * width if spread else d) for d in range(n))
        if rng.random() < 0.4:
            weights = tuple(rng.choice([1, -1]) for _ in range(size))
        else:
            weights = tuple(rng.choice(pool) for _ in range(size))
        apart = [(a, b) for a in range(size) for b in range(a + 1, size) if rng.random() < 0.5]
        if rng.random() < 0.2:
            apart = [(b, a) for a, b in apart]
        if rng.random() < 0.1:
            apart += apart
        low = sum(min(w, w * n) for w in weights)
        high = sum(max(w, w * n) for w in weights)
        draw = rng.random()
        if draw < 0.6:
            total = sum(w * rng.randint(1, n) for w in weights)
        elif draw < 0.75:
            total = rng.choice([low, high, low - 1, high + 1])
        else:
            total = rng.randint(low - 3, high + 3)
        steps = rng.choice([1 << 20, rng.randint(0, 200)])
        table = SumTable(bits, weights, total, tuple(apart), steps)
        if not table.complete:
            yield n, 0, 1, 0
            continue
        full = sum(bits)
        solved = wrong = 0
        for _ in range(6):
            opened = []
            for _ in weights:
                q = rng.random()
                if q < 0.15:
                    opened.append(full)
                elif q < 0.25:
                    opened.append(bits[rng.randrange(n)])
                elif q < 0.28:
                    opened.append(0)
                else:
                    opened.append(sum(b for b in bits if rng.random() < 0.5))
            want = _brute_supports(n, bits, weights, total, apart, opened)
            first, again = table.supports(opened), table.supports(opened)  # again: memoised
            solved += want is not None
            wrong += first != want or again != want
        yield n, solved, 0, wrong


def test_sum_table_matches_brute_force() -> None:
    """150 tables, 900 mask sets: exact per-position supports, and None exactly when no
    solution is left (a wrong None would be a wrong 'unsatisfiable')."""
    rows = list(_table_cases(89, 150))
    assert sum(row[3] for row in rows) == 0
    assert sum(row[1] for row in rows) > 100  # solutions left in many mask sets
    assert sum(row[2] for row in rows) > 5  # and some listings cut short
    assert {row[0] for row in rows} == {4, 6, 9, 16}


@pytest.mark.slow
def test_sum_table_matches_brute_force_sweep() -> None:
    """4 seeds of 2,000 tables (h89 ran 124,000 mask sets this way, 3-4 s CPU per 3,000)."""
    for seed in range(4):
        assert sum(row[3] for row in _table_cases(seed, 2000)) == 0


def test_sum_table_memo_survives_clearing() -> None:
    """One 16x16 table (a - b = 3, a != b) asked about 4,300 mask sets: its per-position memo
    (4,096 entries) clears on the way and the answers stay exact (a keeps d when b may be
    d - 3, b keeps d when a may be d + 3)."""
    n, rng = 16, random.Random(5)
    bits = tuple(1 << (d * 6) for d in range(n))
    table = SumTable(bits, (1, -1), 3, ((0, 1),), 1 << 20)
    asked = [[sum(b for b in bits if rng.random() < 0.4) for _ in range(2)] for _ in range(4200)]
    for a, b in asked + asked[:100]:  # the first 100 again, after the memo cleared
        keep_a = sum(bits[d] for d in range(3, n) if a & bits[d] and b & bits[d - 3])
        keep_b = sum(bits[d] for d in range(n - 3) if b & bits[d] and a & bits[d + 3])
        assert table.supports([a, b]) == ((keep_a, keep_b) if keep_a else None)
    assert max(map(len, table.meets)) < 4096


# --- Killers against brute force and SAT ------------------------------------------------------


def _killer(n: int, box: tuple[int, int], spec: str, diagonal: bool = False) -> Puzzle:
    """A killer from 'RCRC..=total' items (row, column digits, 0-based; '?' for no total)."""
    cages = []
    for item in spec.split():
        cells, total = item.split("=")
        pairs = tuple((int(cells[k]), int(cells[k + 1])) for k in range(0, len(cells), 2))
        cages.append(Cage(pairs, None if total == "?" else int(total)))
    rules = (Killer(cages=tuple(cages)), *((Diagonal(),) if diagonal else ()))
    return Puzzle(Shape(*box), Grid.empty(n), rules)


def _brute_killer(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every solution of a 6x6 killer (cages, optional diagonals), by plain backtracking in
    reading order: houses and cages distinct, a cage's total checked at its last cell."""
    n, (rows, cols) = puzzle.size, (puzzle.shape.box_rows, puzzle.shape.box_cols)
    groups = [[r * n + c for c in range(n)] for r in range(n)]
    groups += [[r * n + c for r in range(n)] for c in range(n)]
    groups += [
        [(top + r) * n + left + c for r in range(rows) for c in range(cols)]
        for top in range(0, n, rows)
        for left in range(0, n, cols)
    ]
    ends: dict[int, list[tuple[list[int], int]]] = {}
    for rule in puzzle.rules:
        if isinstance(rule, Diagonal):
            groups += [[i * n + i for i in range(n)], [(n - 1 - i) * n + i for i in range(n)]]
        elif isinstance(rule, Killer):
            for cage in rule.cages:
                cells = sorted(r * n + c for r, c in cage.cells)
                groups.append(cells)
                if cage.total is not None:
                    ends.setdefault(cells[-1], []).append((cells, cage.total))
    before = [sorted({j for g in groups if i in g for j in g if j < i}) for i in range(n * n)]
    values = [0] * (n * n)
    found: set[tuple[int, ...]] = set()

    def place(i: int) -> None:
        if i == n * n:
            found.add(tuple(values))
            return
        for d in range(1, n + 1):
            if any(values[j] == d for j in before[i]):
                continue
            values[i] = d
            if all(sum(values[j] for j in cells) == t for cells, t in ends.get(i, ())):
                place(i + 1)
        values[i] = 0

    place(0)
    return found


# 6x6 killers (h89's generator: a random grid, random connected cages over 60-80 % of it):
# brute-force counts, and in each a listed implied sum narrows cells at search nodes.
SIX = [
    ("04051415=? 010203=10 5051=3 45=5 1213=? 242535=11 43445253=14 00101120=16", True, 4),
    ("1020=10 031314=12 010211=6 444555=12 3132=? 25=3 304041=10 1222=7 23333435=14", False, 12),
    ("50=4 242534=12 3343=7 51=3 21=5 22324252=17 445354=11 354555=10 3031=3 0212=4", False, 30),
    (
        "2324=7 03=6 404142=11 1213=9 5354=5 55=6 0010=6 3444=10 31=4 01=3 2535=? 505152=10",
        False,
        2,
    ),
    (
        "12212232=11 4353=8 11=6 05=6 0010203031=16 52=4 01=4 44=4 4041425051=17 02030413=13",
        False,
        24,
    ),
]

# 9x9 killers with one wrong cage total (h89's generator; each found unsatisfiable with a
# listed sum refuting some node), and the total that makes each satisfiable (SAT counts).
NINE = [
    (
        "3536444546=23 0102111221=25 6364=15 7172808182=33 4151=8 17252627=23 475657=11 15=3"
        " 03040513=22 73=5 68=5 52=9 37=9 6777788788=24 23243334=16 74=1 48=7 38=8 0010=5"
        " 83848586=15 2232424353=29 5455657576=22",
        "475657=11",
        "475657=10",
        2,
    ),
    (
        "1516=7 5051=10 8081=9 60616271=25 2636=13 5657=10 728283=15 17182728=23 58=8 84=9"
        " 374748=13 24=3 0506=17 5363=15 52=2 1112=12 04131423=18 73747576=17 03=1 02=7"
        " 212231=13 43=3 001020=14 68=4 323334=13 7888=15 70=1 77858687=19",
        "2636=13",
        "2636=15",
        4,
    ),
    (
        "5363=13 2737=13 05152535=15 88=5 54=1 5556656676=27 263646=15 171828=11 73=4 08=7"
        " 11=1 58=8 0203=7 616271=18 30=7 7787=11 425152=12 2333=9 0001102021=30 57676878=19"
        " 4041=13 72=8 04121314=27 5060=7 8384=? 3132=10 6474758586=26 38=? 70808182=15"
        " 4748=10 2434434445=28",
        "4748=10",
        "4748=4",
        6,
    ),
]

# Knobs that send the search down each new path on small boards.
MODES: dict[str, dict[tuple[object, str], object]] = {
    "default": {},
    "no probing": {(bitmask, "_PROBE_DEPTH"): -1},
    "probing deep": {(bitmask, "_PROBE_DEPTH"): 100, (bitmask, "_PROBE_WIDEST_BELOW"): 3},
    "restarts, heat": {(bitmask, "_RESTART_FROM"): 1, (bitmask, "_RESTART_UNIT"): 1},
    "locked everywhere": {(bitmask, "_LOCKED_FROM"): 1, (kernel_module, "_LOCKED_FROM"): 1},
}


@contextmanager
def _mode(monkeypatch: pytest.MonkeyPatch, name: str) -> Iterator[None]:
    with monkeypatch.context() as patch:
        for (module, attr), value in MODES[name].items():
            patch.setattr(module, attr, value)
        yield


def _grids(result: Result) -> set[tuple[int, ...]]:
    return {grid.values for grid in result.solutions}


def _verdict(count: int, limit: int) -> tuple[Status, int]:
    """What a search for up to `limit` solutions must say of a puzzle with `count`."""
    if count == 0:
        return Status.UNSATISFIABLE, 0
    if limit == 1:
        return Status.SOLVED, 1
    return (Status.UNIQUE if count == 1 else Status.MULTIPLE), min(count, limit)


@pytest.mark.parametrize(
    "mode", [m if m != "probing deep" else pytest.param(m, marks=pytest.mark.slow) for m in MODES]
)
def test_six_by_six_killers_every_mode(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    """All solutions (pinned brute-force counts) in every mode, limits 1-3 in the default one
    and 2 in the others."""
    backend = BitmaskBackend()
    with _mode(monkeypatch, mode):
        for spec, diagonal, count in SIX:
            puzzle = _killer(6, (2, 3), spec, diagonal)
            every = backend.solve(puzzle, limit=100)
            assert (every.status, every.count) == (Status.MULTIPLE, count), spec
            for limit in (1, 2, 3) if mode == "default" else (2,):
                result = backend.solve(puzzle, limit=limit)
                assert (result.status, len(result.solutions)) == _verdict(count, limit), spec
                assert _grids(result) <= _grids(every)


@pytest.mark.slow
def test_six_by_six_killers_against_brute_force() -> None:
    """The pinned counts are the brute force's, and the grids are the same (~3 s CPU)."""
    for spec, diagonal, count in SIX:
        puzzle = _killer(6, (2, 3), spec, diagonal)
        grids = _brute_killer(puzzle)
        assert len(grids) == count
        assert _grids(BitmaskBackend().solve(puzzle, limit=100)) == grids


@pytest.mark.parametrize("mode", ["default", "restarts, heat"])
def test_wrong_cage_total_is_unsatisfiable_and_the_right_one_is_not(
    monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Wrong and right totals solved in turn in one process: the listed sums and their
    memos (per kernel, per masks; tables shared across kernels) never carry one puzzle's
    answer into the other's, whose masks largely agree."""
    backend = BitmaskBackend()
    with _mode(monkeypatch, mode):
        for spec, wrong, right, count in NINE:
            bad = _killer(9, (3, 3), spec)
            good = _killer(9, (3, 3), spec.replace(wrong, right))
            for puzzle, want in ((bad, 0), (good, count), (bad, 0)):
                result = backend.solve(puzzle, limit=10)
                assert (result.status, result.count) == (_verdict(want, 10)[0], want)


def test_nine_by_nine_answers_are_sat_answers() -> None:
    """The pinned 9x9 counts are SAT's (the bitmask's oracle here)."""
    sat = SatBackend()
    for spec, wrong, right, count in NINE:
        assert sat.solve(_killer(9, (3, 3), spec), limit=10).status is Status.UNSATISFIABLE
        result = sat.solve(_killer(9, (3, 3), spec.replace(wrong, right)), limit=10)
        assert result.count == count


def _random_killer(seed: int) -> Puzzle:
    """A 6x6 killer over a shuffled grid: connected cages of distinct digits over 90-100 % of
    the cells, a few without a total, one total moved in every third puzzle."""
    rng = random.Random(seed)
    rows = [r for band in rng.sample([0, 1, 2], 3) for r in rng.sample([2 * band, 2 * band + 1], 2)]
    cols = [
        c for stack in rng.sample([0, 1], 2) for c in rng.sample(range(3 * stack, 3 * stack + 3), 3)
    ]
    digits = rng.sample(range(1, 7), 6)
    grid = [digits[(3 * r + r // 2 + c) % 6] for r in rows for c in cols]
    free, cages = set(range(36)), []
    for start in rng.sample(range(36), 36):
        if start not in free:
            continue
        cells, target = [start], rng.randint(1, 5)
        free.discard(start)
        while len(cells) < target:
            near = [
                j
                for i in cells
                for j in (i - 6, i + 6, i - 1 if i % 6 else -1, i + 1 if i % 6 < 5 else -1)
                if j in free and grid[j] not in {grid[k] for k in cells}
            ]
            if not near:
                break
            cells.append(rng.choice(near))
            free.discard(cells[-1])
        cages.append(cells)
    cages = cages[: max(1, round(len(cages) * rng.choice([0.9, 1.0])))]
    totals: list[int | None] = [sum(grid[i] for i in cells) for cells in cages]
    for k in rng.sample(range(len(cages)), min(len(cages), rng.choice([0, 0, 1]))):
        totals[k] = None
    if seed % 3 == 0:
        k = max(range(len(cages)), key=lambda k: (len(cages[k]), k))
        m = len(cages[k])
        totals[k] = rng.choice([t for t in range(m * (m + 1) // 2, m * (13 - m) // 2 + 1)])
    rule = Killer(
        cages=tuple(
            Cage(tuple(divmod(i, 6) for i in c), t) for c, t in zip(cages, totals, strict=True)
        )
    )
    return Puzzle(Shape(2, 3), Grid.empty(6), (rule,))


@pytest.mark.slow
def test_random_six_by_six_killers_against_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """60 random 6x6 killers (20 with a moved total) in four modes: the count and the grids
    are the brute force's, and a search for 2 says what those grids say."""
    backend, verdicts = BitmaskBackend(), set()
    for seed in range(60):
        puzzle = _random_killer(seed)
        grids = _brute_killer(puzzle)
        verdicts.add(_verdict(len(grids), 2)[0])
        for mode in ("default", "no probing", "restarts, heat", "locked everywhere"):
            with _mode(monkeypatch, mode):
                every = backend.solve(puzzle, limit=10_000)
                two = backend.solve(puzzle, limit=2)
            assert (every.count, _grids(every)) == (len(grids), grids), (seed, mode)
            assert (two.status, len(two.solutions)) == _verdict(len(grids), 2), (seed, mode)
    assert verdicts == {Status.UNSATISFIABLE, Status.UNIQUE, Status.MULTIPLE}


def _peers(puzzle: Puzzle, a: int, b: int) -> bool:
    """Cells a and b must differ: a row, column, box or cage holds both (no diagonals here)."""
    n, rows, cols = puzzle.size, puzzle.shape.box_rows, puzzle.shape.box_cols
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    if ra == rb or ca == cb or (ra // rows, ca // cols) == (rb // rows, cb // cols):
        return True
    cages = [c.cells for rule in puzzle.rules if isinstance(rule, Killer) for c in rule.cages]
    return any((ra, ca) in cells and (rb, cb) in cells for cells in cages)


def test_listed_sum_steps_match_brute_force_and_their_memo() -> None:
    """Every listed implied sum of the 9x9 killers, stepped on 40 mask sets each (drawn from
    three masks a cell, so sets recur and differ in one cell): the step keeps exactly what
    brute force over the sum keeps (or fails when nothing is left), and its per-masks memo
    answers as a fresh step does."""
    rng = random.Random(89)
    steps = failed = 0
    for spec, *_ in NINE:
        puzzle = _killer(9, (3, 3), spec)
        kernel = search_kernel(puzzle)
        root = kernel.initial(puzzle.givens.values)
        assert root is not None
        sums = [(get, index) for get, _, index in kernel.derived if isinstance(index, _SumTableIdx)]
        assert sums
        for get, index in sums:
            cells, weights = index.constraint.cells, index.constraint.weights
            apart = [(a, b) for a in range(len(cells)) for b in range(a + 1, len(cells))]
            apart = [(a, b) for a, b in apart if _peers(puzzle, cells[a], cells[b])]
            assert list(index.apart) == apart
            choices = [
                [sum(rng.sample(kernel.bit, rng.randint(2, 5))) for _ in range(3)] for _ in cells
            ]
            for _ in range(40):
                cands = root.copy()
                for i, options in zip(cells, choices, strict=True):
                    cands[i] = rng.choice(options)
                fresh, masks = cands.copy(), get(cands)
                got = kernel._sum_table(cands, index, masks)
                alone = _SumTableIdx(index.constraint, tuple(apart))  # an empty memo
                assert (got, cands) == (kernel._sum_table(fresh, alone, masks), fresh)
                total = index.constraint.total
                want = _brute_supports(9, kernel.bit, weights, total, apart, list(masks))
                steps += 1
                failed += want is None
                if want is None:
                    assert got == -1
                elif all(m & (m - 1) for m in want):  # no cell left single: no cascade
                    assert got >= 0 and [cands[i] for i in cells] == list(want)
    assert steps > 1000 and 100 < failed < steps - 100


# --- Restarts and heat on 16x16 and 25x25 (../shared/data, Lewis's instances: SOURCES.md) -------


def _with_given(line: str, cell: int, digit: int) -> Puzzle:
    """A band line's puzzle with `cell` given as `digit` (it was blank, or held another)."""
    values = list(puzzle_from_line(line).givens.values)
    assert values[cell] != digit
    values[cell] = digit
    n = int(len(values) ** 0.5)
    return Puzzle(Shape.for_size(n), Grid(n, tuple(values)))


def test_sixteen_restarts_with_heat_keep_unsat_and_caps(
    monkeypatch: pytest.MonkeyPatch, shared_data: Path
) -> None:
    """16x16-lewis-general.txt line 926 with r13c5 = 6: unsatisfiable (SAT), though root
    propagation does not see it. With restarts after every failure: unsatisfiable at limits 1
    and 2; a node cap below the refutation answers unknown, never a verdict."""
    line = (shared_data / "16x16-lewis-general.txt").read_text().splitlines()[925]
    puzzle = _with_given(line, 196, 6)
    assert SatBackend().solve(puzzle, limit=2).status is Status.UNSATISFIABLE
    monkeypatch.setattr(bitmask, "_RESTART_FROM", 1)
    monkeypatch.setattr(bitmask, "_RESTART_UNIT", 1)
    for limit in (1, 2):
        result = BitmaskBackend().solve(puzzle, limit=limit)
        assert result.status is Status.UNSATISFIABLE and int(result.stats.get("restarts", 0)) >= 1
    capped = BitmaskBackend().solve(puzzle, limit=2, max_nodes=2)
    assert capped.status is Status.UNKNOWN and capped.stats["stopped"] == "node limit"


@pytest.mark.slow
def test_twenty_five_wrong_given_refuted_through_restarts(
    monkeypatch: pytest.MonkeyPatch, shared_data: Path
) -> None:
    """25x25-lewis-general.txt line 979 (45 % given) with r9c2 = 2 (it holds 23): SAT finds
    no solution. The bitmask refutes it at the root since naked and hidden pairs run on 25x25
    (before them: 754 nodes, 2 restarts). With the in-search locked candidates and pairs off
    and a restart after every failure it still refutes it through restarts (180 nodes, 30
    restarts); capped or timed out before that, it says unknown."""
    line = (shared_data / "25x25-lewis-general.txt").read_text().splitlines()[978]
    puzzle = _with_given(line, 201, 2)
    assert SatBackend().solve(puzzle, limit=2).status is Status.UNSATISFIABLE
    assert BitmaskBackend().solve(puzzle, limit=2).status is Status.UNSATISFIABLE
    monkeypatch.setattr(kernel_module, "_LOCKED_FROM", 100)
    monkeypatch.setattr(bitmask, "_RESTART_FROM", 1)
    monkeypatch.setattr(bitmask, "_RESTART_UNIT", 1)
    for limit in (1, 2):
        result = BitmaskBackend().solve(puzzle, limit=limit)
        assert result.status is Status.UNSATISFIABLE and int(result.stats.get("restarts", 0)) >= 1
    capped = BitmaskBackend().solve(puzzle, limit=2, max_nodes=20)
    assert capped.status is Status.UNKNOWN and capped.stats["stopped"] == "node limit"
    timed = BitmaskBackend().solve(puzzle, limit=2, timeout=0.002)
    assert timed.status is Status.UNKNOWN and timed.stats["stopped"] == "timeout"
