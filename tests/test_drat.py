"""The DRAT checker and certificates: valid refutations pass, tampered ones are rejected."""

from __future__ import annotations

from pathlib import Path

import pytest
from pysat.solvers import Solver

from satsudoku import Shape
from satsudoku.grid import Grid
from satsudoku.proof.certificate import make_certificate, verify_certificate
from satsudoku.proof.drat import ProofFormatError, check_drat, parse_dimacs, parse_drat
from tests.conftest import BUNDLED, puzzle_from_line, sample_lines

XOR2 = [[1, 2], [-1, 2], [1, -2], [-1, -2]]  # unsatisfiable


def _steps(text: str) -> list[tuple[bool, list[int]]]:
    return parse_drat(text)


def test_small_refutations() -> None:
    assert check_drat(XOR2, _steps("2 0\n0\n")).ok
    assert check_drat(XOR2, _steps("d 1 2 0\n2 0\n0\n")).ok  # deletions are ignored
    assert not check_drat(XOR2, _steps("0\n")).ok  # the empty clause is not RUP yet
    assert not check_drat(XOR2[:3], _steps("2 0\n0\n")).ok  # satisfiable formula
    assert check_drat([[1], [-1]], []).ok  # refuted by unit propagation alone


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
    puzzle = puzzle_from_line(sample_lines(BUNDLED / "top1465.txt", 1)[0], Shape(3, 3))
    from satsudoku import get_backend

    solution = get_backend("bitmask").solve(puzzle).solutions
    folder = make_certificate(puzzle, solution).write(tmp_path / "c")
    cnf = folder / "formula.cnf"
    text = cnf.read_text()
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    _, vars_, count = header.split()[1:]
    extra = text.replace(header, f"p cnf {vars_} {int(count) + 1}") + "-1 0\n"
    cnf.write_text(extra)
    check = verify_certificate(folder)
    assert not check.ok and "not justified" in check.messages[-1]
    cnf.write_text(text)
    assert verify_certificate(folder).ok

    wrong = list(solution[0].values)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    symbols = "123456789"
    (folder / "solution.txt").write_text("".join(symbols[v - 1] for v in wrong) + "\n")
    check = verify_certificate(folder)
    assert not check.ok and "not a solution" in check.messages[0]


def test_unsatisfiable_certificate(tmp_path: Path) -> None:
    values = [0] * 81
    values[0] = values[10] = 5  # r1c1 = r2c2 = 5: same box
    puzzle = puzzle_from_line("".join(str(v) if v else "." for v in values), Shape(3, 3))
    folder = make_certificate(puzzle, []).write(tmp_path / "u")
    assert verify_certificate(folder).ok
    assert (folder / "solution.txt").read_text().strip() == "none"


def test_16x16_certificate_is_checked_quickly(tmp_path: Path) -> None:
    puzzle = puzzle_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text())
    known = (BUNDLED / "16x16-acwing169-sample.solutions.txt").read_text().split()[0]
    grid = Grid(16, tuple(ord(ch) - ord("A") + 1 for ch in known))
    folder = make_certificate(puzzle, [grid]).write(tmp_path / "big")
    assert verify_certificate(folder).ok
