"""satsudoku: solve Sudoku and variants by SAT, CP-SAT or bitmask search, and prove the verdict.

Map: `grid` (cells, shapes) → `puzzle` (shape + givens + `rules`) → `constraints` (the shared
vocabulary) → `backends` (bitmask, sat, cpsat) → `result` (verdict + evidence, every grid checked
by `verify`). `io` reads and writes every puzzle format; `cli` is the `satsudoku` command.
"""

from satsudoku.backends import available, get_backend
from satsudoku.errors import PuzzleError, SatsudokuError
from satsudoku.grid import Cell, Digit, Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, Status
from satsudoku.verify import is_solution, violations

__version__ = "0.1.0"

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
