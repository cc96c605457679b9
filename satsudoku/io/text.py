"""Plain-text puzzle reading (FORMATS.md §1): lines, grids, judge rows and many puzzles per file.

A file is cut into blocks at blank, comment (`#`) and title (`Grid 01`) lines. A block whose rows
all have the same width w, with a multiple of w rows, is one or more w×w grids, unless each of its
lines is also a whole n×n puzzle (w = n²): then it holds one puzzle per line. Other blocks must be
line puzzles, each line starting with n² symbols (trailing ratings or notes are ignored).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from satsudoku.errors import PuzzleError
from satsudoku.grid import MAX_SIZE, Grid, Shape, default_box, regular_shape
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet, check_symbols

if TYPE_CHECKING:
    from satsudoku.io.painted import PaintType
    from satsudoku.io.sudokupad_lines import CellType, LineType

# "Grid 01", "Puzzle 3:", "Sudoku #12": titles between grids (Project Euler 96 style).
_TITLE_RE = re.compile(r"^(grid|puzzle|sudoku|game|problem|case|test)(\s+\S.*|\s*#\d+:?)?$", re.I)
_BORDER_CHARS = set("-+=| \t")
_TRAILER_SEPARATORS = ":;,#"
_DECIMAL_DIGITS = set("123456789")
# A block of grid rows is cut after its whole grids once it is this long (a 64x64 grid with
# borders takes 71 lines, ~20k characters).
_BLOCK_LINES = 4 * MAX_SIZE
_BLOCK_CHARS = 1 << 18
_NUMBER_RE = re.compile(r"[0-9]+")  # ASCII only: '²' and '١' pass str.isdigit() but are no digits


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
    ignore_drawings: bool = False  # f-puzzles/SudokuPad: solve without drawings' unread meaning
    notify: Callable[[str], None] | None = None  # gets warnings about the input, one line each
    lines: tuple[LineType, ...] = ()  # SudokuPad: what lines of a style are (--line STYLE=TYPE)
    cells: tuple[CellType, ...] = ()  # SudokuPad: what cells marked so are (--cell STYLE=TYPE)
    unique_cages: bool = False  # SudokuPad: a cage without a total is a killer cage
    cage: str | None = None  # f-puzzles, SudokuPad: what a cage's text is (--cage contains)
    paints: tuple[PaintType, ...] = ()  # f-puzzles: what painted cells are (--paint C=clone)
    outside: str | None = None  # f-puzzles, SudokuPad: numbers beside the grid are such clues
    # What --rule and --negative add after reading: a rules text naming them needs no hint.
    added_rules: tuple[str, ...] = ()
    added_negative: tuple[str, ...] = ()


def valid_line_length(length: int) -> bool:
    """True for n² with 4 <= n <= MAX_SIZE: the lengths a one-line puzzle can have."""
    n = math.isqrt(length)
    return n * n == length and 4 <= n <= MAX_SIZE


def is_number(text: str) -> bool:
    """True for ASCII decimal digits only: the numbers judges write (`12`, `0`)."""
    return _NUMBER_RE.fullmatch(text) is not None


def iter_text_puzzles(
    lines: Iterable[str], options: ReadOptions, layout: str = "auto", start: int = 1
) -> Iterator[Puzzle]:
    """Yield every puzzle in `lines`, streaming (a 49k-line file is never held whole).

    `layout` is "auto", or "line"/"grid" to settle the one ambiguity of auto-detection: a
    block of 16k lines that are each a 4×4 puzzle (36k 6×6, 64k 8×8) reads as one puzzle per
    line unless told they are 16×16 (36×36, 64×64) grids. `start` numbers the first line.

    Grids written back to back with no blank line between them make one long block; it is
    cut after its whole grids whenever it grows past _BLOCK_LINES lines or _BLOCK_CHARS
    characters, so memory follows one grid, not the file.
    """
    block: list[tuple[int, str]] = []
    grid_only = layout == "grid"
    chars, check_lines, check_chars = 0, _BLOCK_LINES, _BLOCK_CHARS
    for lineno, raw in enumerate(lines, start):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or _TITLE_RE.match(stripped):
            if not stripped and _is_partial_grid(block, options):
                continue  # a blank line between box bands: the grid goes on
            yield from _block_puzzles(block, options, grid_only=grid_only)
            block, chars, check_lines, check_chars = [], 0, _BLOCK_LINES, _BLOCK_CHARS
            continue
        if layout == "line":
            yield parse_line(line, options, lineno)
            continue
        # Line-format puzzles stream one by one; only grid rows need the block around them.
        # A 16-symbol line may be a 4x4 puzzle or the first row of a 16x16 grid: decide later.
        if layout == "auto" and not block:
            token = _line_puzzle_token(line)
            if token is not None and len(token.texts) > MAX_SIZE:
                yield _line_puzzle(lineno, line, options, token)
                continue
        block.append((lineno, line))
        chars += len(line)
        if len(block) >= check_lines or chars >= check_chars:
            done, block = _whole_grids(block, options, grid_only)
            yield from done
            chars = sum(len(text) for _, text in block)
            check_lines, check_chars = len(block) + _BLOCK_LINES, chars + _BLOCK_CHARS
    yield from _block_puzzles(block, options, grid_only=grid_only)


def _whole_grids(
    block: list[tuple[int, str]], options: ReadOptions, grid_only: bool
) -> tuple[list[Puzzle], list[tuple[int, str]]]:
    """The puzzles of a long block's whole grids, and the lines of the unfinished one.

    A block whose rows differ in width (or are wider than any grid) can only be line
    puzzles, so it is read, or refused, whole at once.
    """
    grid = _grid_rows(block)
    if grid is None:
        return [], []
    width = grid.width
    if not 1 <= width <= MAX_SIZE or any(len(row) != width for row in grid.cells):
        return list(_block_puzzles(block, options, grid_only=grid_only)), []
    whole = len(grid.rows) // width * width
    if whole == 0:
        return [], block
    last = grid.rows[whole - 1][0]
    head = [entry for entry in block if entry[0] <= last]
    rest = [entry for entry in block if entry[0] > last]
    return list(_block_puzzles(head, options, grid_only=grid_only)), rest


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


class Token(NamedTuple):
    """A line puzzle's cells: texts, 1-based columns, and whether whitespace split them."""

    texts: Sequence[str]
    columns: Sequence[int]
    spaced: bool = False


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
                return Token([s.text for s in numeric], [s.column for s in numeric], spaced=True)
            return None
        token = token[:cut]
    return Token(token, range(offset + 1, offset + 1 + len(token)))


def _line_puzzle(
    lineno: int, line: str, options: ReadOptions, token: Token | None = None
) -> Puzzle:
    token = token or _line_puzzle_token(line)
    assert token is not None  # callers check first
    n = math.isqrt(len(token.texts))
    puzzle = make_puzzle(
        token.texts, n, "line", lineno, options, token.columns, spaced=token.spaced
    )
    if not token.spaced and len(line.strip()) > len(token.texts):  # trailing text: say if
        fields = line.split()  # it is a jigsaw layout, which a classic reading ignores
        if len(fields) > 1 and _looks_like_regions(fields[1], puzzle.shape):
            where = f"{options.source or '<input>'}:{lineno}"
            warn(
                options,
                f"warning: {where}: the text after the puzzle looks like jigsaw regions, "
                "which this classic reading ignores (here and on any such line); use --format "
                "jigsaw to read them",
            )
    return puzzle


def _looks_like_regions(text: str, shape: Shape) -> bool:
    """True if `text` cuts the board into n orthogonally connected regions of n cells that are
    not its boxes. A solution never does: a digit's cells share no row or column."""
    n = shape.size
    if len(text) != n * n:
        return False
    cells: dict[str, list[int]] = {}
    for index, label in enumerate(text):
        cells.setdefault(label, []).append(index)
    if len(cells) != n or any(len(group) != n for group in cells.values()):
        return False
    for group in cells.values():
        members, seen, todo = set(group), {group[0]}, [group[0]]
        while todo:
            r, c = divmod(todo.pop(), n)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                index = rr * n + cc
                if 0 <= rr < n and 0 <= cc < n and index in members and index not in seen:
                    seen.add(index)
                    todo.append(index)
        if len(seen) != n:
            return False
    boxes = {frozenset(r * n + c for r, c in box) for box in shape.regions()}
    return {frozenset(group) for group in cells.values()} != boxes


def warn(options: ReadOptions, message: str) -> None:
    """Pass a warning about the input to options.notify, or to Python's warnings without one."""
    if options.notify is not None:
        options.notify(message)
    else:
        warnings.warn(message, UserWarning, stacklevel=3)


def _numeric_tokens(line: str) -> list[Symbol] | None:
    """Whitespace-separated integers ('8 0 0 …', '12 0 3 …'), with positions; else None."""
    text = line.split("#", 1)[0].replace("|", " ")
    symbols: list[Symbol] = []
    for match in re.finditer(r"\S+", text):
        if not is_number(match.group()):
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
        if not ch.isspace() and ch != "|"  # "+" only in border lines, never beside a digit
    ]


def _is_partial_grid(block: list[tuple[int, str]], options: ReadOptions) -> bool:
    """True for whole box bands of equal-width rows, fewer than a grid: a gap inside a grid."""
    rows = [line for _, line in block if not _is_border(line)]
    if not rows:
        return False
    widths = {len(_numeric_tokens(line) or _row_symbols(0, line, False)) for line in rows}
    if len(widths) != 1:
        return False
    width = widths.pop()
    band = _band_height(width, options)
    return band is not None and len(rows) < width and len(rows) % band == 0


def _band_height(width: int, options: ReadOptions) -> int | None:
    """Rows per box band of a width×width grid (forced or inferred box); None if it has none."""
    if options.box is not None and options.box[0] * options.box[1] == width:
        return options.box[0]
    try:
        return default_box(width)[0]
    except PuzzleError:
        return None


def _is_border(line: str) -> bool:
    """'------+-------+------' or '=====': decoration between boxes, never cells."""
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= _BORDER_CHARS and bool(set(stripped) & set("+="))


@dataclass(frozen=True)
class _GridRows:
    """A block's grid rows, their cells, and how they were written (the puzzle's layout)."""

    rows: list[tuple[int, str]]
    cells: list[list[Symbol]]
    layout: str  # "grid" (box borders or `|`), "spaced-rows" or "rows"
    spaced: bool  # the cells are whitespace-separated tokens, so they may be numbers

    @property
    def width(self) -> int:
        return len(self.cells[0])

    def cut_into_grids(self) -> bool:
        """True when the rows make whole width×width grids."""
        width = self.width
        return (
            all(len(row) == width for row in self.cells)
            and 1 <= width <= MAX_SIZE
            and len(self.rows) % width == 0
        )

    def puzzles(self, options: ReadOptions) -> Iterator[Puzzle]:
        width = self.width
        for start in range(0, len(self.rows), width):
            symbols = [s for row in self.cells[start : start + width] for s in row]
            yield make_puzzle(
                [s.text for s in symbols],
                width,
                self.layout,
                self.rows[start][0],
                options,
                [s.column for s in symbols],
                [s.line for s in symbols],
                spaced=self.spaced,
            )


def _grid_rows(block: list[tuple[int, str]]) -> _GridRows | None:
    """The block read as grid rows, decorations dropped; None if nothing is left."""
    rows = [(lineno, line) for lineno, line in block if not _is_border(line)]
    # Dash-only lines are borders unless they are rows of blanks of the right width.
    widths = [len(_row_symbols(lineno, line, False)) for lineno, line in rows]
    plain = [w for (_, line), w in zip(rows, widths, strict=True) if set(line.strip()) - {"-", " "}]
    usual = max(set(plain), key=plain.count) if plain else 0
    kept = [
        row
        for row, w in zip(rows, widths, strict=True)
        if set(row[1].strip()) - {"-", " "} or w == usual
    ]
    if not kept:
        return None
    numeric = all(_numeric_tokens(line) is not None for _, line in kept) and any(
        len(s.text) > 1 for _, line in kept for s in (_numeric_tokens(line) or [])
    )
    cells = [_row_symbols(lineno, line, numeric) for lineno, line in kept]
    spaced = numeric
    if not numeric and all(len(_numeric_tokens(line) or []) == len(kept) for _, line in kept):
        cells = [_row_symbols(lineno, line, True) for lineno, line in kept]
        spaced = True
    decorated = len(kept) < len(block) or any("|" in line or "+" in line for _, line in kept)
    if decorated:
        layout = "grid"
    elif spaced or any(len(line.split()) > 1 for _, line in kept):
        layout = "spaced-rows"
    else:
        layout = "rows"
    return _GridRows(kept, cells, layout, spaced)


def _block_puzzles(
    block: list[tuple[int, str]], options: ReadOptions, *, grid_only: bool = False
) -> Iterator[Puzzle]:
    """The puzzles of one block: whole grids, or one per line when every line is a puzzle."""
    if not block:
        return
    grid = _grid_rows(block)
    if grid is None:
        return
    as_lines = not grid_only and all(_line_puzzle_token(line) is not None for _, line in block)
    if grid.cut_into_grids():
        yield from _lines_or_grids(block, grid, options) if as_lines else grid.puzzles(options)
        return
    if as_lines:
        for lineno, line in block:
            yield _line_puzzle(lineno, line, options)
        return
    raise _block_error(grid.rows, grid.cells, options)


def _lines_or_grids(
    block: list[tuple[int, str]], grid: _GridRows, options: ReadOptions
) -> list[Puzzle]:
    """Lines that also stack into grids: one puzzle per line, unless a line cannot be one.

    FORMATS.md §1 has one puzzle per line, so the grids win only when some line is no n×n
    puzzle (a symbol beyond n) and every grid row is a plausible row (no digit twice);
    otherwise the first bad line is the error, never a silently different puzzle.
    """
    try:
        return [_line_puzzle(lineno, line, options) for lineno, line in block]
    except PuzzleError as exc:
        not_a_line = exc
    try:
        grids = list(grid.puzzles(options))
    except PuzzleError:
        raise not_a_line from None
    if any(_repeats_in_a_row(puzzle.givens) for puzzle in grids):
        width = grid.width
        raise PuzzleError(
            f"{not_a_line.message} (as {width}x{width} grids these lines would repeat digits "
            f"in a row; --format grid reads them so)",
            source=not_a_line.source,
            line=not_a_line.line,
            column=not_a_line.column,
        )
    return grids


def _repeats_in_a_row(givens: Grid) -> bool:
    """True if some row holds a digit twice: what a grid row never does, a 4x4 line often."""
    for row in givens.rows():
        placed = [value for value in row if value]
        if len(placed) != len(set(placed)):
            return True
    return False


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
        check_symbols(forced)
        if len(forced) < n:
            raise PuzzleError(f"--symbols {forced!r} has {len(forced)} symbols, {n} needed")
        return Alphabet.custom(forced[:n])
    chars = set(texts) if isinstance(texts, str) else set("".join(texts))  # str: a line's cells
    if not chars & _DECIMAL_DIGITS and any(ch.isalpha() for ch in chars) and n <= 26:
        return Alphabet.letters(n)
    return Alphabet.default(n)


def _cell_alphabet(texts: Sequence[str], n: int, forced: str | None, spaced: bool) -> Alphabet:
    """Numbers if a cell has several characters or a wide board is spaced digits, else symbols."""
    if isinstance(texts, str):  # a line puzzle's cells: one character each
        return choose_alphabet(texts, n, forced)
    if max(map(len, texts)) > 1 or (
        spaced and forced is None and n > 9 and all(is_number(text) for text in texts)
    ):
        return Alphabet.numeric(n)
    return choose_alphabet(texts, n, forced)


Failure = Callable[[int, str], PuzzleError]  # (cell index, message with CELL) -> located error


def _decode(texts: Sequence[str], alphabet: Alphabet, n: int, fail: Failure) -> list[int]:
    """Each cell's digit, token by token, so `10` and `.` can share a board."""
    table = alphabet.table()
    try:
        return list(map(table.__getitem__, texts))  # the fast path: every symbol is known
    except KeyError:
        pass
    values: list[int] = []
    for index, text in enumerate(texts):
        value = table.get(text)
        if value is None and alphabet.is_numeric and is_number(text):
            digits = text.lstrip("0") or "0"  # '01' is 1; int() refuses 5000-digit strings
            if len(digits) > len(str(n)) or int(digits) > n:
                shown = digits if len(digits) <= 12 else digits[:9] + "…"
                raise fail(index, f"digit {shown} at CELL is out of range 1..{n} (0 = blank)")
            value = int(digits)
        if value is None:
            raise fail(
                index,
                f"unknown symbol {text!r} at CELL: a {n}x{n} board uses "
                f"{alphabet.describe()} and blanks {' '.join(alphabet.blanks)}",
            )
        values.append(value)
    return values


def make_puzzle(
    texts: Sequence[str],
    n: int,
    layout: str,
    lineno: int | None,
    options: ReadOptions,
    columns: Sequence[int] | None = None,
    lines: Sequence[int] | None = None,
    *,
    spaced: bool = False,
) -> Puzzle:
    """Decode cell texts into digits and build the puzzle, naming the place of a bad symbol.

    `columns`/`lines` give each cell's position in the input (for messages only); `spaced`
    says whitespace separated the texts, so digits-only texts of a wide board are numbers.
    """

    def fail(index: int, message: str) -> PuzzleError:
        r, c = divmod(index, n)
        return PuzzleError(
            message.replace("CELL", f"r{r + 1}c{c + 1}"),
            source=options.source,
            line=lines[index] if lines else lineno,
            column=columns[index] if columns else None,
        )

    alphabet = _cell_alphabet(texts, n, options.symbols, spaced)
    values = _decode(texts, alphabet, n, fail)
    source = options.source or "<input>"
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
            origin=source if lineno is None else f"{source}:{lineno}",
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
