"""Every solving entry point checks `limit` and `timeout` the same way (backends.options): a
bad value is an OptionError naming the parameter and the value, before any solver sees it; the
edges keep their meaning (timeout 0: 'unknown' at once; inf or 1e300: no limit)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from satsudoku.backends import get_backend
from satsudoku.backends.options import MAX_SECONDS, checked_limit, checked_timeout
from satsudoku.crosscheck import CrossCheckBackend
from satsudoku.errors import OptionError, OptionTypeError
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.conftest import grid_from_line, puzzle_from_line

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
BAD_LIMITS: list[tuple[object, type[OptionError]]] = [
    (1.5, OptionTypeError),
    (True, OptionTypeError),
    ("2", OptionTypeError),
    (None, OptionTypeError),
    (-1, OptionError),
    (0, OptionError),
]
BAD_TIMEOUTS: list[tuple[object, type[OptionError]]] = [
    (math.nan, OptionError),
    (-1, OptionError),
    (-math.inf, OptionError),
    ("1", OptionTypeError),
    (True, OptionTypeError),
]
BACKENDS = [
    "bitmask",
    "sat",
    "cpsat",
    "fast",
    "mip",
    "race",
]
PUZZLE = puzzle_from_line(EASY)


def _solve(name: str) -> Callable[..., Any]:
    return get_backend(name).solve


@pytest.mark.parametrize(("limit", "error"), BAD_LIMITS)
@pytest.mark.parametrize("name", BACKENDS)
def test_each_backend_refuses_a_bad_limit_naming_it(
    name: str, limit: object, error: type[OptionError]
) -> None:
    with pytest.raises(error, match=f"^limit must be a positive integer, not {limit!r}$"):
        _solve(name)(PUZZLE, limit=limit)


@pytest.mark.parametrize(("timeout", "error"), BAD_TIMEOUTS)
@pytest.mark.parametrize("name", BACKENDS)
def test_each_backend_refuses_a_bad_timeout_naming_it(
    name: str, timeout: object, error: type[OptionError]
) -> None:
    with pytest.raises(error, match=f"^timeout must be a number of seconds .*, not {timeout!r}$"):
        _solve(name)(PUZZLE, timeout=timeout)


def test_the_errors_are_value_and_type_errors_of_the_library() -> None:
    """Callers may catch them as Python's own (ValueError, TypeError) or as the library's."""
    with pytest.raises(ValueError):
        checked_limit(0)
    with pytest.raises(TypeError):
        checked_timeout("1")
    assert issubclass(OptionTypeError, ValueError)


@pytest.mark.parametrize(
    "call",
    [
        lambda **k: list(get_backend("sat").solve_many([PUZZLE], **k)),
        lambda **k: get_backend("fast").solve_many([PUZZLE], **k),  # refused before iterating
        lambda **k: CrossCheckBackend(["sat", "fast"]).solve(PUZZLE, **k),
    ],
    ids=["sat.solve_many", "fast.solve_many", "all"],
)
def test_batch_and_cross_check_entry_points_refuse_bad_values(call: Callable[..., Any]) -> None:
    with pytest.raises(OptionTypeError, match="limit"):
        call(limit=1.5)
    with pytest.raises(OptionError, match="timeout"):
        call(timeout=math.nan)


def test_counting_and_the_tools_refuse_bad_values() -> None:
    """The tools that take a limit or timeout check them as the backends do."""
    from satsudoku.backends import fast
    from satsudoku.tools import counting
    from satsudoku.tools.candidates import true_candidates
    from satsudoku.tools.estimate import estimate_count
    from satsudoku.tools.generate import Request
    from satsudoku.tools.minimal import find_redundant, reduce_puzzle

    for count in (fast.count_solutions, counting.count_solutions):
        with pytest.raises(OptionTypeError, match=r"not 1\.5$"):
            count(PUZZLE, limit=1.5)
        with pytest.raises(OptionError, match=r"not 0$"):
            count(PUZZLE, limit=0)
        with pytest.raises(OptionError, match=r"not nan$"):
            count(PUZZLE, timeout=math.nan)
    with pytest.raises(OptionError, match=r"not -1$"):
        estimate_count(PUZZLE, 10, timeout=-1)
    with pytest.raises(OptionTypeError, match=r"not '1'$"):
        true_candidates(PUZZLE, "bitmask", timeout="1")
    for tool in (find_redundant, reduce_puzzle):
        with pytest.raises(OptionError, match=r"not nan$"):
            tool(PUZZLE, "sat", timeout=math.nan)
    with pytest.raises(OptionTypeError, match=r"not True$"):
        Request(Shape(2, 2), timeout=True)
    assert Request(Shape(2, 2), timeout=math.inf).timeout is None  # no limit


@pytest.mark.parametrize("name", ["sat", "cpsat", "fast", "mip"])
def test_the_edge_values_keep_their_meaning(name: str) -> None:
    """timeout 0: 'unknown' with no grid; inf and 1e300: no limit; a huge limit and numpy
    numbers are limits and seconds like any other."""
    solve = _solve(name)
    stopped = solve(PUZZLE, timeout=0)
    assert (stopped.status, stopped.solutions, stopped.stats["stopped"]) == (
        Status.UNKNOWN,
        (),
        "timeout",
    )
    for timeout in (math.inf, 1e300, 10**400, np.float64(60), MAX_SECONDS):
        result = solve(PUZZLE, timeout=timeout)
        assert result.status is Status.UNIQUE and result.solution == grid_from_line(SOLUTION)
    empty = Puzzle.empty(Shape(2, 2))  # 288 grids: a huge limit finds them all
    counted = solve(empty, limit=10**30) if name != "mip" else solve(empty, limit=np.int64(3))
    assert counted.count == (288 if name != "mip" else None)
    assert len(counted.solutions) == (288 if name != "mip" else 3)


def test_checked_values_normalise() -> None:
    assert checked_limit(np.int64(7)) == 7 and type(checked_limit(np.int64(7))) is int
    assert checked_timeout(0) == 0.0 and checked_timeout(2) == 2.0
    assert checked_timeout(None) is None and checked_timeout(MAX_SECONDS + 1) is None
