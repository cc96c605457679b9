"""Every file in models/ on every available backend: the recorded verdict, solution and count."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.io import read_puzzles
from satsudoku.result import Status
from tests.conftest import REPO

MODELS = sorted(p for p in (REPO / "models").rglob("*") if p.suffix in (".json", ".toml"))
COUNT_ON_EVERY_BACKEND = 1000  # larger counts are enumerated by the bitmask reference only


def raw(path: Path) -> dict[str, Any]:
    if path.suffix == ".toml":
        return tomllib.loads(path.read_text())
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_models_exist() -> None:
    assert len(MODELS) >= 5


@pytest.mark.parametrize("backend_name", available())
@pytest.mark.parametrize("path", MODELS, ids=lambda p: str(p.relative_to(REPO / "models")))
def test_model_verdict_solution_and_count(path: Path, backend_name: str) -> None:
    doc = raw(path)
    (puzzle,) = read_puzzles(path)
    backend = get_backend(backend_name)
    count = doc.get("count")
    if count is None:
        result = backend.solve(puzzle)
        assert result.status is Status.UNIQUE
        assert puzzle.solution is not None and result.solution == puzzle.solution
    elif count <= COUNT_ON_EVERY_BACKEND or backend_name == "bitmask":
        result = backend.solve(puzzle, limit=count + 1)
        assert result.exhausted and result.count == count
    else:
        assert backend.solve(puzzle).status is Status.MULTIPLE
