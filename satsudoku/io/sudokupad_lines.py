"""`--line STYLE=TYPE` and `--cell STYLE=TYPE`: what a SudokuPad line of one colour (and
width), or a cell's circle or square of one colour, is, as the rules text says it ("purple lines
are renban", "grey lines are thermometers", "yellow circles contain odd digits").

SudokuPad stores a line as a picture (`color`, `thickness`, `wayPoints`) with no type: the same
purple is a renban line in one puzzle and a whisper in another, so satsudoku never guesses; the
user, having read the rules, names the type. This module parses that option and says, for each
type, which decorations at the line's cells belong to its picture (a thermometer's bulb, the end
circles of a between line, a zipper's centre dot), so those are not left over as drawings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.io.border_marks import MARK_TYPES

Cell = tuple[int, int]

# Line types a user may name, as satsudoku's rule types (and --rule) spell them → the f-puzzles
# key the line is stored under; what marks its ends: "bulb" (a filled circle on one end, which
# gives the direction: required), "circle" (an arrow's circle on one end, filled or ringed in
# the line's colour: required; a small chevron on the other end is its head), "ends" (both
# ends may carry a circle or diamond), "middle" (a dot on the centre cell), "" (nothing); and
# what a line that closes a loop or comes back to a cell means: "pairs" (a rule on adjacent
# cells: each step of the walk), "windows" (on runs of three: each run along the walk, around a
# loop too), "set" (on the line's cells as a set), "segments" (on its runs within one region: a
# loop is read from a region border round to it, so its runs are the loop's), "" (refused).
LINE_TYPES: dict[str, tuple[str, str, str]] = {
    "thermometer": ("thermometer", "bulb", ""),
    "slowthermometer": ("slowthermometer", "bulb", ""),
    "renban": ("renban", "", "set"),
    "whispers": ("whispers", "", "pairs"),
    "dutchwhispers": ("whispers", "", "pairs"),
    "entropicline": ("entropicline", "", "windows"),
    "modularline": ("modularline", "", "windows"),
    "parityline": ("parityline", "", "pairs"),
    "sameparityline": ("sameparityline", "", "set"),
    "distinctline": ("distinctline", "", "set"),
    "arithmeticline": ("arithmeticline", "", ""),
    "segmentsumline": ("segmentsumline", "", ""),
    "monotoneline": ("monotoneline", "", ""),
    "nabner": ("nabner", "", "set"),
    "regionsumline": ("regionsumline", "", "segments"),
    "palindrome": ("palindrome", "", ""),
    "zipperline": ("zipperline", "middle", ""),
    "between": ("betweenline", "ends", ""),
    "doublearrow": ("doublearrow", "ends", ""),
    "lockout": ("lockout", "ends", ""),
    "arrow": ("arrow", "circle", ""),
}
# Types whose pictures may be read one by one even where two of a style meet at a cell (one
# line drawn in pieces, or two crossing): whispers and parity lines hold on each step of either,
# a nabner or entropic piece says no more than the joined line, and a thermometer's or arrow's
# branches each run from its bulb (each arrow sums to its circle). Other types are refused
# there: a renban piece need not be consecutive, a region sum piece has other segments, so
# reading pieces apart could give a wrong answer.
READ_APART = {
    "whispers",
    "dutchwhispers",
    "nabner",
    "entropicline",
    "modularline",
    "parityline",
    "sameparityline",
    "thermometer",
    "slowthermometer",
    "arrow",
}
# The least difference of adjacent digits, where the type fixes it (German whispers take
# f-puzzles' default for the size: 5 on 9x9, 3 on 6x6).
WHISPER_DIFFERENCE = {"dutchwhispers": 4}
# Types that take a number after the type (`=distinctline:3`: "only three distinct digits";
# `=segmentsumline:10`: "divided into groups that each sum to 10").
COUNTED_TYPES = ("distinctline", "segmentsumline")

# K up to 6 digits: a segment total on a 64x64 board reaches the thousands (a row sums to 2,080);
# bounded so int() stays cheap and a larger number is refused by this pattern.
_SPEC = re.compile(r"^#?([0-9A-Fa-f]{3,8})(?::([0-9]+(?:\.[0-9]+)?))?=([a-z]+)(?::([0-9]{1,6}))?$")


@dataclass(frozen=True)
class LineType:
    """Lines of this colour (RRGGBB compared alone when no alpha was given) and, when given,
    this thickness are of `kind`."""

    colour: str  # RRGGBB or RRGGBBAA, upper case
    thickness: float | None
    kind: str
    count: int | None = None  # the number a COUNTED_TYPES type takes

    @property
    def spec(self) -> str:
        width = "" if self.thickness is None else f":{self.thickness:g}"
        count = "" if self.count is None else f":{self.count}"
        return f"{self.colour}{width}={self.kind}{count}"

    def matches(self, line: Any) -> bool:
        """A SudokuPad line picture drawn in this style."""
        colour = rgba(str(line.get("color", "")))
        if colour is None or colour[: len(self.colour)] != self.colour:
            return False
        if self.thickness is None:
            return True
        width = line.get("thickness")
        return isinstance(width, int | float) and abs(width - self.thickness) < 1e-6


def parse_line_type(text: str) -> LineType:
    """`COLOUR[:THICKNESS]=TYPE` (COLOUR as hex, `#` optional) → a LineType; ValueError with
    the reason, one line."""
    match = _SPEC.match(text.strip())
    if not match:
        raise ValueError(
            f"{text!r:.60} is not COLOUR[:THICKNESS]=TYPE[:K] "
            "(e.g. f067f0=renban, cccccc:19=thermometer, 00a3cc=distinctline:3; K: 1-6 digits)"
        )
    digits, width, kind, count = match.groups()
    colour = _spec_colour(digits)
    if kind not in LINE_TYPES:
        raise ValueError(f"line type {kind!r} is not one of {', '.join(LINE_TYPES)}")
    if (kind in COUNTED_TYPES) != (count is not None):
        raise ValueError(
            f"line type {kind!r} takes a number (={kind}:3)"
            if kind in COUNTED_TYPES
            else f"line type {kind!r} takes no number"
        )
    return LineType(colour, float(width) if width else None, kind, int(count) if count else None)


def _spec_colour(digits: str) -> str:
    """An option's hex colour as pictures' colours are compared: RRGGBB, or RRGGBBAA when an
    alpha was given; ValueError unless 3, 4, 6 or 8 hex digits."""
    if len(digits) not in (3, 4, 6, 8):
        raise ValueError(f"{digits!r} is not a colour: 3, 4, 6 or 8 hex digits")
    full = rgba("#" + digits) or ""
    return full if len(digits) in (4, 8) else full[:6]


def walk_lines(
    cells: list[Cell], walk: str, region: Callable[[Cell], Any] | None = None
) -> list[list[Cell]] | None:
    """The lines a walk over cells amounts to for a type: itself when it visits each cell once;
    a loop or a return to a cell read as `walk` says (LINE_TYPES; `region` gives a cell's
    region, for "segments"); None when it cannot be."""
    if len(set(cells)) == len(cells):
        return [cells]
    closed = cells[0] == cells[-1] and len(set(cells)) == len(cells) - 1
    if walk == "segments" and closed and region is not None:
        loop = cells[:-1]
        cut = next((i for i in range(len(loop)) if region(loop[i - 1]) != region(loop[i])), 0)
        return [loop[cut:] + loop[:cut]]  # from a border round to it: the loop's own runs
    if walk == "set":
        return [list(dict.fromkeys(cells))]
    if walk == "pairs":
        pairs = {frozenset(pair): list(pair) for pair in zip(cells, cells[1:], strict=False)}
        return list(pairs.values())
    if walk == "windows" and closed and len(cells) > 3:
        loop = cells[:-1] + cells[:2]  # around the loop: the runs across its start too
        return [loop[i : i + 3] for i in range(len(cells) - 1)]
    if walk == "windows":
        runs = [cells[i : i + 3] for i in range(len(cells) - 2)]
        return runs if all(len(set(run)) == 3 for run in runs) else None
    return None


def rgba(colour: str) -> str | None:
    """A CSS hex colour as RRGGBBAA (`#cccf` is `CCCCCCFF`, as is `#cccccc`); None if not."""
    digits = colour[1:].upper()
    if not colour.startswith("#") or not re.fullmatch(r"[0-9A-F]{3,8}", digits):
        return None
    if len(digits) in (3, 4):
        digits = "".join(ch * 2 for ch in digits)
    if len(digits) == 6:
        digits += "FF"
    return digits if len(digits) == 8 else None


def option_colour(colour: Any) -> str:
    """How the refusal writes a line's colour for --line: RRGGBB when opaque, else RRGGBBAA."""
    full = rgba(str(colour)) if isinstance(colour, str) else None
    if full is None:
        return str(colour)[:20]
    return full[:6] if full.endswith("FF") else full


# --- `--cell COLOUR[:round|square]=TYPE`: cells marked by a shape of a colour ---

CELL_TYPES = ("odd", "even", "low", "middle", "high", "countingcircles")  # a shape in one cell
# Thirds of 1..n, as entropic lines read them (1-3, 4-6, 7-9 on 9x9; 1-2, 3-4, 5-6 on 6x6): "1s,
# 2s and 3s are marked with circles; 4s, 5s and 6s with squares" (Trio sudoku).
THIRDS = ("low", "middle", "high")
# and MARK_TYPES (border_marks): a shape holding a number on a border or a corner
_CELL_SPEC = re.compile(r"^#?([0-9A-Fa-f]{3,8})(?::(round|square))?=([a-z]+)$")


@dataclass(frozen=True)
class CellType:
    """Cells holding a circle (`round`) or square of this colour, filled, with no text, are
    `kind` (odd, even: "the yellow circles contain odd digits"; low, middle, high: a third of
    1..n, "1s, 2s and 3s are marked with circles"; countingcircles: "a digit in a circle says
    how many circles hold it", all such cells one rule); or, for a MARK_TYPES
    kind, a shape on a border or corner whose text says the sum or digits."""

    colour: str  # RRGGBB or RRGGBBAA, upper case
    shape: str | None  # "round", "square" or None for either
    kind: str

    @property
    def spec(self) -> str:
        return f"{self.colour}{':' + self.shape if self.shape else ''}={self.kind}"

    @property
    def on_border(self) -> bool:
        """A mark between cells (sum, contains), not a shape within one."""
        return self.kind in MARK_TYPES

    def matches(self, picture: Any) -> bool:
        colour = rgba(str(picture.get("backgroundColor", "")))
        if colour is None or colour[: len(self.colour)] != self.colour:
            return False
        if bool(str(picture.get("text", "")).strip()) != self.on_border:
            return False  # a cell's shape is blank; a mark says its number (a blank dot is
            # another rule's: kropki)
        return self.shape is None or bool(picture.get("rounded")) == (self.shape == "round")


def parse_cell_type(text: str) -> CellType:
    """`COLOUR[:round|square]=TYPE` (TYPE in CELL_TYPES or MARK_TYPES) → a CellType;
    ValueError with the reason, one line."""
    match = _CELL_SPEC.match(text.strip())
    if not match:
        raise ValueError(f"{text!r:.60} is not COLOUR[:round|square]=TYPE (e.g. d4da31:round=odd)")
    digits, shape, kind = match.groups()
    colour = _spec_colour(digits)
    if kind not in CELL_TYPES + MARK_TYPES:
        raise ValueError(f"cell type {kind!r} is not one of {', '.join(CELL_TYPES + MARK_TYPES)}")
    return CellType(colour, shape, kind)


def _covers(earlier: str, later: str) -> bool:
    """Whether every picture colour `later` matches, `earlier` matches too (RRGGBB matches any
    alpha, RRGGBBAA only its own)."""
    return later[: len(earlier)] == earlier


def refuse_clashing_styles(lines: Sequence[LineType], cells: Sequence[CellType]) -> None:
    """An option that can never apply: the first option matching a drawing says what it is, so
    a later one whose every drawing an earlier one of another meaning already matches would be
    dropped without a word (`--cell ff0000=low --cell ff0000=high` read every red circle as
    low). A narrower style before a wider one is fine: the wider takes the rest. PuzzleError
    naming both."""
    for i, line in enumerate(lines):
        for earlier in lines[:i]:
            if (
                (line.kind, line.count) != (earlier.kind, earlier.count)
                and _covers(earlier.colour, line.colour)
                and (
                    earlier.thickness is None
                    or line.thickness is not None
                    and abs(line.thickness - earlier.thickness) < 1e-6
                )
            ):
                raise PuzzleError(
                    f"--line {line.spec} never applies: --line {earlier.spec}, given before it, "
                    "matches every line it would (one meaning a style; a narrower style goes first)"
                )
    for i, mark in enumerate(cells):
        for before in cells[:i]:
            if (
                mark.kind != before.kind
                and mark.on_border == before.on_border
                and _covers(before.colour, mark.colour)
                and (before.shape is None or before.shape == mark.shape)
            ):
                raise PuzzleError(
                    f"--cell {mark.spec} never applies: --cell {before.spec}, given before it, "
                    "matches every shape it would (one meaning a style; a narrower style goes "
                    "first)"
                )


def third_digits(kind: str, size: int) -> list[int]:
    """The digits a `low`, `middle` or `high` cell may hold on an n×n board: its third of 1..n;
    ValueError with the reason when n is no multiple of 3 (no thirds to name)."""
    if size % 3:
        raise ValueError(f"a {kind} cell is a third of 1..n, and {size} is not divisible by 3")
    third = size // 3
    start = THIRDS.index(kind) * third
    return list(range(start + 1, start + third + 1))
