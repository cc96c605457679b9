"""satsudoku: solve Sudoku and variants by SAT, CP-SAT or bitmask search, and prove the verdict.

Map: `grid` (cells, shapes) → `puzzle` (shape + givens + `rules`) → `constraints` (the shared
vocabulary) → `backends` (bitmask, sat, cpsat) → `result` (verdict + evidence, every grid checked
by `verify`). `io` reads and writes every puzzle format; `cli` is the `satsudoku` command.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from satsudoku.backends import available, get_backend
    from satsudoku.errors import PuzzleError, SatsudokuError
    from satsudoku.grid import Cell, Digit, Grid, Shape
    from satsudoku.puzzle import Puzzle
    from satsudoku.result import Proof, Result, Status
    from satsudoku.verify import is_solution, violations

__version__ = "0.1.0"

# The public names and their modules, imported on first use (PEP 562): `import satsudoku.cli`
# for `satsudoku --help` then costs none of the solving core.
_EXPORTS = {
    "Cell": "satsudoku.grid",
    "Digit": "satsudoku.grid",
    "Grid": "satsudoku.grid",
    "Shape": "satsudoku.grid",
    "Proof": "satsudoku.result",
    "Result": "satsudoku.result",
    "Status": "satsudoku.result",
    "Puzzle": "satsudoku.puzzle",
    "PuzzleError": "satsudoku.errors",
    "SatsudokuError": "satsudoku.errors",
    "available": "satsudoku.backends",
    "get_backend": "satsudoku.backends",
    "is_solution": "satsudoku.verify",
    "violations": "satsudoku.verify",
}

__all__ = [
    "Cell",
    "Digit",
    "Grid",
    "Proof",
    "Puzzle",
    "PuzzleError",
    "Result",
    "SatsudokuError",
    "Shape",
    "Status",
    "available",
    "get_backend",
    "is_solution",
    "violations",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'satsudoku' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
