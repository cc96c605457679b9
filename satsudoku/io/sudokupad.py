"""SudokuPad import: a sudokupad.app link, its `scl…` payload or the puzzle's JSON → the
f-puzzles form (the one translation to rules) → a Puzzle.

SudokuPad stores pictures, not rules: cages, lines, arrows and overlays with their colours and
sizes. A picture is read as a constraint only when it has the exact style that SudokuPad's
f-puzzles converter (fpuzzlesdecoder.js), Sudoku Maker or SudokuPad's editor gives that
constraint (sudokupad_pictures); killer cages (cells, a total, `unique`) and givens are read as
they are. Any other picture is a drawing whose meaning is in the rules text, refused or left out
(--ignore-drawings) as for f-puzzles. A global rule the rules text names is never inferred: the
message points at the `--rule` that adds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from satsudoku.errors import PuzzleError
from satsudoku.io.fpuzzles import describe_counts, fpuzzles_puzzle, short_source
from satsudoku.io.fpuzzles_values import refuse_redefined_values
from satsudoku.io.limits import MAX_SIZE, load_json
from satsudoku.io.lzstring import lz_decompress_base64
from satsudoku.io.sclzip import unzip
from satsudoku.io.sudokupad_lines import LineType
from satsudoku.io.sudokupad_pictures import PICTURE_KEYS, rc, read_pictures
from satsudoku.io.text import ReadOptions, warn
from satsudoku.puzzle import Puzzle

_HOSTS = ("sudokupad.app", "crackingthecryptic.com", "sudokupad.svencodes.com")
_PAYLOAD = re.compile(r"^(?:scl|ctc)[A-Za-z0-9+/=%]{20,}$")
_ZIPPED = re.compile(r"^\{\s*(?:id|cs|ce|ca|re|metadata|cellSize|cells)\s*:")


def looks_like_sudokupad(text: str) -> bool:
    """A SudokuPad link (not an f-puzzles one: those go to the f-puzzles reader), an `scl…`
    payload, or SudokuPad's zipped JSON."""
    text = text.strip()
    if text.startswith("http"):
        host = urlparse(text).hostname or ""
        return any(host == h or host.endswith("." + h) for h in _HOSTS)
    return bool(_PAYLOAD.match(text) or _ZIPPED.match(text))


def is_sudokupad_document(value: Any) -> bool:
    """SudokuPad's puzzle JSON has `cells`, rows of cell objects (satsudoku documents do not)."""
    return isinstance(value, Mapping) and isinstance(value.get("cells"), list)


def iter_sudokupad(text: str, options: ReadOptions) -> Iterator[Puzzle]:
    """The one puzzle a SudokuPad link, payload or JSON describes."""
    options = replace(options, source=short_source(options.source, is_link=looks_like_sudokupad))
    try:
        data, drawings, first = fpuzzles_reading(sudokupad_json(text), options)
        ruleset = str(data.get("ruleset", ""))
        refuse_redefined_values(ruleset, "SudokuPad")
        unread = _unread_text_rules(ruleset, data, options)
        said = " and ".join(what for what, _ in unread)
        added = ", ".join(option for _, option in unread)
        one = added.count("--") == 1
        hint = f"; its rules text {said}: add {added} if {'it applies' if one else 'they apply'}"
        hint = hint if unread else ""
        if drawings and not options.ignore_drawings:
            raise PuzzleError(_refusal(drawings, first) + hint)
    except PuzzleError as exc:
        raise exc.at(options.source) from None
    puzzle = fpuzzles_puzzle(data, options, site="SudokuPad")
    if hint:
        where = f"{options.source}: " if options.source else ""
        warn(
            options,
            f"warning: {where}SudokuPad: the rules text {said}, which the puzzle data "
            f"does not hold and satsudoku does not infer: only {added} "
            f"{'adds it' if one else 'add them'}",
        )
    yield replace(puzzle, ignored=tuple(drawings.items()))


def _refusal(drawings: Mapping[str, int], first: tuple[str, str]) -> str:
    """Drawings refused in one line: their counts, the first of them, and the options."""
    described, option = first
    what = {"line": "what such lines are", "cage": "its cages' digits do not repeat"}.get(
        described.split(" ")[0], "what such cells are"
    )
    what = "what such numbers are" if option.startswith("--outside") else what
    say = f"if the rules text says {what}, add {option}, else " if option else "add "
    return (
        f"SudokuPad: drawings whose meaning is in the rules text: {describe_counts(drawings)}"
        f" (first: {described}); {say}--ignore-drawings to solve without them"
    )


# Global rules a rules text may state with no picture, as `--rule` names them, with the
# f-puzzles key that holds each when the puzzle data states it.
_KEYS = {
    "antiknight": ("antiknight",),
    "antiking": ("antiking",),
    "nonconsecutive": ("nonconsecutive",),
    "diagonal": ("diagonal+", "diagonal-"),
}
_NAMED_RULES = {
    "antiknight": re.compile(r"anti[- ]?knight|knight'?s?[- ]move", re.IGNORECASE),
    "antiking": re.compile(r"anti[- ]?king|king'?s?[- ]move", re.IGNORECASE),
    "nonconsecutive": re.compile(r"non[- ]?consecutive", re.IGNORECASE),
    "diagonal": re.compile(
        r"diagonals?\b[^.\n]{0,60}\brepeat|\brepeat\b[^.\n]{0,60}\bdiagonals?\b", re.IGNORECASE
    ),
}


def global_rules_named(rules_text: str) -> list[str]:
    """The global rules (`--rule` names) a rules text mentions: a hint, never a rule read."""
    return [name for name, pattern in _NAMED_RULES.items() if pattern.search(rules_text)]


def _unread_text_rules(
    rules_text: str, data: Mapping[str, Any], options: ReadOptions
) -> list[tuple[str, str]]:
    """What the rules text states that neither the data nor the command line holds, each as
    (what the text says, the option that adds it): a hint, never a rule read."""
    out = [
        (f"names {name}", f"--rule {name}")
        for name in global_rules_named(rules_text)
        if not any(map(data.get, _KEYS[name])) and name not in options.added_rules
    ]
    held = set(options.added_negative)
    for key, covered in _NEGATIVE_HELD.items():
        if key in data.get("negative", ()) or (key == "difference" and data.get("nonconsecutive")):
            held.update(covered)
    kinds = [kind for kind in negatives_named(rules_text) if kind not in held]
    if kinds:
        marks = " and ".join(_MARK_NAMES[kind] for kind in kinds)
        out.append((f"says all {marks} are given", " ".join(f"--negative {k}" for k in kinds)))
    return out


# The negative constraints a rules text may state, found sentence by sentence: a sentence
# saying every mark of a kind is given, the kind named there or earlier in its paragraph.
_ALL_GIVEN = re.compile(
    r"(?<!not )\ball\b[^.\n]{0,50}\b(?:are|is)\s+(?:given|shown|marked|drawn|indicated)\b"
    r"|\bnegative constraint",
    re.IGNORECASE,
)
_MARKS = re.compile(r"\b(?:(?i:dots?|pairs?|kropki|marks?|symbols?|clues?)|XV|X|V)\b")
_KIND_WORDS = {
    "white": re.compile(r"\bwhite\b|\bconsecutive\b", re.IGNORECASE),
    "black": re.compile(r"\bblack\b|\bdouble\b|\bratio\b|\bhalf\b", re.IGNORECASE),
    "x": re.compile(r"\bXV\b|\bX(?:'?s)?\b|\b(?:sum|add)s?(?: up)? to 10\b"),
    "v": re.compile(r"\bXV\b|\bV(?:'?s)?\b|\b(?:sum|add)s?(?: up)? to 5\b"),
}
_SENTENCE = re.compile(r"[^.!?\n]+")
_MARK_NAMES = {"white": "white dots", "black": "black dots", "x": "X marks", "v": "V marks"}
_NEGATIVE_HELD = {"difference": ("white",), "ratio": ("black",), "xv": ("x", "v")}


def negatives_named(rules_text: str) -> list[str]:
    """The mark kinds (`--negative` names) whose every mark a rules text says is given: those
    its sentence names, else those named before it in its paragraph, else (dots) both
    colours."""
    kinds: set[str] = set()
    for paragraph in rules_text.splitlines():
        earlier: set[str] = set()  # kinds the paragraph named before this sentence
        for match in _SENTENCE.finditer(paragraph):
            sentence = match.group(0)
            named = _kinds_in(sentence)
            if _ALL_GIVEN.search(sentence) and _MARKS.search(sentence):
                found = named or earlier
                if not found and re.search(r"\b(?:dots?|kropki)\b", sentence, re.IGNORECASE):
                    found = {"white", "black"}
                kinds |= found
            earlier |= named
    return [kind for kind in _MARK_NAMES if kind in kinds]


def _kinds_in(text: str) -> set[str]:
    return {kind for kind, words in _KIND_WORDS.items() if words.search(text)}


def sudokupad_json(text: str) -> dict[str, Any]:
    """The SudokuPad puzzle object inside a link, an `scl…`/`ctc…` payload or (zipped) JSON."""
    text = text.strip()
    if text.startswith("http"):
        text = _link_payload(text)
    if text[:3] in ("scl", "ctc"):
        payload = unquote(text[3:]).replace(" ", "+")  # a '+' that went through form decoding
        text = lz_decompress_base64(payload, "SudokuPad data")
    if not text.startswith("{"):
        raise PuzzleError("SudokuPad data: not a puzzle (expected scl…, ctc… or JSON)")
    try:
        value = load_json(text, "SudokuPad")
    except PuzzleError:
        value = unzip(text)  # PuzzleZipper's compact form, as SudokuPad reads it after JSON
    if not is_sudokupad_document(value):
        raise PuzzleError("SudokuPad data has no 'cells'")
    return dict(value)


def _link_payload(link: str) -> str:
    """What follows the host (`/scl…`, `/sudoku/scl…`, `?puzzleid=scl…`); a short id names a
    puzzle kept on SudokuPad's server, which satsudoku does not fetch."""
    parsed = urlparse(link)
    query = parse_qs(parsed.query).get("puzzleid")
    payload = query[0] if query else unquote(parsed.path).strip("/")
    payload = payload.removeprefix("sudoku/").removeprefix("puzzle/")
    if payload[:3] in ("scl", "ctc") or payload.startswith("{"):
        return payload
    if not payload:
        raise PuzzleError("SudokuPad link: no puzzle in it")
    raise PuzzleError(
        f"SudokuPad link: {payload!r:.60} names a puzzle kept on SudokuPad's server, which "
        f"satsudoku does not fetch; save https://sudokupad.app/api/puzzle/{payload:.60} to a "
        "file and read that file"
    )


# --- SudokuPad → f-puzzles -------------------------------------------------------------------

# Keys with no rule in them: presentation, media, fog (which hides cells, not constraints).
_PRESENTATION = {"id", "cellSize", "metadata", "videos", "duration", "foglight", "triggereffect"}


def fpuzzles_data(
    pad: Mapping[str, Any], lines: Sequence[LineType] = (), **typed: Any
) -> tuple[dict[str, Any], dict[str, int]]:
    """The f-puzzles JSON a SudokuPad puzzle amounts to, and its unread drawings per key;
    `lines` and `typed` (cells, unique_cages) as ReadOptions has them."""
    options = ReadOptions(lines=tuple(lines), **typed)
    data, drawings, _ = fpuzzles_reading(pad, options)
    return data, drawings


def fpuzzles_reading(
    pad: Mapping[str, Any], options: ReadOptions
) -> tuple[dict[str, Any], dict[str, int], tuple[str, str]]:
    """fpuzzles_data, and the first unread drawing described with the option to read it;
    `options`: what the user said pictures mean (--line, --cell, --unique-cages)."""
    known = _PRESENTATION | {"cells", "regions", "global", *PICTURE_KEYS}
    unknown = sorted(str(key) for key, value in pad.items() if value and key not in known)
    if unknown:
        raise PuzzleError(f"SudokuPad key {unknown[0]!r:.40} is not supported")
    size, grid = _grid(pad.get("cells"))
    _regions(pad.get("regions"), grid, size)
    pictures = {key: _elements(pad, key, size) for key in PICTURE_KEYS}
    data: dict[str, Any] = {"size": size, "grid": grid}
    data.update(_metadata(pad, pictures["cages"], size))
    rules_text = f"{data.get('title', '')}\n{data.get('ruleset', '')}"
    regions = {(r, c): cell["region"] for r, row in enumerate(grid) for c, cell in enumerate(row)}
    constraints, drawings, first = read_pictures(
        size, pictures, pad.get("global"), rules_text, options, regions
    )
    for key, value in constraints.items():
        if isinstance(value, list) and isinstance(data.get(key), list):
            data[key] = data[key] + value
        else:
            data[key] = value
    return data, drawings, first


def _grid(cells: Any) -> tuple[int, list[list[dict[str, Any]]]]:
    if not isinstance(cells, list) or not cells:
        raise PuzzleError("SudokuPad 'cells' must be rows of cells")
    size = len(cells)
    if size > MAX_SIZE:
        raise PuzzleError(f"SudokuPad grid has {size} rows; the largest board is {MAX_SIZE}")
    if any(not isinstance(row, list) or len(row) != size for row in cells):
        raise PuzzleError(f"SudokuPad 'cells' must be {size} rows of {size} cells (a square)")
    grid: list[list[dict[str, Any]]] = []
    for r, row in enumerate(cells):
        out: list[dict[str, Any]] = []
        for c, cell in enumerate(row):
            value = cell.get("value") if isinstance(cell, Mapping) else None
            if value in (None, ""):
                out.append({})
                continue
            digit = int(value) if isinstance(value, str) and _DIGITS.fullmatch(value) else value
            if type(digit) is not int or not 1 <= digit <= size:
                raise PuzzleError(
                    f"SudokuPad cell r{r + 1}c{c + 1}: given {value!r} is not 1..{size}"
                )
            out.append({"value": digit, "given": True})
        grid.append(out)
    return size, grid


def _regions(regions: Any, grid: list[list[dict[str, Any]]], size: int) -> None:
    """Region numbers into the f-puzzles cells. Without regions SudokuPad has none: only rows
    and columns, which row-shaped regions express exactly."""
    if not regions:
        for r, row in enumerate(grid):
            for cell in row:
                cell["region"] = r
        return
    if not isinstance(regions, list) or len(regions) != size:
        raise PuzzleError(f"SudokuPad 'regions' must be {size} lists of cells")
    for index, region in enumerate(regions):
        if not isinstance(region, list) or len(region) != size:
            count = len(region) if isinstance(region, list) else region
            raise PuzzleError(f"SudokuPad region {index + 1} has {count!r:.20} cells, not {size}")
        cells = [rc(cell, size, f"SudokuPad region {index + 1}") for cell in region]
        for r, c in cells:
            if "region" in grid[r][c]:
                raise PuzzleError(f"SudokuPad cell r{r + 1}c{c + 1} is in two regions")
            grid[r][c]["region"] = index


def _elements(pad: Mapping[str, Any], key: str, size: int) -> list[Mapping[str, Any]]:
    """One kind of picture; more than 64 per cell is no puzzle (the busiest published ones
    draw about 5)."""
    value = pad.get(key) or []
    if not isinstance(value, list) or not all(isinstance(e, Mapping) for e in value):
        raise PuzzleError(f"SudokuPad {key!r} must be a list of objects")
    if len(value) > 64 * size * size:
        raise PuzzleError(f"SudokuPad {key!r}: {len(value):,} pictures on {size * size} cells")
    return value


_META = re.compile(r"^([A-Za-z]+):\s*(.*)$", re.DOTALL)
_DIGITS = re.compile(r"[0-9]{1,6}|[1-9]{7,4096}")  # a given, or a solution of up to 64x64


def _metadata(pad: Mapping[str, Any], cages: list[Mapping[str, Any]], size: int) -> dict[str, Any]:
    """Title, author, rules and solution: the `metadata` object, or the older form, cages
    without cells whose value reads `title: …`."""
    meta: dict[str, Any] = {}
    for cage in cages:
        match = _META.match(str(cage.get("value", ""))) if not cage.get("cells") else None
        if match:
            meta.setdefault(match.group(1).lower(), match.group(2))
    if isinstance(pad.get("metadata"), Mapping):
        meta.update(pad["metadata"])
    out: dict[str, Any] = {}
    for key, field in (("title", "title"), ("author", "author"), ("rules", "ruleset")):
        if isinstance(meta.get(key), str):
            out[field] = meta[key]
    solution = str(meta.get("solution", ""))
    if (
        size <= 9
        and len(solution) == size * size
        and _DIGITS.fullmatch(solution)
        and "0" not in solution
    ):
        if (high := max(solution)) > str(size):
            # A 4x4 of digits 1-9 ("the same 4-digit subset"): read as 1..4 it is another puzzle.
            raise PuzzleError(
                f"SudokuPad: the solution stored with the puzzle uses digit {high} on a "
                f"{size}x{size} grid; its rules text must allow digits other than 1..{size}"
            )
        out["solution"] = [int(ch) for ch in solution]
    for flag in ("antiknight", "antiking"):
        if meta.get(flag) is True:
            out[flag] = True
    return out
