"""Counting: exact counts with digit-relabelling symmetry, and Knuth's estimator against known
counts (empty 6×6, 8×8 and 9×9 grids), through the library and the `count` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.commands.count import _number
from satsudoku.grid import Grid, regular_shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.rules import _REGISTRY, make_rule, rule_types
from satsudoku.tools.counting import count_solutions
from satsudoku.tools.estimate import _statistics, estimate_count
from satsudoku.tools.symmetry import declares_symmetry, interchangeable_digits

REPO = Path(__file__).resolve().parent.parent
GRIDS_6X6 = 28_200_960  # Pettersen; 39,168 with the first row fixed, times 6!
GRIDS_8X8 = 29_136_487_207_403_520  # 2×4 boxes (OEIS A107739)
GRIDS_9X9 = 6_670_903_752_021_072_936_960  # Felgenhauer & Jarvis 2005


def empty(rows: int, cols: int, *rules: str) -> Puzzle:
    shape = regular_shape(rows, cols)
    return Puzzle.empty(shape, [make_rule({"type": rule}, shape) for rule in rules])


def with_givens(rows: int, cols: int, line: str, *specs: dict[str, object]) -> Puzzle:
    shape = regular_shape(rows, cols)
    n = shape.size
    givens = Grid(n, tuple(0 if ch == "." else int(ch) for ch in line))
    return Puzzle(shape, givens, tuple(make_rule(spec, shape) for spec in specs))


@pytest.mark.parametrize(
    ("puzzle", "expected", "digits"),
    [
        (empty(2, 2), 288, 4),  # 12 grids with the first row fixed, times 4!
        (empty(2, 2, "diagonal"), 48, 4),
        (empty(2, 3, "diagonal"), 8_640, 6),
    ],
    ids=["4x4", "4x4-diagonal", "6x6-diagonal"],
)
def test_symmetric_counts_are_exact(puzzle: Puzzle, expected: int, digits: int) -> None:
    counted = count_solutions(puzzle)
    assert counted.complete and counted.count == expected
    assert counted.symmetric_digits == digits
    assert len(counted.witnesses) == 2 and counted.witnesses[0] != counted.witnesses[1]


# The 4x4 by default; the 6x6 (~1.5 s of CPU) under -m slow.
@pytest.mark.parametrize(
    ("rows", "cols", "grids", "most_nodes"),
    [
        (2, 2, 288, 40),  # 12 leaves and 14 branch nodes (26 in all); every grid: 288 leaves
        pytest.param(2, 3, GRIDS_6X6, 80_000, marks=pytest.mark.slow),  # every grid: 28 M leaves
    ],
    ids=["4x4", "6x6"],
)
def test_empty_grid_visits_one_grid_per_relabelling(
    rows: int, cols: int, grids: int, most_nodes: int
) -> None:
    """One leaf per grid whose first row reads 12..n (one per class of n! grids), and about as
    many branch nodes above them: 12 for the 4x4 (288 grids), 39,168 for the 6x6 (28,200,960)."""
    counted = count_solutions(empty(rows, cols))
    n = rows * cols
    assert counted.complete and counted.count == grids and counted.symmetric_digits == n
    assert counted.nodes < most_nodes


def test_miracle_rules_name_digits_so_nothing_is_divided_out() -> None:
    """Non-consecutive compares digits (|a - b| = 1): the 72 grids (counted in test_models,
    ~20 s of bitmask search) must be searched one by one."""
    (puzzle,) = read_puzzles(REPO / "models/variants/miracle/miracle-rules-72.json")
    assert interchangeable_digits(puzzle) == frozenset()
    counted = count_solutions(puzzle, limit=3)
    assert counted.symmetric_digits == 0 and counted.count == 3 and counted.stopped == "limit"


@pytest.mark.parametrize(
    ("line", "count"),
    [
        ("1........2............1...2...3.....", 2_316),
        ("1........2...3........1.............", 8_664),
    ],
)
def test_givens_leave_only_their_unused_digits_interchangeable(line: str, count: int) -> None:
    """Orbits counted properly: digits 4-6 swap freely, 1-3 are pinned by the givens."""
    puzzle = with_givens(2, 3, line)
    assert interchangeable_digits(puzzle) == {4, 5, 6}
    fast, slow = count_solutions(puzzle), count_solutions(puzzle, symmetry=False)
    assert fast.count == slow.count == count and fast.nodes < slow.nodes / 3


SYMMETRIC_SPECS: list[dict[str, object]] = [
    {"type": "diagonal"},
    {"type": "antiknight"},
    {"type": "antiking"},
    {"type": "disjointgroups"},
    {"type": "windoku"},
    {"type": "extraregion", "cells": ["r1c1", "r2c3", "r3c2", "r4c4"]},
    {"type": "clone", "pairs": [[["r1c1", "r1c2"], ["r4c3", "r4c4"]]]},
    {"type": "palindrome", "lines": [["r1c1", "r2c2", "r3c2", "r4c1"]]},
]


@pytest.mark.parametrize("spec", SYMMETRIC_SPECS, ids=lambda spec: str(spec["type"]))
@pytest.mark.parametrize("line", ["." * 16, "1" + "." * 15, "1....2.........."])
def test_each_symmetric_rule_counts_alike_with_and_without_symmetry(
    spec: dict[str, object], line: str
) -> None:
    puzzle = with_givens(2, 2, line, spec)
    assert interchangeable_digits(puzzle) == set(range(1, 5)) - {int(c) for c in line if c != "."}
    fast, slow = count_solutions(puzzle), count_solutions(puzzle, symmetry=False)
    assert fast.complete and slow.complete and fast.count == slow.count


def test_only_rules_that_never_name_a_digit_declare_symmetry() -> None:
    """The declared set is pinned: a rule that compares, sums or lists digits must not join."""
    rule_types()  # loads every built-in rule
    classes = {name: getattr(factory, "__self__", None) for name, factory in _REGISTRY.items()}
    declared = {name for name, cls in classes.items() if getattr(cls, "digit_symmetric", False)}
    assert declared == {
        "diagonal",
        "diagonal+",
        "diagonal-",
        "antiknight",
        "antiking",
        "disjointgroups",
        "windoku",
        "extraregion",
        "clone",
        "palindrome",
    }


def test_a_rule_that_says_nothing_is_not_symmetric() -> None:
    class Silent:
        type = "silent"

    assert not declares_symmetry(Silent())  # type: ignore[arg-type]


def test_limit_and_timeout_give_lower_bounds() -> None:
    counted = count_solutions(empty(2, 3), limit=1_000)
    assert not counted.complete and counted.stopped == "limit" and counted.count >= 1_000
    counted = count_solutions(empty(3, 3), timeout=0.2)
    assert not counted.complete and counted.stopped == "timeout" and counted.count > 0


def test_unsatisfiable_puzzle_counts_zero() -> None:
    counted = count_solutions(with_givens(2, 2, "11" + "." * 14))
    assert counted.complete and counted.count == 0 and counted.witnesses == ()


@pytest.mark.parametrize(
    ("puzzle", "samples", "truth"),
    [
        (empty(2, 3), 400, GRIDS_6X6),
        # one size by default: 8x8 and 9x9 (1.7 s of CPU) under -m slow
        pytest.param(empty(2, 4), 150, GRIDS_8X8, marks=pytest.mark.slow),
        pytest.param(empty(3, 3), 150, GRIDS_9X9, marks=pytest.mark.slow),
    ],
    ids=["6x6", "8x8", "9x9"],
)
def test_estimates_lie_within_three_standard_errors(
    puzzle: Puzzle, samples: int, truth: int
) -> None:
    estimate = estimate_count(puzzle, samples, seed=11)
    assert abs(estimate.estimate - truth) <= 3 * estimate.stderr
    assert estimate.stderr < 0.25 * truth  # informative, not just wide
    assert estimate.samples == samples and 0 <= estimate.zero_fraction < 0.2
    low, high = estimate.ci95
    assert low <= estimate.estimate <= high


def test_the_estimator_is_unbiased_on_4x4() -> None:
    """Pure sampling (no exact subtrees): the mean of many walks converges on 288."""
    estimate = estimate_count(empty(2, 2), 2_000, seed=5, exact_cells=0)
    assert abs(estimate.estimate - 288) <= 3 * estimate.stderr and estimate.stderr < 15


def test_same_seed_same_estimate_and_unsatisfiable_is_zero() -> None:
    first = estimate_count(empty(2, 3), 30, seed=3)
    assert estimate_count(empty(2, 3), 30, seed=3).estimate == first.estimate
    assert estimate_count(empty(2, 3), 30, seed=4).estimate != first.estimate
    dead = estimate_count(with_givens(2, 2, "11" + "." * 14), 10)
    assert dead.estimate == 0 and dead.zero_fraction == 1


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "puzzles.txt"
    path.write_text(text)
    return str(path)


def test_count_command_uses_symmetry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "." * 16 + "\n" + "." * 36 + "\n")
    assert main(["count", path, "--rule", "diagonal"]) == 0  # no --limit: counted to the end
    assert capsys.readouterr().out == "48\n8640\n"
    assert main(["count", path, "--json", "--limit", "5000"]) == 0
    small, record = map(json.loads, capsys.readouterr().out.splitlines())
    assert small["count"] == 288 and small["stats"]["symmetry"] == 24
    assert record["count"] is None and record["at_least"] == 5000
    assert record["status"] == "multiple" and record["stats"]["stopped"] == "limit"


def test_count_command_estimates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "." * 36 + "\n")
    assert main(["count", path, "--estimate", "50", "--seed", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert {"estimate", "stderr", "ci95", "samples", "zero_fraction"} <= set(record)
    assert record["samples"] == 50 and record["seed"] == 2
    assert main(["count", path, "--estimate", "50", "--seed", "2"]) == 0
    assert capsys.readouterr().out.startswith(f"~ {record['estimate']:.4g} ± ")


def test_estimates_beyond_a_float_stay_exact_integers() -> None:
    """A 25×25 board has about 10^386 grids: past 1e300 the statistics are integers (JSON
    numbers all the same), never an OverflowError."""
    samples = [3 * 10**386, 10**386, 0]
    total, squares = sum(samples), sum(x * x for x in samples)
    mean, stderr, half = _statistics(total, squares, len(samples))
    assert mean == 4 * 10**386 // 3  # 1.333...e386, the nearest integer
    assert isinstance(stderr, int) and 88 * 10**384 < stderr < 89 * 10**384  # 0.882e386
    assert half == stderr * 196 // 100
    assert _number(mean) == "1.333e+386" and _number(288) == "288"


def test_estimate_stops_on_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The clock is read inside each walk, so even the first one can be cut short."""
    estimate = estimate_count(empty(3, 3), 10**9, timeout=0.3)
    assert estimate.stopped == "timeout" and 0 < estimate.samples < 10**9
    assert estimate.time_s < 2
    path = write(tmp_path, "." * 81 + "\n")
    assert main(["count", path, "--estimate", "5", "--timeout", "0.000001", "--json"]) == 0
    text = capsys.readouterr().out
    assert "NaN" not in text and "Infinity" not in text  # JSON has neither
    record = json.loads(text)
    assert record["samples"] == 0 and record["estimate"] is None and record["stderr"] is None
    assert main(["count", path, "--estimate", "5", "--timeout", "0.000001"]) == 0
    assert capsys.readouterr().out == "unknown (no sample drawn, timeout reached)\n"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--estimate", "10", "--backend", "sat"], "--estimate walks the bitmask search tree"),
        (["--estimate", "10", "--limit", "5"], "--limit does not apply to --estimate"),
        (["--estimate", "10", "--max-nodes", "5"], "--max-nodes does not apply to --estimate"),
        (["--no-symmetry", "--backend", "sat"], "--no-symmetry does not apply"),
        (["--seed", "-3"], "expected a seed"),
    ],
)
def test_count_option_misuse_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    path = write(tmp_path, "." * 16 + "\n")
    if extra[0] == "--seed":  # refused by argparse while parsing: exit 2 as SystemExit
        with pytest.raises(SystemExit) as stop:
            main(["count", path, *extra])
        assert stop.value.code == 2
    else:
        assert main(["count", path, *extra]) == 2
    assert message in capsys.readouterr().err
