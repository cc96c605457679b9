"""`count --limit K` prints a bound only when the search did not finish: a count that meets
the limit at its last leaf is exact, even past K when digit symmetry makes one leaf stand for
several grids (docs/tools.md, "Digit symmetry")."""

from __future__ import annotations

from pathlib import Path

import pytest

from satsudoku.cli import main

# Givens use 2 and 3 only: 1 and 4 swap, and the search meets one leaf for the two grids.
TWO_BY_SYMMETRY = ".23.3........32.\n"


@pytest.mark.parametrize(
    ("options", "printed"),
    [
        ([], "2\n"),  # one leaf, two grids, nothing left to search: exact
        (["--no-symmetry"], ">= 1 (limit reached)\n"),  # the first grid, the second unseen
        (["--backend", "sat"], ">= 1 (limit reached)\n"),
    ],
)
def test_a_count_done_at_the_limit_is_exact_and_a_cut_one_a_bound(
    options: list[str], printed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(TWO_BY_SYMMETRY)
    assert main(["count", str(puzzle), "--limit", "1", *options]) == 0
    assert capsys.readouterr().out == printed


def test_the_full_count_is_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(TWO_BY_SYMMETRY)
    assert main(["count", str(puzzle), "--no-symmetry"]) == 0
    assert capsys.readouterr().out == "2\n"
