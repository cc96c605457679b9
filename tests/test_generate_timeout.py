"""`generate --timeout S` covers the whole of each puzzle: its --rating (the logic could run
past S on a 16x16) and its --certificate (the proof-logging solve and the check) included."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from satsudoku.commands.common import Progress
from satsudoku.commands.generate import _CertificateFolders
from satsudoku.deadline import OutOfTime
from satsudoku.errors import SatsudokuError
from satsudoku.grid import regular_shape
from satsudoku.io import iter_puzzles
from satsudoku.logic.rating import rate
from satsudoku.tools.generate import Request, generate, rating_of

CLASSIC = Path(__file__).resolve().parent.parent / "models" / "classic"


def test_rating_past_the_deadline_is_out_of_time_not_twelve() -> None:
    """Logic cut short rates 12.0 ('stuck'), which --rating 9..12 would have kept."""
    puzzle = next(iter_puzzles(CLASSIC / "ai-escargot.toml"))
    with pytest.raises(OutOfTime):
        rating_of(puzzle, time.perf_counter() - 1.0)


def test_rating_within_the_deadline_is_the_rate_figure() -> None:
    puzzle = next(iter_puzzles(CLASSIC / "project-euler-96-grid-01.toml"))
    assert rating_of(puzzle, time.perf_counter() + 60) == 1.2
    assert rate(puzzle, machine=False).rating == 1.2


def test_certificate_gets_what_is_left_of_the_timeout(tmp_path: Path) -> None:
    made = next(generate(Request(regular_shape(3, 3), seed=11), 1))
    spent = replace(made, stats={**made.stats, "time_s": 5.0})  # all of --timeout 5 used
    folders = _CertificateFolders(str(tmp_path / "none"), 1, 5.0)
    with pytest.raises(
        SatsudokuError, match="^puzzle 1: no checked certificate within --timeout 5 s$"
    ):
        folders.prove(1, spent, Progress(False))
    assert not (tmp_path / "none" / "0001").exists()
    folders = _CertificateFolders(str(tmp_path / "made"), 1, 60.0)
    note = folders.prove(1, made, Progress(False))
    assert note is not None and note.startswith(f"certificate {tmp_path / 'made' / '0001'} ")
    assert note.endswith("(checked: the formula is refuted by unit propagation alone)")
    assert (tmp_path / "made" / "0001" / "proof.drat").is_file()
