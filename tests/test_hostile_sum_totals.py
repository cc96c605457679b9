"""Sums whose numbers pass what any digits can reach: a sum cage's total of 10**11 or 10**19
(JSON reads 20 digits), an arrow whose 21-cell bulb weighs 10**20. No digits meet them, so
each is unsatisfiable on every backend, found without the numbers' size costing anything:

- bitmask: the sum's support walk shifted a bit to the total, 1 << 10**11 (12.5 GB: a
  MemoryError traceback under a 2 GB limit, 117 s of CPU without one);
- cpsat (both models): CP-SAT's 64-bit integers refused 10**19 with a TypeError traceback;
- sat: the 21-cell bulb was refused as too large to unroll (a verdict, now).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.constraints import Sum
from satsudoku.encoders.house_sums import out_of_reach
from satsudoku.io import read_text
from tests.conftest import REPO

ROW_AND_ONE = ["r1c1", "r1c2", "r1c3", "r1c4", "r2c1"]


def document(n: int, rule: dict[str, Any]) -> str:
    return json.dumps({"size": n, "givens": "." * (n * n), "rules": [rule]})


def sumcage(cells: list[str], total: int) -> dict[str, Any]:
    return {"type": "sumcage", "cages": [{"cells": cells, "sum": total}]}


# A 21-cell bulb (rows 1 and 2, three cells of row 3) over a 2-cell shaft, on 9x9.
BULB = [f"r{r}c{c}" for r in (1, 2) for c in range(1, 10)] + ["r3c1", "r3c2", "r3c3"]
LONG_BULB = {"type": "arrow", "arrows": [{"bulb": BULB, "shaft": ["r9c9", "r8c9"]}]}

CONFIGS = [
    ("bitmask", {}),
    ("sat", {"encoding": "extended"}),
    ("sat", {"encoding": "reduced"}),
    ("cpsat", {"model": "boolean"}),
    ("cpsat", {"model": "integer"}),
    ("mip", {}),
]


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=lambda x: str(x))
@pytest.mark.parametrize(
    "text",
    [
        document(4, sumcage(ROW_AND_ONE, 9_999_999_999_999_999_999)),
        document(4, sumcage(["r1c1", "r2c1", "r1c2"], 9_999_999_999_999_999_999)),
        document(4, sumcage(["r1c1", "r1c2"], 99_999_999_999)),
        document(9, LONG_BULB),
    ],
    ids=["row-folded-1e19", "three-cells-1e19", "two-cells-1e11", "21-cell-bulb"],
)
def test_a_sum_no_digits_reach_is_unsatisfiable(
    text: str, name: str, options: dict[str, Any]
) -> None:
    (puzzle,) = read_text(text)
    result = get_backend(name, **options).solve(puzzle, limit=2)
    assert result.status.value == "unsatisfiable"


@pytest.mark.parametrize("name", ["bitmask", "sat", "cpsat"])
def test_a_reachable_total_still_counts(name: str) -> None:
    """The guard leaves reachable sums alone: a row and one more cell adding up to 13 (the
    row holds 10, so r2c1 is 3): 288 grids, r2c1 = 3 in a quarter of them."""
    (puzzle,) = read_text(document(4, sumcage(ROW_AND_ONE, 13)))
    assert get_backend(name).solve(puzzle, limit=100).count == 72


def test_the_reach_of_a_sum() -> None:
    cells = ((0, 0), (0, 1))
    assert not out_of_reach(Sum(cells, 2), 4) and not out_of_reach(Sum(cells, 8), 4)
    assert out_of_reach(Sum(cells, 1), 4) and out_of_reach(Sum(cells, 9), 4)
    assert not out_of_reach(Sum(cells, 0, (1, -1)), 4)  # equal digits: -3..3
    assert out_of_reach(Sum(cells, 4, (1, -1)), 4)


def _two_gigabytes() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))


def test_a_huge_total_costs_the_bitmask_search_no_memory(tmp_path: Path) -> None:
    """Under a 2 GB address-space limit (as the hostile sweeps run): a MemoryError traceback
    before, the verdict now."""
    path = tmp_path / "huge.json"
    path.write_text(document(4, sumcage(["r1c1", "r1c2"], 99_999_999_999)))
    done = subprocess.run(
        [sys.executable, "-m", "satsudoku", "solve", str(path), "--backend", "bitmask"],
        capture_output=True,
        text=True,
        cwd=REPO,
        preexec_fn=_two_gigabytes,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("# puzzle 1: unsatisfiable")
