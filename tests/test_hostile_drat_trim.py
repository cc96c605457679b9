"""verify-certificate shows drat-trim's last line of output as it shows names: escaped.

drat-trim is not installed here, and what it prints is not ours to trust (its errors quote
what it read), so a stand-in on PATH plays it: a real certificate from `prove`, a drat-trim
that answers with terminal escapes and a bidi override on its last line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from satsudoku.cli import main

EVIL = "c ERROR: \x1b]0;owned\x07\x1b[2J\u202eDEIFIREV s"


def test_drat_trims_last_line_reaches_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("....341221434321\n")
    folder = tmp_path / "cert"
    assert main(["prove", str(puzzle), "--certificate", str(folder), "--no-progress"]) == 0
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "drat-trim"
    fake.write_text(f"#!/bin/sh\nprintf 'c parsing\\n%s\\n' '{EVIL}'\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    capsys.readouterr()
    assert main(["verify-certificate", str(folder), "--no-progress"]) == 1  # not 'verified'
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    shown = "c ERROR: \\x1b]0;owned\\x07\\x1b[2J\\u202eDEIFIREV s"
    assert f"  drat-trim: not verified: {shown}\n" in out
