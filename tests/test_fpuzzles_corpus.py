"""Nickleaton/sudoku's 615 published f-puzzles files (MIT) through benchmarks/fpuzzles_corpus.py:
no wrong answer (a stored solution breaking a rule read, unsat, or another grid), and at least
the 377 solved when measured, 476 with the options their rules texts call for
(benchmarks/fpuzzles_corpus_lines.txt); skipped without the mirror."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_sudokupad_lines import corpus_run

CORPUS = Path(__file__).resolve().parents[2] / ".mirror" / "Nickleaton+sudoku" / "repo"


@pytest.mark.slow
def test_the_whole_corpus_never_answers_wrong() -> None:
    if not (CORPUS / "HEAD").exists():
        pytest.skip(f"Nickleaton/sudoku mirror not found at {CORPUS}")
    out, solved = corpus_run("fpuzzles_corpus.py", CORPUS, 615, timeout=900)
    assert solved >= 377, out
    assert "is not supported" not in out  # every key of the corpus is read
    lines = REPO / "benchmarks" / "fpuzzles_corpus_lines.txt"
    out, solved = corpus_run("fpuzzles_corpus.py", CORPUS, 615, "--lines", str(lines), timeout=900)
    assert solved >= 476, out
