"""Hostile DRAT proofs and the checker's memory: what a line costs must not grow with tricks.

Proof steps and the checker's clauses live in flat arrays of C ints, so a proof of millions of
short lemmas costs tens of bytes a lemma (a list per lemma cost ~310 bytes for a 4-byte '1 0'
line: 5 GB within the 64 MiB a certificate may hold). A deletion's literals are never used
(the checker keeps every clause), so they are not kept. Repeated unit lemmas are propagated
once, and units on variables no longer clause mentions are kept aside, so neither makes every
check walk them all. Time: checking can be quadratic in a proof's size, so verify-certificate
takes --timeout.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from satsudoku import Shape, get_backend
from satsudoku.cli import main
from satsudoku.deadline import OutOfTime
from satsudoku.proof.certificate import make_certificate
from satsudoku.proof.drat import MAX_VARIABLE, _Checker, check_drat, parse_drat
from tests.conftest import BUNDLED, puzzle_from_line, sample_lines

XOR2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]  # unsatisfiable


def test_deletions_keep_no_literals_and_the_proof_still_checks() -> None:
    steps = parse_drat(b"d 1 2 0\n" * 20_000 + b"2 0\n0\n")
    assert len(steps) == 20_002 and steps.deletions == 20_000 and len(steps.literals) == 1
    assert len(steps.is_deletion) == 20_002 and steps.lemma_count == 2
    assert steps[0] == (True, []) and steps[-2] == (False, [2])
    verdict = check_drat(XOR2, steps)
    assert verdict.ok and verdict.deletions == 20_000 and verdict.lemmas == 2


_LINES = 4_000
_HOSTILE = {  # what a stranger can repeat, and the bytes a lemma may cost (the lists: 310-1150)
    "one unit": (b"1 0\n" * _LINES, 80),
    "fresh units": (b"".join(b"-%d 0\n" % (10**6 + i) for i in range(_LINES)), 200),
    "binaries": (
        b"".join(b"%d %d 0\n" % (1 + i % 300, 301 + i // 300) for i in range(_LINES)),
        160,
    ),
    "ternaries": (
        b"".join(
            b"%d %d -%d 0\n" % (1 + i % 300, 301 + i // 300, 2 + i % 7) for i in range(_LINES)
        ),
        160,
    ),
}


@pytest.mark.parametrize(
    "kind",
    [
        "one unit",  # the others take ~0.8 s under tracemalloc
        *(
            pytest.param(kind, marks=pytest.mark.slow)
            for kind in sorted(_HOSTILE)
            if kind != "one unit"
        ),
    ],
)
def test_a_proof_of_many_short_lemmas_costs_tens_of_bytes_a_lemma(kind: str) -> None:
    text, most = _HOSTILE[kind]
    tracemalloc.start()
    verdict = check_drat(XOR2, parse_drat(text + b"2 0\n0\n"))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert verdict.ok and verdict.lemmas == _LINES + 2, verdict
    assert peak < most * _LINES, (kind, peak / _LINES)


def test_unit_lemmas_on_lone_variables_still_meet_their_opposites() -> None:
    # Units on a variable no longer clause holds are kept aside: a lemma holding the literal
    # is subsumed by the unit, the opposite unit clashes with it, and neither is forgotten.
    assert check_drat(XOR2, parse_drat("7 0\n7 -1 0\n2 0\n0\n")).ok
    refused = check_drat([[1, 2]], parse_drat("7 0\n-7 0\n0\n"))  # satisfiable
    assert not refused.ok and refused.message == "lemma 2 (-7 0) is neither RUP nor RAT"
    clash = check_drat([[1, 2]], [(False, [7]), (False, [-7]), (False, [])])
    assert not clash.ok  # -7 is not RAT on the unit 7 (their resolvent is empty, not RUP)
    # Formula units on such variables clash at base: refuted by unit propagation alone.
    assert check_drat([[5], [-5], [1, 2]], []).message.endswith("unit propagation alone")


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


def test_units_prepended_to_a_proof_are_propagated_once_not_at_every_check() -> None:
    # 2,000 units, each on a variable of a binary lemma of its own (so not kept aside), before
    # the lemmas that matter: checks run newest first, and none of them may redo the units
    # (0.9 MiB of such lines made a 9x9 proof's check 1.5 -> 33 s when every check did).
    units = 2_000
    lemmas = [[10 + 2 * i, 11 + 2 * i] for i in range(units)]
    lemmas += [[10 + 2 * i] for i in range(units)]
    implies_2 = [[1, 2], [-1, 2]]
    checker = _Checker(implies_2, [*lemmas, [-2]])
    first = len(implies_2)
    assert checker.rup([-2], first + len(lemmas)) is None  # (-2) is not active yet
    trail = list(checker._top.trail)
    assert len(trail) == units and len(checker._top.starts) == units
    assert checker.rup([2], first + len(lemmas)) is not None  # RUP: the formula gives 2
    assert list(checker._top.trail) == trail  # kept, not rebuilt
    assert checker.rup([], first + len(lemmas) + 1) is not None  # with (-2): a conflict
    # Below the units' clauses the top level is undone, and only as far as needed.
    last_unit = checker.original(first + 2 * units - 1)  # (the checker's own numbering)
    assert checker.rup(list(last_unit), first + 2 * units - 1) is None
    assert list(checker._top.trail) == trail[:-1]


def test_verify_certificate_has_a_time_limit_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from satsudoku.proof import certificate

    puzzle = puzzle_from_line(sample_lines(BUNDLED / "top1465.txt", 1)[0], Shape(3, 3))
    make_certificate(puzzle, get_backend("bitmask").solve(puzzle).solutions).write(tmp_path / "c")
    size = (tmp_path / "c" / "proof.drat").stat().st_size
    assert certificate.default_check_seconds(size) == 60 + 60 * size / 2**20
    assert certificate.verify_certificate(tmp_path / "c", use_drat_trim=False).ok
    monkeypatch.setattr(certificate, "CHECK_SECONDS", -1.0)  # a limit already past
    monkeypatch.setattr(certificate, "CHECK_SECONDS_PER_MIB", 0.0)
    check = certificate.verify_certificate(tmp_path / "c", use_drat_trim=False)
    assert not check.ok
    assert check.messages == (
        "proof.drat: not checked within the default -1 s (-1 s + 0 s per MiB of proof; "
        "--timeout S allows more)",
    )
