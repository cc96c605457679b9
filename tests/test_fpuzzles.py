"""f-puzzles import: lz-string decoding (vectors from public f-puzzles links), every constraint
key, links in their several spellings, and clear errors for what cannot be read."""

from __future__ import annotations

import json
import re
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid
from satsudoku.io import read_puzzles, read_text
from satsudoku.io.fpuzzles import fpuzzles_document, lz_decompress_base64, supported_keys
from satsudoku.io.lzcompress import lz_compress_base64
from satsudoku.puzzle import Puzzle
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
            {
                "cell": "R0C1",
                "cells": [f"R{k}C{k + 1}" for k in range(1, 9)],
                "direction": "DR",
                "value": "33",
            },
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
        "nonconsecutive": True,  # with negative ratio: every kropki dot is given
        "negative": ["ratio", "xv"],
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
        (
            {"text": [{"cells": ["R1C1"], "value": "hi"}]},
            "in the rules text: text ×1 (first: text 'hi' on r1c1);",
        ),
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
    assert set(wanted) <= set(supported_keys())


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


# --- f-puzzles strings built here: lz-string's compressToBase64, the inverse of the decoder ---


def fp_link(data: dict[str, Any]) -> str:
    return "https://f-puzzles.com/?load=" + lz_compress_base64(json.dumps(data))


def test_compressor_matches_lz_string() -> None:
    assert lz_compress_base64('{"x":3}') == X3  # the published vector
    for text in [json.dumps(every_key()), "aaaaaaaaaaaab", "wide: €☃ and ascii"]:
        assert lz_decompress_base64(lz_compress_base64(text)) == text


# --- an independent oracle: every 4x4 grid, each rule judged by its f-puzzles definition ---

Cell = tuple[int, int]


def all_4x4_grids() -> list[tuple[tuple[int, ...], ...]]:
    """The 288 4x4 sudoku grids, by brute force over row permutations."""
    rows = list(permutations(range(1, 5)))

    def fits(grid: list[tuple[int, ...]]) -> bool:
        columns_ok = all(len({row[c] for row in grid}) == len(grid) for c in range(4))
        full_bands = [grid[r : r + 2] for r in range(0, len(grid) - 1, 2)]
        boxes_ok = all(
            len({*b[0][c : c + 2], *b[1][c : c + 2]}) == 4 for b in full_bands for c in (0, 2)
        )
        return columns_ok and boxes_ok

    grids: list[tuple[tuple[int, ...], ...]] = []

    def extend(grid: list[tuple[int, ...]]) -> None:
        if len(grid) == 4:
            grids.append(tuple(grid))
            return
        for row in rows:
            if fits([*grid, row]):
                extend([*grid, row])

    extend([])
    return grids


GRIDS_4X4 = all_4x4_grids()


def orthogonal_pairs(size: int) -> list[tuple[Cell, Cell]]:
    return [
        ((r, c), (r + dr, c + dc))
        for r in range(size)
        for c in range(size)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < size and c + dc < size
    ]


def kropki_holds(
    grid: tuple[tuple[int, ...], ...],
    white: dict[frozenset[Cell], int],
    black: dict[frozenset[Cell], int],
    *,
    nonconsecutive: bool = False,
    negative_ratio: bool = False,
) -> bool:
    """f-puzzles' kropki: a dot fixes its pair's difference/ratio; nonconsecutive and the
    negative ratio constraint bind only pairs that carry no dot of either colour."""
    for a, b in orthogonal_pairs(len(grid)):
        x, y, pair = grid[a[0]][a[1]], grid[b[0]][b[1]], frozenset((a, b))
        if pair in white and abs(x - y) != white[pair]:
            return False
        if pair in black and black[pair] * y != x and black[pair] * x != y:
            return False
        if pair not in white and pair not in black:
            if nonconsecutive and abs(x - y) == 1:
                return False
            if negative_ratio and (x == 2 * y or y == 2 * x):
                return False
    return True


def name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def dot_entries(dots: dict[frozenset[Cell], int], default: int) -> list[dict[str, Any]]:
    entries = []
    for pair, value in dots.items():
        entry: dict[str, Any] = {"cells": [name(c) for c in sorted(pair)]}
        if value != default:
            entry["value"] = str(value)
        entries.append(entry)
    return entries


def count_everywhere(puzzle: Puzzle, limit: int = 300) -> int:
    """The exact count, the same on every backend."""
    counts = {get_backend(b).solve(puzzle, limit=limit, timeout=60).count for b in available()}
    assert len(counts) == 1, counts
    (count,) = counts
    assert count is not None
    return count


# A 4x4 grid and the dots read off it: white on every pair differing by 1 (two of them as
# black 1:2 dots instead), value-2 white dots on two pairs differing by 2.
A = ((2, 1, 3, 4), (4, 3, 1, 2), (3, 4, 2, 1), (1, 2, 4, 3))


def dots_of(
    grid: tuple[tuple[int, ...], ...],
) -> tuple[dict[frozenset[Cell], int], dict[frozenset[Cell], int]]:
    white: dict[frozenset[Cell], int] = {}
    black: dict[frozenset[Cell], int] = {}
    twos = 0
    for a, b in orthogonal_pairs(4):
        x, y = grid[a[0]][a[1]], grid[b[0]][b[1]]
        if {x, y} == {1, 2} and len(black) < 2:
            black[frozenset((a, b))] = 2
        elif abs(x - y) == 1:
            white[frozenset((a, b))] = 1
        elif abs(x - y) == 2 and twos < 2:
            white[frozenset((a, b))] = 2
            twos += 1
    return white, black


@pytest.mark.parametrize("use_black", [False, True], ids=["white-only", "white-and-black"])
def test_nonconsecutive_with_dots_exempts_every_dotted_pair(use_black: bool) -> None:
    white, black = dots_of(A)
    if not use_black:
        white.update({pair: 1 for pair in black})  # 1-2 pairs as white dots instead
        black = {}
    data = {
        "size": 4,
        "grid": fp_grid(4),
        "nonconsecutive": True,
        "difference": dot_entries(white, 1),
        "ratio": dot_entries(black, 2),
    }
    expected = [g for g in GRIDS_4X4 if kropki_holds(g, white, black, nonconsecutive=True)]
    assert A in expected and len(expected) == (2 if use_black else 4)
    (puzzle,) = read_puzzles(fp_link(data))
    assert [r.to_spec()["type"] for r in puzzle.rules] == ["kropki"]  # no global nonconsecutive
    assert count_everywhere(puzzle) == len(expected)


def test_nonconsecutive_and_negative_ratio_are_full_kropki() -> None:
    white, black = dots_of(A)
    data = {
        "size": 4,
        "grid": fp_grid(4),
        "nonconsecutive": True,
        "negative": ["ratio"],
        "difference": dot_entries(white, 1),
        "ratio": dot_entries(black, 2),
    }
    expected = [
        g
        for g in GRIDS_4X4
        if kropki_holds(g, white, black, nonconsecutive=True, negative_ratio=True)
    ]
    (puzzle,) = read_text(json.dumps(data))
    assert count_everywhere(puzzle) == len(expected) == 0  # A's 2-4 pairs carry no black dot
    black.update(
        {
            frozenset((a, b)): 2
            for a, b in orthogonal_pairs(4)
            if {A[a[0]][a[1]], A[b[0]][b[1]]} == {2, 4}
        }
    )
    white = {pair: v for pair, v in white.items() if pair not in black}
    data.update(difference=dot_entries(white, 1), ratio=dot_entries(black, 2))
    expected = [
        g
        for g in GRIDS_4X4
        if kropki_holds(g, white, black, nonconsecutive=True, negative_ratio=True)
    ]
    (puzzle,) = read_text(json.dumps(data))
    assert A in expected and count_everywhere(puzzle) == len(expected) == 1


def test_nonconsecutive_without_dots_is_the_global_rule() -> None:
    (puzzle,) = read_text(json.dumps({"size": 4, "grid": fp_grid(4), "nonconsecutive": True}))
    assert [r.to_spec() for r in puzzle.rules] == [{"type": "nonconsecutive"}]
    assert (
        count_everywhere(puzzle)
        == 0
        == sum(kropki_holds(g, {}, {}, nonconsecutive=True) for g in GRIDS_4X4)
    )


@pytest.mark.parametrize(
    ("key", "negative", "message"),
    [
        ("ratio", ["ratio"], "negative 'ratio' with a ratio dot of value 3 (R1C1-R1C2)"),
        ("difference", ["difference"], "negative 'difference' with a difference dot of value 2"),
    ],
)
def test_negative_with_other_dot_values_is_refused(
    key: str, negative: list[str], message: str
) -> None:
    """f-puzzles' negative constraint also forbids a non-default dot's value elsewhere, which
    the kropki rule cannot say: an error, not a different puzzle."""
    value = "3" if key == "ratio" else "2"
    data = {
        "size": 4,
        "grid": fp_grid(4),
        "negative": negative,
        key: [{"cells": ["R1C1", "R1C2"], "value": value}],
    }
    with pytest.raises(PuzzleError, match=re.escape(message)):
        read_text(json.dumps(data))


# The Kropki puzzle of the audit (/tmp/audit5/kropki_fp.txt): givens r1c1=4 and r5c5=6,
# nonconsecutive plus negative ratio, i.e. every kropki dot is given.
KROPKI_WHITE = (
    "R1C5-R1C6 R1C7-R1C8 R2C2-R2C3 R2C2-R3C2 R2C4-R2C5 R2C5-R2C6 R2C6-R3C6 R2C8-R2C9 R3C2-R4C2 "
    "R3C4-R3C5 R3C5-R3C6 R4C1-R4C2 R4C3-R5C3 R4C5-R4C6 R4C8-R4C9 R5C2-R6C2 R5C4-R5C5 R5C7-R6C7 "
    "R5C8-R6C8 R6C3-R6C4 R6C4-R7C4 R6C5-R6C6 R6C5-R7C5 R6C6-R7C6 R6C8-R6C9 R6C9-R7C9 R7C5-R7C6 "
    "R8C3-R9C3 R8C7-R8C8 R9C3-R9C4"
)
KROPKI_BLACK = (
    "R1C1-R1C2 R1C5-R1C6 R1C5-R2C5 R2C7-R3C7 R2C8-R2C9 R3C9-R4C9 R4C2-R4C3 R4C2-R5C2 R4C5-R5C5 "
    "R4C6-R5C6 R5C6-R6C6 R5C7-R6C7 R6C2-R6C3 R6C7-R6C8 R7C3-R8C3 R8C3-R8C4 R8C4-R9C4"
)
KROPKI_SOLUTION = (
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
)


@pytest.mark.parametrize("negative", [["ratio"], ["ratio", "difference"]])
def test_the_audit_kropki_puzzle_is_unique(negative: list[str]) -> None:
    grid = fp_grid(9, {(0, 0): 4, (4, 4): 6})
    data = {
        "size": 9,
        "grid": grid,
        "nonconsecutive": "difference" not in negative,
        "negative": negative,
        "difference": [{"cells": pair.split("-")} for pair in KROPKI_WHITE.split()],
        "ratio": [{"cells": pair.split("-")} for pair in KROPKI_BLACK.split()],
    }
    (puzzle,) = read_puzzles(fp_link(data))
    for backend_name in available():
        result = get_backend(backend_name).solve(puzzle, timeout=60)
        assert result.status.value == "unique", backend_name
        assert result.solution == Grid(9, tuple(int(ch) for ch in KROPKI_SOLUTION))


def test_a_little_killer_of_zero_is_no_clue() -> None:
    """f-puzzles' solver skips a little killer arrow whose value is 0; we refused the file."""
    clues = [
        {"cell": "R0C1", "direction": "DR", "value": "0"},
        {"cell": "R0C2", "direction": "DR", "value": "7"},
    ]
    doc = fpuzzles_document({"size": 4, "grid": fp_grid(4), "littlekillersum": clues})
    assert doc["rules"] == [
        {"type": "littlekiller", "clues": [{"cells": ["r1c3", "r2c4"], "sum": 7}]}
    ]


# --- little killers: `cells` is optional ---


@pytest.mark.parametrize(
    ("cell", "direction", "cells"),
    [
        ("R0C1", "DR", [f"r{k}c{k + 1}" for k in range(1, 9)]),
        ("R0C4", "DL", ["r1c3", "r2c2", "r3c1"]),
        ("R10C5", "UR", ["r9c6", "r8c7", "r7c8", "r6c9"]),
        ("R4C10", "UL", ["r3c9", "r2c8", "r1c7"]),
        ("R6C0", "UR", ["r5c1", "r4c2", "r3c3", "r2c4", "r1c5"]),
        ("R10C8", "UL", ["r9c7", "r8c6", "r7c5", "r6c4", "r5c3", "r4c2", "r3c1"]),
    ],
)
def test_little_killer_walks_its_diagonal(cell: str, direction: str, cells: list[str]) -> None:
    clue = {"cell": cell, "direction": direction, "value": "20"}
    doc = fpuzzles_document({"size": 9, "grid": fp_grid(9), "littlekillersum": [clue]})
    assert doc["rules"] == [{"type": "littlekiller", "clues": [{"cells": cells, "sum": 20}]}]
    listed = {**clue, "cells": [c.upper() for c in cells]}  # both given: they must agree
    assert fpuzzles_document({"size": 9, "grid": fp_grid(9), "littlekillersum": [listed]}) == doc


@pytest.mark.parametrize(
    ("clue", "message"),
    [
        ({"cell": "R0C1", "direction": "DR", "cells": ["R1C2", "R2C3"]}, "are not the diagonal"),
        ({"cell": "R0C1", "direction": "UL"}, "the clue at R0C1 going UL misses the grid"),
        ({"cell": "R0C1", "direction": "NE"}, "direction 'NE' is not UR, DR, DL or UL"),
        ({"cell": "R2C2", "direction": "DR"}, "clue cell R2C2 is inside the grid"),
        ({"direction": "DR"}, "needs 'cell' and 'direction'"),
    ],
)
def test_little_killer_errors(clue: dict[str, Any], message: str) -> None:
    data = {"size": 9, "grid": fp_grid(9), "littlekillersum": [{**clue, "value": "10"}]}
    with pytest.raises(PuzzleError, match=re.escape(message)):
        fpuzzles_document(data)


def test_little_killer_without_cells_counts_like_its_definition() -> None:
    clue = {"cell": "R0C1", "direction": "DR", "value": "7"}  # r1c2 + r2c3 + r3c4 = 7
    (puzzle,) = read_puzzles(fp_link({"size": 4, "grid": fp_grid(4), "littlekillersum": [clue]}))
    expected = sum(g[0][1] + g[1][2] + g[2][3] == 7 for g in GRIDS_4X4)
    assert count_everywhere(puzzle) == expected == 42


# --- killer cages may overlap ---


def test_overlapping_cages_become_separate_killer_rules() -> None:
    cages = [
        {"cells": ["R1C1", "R1C2"], "value": "3"},
        {"cells": ["R1C2", "R2C2"], "value": "5"},
        {"cells": ["R3C3", "R3C4"]},
    ]
    (puzzle,) = read_text(json.dumps({"size": 4, "grid": fp_grid(4), "killercage": cages}))
    specs = [rule.to_spec() for rule in puzzle.rules]
    assert [len(spec["cages"]) for spec in specs] == [2, 1]  # disjoint cages share a rule
    expected = sum(g[0][0] + g[0][1] == 3 and g[0][1] + g[1][1] == 5 for g in GRIDS_4X4)
    assert count_everywhere(puzzle) == expected == 24


def test_magic_square_killer_is_unique() -> None:
    """A magic square in the centre box (eight overlapping 15-cages), anti-knight, both
    diagonals and four givens: one solution."""
    centre = [[f"R{r}C{c}" for c in (4, 5, 6)] for r in (4, 5, 6)]
    lines = centre + [list(col) for col in zip(*centre, strict=True)]
    lines += [["R4C4", "R5C5", "R6C6"], ["R6C4", "R5C5", "R4C6"]]
    data = {
        "size": 9,
        "grid": fp_grid(9, {(3, 0): 3, (3, 1): 8, (3, 2): 4, (8, 8): 2}),
        "diagonal+": True,
        "diagonal-": True,
        "antiknight": True,
        "killercage": [{"cells": line, "value": "15"} for line in lines],
    }
    (puzzle,) = read_puzzles(fp_link(data))
    assert sum(rule.to_spec()["type"] == "killer" for rule in puzzle.rules) == 4
    solution = "843567219275913846619428375384672951726159483951834627537286194462791538198345762"
    for backend_name in available():
        result = get_backend(backend_name).solve(puzzle, timeout=60)
        assert result.status.value == "unique", backend_name
        assert result.solution == Grid(9, tuple(int(ch) for ch in solution))


# --- regions, links and where errors point ---


def test_prime_size_without_regions_has_row_regions() -> None:
    """f-puzzles (and the solvers that read it) give a prime size 1×n regions, i.e. rows: a
    5x5 grid is a Latin square. First row and column 1-5 leave the 56 reduced Latin squares."""
    grid = fp_grid(5, {**{(0, c): c + 1 for c in range(5)}, **{(r, 0): r + 1 for r in range(5)}})
    (puzzle,) = read_puzzles(fp_link({"size": 5, "grid": grid}))
    assert (puzzle.shape.box_rows, puzzle.shape.box_cols) == (1, 5)
    assert count_everywhere(puzzle, limit=100) == 56


def test_cells_without_a_region_are_refused() -> None:
    grid = fp_grid(4)
    grid[0][0]["region"] = None
    with pytest.raises(PuzzleError, match=re.escape("r1c1 belongs to no region (region null)")):
        fpuzzles_document({"size": 4, "grid": grid})


@pytest.mark.parametrize(
    "prefix",
    [
        "https://sudokupad.app/fpuz",
        "https://sudokupad.app/fpuzzles",
        "https://f-puzzles.com/?load=",
    ],
)
def test_sudokupad_link_spellings(prefix: str) -> None:
    (puzzle,) = read_puzzles(prefix + KILLER_CAGES)
    assert puzzle.rules[0].to_spec()["cages"][0] == {"cells": ["r1c1", "r2c1"], "sum": 9}


def test_errors_name_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "lk.json"
    clue = {"cell": "R0C1", "direction": "UL", "value": "3"}
    path.write_text(json.dumps({"size": 4, "grid": fp_grid(4), "littlekillersum": [clue]}))
    assert main(["solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith(f"satsudoku: {path}: f-puzzles key 'littlekillersum'")
        and err.count("\n") == 1
    )


def test_errors_name_a_link_briefly(capsys: pytest.CaptureFixture[str]) -> None:
    grid = fp_grid(4)
    grid[1][1]["region"] = 7
    link = fp_link({"size": 4, "grid": grid, "title": "x" * 300})
    assert main(["solve", link]) == 1
    err = capsys.readouterr().err
    assert "r2c2: region 7 is not a region number 0..3" in err
    assert link[:40] in err and link not in err and len(err) < 160
