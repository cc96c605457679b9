"""Input limits, in one place, and bounded JSON/TOML loaders that refuse hostile documents.

Every reader checks what it is given against these numbers before allocating for it, so memory
and time follow what one puzzle can really hold, not what a file claims or repeats.
"""

from __future__ import annotations

import json
import re
import tomllib
from itertools import accumulate
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.grid import MAX_SIZE as MAX_SIZE  # re-exported: the one size limit

MAX_CELLS = MAX_SIZE * MAX_SIZE  # 4096

# The widest text line a puzzle needs: a 64×64 board on one line as spaced numbers ("64 " per
# cell) or a LeetCode board on one line ('"64", ' per cell) takes ≤ 6 characters a cell; 16 a
# cell leaves room for trailing ratings, notes and padding. Longer lines are refused unread.
MAX_LINE_CHARS = MAX_CELLS * 16  # 65,536

# JSON/TOML documents (and f-puzzles payloads) are read whole, so they are capped as text.
# 8 Mi characters holds a 64×64 f-puzzles board with every cell's pencil marks several times
# over, or ~30,000 LeetCode 9×9 boards; parsing that much stays under ~100 MB of memory.
MAX_DOCUMENT_CHARS = 8 * 1024 * 1024
MAX_PAYLOAD_CHARS = MAX_DOCUMENT_CHARS  # an f-puzzles link's lz-string data after decompression

# Real puzzle documents nest 5-6 levels (rules -> rule -> cells -> cell); the C JSON parser
# would otherwise recurse ~1000 deep and end in RecursionError, tomllib sooner.
MAX_DEPTH = 64

# Each array or object costs Python ~60-200 bytes however short its text ("[]", "{}"): 8 MiB of
# them would take over 500 MB. A million is 30 times what 30,000 LeetCode boards need.
MAX_CONTAINERS = 1_000_000

# Every number in a puzzle (sizes, sums, coordinates) fits in a few digits; Python's int()
# refuses strings over 4,300 digits with a ValueError, and parsing long ones is quadratic.
MAX_INT_DIGITS = 20

# Strings "unrolled" (a run of plain characters, then escapes each followed by another run):
# `(?:[^"\\]|\\.)*` would keep regex state per character, 600 MB for a 5 MB string.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
# TOML strings: multi-line basic/literal first, then one-line ones; and comments.
_TOML_SKIP = re.compile(
    r'"""[^\\]*?(?:\\.[^\\]*?)*?"""|\'\'\'.*?\'\'\'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\n]*\''
    r"|#[^\n]*",
    re.S,
)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_LONG_NUMBER = re.compile(rf"[0-9_]{{{MAX_INT_DIGITS + 1},}}")


def check_document_size(text: str, what: str, where: str) -> None:
    """Refuse a document or payload longer than MAX_DOCUMENT_CHARS."""
    if len(text) > MAX_DOCUMENT_CHARS:
        raise PuzzleError(
            f"{where}: {what} is over the {MAX_DOCUMENT_CHARS // (1024 * 1024)} MiB limit for "
            f"one document; split it, or write the puzzles one per line"
        )


def load_json(text: str, where: str) -> Any:
    """`json.loads` that refuses oversized text, deep nesting and over-long integers.

    Errors are one-line PuzzleErrors naming `where` (a file name or a field) and the line and
    column; nesting and integers are checked by a scan before parsing, never by catching
    RecursionError.
    """
    check_document_size(text, "JSON", where)
    _check_shape(text, _JSON_STRING, where, "JSON")
    try:
        return json.loads(
            text,
            parse_int=_bounded_int(where),
            parse_constant=_no_constant(where),
            object_pairs_hook=_unique_keys(where),
        )
    except json.JSONDecodeError as exc:
        raise PuzzleError(
            f"invalid JSON: {exc.msg}", source=where, line=exc.lineno, column=exc.colno
        ) from None
    except (RecursionError, ValueError) as exc:  # the scan above should make these unreachable
        raise PuzzleError(f"JSON not readable: {exc}", source=where) from None


def load_toml(text: str, where: str) -> dict[str, Any]:
    """`tomllib.loads` with the same limits as `load_json`."""
    check_document_size(text, "TOML", where)
    _check_shape(text, _TOML_SKIP, where, "TOML")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PuzzleError(f"invalid TOML: {exc}", source=where) from None
    except (RecursionError, ValueError) as exc:  # the scan above should make these unreachable
        raise PuzzleError(f"TOML not readable: {exc}", source=where) from None


def _check_shape(text: str, skip: re.Pattern[str], where: str, kind: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH and runs of digits longer than MAX_INT_DIGITS
    outside strings; C-speed on the common path, a slow exact scan only to place an error."""
    bare = skip.sub("", text)  # strings may hold brackets and digits freely
    deep = False
    opened = bare.count("[") + bare.count("{")
    if opened > MAX_CONTAINERS:
        raise PuzzleError(
            f"{kind}: {opened:,} arrays and objects, more than the {MAX_CONTAINERS:,} a puzzle "
            "file can need",
            source=where,
        )
    if opened > MAX_DEPTH:  # else no way to nest that deep
        brackets = _NOT_BRACKET.sub("", bare)
        deep = max(accumulate(map(_STEP.__getitem__, brackets))) > MAX_DEPTH
    long_int = _LONG_NUMBER.search(bare) is not None
    if not deep and not long_int:
        return
    offset, message = _locate(text, skip, deep)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    raise PuzzleError(f"{kind}: {message}", source=where, line=line, column=column)


def _locate(text: str, skip: re.Pattern[str], deep: bool) -> tuple[int, str]:
    """Offset and description of the first offence in `text` (outside strings)."""
    depth = 0
    pos = 0
    while pos < len(text):
        if (match := skip.match(text, pos)) is not None and match.end() > pos:
            pos = match.end()
            continue
        if deep and text[pos] in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return pos, f"nested deeper than {MAX_DEPTH} levels"
        elif text[pos] in "]}":
            depth -= 1
        elif (number := _LONG_NUMBER.match(text, pos)) is not None:
            digits = len(number.group().replace("_", ""))
            return pos, f"a number of {digits} digits (at most {MAX_INT_DIGITS} are read)"
        pos += 1
    return 0, "not readable"  # unreachable: the fast scan found an offence


def _bounded_int(where: str) -> Any:
    def parse(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise PuzzleError(
                f"JSON: a number of {len(digits)} digits (at most {MAX_INT_DIGITS})", source=where
            )
        return int(digits)

    return parse


def _unique_keys(where: str) -> Any:
    """Objects whose keys are all different: json.loads keeps the last of two equal keys, so
    `{"rules": [...], "rules": []}` would solve another puzzle than the one a reader sees
    first, in silence (TOML refuses a repeated key itself)."""

    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        built = dict(pairs)
        if len(built) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise PuzzleError(
                        f"JSON: key {key[:60]!r} appears twice in one object; keep one",
                        source=where,
                    )
                seen.add(key)
        return built

    return build


def _no_constant(where: str) -> Any:
    def parse(name: str) -> Any:
        raise PuzzleError(f"JSON: {name} is not a number a puzzle can use", source=where)

    return parse
