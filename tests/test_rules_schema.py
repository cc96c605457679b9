"""Declared rule fields (satsudoku.rules.schema): reading, errors that name the field path,
writing back, the docs' field tables, and a plugin rule built from declarations alone."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from satsudoku.backends import get_backend
from satsudoku.constraints import Constraint, Sum
from satsudoku.errors import PuzzleError
from satsudoku.grid import Cell, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import _REGISTRY, make_rule, register_rule, rule_types
from satsudoku.rules.schema import (
    Cells,
    Declared,
    Integer,
    ListOf,
    N,
    Object,
    empty,
    field_docs,
    spec,
)
from tests.test_rules import all_4x4

ROOT = Path(__file__).resolve().parent.parent
NINE = Shape()


@dataclass(frozen=True)
class CornerSum(Declared):
    """A plugin-style rule declared in a few lines: each group's cells add up to its total, and
    the optional `scale` multiplies every total."""

    type: ClassVar[str] = "test-corner-sum"
    groups: tuple[tuple[tuple[Cell, ...], int], ...] = spec(
        ListOf(Object({"cells": Cells(), "total": Integer(1)}))
    )
    scale: int = spec(Integer(1, N), absent=1, omit=lambda s: s == 1, default=1)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        for cells, total in self.groups:
            yield Sum(cells, total * self.scale)


@pytest.fixture(autouse=True)
def corner_sum() -> Iterator[None]:
    """Registered only while a test here runs: other tests list every registered type."""
    register_rule(CornerSum.type)(CornerSum)
    yield
    del _REGISTRY[CornerSum.type]


def test_a_declared_plugin_rule_reads_writes_and_counts_right() -> None:
    shape = Shape(2, 2)
    spec_in = {"type": "test-corner-sum", "groups": [{"cells": ["r1c1", "r2c2"], "total": 3}]}
    rule = make_rule(spec_in, shape)
    assert rule == CornerSum(((((0, 0), (1, 1)), 3),), 1)
    assert rule.to_spec() == spec_in  # scale 1 is the default, left out
    scaled = make_rule({**spec_in, "scale": "1"}, shape)  # digits as text, as f-puzzles writes
    assert scaled == rule
    expected = sum(1 for g in all_4x4() if g[0][0] + g[1][1] == 3)
    assert expected == 288 // 6  # r1c1, r2c2 share a box: ordered pairs {1,2}: 2 of 12
    result = get_backend("sat").solve(Puzzle.empty(shape, (rule,)), limit=300)
    assert result.exhausted and result.count == expected


@dataclass(frozen=True)
class QueenDigit(Declared):
    """The declared form of examples/queen_rule.py's field, as docs/rules.md shows it."""

    type: ClassVar[str] = "test-queen"
    digit: int = spec(Integer(1, N), absent=N, default=9)

    def constraints(self, shape: Shape) -> Iterator[Constraint]:
        return iter(())


def test_the_declared_queen_field_reads_as_the_hand_written_one() -> None:
    four = Shape(2, 2)
    assert QueenDigit.from_spec({"type": "test-queen"}, four) == QueenDigit(4)  # largest digit
    assert QueenDigit.from_spec({"type": "test-queen"}, four).to_spec() == {
        "type": "test-queen",
        "digit": 4,  # always written: the default depends on the board
    }
    with pytest.raises(PuzzleError, match="^digit = 99 is outside 1..4$"):
        QueenDigit.from_spec({"type": "test-queen", "digit": 99}, four)
    with pytest.raises(PuzzleError, match=r"^unexpected field 'digits' \(fields: digit\)$"):
        QueenDigit.from_spec({"type": "test-queen", "digits": 1}, four)
    assert field_docs(QueenDigit) == [("digit", False, "n", "integer 1..n")]


@pytest.mark.parametrize(
    ("spec_in", "message"),
    [
        ({}, "rule 'test-corner-sum': missing field 'groups'"),
        ({"groups": [], "colour": 1}, "unexpected field 'colour' (fields: groups, scale)"),
        ({"groups": "r1c1"}, "groups must be a list"),
        ({"groups": [{"cells": ["r1c1"]}]}, "groups[0] must be an object with exactly 'cells'"),
        ({"groups": [{"cells": ["r1c1"], "total": 0}]}, "groups[0].total = 0 is outside 1.."),
        ({"groups": [{"cells": ["r1c1", "r9c9"], "total": 2}]}, "groups[0].cells[1]: cell"),
        ({"groups": [], "scale": 5}, "scale = 5 is outside 1..4"),
    ],
)
def test_declared_fields_give_one_line_errors_naming_the_path(
    spec_in: dict[str, Any], message: str
) -> None:
    with pytest.raises(PuzzleError) as info:
        make_rule({"type": "test-corner-sum", **spec_in}, Shape(2, 2))
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("spec_in", "message"),
    [
        (
            {"type": "killer", "cages": [{"cells": ["r1c1"]}, {"cells": ["r1c3"], "sum": "x"}]},
            "rule 'killer': cages[1].sum must be an integer, not 'x'",
        ),
        (
            {"type": "killer", "cages": [{"cells": ["r1c1"]}, {"cells": ["r2c2", "r1c1"]}]},
            "rule 'killer': cages[1].cells: r1c1 is already in cages[0]",
        ),
        (
            {"type": "thermometer", "lines": [["r1c1", "r1c2", "r1c3", "r1c5"]]},
            "rule 'thermometer': lines[0]: r1c3 and r1c5 are not neighbours",
        ),
        (
            {"type": "renban", "lines": [["r1c1", "r1c2", "r1c3", "r1c33"]]},
            "rule 'renban': lines[0][3]: cell 'r1c33' is outside the 9x9 board",
        ),
        (
            {"type": "arrow", "arrows": [{"bulb": ["r1c1"], "shaft": ["r1c2"], "x": 1}]},
            "rule 'arrow': arrows[0] must be an object with exactly 'bulb' and 'shaft'",
        ),
        (
            {"type": "xsum", "top": [46, 0, 0, 0, 0, 0, 0, 0, 0]},
            "rule 'xsum': top[0] = 46 is outside 0..45",
        ),
        (
            {"type": "kropki", "white": [{"cells": ["r1c1", "r1c2"], "value": 0}]},
            "rule 'kropki': white[0].value = 0 is outside 1..…",
        ),
        (
            {"type": "xv", "x": [{"cells": ["r1c1", "r1c2"], "value": 9}]},
            "rule 'xv': x[0] (r1c1-r1c2): X always means a sum of 10, not 9; use a killer cage"
            " for another total",
        ),
        (
            {"type": "clone", "pairs": [["r1c1", ["r2c2", "r2c3"]]]},
            "rule 'clone': pairs[0]: the two regions have 1 and 2 cells",
        ),
    ],
)
def test_built_in_rules_keep_their_error_paths(spec_in: dict[str, Any], message: str) -> None:
    with pytest.raises(PuzzleError) as info:
        make_rule(spec_in, NINE)
    assert str(info.value) == message


def _doc_examples() -> list[dict[str, Any]]:
    text = (ROOT / "docs" / "rules.md").read_text()
    blocks = re.findall(r"```json\n(.*?)\n```", text, re.S)
    return [d for d in map(json.loads, blocks) if isinstance(d, dict) and "type" in d]


@pytest.mark.parametrize("example", _doc_examples(), ids=lambda d: str(d["type"]))
def test_to_spec_reads_back_to_the_same_rule(example: dict[str, Any]) -> None:
    rule = make_rule(example, NINE)
    written = rule.to_spec()
    assert make_rule(written, NINE) == rule
    assert make_rule(written, NINE).to_spec() == written


def test_every_built_in_rule_but_the_diagonals_is_declared() -> None:
    classes = {name: _REGISTRY[name].__self__ for name in rule_types()}  # type: ignore[attr-defined]
    builtin = {n: c for n, c in classes.items() if c.__module__.startswith("satsudoku.rules.")}
    assert len(builtin) >= 43
    undeclared = sorted(n for n, c in builtin.items() if not issubclass(c, Declared))
    assert undeclared == ["diagonal", "diagonal+", "diagonal-"]  # the type name is the field
    assert [d.key for d in field_docs(builtin["whispers"])] == ["lines", "difference"]
    killer = field_docs(builtin["killer"])[0]
    assert killer.required and "`sum`?: integer ≥ 1" in killer.value
    (difference,) = [d for d in field_docs(builtin["lockout"]) if d.key == "difference"]
    assert (difference.required, difference.default, difference.value) == (
        False,
        "4",
        "integer 1..n−1",
    )


def test_the_docs_hook_renders_a_table_and_refuses_a_missing_marker() -> None:
    path = ROOT / "docs" / "hooks" / "rule_fields.py"
    loader = importlib.util.spec_from_file_location("rule_fields_hook", path)
    assert loader is not None and loader.loader is not None
    rule_fields = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(rule_fields)

    class Page:
        class file:  # noqa: N801 - mimics mkdocs' page.file.src_uri
            src_uri = "rules.md"

    page = (ROOT / "docs" / "rules.md").read_text()
    out = rule_fields.on_page_markdown(page, Page())
    assert "| `cages` | required | list, each item an object {`cells`: " in out
    assert "<!-- fields:" not in out
    with pytest.raises(ValueError, match="no '<!-- fields: TYPE -->' marker for \\['killer'\\]"):
        rule_fields.on_page_markdown(page.replace("<!-- fields: killer -->", ""), Page())


def test_empty_omits_what_absent_means() -> None:
    assert empty(()) and empty(False) and empty(frozenset()) and empty((None, None))
    assert not empty((0,)) and not empty(((0, 0),)) and not empty(True)


def test_a_plugin_rule_that_declares_its_fpuzzles_key_imports_and_exports() -> None:
    """A new line rule with a standard f-puzzles key is one small class: reading the key and
    writing it back follow from `fpuzzles`, with no edit to io/fpuzzles*.py."""
    from satsudoku.io.fpuzzles import fpuzzles_document, supported_keys
    from satsudoku.io.fpuzzles_export import fpuzzles_data
    from satsudoku.io.text import ReadOptions
    from satsudoku.rules.lines import LineRule
    from satsudoku.rules.schema import FpuzzlesKey

    @register_rule("test-equal-line")
    @dataclass(frozen=True)
    class EqualLine(LineRule):
        """Every cell of a line holds the same digit (cells of one house cannot both be on it)."""

        type: ClassVar[str] = "test-equal-line"
        fpuzzles: ClassVar[FpuzzlesKey | None] = FpuzzlesKey("testequalline", "lines")

        def constraints(self, shape: Shape) -> Iterator[Constraint]:
            from satsudoku.constraints import Pair, Relation

            for line in self.lines:
                for a, b in zip(line, line[1:], strict=False):
                    yield Pair(a, b, Relation.EQUAL, 0)

    assert "testequalline" in supported_keys()
    grid: list[list[dict[str, Any]]] = [[{} for _ in range(4)] for _ in range(4)]
    data = {"size": 4, "grid": grid, "testequalline": [{"lines": [["R2C2", "R3C3"]]}]}
    document = fpuzzles_document(data)
    assert document["rules"] == [{"type": "test-equal-line", "lines": [["r2c2", "r3c3"]]}]
    from satsudoku.io.document import puzzle_from_document

    puzzle = puzzle_from_document(document, ReadOptions())
    assert fpuzzles_data(puzzle)["testequalline"] == [{"lines": [["R2C2", "R3C3"]]}]
    expected = sum(1 for g in all_4x4() if g[1][1] == g[2][2])
    result = get_backend("sat").solve(puzzle, limit=300)
    assert result.exhausted and result.count == expected == 72
