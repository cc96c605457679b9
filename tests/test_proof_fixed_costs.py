"""The bitmask proof's fixed costs cut without changing what it writes: CaDiCaL's binary trace
read in one pass, sums too large for an automaton counted before being built, and the rules'
lowering shared between encodings (formulas unchanged)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from satsudoku.encoders.cnf import encode_puzzle, encode_rules, lowered
from satsudoku.io import read_puzzles
from satsudoku.proof.binary import added_clauses, decode
from satsudoku.proof.certificate import verify_certificate
from satsudoku.proof.extension import build, count_arcs, runs_of
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.sat.solvers import new_solver
from satsudoku.search.kernel import _kernel_for
from tests.conftest import REPO

REAL = REPO / "models" / "variants" / "real"


def _text_lemmas(lines: list[str]) -> list[list[int]]:
    return [[int(x) for x in line.split()[:-1]] for line in lines if line and line[0] != "d"]


@pytest.mark.parametrize("seed", range(4))
def test_the_binary_trace_reads_as_pysat_reads_it(seed: int) -> None:
    """Random 3-SAT near the threshold, solved with and without an assumption: the added
    clauses are pysat's text proof's, in order (deletions left out)."""
    rng = random.Random(seed)
    variables = 50 + 20 * seed
    solver = new_solver("cadical153", with_proof=True)
    try:
        for _ in range(int(4.3 * variables)):
            solver.add_clause([rng.choice((1, -1)) * rng.randint(1, variables) for _ in range(3)])
        solver.solve()
        solver.solve(assumptions=[rng.randint(1, variables)])
        mine = added_clauses(solver)
        assert mine == _text_lemmas(solver.get_proof())
        assert mine  # the solver learnt something to compare
    finally:
        solver.delete()


def test_hand_written_binary_traces() -> None:
    # 'a' 2 (=1) 5 (=-2) 0; 'd' 4 (=2) 0; 'a' 0 (the empty clause); 'a' 255 1 (=-127) 0
    data = bytes([97, 2, 5, 0, 100, 4, 0, 97, 0, 97, 255, 1, 0])
    assert decode(data) == [[1, -2], [], [-127]]
    assert decode(b"") == []
    with pytest.raises(ValueError):
        decode(bytes([97, 2]))  # no closing 0 byte
    with pytest.raises(ValueError):
        decode(bytes([120, 2, 0]))  # neither 'a' nor 'd'


def test_arcs_are_counted_as_built() -> None:
    """On the published little killer (runs of box digits) and a 78-cell arrow: the count is
    the built automaton's, and past a limit the count stops soon after it (a state's arcs)."""
    for name in ("littlekiller.json", "arrow.json"):
        (puzzle,) = read_puzzles(REAL / name)
        formula = encode_puzzle(puzzle)
        kernel = _kernel_for(puzzle)
        sums = [index for _, step, index in kernel.extras if step == kernel._sum]
        layouts = {(s.cells, s.weights, s.total): s for s in formula.sums}
        assert sums
        for index in sums:
            layout = layouts[(index.cells, index.weights, index.total)]
            for run in (runs_of(index.groups, len(index.cells))[0], [-1] * len(index.cells)):
                automaton = build(layout, run, 9, formula.num_vars, max_arcs=10**6)
                assert automaton is not None
                assert count_arcs(layout, run, 9, 10**6) == automaton.arcs
                if automaton.arcs > 10:
                    assert 10 < count_arcs(layout, run, 9, 10) < automaton.arcs


def test_the_lowering_is_shared_and_the_formula_unchanged() -> None:
    """encode_puzzle reuses one lowering per shape and rules; the clauses are those of
    encoding the rules' constraints afresh, clause for clause."""
    for name in ("2d-1-5-9.json", "littlekiller.json"):
        (puzzle,) = read_puzzles(REAL / name)
        assert lowered(puzzle) is lowered(puzzle)
        cached = encode_puzzle(puzzle)
        fresh = encode_rules(puzzle.shape, puzzle.constraints(), givens=puzzle.givens)
        assert cached.clauses == fresh.clauses and cached.num_vars == fresh.num_vars


@pytest.mark.slow  # ~0.3 s to prove, ~1 s to check
def test_the_81_term_arrow_is_certified(tmp_path: Path) -> None:
    """i-bet-someone-did-this-already: its arrow folds to a 3-cell sum (the whole houses of
    its shaft in the total, `encoders.house_sums`), so the kernel's 81-term sum gets no
    automaton, yet no CaDiCaL trace is spliced in (42,000 lemmas before); the checker accepts."""
    (puzzle,) = read_puzzles(REAL / "i-bet-someone-did-this-already.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["cdcl_lemmas"] == 0 and found.stats["lemmas"] < 1_000
    assert found.certificate is not None
    found.certificate.write(tmp_path / "c")
    check = verify_certificate(tmp_path / "c")
    assert check.ok, check.messages
