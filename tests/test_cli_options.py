"""CLI options end to end: progress line, --timeout, --format, --box, on the real command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.cli import main
from tests.conftest import BUNDLED
from tests.test_cli import write as _write

EMPTY_4X4 = "." * 16


def test_progress_line_counts_puzzles_and_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (BUNDLED / "17clue.txt").read_text().split()[:5]
    path = _write(tmp_path, "\n".join(lines) + "\n")
    assert main(["solve", path, "--progress"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 5
    assert captured.err.rstrip().endswith("unique 5") and "5 puzzles" in captured.err
    assert main(["solve", path, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("backend", ["bitmask", "sat", "cpsat"])
def test_timeout_ends_an_endless_count_as_it_should(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "." * 81 + "\n")
    # 1 s: the model is built, then grids are found; 0.3 s left a busy machine none at times
    args = ["solve", path, "--backend", backend, "--limit", "1000000", "--timeout", "1"]
    assert main([*args, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    # Some grids were found before time ran out, so the verdict is already "multiple".
    assert record["status"] == "multiple" and record["count"] is None
    assert record["stats"]["stopped"] == "timeout" and record["time_s"] < 3


def test_format_settles_a_block_of_sixteen_symbol_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """16 lines of 16 symbols are 16 4x4 puzzles or one 16x16 grid: --format decides."""
    path = _write(tmp_path, "\n".join([EMPTY_4X4] * 16) + "\n")
    assert main(["count", path, "--format", "line"]) == 0
    assert capsys.readouterr().out.split() == ["288"] * 16
    assert main(["count", path, "--format", "grid", "--limit", "3"]) == 0
    assert capsys.readouterr().out.strip() == ">= 3 (limit reached)"  # one 16x16 puzzle


def test_box_option_decides_which_cells_share_a_box(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r1c1 and r2c3 share a 2x3 box (the default for 6x6) but not a 3x2 one."""
    givens = ["."] * 36
    givens[0] = givens[6 + 2] = "1"
    path = _write(tmp_path, "".join(givens) + "\n")
    assert main(["solve", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unsatisfiable"
    assert main(["solve", path, "--box", "3x2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "multiple"


def test_count_progress_shows_solutions_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, f"{EMPTY_4X4}\n{EMPTY_4X4}\n")
    assert main(["count", path, "--progress"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "288\n288\n"
    final = captured.err.split("\r")[-1]  # the line left on screen at the end
    assert final.startswith("2 puzzles, 576 solutions, ") and final.rstrip().endswith("/s")
    assert main(["count", path]) == 0  # stderr is no terminal here: no display by default
    assert capsys.readouterr().err == ""


def test_prove_progress_names_the_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each phase is drawn as it begins when the display is idle (the first one always is)."""
    path = _write(tmp_path, EMPTY_4X4[:-2] + "12\n")
    assert main(["prove", path, "--progress"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("puzzle 1: multiple")
    assert "\r0 puzzles, 0/s  puzzle 1: searching (" in captured.err
    assert captured.err.split("\r")[-1].startswith("1 puzzle, ")
    assert main(["prove", path, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_verify_certificate_progress_names_the_phase_and_counts_certificates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, (BUNDLED / "17clue.txt").read_text().split()[0] + "\n")
    folder = tmp_path / "cert"
    assert main(["prove", path, "--certificate", str(folder), "--no-progress"]) == 0
    capsys.readouterr()
    args = ["verify-certificate", str(folder), "--no-drat-trim"]
    assert main([*args, "--progress"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == f"{folder}: VERIFIED"
    assert "\r0 certificates  certificate 1: re-encoding the puzzle" in captured.err
    assert captured.err.split("\r")[-1].startswith("1 certificate  verified 1")
    assert main([*args, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
