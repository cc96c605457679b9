"""Bitmask proofs over tables of four cells or more (quadruples): their selector supports make
the kernel's table revision unit propagation, so the search is trusted, as pair variables do
for three-cell tables (`supports.covered_tables`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satsudoku.encoders.cnf import encode_puzzle
from satsudoku.io import read_puzzles
from satsudoku.proof.drat import check_drat, parse_drat
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.proof.supports import covered_tables, read_selectors
from satsudoku.puzzle import Puzzle
from satsudoku.search.kernel import _kernel_for
from tests.conftest import REPO
from tests.proof_checks import both_checkers_accept, independent

MODELS = REPO / "models" / "variants"


def _tables(puzzle: Puzzle) -> list[tuple[tuple[int, ...], set[tuple[int, ...]]]]:
    kernel = _kernel_for(puzzle)
    return [
        (t.cells, {tuple(map(kernel.digit, row)) for row in t.rows if all(row)})
        for _, step, t in kernel.extras
        if step == kernel._table
    ]


@pytest.mark.slow  # the quadruples' lowering and kernel: ~0.5 s
def test_selector_encoded_tables_are_covered_and_a_missing_row_is_not() -> None:
    """quadruple-repeated-values' ten quadruples (24 rows each, 6,537 forbidden: selectors):
    each has a selector group, one selector per row; with one row added to a table, or one
    selector left out of a group, that table is not covered. quadruple-6x6's have 1,296
    digit tuples in all, so forbidden-row clauses and no selectors: not covered."""
    (puzzle,) = read_puzzles(MODELS / "real" / "quadruple-repeated-values.json")
    selectors = read_selectors(encode_puzzle(puzzle).clauses, puzzle.size)
    tables = _tables(puzzle)
    assert len(tables) == 10 and covered_tables(selectors, tables)
    cells, rows = tables[0]
    other = next(
        (a, b, c, d)
        for a in range(1, 10)
        for b in range(1, 10)
        for c in range(1, 10)
        for d in range(1, 10)
        if (a, b, c, d) not in rows
    )
    assert not covered_tables(selectors, [(cells, rows | {other}), *tables[1:]])
    group = next(g for g in selectors.groups if len(g) == len(rows))
    selectors.groups = [g[1:] if g is group else g for g in selectors.groups]
    assert not covered_tables(selectors, tables)
    (small,) = read_puzzles(MODELS / "cells" / "quadruple-6x6.json")
    plain = read_selectors(encode_puzzle(small).clauses, small.size)
    assert not covered_tables(plain, _tables(small))


@pytest.mark.slow
def test_quadruple_proofs_are_trusted_and_need_their_supports(tmp_path: Path) -> None:
    """No node is checked or refined; both checkers accept the certificate, and reject its
    proof with the selector supports (written first) taken out."""
    (puzzle,) = read_puzzles(MODELS / "real" / "quadruple-repeated-values.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["propagations"] == found.stats["refined_nodes"] == 0
    both_checkers_accept(found.certificate, tmp_path)
    assert found.certificate is not None
    supports = int(found.stats["support_lemmas"])
    assert supports > 100
    rest = found.certificate.proof[supports:]
    assert not check_drat(found.certificate.clauses, parse_drat("\n".join(rest))).ok
    (tmp_path / "proof.drat").write_text("".join(line + "\n" for line in rest))
    assert not independent(tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["quadruple-x", "broken-paperclip"])
def test_published_quadruples_are_proved_trusted(name: str, tmp_path: Path) -> None:
    """quadruple-x's search was checked at every node (2,277 propagations, 1.3 s against
    0.22 s plain); now none."""
    (puzzle,) = read_puzzles(MODELS / "real" / f"{name}.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["propagations"] == found.stats["refined_nodes"] == 0
    both_checkers_accept(found.certificate, tmp_path)
