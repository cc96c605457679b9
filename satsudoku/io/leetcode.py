"""LeetCode boards: a JSON list of n lists of strings, "." for blank ("10" on larger boards)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import repeat
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.grid import MAX_SIZE, Grid
from satsudoku.io.text import ReadOptions, make_puzzle
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet

_DECODER = json.JSONDecoder()
_JSON_SPACE = " \t\n\r"


def is_board(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(row, list) for row in value)


def puzzles_from_json_list(value: Any, options: ReadOptions, text: str = "") -> Iterator[Puzzle]:
    """One board, or a list of boards, one by one; `text`, the JSON they were parsed from,
    places errors (and each board's line, scanned as the boards are reached)."""
    if is_board(value) and all(not is_board(row) for row in value):
        yield board_to_puzzle(value, options, 1, next(_places(text)))
        return
    if isinstance(value, list) and all(is_board(item) for item in value):
        for i, (item, place) in enumerate(zip(value, _places(text, nested=True), strict=False)):
            yield board_to_puzzle(item, options, i + 1, place)
        return
    raise PuzzleError(
        'expected a LeetCode board: a list of rows like ["5","3",".",...]',
        source=options.source,
        line=1 if text else None,
    )


def board_to_puzzle(
    board: list[Any], options: ReadOptions, index: int, place: _Place | None = None
) -> Puzzle:
    """Board `index` (1-based) as a puzzle; errors say "board N" and, when known, line:column."""
    place = place or _Place("", -1, None)
    n = len(board)
    if n > MAX_SIZE:  # before any row is looked at: a row's place costs a scan of the row
        raise place.error(index, f"{n} rows, more than the largest board ({MAX_SIZE})", options, ())
    texts: list[str] = []
    for r, row in enumerate(board):
        if len(row) != n:
            raise place.error(
                index, f"row {r + 1} has {len(row)} entries, expected {n}", options, (r,)
            )
        for c, entry in enumerate(row):
            if isinstance(entry, int) and not isinstance(entry, bool):
                entry = str(entry)
            if not isinstance(entry, str) or not entry:
                raise place.error(
                    index,
                    f'r{r + 1}c{c + 1} is {json.dumps(entry)}, expected a string like "5" or "."',
                    options,
                    (r, c),
                )
            texts.append(entry)
    try:
        return make_puzzle(texts, n, "leetcode", place.line, options, spaced=True)
    except PuzzleError as exc:
        raise place.locate(exc, index, texts, n, options) from None


def format_board(grid: Grid, alphabet: Alphabet) -> str:
    """The solved board in LeetCode's own JSON layout."""
    return json.dumps([[alphabet.symbol(v) for v in row] for row in grid.rows()])


@dataclass(frozen=True)
class _Place:
    """Where a board starts in its JSON text (start -1: unknown), to name lines and columns."""

    text: str
    start: int
    line: int | None

    def locate(
        self, error: PuzzleError, index: int, texts: list[str], n: int, options: ReadOptions
    ) -> PuzzleError:
        """`error` again, naming the board and, when the text is known, the cell's line:column."""
        if self.start >= 0:  # found only now: every cell's place costs a JSON scan per row
            lines, columns = self.cells(n)
            try:
                make_puzzle(texts, n, "leetcode", self.line, options, columns, lines, spaced=True)
            except PuzzleError as located:
                error = located
        return PuzzleError(
            f"board {index}: {error.message}",
            source=error.source,
            line=error.line,
            column=error.column,
        )

    def error(
        self, index: int, message: str, options: ReadOptions, path: tuple[int, ...]
    ) -> PuzzleError:
        """'board 2: …' at the place of the row (r,) or entry (r, c) when the text is known."""
        line = column = None
        if self.start >= 0:
            offset = self.start
            for step in path:
                offset = _item_offsets(self.text, offset)[step]
            line, column = self._line_column(offset)
        return PuzzleError(
            f"board {index}: {message}", source=options.source, line=line, column=column
        )

    def cells(self, n: int) -> tuple[list[int], list[int]]:
        """Line and column of every entry, row-major."""
        lines: list[int] = []
        columns: list[int] = []
        for row in _item_offsets(self.text, self.start)[:n]:
            for offset in _item_offsets(self.text, row)[:n]:
                line, column = self._line_column(offset)
                lines.append(line)
                columns.append(column)
        return lines, columns

    def _line_column(self, offset: int) -> tuple[int, int]:
        line_start = self.text.rfind("\n", 0, offset) + 1
        return self.text.count("\n", 0, offset) + 1, offset - line_start + 1


def _places(text: str, *, nested: bool = False) -> Iterator[_Place]:
    """Where each board starts: the whole text, or each item of its outer list, in order."""
    if not text:
        yield from repeat(_Place("", -1, None))
        return
    top = _skip_space(text, 0)
    starts = _iter_item_offsets(text, top) if nested else iter([top])
    line, counted = 1, 0
    for start in starts:  # lines counted incrementally: a long list of boards stays linear
        line += text.count("\n", counted, start)
        counted = start
        yield _Place(text, start, line)


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _JSON_SPACE:
        pos += 1
    return pos


def _item_offsets(text: str, start: int) -> list[int]:
    """Where each item of the JSON array opening at `text[start]` begins (text is valid JSON)."""
    return list(_iter_item_offsets(text, start))


def _iter_item_offsets(text: str, start: int) -> Iterator[int]:
    pos = _skip_space(text, start + 1)
    while text[pos] != "]":
        yield pos
        _, end = _DECODER.raw_decode(text, pos)
        pos = _skip_space(text, end)
        if text[pos] == ",":
            pos = _skip_space(text, pos + 1)
