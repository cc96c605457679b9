"""Plain-text puzzle reading (FORMATS.md §1): lines, grids, judge rows and many puzzles per file.

A file is cut into blocks at blank, comment (`#`) and title (`Grid 01`) lines. A block whose rows
all have the same width w, with a multiple of w rows, is one or more w×w grids; otherwise every
line of it must start with a whole puzzle of n² symbols (trailing ratings or notes are ignored).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from satsudoku.errors import PuzzleError
from satsudoku.grid import MAX_SIZE, Grid, Shape, regular_shape
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet

# "Grid 01", "Puzzle 3:", "Sudoku #12": titles between grids (Project Euler 96 style).
_TITLE_RE = re.compile(r"^(grid|puzzle|sudoku|game|problem|case|test)(\s+\S.*|\s*#\d+:?)?$", re.I)
_BORDER_CHARS = set("-+=| \t")
_TRAILER_SEPARATORS = ":;,#"
_DECIMAL_DIGITS = set("123456789")


@dataclass(frozen=True, slots=True)
class Symbol:
    """One cell's text and where it was read (1-based line and column), for error messages."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class ReadOptions:
    """What the user forced on the command line; None means 'detect'."""

    box: tuple[int, int] | None = None
    symbols: str | None = None
    source: str | None = None
    shape: Shape | None = None  # a known shape (documents with jigsaw regions) wins over `box`


def valid_line_length(length: int) -> bool:
    """True for n² with 4 <= n <= MAX_SIZE: the lengths a one-line puzzle can have."""
    n = math.isqrt(length)
    return n * n == length and 4 <= n <= MAX_SIZE


def iter_text_puzzles(
    lines: Iterable[str], options: ReadOptions, layout: str = "auto"
) -> Iterator[Puzzle]:
    """Yield every puzzle in `lines`, streaming (a 49k-line file is never held whole).

    `layout` is "auto", or "line"/"grid" to settle the one ambiguity of auto-detection: a
    block of 16k lines of 16 symbols reads as 16×16 grids unless told they are 4×4 lines.
    """
    block: list[tuple[int, str]] = []
    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or _TITLE_RE.match(stripped):
            if not stripped and _is_partial_grid(block):
                continue  # blank lines between box bands: the grid goes on
            yield from _block_puzzles(block, options, grid_only=layout == "grid")
            block = []
            continue
        if layout == "line":
            yield parse_line(line, options, lineno)
            continue
        # Line-format puzzles stream one by one; only grid rows need the block around them.
        # A 16-symbol line may be a 4x4 puzzle or the first row of a 16x16 grid: decide later.
        if layout == "auto" and not block:
            token = _line_puzzle_token(line)
            if token is not None and len(token[0]) > MAX_SIZE:
                yield _line_puzzle(lineno, line, options, token)
                continue
        block.append((lineno, line))
    yield from _block_puzzles(block, options, grid_only=layout == "grid")


def parse_line(text: str, options: ReadOptions, lineno: int = 1) -> Puzzle:
    """Parse one line-format puzzle (n² symbols, optional trailing text)."""
    if _line_puzzle_token(text) is None:
        raise PuzzleError(
            f"expected a puzzle of n² symbols (81 for 9x9, 256 for 16x16), "
            f"found {len(_first_token(text))}",
            source=options.source,
            line=lineno,
        )
    return _line_puzzle(lineno, text, options)


def parse_rows(rows: Sequence[tuple[int, str]], options: ReadOptions) -> Puzzle:
    """Parse one grid given as (line number, text) rows, borders allowed."""
    puzzles = list(_block_puzzles(list(rows), options, grid_only=True))
    if len(puzzles) != 1:
        raise PuzzleError(f"expected one grid, found {len(puzzles)}", source=options.source)
    return puzzles[0]


# -- line format ----------------------------------------------------------------------------


def _first_token(line: str) -> str:
    stripped = line.strip()
    return stripped.split(None, 1)[0] if stripped else ""


Token = tuple[Sequence[str], Sequence[int]]  # cell texts and their 1-based columns


def _line_puzzle_token(line: str) -> Token | None:
    """The cells at the start of `line` if it is a line-format puzzle, else None."""
    stripped = line.lstrip()
    offset = len(line) - len(stripped)
    token = _first_token(line)
    if not valid_line_length(len(token)):
        # "PUZZLE:COUNT" or "PUZZLE,rating": cut at the first trailer separator.
        cut = min((token.find(s) for s in _TRAILER_SEPARATORS if s in token), default=-1)
        if cut < 0 or not valid_line_length(cut):
            numeric = _numeric_tokens(line)  # '0 0 3 0 2 …': n² integers on one line
            if numeric is not None and valid_line_length(len(numeric)):
                return [s.text for s in numeric], [s.column for s in numeric]
            return None
        token = token[:cut]
    return token, range(offset + 1, offset + 1 + len(token))


def _line_puzzle(
    lineno: int, line: str, options: ReadOptions, token: Token | None = None
) -> Puzzle:
    token = token or _line_puzzle_token(line)
    assert token is not None  # callers check first
    texts, columns = token
    n = math.isqrt(len(texts))
    return make_puzzle(texts, n, "line", lineno, options, columns)


def _numeric_tokens(line: str) -> list[Symbol] | None:
    """Whitespace-separated integers ('8 0 0 …', '12 0 3 …'), with positions; else None."""
    text = line.split("#", 1)[0].replace("|", " ")
    symbols: list[Symbol] = []
    for match in re.finditer(r"\S+", text):
        if not match.group().isdigit():
            return None
        symbols.append(Symbol(match.group(), 0, match.start() + 1))
    return symbols if len(symbols) >= 2 else None


# -- grid format ----------------------------------------------------------------------------


def _row_symbols(lineno: int, line: str, numeric: bool) -> list[Symbol]:
    """Cells of one grid row: integer tokens, or single characters with decorations removed."""
    if numeric:
        tokens = _numeric_tokens(line) or []
        return [Symbol(s.text, lineno, s.column) for s in tokens]
    return [
        Symbol(ch, lineno, i + 1)
        for i, ch in enumerate(line)
        if not ch.isspace() and ch not in "|+"
    ]


def _is_partial_grid(block: list[tuple[int, str]]) -> bool:
    """True for 2..w-1 rows of equal width w: the first bands of a grid, not a whole one."""
    rows = [line for _, line in block if not _is_border(line)]
    if len(rows) < 2:
        return False
    widths = {len(_numeric_tokens(line) or _row_symbols(0, line, False)) for line in rows}
    return len(widths) == 1 and len(rows) < widths.pop()


def _is_border(line: str) -> bool:
    """'------+-------+------' or '=====': decoration between boxes, never cells."""
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= _BORDER_CHARS and bool(set(stripped) & set("+="))


def _block_puzzles(
    block: list[tuple[int, str]], options: ReadOptions, *, grid_only: bool = False
) -> Iterator[Puzzle]:
    if not block:
        return
    rows = [(lineno, line) for lineno, line in block if not _is_border(line)]
    # Dash-only lines are borders unless they are rows of blanks of the right width.
    widths = [len(_row_symbols(lineno, line, False)) for lineno, line in rows]
    plain = [w for (_, line), w in zip(rows, widths, strict=True) if set(line.strip()) - {"-", " "}]
    usual = max(set(plain), key=plain.count) if plain else 0
    rows = [
        row
        for row, w in zip(rows, widths, strict=True)
        if set(row[1].strip()) - {"-", " "} or w == usual
    ]
    if not rows:
        return
    numeric = all(_numeric_tokens(line) is not None for _, line in rows) and any(
        len(s.text) > 1 for _, line in rows for s in (_numeric_tokens(line) or [])
    )
    cells = [_row_symbols(lineno, line, numeric) for lineno, line in rows]
    if not numeric and all(len(_numeric_tokens(line) or []) == len(rows) for _, line in rows):
        cells = [_row_symbols(lineno, line, True) for lineno, line in rows]
    width = len(cells[0])
    if all(len(c) == width for c in cells) and 1 <= width <= MAX_SIZE and len(rows) % width == 0:
        for start in range(0, len(rows), width):
            chunk = cells[start : start + width]
            symbols = [s for row in chunk for s in row]
            texts = [s.text for s in symbols]
            lines = [s.line for s in symbols]
            columns = [s.column for s in symbols]
            yield make_puzzle(texts, width, "grid", rows[start][0], options, columns, lines)
        return
    if not grid_only and all(_line_puzzle_token(line) is not None for _, line in block):
        for lineno, line in block:
            yield _line_puzzle(lineno, line, options)
        return
    raise _block_error(rows, cells, options)


def _block_error(
    rows: list[tuple[int, str]], cells: list[list[Symbol]], options: ReadOptions
) -> PuzzleError:
    """Name the first line that breaks the shape the rest of the block suggests."""
    if len(rows) == 1 or _line_puzzle_token(rows[0][1]) is not None:
        for (lineno, line), _ in zip(rows, cells, strict=True):
            if _line_puzzle_token(line) is None:
                found = len(_first_token(line))
                return PuzzleError(
                    f"expected a puzzle of n² symbols (81 for 9x9, 256 for 16x16), found {found}",
                    source=options.source,
                    line=lineno,
                )
    lengths = [len(c) for c in cells]
    width = max(set(lengths), key=lengths.count)
    for (lineno, _), row in zip(rows, cells, strict=True):
        if len(row) != width:
            return PuzzleError(
                f"grid row has {len(row)} cells, the other rows have {width}",
                source=options.source,
                line=lineno,
            )
    return PuzzleError(
        f"a {width}x{width} grid needs {width} rows, found {len(rows)}",
        source=options.source,
        line=rows[0][0],
    )


# -- symbols to a puzzle ----------------------------------------------------------------------


def choose_alphabet(texts: Iterable[str], n: int, forced: str | None) -> Alphabet:
    """The alphabet a puzzle is written in: forced, letters-only (A-P), or the default 1-9A-."""
    if forced:
        if len(forced) < n:
            raise PuzzleError(f"--symbols {forced!r} has {len(forced)} symbols, {n} needed")
        return Alphabet.custom(forced[:n])
    chars = set("".join(texts))
    if not chars & _DECIMAL_DIGITS and any(ch.isalpha() for ch in chars) and n <= 26:
        return Alphabet.letters(n)
    return Alphabet.default(n)


def make_puzzle(
    texts: Sequence[str],
    n: int,
    layout: str,
    lineno: int,
    options: ReadOptions,
    columns: Sequence[int] | None = None,
    lines: Sequence[int] | None = None,
) -> Puzzle:
    """Decode cell texts into digits and build the puzzle, naming the place of a bad symbol.

    `columns`/`lines` give each cell's position in the input (for messages only).
    """
    numeric = any(len(t) > 1 for t in texts) or (
        layout == "grid" and n > 9 and all(t.isdigit() for t in texts)
    )

    def fail(index: int, message: str) -> PuzzleError:
        r, c = divmod(index, n)
        return PuzzleError(
            message.replace("CELL", f"r{r + 1}c{c + 1}"),
            source=options.source,
            line=lines[index] if lines else lineno,
            column=columns[index] if columns else None,
        )

    if numeric:
        values = [int(t) for t in texts]
        for index, value in enumerate(values):
            if value > n:
                raise fail(index, f"digit {value} at CELL is out of range 1..{n} (0 = blank)")
        alphabet = None
    else:
        alphabet = choose_alphabet(texts, n, options.symbols)
        table = alphabet.table()
        try:
            values = [table[t] for t in texts]
        except KeyError:
            index = next(i for i, t in enumerate(texts) if t not in table)
            raise fail(
                index,
                f"unknown symbol {texts[index]!r} at CELL: a {n}x{n} board uses "
                f"{alphabet.describe()} and blanks {' '.join(alphabet.blanks)}",
            ) from None
    try:
        if options.shape is not None and options.shape.size == n:
            shape = options.shape
        else:
            shape = make_shape(n, options.box)
        return Puzzle(
            shape,
            Grid(n, tuple(values)),
            alphabet=alphabet,
            layout=layout,
            origin=f"{options.source or '<input>'}:{lineno}",
        )
    except PuzzleError as exc:
        raise exc.at(options.source, lineno) from None


def make_shape(n: int, box: tuple[int, int] | None) -> Shape:
    """The regular shape of an n×n board: the forced box, or the inferred one."""
    if box is None:
        return Shape.for_size(n)
    rows, cols = box
    if rows * cols != n:
        raise PuzzleError(f"box {rows}x{cols} does not fit a {n}x{n} board ({rows}*{cols} != {n})")
    return regular_shape(rows, cols)
