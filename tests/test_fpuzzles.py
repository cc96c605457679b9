"""f-puzzles import: lz-string decoding (vectors from public f-puzzles links), every constraint
key, links in their several spellings, and clear errors for what cannot be read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid
from satsudoku.io import read_puzzles, read_text
from satsudoku.io.fpuzzles import SUPPORTED_KEYS, fpuzzles_document, lz_decompress_base64
from satsudoku.verify import is_solution

# Published in public repositories' tests/readmes together with what they decode to.
X3 = "N4IgHiBcDMC+Q==="  # {"x":3}
GIVEN_R1C1 = (
    "N4IgzglgXgpiBcBOANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZYHv3vyGCRfALrJCwgTOlyJU0XKVKFsl"
    "es1c1yrRu2S9R+Yd1nVp/Vdk7r58WK5A"
)
KILLER_CAGES = (
    "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7rjtn/nQaCR3PgIm9hk0UM6zR4rssX0QAaw"
    "gAbLTAwBjAIZo48QiH0wdYfCABKARgDCDkKjsAmFyDUA3Q1oArqYgiCAUFlZaNmb2zh5ucU4AzImeTgnuXqnuyRk+qP5B"
    "IcmpRGqG+gAuEL4wTgD2AHZgVRiGEE1VMXggANLauhgABE7GcLREQA="
)

# The Wikipedia killer's solution; every clue below is read off it.
S = [
    "215647398",
    "368952174",
    "794381652",
    "586274931",
    "142593867",
    "973816425",
    "821739546",
    "659428713",
    "437165289",
]
SOLUTION = Grid(9, tuple(int(ch) for row in S for ch in row))


def fp_grid(
    size: int, givens: dict[tuple[int, int], int] | None = None
) -> list[list[dict[str, Any]]]:
    grid: list[list[dict[str, Any]]] = [[{} for _ in range(size)] for _ in range(size)]
    for (r, c), value in (givens or {}).items():
        grid[r][c] = {"value": value, "given": True}
    return grid


def every_key() -> dict[str, Any]:
    grid = fp_grid(9, {(8, 8): 9, (0, 8): 8})
    grid[4][4] = {"value": 3}  # a player's entry, not a given: ignored
    return {
        "size": 9,
        "title": "every key",
        "author": "satsudoku tests",
        "ruleset": "clues read off a known grid",
        "grid": grid,
        "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R9C1", "R9C2"]}],
        "littlekillersum": [
            {"cell": "R0C1", "cells": ["R1C2", "R2C3", "R3C4"], "direction": "DR", "value": "12"},
            {"cell": "R0C5", "cells": ["R1C6", "R2C7"], "direction": "DR", "value": ""},
        ],
        "sandwichsum": [{"cell": "R1C0", "value": "25"}, {"cell": "R0C4", "value": "29"}],
        "arrow": [{"cells": ["R4C2"], "lines": [["R4C2", "R4C3", "R4C4"]]}],
        "thermometer": [{"lines": [["R1C2", "R1C3", "R1C4"]]}],
        "slowthermometer": [{"lines": [["R1C1", "R2C1", "R3C1"]]}],
        "palindrome": [{"lines": [["R2C2", "R3C2", "R4C3"]]}],
        "renban": [{"lines": [["R1C3", "R1C4", "R1C5"]]}],
        "whispers": [{"lines": [["R1C7", "R1C8"]]}],
        "betweenline": [{"lines": [["R1C2", "R1C3", "R1C4"]]}],
        "difference": [{"cells": ["R1C8", "R1C9"]}],
        "ratio": [{"cells": ["R1C1", "R1C2"]}],
        "xv": [
            {"cells": ["R1C4", "R1C5"], "value": "X"},
            {"cells": ["R5C1", "R5C2"], "value": "V"},
        ],
        "odd": [{"cell": "R1C2"}],
        "even": [{"cell": "R1C1"}],
        "minimum": [{"cell": "R2C7"}],
        "maximum": [{"cell": "R2C4"}],
        "extraregion": [{"cells": ["R1C1", "R2C2", "R3C3"]}],
        "quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2]}],
        "clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R2C6", "R2C7"]}],
        "negative": [],
        "diagonal+": False,
        "diagonal-": False,
        "antiknight": False,
        "antiking": False,
        "disjointgroups": False,
        "nonconsecutive": False,
        "solution": [int(ch) for row in S for ch in row],
    }


def test_lz_string_vectors() -> None:
    assert lz_decompress_base64(X3) == '{"x":3}'
    given = json.loads(lz_decompress_base64(GIVEN_R1C1))
    assert given["size"] == 9 and given["grid"][0][0] == {"value": 1, "given": True}
    cages = json.loads(lz_decompress_base64(KILLER_CAGES))["killercage"]
    assert cages[0] == {"cells": ["R1C1", "R2C1"], "value": "9"}
    assert lz_decompress_base64("") == ""


@pytest.mark.parametrize(
    "text",
    [
        KILLER_CAGES,
        "https://f-puzzles.com/?load=" + KILLER_CAGES,
        "https://www.f-puzzles.com/?load=" + KILLER_CAGES.replace("+", "%2B").replace("/", "%2F"),
        "https://f-puzzles.com/?load=" + KILLER_CAGES.replace("+", " "),  # '+' form-decoded
        "https://sudokupad.app/fpuzzles" + KILLER_CAGES,
    ],
    ids=["bare", "link", "percent-encoded", "plus-as-space", "sudokupad"],
)
def test_links_and_strings_are_puzzle_inputs(text: str) -> None:
    (puzzle,) = read_puzzles(text)  # no such file: the text itself is the puzzle
    (killer,) = puzzle.rules
    assert killer.to_spec()["cages"] == [
        {"cells": ["r1c1", "r2c1"], "sum": 9},
        {"cells": ["r1c2", "r1c3", "r2c2", "r2c3", "r3c2"], "sum": 33},
    ]
    (again,) = read_text(text + "\n")  # and as the content of a file or stdin
    assert again.rules == puzzle.rules


def test_every_constraint_key_translates_faithfully() -> None:
    data = every_key()
    doc = fpuzzles_document(data)
    kinds = {rule["type"] for rule in doc["rules"]}
    assert kinds == {
        "killer",
        "littlekiller",
        "sandwich",
        "arrow",
        "thermometer",
        "slowthermometer",
        "palindrome",
        "renban",
        "whispers",
        "between",
        "kropki",
        "xv",
        "odd",
        "even",
        "minimum",
        "maximum",
        "extraregion",
        "quadruple",
        "clone",
    }
    (puzzle,) = read_text(json.dumps(data))
    assert puzzle.title == "every key" and puzzle.solution == SOLUTION
    assert puzzle.givens.count_filled() == 2  # the player's r5c5 entry is not a given
    assert is_solution(puzzle, SOLUTION)  # every translated clue holds on the source grid
    sandwich = next(r for r in doc["rules"] if r["type"] == "sandwich")
    assert sandwich["rows"][0] == 25 and sandwich["cols"][3] == 29
    little = next(r for r in doc["rules"] if r["type"] == "littlekiller")
    assert len(little["clues"]) == 1  # the clue without a value is no clue


@pytest.mark.parametrize("backend_name", available())
def test_translated_puzzle_solves_consistently(backend_name: str) -> None:
    (puzzle,) = read_text(json.dumps(every_key()))
    result = get_backend(backend_name).solve(puzzle, limit=1, timeout=60)
    assert result.solution is not None and is_solution(puzzle, result.solution)


def test_flags_regions_and_negative_constraints() -> None:
    grid = fp_grid(4)
    for r in range(4):
        for c in range(4):
            grid[r][c]["region"] = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 3, 2, 3][r * 4 + c]
    data = {
        "size": 4,
        "grid": grid,
        "diagonal+": True,
        "antiknight": True,
        "disjointgroups": False,
        "negative": ["ratio", "difference", "xv"],
        "difference": [{"cells": ["R1C1", "R1C2"], "value": "2"}],
    }
    doc = fpuzzles_document(data)
    assert doc["regions"] == ["1122", "1122", "3344", "3434"]
    rules = {rule["type"]: rule for rule in doc["rules"]}
    assert set(rules) == {"diagonal+", "antiknight", "kropki", "xv"}
    assert rules["kropki"]["negative"] is True
    assert rules["kropki"]["white"] == [{"cells": ["r1c1", "r1c2"], "value": 2}]
    assert rules["xv"]["negative"] is True
    (puzzle,) = read_text(json.dumps(data))
    assert puzzle.shape.is_jigsaw


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"chess": True}, "f-puzzles key 'chess' is not supported"),
        ({"text": [{"cells": ["R1C1"], "value": "hi"}]}, "key 'text' (a drawing"),
        ({"negative": ["sum"]}, "'negative' entry 'sum' is not supported"),
        ({"killercage": [{"value": "3"}]}, "key 'killercage': malformed entry"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "Q"}]}, "without value 'X' or 'V'"),
        ({"thermometer": [{"lines": [["R1C1", "R3C3"]]}]}, "rule 'thermometer'"),
    ],
)
def test_unsupported_or_malformed_keys_are_named(extra: dict[str, Any], message: str) -> None:
    data = {"size": 4, "grid": fp_grid(4), "text": [], **extra}
    with pytest.raises(PuzzleError) as info:
        read_text(json.dumps(data))
    assert message in str(info.value)


def test_supported_keys_cover_the_issue_list() -> None:
    wanted = (
        "diagonal+ diagonal- antiknight antiking disjointgroups nonconsecutive killercage "
        "littlekillersum sandwichsum arrow thermometer palindrome difference ratio xv odd even "
        "minimum maximum extraregion quadruple clone betweenline renban whispers slowthermometer"
    ).split()
    assert set(wanted) <= set(SUPPORTED_KEYS)


def test_convert_writes_a_document_that_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", "https://f-puzzles.com/?load=" + KILLER_CAGES]) == 0
    path = tmp_path / "doc.json"
    path.write_text(capsys.readouterr().out)
    (puzzle,) = read_puzzles(path)
    assert puzzle.rules[0].to_spec()["cages"][0]["sum"] == 9


def test_bad_data_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "https://f-puzzles.com/?load=N4Ig!!"]) == 1
    assert "not a base64 character" in capsys.readouterr().err
