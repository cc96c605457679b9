"""Pencil marks as text: each cell's candidates, boxes framed when the shape has boxes."""

from __future__ import annotations

from satsudoku.logic.state import Board, digits_of
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet


def writing(puzzle: Puzzle) -> Alphabet:
    """The puzzle's alphabet when it writes every digit, else decimal numbers: a 64x64 read
    from blanks alone gets the 61 default symbols, and digits 62-64 have none."""
    symbols = puzzle.symbols
    if symbols.is_numeric or len(symbols.symbols) >= puzzle.size:
        return symbols
    return Alphabet.numeric(puzzle.size)


def candidates_text(mask: int, symbols: Alphabet) -> str:
    """A cell's candidates: symbols side by side, numbers between commas ('12,13')."""
    joiner = "," if symbols.is_numeric else ""
    return joiner.join(symbols.symbol(d) for d in digits_of(mask))


def pencil_marks(board: Board, puzzle: Puzzle) -> str:
    """The grid of candidates, one row per line, '|' and '-' between regular boxes."""
    n, shape, symbols = board.n, puzzle.shape, writing(puzzle)
    texts = [candidates_text(mask, symbols) or "!" for mask in board.cands]
    width = max(len(t) for t in texts)
    boxes = not shape.is_jigsaw and shape.box_cols < n
    lines = []
    for r in range(n):
        if boxes and r and r % shape.box_rows == 0:
            lines.append(
                "+".join(
                    "-" * ((width + 1) * shape.box_cols + 1) for _ in range(n // shape.box_cols)
                )
            )
        cells = []
        for c in range(n):
            if boxes and c and c % shape.box_cols == 0:
                cells.append("|")
            cells.append(texts[r * n + c].ljust(width))
        lines.append(" " + " ".join(cells).rstrip())
    return "\n".join(lines)
