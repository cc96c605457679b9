"""`--line` and `--cell` on f-puzzles data: its generic `line` drawings (cells, `outlineC`,
`width`) and `circle`/`rectangle` shapes carry no type, as SudokuPad's pictures carry none, so
the user names it from the rules text. One mechanism serves both sites: the drawings are put as
the SudokuPad pictures they look like and read by the same reader (its type list, its bulb,
end and centre marks, its refusals), so a style means the same on either site."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.io.border_marks import MARK_TYPES
from satsudoku.io.sudokupad_lines import LINE_TYPES, LineType, option_colour, rgba
from satsudoku.io.sudokupad_pictures import _Reader
from satsudoku.io.text import ReadOptions

Picture = Mapping[str, Any]
_SHAPES = {"circle": True, "rectangle": False}  # f-puzzles key → rounded


def read_typed(
    data: Mapping[str, Any], blocking: Mapping[str, list[int]], options: ReadOptions
) -> tuple[dict[str, Any], dict[str, set[int]]]:
    """The f-puzzles constraints the user's --line/--cell types make of the blocking line
    drawings (`blocking`: indices per key that render no stored constraint) and the shapes,
    and the indices read per key. Errors name f-puzzles, the drawing and the option."""
    size = int(data["size"])
    lines = [_entries(data, "line")[i] for i in blocking.get("line", [])]
    # Every shape may be a line's mark: a bulb on a cell a stored constraint starts at is not
    # blocking alone (it may render that one), yet is the typed thermometer's too.
    shapes: list[tuple[str, int]] = [
        (key, i)
        for key in _SHAPES
        for i, entry in enumerate(_entries(data, key))
        if _one_or_two(entry) or _corner_block(entry)
    ]
    pictures: dict[str, list[Picture]] = {
        "lines": [_line_picture(entry) for entry in lines],
        "overlays": [_shape_picture(key, data[key][i]) for key, i in shapes],
    }
    texts = _texts_on_marks(data, shapes, pictures["overlays"], options)
    _join_branches(pictures, options.lines)
    reader = _Reader(size, pictures)
    try:
        out = reader.typed(options.lines)
        for key, entries in reader.marked(options.cells).items():
            out.setdefault(key, []).extend(entries)
    except PuzzleError as exc:
        raise PuzzleError(exc.message.replace("SudokuPad: ", "f-puzzles: ", 1)) from None
    read: dict[str, set[int]] = {}
    line_index = blocking.get("line", [])
    if taken := {line_index[i] for i in range(len(lines)) if i not in reader.left["lines"]}:
        read["line"] = taken
    for n, (key, i) in enumerate(shapes):
        if n not in reader.left["overlays"]:
            read.setdefault(key, set()).add(i)
            if n in texts:
                read.setdefault("text", set()).add(texts[n])
    _claim_even_middles(data, out, shapes, reader, read)
    return out, read


def _join_branches(pictures: dict[str, list[Picture]], types: Sequence[LineType]) -> None:
    """A branch of a thermometer drawn in f-puzzles as a line of its own, starting on a cell of
    another thermometer of the style with a bulb and having none itself, is put as that branch
    from the bulb (the other line's cells up to it, then its own): each branch of a thermometer
    runs from the bulb. A line with a bulb, or with no such start, is left for the reader."""
    bulbs = {
        (_place(p.get("center")), colour[:6])
        for p in pictures["overlays"]
        if p.get("rounded")
        for colour in (rgba(str(p.get("backgroundColor"))), rgba(str(p.get("borderColor"))))
        if colour is not None
    }
    kinds = [next((t for t in types if t.matches(line)), None) for line in pictures["lines"]]

    def own_bulb(line: Picture) -> list[Any] | None:
        """The line's points from its bulb end, when exactly one end holds a bulb."""
        points = list(line["wayPoints"])
        colour = (rgba(str(line.get("color"))) or "")[:6]
        at = [end for end in (0, -1) if points and (_place(points[end]), colour) in bulbs]
        if len(at) != 1:
            return None
        return points if at[0] == 0 else points[::-1]

    trunks = [
        own_bulb(line) if kind is not None and LINE_TYPES[kind.kind][1] == "bulb" else None
        for line, kind in zip(pictures["lines"], kinds, strict=True)
    ]
    for i, line in enumerate(pictures["lines"]):
        kind, points = kinds[i], line["wayPoints"]
        if kind is None or trunks[i] is not None or LINE_TYPES[kind.kind][1] != "bulb":
            continue
        if len(points) < 2:
            continue
        starts = [
            (trunk[: trunk.index(end)], mine)
            for j, trunk in enumerate(trunks)
            if trunk is not None and kinds[j] == kind
            for end, mine in ((points[0], points), (points[-1], points[::-1]))
            if end in trunk and mine[-1] not in trunk
        ]
        if len(starts) == 1:
            stem, mine = starts[0]
            pictures["lines"][i] = {**line, "wayPoints": stem + mine}


def _place(point: Any) -> tuple[float, float] | None:
    return (float(point[0]), float(point[1])) if isinstance(point, list) else None


def _entries(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _one_or_two(entry: Mapping[str, Any]) -> bool:
    cells = entry.get("cells")
    return isinstance(cells, list) and 1 <= len(cells) <= 2


def _corner_block(entry: Mapping[str, Any]) -> bool:
    """Four cells forming a 2×2 block: a shape on their corner."""
    cells = entry.get("cells")
    if not isinstance(cells, list) or len(cells) != 4:
        return False
    try:
        places = {_rc(c) for c in cells}
    except PuzzleError:
        return False
    rows, cols = {r for r, _ in places}, {c for _, c in places}
    return (
        len(places) == 4
        and len(rows) == len(cols) == 2
        and max(rows) - min(rows) == 1
        and max(cols) - min(cols) == 1
    )


def _texts_on_marks(
    data: Mapping[str, Any],
    shapes: Sequence[tuple[str, int]],
    overlays: list[Picture],
    options: ReadOptions,
) -> dict[int, int]:
    """f-puzzles writes a mark's number (`XV`, `VI`) as a text entry over a blank shape on
    the same cells; with a mark type (--cell COLOUR=sum) the text is put in the shape's
    picture. Returns shape number → text index, for a blank shape on two or four cells with
    exactly one text on the same cells."""
    if not any(kind.on_border for kind in options.cells):
        return {}
    on: dict[frozenset[str], list[int]] = {}
    for i, entry in enumerate(_entries(data, "text")):
        cells = entry.get("cells")
        if isinstance(cells, list) and len(cells) in (2, 4):
            on.setdefault(frozenset(str(c).upper() for c in cells), []).append(i)
    texts: dict[int, int] = {}
    for n, (key, i) in enumerate(shapes):
        entry = data[key][i]
        cells = frozenset(str(c).upper() for c in entry["cells"])
        found = on.get(cells, [])
        if len(cells) > 1 and len(found) == 1 and not str(entry.get("value", "")).strip():
            overlays[n] = {**overlays[n], "text": str(data["text"][found[0]].get("value", ""))}
            texts[n] = found[0]
    return texts


def _rc(name: Any) -> tuple[float, float]:
    """A cell name's centre in SudokuPad's coordinates (row, column; a cell spans 1)."""
    text = str(name).upper()
    if not text.startswith("R") or "C" not in text:
        raise PuzzleError(f"f-puzzles: {str(name)[:12]!r} is not a cell RrCc")
    row, col = text[1:].split("C", 1)
    if not (row.isdigit() and col.isdigit() and len(row) < 4 and len(col) < 4):
        raise PuzzleError(f"f-puzzles: {str(name)[:12]!r} is not a cell RrCc")
    return int(row) - 0.5, int(col) - 0.5


def _line_picture(entry: Mapping[str, Any]) -> Picture:
    """An f-puzzles line entry (one or more cell lists) as a SudokuPad line: its first list
    (an entry of several is refused by the reader's path, being read as one walk)."""
    groups = entry.get("lines")
    points: list[Any] = []
    if isinstance(groups, list) and len(groups) == 1 and isinstance(groups[0], list):
        points = [list(_rc(c)) for c in groups[0][: 4 * 64 * 64]]
    return {"color": entry.get("outlineC"), "thickness": entry.get("width"), "wayPoints": points}


def _shape_picture(key: str, entry: Mapping[str, Any]) -> Picture:
    """A circle or rectangle on one cell (or centred between two) as a SudokuPad overlay."""
    centres = [_rc(c) for c in entry["cells"]]
    centre = [sum(p[0] for p in centres) / len(centres), sum(p[1] for p in centres) / len(centres)]
    return {
        "center": centre,
        "width": entry.get("width"),
        "height": entry.get("height"),
        "backgroundColor": entry.get("baseC"),
        "borderColor": entry.get("outlineC"),
        "rounded": _SHAPES[key],
        "text": entry.get("value", ""),
        "cellNames": [f"R{int(r + 0.5)}C{int(c + 0.5)}" for r, c in centres],
        "fpuzzlesAngle": entry.get("angle", 0),  # degrees clockwise, as f-puzzles draws it
    }


def _claim_even_middles(
    data: Mapping[str, Any],
    out: Mapping[str, list[dict[str, Any]]],
    shapes: Sequence[tuple[str, int]],
    reader: _Reader,
    read: dict[str, set[int]],
) -> None:
    """A zipper line of even length has no centre cell; f-puzzles setters mark its centre by
    a shape of the line's colour over its two middle cells, which is part of its picture."""
    for entry in out.get("zipperline", []):
        for line in entry["lines"]:
            if len(line) % 2:
                continue
            middle = {str(c).lower() for c in line[len(line) // 2 - 1 : len(line) // 2 + 1]}
            for n, (key, i) in enumerate(shapes):
                shape = data[key][i]
                if (
                    n in reader.left["overlays"]
                    and {str(c).lower() for c in shape["cells"]} == middle
                ):
                    del reader.left["overlays"][n]
                    read.setdefault(key, set()).add(i)
                    break


def describe_line(entry: Mapping[str, Any]) -> tuple[str, str]:
    """An f-puzzles line drawing as a refusal names it (`line CDB1EC (width 0.3) through r1c1
    r2c1 …`) and the option that could read it ('' when its colour is not hex)."""
    colour = entry.get("outlineC")
    groups = entry.get("lines")
    cells = groups[0] if isinstance(groups, list) and groups and isinstance(groups[0], list) else []
    out = "line" + (f" {option_colour(colour)}" if colour is not None else "")
    if isinstance(entry.get("width"), int | float):
        out += f" (width {entry['width']:g})"
    if cells:
        out += " through " + " ".join(str(c).lower()[:8] for c in cells[:8])
        out += " …" if len(cells) > 8 else ""
    if rgba(str(colour)) is None:
        return out, ""
    return out, f"--line {option_colour(colour)}=TYPE ({', '.join(list(LINE_TYPES)[:4])}, …)"


def describe_drawing(key: str, entry: Mapping[str, Any]) -> tuple[str, str]:
    """Another f-puzzles drawing as a refusal names it (`circle D07DE0 on r6c1`, `text '3'
    on r1c1`, `cage '12' on r1c1 r1c2`) and, for a one-cell circle or rectangle of a hex fill,
    the --cell option that could read it (for a shape holding a number on two or four cells,
    the mark types; '' otherwise)."""
    out = key
    fill = entry.get("baseC")
    if key in _SHAPES and fill is not None:
        out += f" {option_colour(fill)}"
    value = str(entry.get("value", "")).strip()
    if value:
        out += f" {value[:20]!r}"
    cells = entry.get("cells")
    if isinstance(cells, list) and cells:
        out += " on " + " ".join(str(c).lower()[:8] for c in cells[:8])
        out += " …" if len(cells) > 8 else ""
    if key not in _SHAPES or rgba(str(fill)) is None or not isinstance(cells, list):
        return out, ""
    shape = "round" if _SHAPES[key] else "square"
    if len(cells) in (2, 4) and value:
        return out, f"--cell {option_colour(fill)}:{shape}=TYPE ({', '.join(MARK_TYPES)})"
    if len(cells) != 1:
        return out, ""
    return out, f"--cell {option_colour(fill)}:{shape}=TYPE"
