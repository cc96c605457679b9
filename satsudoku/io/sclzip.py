"""SudokuPad's "zipped" JSON (its PuzzleZipper): JSON with bare keys, single quotes, short
property names and empty array slots, read by one bounded, non-recursive pass."""

from __future__ import annotations

import re
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.io.limits import MAX_CONTAINERS, MAX_DEPTH, MAX_INT_DIGITS

# PuzzleZipper's property names, short → long (it applies them at every level).
PROPERTY_NAMES = {
    "c": "color",
    "ca": "cages",
    "ct": "center",
    "c1": "borderColor",
    "c2": "backgroundColor",
    "ce": "cells",
    "cs": "cellSize",
    "a": "arrows",
    "o": "overlays",
    "u": "underlays",
    "w": "width",
    "h": "height",
    "v": "value",
    "vd": "videos",
    "l": "lines",
    "r": "rounded",
    "re": "regions",
    "fs": "fontSize",
    "th": "thickness",
    "hl": "headLength",
    "wp": "wayPoints",
    "t": "title",
    "te": "text",
    "d": "duration",
    "d2": "d",
}

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<punct>[{}\[\]:,])
      | '(?P<single>(?:[^'\\]|\\.)*)'
      | "(?P<double>(?:[^"\\]|\\.)*)"
      | (?P<number>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w#]))
      | (?P<bare>[#\w.+-]+)
    )""",
    re.VERBOSE | re.DOTALL,
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/"}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_HEX_COLOUR = re.compile(r"[0-9a-fA-F]{6}")
_EMPTY = object()  # an array slot with nothing in it: PuzzleZipper's empty object


def unzip(text: str, what: str = "SudokuPad data") -> Any:
    """The value of zipped (or plain) SudokuPad JSON, property names expanded.

    Zipped form: keys unquoted, strings in single quotes (an apostrophe as \\'), `t`/`f` for
    true/false, colours `#0`, `#F` or six bare hex digits, and an empty slot in an array
    (`[,,{v:3}]`) for an empty object. Nesting is capped at MAX_DEPTH without recursion.
    """
    parser = _Parser(what)
    pos, end = 0, len(text.rstrip())
    while pos < end:
        match = _TOKEN.match(text, pos)
        if match is None:
            raise PuzzleError(f"{what}: unreadable text at character {pos + 1}")
        pos = match.end()
        kind = match.lastgroup or ""
        parser.feed(kind, match.group(kind), pos)
    return parser.result()


class _Parser:
    """A stack of open containers; each token either opens, closes or fills one."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.stack: list[list[Any] | dict[str, Any]] = []
        self.key: list[str | None] = []  # per open object: the property awaiting its value
        self.colon = False  # a property name was read: ':' must come next
        self.slot = True  # in an array: a value may come (after '[' or ',')
        self.root: Any = _EMPTY
        # Arrays and objects made, empty slots' objects included: 7 MB of commas would
        # otherwise build 7 million dicts (535 MB, 15 s) before any size check sees them.
        self.containers = 0

    def fail(self, message: str, pos: int) -> PuzzleError:
        return PuzzleError(f"{self.what}: {message} at character {pos}")

    def feed(self, kind: str, token: str, pos: int) -> None:
        top = self.stack[-1] if self.stack else None
        if self.colon:
            if token != ":" or kind != "punct":
                raise self.fail("':' expected", pos)
            self.colon = False
            return
        if kind == "punct" and token in ",]}":
            self.separator(token, top, pos)
            return
        if isinstance(top, dict) and self.key[-1] is None:  # a property name
            if kind not in ("single", "double", "number", "bare"):
                raise self.fail("a property name expected", pos)
            self.key[-1] = PROPERTY_NAMES.get(token, token)
            self.colon = True
            return
        if isinstance(top, list) and not self.slot:
            raise self.fail("',' expected", pos)
        if kind == "punct" and token in "{[":
            if len(self.stack) >= MAX_DEPTH:
                raise self.fail(f"nested deeper than {MAX_DEPTH} levels", pos)
            self.count_container(pos)
            self.stack.append({} if token == "{" else [])
            self.key.append(None)
            self.slot = token == "["
            return
        if kind == "punct":  # a stray ':'
            raise self.fail(f"unexpected {token!r}", pos)
        self.place(_scalar(kind, token, self.what, after_key=isinstance(top, dict)), pos)

    def separator(self, token: str, top: list[Any] | dict[str, Any] | None, pos: int) -> None:
        """',' and closing brackets; an array slot left empty holds an empty object."""
        if top is None:
            raise self.fail(f"unexpected {token!r}", pos)
        if isinstance(top, dict) and self.key[-1] is not None:
            raise self.fail("a value expected", pos)
        if token == ",":
            if isinstance(top, list) and self.slot:
                self.count_container(pos)
                top.append({})
            self.slot = True
            return
        if (token == "]") != isinstance(top, list):
            raise self.fail(f"mismatched {token!r}", pos)
        if isinstance(top, list) and self.slot and top:
            self.count_container(pos)
            top.append({})  # `[a,]`: the slot after the last comma
        self.stack.pop()
        self.key.pop()
        self.place(top, pos)

    def count_container(self, pos: int) -> None:
        self.containers += 1
        if self.containers > MAX_CONTAINERS:
            raise self.fail(
                f"more than the {MAX_CONTAINERS:,} arrays and objects a puzzle can need", pos
            )

    def place(self, value: Any, pos: int) -> None:
        self.slot = False
        if not self.stack:
            if self.root is not _EMPTY:
                raise self.fail("text after the puzzle", pos)
            self.root = value
            return
        top = self.stack[-1]
        if isinstance(top, list):
            top.append(value)
        else:
            key = self.key[-1]
            assert key is not None  # feed() sets it before a value can come
            top[key] = value
            self.key[-1] = None

    def result(self) -> Any:
        if self.stack or self.colon or self.root is _EMPTY:
            raise PuzzleError(f"{self.what}: the puzzle text ends early")
        return self.root


def _scalar(kind: str | None, token: str, what: str, *, after_key: bool) -> Any:
    """A string, number or bare word (t, f, null, a colour) as a Python value."""
    if kind in ("single", "double"):
        return _ESCAPE.sub(_unescape, token)
    if kind == "number":
        if len(token.lstrip("-").split(".")[0]) > MAX_INT_DIGITS:
            raise PuzzleError(f"{what}: a number of more than {MAX_INT_DIGITS} digits")
        if after_key and _HEX_COLOUR.fullmatch(token):
            return "#" + token  # six digits after a key are a colour, as PuzzleZipper reads them
        return float(token) if any(ch in token for ch in ".eE") else int(token)
    words = {"t": True, "true": True, "f": False, "false": False, "null": None}
    if token in words:
        return words[token]
    if token == "#0":
        return "#000000"
    if token == "#F":
        return "#FFFFFF"
    if _HEX_COLOUR.fullmatch(token):
        return "#" + token
    return token  # a bare word SudokuPad would have quoted; kept as text


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code.startswith("u") and len(code) == 5:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, code)
