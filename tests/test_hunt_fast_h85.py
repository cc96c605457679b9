"""The fast backend against a brute force written here, on small puzzles whose search must
backtrack (minimal puzzles, one given fewer, one wrong given) with every rule it takes: solve
with restarts forced on (each failed child ends a run; later runs relabel the digits), solve_many,
count_solutions, node caps and timeouts. Each check is also run on deliberately broken copies of
the backend, which it must catch: a check that cannot fail would prove nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import fast as fast_module
from satsudoku.cli import main
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result, Status
from satsudoku.rules import make_rule
from satsudoku.verify import violations

pytest.importorskip("numba")

FAST = fast_module.FastBackend()
CAP = 9  # the brute force stops here: more than any limit below + 1
# A 6x6 jigsaw: six regions of six cells, labelled by row.
JIGSAW = ("AAABBB", "AACCBB", "ACCCBD", "EECFDD", "EEFFFD", "EEFFDD")
KING = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
KNIGHT = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]


@dataclass(frozen=True)
class Case:
    """A puzzle, the cell groups that must differ, the digits a cell allows, and its truth."""

    puzzle: Puzzle
    groups: tuple[tuple[int, ...], ...]
    allowed: dict[int, frozenset[int]]
    name: str


def _groups(shape: Shape, kinds: tuple[str, ...], extra: list[list[int]]) -> list[list[int]]:
    """The all-different groups, derived from the geometry here, not from the rules' code."""
    n = shape.size
    groups = [[r * n + c for c in range(n)] for r in range(n)]
    groups += [[r * n + c for r in range(n)] for c in range(n)]
    groups += [[r * n + c for r, c in region] for region in shape.regions()]
    br, bc = shape.box_rows, shape.box_cols
    if "diagonal" in kinds:
        groups += [[i * n + i for i in range(n)], [(n - 1 - i) * n + i for i in range(n)]]
    if "windoku" in kinds:  # box-sized windows one in from the edges, one apart
        for top in range(1, n - br, br + 1):
            for left in range(1, n - bc, bc + 1):
                groups.append([(top + i) * n + left + j for i in range(br) for j in range(bc)])
    if "disjointgroups" in kinds:  # the same position in every box
        for i in range(br):
            for j in range(bc):
                groups.append(
                    [(t + i) * n + c + j for t in range(0, n, br) for c in range(0, n, bc)]
                )
    for kind, moves in (("antiking", KING), ("antiknight", KNIGHT)):
        if kind in kinds:
            for r in range(n):
                for c in range(n):
                    groups += [
                        [r * n + c, (r + dr) * n + c + dc]
                        for dr, dc in moves
                        if 0 <= r + dr < n and 0 <= c + dc < n
                    ]
    return groups + extra


def brute(case: Case) -> tuple[list[tuple[int, ...]], bool]:
    """Up to CAP solutions by plain backtracking (fewest candidates first), and whether that is
    all of them."""
    n = case.puzzle.size
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for group in case.groups:
        for a in group:
            peers[a].update(b for b in group if b != a)
    values = list(case.puzzle.givens.values)
    every = frozenset(range(1, n + 1))
    for i, v in enumerate(values):
        if v and (v not in case.allowed.get(i, every) or any(values[j] == v for j in peers[i])):
            return [], True
    found: list[tuple[int, ...]] = []

    def search() -> bool:
        best, options = -1, every
        for i in range(n * n):
            if not values[i]:
                here = case.allowed.get(i, every) - {values[j] for j in peers[i]}
                if best < 0 or len(here) < len(options):
                    best, options = i, here
        if best < 0:
            found.append(tuple(values))
            return len(found) >= CAP
        for digit in sorted(options):
            values[best] = digit
            if search():
                return True
        values[best] = 0
        return False

    return found, not search()


def _cases() -> list[Case]:
    """Puzzles over every rule the backend takes, cut down from random grids until minimal
    (the fast backend is only the generator's oracle: the truth is the brute force's)."""
    rng = random.Random(85)
    plans: list[tuple[Shape, tuple[str, ...]]] = [
        (Shape(2, 3), ()),
        (Shape.jigsaw(JIGSAW), ("extra", "parity")),
        (Shape(2, 3), ("diagonal", "parity")),
        (Shape(2, 4), ("windoku",)),
        (Shape(2, 4), ("disjointgroups", "extra")),
        (Shape(3, 3), ("antiknight",)),
        (Shape(2, 3), ("antiking", "extra", "parity")),
        (Shape(2, 4), ("diagonal",)),
        (Shape(2, 2), ("windoku", "parity")),
        (Shape(2, 4), ("antiknight", "parity")),
    ]
    cases = []
    for shape, kinds in plans * 3:  # three draws of each
        n = shape.size
        specs: list[dict[str, Any]] = [{"type": k} for k in kinds if k not in ("extra", "parity")]
        extra = []
        if "extra" in kinds:
            cells = rng.sample(range(n * n), n - 1)
            extra.append(cells)
            specs.append({"type": "extraregion", "cells": [[i // n + 1, i % n + 1] for i in cells]})
        rules = tuple(make_rule(spec, shape) for spec in specs)
        grid = FAST.solve(Puzzle.empty(shape, rules), limit=1).solution
        assert grid is not None
        relabel = list(range(1, n + 1))
        rng.shuffle(relabel)
        solution = [relabel[v - 1] for v in grid.values]
        allowed: dict[int, frozenset[int]] = {}
        if "parity" in kinds:  # odd and even cells: domains, which a relabelled run must map
            for i in rng.sample(range(n * n), n):
                allowed[i] = frozenset(d for d in range(1, n + 1) if d % 2 == solution[i] % 2)
            for parity, name in ((1, "odd"), (0, "even")):
                at = [[i // n + 1, i % n + 1] for i in allowed if solution[i] % 2 == parity]
                rules = (*rules, make_rule({"type": name, "cells": at}, shape))
        groups = tuple(tuple(g) for g in _groups(shape, kinds, extra))
        values = list(solution)
        # Remove givens while the puzzle stays unique; a 9x9 keeps 30 (its minimal puzzles cost
        # the brute force seconds, without hidden singles).
        for i in rng.sample(range(n * n), n * n):
            if n == 9 and sum(map(bool, values)) <= 30:
                break
            values[i], kept = 0, values[i]
            trial = Puzzle(shape, Grid(n, tuple(values)), rules)
            if FAST.solve(trial, limit=2).status is not Status.UNIQUE:
                values[i] = kept
        fewer = list(values)
        fewer[rng.choice([i for i in range(n * n) if values[i]])] = 0
        wrong = list(values)
        i = rng.choice([i for i in range(n * n) if not values[i]])
        wrong[i] = rng.choice([d for d in range(1, n + 1) if d != solution[i]])
        for label, cut in (("minimal", values), ("one fewer", fewer), ("one wrong", wrong)):
            puzzle = Puzzle(shape, Grid(n, tuple(cut)), rules)
            cases.append(Case(puzzle, groups, allowed, f"{n}x{n} {kinds} {label}"))
    return cases


@cache
def _data() -> list[tuple[Case, list[tuple[int, ...]], bool]]:
    """Each case with its brute-force solutions and whether they are all (built once, when a
    test first asks: collecting the module costs nothing)."""
    return [(case, *brute(case)) for case in _cases()]


def _values(result: Result) -> set[tuple[int, ...]]:
    return {grid.values for grid in result.solutions}


@contextmanager
def _restarts_everywhere() -> Iterator[None]:
    """Restarts on these small boards, each failed child ending a run, the cutoff read after
    every node."""
    saved = fast_module._RESTART_FROM, fast_module._RESTART_UNIT, fast_module._WORK_PER_CALL
    fast_module._RESTART_FROM, fast_module._RESTART_UNIT, fast_module._WORK_PER_CALL = 1, 1, 1
    try:
        yield
    finally:
        (fast_module._RESTART_FROM, fast_module._RESTART_UNIT, fast_module._WORK_PER_CALL) = saved


def _expected(count: int, complete: bool, limit: int) -> tuple[Status, int, bool]:
    """Status, grids and exhaustion a solve with `limit` must report, given the truth."""
    if complete and count == 0:
        return Status.UNSATISFIABLE, 0, True
    if limit == 1:
        return Status.SOLVED, 1, False  # one grid asked for: the tree is never finished
    status = Status.UNIQUE if complete and count == 1 else Status.MULTIPLE
    return status, min(limit, count), complete and count < limit


def problems() -> Iterator[str]:
    """Each disagreement between the fast backend and the brute force, over all the cases."""
    restarts = 0
    for case, truth, complete in _data():
        real = set(truth)
        for limit in (1, 2, 3, 7):
            status, grids, exhausted = _expected(len(truth), complete, limit)
            try:
                with _restarts_everywhere():
                    result = FAST.solve(case.puzzle, limit=limit)
            except BackendBugError as exc:  # a grid breaking a rule, or found twice
                yield f"{case.name} limit {limit}: {exc}"
                continue
            restarts += int(result.stats.get("restarts", 0))
            got = (result.status, len(result.solutions), result.exhausted)
            if got != (status, grids, exhausted) or complete and not _values(result) <= real:
                yield f"{case.name} limit {limit}: {got} != {(status, grids, exhausted)}"
            for cut in ({"max_nodes": 3}, {"timeout": 1e-4}):
                early = FAST.solve(case.puzzle, limit=limit, **cut)
                if (
                    early.status not in (Status.UNKNOWN, status)
                    or complete
                    and not _values(early) <= real
                ):
                    yield f"{case.name} limit {limit} {cut}: {early.status}"
        for count_limit in (None, 1, 2, 7) if complete else (1, 2, 7):
            counted = fast_module.count_solutions(case.puzzle, limit=count_limit)
            want = len(truth) if count_limit is None else min(len(truth), count_limit + 1)
            finished = count_limit is None or len(truth) <= count_limit
            witnesses = {grid.values for grid in counted.witnesses}
            if (
                counted.count != want
                or (complete and finished and not counted.complete)
                or (counted.complete and not complete)
                or complete
                and not witnesses <= real
                or len(witnesses) != min(2, want)
            ):
                yield f"{case.name} count limit {count_limit}: {counted}"
    for limit in (1, 2, 7):
        batch = list(FAST.solve_many([case.puzzle for case, _, _ in _data()], limit=limit))
        for (case, truth, complete), result in zip(_data(), batch, strict=True):
            status, grids, _ = _expected(len(truth), complete, limit)
            if (result.status, len(result.solutions)) != (status, grids):
                yield f"{case.name} solve_many limit {limit}: {result.status}"
    if restarts < 100:  # else these puzzles no longer exercise relabelled runs
        yield f"only {restarts} restarts"


def test_the_cases_cover_every_verdict() -> None:
    """Unsatisfiable, unique and several-solution puzzles, each rule, all checked by verify."""
    counts = {len(truth) if complete else CAP for _, truth, complete in _data()}
    assert {0, 1} <= counts and max(counts) >= 3
    for case, truth, _ in _data():
        for values in truth[:2]:  # the brute force's groups are the rules' (verify agrees)
            assert violations(case.puzzle, Grid(case.puzzle.size, values)) == []


def test_fast_agrees_with_the_brute_force() -> None:
    assert list(problems()) == []


def _identity_relabelling(masks: Any, order: Any) -> Any:
    return masks.copy()  # a relabelled run keeps the old domains: odd/even cells go wrong


def _cut_short_is_exhausted(runs: Any, *args: Any) -> str:
    end: str = _RUN(runs, *args)
    return "exhausted" if end == "cutoff" else end  # a cut-short run taken for the whole tree


def _drop_a_grid(runs: Any, rows: Any) -> None:
    _COUNT(runs, rows[1:] if len(rows) > 2 else rows)  # a counted call loses a grid


_RUN = fast_module._Runs.run
_COUNT = fast_module._Runs._count
MUTANTS: dict[str, tuple[Any, str, Callable[..., Any]]] = {
    "domains not relabelled": (fast_module, "_relabelled", _identity_relabelling),
    "a cut-short run claims the whole tree": (fast_module._Runs, "run", _cut_short_is_exhausted),
    "counting drops grids": (fast_module._Runs, "_count", _drop_a_grid),
}


@pytest.mark.parametrize("mutant", MUTANTS)
def test_the_check_catches_a_broken_backend(mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    owner, name, broken = MUTANTS[mutant]
    monkeypatch.setattr(owner, name, broken)
    assert next(problems(), None) is not None  # the first disagreement is enough


@pytest.mark.parametrize("limit", [None, 1, 2, 7])
def test_count_command_on_the_fast_backend_says_the_brute_force_count(
    limit: int | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`count --backend fast` prints the exact count, or '>= K (limit reached)' when there are
    more than K, on the classic cases (6x6 lines) and the empty 4x4."""
    plain = [
        (case, truth) for case, truth, complete in _data() if complete and not case.puzzle.rules
    ]
    assert {len(truth) for _, truth in plain} >= {0, 1, 2}
    path = tmp_path / "puzzles.txt"
    lines = ["".join(str(v) if v else "." for v in case.puzzle.givens.values) for case, _ in plain]
    path.write_text("\n".join([*lines, "." * 16]) + "\n")  # and the empty 4x4: 288 grids
    flags = [] if limit is None else ["--limit", str(limit)]
    assert main(["count", str(path), "--backend", "fast", *flags]) == 0
    want = [
        str(len(truth)) if limit is None or len(truth) <= limit else f">= {limit} (limit reached)"
        for _, truth in [*plain, (None, range(288))]
    ]
    assert capsys.readouterr().out.split("\n")[:-1] == want


@pytest.mark.parametrize("backend", ["fast", "bitmask"])
def test_a_count_record_lists_no_more_grids_than_it_counts(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`count --limit 1 --json` on the empty 4x4 said 'solved' and 'at_least': 1 beside two
    grids (the walk's second, found to tell '1' from '>= 1')."""
    path = tmp_path / "empty.txt"
    path.write_text("." * 16 + "\n")
    for limit, status in ((1, "solved"), (2, "multiple")):
        argv = ["count", str(path), "--backend", backend, "--limit", str(limit), "--json"]
        assert main(argv) == 0
        record = json.loads(capsys.readouterr().out)
        assert (record["status"], record["at_least"], record["count"]) == (status, limit, None)
        assert len(record["solutions"]) == limit
