"""Holes found by the attacker pass of 2026-11-27 (brief h62): inputs a reader took in and read
as another puzzle, silently, where they must be refused in one line (or read as written), and
a --timeout no clock could hold.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text


def _fpuzzles(**keys: Any) -> str:
    return json.dumps({"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], **keys})


def _count(text: str) -> int:
    (puzzle,) = read_text(text, fmt="fpuzzles")
    count = get_backend("bitmask").solve(puzzle, limit=300).count
    assert count is not None
    return count


def _cage(value: Any) -> str:
    return _fpuzzles(killercage=[{"cells": ["R1C1", "R1C2"], "value": value}])


def _sandwich(value: Any) -> str:
    return _fpuzzles(sandwichsum=[{"cell": "R0C1", "value": value}])


@pytest.mark.parametrize(
    "text",
    [
        _cage(3.7),  # int() read 3: 48 solutions of a cage summing to 3
        _cage(True),  # int() read 1: 'no solution'
        _cage("\u0663"),  # an Arabic-Indic 3, read as 3
        _cage("\uff13"),  # a fullwidth 3, read as 3
        _sandwich("1_2"),  # read as 12 (the site's parseInt reads 1)
        _fpuzzles(difference=[{"cells": ["R1C1", "R1C2"], "value": "\u0663"}]),
        _fpuzzles(quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [2.9]}]),
        _fpuzzles(xsum=[{"cell": "R0C1", "value": "1_0"}]),
        _fpuzzles(whispers=[{"lines": [["R1C1", "R1C2"]], "value": "\u0662"}]),
    ],
)
def test_fpuzzles_clue_values_int_would_misread_are_refused(text: str) -> None:
    with pytest.raises(PuzzleError, match="is not a whole number") as caught:
        read_text(text, fmt="fpuzzles")
    assert "\n" not in str(caught.value)


def test_fpuzzles_clue_values_as_the_site_writes_them_still_read() -> None:
    """A cage of r1c1-r1c2 summing to 3 holds 1 and 2: 48 of the 288 4x4 grids, whether the
    total is the string f-puzzles writes, a JSON integer, or padded; a column's sandwich of 0
    (1 and 4 side by side: 144 grids) likewise."""
    for value in ("3", 3, " 3 ", "03", "+3"):
        assert _count(_cage(value)) == 48, value
    assert _count(_sandwich("0")) == _count(_sandwich(0)) == 144


@pytest.mark.parametrize("symbols", ["a\u0301bc", "\u0301\u0302\u0303\u0304", "12\u20dd4"])
def test_an_alphabet_holding_a_combining_mark_is_refused(symbols: str) -> None:
    """A combining mark as a digit printed over the symbol before it: with --symbols 'a\u0301bc'
    the 4x4 row 1 2 3 4 printed 'a\u0301bc' (shown 'ábc', three symbols), so one grid read
    back as another."""
    document = json.dumps({"size": 4, "symbols": symbols, "givens": "." * 16})
    with pytest.raises(PuzzleError, match="is a combining mark; printed, it joins") as caught:
        read_text(document)
    assert "\n" not in str(caught.value)


def test_an_alphabet_of_letters_from_right_to_left_scripts_still_reads() -> None:
    (puzzle,) = read_text(json.dumps({"size": 4, "symbols": "אבגד", "givens": "א" + "." * 15}))
    assert puzzle.givens.values[0] == 1


@pytest.mark.parametrize(
    "args", [["solve", "--backend", "mip"], ["solve", "--backend", "all"], ["rate"], ["bench"]]
)
@pytest.mark.parametrize("seconds", ["inf", "1e308", "1000000001"])
def test_a_timeout_past_any_clock_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], seconds: str
) -> None:
    """--timeout inf (or 1e308) overflowed MIP's timedelta and the rating's thread wait:
    a traceback after the puzzle was read. Now argparse refuses it, for every command."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("....341221434321\n")
    with pytest.raises(SystemExit) as stop:
        main([args[0], str(puzzle), *args[1:], "--timeout", seconds])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].endswith(
        f"argument --timeout: expected at most 1,000,000,000 seconds (about 31 years), "
        f"not {seconds!r}"
    )


@pytest.mark.slow  # 0.9 s of CPU, MIP's model and solver
def test_a_timeout_of_a_billion_seconds_still_solves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("....341221434321\n")
    assert main(["solve", str(puzzle), "--backend", "mip", "--timeout", "1e9"]) == 0
    assert capsys.readouterr().out == "1234341221434321 unique\n"


def test_a_certificate_folder_named_to_fake_a_verdict_is_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """verify-certificate printed a stranger's folder names as they were: the folder
    '0002: VERIFIED⏎  proof ok⏎x' made its REJECTED verdict read as a VERIFIED one."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("....341221434321\n")
    bundle = tmp_path / "bundle"
    assert main(["prove", str(puzzle), "--certificate", str(bundle / "0001")]) == 0
    forged = bundle / "0002: VERIFIED\n  proof ok\x1b[32m\nx"
    assert main(["prove", str(puzzle), "--certificate", str(forged)]) == 0
    manifest = json.loads((forged / "manifest.json").read_text())
    (forged / "manifest.json").write_text(json.dumps({**manifest, "status": "unsatisfiable"}))
    capsys.readouterr()
    assert main(["verify-certificate", str(bundle)]) == 1
    out = capsys.readouterr().out.splitlines()
    verdicts = [line for line in out if not line.startswith("  ")]
    assert verdicts == [
        f"{bundle / '0001'}: VERIFIED",
        f"{bundle}/0002: VERIFIED\\n  proof ok\\x1b[32m\\nx: REJECTED",
        "2 certificates: 1 verified, 1 rejected",
    ]


def test_a_file_name_with_a_newline_and_escapes_keeps_its_error_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "x\x1b[31m\u202e\nfake"
    bad.write_text("bad\n")
    assert main(["solve", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "\u202e" not in err
    assert err.startswith(f"satsudoku: {tmp_path}/x\\x1b[31m\\u202e\\nfake:1: expected a puzzle")


@pytest.mark.parametrize("stem", ["x" * 246, "é" * 123])
def test_an_output_with_a_name_near_the_limit_is_written(tmp_path: Path, stem: str) -> None:
    """A 250-byte file name is legal (255 at most), but the temporary name written beside it
    first ('.NAME.1a2b3c4d.partial', 18 bytes more) was not: 'File name too long'."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("....341221434321\n")
    target = tmp_path / f"{stem}.cnf"
    assert len(target.name.encode()) == 250
    assert main(["encode", str(puzzle), "-o", str(target)]) == 0
    assert target.read_text().startswith("c satsudoku CNF export")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["p.txt", target.name])
