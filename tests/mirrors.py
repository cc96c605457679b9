"""Published puzzles read from the corpus mirrors beside the repository (/work/.mirror in this
workspace; absent from a fresh clone, where the tests that need them skip and say why)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

MIRRORS = Path(__file__).resolve().parents[2] / ".mirror"
NICKLEATON = MIRRORS / "Nickleaton+sudoku" / "repo"


def nickleaton(name: str) -> dict[str, Any]:
    """The f-puzzles data of Nickleaton/sudoku's problems/fpuzzles/goodjson/NAME.json (MIT)."""
    if not NICKLEATON.is_dir():
        pytest.skip("the Nickleaton/sudoku mirror is absent")
    where = f"HEAD:problems/fpuzzles/goodjson/{name}.json"
    shown = subprocess.run(
        ["git", "--git-dir", str(NICKLEATON), "show", where], capture_output=True
    )
    if shown.returncode:
        pytest.skip(f"{name} is not in the Nickleaton/sudoku mirror")
    data: dict[str, Any] = json.loads(shown.stdout)["data"]
    return data
