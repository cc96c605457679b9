"""The renderer: well-formed SVG with one element per given, cage, dot, line and clue; every
rule type drawn; cage outlines closed; PNG through cairosvg; the `render` command's contract."""

from __future__ import annotations

import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from satsudoku.cli import main
from satsudoku.grid import Cell, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.render import render_svg
from satsudoku.render.elements import DRAWERS, cage_outline
from satsudoku.render.svg import Canvas
from satsudoku.rules import make_rule, rule_types
from tests.conftest import REPO
from tests.test_export import EXAMPLES
from tests.test_models import model_params

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises on anything that is not well-formed XML


def classes(root: ET.Element) -> Counter[str]:
    """How many elements carry each class word."""
    found: Counter[str] = Counter()
    for element in root.iter():
        found.update(element.get("class", "").split())
    return found


def texts(root: ET.Element, kind: str) -> list[str]:
    return [e.text or "" for e in root.iter(f"{SVG}text") if kind in e.get("class", "").split()]


def model(name: str) -> Puzzle:
    (puzzle,) = read_puzzles(REPO / "models" / name)
    return puzzle


# --- every rule type ------------------------------------------------------------------------------


def test_every_registered_rule_type_has_a_drawer() -> None:
    assert not [kind for kind in rule_types() if kind not in DRAWERS]


# The rule types the f-puzzles export refuses still need a look of their own.
MORE_EXAMPLES: dict[str, dict[str, Any]] = {
    "rellik": {"type": "rellik", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 5}]},
    "sumcage": {"type": "sumcage", "cages": [{"cells": ["r1c1", "r2c2"], "sum": 4}]},
    "numberedroom": {"type": "numberedroom", "right": [None, None, 7] + [None] * 6},
    "parityline": {"type": "parityline", "lines": [["r5c1", "r5c2"]]},
    "sameparityline": {"type": "sameparityline", "lines": [["r5c1", "r6c2", "r7c2"]]},
    "distinctline": {"type": "distinctline", "lines": [["r1c1", "r2c2", "r3c3"]], "count": 2},
    "arithmeticline": {"type": "arithmeticline", "lines": [["r1c5", "r2c5", "r3c5"]]},
    "segmentsumline": {"type": "segmentsumline", "lines": [["r7c1", "r7c2", "r8c2"]], "total": 10},
    "monotoneline": {"type": "monotoneline", "lines": [["r9c1", "r9c2", "r9c3"]]},
    "lockout": {"type": "lockout", "lines": [["r1c1", "r1c2", "r1c3"]]},
    "greaterthan": {"type": "greaterthan", "pairs": [["r1c1", "r1c2"], ["r3c3", "r2c3"]]},
    "countingcircles": {"type": "countingcircles", "cells": ["r1c1", "r2c2", "r5c5"]},
    "maxarrow": {"type": "maxarrow", "arrows": [{"bulb": ["r1c1"], "shaft": ["r2c2", "r3c3"]}]},
    "productarrow": {"type": "productarrow", "arrows": [{"bulb": ["r1c1"], "shaft": ["r2c2"]}]},
    "frame": {
        "type": "frame",
        "left": [6] + [None] * 8,
        "bottom": [None] * 5 + [11, None, None, None],
    },
    "minmaxsum": {"type": "minmaxsum", "left": [10] + [None] * 8},
    "minmaxdifference": {"type": "minmaxdifference", "top": [None, 5] + [None] * 7},
    "maxposition": {"type": "maxposition", "right": [None] * 8 + [2]},
    "evensandwich": {"type": "evensandwich", "top": [5] + [None] * 8},
    "besidelargest": {"type": "besidelargest", "bottom": [None] * 4 + [12] + [None] * 4},
    "prefixsum": {"type": "prefixsum", "left": [10] + [None] * 8},
    "ascendingsum": {"type": "ascendingsum", "top": [None, 7] + [None] * 7},
    "longestascending": {"type": "longestascending", "right": [None] * 8 + [4]},
    "paritylongest": {"type": "paritylongest", "bottom": [3] + [None] * 8},
    "tripletsum": {"type": "tripletsum", "left": [None, 20] + [None] * 7},
    "besidelargestdigits": {
        "type": "besidelargestdigits",
        "clues": [{"cells": [f"r1c{c}" for c in range(1, 10)], "digits": [4, 8]}],
    },
    "adjacentpair": {
        "type": "adjacentpair",
        "clues": [{"cells": [f"r{r}c9" for r in range(9, 0, -1)], "digits": [7, 8]}],
    },
    "descriptivepair": {
        "type": "descriptivepair",
        "clues": [{"cells": [f"r2c{c}" for c in range(9, 0, -1)], "digits": [3, 6]}],
    },
}
ALL_EXAMPLES = {**{kind: spec for kind, (spec, _) in EXAMPLES.items()}, **MORE_EXAMPLES}


def test_every_rule_type_has_an_example_here() -> None:
    assert set(ALL_EXAMPLES) == set(DRAWERS)


@pytest.mark.parametrize("kind", sorted(ALL_EXAMPLES))
def test_every_rule_type_draws_something(kind: str) -> None:
    shape = Shape(3, 3)
    empty = parse(render_svg(Puzzle.empty(shape)))
    drawn = parse(render_svg(Puzzle.empty(shape, [make_rule(ALL_EXAMPLES[kind], shape)])))
    assert len(list(drawn.iter())) > len(list(empty.iter()))


@pytest.mark.parametrize(
    ("kind", "word", "count"),
    [
        ("killer", "cage", 2),
        ("killer", "cage-sum", 1),
        ("littlekiller", "littlekiller", 3),
        ("sandwich", "sandwich", 2),
        ("xsum", "xsum", 2),
        ("skyscraper", "skyscraper", 2),
        ("numberedroom", "numberedroom", 1),
        ("arrow", "arrow", 2),
        ("thermometer", "bulb", 1),
        ("slowthermometer", "bulb", 1),
        ("renban", "renban", 1),
        ("between", "end", 2),
        ("doublearrow", "end", 2),
        ("lockout", "end", 2),
        ("kropki", "white", 2),
        ("kropki", "black", 1),
        ("xv", "xv", 2),
        ("greaterthan", "greaterthan", 2),
        ("odd", "odd", 2),
        ("even", "even", 1),
        ("countingcircles", "countingcircle", 3),
        ("minimum", "minimum", 2),
        ("maximum", "maximum", 1),
        ("quadruple", "quadruple", 1),
        ("clone", "clone", 6),
        ("extraregion", "extraregion", 4),
        ("windoku", "windoku", 36),
        ("diagonal", "diagonal", 2),
        ("diagonal+", "diagonal+", 1),
        ("indexer", "indexer", 4),
        ("givencandidates", "candidate", 5),
    ],
)
def test_rule_items_are_counted(kind: str, word: str, count: int) -> None:
    shape = Shape(3, 3)
    svg = render_svg(Puzzle.empty(shape, [make_rule(ALL_EXAMPLES[kind], shape)]))
    assert classes(parse(svg))[word] == count


@pytest.mark.parametrize("kind", ["antiknight", "antiking", "nonconsecutive", "disjointgroups"])
def test_rules_without_marks_are_named_in_the_caption(kind: str) -> None:
    shape = Shape(3, 3)
    root = parse(render_svg(Puzzle.empty(shape, [make_rule({"type": kind}, shape)])))
    caption = " ".join(texts(root, "caption"))
    assert kind.replace("anti", "anti-").replace("groups", " groups") in caption


# --- real models ------------------------------------------------------------------------------


# Published models beyond one per rule type and feature under -m slow (covering_models).
@pytest.mark.parametrize("path", model_params())
def test_every_model_renders_well_formed(path: Path) -> None:
    (puzzle,) = read_puzzles(path)
    root = parse(render_svg(puzzle, puzzle.solution))
    found = classes(root)
    assert found["given"] == sum(1 for _ in puzzle.given_cells())
    if puzzle.solution is not None:
        assert found["solved"] == puzzle.size**2 - found["given"]


def test_killer_model_draws_each_cage_and_its_sum() -> None:
    puzzle = model("variants/killer/killer-6x6.json")
    cages = [cage for rule in puzzle.rules for cage in rule.to_spec()["cages"]]
    root = parse(render_svg(puzzle))
    assert classes(root)["cage"] == len(cages)
    assert sorted(texts(root, "cage-sum")) == sorted(str(c["sum"]) for c in cages if "sum" in c)


def test_solution_digits_are_drawn_in_another_colour() -> None:
    puzzle = model("variants/real/thermo.json")
    root = parse(render_svg(puzzle, puzzle.solution))
    colours = {e.get("fill") for e in root.iter(f"{SVG}text") if e.get("class") == "solved"}
    givens = {e.get("fill") for e in root.iter(f"{SVG}text") if e.get("class") == "given"}
    assert len(colours) == 1 and len(givens) == 1 and colours != givens


def test_jigsaw_regions_get_thick_borders_where_regions_meet() -> None:
    puzzle = model("variants/groups/jigsaw-6x6.json")
    region = {cell: i for i, cells in enumerate(puzzle.shape.regions()) for cell in cells}
    n = puzzle.size
    expected = sum(
        region[(r, c)] != region[(r + dr, c + dc)]
        for r in range(n)
        for c in range(n)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < n and c + dc < n
    )
    assert classes(parse(render_svg(puzzle)))["region-border"] == expected


def test_title_is_escaped() -> None:
    puzzle = Puzzle(Shape(2, 2), Puzzle.empty(Shape(2, 2)).givens, title='<a & "b">')
    root = parse(render_svg(puzzle))
    assert texts(root, "title") == ['<a & "b">']


# --- cage outlines are closed loops -------------------------------------------------------------


def test_cage_outline_of_one_cell_is_an_inset_square() -> None:
    canvas = Canvas(9, margin=0)
    segments = endpoints(cage_outline([(0, 0)], canvas, inset=0.1))
    assert len(segments) == 4
    corners = {p for seg in segments for p in seg}
    assert corners == {(4.8, 4.8), (43.2, 4.8), (4.8, 43.2), (43.2, 43.2)}


def test_random_cage_outlines_are_closed() -> None:
    """Every segment end meets exactly one other segment end: no gaps, no overshoot, for
    random connected cages (concave corners, holes, diagonal touches included)."""
    rng = random.Random(5)
    canvas = Canvas(9, margin=0)
    for _ in range(200):
        cells = {(rng.randrange(9), rng.randrange(9))}
        for _ in range(rng.randrange(0, 12)):
            r, c = rng.choice(sorted(cells))
            dr, dc = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
            if 0 <= r + dr < 9 and 0 <= c + dc < 9:
                cells.add((r + dr, c + dc))
        ends = Counter(p for seg in endpoints(cage_outline(cells, canvas)) for p in seg)
        assert set(ends.values()) <= {2, 4}, (sorted(cells), ends)
        # 4 only where two diagonally touching cells of the cage share a corner point
        assert all(n == 2 or _diagonal_touch(cells) for n in ends.values())


def _diagonal_touch(cells: set[Cell]) -> bool:
    return any(
        (r + 1, c + d) in cells and (r, c + d) not in cells and (r + 1, c) not in cells
        for r, c in cells
        for d in (-1, 1)
    )


def endpoints(path: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    segments = []
    for part in path.split("M")[1:]:
        start, end = part.split("L")
        a = tuple(round(float(v), 6) for v in start.split(","))
        b = tuple(round(float(v), 6) for v in end.split(","))
        segments.append(((a[0], a[1]), (b[0], b[1])))
    return segments


# --- PNG and the command ------------------------------------------------------------------------


def test_png_through_cairosvg(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="the png extra is not installed")
    out = tmp_path / "thermo.png"
    path = REPO / "models" / "variants" / "real" / "thermo.json"
    assert main(["render", str(path), "--solution", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_png_without_the_extra_is_one_line(tmp_path: Path) -> None:
    """cairosvg blocked in a fresh interpreter: the message names the extra."""
    code = (
        "import sys; sys.modules['cairosvg'] = None; from satsudoku.cli import main; "
        f"sys.exit(main(['render', {str(REPO / 'models/classic/empty-4x4.toml')!r}, "
        f"'-o', {str(tmp_path / 'x.png')!r}]))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "pip install 'satsudoku[png]'" in run.stderr
    assert not (tmp_path / "x.png").exists()


def test_render_svg_command(tmp_path: Path) -> None:
    out = tmp_path / "killer.svg"
    path = REPO / "models" / "variants" / "killer" / "killer-6x6.json"
    assert main(["render", str(path), "--solution", "-o", str(out)]) == 0
    found = classes(parse(out.read_text()))
    assert found["solved"] + found["given"] == 36


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["models/classic/empty-4x4.toml", "-o", "x.pdf"], 2, "name an .svg or .png file"),
        (["tests/data/unsat.txt", "--solution", "-o", "-"], 1, "has no solution"),
        (["tests/data/two.txt", "-o", "-"], 1, "holds several"),
    ],
)
def test_render_errors_are_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    code: int,
    message: str,
) -> None:
    """In this process (the CLI's main, as `satsudoku render` calls it): a child process
    cost ~0.35 s of CPU each; test_png_without_the_extra_is_one_line runs one."""
    (tmp_path / "tests" / "data").mkdir(parents=True)
    (tmp_path / "models" / "classic").mkdir(parents=True)
    (tmp_path / "models/classic/empty-4x4.toml").write_text(
        (REPO / "models/classic/empty-4x4.toml").read_text()
    )
    (tmp_path / "tests/data/unsat.txt").write_text("11" + "." * 79 + "\n")
    (tmp_path / "tests/data/two.txt").write_text(("." * 81 + "\n") * 2)
    monkeypatch.chdir(tmp_path)
    try:
        returned = main(["render", *args])
    except SystemExit as exc:  # a usage error: argparse exits, as the command would
        returned = exc.code
    err = capsys.readouterr().err
    assert returned == code
    assert err.count("\n") == 1 and message in err, err


def test_the_drawing_in_the_docs_is_what_render_draws_today() -> None:
    """docs/images/wikipedia-killer.svg (shown by README and docs/render.md) cannot go stale:
    regenerate it with the command in docs/render.md when the look changes."""
    puzzle = model("variants/killer/wikipedia-killer.json")
    drawn = render_svg(puzzle, puzzle.solution)
    assert (REPO / "docs" / "images" / "wikipedia-killer.svg").read_text() == drawn
