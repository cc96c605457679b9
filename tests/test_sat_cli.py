"""The SAT subcommands through `satsudoku.cli.main`: exit codes and output."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.commands import prove
from satsudoku.io import read_puzzles
from satsudoku.proof.drat import parse_dimacs
from tests.conftest import BUNDLED, sample_lines

CLASH = "11" + "." * 79  # two 1s in row 1


@pytest.fixture
def two_puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "two.txt"
    path.write_text("\n".join(sample_lines(BUNDLED / "top1465.txt", 2)) + "\n")
    return path


def test_solve_with_the_sat_backend(two_puzzles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(two_puzzles), "--backend", "sat", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["unique", "unique"]
    assert records[0]["backend"] == "sat" and "conflicts" in records[0]["stats"]


def test_prove_then_verify_then_tamper(
    two_puzzles: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    certs = tmp_path / "certs"
    assert main(["prove", str(two_puzzles), "--certificate", str(certs)]) == 0
    out = capsys.readouterr().out
    assert out.count("unique") == 2 and "checked" in out
    assert main(["verify-certificate", str(certs)]) == 0
    assert capsys.readouterr().out.count("VERIFIED") == 2
    (certs / "0002" / "proof.drat").write_text("0\n")
    assert main(["verify-certificate", str(certs / "0002")]) == 1
    assert "REJECTED" in capsys.readouterr().out


def test_one_bad_certificate_does_not_stop_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "three.txt"
    path.write_text("\n".join(sample_lines(BUNDLED / "top1465.txt", 3)) + "\n")
    certs = tmp_path / "certs"
    assert main(["prove", str(path), "--certificate", str(certs)]) == 0
    (certs / "0001" / "solution.txt").write_text("12345\n")
    (certs / "0002" / "manifest.json").write_text("{")
    capsys.readouterr()
    assert main(["verify-certificate", str(certs)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{certs / '0001'}: REJECTED"
    assert "solution.txt: expected 81 symbols" in out[1]
    assert out[2] == f"{certs / '0002'}: REJECTED" and "manifest.json:1:2: invalid JSON" in out[3]
    assert out[4] == f"{certs / '0003'}: VERIFIED"
    assert out[-1] == "3 certificates: 1 verified, 2 rejected"
    (certs / "0002" / "manifest.json").unlink()  # no manifest: still a (broken) certificate
    assert main(["verify-certificate", str(certs)]) == 1
    assert "missing manifest.json" in capsys.readouterr().out


def test_prove_with_a_tiny_timeout_writes_nothing(
    two_puzzles: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    certs = tmp_path / "certs"
    args = ["prove", str(two_puzzles), "--certificate", str(certs), "--timeout", "0.000001"]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"puzzle {i}: unknown (no verdict within the time limit)" for i in (1, 2)]
    assert not certs.exists()


def test_prove_out_of_time_while_certifying_is_unknown(
    two_puzzles: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search settles the puzzle; the proof-logging solve then runs out of time."""
    real = prove.make_certificate

    def late(*args: Any, **kwargs: Any) -> Any:
        return real(*args, **{**kwargs, "deadline": time.perf_counter() + 1e-4})

    monkeypatch.setattr(prove, "make_certificate", late)
    certs = tmp_path / "certs"
    assert main(["prove", str(two_puzzles), "--certificate", str(certs), "--timeout", "60"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "puzzle 1: unknown (the search says unique, but its refutation was not finished "
        "within the time limit; no certificate written)"
    )
    assert not certs.exists()


def test_prove_out_of_time_while_checking_is_unknown_and_writes_it_unchecked(
    two_puzzles: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The proof is written; its check then runs out of time (x-sum's 33,000 lemmas took
    110 s to check under `--timeout 5`): unknown, and the folder is left for
    verify-certificate, which has no limit."""
    real = prove.check_certificate

    def late(certificate: Any, deadline: float | None = None) -> Any:
        return real(certificate, time.perf_counter() - 1)

    monkeypatch.setattr(prove, "check_certificate", late)
    certs = tmp_path / "certs"
    assert main(["prove", str(two_puzzles), "--certificate", str(certs), "--timeout", "60"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("puzzle 1: unknown (the search says unique, but the time limit ran ")
    assert out[0].endswith(f"was checked, certificate {certs / '0001'} (unchecked))")
    assert main(["verify-certificate", str(certs)]) == 0


def test_a_certificate_failing_its_own_check_exits_3(
    two_puzzles: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our own proof rejected by our own checker is our bug: said per puzzle, then exit 3."""
    failed = prove.CertificateCheck(False, ("lemma 3 (1 2 0) is neither RUP nor RAT",))
    monkeypatch.setattr(prove, "check_certificate", lambda *_: failed)
    assert main(["prove", str(two_puzzles)]) == 3
    captured = capsys.readouterr()
    assert captured.out.count("CHECK FAILED: lemma 3 (1 2 0) is neither RUP nor RAT") == 2
    assert "2 certificate(s) failed satsudoku's own check" in captured.err


def test_prove_unsatisfiable_and_multiple(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(CLASH + "\n" + "." * 81 + "\n")
    assert main(["prove", str(path), "--certificate", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("puzzle 1: unsatisfiable") and "multiple" in out[1]
    assert main(["verify-certificate", str(tmp_path / "c")]) == 0


def test_verify_certificate_of_nothing_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify-certificate", str(tmp_path)]) == 1
    assert "no manifest.json" in capsys.readouterr().err


def test_encode_writes_dimacs(two_puzzles: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.cnf"
    args = ["encode", str(two_puzzles), "--index", "2", "--encoding", "reduced", "-o", str(out)]
    assert main(args) == 0
    text = out.read_text()
    assert "c encoding: reduced" in text and "c numbering: var(r, c, d)" in text
    num_vars, clauses = parse_dimacs(text)
    assert num_vars == 729 and 0 < len(clauses) < 4000


def test_encode_needs_an_index_for_several_puzzles(
    two_puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["encode", str(two_puzzles)]) == 1
    assert "--index" in capsys.readouterr().err


@pytest.mark.parametrize(("model", "cells"), [("integer", 81), ("boolean", 729)])
def test_encode_for_cpsat_is_a_model_cp_sat_reads_back(
    two_puzzles: Path, capsys: pytest.CaptureFixture[str], model: str, cells: int
) -> None:
    from ortools.sat.python import cp_model

    argv = ["encode", str(two_puzzles), "--index", "1", "--backend", "cpsat", "--model", model]
    assert main(argv) == 0
    loaded = cp_model.CpModel()
    assert loaded.Proto().parse_text_format(capsys.readouterr().out)
    assert len(loaded.Proto().variables) == cells
    solver = cp_model.CpSolver()
    assert solver.solve(loaded) == cp_model.OPTIMAL
    (puzzle,) = read_puzzles(two_puzzles)[:1]
    expected = get_backend("bitmask").solve(puzzle).solution
    assert expected is not None
    if model == "integer":  # variable i is cell i
        values = [solver.value(loaded.get_int_var_from_proto_index(i)) for i in range(81)]
    else:  # variable 9i + d - 1 is "cell i holds d"
        true = [i for i in range(729) if solver.value(loaded.get_bool_var_from_proto_index(i))]
        values = [i % 9 + 1 for i in true]
    assert tuple(values) == expected.values


def test_explain_names_the_clashing_givens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Row 1 leaves r1c9 only digit 9, which column 9 already holds at r9c9: five givens
    # are needed for that (r1c1..r1c8 are all given here; the others are noise).
    row = "12345678." + "." * 63 + "........9"
    path = tmp_path / "bad.txt"
    path.write_text(CLASH + "\n" + row + "\n" + "." * 81 + "\n")
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "puzzle 1: r1c1=1, r1c2=1: conflict (2 givens that cannot hold together)"
    assert "r9c9=9" in out[1] and "(9 givens" in out[1]
    assert out[2] == "puzzle 3: has a solution; nothing to explain"


def test_explain_timeout_answers_unknown_then_the_conflict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An empty 36x36 took explain 10 s and 1 GB to find satisfiable; --timeout bounds it.
    path = tmp_path / "bad.txt"
    path.write_text(CLASH + "\n")
    assert main(["explain", str(path), "--timeout", "1e-9"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["puzzle 1: unknown (no minimal conflict within --timeout 1e-09 s)"]
    assert main(["explain", str(path), "--timeout", "600"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["puzzle 1: r1c1=1, r1c2=1: conflict (2 givens that cannot hold together)"]
