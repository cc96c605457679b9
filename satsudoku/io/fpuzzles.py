"""f-puzzles import: the lz-string base64 text (or a link holding it, or its JSON) → a puzzle
document → a Puzzle. Every constraint key maps to a rule type, any other key is an error, and a
drawing is accepted only when it renders a stored constraint (else refused, or left out)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Grid, default_box
from satsudoku.io.border_marks import CAGE_TYPES, cage_entry, mark_digits
from satsudoku.io.document import check_solution, puzzle_from_document
from satsudoku.io.fpuzzles_families import given_pencil_marks, indexer, outside_rule, outside_side
from satsudoku.io.fpuzzles_numbers import clue_number
from satsudoku.io.fpuzzles_typed import describe_drawing, describe_line, read_typed
from satsudoku.io.fpuzzles_values import refuse_redefined_values
from satsudoku.io.limits import load_json
from satsudoku.io.lzstring import lz_decompress_base64
from satsudoku.io.outside_text import OUTSIDE_CELLS, OUTSIDE_KEYS, outside_clue, outside_option
from satsudoku.io.painted import paint_entries
from satsudoku.io.sudokupad_lines import option_colour
from satsudoku.io.text import ReadOptions
from satsudoku.io.writers import format_line
from satsudoku.puzzle import Puzzle
from satsudoku.rules import rule_classes
from satsudoku.rules.schema import FpuzzlesKey
from satsudoku.symbols import Alphabet

_LINK = re.compile(r"(?:[?&]load=|fpuz(?:zles)?)([A-Za-z0-9+/=%\- ]+)")
_PAYLOAD = re.compile(r"^fpuz(?:zles)?([A-Za-z0-9+/=%]{20,})$")  # a SudokuPad payload alone


def looks_like_fpuzzles(text: str) -> bool:
    """A link holding f-puzzles data (f-puzzles' `?load=`, sudokupad's `/fpuzzles…` or
    `/fpuz…`), SudokuPad's payload alone (`fpuzzles…`), or the bare lz-string ('N4Ig' encodes
    '{"')."""
    text = text.strip()
    if text.startswith("N4Ig") or _PAYLOAD.match(text):
        return True
    return text.startswith("http") and ("f-puzzles" in text or "fpuz" in text)


def fpuzzles_json(text: str) -> dict[str, Any]:
    """The f-puzzles JSON object inside a link, an lz-string or JSON text."""
    text = text.strip()
    if text.startswith("{"):
        value = _load_json(text, decompressed=False)
    else:
        if text.startswith("http"):
            text = _link_data(text)
        elif payload := _PAYLOAD.match(text):
            text = payload.group(1)
        text = unquote(text).replace(" ", "+")  # a '+' that went through form decoding
        value = _load_json(lz_decompress_base64(text), decompressed=True)
    if not isinstance(value, dict) or "grid" not in value:
        raise PuzzleError("f-puzzles data has no 'grid'")
    return value


def _load_json(raw: str, *, decompressed: bool) -> Any:
    """Bounded JSON parsing (nesting, integers, size); a position inside decompressed text
    means nothing to the user, so it is dropped there."""
    try:
        return load_json(raw, "f-puzzles")
    except PuzzleError as exc:
        if decompressed:
            raise PuzzleError(f"f-puzzles data after decompression: {exc.message}") from None
        raise PuzzleError(exc.message, line=exc.line, column=exc.column) from None


def _link_data(link: str) -> str:
    """The lz-string in a link: the `load=` parameter, else what follows `fpuzzles`/`fpuz`."""
    query = parse_qs(urlparse(link).query).get("load")
    if query:
        return query[0]
    match = _LINK.search(link)
    if match:
        return match.group(1)
    raise PuzzleError(
        "f-puzzles link: no puzzle data in it (a short '?id=' link needs the site; "
        "copy the long '?load=' link instead)"
    )


def is_fpuzzles_document(value: Any) -> bool:
    """An f-puzzles JSON object (rather than a satsudoku document, which has no such field)
    has a 'grid' of rows."""
    return isinstance(value, Mapping) and "grid" in value


def iter_fpuzzles(text: str, options: ReadOptions) -> Iterator[Puzzle]:
    """The one puzzle an f-puzzles string, link or JSON describes; errors name the file, or a
    short form of the link when the link itself was the input."""
    options = replace(options, source=short_source(options.source))
    try:
        data = fpuzzles_json(text)
    except PuzzleError as exc:
        raise exc.at(options.source) from None
    yield fpuzzles_puzzle(data, options)


def fpuzzles_puzzle(
    data: Mapping[str, Any], options: ReadOptions, *, site: str = "f-puzzles"
) -> Puzzle:
    """The puzzle of f-puzzles JSON, recording the drawings `--ignore-drawings` left out.

    A solution stored with the puzzle must obey every rule read: if it does not, the rules
    text gives some clue another meaning than the one read, and solving would answer a
    different puzzle.
    """
    try:
        refuse_redefined_values(str(data.get("ruleset", "")), site)
        if site == "f-puzzles" and (
            options.lines or options.cells or options.outside or options.cage or options.paints
        ):
            data = _with_typed(data, options)
        doc = fpuzzles_document(data, ignore_drawings=options.ignore_drawings)
        stated = _stated_solution(data, doc["size"])
        doc.pop("solution", None)  # checked below, with what a failure means here
        ignored = tuple(blocking_drawings(data).items())
        puzzle = replace(puzzle_from_document(doc, options), ignored=ignored)
        if stated is not None:
            try:
                check_solution(puzzle, stated, f"{site}: the solution stored with the puzzle")
            except PuzzleError as exc:
                raise PuzzleError(
                    f"{exc.message}; its rules text must give some clue a meaning not read"
                ) from None
            puzzle = replace(puzzle, solution=stated)
    except PuzzleError as exc:
        raise exc.at(options.source) from None
    return puzzle


def _stated_solution(data: Mapping[str, Any], size: int) -> Grid | None:
    """f-puzzles' optional `solution`: n² digits, row by row (anything else is not one)."""
    solution = data.get("solution")
    if not isinstance(solution, list) or len(solution) != size * size:
        return None
    if not all(type(v) is int and 1 <= v <= size for v in solution):
        return None
    return Grid(size, tuple(solution))


def short_source(
    source: str | None, keep: int = 48, is_link: Callable[[str], bool] = looks_like_fpuzzles
) -> str | None:
    """A link or lz-string used as the input's name, cut to `keep` characters."""
    if source is None or len(source) <= keep or not is_link(source):
        return source
    return source[: keep - 1] + "…"


# Keys that describe the puzzle's presentation or the editor's state: no rule in them. Fog of
# war only hides cells from the player; every constraint under it is still stored.
_IGNORED = {
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "highlightConflicts",
    "activeConstraints",
    "disabledlogic",
    "truecandidatesoptions",
    "fogofwar",
    "foglight",
}
# Keys that only draw something. Most drawings in real files render a constraint stored under
# another key (see `_renders_stored`); the others may carry a rule that lives only in the
# rules text, which cannot be read, so they are refused unless the user says to ignore them.
DRAWING_KEYS = ("line", "circle", "rectangle", "text", "cage")
# Region labels for documents, one per region of the largest board (64).
_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0@$"


def fpuzzles_document(data: Mapping[str, Any], *, ignore_drawings: bool = False) -> dict[str, Any]:
    """Translate f-puzzles JSON into a satsudoku puzzle document (FORMATS.md §2), keeping the
    setter's title, author (as `source`) and rules text (as `notes`)."""
    size = data.get("size")
    if type(size) is not int or not 1 <= size <= len(_LABELS):
        raise PuzzleError(f"f-puzzles 'size' must be an integer 1..{len(_LABELS)}, not {size!r}")
    grid = data.get("grid")
    if (
        not isinstance(grid, list)
        or len(grid) != size
        or any(not isinstance(row, list) or len(row) != size for row in grid)
    ):
        raise PuzzleError(f"f-puzzles 'grid' must be {size} rows of {size} cells")
    blocking = blocking_drawings(data)
    if blocking and not ignore_drawings:
        refuse_drawings("f-puzzles", blocking, _first_drawing(data))
    doc: dict[str, Any] = {"size": size}
    for key, field in (("title", "title"), ("author", "source"), ("ruleset", "notes")):
        if isinstance(data.get(key), str) and data[key].strip():
            doc[field] = data[key].strip()
    doc.update(_grid_fields(grid, size))
    if (solution := _stated_solution(data, size)) is not None:
        doc["solution"] = format_line(solution, Alphabet.default(size))
    rules: list[dict[str, Any]] = []
    declared = _declared()
    for key, value in data.items():
        if key in _IGNORED or key in DRAWING_KEYS or key == "negative":
            continue
        translate = _TRANSLATE.get(key) or declared.get(key)
        if translate is None:
            raise PuzzleError(f"f-puzzles key {key!r} is not supported")
        rules.extend(_translated(key, translate, value, size))
    rules.extend(_dots(data, _negative(data.get("negative", [])), size))
    rules.extend(_translated("givenPencilMarks", given_pencil_marks, grid, size))
    doc["rules"] = [rule for rule in rules if rule]
    return doc


def refuse_drawings(
    site: str, counts: Mapping[str, int], first: tuple[str, str] = ("", "")
) -> None:
    """The error for drawings that may carry a rule only the rules text states; `first`: the
    first unread line as a message names it and the --line option that could read it."""
    described, option = first
    first_text = f" (first: {described})" if described else ""
    such = "lines" if described.startswith("line") else "cells"
    such = "numbers" if option.startswith("--outside") else such
    such = "cages" if option.startswith("--cage") else such
    say = f"if the rules text says what such {such} are, add {option}, else " if option else "add "
    raise PuzzleError(
        f"{site}: drawings whose meaning is in the rules text: {describe_counts(counts)}"
        f"{first_text}; {say}--ignore-drawings to solve without them"
    )


def _first_drawing(data: Mapping[str, Any]) -> tuple[str, str]:
    """The first drawing that renders no stored constraint, described, with the option that
    could read it: a line first (--line), then the other keys in order, then painted cells."""
    blocking = _blocking_entries(data)
    for index in blocking.get("line", []):
        return describe_line(data["line"][index])
    for key, indices in blocking.items():
        entry = data[key][indices[0]]
        described, option = describe_drawing(key, entry)
        cells = entry.get("cells")
        if key == "text" and isinstance(cells, list) and len(cells) == 1:
            size = int(data["size"])
            option = outside_option(str(cells[0]), str(entry.get("value", "")), size)
        if key == "cage" and mark_digits(str(entry.get("value", "")), int(data["size"])):
            option = f"--cage TYPE ({', '.join(CAGE_TYPES)})"
        return described, option
    for colour, cells in _colour_groups(data.get("grid"), _stored_groups(data)):
        shown = " ".join(sorted(cells, key=_cell_key)[:8]) + (" …" if len(cells) > 8 else "")
        return f"cell colour {option_colour(colour)} on {shown}", ""
    return "", ""


def _with_typed(data: Mapping[str, Any], options: ReadOptions) -> dict[str, Any]:
    """The data with the drawings the user typed (--line, --cell, --outside) read as
    constraints: their entries added under the constraints' keys, the drawings read taken
    out."""
    blocking = _blocking_entries(data)
    typed, read = read_typed(data, blocking, options)
    if options.outside:
        key = OUTSIDE_KEYS[options.outside]
        for i in blocking.get("text", []):
            entry = data["text"][i]
            cells = entry.get("cells")
            if isinstance(cells, list) and len(cells) == 1:
                value, size = str(entry.get("value", "")), int(data["size"])
                clue = outside_clue(str(cells[0]), value, size, options.outside)
                if clue is not None:
                    typed.setdefault(key, []).append(clue)
                    read.setdefault("text", set()).add(i)
    if options.cage == "contains":
        size = int(data["size"])
        for i in blocking.get("cage", []):
            entry = data["cage"][i]
            cells = entry.get("cells")
            if not isinstance(cells, list) or not cells:
                continue
            described = "f-puzzles: " + describe_drawing("cage", entry)[0]
            found = cage_entry(cells, str(entry.get("value", "")), size, described)
            typed.setdefault("quadruple", []).append(found)
            read.setdefault("cage", set()).add(i)
    for paint in options.paints:
        for key, entries in paint_entries(data.get("grid"), int(data["size"]), paint).items():
            typed.setdefault(key, []).extend(entries)
    out = dict(data)
    for key, indices in read.items():
        out[key] = [entry for i, entry in enumerate(data[key]) if i not in indices]
    for key, entries in typed.items():
        present = out.get(key)
        out[key] = (present if isinstance(present, list) else []) + entries
    return out


def describe_counts(counts: Mapping[str, int]) -> str:
    """`line ×4, circle ×9`: what a message says about the drawings."""
    return ", ".join(f"{key} ×{count}" for key, count in counts.items())


def blocking_drawings(data: Mapping[str, Any]) -> dict[str, int]:
    """How many drawings of each key do not render a stored constraint (in key order)."""
    counts = {key: len(found) for key, found in _blocking_entries(data).items()}
    stored = _stored_groups(data)
    if coloured := _unexplained_colours(data.get("grid"), stored):
        counts["cell colour"] = coloured
    return counts


def _blocking_entries(data: Mapping[str, Any]) -> dict[str, list[int]]:
    """The indices of the drawings of each key that render no stored constraint."""
    stored = _stored_groups(data)
    stored_lines = _stored_groups(data, lines_only=True)
    found: dict[str, list[int]] = {}
    for key in DRAWING_KEYS:
        entries = data.get(key)
        if not entries:
            continue
        if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
            raise PuzzleError(f"f-puzzles key {key!r} must be a list of objects")
        shown = stored_lines if key == "line" else stored
        indices = [i for i, e in enumerate(entries) if not _renders_stored(key, e, data, shown)]
        if indices:
            found[key] = indices
    return found


def _unexplained_colours(grid: Any, stored: set[frozenset[str]]) -> int:
    """How many painted cells no stored constraint explains (see `_colour_groups`)."""
    return sum(len(cells) for _, cells in _colour_groups(grid, stored))


def _colour_groups(grid: Any, stored: set[frozenset[str]]) -> list[tuple[str, set[str]]]:
    """Cells the setter painted (`c`, `cArray`: not the solver's `highlight`) whose colour
    group is not made of stored constraints' cells. A colour may carry a rule that only the
    rules text states ("each blue 3×3 area is a magic square"); read as a classic, such a
    puzzle would get a confident wrong verdict. A colour group that is exactly the union of
    stored entries (extra regions, clone cells or odd cells painted as f-puzzles users do) is
    explained. The solver's own marks (`highlight`) are presentation."""
    groups: dict[str, set[str]] = {}
    for r, row in enumerate(grid if isinstance(grid, list) else []):
        for c, cell in enumerate(row if isinstance(row, list) else []):
            if not isinstance(cell, Mapping):
                continue
            several = cell.get("cArray")
            for colour in [cell.get("c"), *(several if isinstance(several, list) else [])]:
                if isinstance(colour, str) and colour.strip():
                    groups.setdefault(colour.strip().upper(), set()).add(f"r{r + 1}c{c + 1}")
    containing: dict[str, list[frozenset[str]]] = {}
    for group in stored:
        for cell_name in group:
            containing.setdefault(cell_name, []).append(group)
    unexplained = []
    for colour, cells in groups.items():
        covered: set[str] = set()
        for cell_name in cells:
            for group in containing.get(cell_name, ()):
                if group <= cells:
                    covered |= group
        if covered != cells:
            unexplained.append((colour, cells))
    return unexplained


# The f-puzzles tools that add constraints (rangsk's Fpuzzles-NewConstraints userscript) also
# export each one as a drawing for players without the tool, marked `fromConstraint: <name>`;
# the key of the constraint is the name in lower case without spaces (f-puzzles' cID), and both
# whispers are exported under `whispers` with their difference. Older exports marked lines
# `isNewConstraint: true` and told them apart only by colour.
_MARK_KEYS = {"germanwhispers": "whispers", "dutchwhispers": "whispers"}
_OLD_MARK_COLOURS = {"#C060C0": "renban", "#67F067": "whispers", "#6495ED": "slowthermometer"}


def _renders_stored(
    key: str, entry: Mapping[str, Any], data: Mapping[str, Any], stored: set[frozenset[str]]
) -> bool:
    """True when a drawing shows a constraint the file also stores: it is marked as drawn
    from a constraint key present in the file, or it covers exactly the cells of one stored
    entry (a cage outlining clone cells, a circle on a thermometer's bulb)."""
    if key == "text" and not str(entry.get("value", "")).strip():
        return True  # an empty text draws nothing
    mark = entry.get("fromConstraint")
    if isinstance(mark, str):
        mark_key = "".join(mark.split()).lower()
        if data.get(_MARK_KEYS.get(mark_key, mark_key)) or data.get(mark_key):
            return True
    elif entry.get("isLLConstraint") is True and data.get("lockout"):
        return True  # the lockout tool's own drawing of its lines and diamonds
    elif entry.get("isNewConstraint") is True:
        old = _OLD_MARK_COLOURS.get(str(entry.get("outlineC", "")).upper(), "entropicline")
        if data.get(old):
            return True
    if key != "line" and str(entry.get("value", "")).strip():
        return False  # a number on it says more than the stored entry (a cage's rank, …)
    groups = entry.get("lines") if key == "line" else [entry.get("cells")]
    if not isinstance(groups, list) or not groups:
        return False
    return all(
        isinstance(cells, list) and frozenset(str(c).lower() for c in cells) in stored
        for cells in groups
    )


def _stored_groups(data: Mapping[str, Any], *, lines_only: bool = False) -> set[frozenset[str]]:
    """The cell sets of every stored constraint entry: cells, clone cells, a clue's cell, each
    line and its first cell (a thermometer's or arrow's bulb). `lines_only`: the stored lines
    alone, all a line drawing can render (renban lines through exactly a quadruple's four
    cells are renban lines, not the quadruple's picture)."""
    groups: set[frozenset[str]] = set()
    for key, value in data.items():
        if key in DRAWING_KEYS or not isinstance(value, list):
            continue
        for entry in value:
            if not isinstance(entry, Mapping):
                continue
            lines = entry.get("lines")
            if lines_only:
                for line in lines if isinstance(lines, list) else ():
                    if isinstance(line, list) and line:
                        groups.add(frozenset(str(c).lower() for c in line))
                continue
            for field in ("cells", "cloneCells"):
                if isinstance(entry.get(field), list):
                    groups.add(frozenset(str(c).lower() for c in entry[field]))
            if isinstance(entry.get("cell"), str):
                groups.add(frozenset([entry["cell"].lower()]))
            for line in lines if isinstance(lines, list) else ():
                if isinstance(line, list) and line:
                    groups.add(frozenset(str(c).lower() for c in line))
                    groups.add(frozenset([str(line[0]).lower()]))
    return groups


def _translated(
    key: str, translate: Callable[[Any, int], list[dict[str, Any]]], value: Any, size: int
) -> list[dict[str, Any]]:
    """Run one key's translator, turning a malformed entry into an error naming the key."""
    try:
        return translate(value, size)
    except KeyError as exc:
        raise PuzzleError(f"f-puzzles key {key!r}: malformed entry (no {exc.args[0]!r})") from None
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PuzzleError(f"f-puzzles key {key!r}: malformed entry ({exc})") from None


def _default_box(size: int) -> tuple[int, int]:
    """f-puzzles' default regions: the factor pair closest to square, and for a prime size
    (5, 7, …) 1×n, i.e. each row is its own region (rows already hold every digit)."""
    try:
        return default_box(size)
    except PuzzleError:
        return 1, size


def _grid_fields(grid: list[Any], size: int) -> dict[str, Any]:
    """Givens and the region layout: `box`, or jigsaw `regions` when the cells' regions are
    not the default boxes (SudokuPad always lists them, often as plain boxes)."""
    box = _default_box(size)
    givens = [0] * (size * size)
    regions: list[int] = []
    boxes: list[int] = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            where = f"f-puzzles cell r{r + 1}c{c + 1}"
            if not isinstance(cell, Mapping):
                raise PuzzleError(f"{where} must be an object, not {cell!r}")
            givens[r * size + c] = _given(cell, size, where)
            boxes.append((r // box[0]) * box[0] + c // box[1])
            regions.append(_region(cell, boxes[-1], size, where))
    fields: dict[str, Any] = {
        "givens": format_line(Grid(size, tuple(givens)), Alphabet.default(size))
    }
    # Two partitions into `size` parts are the same when pairing their labels gives no more
    # than `size` distinct pairs.
    if len(set(zip(regions, boxes, strict=True))) == len(set(regions)) == size:
        fields["box"] = list(box)
    else:
        labels = "".join(_LABELS[region] for region in regions)
        fields["regions"] = [labels[r * size : (r + 1) * size] for r in range(size)]
    return fields


def _given(cell: Mapping[str, Any], size: int, where: str) -> int:
    """A given digit, or 0: a value the player typed (no `given`) is not part of the puzzle."""
    if not cell.get("given") or not cell.get("value"):
        return 0
    value = cell["value"]
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= size:
        raise PuzzleError(f"{where}: given {value!r} is not a digit 1..{size}")
    return value


def _region(cell: Mapping[str, Any], default: int, size: int, where: str) -> int:
    region = cell.get("region", default)
    if region is None:
        raise PuzzleError(f"{where} belongs to no region (region null); every cell needs one")
    if not isinstance(region, int) or isinstance(region, bool) or not 0 <= region < size:
        raise PuzzleError(f"{where}: region {region!r} is not a region number 0..{size - 1}")
    return region


def _negative(value: Any) -> set[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PuzzleError(f"f-puzzles 'negative' must be a list of names, not {value!r}")
    unknown = sorted(set(value) - {"ratio", "difference", "xv"})
    if unknown:
        raise PuzzleError(f"f-puzzles 'negative' entry {unknown[0]!r} is not supported")
    return set(value)


def _flag(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    return lambda value, size: [{"type": kind}] if value else []


def _cells(entry: Mapping[str, Any], key: str = "cells") -> list[str]:
    cells = entry[key]
    if not isinstance(cells, list):
        raise TypeError(f"{key!r} must be a list of cell names, not {cells!r:.40}")
    return [str(c).lower() for c in cells]


def _pair(entry: Mapping[str, Any]) -> list[str]:
    """The two cells a dot or an X/V mark sits between."""
    cells = _cells(entry)
    if len(cells) != 2:
        raise ValueError(f"a dot joins two cells, not {len(cells)} ({', '.join(cells):.60})")
    return cells


def _line_rule(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        lines = [[str(c).lower() for c in line] for entry in value for line in entry["lines"]]
        return [{"type": kind, "lines": lines}] if lines else []

    return translate


def _whispers(value: Any, size: int) -> list[dict[str, Any]]:
    """Whispers lines with their least difference: an entry's `value`, else f-puzzles' default
    for the size, ceil(size / 2) (5 on 9x9: German whispers; Dutch whispers are exported as
    value 4). One rule per difference."""
    by_difference: dict[int, list[list[str]]] = {}
    for entry in value:
        text = str(entry.get("value") or "").strip()
        difference = clue_number(text) if text else math.ceil(size / 2)
        lines = by_difference.setdefault(difference, [])
        lines.extend(_cells({"line": line}, "line") for line in entry["lines"])
    return [
        {"type": "whispers", "lines": lines, "difference": difference}
        for difference, lines in by_difference.items()
        if lines
    ]


def _cell_rule(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        cells = [str(entry["cell"]).lower() for entry in value]
        return [{"type": kind, "cells": cells}] if cells else []

    return translate


def _killer(value: Any, size: int) -> list[dict[str, Any]]:
    """Cages may overlap in f-puzzles (magic squares): one killer rule per set of disjoint cages.
    A cage drawn twice is read once: each group is found by a scan of the groups so far, and
    60,000 copies of a few hundred cages took 17 s of such scans."""
    groups: list[tuple[set[str], list[dict[str, Any]]]] = []
    drawn: set[tuple[tuple[str, ...], int | None]] = set()
    for entry in value:
        cage: dict[str, Any] = {"cells": _cells(entry)}
        if str(entry.get("value", "")).strip():
            cage["sum"] = clue_number(entry["value"])
        key = (tuple(sorted(cage["cells"])), cage.get("sum"))
        if key in drawn:
            continue
        drawn.add(key)
        cells = set(cage["cells"])
        group = next((g for g in groups if not g[0] & cells), None)
        if group is None:
            groups.append((cells, [cage]))
        else:
            group[0].update(cells)
            group[1].append(cage)
    return [{"type": "killer", "cages": cages} for _, cages in groups]


def _little_killer(value: Any, size: int) -> list[dict[str, Any]]:
    """An arrow with no value, or with 0, is no clue: f-puzzles' solver skips both (no sum of
    digits is 0), where reading 0 as a sum would refuse a file the site opens."""
    clues = [
        {"cells": _diagonal(entry, size), "sum": clue_number(entry["value"])}
        for entry in value
        if str(entry.get("value", "")).strip() not in ("", "0")
    ]
    return [{"type": "littlekiller", "clues": clues}] if clues else []


_OUTSIDE = re.compile(r"^R([0-9]{1,20})C([0-9]{1,20})$", re.IGNORECASE)  # ASCII, bounded for int()
_DIRECTIONS = {"UR": (-1, 1), "DR": (1, 1), "DL": (1, -1), "UL": (-1, -1)}


def _diagonal(entry: Mapping[str, Any], size: int) -> list[str]:
    """A little killer's cells: f-puzzles stores the clue's outside `cell` and a `direction`;
    `cells` is optional and, when present, must be that diagonal."""
    listed = _cells(entry) if "cells" in entry else None
    if "cell" not in entry or "direction" not in entry:
        if listed is None:
            raise ValueError("a clue needs 'cell' and 'direction' (or 'cells')")
        return listed
    walked = _walk(str(entry["cell"]), str(entry["direction"]), size)
    if listed is not None and set(listed) != set(walked):
        raise ValueError(
            f"cells {listed} are not the diagonal {walked} "
            f"from {entry['cell']} going {entry['direction']}"
        )
    return walked


def _walk(start: str, direction: str, size: int) -> list[str]:
    """The cells from an outside clue cell, one diagonal step at a time, while on the grid."""
    r, c = _cell_key(start)
    if 1 <= r <= size and 1 <= c <= size:
        raise ValueError(f"clue cell {start} is inside the grid, not beside it")
    step = _DIRECTIONS.get(direction.upper())
    if step is None:
        raise ValueError(f"direction {direction!r} is not UR, DR, DL or UL")
    cells = []
    r, c = r + step[0], c + step[1]
    while 1 <= r <= size and 1 <= c <= size:
        cells.append(f"r{r}c{c}")
        r, c = r + step[0], c + step[1]
    if not cells:
        raise ValueError(f"the clue at {start} going {direction} misses the grid")
    return cells


def _sandwich(value: Any, size: int) -> list[dict[str, Any]]:
    rows: list[int | None] = [None] * size
    cols: list[int | None] = [None] * size
    for entry in value:
        if not str(entry.get("value", "")).strip():
            continue
        match = _OUTSIDE.match(str(entry["cell"]))
        if not match:
            raise ValueError(f"sandwich clue cell {entry['cell']!r}")
        r, c = int(match.group(1)), int(match.group(2))
        if r in (0, size + 1) and 1 <= c <= size:
            line, index, name = cols, c - 1, f"column {c}"
        elif c in (0, size + 1) and 1 <= r <= size:
            line, index, name = rows, r - 1, f"row {r}"
        else:
            raise ValueError(f"sandwich clue at {entry['cell']!r} is not outside the grid")
        clue = clue_number(entry["value"])
        if line[index] not in (None, clue):  # both ends read the same sandwich
            raise ValueError(f"two sandwich clues for {name}: {line[index]} and {clue}")
        line[index] = clue
    if all(v is None for v in rows + cols):
        return []
    return [{"type": "sandwich", "rows": rows, "cols": cols}]


def _arrow(value: Any, size: int) -> list[dict[str, Any]]:
    return _arrow_rule("arrow")(value, size)


def _arrow_rule(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    """The reader of f-puzzles' arrow entries ({cells: bulb, lines: [[bulb cell, shaft…]]})
    for a rule of arrows of this type, one arrow per line."""

    def read(value: Any, size: int) -> list[dict[str, Any]]:
        arrows = []
        for entry in value:
            bulb = sorted(_cells(entry), key=_cell_key)  # a pill reads left to right, top down
            for line in entry["lines"]:
                shaft = [c for c in (str(x).lower() for x in line) if c not in bulb]
                if shaft:
                    arrows.append({"bulb": bulb, "shaft": shaft})
        return [{"type": kind, "arrows": arrows}] if arrows else []

    return read


def _cell_key(name: str) -> Cell:
    match = _OUTSIDE.match(name)
    if not match:
        raise ValueError(f"cell {name!r}")
    return int(match.group(1)), int(match.group(2))


def _quadruple(value: Any, size: int) -> list[dict[str, Any]]:
    clues = [
        {"cells": _cells(entry), "digits": [clue_number(d) for d in entry["values"]]}
        for entry in value
    ]
    return [{"type": "quadruple", "clues": clues}] if clues else []


def _outside_contains(value: Any, size: int) -> list[dict[str, Any]]:
    """`[{cell: "R0C3", value: "1 2"}, …]` ("Outside Sudoku": the digits appear among the first
    three cells from the clue's side) → quadruples of those cells."""
    entries = []
    for entry in value:
        side, index = outside_side(str(entry["cell"]), size)
        near = range(OUTSIDE_CELLS) if side in ("top", "left") else range(size - 1, size - 4, -1)
        if side in ("top", "bottom"):
            cells = [f"R{r + 1}C{index + 1}" for r in near]
        else:
            cells = [f"R{index + 1}C{c + 1}" for c in near]
        entries.append({"cells": cells, "values": str(entry["value"]).split()})
    return _quadruple(entries, size)


def _line_digits(kind: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    """`[{cell: "R0C3", value: "4 8"}, …]` → one `kind` rule: each clue's whole row or column
    from its side, and its digits."""

    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        clues = []
        for entry in value:
            side, index = outside_side(str(entry["cell"]), size)
            line = range(size) if side in ("top", "left") else range(size - 1, -1, -1)
            if side in ("top", "bottom"):
                cells = [f"R{r + 1}C{index + 1}" for r in line]
            else:
                cells = [f"R{index + 1}C{c + 1}" for c in line]
            digits = [clue_number(word) for word in str(entry["value"]).split()]  # ASCII only
            clues.append({"cells": cells, "digits": digits})
        return [{"type": kind, "clues": clues}] if clues else []

    return translate


def _mark_candidates(value: Any, size: int) -> list[dict[str, Any]]:
    """`[{cells: [...], values: [digits a cell may hold]}, …]` (marks between cells: the
    largest digit, digits excluded) → one givencandidates rule, each cell its digits common to
    every mark on it."""
    allowed: dict[str, set[int]] = {}
    for entry in value:
        digits = {clue_number(d) for d in entry["values"]}
        for cell in _cells(entry):
            allowed[cell] = allowed.get(cell, digits) & digits
    candidates = {cell: sorted(digits) for cell, digits in allowed.items()}
    return [{"type": "givencandidates", "candidates": candidates}] if candidates else []


def _counted_line(kind: str, field: str) -> Callable[[Any, int], list[dict[str, Any]]]:
    """`[{lines: [...], value: "3"}, …]` (`--line COLOUR=distinctline:3`) → one rule of `kind`
    per number, the number as its `field`."""

    def translate(value: Any, size: int) -> list[dict[str, Any]]:
        by_number: dict[int, list[list[str]]] = {}
        for entry in value:
            lines = by_number.setdefault(clue_number(str(entry["value"])), [])
            lines.extend([str(c).lower() for c in line] for line in entry["lines"])
        return [{"type": kind, "lines": lines, field: k} for k, lines in by_number.items()]

    return translate


def _greater_than(value: Any, size: int) -> list[dict[str, Any]]:
    """`[{cells: [greater, smaller]}, …]` (inequality signs) → one greaterthan rule."""
    pairs = [_cells(entry) for entry in value]
    return [{"type": "greaterthan", "pairs": pairs}] if pairs else []


def _clone(value: Any, size: int) -> list[dict[str, Any]]:
    pairs = [[_cells(entry), _cells(entry, "cloneCells")] for entry in value]
    return [{"type": "clone", "pairs": pairs}] if pairs else []


def _extra_region(value: Any, size: int) -> list[dict[str, Any]]:
    return [{"type": "extraregion", "cells": _cells(entry)} for entry in value]


def _held(value: Any, size: int) -> list[dict[str, Any]]:
    """difference, ratio and xv are gathered by `_dots`, with the negative constraint."""
    if not isinstance(value, list):
        raise TypeError("expected a list")
    return []


def _held_flag(value: Any, size: int) -> list[dict[str, Any]]:
    """nonconsecutive is the negative constraint of the white dots: `_dots` applies it."""
    return []


def _dots(data: Mapping[str, Any], negative: set[str], size: int) -> list[dict[str, Any]]:
    """Kropki dots and XV marks with f-puzzles' negative constraints. `nonconsecutive` (or
    `negative: ["difference"]`) forbids a difference of 1 only between cells that carry no
    dot of either colour, and `negative: ["ratio"]` a ratio of 2: satsudoku's kropki
    `negative`, which exempts the same dotted pairs."""
    try:
        white = [_dot(e, 1) for e in data.get("difference", [])]
        black = [_dot(e, 2) for e in data.get("ratio", [])]
        xs = [_pair(e) for e in data.get("xv", []) if str(e.get("value", "")).upper() == "X"]
        vs = [_pair(e) for e in data.get("xv", []) if str(e.get("value", "")).upper() == "V"]
        if any(str(e.get("value", "")).upper() not in ("X", "V") for e in data.get("xv", [])):
            raise ValueError("an xv entry without value 'X' or 'V'")
    except KeyError as exc:
        raise PuzzleError(f"f-puzzles dots: malformed entry (no {exc.args[0]!r})") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise PuzzleError(f"f-puzzles dots: malformed entry ({exc})") from None
    no_consecutive = bool(data.get("nonconsecutive")) or "difference" in negative
    if "difference" in negative:
        _only_default(white, 1, "difference")
    if "ratio" in negative:
        _only_default(black, 2, "ratio")
    kinds = ["white"] * no_consecutive + ["black"] * ("ratio" in negative)
    rules: list[dict[str, Any]] = []
    if white or black or "black" in kinds:
        kropki: dict[str, Any] = {"type": "kropki", "white": white, "black": black}
        if kinds:
            kropki["negative"] = True if len(kinds) == 2 else kinds
        rules.append(kropki)
    elif no_consecutive:  # no dot anywhere: exactly the global rule
        rules.append({"type": "nonconsecutive"})
    if xs or vs or "xv" in negative:
        rules.append({"type": "xv", "x": xs, "v": vs, "negative": "xv" in negative})
    return rules


def _only_default(dots: list[Any], default: int, key: str) -> None:
    """f-puzzles' negative constraint also forbids every other value its dots carry between
    undotted cells (a ratio-3 dot forbids ratio 3 elsewhere); the kropki rule's negative covers
    only the default value, so refuse rather than solve a different puzzle."""
    for dot in dots:
        if isinstance(dot, dict):
            a, b = dot["cells"]
            raise PuzzleError(
                f"f-puzzles negative {key!r} with a {key} dot of value {dot['value']} "
                f"({a.upper()}-{b.upper()}): the negative constraint for values other than "
                f"{default} cannot be expressed"
            )


def _dot(entry: Mapping[str, Any], default: int) -> Any:
    cells = _pair(entry)
    value = str(entry.get("value", "")).strip()
    if value and clue_number(value) != default:
        return {"cells": cells, "value": clue_number(value)}
    return cells


# The keys whose f-puzzles form is not a rule's declared field as it stands (`_declared` reads
# those: thermometers, renban, odd cells, anti-knight, …).
_TRANSLATE: dict[str, Callable[[Any, int], list[dict[str, Any]]]] = {
    "diagonal+": _flag("diagonal+"),
    "diagonal-": _flag("diagonal-"),
    "disjointgroups": _flag("disjointgroups"),
    "nonconsecutive": _held_flag,
    "killercage": _killer,
    "littlekillersum": _little_killer,
    "sandwichsum": _sandwich,
    "arrow": _arrow,
    "whispers": _whispers,
    "difference": _held,
    "ratio": _held,
    "xv": _held,
    "extraregion": _extra_region,
    "quadruple": _quadruple,
    "clone": _clone,
    "xsum": outside_rule("xsum"),
    "skyscraper": outside_rule("skyscraper"),
    # Not f-puzzles keys: where `--outside frame|numberedroom|minmaxsum|…` puts the numbers it reads
    # beside the grid (f-puzzles text, SudokuPad text), as xsum and skyscraper clues are kept.
    "frame": outside_rule("frame"),
    "numberedroom": outside_rule("numberedroom"),
    "minmaxsum": outside_rule("minmaxsum"),
    "minmaxdifference": outside_rule("minmaxdifference"),
    "maxposition": outside_rule("maxposition"),
    "evensandwich": outside_rule("evensandwich"),
    "besidelargest": outside_rule("besidelargest"),
    "prefixsum": outside_rule("prefixsum"),
    "ascendingsum": outside_rule("ascendingsum"),
    "longestascending": outside_rule("longestascending"),
    "paritylongest": outside_rule("paritylongest"),
    "tripletsum": outside_rule("tripletsum"),
    # and where `--outside contains` puts its digit lists: quadruples of the nearest cells;
    "outsidecontains": _outside_contains,
    # and where `--outside besidelargestdigits|adjacentpair|descriptivepair` puts its lists;
    "besidelargestdigits": _line_digits("besidelargestdigits"),
    "adjacentpair": _line_digits("adjacentpair"),
    "descriptivepair": _line_digits("descriptivepair"),
    # where `--cell COLOUR=largest|excludes` puts the digits a mark's cells may hold;
    "markcandidates": _mark_candidates,
    # where `--line COLOUR=parityline` puts its lines (no f-puzzles tool draws them).
    "parityline": _line_rule("parityline"),
    "sameparityline": _line_rule("sameparityline"),
    "distinctline": _counted_line("distinctline", "count"),
    "arithmeticline": _line_rule("arithmeticline"),
    "segmentsumline": _counted_line("segmentsumline", "total"),
    "monotoneline": _line_rule("monotoneline"),
    # Not an f-puzzles key: where `--cell COLOUR=greaterthan` puts the signs it reads.
    "greaterthan": _greater_than,
    # Written by an f-puzzles lockout-line tool (files of 2022 in Nickleaton/sudoku), whose
    # rules texts say: diamonds differ by at least 4, line digits strictly outside their range.
    "lockout": _line_rule("lockout"),
    # Keys of Nickleaton/sudoku's files, not f-puzzles tools, stored as arrows are; their rules
    # texts: the bulb is the largest digit on the shaft / the product of the shaft's digits.
    "maxarrow": _arrow_rule("maxarrow"),
    "productarrow": _arrow_rule("productarrow"),
    # Not an f-puzzles key: where `--cell COLOUR=countingcircles` puts the circles it reads
    # (SudokuPad and f-puzzles alike), all of them one rule.
    "countingcircles": _cell_rule("countingcircles"),
    "rowindexer": indexer("rows"),
    "columnindexer": indexer("columns"),
    "boxindexer": indexer("boxes"),
}

_FORMS = {"lines": _line_rule, "cell": _cell_rule, "flag": _flag}


def _declared() -> dict[str, Callable[[Any, int], list[dict[str, Any]]]]:
    """The f-puzzles keys rules declare (`schema.Declared.fpuzzles`), each read in its standard
    form; asked at each read, so a plugin rule that declares a key is imported too."""
    translators = {}
    for kind, cls in rule_classes().items():
        declared = getattr(cls, "fpuzzles", None)
        if isinstance(declared, FpuzzlesKey):
            translators[declared.key] = _FORMS[declared.form](kind)
    return translators


def supported_keys() -> tuple[str, ...]:
    """Every f-puzzles key the importer reads."""
    return tuple(sorted({*_TRANSLATE, *_declared()}))
