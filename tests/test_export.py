"""f-puzzles and SudokuPad export: lz-string compression, every rule type's f-puzzles form, and
import → export → import of every model giving the same puzzle."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape
from satsudoku.io import read_puzzles
from satsudoku.io.fpuzzles import fpuzzles_json, fpuzzles_puzzle, supported_keys
from satsudoku.io.fpuzzles_export import (
    EXPORTERS,
    SUDOKUPAD_LINK,
    UNEXPRESSIBLE,
    exported_types,
    fpuzzles_data,
    fpuzzles_link,
    sudokupad_link,
)
from satsudoku.io.lzcompress import lz_compress_base64
from satsudoku.io.lzstring import lz_decompress_base64
from satsudoku.io.text import ReadOptions
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule, rule_types
from tests.conftest import REPO
from tests.test_models import model_params

MODELS = sorted(p for p in (REPO / "models").rglob("*") if p.suffix in (".json", ".toml"))
# Models f-puzzles cannot hold, each with the reason the export gives.
REFUSED_MODELS = {
    "variants/sums/littlekiller-6x6.json": "not a whole diagonal",  # r6c1-r4c3 stops mid-grid
    # Rule types f-puzzles has no key for (docs/formats.md lists them): refused by name.
    "variants/lines/parityline-6x6.json": "rule 'parityline'",
    "variants/real/fortress-greaterthan.json": "rule 'greaterthan'",
    "variants/real/fortress-6x6-greaterthan.json": "rule 'greaterthan'",
    "variants/real/lockout-double-arrows.json": "rule 'lockout'",
    "variants/real/lockout-lines-aug-2022.json": "rule 'lockout'",
    "variants/real/lockout-lines-mar-2022.json": "rule 'lockout'",
    "variants/real/neighbor-sums.json": "rule 'sumcage'",
    "variants/real/numbered-rooms-6x6.json": "rule 'numberedroom'",
    "variants/real/owl.json": "rule 'parityline'",
    "variants/real/parity-snowflake.json": "rule 'parityline'",
    "variants/real/rellik-6x6.json": "rule 'rellik'",
    "variants/real/tendril-battle.json": "rule 'sumcage'",
    "variants/cells/counting-circles-6x6.json": "rule 'countingcircles'",
    "variants/real/counting-circles-intro-4x4.json": "rule 'countingcircles'",
    "variants/real/zippers-and-circles-4x4.json": "rule 'countingcircles'",
}


# --- lz-string --------------------------------------------------------------------------------


def test_compressor_matches_the_published_vector() -> None:
    assert lz_compress_base64('{"x":3}') == "N4IgHiBcDMC+Q==="  # lz-string 1.4's own output
    assert lz_compress_base64("") == "Q==="


def test_compress_then_decompress_random_strings() -> None:
    rng = random.Random(9)
    alphabet = 'ab{}[]":,RC0123456789 €☃'
    for _ in range(400):
        length = rng.randrange(0, 300)
        text = "".join(
            rng.choice(alphabet) if rng.random() < 0.9 else chr(rng.randrange(32, 0xD7FF))
            for _ in range(length)
        )
        assert lz_decompress_base64(lz_compress_base64(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",))))
def test_compress_then_decompress_any_bmp_text(text: str) -> None:
    assert lz_decompress_base64(lz_compress_base64(text)) == text


def test_characters_beyond_the_bmp_are_utf16_pairs_as_in_javascript() -> None:
    """JavaScript strings are UTF-16, so 😀 is two 16-bit literals, which decode to surrogates."""
    decoded = lz_decompress_base64(lz_compress_base64("a😀"))
    assert decoded.encode("utf-16-le", "surrogatepass").decode("utf-16-le") == "a😀"


def test_real_payloads_round_trip() -> None:
    for path in MODELS[:20]:
        (puzzle,) = read_puzzles(path)
        text = json.dumps(fpuzzles_data_or_none(puzzle) or {"size": puzzle.size})
        assert lz_decompress_base64(lz_compress_base64(text)) == text


def fpuzzles_data_or_none(puzzle: Puzzle) -> dict[str, Any] | None:
    try:
        return fpuzzles_data(puzzle)
    except PuzzleError:
        return None


# --- every rule type has an f-puzzles form or a documented refusal ----------------------------


def test_every_registered_rule_type_is_exported_or_refused() -> None:
    exported = exported_types()
    missing = [t for t in rule_types() if t not in exported and t not in UNEXPRESSIBLE]
    assert not missing, f"no f-puzzles exporter and no documented refusal: {missing}"
    assert not exported & set(UNEXPRESSIBLE)
    assert {"thermometer", "between", "odd", "antiknight"} <= exported - set(EXPORTERS)


def test_refusals_are_documented() -> None:
    page = (REPO / "docs" / "formats.md").read_text()
    assert all(f"`{kind}`" in page for kind in UNEXPRESSIBLE)


# One 9x9 example per exportable rule type, with the f-puzzles keys it must produce.
EXAMPLES: dict[str, tuple[dict[str, Any], set[str]]] = {
    "diagonal": ({"type": "diagonal"}, {"diagonal+", "diagonal-"}),
    "diagonal+": ({"type": "diagonal+"}, {"diagonal+"}),
    "diagonal-": ({"type": "diagonal-"}, {"diagonal-"}),
    "antiknight": ({"type": "antiknight"}, {"antiknight"}),
    "antiking": ({"type": "antiking"}, {"antiking"}),
    "nonconsecutive": ({"type": "nonconsecutive"}, {"nonconsecutive"}),
    "disjointgroups": ({"type": "disjointgroups"}, {"disjointgroups"}),
    "windoku": ({"type": "windoku"}, {"extraregion"}),
    "extraregion": (
        {"type": "extraregion", "cells": ["r1c1", "r2c2", "r3c3", "r4c4"]},
        {"extraregion"},
    ),
    "killer": (
        {"type": "killer", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 3}, {"cells": ["r3c3"]}]},
        {"killercage"},
    ),
    "littlekiller": (
        {
            "type": "littlekiller",
            "clues": [
                {"cells": ["r3c1", "r2c2", "r1c3"], "sum": 6},
                {"cells": ["r9c9"], "sum": 4},
                {
                    "cells": ["r2c1", "r3c2", "r4c3", "r5c4", "r6c5", "r7c6", "r8c7", "r9c8"],
                    "sum": 40,
                },
            ],
        },
        {"littlekillersum"},
    ),
    "sandwich": (
        {"type": "sandwich", "rows": [0] + [None] * 8, "cols": [None] * 8 + [35]},
        {"sandwichsum"},
    ),
    "arrow": (
        {
            "type": "arrow",
            "arrows": [
                {"bulb": ["r5c5"], "shaft": ["r4c4", "r3c3"]},
                {"bulb": ["r1c1", "r1c2"], "shaft": ["r2c3", "r3c3"]},
            ],
        },
        {"arrow"},
    ),
    "thermometer": ({"type": "thermometer", "lines": [["r2c2", "r2c3", "r3c4"]]}, {"thermometer"}),
    "slowthermometer": (
        {"type": "slowthermometer", "lines": [["r1c1", "r2c2", "r3c3"]]},
        {"slowthermometer", "line", "circle"},
    ),
    "palindrome": ({"type": "palindrome", "lines": [["r1c1", "r2c2", "r3c3"]]}, {"palindrome"}),
    "renban": ({"type": "renban", "lines": [["r1c1", "r1c2", "r2c3"]]}, {"renban", "line"}),
    "whispers": (
        {"type": "whispers", "lines": [["r1c1", "r1c2"]], "difference": 4},
        {"whispers", "line"},
    ),
    "between": ({"type": "between", "lines": [["r1c1", "r2c2", "r3c3"]]}, {"betweenline"}),
    "entropicline": (
        {"type": "entropicline", "lines": [["r1c1", "r2c2", "r3c3"]]},
        {"entropicline", "line"},
    ),
    "modularline": (
        {"type": "modularline", "lines": [["r1c1", "r1c2", "r1c3"]]},
        {"modularline", "line"},
    ),
    "regionsumline": (
        {"type": "regionsumline", "lines": [["r3c2", "r3c3", "r3c4", "r3c5"]]},
        {"regionsumline", "line"},
    ),
    "nabner": ({"type": "nabner", "lines": [["r1c1", "r2c2"]]}, {"nabner", "line"}),
    "doublearrow": (
        {"type": "doublearrow", "lines": [["r1c1", "r1c2", "r1c3"]]},
        {"doublearrow", "line", "circle"},
    ),
    "zipperline": (
        {"type": "zipperline", "lines": [["r1c1", "r1c2", "r1c3"]]},
        {"zipperline", "line"},
    ),
    "kropki": (
        {
            "type": "kropki",
            "white": [["r1c1", "r1c2"], {"cells": ["r2c1", "r2c2"], "value": 3}],
            "black": [["r3c1", "r4c1"]],
            "negative": ["black"],
        },
        {"difference", "ratio", "negative"},
    ),
    "xv": (
        {"type": "xv", "x": [["r1c1", "r1c2"]], "v": [["r2c2", "r3c2"]], "negative": True},
        {"xv", "negative"},
    ),
    "odd": ({"type": "odd", "cells": ["r1c1", "r5c5"]}, {"odd"}),
    "even": ({"type": "even", "cells": ["r1c1"]}, {"even"}),
    "minimum": ({"type": "minimum", "cells": ["r1c1", "r1c2"]}, {"minimum"}),
    "maximum": ({"type": "maximum", "cells": ["r5c5"]}, {"maximum"}),
    "quadruple": (
        {
            "type": "quadruple",
            "clues": [{"cells": ["r1c1", "r1c2", "r2c1", "r2c2"], "digits": [1, 1, 2]}],
        },
        {"quadruple"},
    ),
    "clone": (
        {"type": "clone", "pairs": [[["r1c1", "r1c2"], ["r9c8", "r9c9"]], ["r5c5", "r6c6"]]},
        {"clone"},
    ),
    "xsum": (
        {"type": "xsum", "left": [None, 15] + [None] * 7, "bottom": [None] * 4 + [1] + [None] * 4},
        {"xsum", "text"},
    ),
    "skyscraper": (
        {"type": "skyscraper", "right": [1] + [None] * 8, "top": [None] * 8 + [9]},
        {"skyscraper", "text"},
    ),
    "indexer": (
        {"type": "indexer", "columns": ["r1c1", "r2c1"], "rows": ["r5c5"], "boxes": ["r9c9"]},
        {"columnindexer", "rowindexer", "boxindexer", "cage"},
    ),
    "givencandidates": (
        {"type": "givencandidates", "candidates": {"r1c1": [1, 2], "r5c5": [3, 7, 9]}},
        set(),
    ),
}
_FRAME = {"size", "grid", "title", "author", "ruleset", "solution"}


def test_every_exporter_has_an_example() -> None:
    assert set(EXAMPLES) == exported_types()


def example(kind: str) -> Puzzle:
    spec, _ = EXAMPLES[kind]
    return Puzzle.empty(Shape(3, 3), [make_rule(spec, Shape(3, 3))])


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_rule_type_writes_its_f_puzzles_keys(kind: str) -> None:
    data = fpuzzles_data(example(kind))
    assert set(data) - _FRAME == EXAMPLES[kind][1]


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_rule_type_round_trips_where_the_importer_reads_its_keys(kind: str) -> None:
    """Exported, then imported: the same constraints. Keys the importer does not read yet
    (the tools constraints) are held to their shape above until it does."""
    puzzle = example(kind)
    data = fpuzzles_data(puzzle)
    if kind == "givencandidates":
        assert data["grid"][4][4]["givenPencilMarks"] == [3, 7, 9]
        back = reimport(fpuzzles_link(puzzle))
        if not back.rules:  # checked for as long as the importer drops them
            pytest.xfail("the importer ignores f-puzzles' givenPencilMarks (silently)")
        assert_same_puzzle(puzzle, back)
        return
    keys = set(data) - _FRAME - {"negative", "line", "circle", "text", "cage"}
    if not keys <= set(supported_keys()):
        pytest.skip(f"the importer does not read {sorted(keys - set(supported_keys()))} yet")
    assert_same_puzzle(puzzle, reimport(fpuzzles_link(puzzle)))


def reimport(link: str) -> Puzzle:
    return fpuzzles_puzzle(fpuzzles_json(link), ReadOptions())


def assert_same_puzzle(first: Puzzle, second: Puzzle) -> None:
    """Same board, givens, known solution, title and constraints: what a solver sees."""
    assert first.size == second.size
    assert {frozenset(r) for r in first.shape.regions()} == {
        frozenset(r) for r in second.shape.regions()
    }
    assert first.givens == second.givens
    assert first.solution == second.solution
    assert (first.title, first.source, first.notes) == (second.title, second.source, second.notes)
    assert Counter(first.rule_constraints()) == Counter(second.rule_constraints())


@pytest.mark.parametrize("kind", sorted(UNEXPRESSIBLE))
def test_unexpressible_rule_is_refused_by_name(kind: str) -> None:
    examples = {
        "rellik": {"type": "rellik", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 5}]},
        "sumcage": {"type": "sumcage", "cages": [{"cells": ["r1c1", "r2c2"], "sum": 4}]},
        "numberedroom": {"type": "numberedroom", "right": [None, None, 7] + [None] * 6},
        "parityline": {"type": "parityline", "lines": [["r5c1", "r5c2"]]},
        "sameparityline": {"type": "sameparityline", "lines": [["r5c1", "r5c2"]]},
        "distinctline": {"type": "distinctline", "lines": [["r5c1", "r5c2"]], "count": 2},
        "arithmeticline": {"type": "arithmeticline", "lines": [["r5c1", "r5c2"]]},
        "segmentsumline": {"type": "segmentsumline", "lines": [["r5c1", "r5c2"]], "total": 10},
        "monotoneline": {"type": "monotoneline", "lines": [["r5c1", "r5c2"]]},
        "lockout": {"type": "lockout", "lines": [["r1c1", "r1c2", "r1c3"]]},
        "greaterthan": {"type": "greaterthan", "pairs": [["r1c1", "r1c2"]]},
        "countingcircles": {"type": "countingcircles", "cells": ["r1c1", "r2c2"]},
        "maxarrow": {"type": "maxarrow", "arrows": [{"bulb": ["r1c1"], "shaft": ["r2c2"]}]},
        "productarrow": {"type": "productarrow", "arrows": [{"bulb": ["r1c1"], "shaft": ["r2c2"]}]},
        "frame": {"type": "frame", "left": [6] + [None] * 8},
        "minmaxsum": {"type": "minmaxsum", "left": [10] + [None] * 8},
        "minmaxdifference": {"type": "minmaxdifference", "left": [5] + [None] * 8},
        "maxposition": {"type": "maxposition", "left": [2] + [None] * 8},
        "evensandwich": {"type": "evensandwich", "left": [5] + [None] * 8},
        "besidelargest": {"type": "besidelargest", "left": [12] + [None] * 8},
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
            "clues": [{"cells": [f"r1c{c}" for c in range(1, 10)], "digits": [7, 8]}],
        },
        "descriptivepair": {
            "type": "descriptivepair",
            "clues": [{"cells": [f"r1c{c}" for c in range(1, 10)], "digits": [3, 6]}],
        },
    }
    puzzle = Puzzle.empty(Shape(3, 3), [make_rule(examples[kind], Shape(3, 3))])
    with pytest.raises(PuzzleError, match=f"rule '{kind}' cannot be written"):
        fpuzzles_data(puzzle)


# --- what f-puzzles could only write as another puzzle is refused -----------------------------


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            [{"type": "littlekiller", "clues": [{"cells": ["r6c1", "r5c2", "r4c3"], "sum": 8}]}],
            "not a whole diagonal",
        ),
        (
            [{"type": "arrow", "arrows": [{"bulb": ["r1c2", "r1c1"], "shaft": ["r2c3"]}]}],
            "reads in another order",
        ),
        (
            [
                {
                    "type": "kropki",
                    "white": [{"cells": ["r1c1", "r1c2"], "value": 2}],
                    "negative": True,
                }
            ],
            "white dot of value 2",
        ),
        ([{"type": "modularline", "lines": [["r1c1", "r1c2"]], "modulus": 4}], "modulo 3"),
        ([{"type": "nonconsecutive"}, {"type": "kropki", "black": [["r1c1", "r1c2"]]}], "exempt"),
        (
            [{"type": "minimum", "cells": ["r1c1"]}, {"type": "minimum", "cells": ["r1c2"]}],
            "one set",
        ),
        (
            [
                {"type": "xv", "x": [["r1c1", "r1c2"]], "negative": True},
                {"type": "xv", "v": [["r5c1", "r5c2"]]},
            ],
            "one negative",
        ),
    ],
)
def test_meaning_changes_are_refused(rules: list[dict[str, Any]], message: str) -> None:
    shape = Shape(3, 3)
    puzzle = Puzzle.empty(shape, [make_rule(spec, shape) for spec in rules])
    with pytest.raises(PuzzleError, match=message):
        fpuzzles_data(puzzle)


def test_disjoint_groups_on_other_than_default_boxes_is_refused() -> None:
    shape = Shape(3, 2)  # f-puzzles' 6x6 boxes are 2 rows by 3 columns
    puzzle = Puzzle.empty(shape, [make_rule({"type": "disjointgroups"}, shape)])
    with pytest.raises(PuzzleError, match="default boxes"):
        fpuzzles_data(puzzle)


def test_two_minimum_sets_apart_merge() -> None:
    shape = Shape(3, 3)
    rules = [make_rule({"type": "minimum", "cells": [c]}, shape) for c in ("r1c1", "r5c5")]
    puzzle = Puzzle.empty(shape, rules)
    assert fpuzzles_data(puzzle)["minimum"] == [{"cell": "R1C1"}, {"cell": "R5C5"}]
    assert_same_puzzle(puzzle, reimport(fpuzzles_link(puzzle)))


# --- every model: import, export, re-import ---------------------------------------------------


# Published models beyond one per rule type and feature under -m slow (covering_models);
# every refused one by default.
@pytest.mark.parametrize("path", model_params(set(REFUSED_MODELS)))
def test_model_round_trips_through_f_puzzles(path: Path) -> None:
    (puzzle,) = read_puzzles(path)
    name = str(path.relative_to(REPO / "models"))
    if name in REFUSED_MODELS:
        with pytest.raises(PuzzleError, match=REFUSED_MODELS[name]):
            fpuzzles_link(puzzle)
        return
    again = reimport(fpuzzles_link(puzzle))
    assert_same_puzzle(puzzle, again)
    assert_same_puzzle(again, reimport(sudokupad_link(puzzle).replace(SUDOKUPAD_LINK, "")))


def test_box_shape_other_than_f_puzzles_default_is_written_as_regions() -> None:
    shape = Shape(3, 2)
    puzzle = Puzzle.empty(shape)
    data = fpuzzles_data(puzzle)
    assert data["grid"][0][0]["region"] == 0 and data["grid"][2][1]["region"] == 0
    assert_same_puzzle(puzzle, reimport(fpuzzles_link(puzzle)))


# --- the command ------------------------------------------------------------------------------


def test_convert_to_fpuzzles_and_sudokupad(capsys: pytest.CaptureFixture[str]) -> None:
    path = REPO / "models" / "variants" / "real" / "thermo.json"
    assert main(["convert", str(path), "--to", "fpuzzles"]) == 0
    link = capsys.readouterr().out.strip()
    assert link.startswith("https://www.f-puzzles.com/?load=N4Ig")
    assert main(["convert", str(path), "--to", "sudokupad"]) == 0
    assert capsys.readouterr().out.strip() == link.replace(
        "https://www.f-puzzles.com/?load=", "https://sudokupad.app/fpuzzles"
    )
    (puzzle,) = read_puzzles(path)
    assert_same_puzzle(puzzle, reimport(link))


def test_convert_refusal_is_one_line_naming_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the CLI's main in this process (a child cost ~0.45 s of CPU)."""
    doc = {"size": 4, "rules": [{"type": "rellik", "cages": [{"cells": ["r1c1"], "sum": 3}]}]}
    path = tmp_path / "rellik.json"
    path.write_text(json.dumps(doc))
    code = main(["convert", str(path), "--to", "fpuzzles"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "rellik.json" in lines[0] and "'rellik'" in lines[0]


def test_outside_clues_of_zero_are_not_exported_as_clues() -> None:
    """X-sum documents write 0 for 'no clue' (TOML has no null); f-puzzles would show a 0 clue
    beside every such line. A sandwich clue of 0 is a real clue and is kept."""
    xsum = {"type": "xsum", "left": [0, 8] + [0] * 7}
    sandwich = {"type": "sandwich", "rows": [0] + [None] * 8}
    shape = Shape(3, 3)
    data = fpuzzles_data(Puzzle.empty(shape, [make_rule(xsum, shape), make_rule(sandwich, shape)]))
    assert data["xsum"] == [{"cell": "R2C0", "value": "8"}]
    assert data["sandwichsum"] == [{"cell": "R1C0", "value": "0"}]
