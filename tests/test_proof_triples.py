"""Three-cell tables' pair variables in the bitmask search's DRAT proofs (`proof.triples`):
each lemma is RUP where it is written, unit propagation then removes exactly the digits the
kernel's arc consistency removes, between lines need no branching in the proof, and a formula
that does not forbid a missing row gets no pair variables."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from satsudoku.encoders.cnf import Clause
from satsudoku.io import read_puzzles
from satsudoku.proof import search_proof
from satsudoku.proof.certificate import verify_certificate
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.proof.triples import Triple, extend_triples, forbidden_held, root_facts
from tests.conftest import REPO

REAL = REPO / "models" / "variants" / "real"
N = 4
CELLS = (0, 1, 2)  # p, q, r: variables cell * N + digit
# A between line p - q - r with q strictly between its ends.
ROWS = [
    (a, b, c)
    for a, b, c in itertools.product(range(1, N + 1), repeat=3)
    if min(a, c) < b < max(a, c)
]


def _formula(rows: list[tuple[int, int, int]]) -> list[Clause]:
    """One digit per cell (at least and at most one) and a clause per missing row."""
    clauses: list[Clause] = []
    for cell in CELLS:
        lits = [cell * N + d for d in range(1, N + 1)]
        clauses.append(lits)
        clauses += [[-a, -b] for a, b in itertools.combinations(lits, 2)]
    for t in itertools.product(range(1, N + 1), repeat=3):
        if t not in rows:
            clauses.append([-(c * N + d) for c, d in zip(CELLS, t, strict=True)])
    return clauses


def _closure(clauses: list[Clause], assumptions: list[int]) -> set[int] | None:
    """Unit propagation's literals under `assumptions`, level 0's included; None: conflict."""
    propagator = search_proof._Propagator(clauses)
    try:
        return propagator.closure(assumptions)
    finally:
        propagator.close()


def test_every_lemma_is_rup_in_order_and_propagation_is_arc_consistency() -> None:
    clauses = _formula(ROWS)
    table: Triple = (CELLS, ROWS)
    assert forbidden_held(table, N, root_facts(clauses, N)[1], frozenset())
    found = extend_triples([table], N, 3 * N)
    assert found.pairs > 0 and found.top == 3 * N + found.pairs
    assert len(found.definitions) == 3 * found.pairs
    known = [*clauses, *found.definitions]
    for lemma in found.lemmas[0]:
        assert _closure(known, [-lit for lit in lemma]) is None, lemma  # RUP
        known.append(lemma)
    # Under every set of removed digits, unit propagation removes what arc consistency does.
    lits = [c * N + d for c in CELLS for d in range(1, N + 1)]
    for removed in itertools.combinations(lits, 3):
        state = _closure(known, [-lit for lit in removed])
        domains = [{d for d in range(1, N + 1) if c * N + d not in removed} for c in CELLS]
        alive = [t for t in ROWS if all(t[k] in domains[k] for k in range(3))]
        if not alive:
            continue  # arc consistency wipes a cell out; propagation may too, or later
        assert state is not None, removed
        for k, cell in enumerate(CELLS):
            supported = {t[k] for t in alive}
            for d in domains[k] - supported:
                assert -(cell * N + d) in state, (removed, cell, d)


def test_a_missing_clause_keeps_the_table_out() -> None:
    clauses = _formula(ROWS)
    gone = next(c for c in clauses if len(c) == 3)
    clauses.remove(gone)
    assert not forbidden_held((CELLS, ROWS), N, root_facts(clauses, N)[1], frozenset())
    # A digit false at the root makes its triples no matter.
    absent = frozenset(-lit for lit in gone[:1])
    assert forbidden_held((CELLS, ROWS), N, root_facts(clauses, N)[1], absent)


@pytest.mark.parametrize(
    "name",
    [pytest.param("between.json", marks=pytest.mark.slow), "between-odd-and-even-6x6.json"],
)
def test_between_lines_need_no_branching_in_the_proof(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """between.json: 109 refined nodes with the tables' projections alone, none with pairs."""
    (puzzle,) = read_puzzles(REAL / name)
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["pair_variables"] > 0 and found.stats["refined_nodes"] == 0
    assert found.stats["propagations"] == 0  # trusted: no lemma checked
    assert found.certificate is not None
    found.certificate.write(tmp_path / "c")
    check = verify_certificate(tmp_path / "c")
    assert check.ok, check.messages
    if name == "between.json":
        monkeypatch.setattr(search_proof, "_TRIPLES", False)
        before = prove_by_search(puzzle)
        assert before.solutions == found.solutions and before.stats["refined_nodes"] > 0
