"""`satsudoku convert`: rewrite puzzles as lines, pretty grids, LeetCode boards or documents."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Mapping
from typing import Any

from satsudoku.commands.common import add_input_options, load_puzzles
from satsudoku.errors import PuzzleError
from satsudoku.grid import default_box
from satsudoku.io import format_board, format_grid, format_line, puzzle_document
from satsudoku.io.fpuzzles_export import fpuzzles_link, sudokupad_link
from satsudoku.puzzle import Puzzle

TARGETS = ("line", "grid", "leetcode", "json", "toml", "fpuzzles", "sudokupad")
LINKS = {"fpuzzles": fpuzzles_link, "sudokupad": sudokupad_link}  # one link per puzzle
PLAIN = ("line", "grid", "leetcode")  # givens only: no rules, regions or box shape


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "convert",
        help="rewrite puzzles in another format",
        description="Read puzzles in any supported format and write them as one-line strings, "
        "pretty grids, LeetCode boards, JSON/TOML puzzle documents, or f-puzzles and SudokuPad "
        "links (a rule f-puzzles cannot express is refused by name). The plain formats hold "
        "only the givens: a puzzle with rules, jigsaw regions or an unusual box shape is refused "
        "rather than silently changed.",
    )
    add_input_options(parser)
    parser.add_argument("--to", choices=TARGETS, default="json", help="output format")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    documents = []
    for puzzle in load_puzzles(args):
        if args.to in PLAIN:
            _refuse_losses(puzzle, args.to)
            print(_plain(puzzle, args.to))
        elif args.to in LINKS:
            print(_link(puzzle, args.to))
        else:
            documents.append(puzzle_document(puzzle))
    if args.to == "toml":
        print(toml_document(_single(documents, args.file)), end="")
    elif documents:
        payload = documents[0] if len(documents) == 1 else {"puzzles": documents}
        print(json.dumps(payload, indent=2))
    return 0


def _plain(puzzle: Puzzle, target: str) -> str:
    if target == "line":
        return format_line(puzzle.givens, puzzle.symbols)
    if target == "grid":
        return format_grid(puzzle.givens, puzzle.shape, puzzle.symbols) + "\n"
    return format_board(puzzle.givens, puzzle.symbols)


def _link(puzzle: Puzzle, target: str) -> str:
    """An f-puzzles or SudokuPad link; a refusal names the puzzle's file."""
    try:
        return LINKS[target](puzzle)
    except PuzzleError as exc:
        raise PuzzleError(exc.message, source=puzzle.origin) from None


def losses(puzzle: Puzzle) -> list[str]:
    """What a givens-only format cannot carry: rules, jigsaw regions, a non-inferred box."""
    lost = []
    if puzzle.rules:
        types = dict.fromkeys(rule.to_spec()["type"] for rule in puzzle.rules)
        lost.append(f"rule{'s' * (len(puzzle.rules) > 1)} {', '.join(types)}")
    shape = puzzle.shape
    if shape.is_jigsaw:
        lost.append("jigsaw regions")
    elif (shape.box_rows, shape.box_cols) != _inferred_box(shape.size):
        lost.append(f"box {shape.box_rows}x{shape.box_cols}")
    return lost


def _inferred_box(size: int) -> tuple[int, int] | None:
    """The box a reader infers for this size (None: it cannot infer one)."""
    try:
        return default_box(size)
    except PuzzleError:
        return None


def _refuse_losses(puzzle: Puzzle, target: str) -> None:
    lost = losses(puzzle)
    if lost:
        raise PuzzleError(
            f"--to {target} would drop the {' and the '.join(lost)}; use --to json or --to toml",
            source=puzzle.origin,
        )


def _single(documents: list[dict[str, Any]], source: str) -> dict[str, Any]:
    """A TOML document holds one puzzle (JSON can wrap several in `puzzles`)."""
    if len(documents) != 1:
        raise PuzzleError(
            f"--to toml writes one puzzle document, but the input holds {len(documents)} "
            "puzzles; use --to json",
            source=source,
        )
    return documents[0]


def toml_document(doc: Mapping[str, Any]) -> str:
    """A puzzle document as TOML: top-level fields, then one `[[rules]]` table per rule."""
    out = [_toml_field(key, value, key) for key, value in doc.items() if key != "rules"]
    for index, rule in enumerate(doc.get("rules", [])):
        out += ["", "[[rules]]"]
        out += [_toml_field(key, value, f"rules[{index}].{key}") for key, value in rule.items()]
    return "\n".join(out) + "\n"


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_field(key: str, value: Any, where: str) -> str:
    """`key = value`, a list of compound items one item per line (killer cages, regions)."""
    name = _toml_key(key)
    if isinstance(value, list) and any(isinstance(v, (list, dict, str)) for v in value):
        items = [f"  {_toml_value(v, f'{where}[{i}]')}," for i, v in enumerate(value)]
        return "\n".join([f"{name} = [", *items, "]"])
    return f"{name} = {_toml_value(value, where)}"


def _toml_value(value: Any, where: str) -> str:
    """An inline TOML value; TOML has no null, so a null (a sandwich line without a clue) is
    an error rather than a silently different puzzle."""
    if value is None:
        raise PuzzleError(f"--to toml: {where} is null, which TOML cannot hold; use --to json")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v, f"{where}[{i}]") for i, v in enumerate(value)) + "]"
    if isinstance(value, Mapping):
        fields = [f"{_toml_key(k)} = {_toml_value(v, f'{where}.{k}')}" for k, v in value.items()]
        return "{" + ", ".join(fields) + "}"
    raise TypeError(f"{where}: cannot write {type(value).__name__} as TOML")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    """A basic string: backslash, quote and control characters escaped."""
    escaped = []
    for ch in text:
        if ch in '"\\':
            escaped.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            escaped.append(f"\\u{ord(ch):04x}")
        else:
            escaped.append(ch)
    return '"' + "".join(escaped) + '"'
