"""Every API entry point checks its numeric options the same way (satsudoku.options): `limit`,
`timeout`, `max_nodes`, seeds, sample/cap/worker/step counts. A bad value is an OptionError
naming the option and the value, before any solver sees it; the edges keep their meaning
(timeout or max_nodes 0: 'unknown' at once; inf or 1e300 seconds, max_nodes None: no limit)."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from satsudoku.backends import get_backend
from satsudoku.backends.cpsat import MAX_WORKERS
from satsudoku.crosscheck import CrossCheckBackend
from satsudoku.errors import OptionError, OptionTypeError
from satsudoku.grid import Grid, Shape
from satsudoku.options import MAX_SECONDS, MAX_SEED, checked_limit, checked_timeout
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


# --- every other numeric option: node budgets, seeds, sample and worker counts, the logic's
# and the rating's timeouts (h91). Each bad value is refused naming the option and the value.

EMPTY4 = Puzzle.empty(Shape(2, 2))  # 288 grids
NOT_INTEGERS: list[object] = [1.5, math.nan, math.inf, True, "2", np.float64(2.0)]
BAD_NODES: list[tuple[object, type[OptionError]]] = [
    (-1, OptionError),
    *((value, OptionTypeError) for value in NOT_INTEGERS),
]
BAD_SEEDS: list[tuple[object, type[OptionError]]] = [
    (-1, OptionError),
    (MAX_SEED + 1, OptionError),
    (10**30, OptionError),
    *((value, OptionTypeError) for value in NOT_INTEGERS),
]
BAD_COUNTS: list[tuple[object, type[OptionError]]] = [
    (0, OptionError),
    (-1, OptionError),
    (None, OptionTypeError),
    *((value, OptionTypeError) for value in NOT_INTEGERS),
]


def _bitmask(**options: Any) -> Any:
    return get_backend("bitmask", **options).solve(PUZZLE)


def _fast(**options: Any) -> Any:
    return get_backend("fast", **options).solve(PUZZLE)


def _counting(**options: Any) -> Any:
    from satsudoku.tools.counting import count_solutions

    return count_solutions(PUZZLE, **options)


def _fast_count(**options: Any) -> Any:
    from satsudoku.backends.fast import count_solutions

    return count_solutions(PUZZLE, **options)


def _proved(**options: Any) -> Any:
    from satsudoku.proof.search_proof import prove_by_search

    return prove_by_search(PUZZLE, **options)


NODE_CALLS: dict[str, Callable[[object], Any]] = {
    "BitmaskBackend(max_nodes)": lambda v: _bitmask(max_nodes=v),
    "bitmask.solve(max_nodes)": lambda v: get_backend("bitmask").solve(PUZZLE, max_nodes=v),
    "FastBackend(max_nodes)": lambda v: _fast(max_nodes=v),
    "fast.solve(max_nodes)": lambda v: get_backend("fast").solve(PUZZLE, max_nodes=v),
    "fast.count_solutions(max_nodes)": lambda v: _fast_count(max_nodes=v),
    "counting.count_solutions(max_nodes)": lambda v: _counting(max_nodes=v),
    "prove_by_search(max_nodes)": lambda v: _proved(max_nodes=v),
}


@pytest.mark.parametrize(("value", "error"), BAD_NODES)
@pytest.mark.parametrize("call", NODE_CALLS.values(), ids=NODE_CALLS.keys())
def test_max_nodes_is_a_count_or_none_everywhere(
    call: Callable[[object], Any], value: object, error: type[OptionError]
) -> None:
    """Before: nan and inf ran with no cap, True capped at 1 node, 1.5 at 2, '2' failed in
    the search loop, and counting.count_solutions took -1 and '2' as no cap at all."""
    expected = f"^max_nodes must be an integer >= 0 or None, not {re.escape(repr(value))}$"
    with pytest.raises(error, match=expected):
        call(value)


def _seeded(name: str) -> Callable[[object], Any]:
    return lambda seed: get_backend(name, random_seed=seed).solve(PUZZLE)


def _estimate(**options: Any) -> Any:
    from satsudoku.tools.estimate import estimate_count

    return estimate_count(EMPTY4, options.pop("samples", 3), **options)


def _reduce(seed: object) -> Any:
    from satsudoku.tools.minimal import reduce_puzzle

    return reduce_puzzle(PUZZLE, seed=seed)


def _request(**options: Any) -> Any:
    from satsudoku.tools.generate import Request

    return Request(Shape(2, 2), **options)


def _rate(**options: Any) -> Any:
    from satsudoku.logic.rating import rate

    return rate(PUZZLE, **options)


def _logically(**options: Any) -> Any:
    from satsudoku.logic.solver import solve_logically
    from satsudoku.logic.state import Board

    return solve_logically(Board.from_puzzle(PUZZLE), **options)


SEED_CALLS: dict[str, tuple[str, Callable[[object], Any]]] = {
    "BitmaskBackend(random_seed)": ("random_seed", _seeded("bitmask")),
    "SatBackend(random_seed)": ("random_seed", _seeded("sat")),
    "CpSatBackend(random_seed)": ("random_seed", _seeded("cpsat")),
    "estimate_count(seed)": ("seed", lambda v: _estimate(seed=v)),
    "reduce_puzzle(seed)": ("seed", _reduce),
    "generate.Request(seed)": ("seed", lambda v: _request(seed=v)),
    "rate(seed)": ("seed", lambda v: _rate(seed=v, machine=False)),
}


@pytest.mark.parametrize(("value", "error"), BAD_SEEDS)
@pytest.mark.parametrize("name_call", SEED_CALLS.values(), ids=SEED_CALLS.keys())
def test_seeds_are_those_seed_takes_everywhere(
    name_call: tuple[str, Callable[[object], Any]], value: object, error: type[OptionError]
) -> None:
    """Before: sat and bitmask took 1.5, '2', 10**30 and nan (another order every run: its
    hash is its address) as seeds, CP-SAT failed inside protobuf on any of them, True was 1."""
    name, call = name_call
    with pytest.raises(error, match=f"^{name} must be an integer from 0 to 2,147,483,647"):
        call(value)


def test_a_seed_may_be_none_only_where_it_means_unseeded() -> None:
    assert _seeded("bitmask")(None).status is Status.UNIQUE  # random_seed None: not random
    assert _reduce(None).verdict.status is Status.UNIQUE  # an order drawn afresh
    for call in (lambda: _estimate(seed=None), lambda: _request(seed=None)):
        with pytest.raises(OptionTypeError, match=r"^seed must be .*, not None$"):
            call()


def _cpsat_workers(workers: object) -> Any:
    return get_backend("cpsat", workers=workers).solve(PUZZLE, limit=1)


def _candidates(cap: object) -> Any:
    from satsudoku.tools.candidates import true_candidates

    return true_candidates(PUZZLE, "sat", cap=cap)


COUNT_CALLS: dict[str, tuple[str, Callable[[object], Any]]] = {
    "estimate_count(samples)": ("samples", lambda v: _estimate(samples=v)),
    "rate(samples)": ("samples", lambda v: _rate(samples=v)),
    "true_candidates(cap)": ("cap", _candidates),
    "CpSatBackend(workers)": ("workers", _cpsat_workers),
}


@pytest.mark.parametrize(("value", "error"), BAD_COUNTS)
@pytest.mark.parametrize("name_call", COUNT_CALLS.values(), ids=COUNT_CALLS.keys())
def test_sample_cap_and_worker_counts_are_positive_integers(
    name_call: tuple[str, Callable[[object], Any]], value: object, error: type[OptionError]
) -> None:
    """Before: rate took samples 0 and -1 as 1 and failed inside on 1.5; estimate drew
    int(1.5)+1 walks and answered nan for 0; cap 1.5 failed in the tally; workers 1.5 failed
    inside CP-SAT's protobuf and True ran one worker."""
    name, call = name_call
    with pytest.raises(error, match=f"^{name} must be .*, not {re.escape(repr(value))}$"):
        call(value)


def test_counts_with_an_upper_bound_name_it() -> None:
    """cap above 1,000 as --cap; workers above CP-SAT's 10,000 were an 'invalid model'."""
    with pytest.raises(OptionError, match="^cap must be an integer from 1 to 1,000, not 1001$"):
        _candidates(1001)
    with pytest.raises(OptionError, match=r"^workers must be an integer from 1 to 10,000, not"):
        get_backend("cpsat", workers=MAX_WORKERS + 1)


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("max_steps", lambda v: _logically(max_steps=v)),
        ("exact_cells", lambda v: _estimate(exact_cells=v)),
        ("count", lambda v: _generate(v)),
    ],
)
@pytest.mark.parametrize(("value", "error"), BAD_NODES)
def test_step_cell_and_puzzle_counts_are_integers_from_zero(
    name: str, call: Callable[[object], Any], value: object, error: type[OptionError]
) -> None:
    """Before: solve_logically stopped at once for max_steps -1, after 2 steps for 1.5 and
    never for nan; generate's count failed in range() only at the first puzzle."""
    with pytest.raises(error, match=f"^{name} must be an integer >= 0.*, not "):
        call(value)


def _generate(count: object) -> Any:
    from satsudoku.tools.generate import Request, generate

    return generate(Request(Shape(2, 2)), count)  # refused here, not at the first next()


def _warm_up(name: str) -> Callable[[object], Any]:
    return lambda timeout: get_backend(name).warm_up(PUZZLE, timeout=timeout)


TIMEOUT_CALLS: dict[str, Callable[[object], Any]] = {
    "solve_logically": lambda v: _logically(timeout=v),
    "rate": lambda v: _rate(timeout=v),
    "cpsat.warm_up": _warm_up("cpsat"),
    "mip.warm_up": _warm_up("mip"),
}


@pytest.mark.parametrize(("timeout", "error"), BAD_TIMEOUTS)
@pytest.mark.parametrize("call", TIMEOUT_CALLS.values(), ids=TIMEOUT_CALLS.keys())
def test_the_logic_rating_and_warm_up_timeouts_are_checked(
    call: Callable[[object], Any], timeout: object, error: type[OptionError]
) -> None:
    """Before: solve_logically ran without a clock for nan and gave up at once for -1, rate
    rated -1 as 'timeout' (12.0) and True as one second; '1' failed adding it to a clock."""
    with pytest.raises(error, match=f"^timeout must be a number of seconds .*, not {timeout!r}$"):
        call(timeout)


@pytest.mark.parametrize(
    "bounds", [(7, 4), (math.nan, 5), (4,), "4..7", (True, 5), ("4", "7")], ids=repr
)
def test_a_rating_range_is_two_numbers_low_to_high(bounds: object) -> None:
    """Before: such a Request was taken, and generate then refused every puzzle it made."""
    with pytest.raises(OptionError, match=r"^rating must be None or two numbers \(LO, HI\)"):
        _request(rating=bounds)
    assert _request(rating=(4, math.inf)).rating == (4.0, math.inf)


def test_a_huge_or_many_line_value_is_named_on_one_short_line() -> None:
    for value, shown in [
        (-(10**5000), "an integer of more than 4,300 digits"),
        (np.array([[1, 2], [3, 4]]), "array([[1, 2], [3, 4]])"),
        ("9" * 1000, "'" + "9" * 56 + "..."),
    ]:
        with pytest.raises(OptionError) as refused:
            checked_limit(value)
        assert str(refused.value) == f"limit must be a positive integer, not {shown}"


# --- valid values keep their meaning, on real puzzles with known answers


@pytest.mark.parametrize("name", ["bitmask", "fast"])
def test_node_budgets_keep_their_meaning(name: str) -> None:
    """0: 'unknown' at once (as a timeout of 0); None, a huge int or a numpy int: a cap that
    lets the search finish."""
    solve = get_backend(name).solve
    nothing = solve(EMPTY4, limit=300, max_nodes=0)
    assert (nothing.status, nothing.stats["stopped"]) == (Status.UNKNOWN, "node limit")
    for cap in (None, 10**30, np.int64(10**6)):
        assert solve(EMPTY4, limit=300, max_nodes=cap).count == 288
        assert get_backend(name, max_nodes=cap).solve(PUZZLE).solution == grid_from_line(SOLUTION)
    assert get_backend(name, max_nodes=np.int64(1)).solve(EMPTY4, limit=300).count is None


def test_counts_take_node_budgets_as_before() -> None:
    from satsudoku.backends import fast
    from satsudoku.tools import counting

    for count in (counting.count_solutions, fast.count_solutions):
        assert count(EMPTY4, max_nodes=np.int64(10**6)).count == 288
        assert count(EMPTY4, max_nodes=10**30).complete
        cut = count(EMPTY4, max_nodes=0)
        assert (cut.count, cut.complete, cut.stopped) == (0, False, "node limit")


@pytest.mark.parametrize("name", ["bitmask", "sat", "cpsat"])
def test_valid_seeds_solve_and_repeat(name: str) -> None:
    """The seed range's ends and numpy ints: the right grid, and the same one each time."""
    for seed in (0, MAX_SEED, np.int64(7)):
        backend = get_backend(name, random_seed=seed)
        assert backend.solve(PUZZLE).solution == grid_from_line(SOLUTION)
        first = backend.solve(EMPTY4, limit=1).solutions
        assert get_backend(name, random_seed=seed).solve(EMPTY4, limit=1).solutions == first


def test_valid_counts_steps_and_seeds_of_the_tools() -> None:
    from satsudoku.tools.candidates import true_candidates
    from satsudoku.tools.generate import generate
    from satsudoku.tools.minimal import Reduction, reduce_puzzle

    exact = _estimate(samples=np.int64(3), seed=MAX_SEED, exact_cells=10**30)
    assert (exact.estimate, exact.samples) == (288, 3)  # counted exactly below 10**30 cells
    found = true_candidates(PUZZLE, "sat", cap=np.int64(1000))
    assert found.status is Status.UNIQUE and found.cap == 1000
    assert [tuple(digits) for _, digits in found.cells()] == [(int(d),) for d in SOLUTION]
    reduced = reduce_puzzle(PUZZLE, seed=MAX_SEED)
    assert isinstance(reduced, Reduction) and reduced.removed
    assert get_backend("bitmask").solve(reduced.puzzle).solution == grid_from_line(SOLUTION)
    made = list(generate(_request(seed=MAX_SEED), np.int64(2)))
    assert len(made) == 2 and list(generate(_request(), 0)) == []
    for one in made:
        assert get_backend("bitmask").solve(one.puzzle).solution == one.solution
    solved = get_backend("cpsat", workers=np.int64(2)).solve(PUZZLE, limit=1)
    assert solved.solution == grid_from_line(SOLUTION)


def test_valid_logic_steps_and_rating_options() -> None:
    stopped = _logically(max_steps=0)
    assert (stopped.status, len(stopped.steps)) == ("stopped", 0)
    assert len(_logically(max_steps=np.int64(3)).steps) == 3
    solved = _logically(max_steps=10**30, timeout=math.inf)
    assert (
        solved.status == "solved" and tuple(solved.board.values) == grid_from_line(SOLUTION).values
    )
    rating = _rate(samples=np.int64(2), seed=MAX_SEED, timeout=10**400)
    assert (rating.rating, rating.technique, rating.status) == (1.2, "hidden single", "solved")
    assert rating.timed_out == () and rating.backtrack == 0.0


def test_a_huge_sample_count_is_bounded_by_the_timeout() -> None:
    """rate built every relabelled copy before its first search: samples=10**30 grew past
    360 MB in 20 s with timeout=1; the copies are now drawn one at a time."""
    began = time.process_time()
    rating = _rate(samples=10**30, timeout=0.5)
    assert rating.backtrack is None and "backtrack" in rating.timed_out
    assert time.process_time() - began < 5


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    proved = get_backend("sat").solve(PUZZLE, certify=True)
    assert proved.status is Status.UNIQUE and proved.proof.certificate is not None
    return proved.proof.certificate.write(tmp_path_factory.mktemp("cert") / "c")


@pytest.mark.parametrize(
    ("options", "error", "named"),
    [
        *(({"timeout": v}, e, "timeout") for v, e in BAD_TIMEOUTS),
        *(({"max_proof_bytes": v}, e, "max_proof_bytes") for v, e in BAD_COUNTS),
    ],
    ids=repr,
)
def test_a_certificate_check_refuses_bad_bounds(
    certificate: Path, options: dict[str, object], error: type[OptionError], named: str
) -> None:
    """Before: timeout nan checked without a clock and -1 rejected the proof as 'not checked
    within --timeout -1 s'; max_proof_bytes nan rejected it for a lemma count it never read."""
    from satsudoku.proof.certificate import verify_certificate

    with pytest.raises(error, match=f"^{named} must be "):
        verify_certificate(certificate, use_drat_trim=False, **options)  # type: ignore[arg-type]


def test_a_certificate_check_keeps_its_bounds_meaning(certificate: Path) -> None:
    """inf (and 10**30) lift the limit here, as before, rather than falling back to the
    default that grows with the proof; 0 rejects at once."""
    from satsudoku.proof.certificate import verify_certificate

    for timeout in (None, math.inf, 10**30, np.float64(60)):
        assert verify_certificate(certificate, use_drat_trim=False, timeout=timeout).ok
    stopped = verify_certificate(certificate, use_drat_trim=False, timeout=0)
    assert not stopped.ok and stopped.messages == ("proof.drat: not checked within --timeout 0 s",)
    assert verify_certificate(certificate, use_drat_trim=False, max_proof_bytes=np.int64(10**9)).ok


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (  # was 'internal error, please report: CP-SAT rejected the model' (exit 3)
            ["solve", "--backend", "cpsat", "--workers", "10001", "--limit", "1"],
            "satsudoku: workers must be an integer from 1 to 10,000, not 10001",
        ),
        (  # was a 31-line TypeError traceback
            ["bench", "--sample", "1", "--no-progress", "--backends", "cpsat+workers=abc"],
            "satsudoku: workers must be an integer from 1 to 10,000, not 'abc'",
        ),
    ],
    ids=["solve --workers", "bench cpsat+workers"],
)
def test_the_command_line_passes_on_the_checks_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from satsudoku.cli import main

    assert main([*argv, str(Path(__file__).parent / "data" / "17clue.txt")]) == 2
    assert capsys.readouterr().err == message + "\n"


def test_minimal_seed_is_refused_as_count_and_generate_refuse_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`minimal --reduce --seed -1` reduced with seed 1 (random.Random drops the sign)."""
    from satsudoku.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["minimal", "--reduce", "--seed", "-1", "-"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.endswith("expected a seed 0..2147483647, not '-1'\n")


@pytest.mark.parametrize("value", [1.5, math.nan, True, "2", None, 3.0])
def test_a_shapes_sides_are_integers(value: object) -> None:
    """Shape(1.5, 2) and Shape(nan, 2) ran on to a TypeError inside Puzzle.empty; Shape(True,
    2) was a 1x2 box."""
    with pytest.raises(OptionTypeError, match=r"^Shape's box_rows must be an integer, not "):
        Shape(value, 2)  # type: ignore[arg-type]
    with pytest.raises(OptionTypeError, match=r"^Shape's size must be an integer, not "):
        Shape.for_size(value)  # type: ignore[arg-type]


def test_a_shape_takes_numpy_integers_as_ints() -> None:
    shape = Shape(np.int64(2), np.int64(2))  # type: ignore[arg-type]
    assert shape == Shape(2, 2) and type(shape.box_rows) is int
    assert len(get_backend("bitmask").solve(Puzzle.empty(shape), limit=300).solutions) == 288


@pytest.mark.parametrize("value", [0.5, 1.0, True, "1", None])
def test_givens_are_integers_named_by_cell(value: object) -> None:
    """A given of 0.5 reached CP-SAT, which called the puzzle unsatisfiable, and bitmask and
    sat as a TypeError deep inside; True was read as a 1."""
    values = [0] * 16
    values[6] = value  # type: ignore[call-overload]
    with pytest.raises(OptionTypeError, match=r"^the given at r2c3 must be an integer 0\.\.4, "):
        Puzzle(Shape(2, 2), Grid(4, tuple(values)))  # type: ignore[arg-type]


def test_givens_as_a_list_or_numpy_integers_are_taken_as_ints() -> None:
    values = np.zeros(16, dtype=np.int64)
    values[0] = 1
    for givens in (Grid(4, tuple(values)), Grid(np.int64(4), list(values))):  # type: ignore[arg-type]
        puzzle = Puzzle(Shape(2, 2), givens)
        assert type(puzzle.givens.values) is tuple and type(puzzle.givens.size) is int
        assert {type(v) for v in puzzle.givens.values} == {int}
        for name in ("bitmask", "cpsat"):
            assert len(get_backend(name).solve(puzzle, limit=100).solutions) == 72
