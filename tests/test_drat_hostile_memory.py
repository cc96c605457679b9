"""Hostile DRAT proofs and the checker's memory: what a line costs must not grow with tricks.

A deletion's literals are never used (the checker keeps every clause), so every deletion step
shares one object; the checker never copies or renames the lists it is given, so a proof of
short lemmas costs no second copy of each and the caller's steps stay as they were read.
Time: checking can be quadratic in a proof's size, so verify-certificate takes --timeout.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from satsudoku import Shape, get_backend
from satsudoku.cli import main
from satsudoku.deadline import OutOfTime
from satsudoku.proof.certificate import make_certificate
from satsudoku.proof.drat import MAX_VARIABLE, _Checker, check_drat, parse_drat
from tests.conftest import BUNDLED, puzzle_from_line, sample_lines

XOR2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]  # unsatisfiable


def test_deletions_share_one_step_and_the_proof_still_checks() -> None:
    steps = parse_drat(b"d 1 2 0\n" * 20_000 + b"2 0\n0\n")
    deletions = steps[:-2]
    assert len(deletions) == 20_000
    assert len({id(step) for step in deletions}) == 1 and deletions[0] == (True, [])
    verdict = check_drat(XOR2, steps)
    assert verdict.ok and verdict.deletions == 20_000 and verdict.lemmas == 2


def test_checking_leaves_the_callers_lemmas_as_read() -> None:
    big = MAX_VARIABLE
    text = f"{big} 1 0\n{big} -1 0\n-{big} 2 2 0\n2 0\n0\n"
    steps = parse_drat(text)
    before = [list(clause) for _, clause in steps]
    verdict = check_drat(XOR2, steps)
    assert verdict.ok, verdict.message
    assert [clause for _, clause in steps] == before  # not renamed, not deduplicated


def test_a_refused_lemma_is_named_by_the_proofs_own_literals() -> None:
    big = MAX_VARIABLE - 1
    steps = parse_drat(f"{big} 0\n-{big} 0\n0\n")
    verdict = check_drat([[1, 2], [-1, 2], [1, -2]], steps)  # satisfiable: no refutation
    assert not verdict.ok
    assert f"-{big} 0" in verdict.message  # the proof's number, not the checker's renaming


def test_verify_certificate_timeout_rejects_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = puzzle_from_line(sample_lines(BUNDLED / "top1465.txt", 1)[0], Shape(3, 3))
    make_certificate(puzzle, get_backend("bitmask").solve(puzzle).solutions).write(tmp_path / "c")
    args = ["verify-certificate", str(tmp_path / "c"), "--no-drat-trim"]
    assert main([*args, "--timeout", "1e-9"]) == 1  # gone before the check starts
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{tmp_path / 'c'}: REJECTED",
        "  proof.drat: not checked within --timeout 1e-09 s",
    ]
    assert main([*args, "--timeout", "600"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{tmp_path / 'c'}: VERIFIED"


def test_a_pivot_with_many_partners_stops_at_the_deadline_inside_the_rat_check() -> None:
    steps = parse_drat(b"-3 2 0\n" * 2_000 + b"3 0\n0\n")  # (3) is RAT on 2,000 partners
    assert check_drat(XOR2, steps).ok
    checker = _Checker(XOR2, [clause for _, clause in steps][:-1])
    with pytest.raises(OutOfTime):
        checker.rat([3], len(XOR2) + 2_000, time.perf_counter() - 1)
