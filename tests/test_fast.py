"""The compiled `fast` backend: known answers, agreement with the bitmask reference, limits.

The kernel compiles once per machine (cached in ~/.cache/satsudoku/numba), so only the first
test of the first run pays for it; the module shares one backend instance.
"""

from __future__ import annotations

import json
import os
import stat
import time
import tomllib
from itertools import islice
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the fast backend needs numba: pip install 'satsudoku[fast]'")

import numpy as np  # noqa: E402

from satsudoku.backends import available, backend_names, get_backend  # noqa: E402
from satsudoku.backends import fast as fast_module  # noqa: E402
from satsudoku.backends import fast_kernel as kernel  # noqa: E402
from satsudoku.backends.bitmask import BitmaskBackend  # noqa: E402
from satsudoku.backends.fast import FastBackend, build_structure  # noqa: E402
from satsudoku.cli import main  # noqa: E402
from satsudoku.crosscheck import CrossCheckBackend  # noqa: E402
from satsudoku.errors import UnsupportedPuzzleError  # noqa: E402
from satsudoku.grid import Grid, Shape  # noqa: E402
from satsudoku.io import iter_puzzles, read_puzzles  # noqa: E402
from satsudoku.puzzle import Puzzle  # noqa: E402
from satsudoku.result import Status  # noqa: E402
from satsudoku.verify import is_solution  # noqa: E402
from tests.conftest import BUNDLED, REPO, grid_from_line, puzzle_from_line, referee  # noqa: E402

fast = FastBackend()
reference = BitmaskBackend()
FAMILY_MODELS = [
    REPO / "models" / path
    for path in (
        "classic/empty-4x4.toml",
        "classic/empty-6x6-first-row.toml",
        "classic/ai-escargot.toml",
        "classic/acwing-169-16x16.json",
        "variants/groups/jigsaw-6x6.json",
        "variants/groups/windoku-6x6.json",
        "variants/groups/extraregion-6x6.json",
        "variants/groups/disjointgroups-6x6.json",
        "variants/chess/antiking-6x6.json",
        "variants/chess/antiknight-6x6.json",
        "x-sudoku/diagonal-sample.json",
        "variants/real/jigsaw.json",
        "variants/real/jigsaw-16x16.json",
        "variants/real/x-sudoku-16x16.json",
    )
]


def test_registered_as_a_partial_backend() -> None:
    assert "fast" in backend_names() and "fast" in available(partial=True)
    assert "fast" not in available()  # it refuses most variants: not in every-backend tests
    assert isinstance(get_backend("fast"), FastBackend)


def test_empty_4x4_has_288_grids() -> None:
    result = fast.solve(Puzzle.empty(Shape(2, 2)), limit=300)
    assert result.status is Status.MULTIPLE and result.exhausted and result.count == 288


def test_tdoku_labelled_solution_counts_are_reproduced() -> None:
    """43 puzzles with exact counts 0, 1 (with solution) and 3..847, one batch call."""
    lines = (BUNDLED / "tdoku-test-puzzles.labeled.txt").read_text().splitlines()
    rows = [line.split(":") for line in lines]
    puzzles = [puzzle_from_line(puzzle_text) for puzzle_text, *_ in rows]
    for (text, count, *solution), result in zip(
        rows, fast.solve_many(puzzles, limit=1000), strict=True
    ):
        assert result.exhausted and result.count == int(count), text
        if int(count) == 0:
            assert result.status is Status.UNSATISFIABLE
        if solution:
            assert result.solution == grid_from_line(solution[0])


def test_counting_lists_nothing_and_matches_the_known_counts() -> None:
    """The compiled count (count --backend fast): exact counts of the tdoku sample and an empty
    4x4, two checked witnesses, and 'at least' past a limit, node cap or timeout."""
    lines = (BUNDLED / "tdoku-test-puzzles.labeled.txt").read_text().splitlines()
    for text, count, *_ in (line.split(":") for line in lines):
        counted = fast_module.count_solutions(puzzle_from_line(text))
        assert counted.complete and counted.count == int(count), text
        assert len(counted.witnesses) == min(2, int(count)) and counted.stopped is None
    empty = Puzzle.empty(Shape(2, 2))
    counted = fast_module.count_solutions(empty)
    assert counted.count == 288 and counted.complete and counted.symmetric_digits == 0
    assert len(set(counted.witnesses)) == 2
    assert all(is_solution(empty, grid) for grid in counted.witnesses)
    exact = fast_module.count_solutions(empty, limit=288)  # exactly the limit: still exact
    assert exact.complete and exact.count == 288
    short = fast_module.count_solutions(empty, limit=287)
    assert not short.complete and short.stopped == "limit" and short.count >= 287
    capped = fast_module.count_solutions(empty, max_nodes=100)
    assert capped.stopped == "node limit" and capped.nodes == 100 and 0 < capped.count < 288
    endless = fast_module.count_solutions(puzzle_from_line("." * 81), timeout=0.2)
    assert endless.stopped == "timeout" and endless.count > 1000 and len(endless.witnesses) == 2


def test_count_command_counts_with_the_compiled_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text("." * 16 + "\n" + "1234" + "." * 12 + "\n")
    assert main(["count", str(path), "--backend", "fast"]) == 0
    assert capsys.readouterr().out.split() == ["288", "12"]
    assert main(["count", str(path), "--backend", "fast", "--limit", "20", "--json"]) == 0
    first, second = map(json.loads, capsys.readouterr().out.splitlines())
    assert first["backend"] == "fast" and first["at_least"] == 20 and first["count"] is None
    assert second["count"] == 12 and len(second["solutions"]) == 2
    assert main(["count", str(path), "--backend", "fast", "--no-symmetry"]) == 2
    assert "--no-symmetry does not apply to --backend fast" in capsys.readouterr().err


@pytest.mark.parametrize("stem", ["16x16-acwing169-sample", "25x25-durr-example"])
def test_large_samples_have_their_known_solution(stem: str) -> None:
    puzzles = (BUNDLED / f"{stem}.txt").read_text().split()
    solutions = (BUNDLED / f"{stem}.solutions.txt").read_text().split()
    for puzzle_text, solution in zip(puzzles, solutions, strict=True):
        result = fast.solve(puzzle_from_line(puzzle_text))
        assert result.status is Status.UNIQUE and result.solution == grid_from_line(solution)


# Counting the empty 6x6's 39,168 grids (1.1 s of CPU) under -m slow: classic/empty-4x4.toml
# keeps an exhausted count by default.
@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            p,
            marks=[pytest.mark.slow] if p.name == "empty-6x6-first-row.toml" else [],
            id=str(p.relative_to(REPO / "models")),
        )
        for p in FAMILY_MODELS
    ],
)
def test_family_models_give_their_recorded_answer(path: Path) -> None:
    """Jigsaw, windoku, extra region, disjoint groups, anti-king/knight, diagonals, classic:
    the model's recorded count (exhausted, exactly) or its unique published solution."""
    (puzzle,) = read_puzzles(path)
    count = recorded_count(path)
    if count is None:
        result = fast.solve(puzzle)
        assert result.status is Status.UNIQUE and result.solution == puzzle.solution
    else:
        result = fast.solve(puzzle, limit=count + 1)
        assert result.exhausted and result.count == count


def recorded_count(path: Path) -> int | None:
    text = path.read_text()
    doc = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    count = doc.get("count")
    return None if count is None else int(count)


# tdoku's labelled sample (1.0 s of CPU) and forum-hardest-1106 (0.45 s) under -m slow: hard 9x9
# unique puzzles run by default from famous-hard-16 and top1465, multiple ones from serg-benchmark.
FAST_SLOW_SAMPLES = {"forum-hardest-1106.txt"} | {
    p.name for p in BUNDLED.glob("tdoku*.txt") if not p.name.endswith(".solutions.txt")
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[pytest.mark.slow] if name in FAST_SLOW_SAMPLES else [])
        for name in sorted(
            p.name for p in BUNDLED.glob("*.txt") if not p.name.endswith(".solutions.txt")
        )
    ],
)
def test_agrees_with_bitmask_on_bundled_samples(name: str) -> None:
    """Verdicts match; a unique solution is the same grid; witnesses of `multiple` differ
    in general, so those puzzles are counted by both (up to 200) instead."""
    puzzles = list(read_puzzles(BUNDLED / name))
    for puzzle, result in zip(puzzles, fast.solve_many(puzzles), strict=True):
        expected = referee(puzzle)
        assert result.status is expected.status, puzzle.origin
        if result.status is Status.MULTIPLE:
            many, truth = fast.solve(puzzle, limit=200), referee(puzzle, 200)
            assert many.exhausted is truth.exhausted
            if truth.exhausted:
                assert set(many.solutions) == set(truth.solutions)
        else:
            assert result.solutions == expected.solutions


def test_agrees_with_bitmask_on_shared_datasets(shared_data: Path) -> None:
    """The first puzzles of every classic-family dataset in ../shared/data (jigsaw too)."""
    checked = 0
    for path in sorted(shared_data.glob("*.txt")):
        if any(word in path.name for word in ("solutions", "ratings", "killer", "25x25")):
            continue
        fmt = "jigsaw" if "jigsaw" in path.name else "auto"
        puzzles = list(islice(iter_puzzles(path, fmt=fmt), 3))
        for puzzle, result in zip(puzzles, fast.solve_many(puzzles), strict=True):
            expected = reference.solve(puzzle, timeout=20)
            assert expected.status is not Status.UNKNOWN, puzzle.origin
            assert result.status is expected.status, puzzle.origin
            if result.status is Status.UNIQUE:
                assert result.solutions == expected.solutions, puzzle.origin
            checked += 1
    assert checked >= 40


def test_unsatisfiable_givens() -> None:
    twice = "11" + "." * 79  # the same digit twice in row 1
    assert fast.solve(puzzle_from_line(twice)).status is Status.UNSATISFIABLE
    # Consistent at first sight, but r1c9 can hold no digit: 1-8 in its row, 9 in its column.
    hidden = "12345678." + "........9" + "." * 63
    result = fast.solve(puzzle_from_line(hidden))
    assert result.status is Status.UNSATISFIABLE and result.exhausted


def test_node_limit_and_timeout_stop_with_unknown() -> None:
    empty = Puzzle.empty(Shape(2, 2))  # 288 grids in 569 nodes
    capped = fast.solve(empty, limit=10**6, max_nodes=50)
    assert capped.status is Status.MULTIPLE and not capped.exhausted  # found some, not all
    assert capped.stats["stopped"] == "node limit" and capped.stats["nodes"] == 50
    hard = puzzle_from_line("." * 1296)  # empty 36x36: counting its grids never ends
    began = time.process_time()  # CPU, not wall: at load 10 the wall clock ran 3.2 s for it
    timed = fast.solve(hard, limit=10**9, timeout=0.3)
    assert timed.stats["stopped"] == "timeout" and not timed.exhausted
    # The grids found are checked within the timeout: checked after it, they took 1.6-3 s more.
    assert time.process_time() - began < 1.5
    # An empty 9x9 fills every call's room for grids: the clock is read after such calls too
    # (it was not: asked for 10**9 grids with a 1 s timeout, the command ran 10 min, 15 GB).
    began = time.process_time()
    full = fast.solve(puzzle_from_line("." * 81), limit=10**9, timeout=0.3)
    assert full.stats["stopped"] == "timeout" and len(full.solutions) >= 1024
    assert time.process_time() - began < 1.5
    nothing = fast.solve(puzzle_from_line("." * 81), max_nodes=0)
    assert nothing.status is Status.UNKNOWN and nothing.stats["stopped"] == "node limit"


def test_relabelled_masks_move_each_digit_to_its_image() -> None:
    masks = np.array([0b1, 0b101, 0b111, 0], dtype=np.uint64)
    moved = fast_module._relabelled(masks, [3, 1, 2])  # 1 -> 3, 2 -> 1, 3 -> 2
    assert moved.tolist() == [0b100, 0b110, 0b111, 0]


def _durr_reduced(*, open_first: int = 0, wrong_first: bool = False) -> Puzzle:
    """The bundled reduced 25x25 (unique), with its first `open_first` givens taken out or its
    first open cell given a digit none of its peers' givens uses but the solution does not."""
    puzzle = read_puzzles(BUNDLED / "25x25-durr-reduced.txt")[0]
    values = list(puzzle.givens.values)
    for cell in [i for i, v in enumerate(values) if v][:open_first]:
        values[cell] = 0
    if wrong_first:
        assert values[0] == 0 and DURR_SOLUTION[0] != 2  # r1c1 open; 2 is free in its houses
        values[0] = 2
    return Puzzle(puzzle.shape, Grid(25, tuple(values)), puzzle.rules)


DURR_SOLUTION = read_puzzles(BUNDLED / "25x25-durr-example.solutions.txt")[0].givens.values


@pytest.mark.parametrize(
    ("puzzle", "status"),
    [
        (_durr_reduced(), Status.UNIQUE),
        (_durr_reduced(open_first=40), Status.MULTIPLE),
        (_durr_reduced(wrong_first=True), Status.UNSATISFIABLE),
    ],
    ids=["unique", "multiple", "unsatisfiable"],
)
def test_restarts_on_25x25_keep_the_verdict_exact(
    puzzle: Puzzle, status: Status, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tiny cutoffs, checked every few nodes, so that these puzzles restart dozens of times: a
    # relabelled run must map its grids back, and only a run that saw the whole tree may say
    # unique or unsatisfiable.
    monkeypatch.setattr(fast_module, "_RESTART_UNIT", 16)
    monkeypatch.setattr(fast_module, "_WORK_PER_CALL", 1 << 16)
    result = fast.solve(puzzle)
    assert result.status is status and result.stats["restarts"] >= 2
    assert result.status is get_backend("sat").solve(puzzle).status
    if status is Status.UNIQUE:
        assert result.solution is not None and result.solution.values == DURR_SOLUTION
    monkeypatch.setattr(fast_module, "_RESTART_FROM", 10**6)  # the same search, no restarts
    plain = fast.solve(puzzle)
    assert plain.status is status and "restarts" not in plain.stats


def test_largest_and_smallest_boards() -> None:
    one = fast.solve(Puzzle.empty(Shape(1, 1)))
    assert one.status is Status.UNIQUE and one.solution == Grid(1, (1,))
    full = fast.solve(Puzzle.empty(Shape(8, 8)), limit=1)  # 64 digits: every bit of the word
    assert full.status is Status.SOLVED and full.solution is not None
    assert is_solution(Puzzle.empty(Shape(8, 8)), full.solution)


def test_solve_many_keeps_order_across_shapes_and_batches() -> None:
    lines = (BUNDLED / "top1465.txt").read_text().split()[:5]
    mixed = [puzzle_from_line(line) for line in lines]
    mixed.insert(2, Puzzle.empty(Shape(2, 2)))
    mixed.append(puzzle_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text().split()[0]))
    batched = list(fast.solve_many(mixed))
    one_by_one = [fast.solve(p) for p in mixed]
    assert [r.status for r in batched] == [r.status for r in one_by_one]
    assert [r.solutions for r in batched] == [r.solutions for r in one_by_one]


def test_rules_outside_the_family_are_refused_in_one_line() -> None:
    (killer,) = read_puzzles(REPO / "models" / "variants" / "killer" / "killer-6x6.json")
    reason = fast.supports(killer)
    assert reason is not None and "'killer'" in reason and "\n" not in reason
    with pytest.raises(UnsupportedPuzzleError, match="all-different rules only"):
        fast.solve(killer)
    (windoku,) = read_puzzles(REPO / "models" / "variants" / "groups" / "windoku-6x6.json")
    assert fast.supports(windoku) is None


def test_a_rule_whose_table_would_be_too_large_is_refused_not_an_error() -> None:
    """The published little killer's 42 along a 9-cell diagonal decomposes into more rows than
    the Table limit: deciding support once built that table and raised, so `--backend all`
    refused the puzzle. Support is now decided without building it, and `all` solves it."""
    (puzzle,) = read_puzzles(REPO / "models" / "variants" / "real" / "littlekiller.json")
    reason = fast.supports(puzzle)
    assert reason is not None and "'littlekiller'" in reason and "\n" not in reason
    result = CrossCheckBackend(["sat", "fast"]).solve(puzzle)
    assert result.status is Status.UNIQUE and result.stats["fast_status"] == "skipped"
    assert result.solutions == (puzzle.solution,)


def test_backend_all_skips_it_for_other_rules(capsys: pytest.CaptureFixture[str]) -> None:
    killer = REPO / "models" / "variants" / "killer" / "killer-6x6.json"
    (puzzle,) = read_puzzles(killer)
    result = CrossCheckBackend(["bitmask", "fast"]).solve(puzzle)
    assert result.status is Status.UNIQUE and result.stats["fast_status"] == "skipped"
    assert main(["solve", str(killer), "--backend", "fast"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "killer-6x6.json" in err and "'killer'" in err


def test_a_cell_listed_twice_in_a_group_makes_the_puzzle_unsatisfiable() -> None:
    """AllDifferent((c, c)) cannot hold (the verifier says so too): the structure empties c."""
    from satsudoku.constraints import AllDifferent

    structure = build_structure(Shape(2, 2), [AllDifferent(((0, 0), (0, 0)))])
    assert int(structure.allowed[0]) == 0 and int(structure.allowed[1]) == 0b1111


def test_cache_dir_is_private_to_the_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel.config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path, why = kernel._safe_cache_dir()
    assert path == str(tmp_path / "satsudoku" / "numba") and why == "user cache"
    assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0
    os.chmod(path, 0o777)  # someone else could plant a pickle there: no cache at all
    path, why = kernel._safe_cache_dir()
    assert path is None and "not private" in why
    monkeypatch.setattr(kernel.config, "CACHE_DIR", str(tmp_path / "mine"))
    assert kernel._safe_cache_dir() == (str(tmp_path / "mine"), "NUMBA_CACHE_DIR")


def test_every_compiled_function_caches_in_the_private_folder_and_nowhere_else() -> None:
    """`fast_kernel.compiled` is the one decorator: each compiled function of the package keeps
    its machine code in CACHE_DIR, and Numba's own setting is the user's again afterwards."""
    import importlib
    import sys

    from numba.core.registry import CPUDispatcher

    for name in ("io.classic_lines", "verify_compiled", "logic.compiled", "logic.compiled_chains",
                 "logic.compiled_easy", "logic.compiled_fish", "logic.compiled_franken",
                 "logic.compiled_multiple"):  # fmt: skip
        importlib.import_module(f"satsudoku.{name}")
    dispatchers = [
        value
        for module_name, module in list(sys.modules.items())
        if module_name.startswith("satsudoku.")
        for value in vars(module).values()
        if isinstance(value, CPUDispatcher) and value.__module__ == module_name
    ]
    assert len(dispatchers) >= 40  # 5 kernel, 3 line reader, 2 verifier, 30 logic (2026-11-26)
    assert kernel.config.CACHE_DIR == os.environ.get("NUMBA_CACHE_DIR", "")
    for dispatcher in dispatchers:
        if kernel.CACHE_DIR is None:
            assert dispatcher._cache.__class__.__name__ == "NullCache"
        else:
            assert dispatcher._cache._cache_path.startswith(kernel.CACHE_DIR), dispatcher


def test_compiled_verifier_refuses_exactly_what_violations_refuses() -> None:
    """Spoiled solutions (a cell changed, two cells swapped, a given overwritten, out-of-range
    digits, a repeated grid): the compiled check and `violations` agree on every one."""
    from satsudoku.verify import violations
    from satsudoku.verify_compiled import first_bad

    rng = np.random.default_rng(7)
    lines = (BUNDLED / "17clue.txt").read_text().splitlines()
    puzzles = [puzzle_from_line(line) for line in lines[:20]]
    grids, givens, truth = [], [], []
    for puzzle in puzzles:
        solution = np.array(FastBackend().solve(puzzle).solutions[0].values, dtype=np.uint8)
        for kind in range(6):
            grid = solution.copy()
            i, j = rng.choice(81, size=2, replace=False)
            if kind == 1:
                grid[i] = grid[i] % 9 + 1
            elif kind == 2:
                grid[i], grid[j] = grid[j], grid[i]
            elif kind == 3:
                given = next(k for k, v in enumerate(puzzle.givens.values) if v)
                grid[given] = grid[given] % 9 + 1
            elif kind == 4:
                grid[i] = rng.choice([0, 10, 255])
            elif kind == 5:  # rows 1 and 2 exchanged: every house still holds 1..9
                grid[:18] = np.concatenate([grid[9:18], grid[:9]])
            grids.append(grid)
            givens.append(np.array(puzzle.givens.values, dtype=np.uint8))
            truth.append(bool(violations(puzzle, Grid(9, tuple(int(v) for v in grid)))))
    sols = np.stack(grids)[:, None, :]
    bad = first_bad(np.stack(givens), sols, np.ones(len(grids), dtype=np.int64), 3, 3)
    assert [bool(b) for b in bad] == truth and 0 < sum(truth) < len(truth)
    twice = np.stack([sols[:1, 0], sols[:1, 0]], axis=1)  # the same valid grid twice
    assert first_bad(np.stack(givens[:1]), twice, np.array([2]), 3, 3).tolist() == [2]
