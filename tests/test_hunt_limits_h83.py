"""Extreme but legal options and board sizes (hunt h83): each answer is printed, in time."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.deadline import OutOfTime
from satsudoku.encoders.cnf import AtMostOne, CnfFormula, Encoding, board_amo
from satsudoku.errors import OptionError, PuzzleError
from satsudoku.grid import Grid, Shape
from satsudoku.proof.certificate import (
    CertificateTimeoutError,
    SatCertificate,
    check_certificate,
    make_certificate,
    too_large_to_certify,
    verify_certificate,
)
from satsudoku.proof.core import minimal_conflict
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.symbols import DEFAULT_SYMBOLS
from satsudoku.tools.candidates import true_candidates
from satsudoku.tools.candidates_sat import _Session
from satsudoku.tools.regions import random_regions
from satsudoku.verify import violations

N64, BOX64 = 64, 8


def _pattern64() -> list[int]:
    """A valid 64x64 grid: row r shifted by 8·(r mod 8) + r div 8."""
    cells = range(N64 * N64)
    return [(BOX64 * (i // N64 % BOX64) + i // N64 // BOX64 + i % N64) % N64 + 1 for i in cells]


def test_a_64x64_written_in_symbols_is_answered_in_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1-9A-Za-z has 61 symbols: a 64x64 line (its digits 62-64 left blank) solved, then its
    answer failed to print with a ValueError traceback (digit 62 has no symbol)."""
    givens = [v if v <= len(DEFAULT_SYMBOLS) else 0 for v in _pattern64()]
    line = "".join(DEFAULT_SYMBOLS[v - 1] if v else "." for v in givens)
    path = tmp_path / "p.txt"
    path.write_text(line + "\n")
    assert main(["solve", str(path), "--limit", "1"]) == 0
    words = capsys.readouterr().out.split()
    assert words[N64 * N64] == "solved"
    grid = Grid(N64, tuple(int(word) for word in words[: N64 * N64]))
    assert not violations(Puzzle(Shape.for_size(N64), Grid(N64, tuple(givens))), grid)
    assert {grid.values[i] for i, v in enumerate(givens) if not v} == {62, 63, 64}


N36 = 36
SEED7_REGIONS = "111222333441123333411522233411522666445557686455577686495976688499977888999977788"


def _puzzle36() -> tuple[Puzzle, Grid]:
    """A 36x36 (6x6 boxes) with one cell open, and its solution."""
    values = tuple((6 * (i // N36 % 6) + i // N36 // 6 + i % N36) % N36 + 1 for i in range(N36**2))
    solution = Grid(N36, values)
    return Puzzle(Shape.for_size(N36), Grid(N36, (0, *values[1:]))), solution


def _cpu_of(call: Callable[[], object], expected: type[BaseException]) -> float:
    start = time.process_time()
    with pytest.raises(expected):
        call()
    return time.process_time() - start


def test_a_certificates_formula_is_encoded_within_the_deadline() -> None:
    """`prove --timeout`: the 36x36 pairwise formula (3.3 million clauses, 3 s of CPU) was
    encoded whatever the deadline, and a 64x64's (33 million) took 21 GB and 212 s under
    --timeout 100; now the encoding stops at the deadline."""
    puzzle, solution = _puzzle36()
    by_sat = _cpu_of(
        lambda: make_certificate(puzzle, [solution], deadline=time.perf_counter() + 0.2),
        CertificateTimeoutError,
    )
    by_search = _cpu_of(
        lambda: prove_by_search(puzzle, deadline=time.perf_counter() + 0.2),
        CertificateTimeoutError,
    )
    assert by_sat < 1.5 and by_search < 1.5


def test_a_certificates_clauses_are_matched_within_the_deadline() -> None:
    """`prove --timeout`'s own check re-encodes the rules to justify each clause: 9 s for a
    36x36 before the deadline was read (prove --backend bitmask --timeout 1 ran 10.9 s)."""
    puzzle, solution = _puzzle36()
    formula = CnfFormula(puzzle.shape, Encoding.EXTENDED, AtMostOne.PAIRWISE, [[1]], N36**3)
    certificate = SatCertificate(puzzle, "unique", solution, formula, "bitmask", ["0"])
    cpu = _cpu_of(
        lambda: check_certificate(certificate, time.perf_counter() + 0.2),
        OutOfTime,
    )
    assert cpu < 1.5


def test_generate_loads_the_compiled_search_before_the_puzzles_clock() -> None:
    """A fresh process loads the `fast` kernel on first use (0.37 s of CPU from Numba's cache,
    1.2 s of wall at load 6): inside the first puzzle's clock, `generate --box 2x2 --timeout 1`
    made nothing on a busy machine. A 4x4 takes milliseconds once the kernel is loaded."""
    done = subprocess.run(
        [sys.executable, "-m", "satsudoku", "generate", "--box", "2x2", "--seed", "1"]
        + ["--timeout", "0.2"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert len(done.stdout.split()[0]) == 16


def test_race_refuses_a_limit_below_one_like_its_entrants() -> None:
    """Race passed its entrants' grid on under limit 0 and called it 'unknown'; now every
    backend refuses a limit below 1, as --limit does (satsudoku.options), before any entrant
    starts. Limit 1 still says 'solved' with one grid."""
    empty = Puzzle.empty(Shape.for_size(4))
    for limit in (0, -5):
        with pytest.raises(OptionError, match=f"limit must be a positive integer, not {limit}"):
            get_backend("race").solve(empty, limit=limit)
    result = get_backend("race").solve(empty, limit=1)
    assert result.status is Status.SOLVED and len(result.solutions) == 1


@pytest.mark.parametrize("timeout", [math.inf, 1e300])
def test_mip_takes_an_unbounded_timeout_as_the_other_backends_do(timeout: float) -> None:
    """timedelta(seconds=inf) raised OverflowError out of MipBackend.solve."""
    result = get_backend("mip").solve(Puzzle.empty(Shape.for_size(4)), timeout=timeout)
    assert result.status is Status.MULTIPLE and len(result.solutions) == 2


def test_a_large_jigsaw_drawing_stops_at_the_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    """`generate --jigsaw 64 --timeout 1` ran past 120 s: one drawing of 64x64 regions was
    minutes of CPU, once for the command's options (outside any clock) and again for each
    puzzle (ignoring its deadline). Now the options need no drawing, and a puzzle's drawing
    reads its deadline."""
    start = time.process_time()
    assert main(["generate", "--jigsaw", "36", "--timeout", "0.3", "--seed", "1"]) == 2
    assert time.process_time() - start < 2.0  # was 8.5 s: two 36x36 drawings of 4.3 s
    assert "none made within --timeout 0.3 s" in capsys.readouterr().err


def test_a_jigsaw_drawing_is_the_same_for_a_seed() -> None:
    """Drawing from each region's own cells rather than the whole board kept the draws: these
    9x9 regions are what seed 7 gave before."""
    assert "".join(random_regions(9, Random(7)).region_labels) == SEED7_REGIONS


def test_the_bitmask_search_checks_its_grids_within_the_timeout() -> None:
    """Grids were made from the search's masks and checked after it: 38,000 grids of an empty
    16x16 under limit 10**9, timeout 5 ran 9.7 s. A CPU bound on the timeout feature."""
    backend = get_backend("bitmask")
    start = time.process_time()
    result = backend.solve(Puzzle.empty(Shape.for_size(16)), limit=10**9, timeout=1.0)
    assert time.process_time() - start < 1.6
    assert result.status is Status.MULTIPLE and result.stats["stopped"] == "timeout"
    # The timeout is wall time: at load 14 a 2 s timeout got ~1 s of CPU and found 800 grids.
    assert len(set(result.solutions)) == len(result.solutions) > 100


def _candidate_clauses(n: int) -> int:
    return len(_Session(Puzzle.empty(Shape.for_size(n)), "cadical195", None).formula.clauses)


def test_sat_candidates_post_large_houses_by_a_counter_not_pairwise() -> None:
    """`candidates` on a 64x64 (192 open cells) ran --timeout 5 to 11 s and 2.7 GB, and never
    answered: its rules were encoded pairwise, 33 million clauses (36x36: 3.3 million). Now
    as the SAT backend posts them (pairwise up to 25 literals, a counter beyond): the 64x64
    answers in 29 s at 1.3 GB (the slow test below answers a 36x36)."""
    assert _candidate_clauses(36) == 544_320


@pytest.mark.slow
def test_sat_candidates_answer_a_36x36_and_keep_the_25x25_pairwise() -> None:
    assert _candidate_clauses(25) == 752_500  # pairwise: 625 cells and 100 houses of 25 digits
    puzzle, solution = _puzzle36()
    found = true_candidates(puzzle)
    assert found.status is Status.UNIQUE
    assert [found.digits(divmod(i, N36)) for i in range(N36**2)] == [(d,) for d in solution.values]


@pytest.mark.slow
def test_explain_finds_a_64x64_conflict_within_bounded_memory() -> None:
    """explain encoded a 64x64 pairwise (33 million clauses): a MemoryError traceback at 3.7 GB
    within --timeout 20. Now r1c1=1, r1c2=1 is found in about 6 s at 1.1 GB."""
    givens = [1, 1] + [0] * (N64 * N64 - 2)
    puzzle = Puzzle(Shape.for_size(N64), Grid(N64, tuple(givens)))
    assert minimal_conflict(puzzle, deadline=time.perf_counter() + 60) == [((0, 0), 1), ((0, 1), 1)]


def test_explain_and_guarded_tools_encode_pairwise_up_to_36x36() -> None:
    """Counters left the 36x36 conflict below unknown after 20 s; a 64x64 pairwise died of a
    MemoryError (both run in the slow tests above and below)."""
    assert board_amo(36) is AtMostOne.PAIRWISE and board_amo(49) is not AtMostOne.PAIRWISE


@pytest.mark.slow
def test_explain_finds_a_36x36_conflict() -> None:
    """Up to 36x36 the rules stay pairwise: counters left this conflict unknown after 20 s."""
    givens = [1, 1] + [0] * (N36 * N36 - 2)
    puzzle = Puzzle(Shape.for_size(N36), Grid(N36, tuple(givens)))
    assert minimal_conflict(puzzle, deadline=time.perf_counter() + 60) == [((0, 0), 1), ((0, 1), 1)]


@pytest.mark.slow
def test_minimal_answers_a_64x64_within_bounded_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """minimal's oracle encoded a 64x64 pairwise: a MemoryError traceback at 3.7 GB under
    --timeout 20. Digits 62-64 left open, the puzzle has several solutions (11 s, 1.4 GB)."""
    givens = [v if v <= len(DEFAULT_SYMBOLS) else 0 for v in _pattern64()]
    path = tmp_path / "p.txt"
    path.write_text("".join(DEFAULT_SYMBOLS[v - 1] if v else "." for v in givens) + "\n")
    assert main(["minimal", str(path), "--timeout", "60"]) == 0
    assert "multiple solutions: not minimal" in capsys.readouterr().out


@pytest.mark.slow
def test_logic_compiles_its_kernels_before_the_puzzles_clock(tmp_path: Path) -> None:
    """On a fresh install (an empty Numba cache) compiling the techniques' kernels took 20-60 s
    inside the first puzzle's --timeout: `logic` on an empty 4x4 said 'gave up (--timeout)'.
    Now they are compiled before the clock starts, and the command says so once."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    puzzle = tmp_path / "empty.txt"
    puzzle.write_text("." * 16 + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "satsudoku", "logic", str(puzzle), "--timeout", "5"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "gave up" not in done.stdout and "logic runs out after 0 steps" in done.stdout
    assert "compiled the logic techniques' kernels" in done.stderr


def test_boards_past_49x49_get_no_certificate(tmp_path: Path) -> None:
    """A 64x64 certificate's pairwise formula is 33 million clauses (about 10 GB): `prove`
    built it until --timeout (212 s and 21 GB without one). Now the verdict comes without a
    certificate, the library refuses to write one, and the checker to read one."""
    assert too_large_to_certify(49) is None and too_large_to_certify(36) is None
    assert "boards up to 49x49" in (too_large_to_certify(50) or "")
    big = Puzzle.empty(Shape(8, 8))
    with pytest.raises(PuzzleError, match="33,030,144 clauses"):
        make_certificate(big, [])
    with pytest.raises(PuzzleError, match="boards up to 49x49"):
        prove_by_search(big)
    document = tmp_path / "big.json"
    document.write_text('{"size": 64}')
    done = subprocess.run(
        [sys.executable, "-m", "satsudoku", "prove", str(document), "--backend", "fast"]
        + ["--certificate", str(tmp_path / "certs"), "--timeout", "60"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("puzzle 1: multiple (a 64x64 certificate's pairwise formula")
    assert "no certificate written" in done.stdout
    # A stranger's manifest claiming a 64x64 board is refused before anything is encoded.
    folder = tmp_path / "c4"
    puzzle = tmp_path / "p4.txt"
    puzzle.write_text(".234341221434321\n")
    assert main(["prove", str(puzzle), "--certificate", str(folder)]) == 0
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["puzzle"] = {"size": 64}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    check = verify_certificate(folder)
    assert not check.ok and "boards up to 49x49" in check.messages[0]
