"""LeetCode boards: a JSON list of n lists of one-character strings, "." for blank."""

from __future__ import annotations

import json
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid
from satsudoku.io.text import ReadOptions, make_puzzle
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet


def is_board(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(row, list) for row in value)


def puzzles_from_json_list(value: Any, options: ReadOptions) -> list[Puzzle]:
    """One board, or a list of boards."""
    if is_board(value) and all(not is_board(row) for row in value):
        return [board_to_puzzle(value, options, 1)]
    if isinstance(value, list) and all(is_board(item) for item in value):
        return [board_to_puzzle(item, options, i + 1) for i, item in enumerate(value)]
    raise PuzzleError(
        'expected a LeetCode board: a list of rows like ["5","3",".",...]', source=options.source
    )


def board_to_puzzle(board: list[Any], options: ReadOptions, index: int) -> Puzzle:
    n = len(board)
    texts: list[str] = []
    for r, row in enumerate(board):
        if len(row) != n:
            raise PuzzleError(
                f"board {index}: row {r + 1} has {len(row)} entries, expected {n}",
                source=options.source,
            )
        for c, entry in enumerate(row):
            if isinstance(entry, int) and not isinstance(entry, bool):
                entry = str(entry)
            if not isinstance(entry, str) or not entry:
                raise PuzzleError(
                    f"board {index}: r{r + 1}c{c + 1} is {entry!r}, expected a one-symbol string",
                    source=options.source,
                )
            texts.append(entry)
    return make_puzzle(texts, n, "leetcode", index, options)


def format_board(grid: Grid, alphabet: Alphabet) -> str:
    """The solved board in LeetCode's own JSON layout."""
    return json.dumps([[alphabet.symbol(v) for v in row] for row in grid.rows()])
