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


def assert_published_unique(name: str, **options: Any) -> None:
    """Nickleaton's NAME, read with `options` (e.g. outside="minmaxsum"), is unique on bitmask,
    sat and cpsat with one grid the verifier accepts; a stored solution is that grid, and the
    puzzle read with it raises no refusal (the stored grid meets every clue as read)."""
    from satsudoku.backends import get_backend
    from satsudoku.io import read_text
    from satsudoku.result import Status
    from satsudoku.verify import violations

    data = nickleaton(name)
    stored = data.pop("solution", None)
    (puzzle,) = read_text(json.dumps(data), **options)
    grids = set()
    for backend in ("bitmask", "sat", "cpsat"):
        result = get_backend(backend).solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, backend
        assert result.solution is not None and violations(puzzle, result.solution) == []
        grids.add(result.solution.values)
    assert len(grids) == 1
    if stored is not None:
        assert list(grids.pop()) == stored
        data["solution"] = stored
        read_text(json.dumps(data), **options)
