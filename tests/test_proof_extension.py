"""Sums' automata as extension variables in the bitmask search's DRAT proofs
(`proof.extension`): unit propagation then makes the kernel's sum deductions, the search writes
no checked lemma, both checkers accept the certificates, and a definition that reuses a
variable of the formula is rejected."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from satsudoku.encoders.cnf import CnfFormula, encode_puzzle
from satsudoku.grid import Grid
from satsudoku.io import read_puzzles
from satsudoku.proof.certificate import verify_certificate
from satsudoku.proof.extension import extend_sums, runs_of
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.puzzle import Puzzle
from satsudoku.sat.solvers import new_solver
from satsudoku.search.kernel import _kernel_for
from tests.conftest import REPO
from tests.proof_checks import both_checkers_accept, independent

SUMS = REPO / "models" / "variants" / "sums"
REAL = REPO / "models" / "variants" / "real"


Sums = list[tuple[tuple[int, ...], tuple[int, ...], int, tuple[tuple[int, ...], ...]]]


def _sums(puzzle: Puzzle) -> Sums:
    kernel = _kernel_for(puzzle)
    return [
        (index.cells, index.weights, index.total, index.groups)
        for _, step, index in kernel.extras
        if step == kernel._sum
    ]


def _absent(puzzle: Puzzle, formula: CnfFormula) -> frozenset[int]:
    """Cell-digit variables unit propagation on the formula makes false (the prover's root)."""
    units = [clause[0] for clause in formula.clauses if len(clause) == 1]
    longer = [clause for clause in formula.clauses if len(clause) > 1]
    solver = new_solver("glucose4", bootstrap_with=longer)
    ok, implied = solver.propagate(assumptions=units)  # level 0 itself goes unreported
    solver.delete()
    assert ok
    top = puzzle.size**3
    return frozenset(-lit for lit in implied if -top <= lit < 0)


def test_digits_the_givens_remove_get_no_arcs(tmp_path: Path) -> None:
    """An arc over a digit false at the root is false wherever a checker looks: the automata
    leave those out (arrow-6x6: 96 arcs, 73 without them), and the proof still checks."""
    (puzzle,) = read_puzzles(SUMS / "arrow-6x6.json")
    formula = encode_puzzle(puzzle)
    absent = _absent(puzzle, formula)
    full = extend_sums(_sums(puzzle), formula)
    pruned = extend_sums(_sums(puzzle), formula, absent=absent)
    assert len(absent) == 84
    assert sum(a.arcs for a in full if a) == 96 and sum(a.arcs for a in pruned if a) == 73
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["extension_arcs"] == 73 and found.stats["refined_nodes"] == 0
    both_checkers_accept(found.certificate, tmp_path / "a")


def test_runs_are_the_groups_cut_where_they_are_not_consecutive() -> None:
    assert runs_of([(0, 1, 2), (4, 5)], 7) == ([0, 0, 0, -1, 1, 1, -1], True)
    assert runs_of([(0, 1, 3, 4)], 5) == ([0, 0, -1, 1, 1], False)
    assert runs_of([(0, 2)], 3) == ([-1, -1, -1], False)


@pytest.mark.parametrize(
    "path",
    [SUMS / "arrow-6x6.json", REAL / "sumthings-6x6.json", REAL / "out-of-the-blue-6x6.json"],
    ids=lambda p: p.stem,
)
def test_unit_propagation_makes_every_sum_deduction_of_the_kernel(path: Path) -> None:
    """Formula + automata under the kernel's root and random decisions: every digit the
    kernel's propagation removes is false by unit propagation, and the kernel's conflicts are
    unit propagation's (what lets the search write its lemmas unchecked)."""
    (puzzle,) = read_puzzles(path)
    formula = encode_puzzle(puzzle)
    automata = extend_sums(_sums(puzzle), formula, absent=_absent(puzzle, formula))
    assert automata and all(a is not None and a.covered for a in automata)
    solver = new_solver("glucose4", bootstrap_with=formula.clauses)
    for automaton in automata:
        assert automaton is not None
        for clause in automaton.clauses:
            solver.add_clause(clause)
    kernel = _kernel_for(puzzle)
    n = puzzle.size
    root = kernel.initial(puzzle.givens.values)
    assert root is not None
    removed = [  # the root's state as literals: placed digits, else the digits gone
        i * n + d if root[i] & kernel.guard else -(i * n + d)
        for i in range(n * n)
        for d in range(1, n + 1)
        if bool(kernel.open_bits(root[i]) & kernel.bit[d - 1]) == bool(root[i] & kernel.guard)
    ]
    rng = random.Random(7)
    compared = 0
    for _ in range(60):
        masks, decisions = root.copy(), []
        for _ in range(rng.randint(1, 4)):
            open_cells = [i for i in range(n * n) if masks[i] & (masks[i] - 1)]
            if not open_cells:
                break
            cell = rng.choice(open_cells)
            bits = [b for b in kernel.bit if kernel.open_bits(masks[cell]) & b]
            bit = rng.choice(bits)
            decisions.append(cell * n + kernel.digit(bit))
            dirty = kernel.assign(masks, cell, bit)
            alive = dirty >= 0 and kernel.propagate(masks, dirty)
            ok, implied = solver.propagate(assumptions=removed + decisions)
            if not alive:
                assert not ok, decisions  # the kernel's conflict is unit propagation's
                break
            if not ok:
                break  # unit propagation may see further than the kernel
            state = set(implied) | set(removed)
            for i in range(n * n):
                for d in range(1, n + 1):
                    if not kernel.open_bits(masks[i]) & kernel.bit[d - 1]:
                        assert -(i * n + d) in state or any(
                            i * n + e in state for e in range(1, n + 1)
                        ), (decisions, i, d)
            compared += 1
    solver.delete()
    assert compared > 10


def test_region_sums_are_certified_without_checked_lemmas(tmp_path: Path) -> None:
    """Published region sum lines (sums of ±1 weights, total 0), which need search: 11 nodes."""
    (puzzle,) = read_puzzles(REAL / "out-of-the-blue-6x6.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["extension_lemmas"] > 0 and found.stats["extension_arcs"] > 0
    assert found.stats["refined_nodes"] == found.stats["propagations"] == 0
    both_checkers_accept(found.certificate, tmp_path / "c")


def _wrong_given(puzzle: Puzzle) -> Puzzle:
    """`puzzle` with a 2 given at r1c6, where its solution holds another digit."""
    assert puzzle.solution is not None
    values = list(puzzle.givens.values)
    cell = 5
    assert not values[cell] and puzzle.solution.values[cell] != 2
    values[cell] = 2
    return replace(puzzle, givens=Grid(puzzle.size, tuple(values)), solution=None)


def test_an_unsatisfiable_region_sum_puzzle_is_certified(tmp_path: Path) -> None:
    (puzzle,) = read_puzzles(REAL / "out-of-the-blue-6x6.json")
    broken = _wrong_given(puzzle)
    found = prove_by_search(broken)
    assert found.status == "unsatisfiable" and found.certificate is not None
    assert found.stats["extension_lemmas"] > 0 and found.stats["nodes"] > 1
    both_checkers_accept(found.certificate, tmp_path / "u")


def test_a_definition_over_a_variable_of_the_formula_is_rejected(tmp_path: Path) -> None:
    """The first extension variable renamed, throughout the proof, to a cell-digit variable:
    its definitions are then neither RUP nor RAT (the variable occurs in the formula), and
    both checkers reject the certificate."""
    (puzzle,) = read_puzzles(REAL / "out-of-the-blue-6x6.json")
    found = prove_by_search(puzzle)
    assert found.certificate is not None
    found.certificate.write(tmp_path / "t")
    fresh = found.certificate.formula.num_vars + 1
    lines = (tmp_path / "t" / "proof.drat").read_text().splitlines()
    assert any(str(fresh) in line.split() for line in lines)
    used = 2 * puzzle.size + 1  # x(r1c3, 1): r1c3 is open

    def rename(token: str) -> str:
        if token.lstrip("-") != str(fresh):
            return token
        return f"-{used}" if token.startswith("-") else str(used)

    tampered = [" ".join(map(rename, line.split())) for line in lines]
    (tmp_path / "t" / "proof.drat").write_text("\n".join(tampered) + "\n")
    check = verify_certificate(tmp_path / "t")
    assert not check.ok
    assert not independent(tmp_path / "t")


@pytest.mark.slow  # ~1 s to prove, ~25 s for the two checkers
def test_published_little_killer_is_certified_without_checked_lemmas(tmp_path: Path) -> None:
    """Seven diagonals (box runs of distinct digits): 52 nodes, none justified by branching."""
    (puzzle,) = read_puzzles(REAL / "littlekiller.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["refined_nodes"] == 0 and found.stats["nodes"] > 20
    both_checkers_accept(found.certificate, tmp_path / "k")


def test_root_sum_deductions_without_automata_are_spliced_from_cdcl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sum too large for an automaton (here every sum: no arcs allowed) has its root
    deductions refuted by a proof-logging CaDiCaL; its lemmas, spliced in, pass both checkers
    (i-bet-someone-did-this-already's 81-term arrow is proved so)."""
    monkeypatch.setattr("satsudoku.proof.extension.MAX_ARCS", 0)
    (puzzle,) = read_puzzles(REAL / "out-of-the-blue-6x6.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["extension_arcs"] == 0 and found.stats["cdcl_lemmas"] > 0
    both_checkers_accept(found.certificate, tmp_path / "c")
