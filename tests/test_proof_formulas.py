"""Bitmask proofs' fixed costs: the rules' clauses encoded once per rule set (`proof.formulas`,
the same formula clause for clause) and pair supports the givens satisfy left out (the proofs
still pass both checkers)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from satsudoku.encoders.cnf import AtMostOne, CnfFormula, Encoding, encode_puzzle
from satsudoku.grid import Grid
from satsudoku.io import read_puzzles
from satsudoku.proof.formulas import puzzle_formula
from satsudoku.proof.search_proof import _Prover, prove_by_search
from satsudoku.proof.supports import pair_supports
from satsudoku.puzzle import Puzzle
from satsudoku.search.kernel import _kernel_for
from tests.conftest import REPO
from tests.proof_checks import both_checkers_accept

REAL = REPO / "models" / "variants" / "real"


def _real(name: str) -> Puzzle:
    return read_puzzles(REAL / f"{name}.json")[0]


def _same(found: CnfFormula, expected: CnfFormula) -> None:
    assert found.clauses == expected.clauses
    assert found.num_vars == expected.num_vars
    assert found.sums == expected.sums and found.atmost == expected.atmost


def _other_givens(puzzle: Puzzle) -> Puzzle:
    """The same rules with half of the solution's digits given instead."""
    assert puzzle.solution is not None
    values = tuple(v if k % 2 else 0 for k, v in enumerate(puzzle.solution.values))
    return replace(puzzle, givens=Grid(puzzle.size, values))


@pytest.mark.parametrize("name", ["arrow", "159", "jigsaw"])
def test_the_formula_is_the_encoders_clause_for_clause(name: str) -> None:
    """Built, then from the kept rules (twice, other givens between), and in the efficient
    encoding: encode_puzzle's."""
    puzzle = _real(name)
    amo = AtMostOne.PAIRWISE
    expected = encode_puzzle(puzzle, Encoding.EXTENDED, amo)
    _same(puzzle_formula(puzzle, Encoding.EXTENDED, amo), expected)
    other = _other_givens(puzzle)
    _same(puzzle_formula(other, Encoding.EXTENDED, amo), encode_puzzle(other, Encoding.EXTENDED))
    _same(puzzle_formula(puzzle, Encoding.EXTENDED, amo), expected)
    efficient = encode_puzzle(puzzle, Encoding.EFFICIENT, amo)
    _same(puzzle_formula(puzzle, Encoding.EFFICIENT, amo), efficient)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["between", "i-bet-someone-did-this-already"])
def test_a_proof_leaves_the_kept_rules_as_they_were(name: str) -> None:
    """A proof appends its blocking clause (and its extensions read the formula) on its own
    copy: the next formula is still encode_puzzle's."""
    puzzle = _real(name)
    expected = encode_puzzle(puzzle, Encoding.EXTENDED, AtMostOne.PAIRWISE)
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.certificate is not None
    assert found.certificate.formula.clauses[:-1] == expected.clauses  # + the blocking clause
    _same(puzzle_formula(puzzle, Encoding.EXTENDED, AtMostOne.PAIRWISE), expected)


@pytest.mark.parametrize("name", ["159", "antiknight-nonconsecutive"])
def test_pair_supports_the_givens_satisfy_are_left_out(name: str) -> None:
    """Every support clause left out holds at level 0 (a given's unit clause, or a given's
    other digits, false by its cell's at-most-one clause); some are left out."""
    puzzle = _real(name)
    kernel = _kernel_for(puzzle)
    n, givens = puzzle.size, puzzle.givens.values
    every = [tuple(c) for c in pair_supports(kernel)]
    kept = [tuple(c) for c in pair_supports(kernel, givens)]
    true = {cell * n + d for cell, d in enumerate(givens) if d}
    true |= {-(cell * n + e) for cell, d in enumerate(givens) if d for e in range(1, n + 1)}
    true -= {-lit for lit in true if lit > 0}
    left = set(every) - set(kept)
    assert set(kept) <= set(every) and len(left) > 100
    assert all(any(lit in true for lit in clause) for clause in left)
    assert not any(any(lit in true for lit in clause) for clause in kept)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["159", "antiknight-nonconsecutive"])
def test_proofs_with_fewer_supports_pass_both_checkers(name: str, tmp_path: Path) -> None:
    puzzle = _real(name)
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    both_checkers_accept(found.certificate, tmp_path)


def test_masks_read_alike_among_many_auxiliaries() -> None:
    """A unit-propagation state mostly of auxiliary variables (a large table's selectors) is
    read by looking up the cell variables: the same masks as reading every literal."""
    puzzle = _real("jigsaw")
    formula = puzzle_formula(puzzle, Encoding.EXTENDED, AtMostOne.PAIRWISE)
    prover = _Prover(puzzle, _kernel_for(puzzle), formula, None, None)
    try:
        state = prover._closure([])
        assert state is not None
        top = puzzle.size**3
        placed = [lit for lit in state if 0 < lit <= top]
        assert 0 < len(placed) < puzzle.size**2 and len(state) <= 2 * top
        auxiliaries = {top + k for k in range(1, 2 * top)} | {-(top + k) for k in range(2 * top)}
        assert prover._masks(state | auxiliaries) == prover._masks(state)
    finally:
        prover.close()
