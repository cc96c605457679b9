"""The DRAT checker and certificates: valid refutations pass, tampered ones are rejected."""

from __future__ import annotations

import importlib
import json
import re
import time
import tracemalloc
from pathlib import Path

import pytest
from pysat.solvers import Solver

from satsudoku import Shape, get_backend
from satsudoku.deadline import OutOfTime
from satsudoku.encoders.cnf import AtMostOne, Encoding, dimacs, encode_puzzle
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid
from satsudoku.io import read_puzzles
from satsudoku.proof.certificate import (
    CertificateTimeoutError,
    formula_floor,
    make_certificate,
    verify_certificate,
)
from satsudoku.proof.drat import ProofFormatError, check_drat, parse_dimacs, parse_drat
from satsudoku.puzzle import Puzzle
from tests.conftest import BUNDLED, REPO, puzzle_from_line, sample_lines

XOR2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]  # unsatisfiable


def _steps(text: str) -> list[tuple[bool, list[int]]]:
    return parse_drat(text)


def test_small_refutations() -> None:
    assert check_drat(XOR2, _steps("2 0\n0\n")).ok
    assert check_drat(XOR2, _steps("d 1 2 0\n2 0\n0\n")).ok  # deletions are ignored
    assert not check_drat(XOR2, _steps("0\n")).ok  # the empty clause is not RUP yet
    assert not check_drat(XOR2[:3], _steps("2 0\n0\n")).ok  # satisfiable formula
    assert check_drat([[1], [-1]], []).ok  # refuted by unit propagation alone


def test_a_check_past_its_deadline_raises_out_of_time() -> None:
    with pytest.raises(OutOfTime):
        check_drat(XOR2, _steps("2 0\n0\n"), time.perf_counter() - 1)
    assert check_drat(XOR2, _steps("2 0\n0\n"), time.perf_counter() + 60).ok


def test_a_lemma_that_does_not_follow_is_rejected() -> None:
    formula = [[1, 2, 3], [-1, 2], [-2, 3], [-3, 1], [-1, -2, -3]]  # unsatisfiable
    with Solver(name="cadical195", bootstrap_with=formula, with_proof=True) as sat:
        assert not sat.solve()
        proof = sat.get_proof()
    assert check_drat(formula, _steps("\n".join(proof))).ok
    # x1, x2 contradict each other; x3, x4 are satisfiable. ¬x4 is neither RUP nor RAT, yet
    # the empty clause follows from it by unit propagation: the checker must catch the lemma.
    mixed = [*XOR2, [3, 4], [-3, 4], [3, -4]]
    verdict = check_drat(mixed, _steps("-4 0\n0\n"))
    assert not verdict.ok and "lemma 1" in verdict.message


def test_parsers_reject_garbage() -> None:
    with pytest.raises(ProofFormatError):
        parse_drat("1 2\n")
    with pytest.raises(ProofFormatError):
        parse_dimacs("p cnf 2 2\n1 2 0\n")
    with pytest.raises(ProofFormatError):
        parse_drat("a\x01\x02\n")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("p cnf 5 3\n1 2 0\n-1 0\n", "line 1: the header declares 3 clauses, the file has 2"),
        ("p cnf 2 1\n1 2 0\n-1 0\n", "line 3: clause 2, but the header (line 1) declares 1"),
        ("c x\np cnf 2 2\n1 2 0\n-1 3 0\n", "line 4: literal 3 exceeds the 2 variables"),
        ("p cnf 2 2\n1 2 0\n-1 -3 0\n", "line 3: literal -3 exceeds the 2 variables"),
        ("1 2 0\np cnf 2 1\n", "line 1: a clause before the 'p cnf' header"),
        ("p cnf 2 1\np cnf 2 1\n1 0\n", "line 2: a second 'p cnf' header"),
        ("p cnf two 1\n1 0\n", "line 1: bad DIMACS header"),
    ],
)
def test_dimacs_must_keep_the_header_s_promise(text: str, error: str) -> None:
    with pytest.raises(ProofFormatError, match=re.escape(error)):
        parse_dimacs(text)
    assert parse_dimacs("p cnf 2 2\n1 2 0\n-1 0\n") == (2, [[1, 2], [-1]])


def _written(tmp_path: Path, dataset: str) -> tuple[Path, Path, str, str]:
    """A unique puzzle's certificate on disk: its folder, formula.cnf, that text, its header."""
    puzzle = puzzle_from_line(sample_lines(BUNDLED / dataset, 1)[0], Shape(3, 3))
    solution = get_backend("bitmask").solve(puzzle).solutions
    folder = make_certificate(puzzle, solution).write(tmp_path / "c")
    cnf = folder / "formula.cnf"
    text = cnf.read_text()
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    return folder, cnf, text, header


def test_a_certificate_whose_header_lies_is_rejected(tmp_path: Path) -> None:
    folder, cnf, text, header = _written(tmp_path, "17clue.txt")
    cnf.write_text(text.replace(header, "p cnf 5 " + header.split()[3]))
    check = verify_certificate(folder)
    assert not check.ok and "exceeds the 5 variables" in check.messages[-1]


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_unique_9x9_certificate_verifies_and_tampering_is_rejected(
    solver: str, tmp_path: Path
) -> None:
    line = sample_lines(BUNDLED / "17clue.txt", 1)[0]
    puzzle = puzzle_from_line(line, Shape(3, 3))
    from satsudoku import get_backend

    solution = get_backend("bitmask").solve(puzzle).solutions
    certificate = make_certificate(puzzle, solution, solver=solver)
    folder = certificate.write(tmp_path / "cert")
    check = verify_certificate(folder)
    assert check.ok, check.messages

    # A 17-clue puzzle is minimal: dropping a given leaves several solutions, so the formula
    # without it is satisfiable and no proof may pass.
    cnf = (folder / "formula.cnf").read_text().splitlines()
    given = next(i for i in range(len(cnf) - 2, 0, -1) if len(cnf[i].split()) == 2)
    num_vars, clauses = parse_dimacs((folder / "formula.cnf").read_text())
    weaker = [c for c in clauses if c != [int(cnf[given].split()[0])]]
    assert len(weaker) == len(clauses) - 1
    assert not check_drat(weaker, parse_drat((folder / "proof.drat").read_text())).ok


def test_a_truncated_proof_is_rejected(tmp_path: Path) -> None:
    from satsudoku import get_backend

    line = sample_lines(BUNDLED / "forum-hardest-1106.txt", 1)[0]
    puzzle = puzzle_from_line(line, Shape(3, 3))
    solution = get_backend("bitmask").solve(puzzle).solutions
    folder = make_certificate(puzzle, solution).write(tmp_path / "hard")
    assert verify_certificate(folder).ok
    (folder / "proof.drat").write_text("0\n")
    check = verify_certificate(folder)
    assert not check.ok and "no conflict" in check.messages[-1]


def test_unjustified_clauses_and_wrong_solutions_are_rejected(tmp_path: Path) -> None:
    folder, cnf, text, header = _written(tmp_path, "top1465.txt")
    _, vars_, count = header.split()[1:]
    extra = text.replace(header, f"p cnf {vars_} {int(count) + 1}") + "-1 0\n"
    cnf.write_text(extra)
    check = verify_certificate(folder)
    assert not check.ok and "not justified" in check.messages[-1]
    cnf.write_text(text)
    assert verify_certificate(folder).ok

    wrong = [int(ch) for ch in (folder / "solution.txt").read_text().strip()]
    wrong[0], wrong[1] = wrong[1], wrong[0]
    symbols = "123456789"
    (folder / "solution.txt").write_text("".join(symbols[v - 1] for v in wrong) + "\n")
    check = verify_certificate(folder)
    assert not check.ok and "not a solution" in check.messages[0]


def test_unsatisfiable_certificate_refuted_by_unit_propagation(tmp_path: Path) -> None:
    values = [0] * 81
    values[0] = values[10] = 5  # r1c1 = r2c2 = 5: same box
    puzzle = puzzle_from_line("".join(str(v) if v else "." for v in values), Shape(3, 3))
    folder = make_certificate(puzzle, []).write(tmp_path / "u")
    check = verify_certificate(folder)
    assert check.ok and "unit propagation alone" in check.messages[-1]
    assert (folder / "solution.txt").read_text().strip() == "none"


@pytest.mark.slow  # ~2.2 s CPU: the checker's path is the 9x9 certificates' by default
def test_16x16_certificate_is_checked_quickly(tmp_path: Path) -> None:
    puzzle = puzzle_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text())
    known = (BUNDLED / "16x16-acwing169-sample.solutions.txt").read_text().split()[0]
    grid = Grid(16, tuple(ord(ch) - ord("A") + 1 for ch in known))
    folder = make_certificate(puzzle, [grid]).write(tmp_path / "big")
    assert verify_certificate(folder).ok


# ---------------------------------------------------------------------------------------------
# Refutations that need lemmas: the checker must really check them.

TDOKU = BUNDLED / "tdoku-test-puzzles.labeled.txt"


def _tdoku_unsat() -> Puzzle:
    """tdoku-test-puzzles line 21, a ':0' puzzle that unit propagation alone does not refute."""
    line = TDOKU.read_text().splitlines()[20]
    assert line.endswith(":0")
    return puzzle_from_line(line.split(":")[0], Shape(3, 3))


def _lemma_positions(steps: list[tuple[bool, list[int]]]) -> list[int]:
    """Index in `steps` of lemma k + 1 (deletions skipped), for k = 0, 1, ..."""
    return [i for i, (deletion, _) in enumerate(steps) if not deletion]


def test_unsatisfiable_certificate_whose_proof_needs_lemmas(tmp_path: Path) -> None:
    folder = make_certificate(_tdoku_unsat(), []).write(tmp_path / "u")
    check = verify_certificate(folder)
    assert check.ok, check.messages
    clauses = parse_dimacs((folder / "formula.cnf").read_text())[1]
    steps = parse_drat((folder / "proof.drat").read_text())
    verdict = check_drat(clauses, steps)
    assert verdict.ok and verdict.checked >= 100  # 177 of 796 with CaDiCaL 1.9.5
    assert "unit propagation alone" not in verdict.message
    at = _lemma_positions(steps)
    needed = [k - 1 for k in verdict.needed]  # 0-based lemma numbers, in proof order

    altered = list(steps)  # the earliest needed lemma, negated: later lemmas lose their RUP
    altered[at[needed[0]]] = (False, [-lit for lit in steps[at[needed[0]]][1]])
    bad = check_drat(clauses, altered)
    assert not bad.ok and "is neither RUP nor RAT" in bad.message

    dropped = {at[k] for k in needed[: len(needed) // 2]}  # the first half of what is needed
    bad = check_drat(clauses, [step for i, step in enumerate(steps) if i not in dropped])
    assert not bad.ok and "is neither RUP nor RAT" in bad.message

    # A given unit weakened by a second literal: the proof no longer refutes the formula,
    # and the certificate check finds the clause unjustified before it gets that far.
    given = next(i for i, clause in enumerate(clauses) if len(clause) == 1)
    weaker = [*clauses[:given], [clauses[given][0], -clauses[given][0] - 1], *clauses[given + 1 :]]
    assert not check_drat(weaker, steps).ok
    _write_formula(folder, weaker)
    check = verify_certificate(folder)
    assert not check.ok and f"clause {given + 1} " in check.messages[-1]
    _write_formula(folder, [*clauses, [1, 2]])  # an extra clause, header updated
    check = verify_certificate(folder)
    extra = f"clause {len(clauses) + 1} (1 2 0) is not justified"
    assert not check.ok and extra in check.messages[-1]
    _write_formula(folder, clauses)
    assert verify_certificate(folder).ok


def _write_formula(folder: Path, clauses: list[list[int]]) -> None:
    """Replace formula.cnf by `clauses`, with a header that matches them (729 + auxiliaries)."""
    num_vars = parse_dimacs((folder / "formula.cnf").read_text())[0]
    body = "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
    (folder / "formula.cnf").write_text(f"p cnf {num_vars} {len(clauses)}\n{body}")


def test_unique_hard_puzzle_certificate_needs_many_lemmas(tmp_path: Path) -> None:
    line = (BUNDLED / "forum-hardest-1106.txt").read_text().splitlines()[11]
    puzzle = puzzle_from_line(line, Shape(3, 3))
    solution = get_backend("bitmask").solve(puzzle).solutions
    folder = make_certificate(puzzle, solution).write(tmp_path / "h")
    check = verify_certificate(folder)
    assert check.ok, check.messages
    clauses = parse_dimacs((folder / "formula.cnf").read_text())[1]
    steps = parse_drat((folder / "proof.drat").read_text())
    verdict = check_drat(clauses, steps)
    assert verdict.checked >= 200  # 354 of 946 with CaDiCaL 1.9.5
    at = _lemma_positions(steps)
    dropped = {at[k - 1] for k in verdict.needed[: len(verdict.needed) // 2]}
    kept = "\n".join(
        ("d " if deletion else "") + " ".join(map(str, clause)) + " 0"
        for i, (deletion, clause) in enumerate(steps)
        if i not in dropped
    )
    (folder / "proof.drat").write_text(kept + "\n")
    check = verify_certificate(folder)
    assert not check.ok and "neither RUP nor RAT" in check.messages[-1]


# ---------------------------------------------------------------------------------------------
# Deadlines, and what a certificate folder holds.


def test_a_deadline_stops_certificate_generation() -> None:
    puzzle = _tdoku_unsat()
    with pytest.raises(CertificateTimeoutError):
        make_certificate(puzzle, [], deadline=time.perf_counter() - 1)  # passed already
    with pytest.raises(CertificateTimeoutError):
        make_certificate(puzzle, [], deadline=time.perf_counter() + 1e-4)
    # A deadline far away: the refutation is built in conflict-budget slices, and still checks.
    for solver in ("cadical195", "glucose4"):
        cert = make_certificate(puzzle, [], solver=solver, deadline=time.perf_counter() + 60)
        assert check_drat(cert.clauses, parse_drat("\n".join(cert.proof))).checked >= 100


def test_writing_over_a_certificate_leaves_no_partial_files(tmp_path: Path) -> None:
    puzzle = puzzle_from_line(sample_lines(BUNDLED / "top1465.txt", 1)[0], Shape(3, 3))
    solution = get_backend("bitmask").solve(puzzle).solutions
    folder = make_certificate(puzzle, solution).write(tmp_path / "c")
    again = make_certificate(puzzle, solution, solver="glucose4")
    with pytest.raises(PuzzleError, match="already holds certificate files"):
        again.write(folder)  # old and new evidence are never mixed
    assert json.loads((folder / "manifest.json").read_text())["solver"] == "cadical195"
    again.write(folder, force=True)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["formula.cnf", "manifest.json", "proof.drat", "solution.txt"]
    )
    assert json.loads((folder / "manifest.json").read_text())["solver"] == "glucose4"
    assert verify_certificate(folder).ok


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ({"solution.txt": "12345\n"}, "solution.txt: expected 81 symbols"),
        ({"manifest.json": "{"}, "manifest.json:1:2: invalid JSON"),
        ({"manifest.json": '{"format": "satsudoku-certificate/1", "puzzle": 5}'}, "object"),
        ({"proof.drat": "x y\n"}, "proof.drat: line 1"),
        ({"formula.cnf": b"\xff\xfe"}, "formula.cnf: 2 bytes cannot hold the 9x9 extended"),
        ({"manifest.json": b"{\xff\xfe}"}, "manifest.json: not UTF-8 text (byte 2)"),
    ],
)
def test_an_unreadable_certificate_is_rejected_not_raised(
    bad: dict[str, str | bytes], reason: str, tmp_path: Path
) -> None:
    puzzle = puzzle_from_line(sample_lines(BUNDLED / "top1465.txt", 1)[0], Shape(3, 3))
    solution = get_backend("bitmask").solve(puzzle).solutions
    folder = make_certificate(puzzle, solution).write(tmp_path / "c")
    for name, content in bad.items():
        path = folder / name
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    check = verify_certificate(folder)
    assert not check.ok and len(check.messages) == 1 and reason in check.messages[0]
    (folder / "proof.drat").unlink()
    check = verify_certificate(folder)
    assert not check.ok and "missing proof.drat" in check.messages[0]


# ---------------------------------------------------------------------------------------------
# Variant certificates: auxiliary variables, re-derived clause by clause.

KILLER_6 = REPO / "models" / "variants" / "killer" / "killer-6x6.json"
LITTLE_KILLER_6 = REPO / "models" / "variants" / "sums" / "littlekiller-6x6.json"


@pytest.mark.parametrize("model", [KILLER_6, LITTLE_KILLER_6], ids=["killer", "littlekiller"])
def test_auxiliary_clauses_are_re_derived_and_tampering_is_caught(
    model: Path, tmp_path: Path
) -> None:
    (puzzle,) = read_puzzles(model)
    solution = get_backend("bitmask").solve(puzzle).solutions
    certificate = make_certificate(puzzle, solution)
    folder = certificate.write(tmp_path / "v")
    manifest = json.loads((folder / "manifest.json").read_text())
    aux = manifest["auxiliary_variables"]
    assert aux > 0 and manifest["variables"] == 6**3 + aux
    check = verify_certificate(folder)
    assert check.ok and f"{aux} auxiliary variables re-derived" in check.messages[1]

    clauses = parse_dimacs((folder / "formula.cnf").read_text())[1]
    first = next(i for i, clause in enumerate(clauses) if max(map(abs, clause)) > 6**3)
    for tamper in (_next_auxiliary, _negate_auxiliary):  # same size, same header
        _write_formula(folder, [*clauses[:first], tamper(clauses[first]), *clauses[first + 1 :]])
        check = verify_certificate(folder)
        assert not check.ok and f"clause {first + 1} " in check.messages[-1], tamper
    _write_formula(folder, clauses)
    assert verify_certificate(folder).ok
    manifest["auxiliary_variables"] = aux + 1
    (folder / "manifest.json").write_text(json.dumps(manifest))
    check = verify_certificate(folder)
    wrong = f"{aux + 1} auxiliary variables, the encoding has {aux}"
    assert not check.ok and wrong in check.messages[-1]


def _next_auxiliary(clause: list[int]) -> list[int]:
    """The clause with each auxiliary variable renumbered to the next one."""
    return [lit + 1 if lit > 6**3 else lit - 1 if lit < -(6**3) else lit for lit in clause]


def _negate_auxiliary(clause: list[int]) -> list[int]:
    """The clause with each auxiliary literal negated."""
    return [-lit if abs(lit) > 6**3 else lit for lit in clause]


# ---------------------------------------------------------------------------------------------
# Bounds: numbers a C int cannot hold, and variables numbered far past what a file holds.


@pytest.mark.parametrize(
    ("parse", "text", "error"),
    [
        (parse_drat, "1 " + "9" * 5000 + " 0\n", "line 1: a literal beyond ±2147483647"),
        (parse_drat, "2147483648 0\n", "line 1: a literal beyond ±2147483647"),
        (parse_drat, "1 " + "x" * 5000 + " 0\n", "not a textual DRAT step"),
        (parse_dimacs, "p cnf " + "9" * 5000 + " 1\n1 0\n", "line 1: header counts beyond"),
        (parse_dimacs, "p cnf 2147483648 1\n1 0\n", "line 1: header counts beyond"),
        (parse_dimacs, "p cnf 2 1\n1 -" + "9" * 5000 + " 0\n", "line 2: a literal beyond"),
        (parse_dimacs, "p cnf 2 1\n1 -" + "9" * 4000 + " 0\n", "line 2: a literal beyond"),
    ],
)
def test_numbers_past_a_c_int_are_refused_in_one_short_line(
    parse: object, text: str, error: str
) -> None:
    assert callable(parse)
    with pytest.raises(ProofFormatError, match=re.escape(error)) as caught:
        parse(text)
    assert len(str(caught.value)) < 120


def test_a_new_variable_numbered_far_away_costs_no_memory() -> None:
    # RAT lemmas on variable 10^6, which no clause mentions: the checker's arrays stay sized by
    # the literals the files hold (the checker before sized them by 10^6: a 411 MB peak).
    importlib.import_module("numpy")  # the renaming's import, once a process: not measured
    tracemalloc.start()
    verdict = check_drat(XOR2, _steps("-1000000 1 0\n1000000 1 0\n1 0\n0\n"))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert verdict.ok and verdict.needed == (3, 4) and peak < 1 << 20, (verdict, peak)
    # ¬x is RAT (nothing holds x); x then is neither, and is shown with its own number.
    failed = check_drat(XOR2, _steps("-1000000 0\n1000000 0\n0\n"))
    assert not failed.ok and failed.message == "lemma 2 (1000000 0) is neither RUP nor RAT"


def test_lemma_counts_agree_between_manifest_checker_and_prove(tmp_path: Path) -> None:
    puzzle = puzzle_from_line(sample_lines(BUNDLED / "top1465.txt", 1)[0], Shape(3, 3))
    certificate = make_certificate(puzzle, get_backend("bitmask").solve(puzzle).solutions)
    verdict = check_drat(certificate.clauses, parse_drat("\n".join(certificate.proof)))
    lemmas = certificate.lemma_count  # the empty clause included, as every count is
    assert certificate.proof[-1].strip() == "0" and verdict.needed[-1] == lemmas
    assert verdict.lemmas == lemmas == certificate.manifest()["lemmas"]
    assert f"{verdict.checked} of {lemmas} lemmas needed and checked" in verdict.message


@pytest.mark.parametrize("encoding", [Encoding.MINIMAL, Encoding.EFFICIENT, Encoding.EXTENDED])
@pytest.mark.parametrize("shape", [Shape(1, 1), Shape(1, 5), Shape(2, 2), Shape(2, 3), Shape(3, 3)])
def test_the_formula_floor_never_refuses_a_real_formula(shape: Shape, encoding: Encoding) -> None:
    # verify-certificate refuses a formula.cnf under this floor before re-encoding its puzzle;
    # an encoder change that made real formulas smaller would reject valid certificates.
    formula = encode_puzzle(Puzzle.empty(shape), encoding, AtMostOne.PAIRWISE)
    assert len(dimacs(formula, []).encode()) >= formula_floor(shape.size, encoding)
