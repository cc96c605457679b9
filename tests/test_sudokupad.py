"""SudokuPad import: real published puzzles (SakanaAI Sudoku-Bench, MIT) against their published
solutions, every constraint style of SudokuPad's f-puzzles converter read back, drawings refused
or ignored, short links, zipped JSON and hostile payloads."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_puzzles, read_text
from satsudoku.io.fpuzzles import fpuzzles_document
from satsudoku.io.lzstring import lz_decompress_base64
from satsudoku.io.sclzip import unzip
from satsudoku.io.sudokupad import fpuzzles_data, sudokupad_json
from satsudoku.puzzle import Puzzle
from tests.test_fpuzzles import every_key, fp_grid, lz_compress_base64
from tests.test_fpuzzles_drawings import lz_bomb

BENCH = json.loads((Path(__file__).parent / "data" / "sudoku-bench-sample.json").read_text())
REAL = {entry["puzzle_id"]: entry for entry in BENCH["puzzles"]}


def solved(puzzle: Puzzle, backend: str = "cpsat") -> tuple[str, str]:
    result = get_backend(backend).solve(puzzle, limit=2, timeout=30)
    digits = "".join(map(str, result.solution.values)) if result.solution else ""
    return result.status.value, digits


def payload(puzzle_id: str) -> str:
    return str(REAL[puzzle_id]["encoded_puzzle"])


# --- real published puzzles ---


@pytest.mark.parametrize("puzzle_id", ["nhk2311h1", "nhk2204m"])
def test_classic_scl_puzzles_in_every_spelling(puzzle_id: str, tmp_path: Path) -> None:
    """The link, the payload alone (file, stdin-like text), the zipped JSON and plain JSON."""
    scl = payload(puzzle_id)
    zipped = lz_decompress_base64(scl[3:])
    plain = json.dumps(unzip(zipped))
    spellings = {
        "link": "https://sudokupad.app/" + scl,
        "ctc-link": "https://app.crackingthecryptic.com/sudoku/" + scl,
        "query-link": "https://sudokupad.app/?puzzleid=" + scl,
    }
    puzzles = [read_puzzles(link)[0] for link in spellings.values()]
    for name, text in (("payload.txt", scl), ("zipped.txt", zipped), ("plain.json", plain)):
        (tmp_path / name).write_text(text + "\n")
        puzzles.append(read_puzzles(tmp_path / name)[0])
    puzzles.append(read_text(scl)[0])
    expected = REAL[puzzle_id]["solution"]
    for puzzle in puzzles:
        assert puzzle.givens == puzzles[0].givens and puzzle.shape.box_rows == 3
        assert puzzle.title == REAL[puzzle_id]["title"] and puzzle.source == "Nikoli"
        assert solved(puzzle, "bitmask") == ("unique", expected)


@pytest.mark.filterwarnings("ignore:warning.*rules text names antiknight:UserWarning")
def test_converter_thermometers_and_rules_only_in_the_text() -> None:
    """'Knight Lite' (Just Kirb): thermometers in the converter's style are read; its
    anti-knight rule is only in the rules text, so alone the grid has several solutions,
    and with --rule antiknight exactly the published one."""
    (puzzle,) = read_puzzles("https://sudokupad.app/" + payload("NfHNgj2gQd"))
    assert [rule.to_spec()["type"] for rule in puzzle.rules] == ["thermometer"]
    assert len(puzzle.rules[0].to_spec()["lines"]) == 5
    assert puzzle.notes is not None and "knight's move" in puzzle.notes
    assert solved(puzzle)[0] == "multiple"
    (knight,) = read_text(payload("NfHNgj2gQd"), rules=["antiknight"])
    assert solved(knight) == ("unique", REAL["NfHNgj2gQd"]["solution"])


def test_native_drawings_are_refused_then_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    """'Introduction to Renban Lines' (Michael Lefkowitz): purple lines mean renban only in
    the rules text."""
    link = "https://sudokupad.app/" + payload(
        "sxsm_MichaelLefkowitz_3ac77fd64f5032647403d6ac353c0c20"
    )
    assert main(["solve", link]) == 1
    err = capsys.readouterr().err
    assert err.endswith(
        "SudokuPad: drawings whose meaning is in the rules text: lines ×4 (first: line F067F0 "
        "(thickness 10) through r4c1 r3c2 r2c2 r1c1); if the rules text says what such lines "
        "are, add --line F067F0=TYPE (thermometer, slowthermometer, renban, whispers, …), else "
        "--ignore-drawings to solve without them\n"
    )
    assert main(["solve", link, "--json", "--ignore-drawings"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["ignored"] == {"lines": 4} and record["status"] == "multiple"
    assert "ignored drawings" in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize(
    "puzzle_id", ["Four Corner Shots", "Mutation", "Broken Paperclip", "Raw Ping"]
)
def test_fpuzzles_payloads_solve_to_the_published_solution(puzzle_id: str) -> None:
    """SudokuPad links holding f-puzzles data: arrows, killers, odd cells, whispers (with lines
    marked as drawn from them), quadruples, kropki, palindromes, thermometers, XV."""
    entry = next(e for e in BENCH["puzzles"] if e["title"] == puzzle_id)
    (puzzle,) = read_puzzles("https://sudokupad.app/" + entry["encoded_puzzle"])
    assert puzzle.title == puzzle_id
    assert solved(puzzle) == ("unique", entry["solution"])
    (alone,) = read_text(entry["encoded_puzzle"])  # the payload alone, as a file holds it
    assert alone.rules == puzzle.rules


def test_fpuzzles_payload_with_rules_only_drawn_is_refused() -> None:
    """'The Two Headed Martian': slow thermometers and whispers exist only as drawn lines."""
    entry = next(e for e in BENCH["puzzles"] if e["title"] == "The Two Headed Martian")
    with pytest.raises(
        PuzzleError,
        match=r"line ×13, circle ×1 \(first: line BFBFBF .*\); if the .* add --line BFBFBF=TYPE",
    ):
        read_text(entry["encoded_puzzle"])


def test_a_link_without_a_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "https://sudokupad.app/"]) == 1
    assert capsys.readouterr().err.endswith(": SudokuPad link: no puzzle in it\n")


def test_short_links_name_the_way_to_the_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "https://sudokupad.app/idmeojecon"]) == 1
    assert capsys.readouterr().err == (
        "satsudoku: https://sudokupad.app/idmeojecon: SudokuPad link: 'idmeojecon' names a "
        "puzzle kept on SudokuPad's server, which satsudoku does not fetch; save "
        "https://sudokupad.app/api/puzzle/idmeojecon to a file and read that file\n"
    )


# --- every style of SudokuPad's f-puzzles converter (fpuzzlesdecoder.js), read back ---


def rc(name: str) -> list[float]:
    """An f-puzzles cell name's centre in SudokuPad coordinates (rows, columns from 0)."""
    r, c = name.upper().lstrip("R").split("C")
    return [int(r) - 0.5, int(c) - 0.5]


def centre(names: list[str]) -> list[float]:
    points = [rc(name) for name in names]
    return [sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)]


def converted(fp: dict[str, Any]) -> dict[str, Any]:
    """What SudokuPad's converter draws for an f-puzzles puzzle, written for this test from
    its styles (colours, sizes, offsets) only."""
    n = fp["size"]
    box = 3
    pad: dict[str, Any] = {
        "cells": [[dict(cell) for cell in row] for row in fp["grid"]],
        "regions": [
            [[r, c] for r in range(n) for c in range(n) if (r // box) * box + c // box == k]
            for k in range(n)
        ],
        "cages": [{"value": f"title: {fp['title']}"}, {"value": f"author: {fp['author']}"}],
        "lines": [],
        "arrows": [],
        "overlays": [],
        "underlays": [],
        "global": [],
    }
    for row in pad["cells"]:
        for cell in row:
            if not cell.pop("given", False):
                cell.pop("value", None)
    solution = "".join(map(str, fp["solution"]))
    pad["cages"].append({"value": f"solution: {solution}"})
    for cage in fp.get("killercage", []):
        entry: dict[str, Any] = {
            "unique": True,
            "cells": [[*map(int, rc(c))] for c in cage["cells"]],
        }
        if cage.get("value"):
            entry["value"] = cage["value"]
        pad["cages"].append(entry)
    for extra in fp.get("extraregion", []):
        cells = [[*map(int, rc(c))] for c in extra["cells"]]
        pad["cages"].append({"style": "extraregion", "unique": True, "cells": cells})
    for flag in ("antiknight", "antiking", "nonconsecutive"):
        if fp.get(flag):
            pad["global"].append(flag)
    for entry in fp.get("thermometer", []):
        for line in entry["lines"]:
            points = [rc(c) for c in line]
            pad["underlays"].append(
                {
                    "borderColor": "#CFCFCF",
                    "backgroundColor": "#CFCFCF",
                    "center": points[0],
                    "rounded": True,
                    "width": 0.85,
                    "height": 0.85,
                }
            )
            pad["lines"].append({"color": "#CFCFCF", "thickness": 21, "wayPoints": points})
    for entry in fp.get("palindrome", []):
        for line in entry["lines"]:
            pad["lines"].append(
                {"color": "#CFCFCF", "thickness": 16, "wayPoints": [rc(c) for c in line]}
            )
    for entry in fp.get("betweenline", []):
        for line in entry["lines"]:
            points = [rc(c) for c in line]
            for end in (points[0], points[-1]):
                pad["overlays"].append(
                    {
                        "borderColor": "#CFCFCF",
                        "backgroundColor": "#FFFFFF",
                        "center": end,
                        "fontSize": 16,
                        "borderSize": 2,
                        "rounded": True,
                        "width": 0.8,
                        "height": 0.8,
                    }
                )
            points[0] = [points[0][0], points[0][1] + 0.4]  # pulled in towards the next cell
            pad["lines"].append({"color": "#CFCFCF", "thickness": 2, "wayPoints": points})
    for entry in fp.get("arrow", []):
        for line in entry["lines"]:
            points = [rc(c) for c in line]
            dr, dc = points[1][0] - points[0][0], points[1][1] - points[0][1]
            dist = (dr * dr + dc * dc) ** 0.5
            points[0] = [
                points[0][0] + round(40 * (dr > 0) - 40 * (dr < 0)) / 100 / dist,
                points[0][1] + round(40 * (dc > 0) - 40 * (dc < 0)) / 100 / dist,
            ]
            pad["arrows"].append(
                {"color": "#a1a1a1", "headLength": 0.3, "thickness": 5, "wayPoints": points}
            )
        bulb = [rc(c) for c in entry["cells"]]
        rows = {p[0] for p in bulb}
        cols = {p[1] for p in bulb}
        if len(rows) > 1 and len(cols) > 1:  # a bent pill: two thick lines, not a circle
            pad["lines"].append(
                {"color": "#a1a1a1", "thickness": 35, "opacity": 0.7, "wayPoints": bulb}
            )
            pad["lines"].append(
                {"color": "#ffffff", "thickness": 25, "opacity": 0.8, "wayPoints": bulb}
            )
        else:
            pad["overlays"].append(
                {
                    "borderColor": "#a1a1a1",
                    "backgroundColor": "#ffffff",
                    "center": centre(entry["cells"]),
                    "fontSize": 16,
                    "borderSize": 5,
                    "rounded": True,
                    "text": "",
                    "width": 0.83 + max(cols) - min(cols),
                    "height": 0.83 + max(rows) - min(rows),
                }
            )
    for key, background in (("ratio", "#000000"), ("difference", "#FFFFFF")):
        for dot in fp.get(key, []):
            pad["overlays"].append(
                {
                    "borderColor": "#000000",
                    "backgroundColor": background,
                    "center": centre(dot["cells"]),
                    "rounded": True,
                    "width": 0.3,
                    "height": 0.3,
                    "text": dot.get("value", ""),
                }
            )
    for mark in fp.get("xv", []):
        pad["overlays"].append(
            {
                "backgroundColor": "#FFFFFF",
                "borderColor": "#FFFFFF",
                "center": centre(mark["cells"]),
                "fontSize": 21,
                "rounded": False,
                "width": 0.25,
                "height": 0.25,
                "text": mark["value"],
            }
        )
    for clue in fp.get("sandwichsum", []):
        pad["overlays"].append(
            {
                "backgroundColor": "#FFFFFF",
                "borderColor": "#FFFFFF",
                "center": rc(clue["cell"]),
                "fontSize": 32,
                "rounded": False,
                "width": 0.25,
                "height": 0.25,
                "text": clue["value"],
            }
        )
    directions = {"UR": (-1, 1), "DR": (1, 1), "DL": (1, -1), "UL": (-1, -1)}
    for clue in fp.get("littlekillersum", []):
        at = rc(clue["cell"])
        dr, dc = directions[clue["direction"]]
        pad["arrows"].append(
            {
                "color": "#000000",
                "thickness": 2,
                "wayPoints": [
                    [at[0] + 0.3 * dr, at[1] + 0.3 * dc],
                    [at[0] + 0.48 * dr, at[1] + 0.48 * dc],
                ],
            }
        )
        pad["overlays"].append(
            {
                "backgroundColor": "#FFFFFF",
                "borderColor": "#FFFFFF",
                "center": at,
                "fontSize": 28,
                "width": 0.25,
                "height": 0.25,
                "rounded": False,
                "text": clue.get("value") or "_",
            }
        )
    for key, rounded in (("odd", True), ("even", False)):
        for cell in fp.get(key, []):
            pad["underlays"].append(
                {
                    "borderColor": "#CFCFCF",
                    "backgroundColor": "#CFCFCF",
                    "center": rc(cell["cell"]),
                    "rounded": rounded,
                    "width": 0.7,
                    "height": 0.7,
                }
            )
    for quad in fp.get("quadruple", []):
        pad["overlays"].append(
            {
                "backgroundColor": "#FFFFFF",
                "borderColor": "#000000",
                "center": centre(quad["cells"]),
                "fontSize": 14,
                "rounded": True,
                "width": 0.7,
                "height": 0.7,
                "text": " ".join(map(str, quad["values"])),
            }
        )
    for flag, points in (("diagonal+", [[0, n], [n, 0]]), ("diagonal-", [[0, 0], [n, n]])):
        if fp.get(flag):
            pad["lines"].append({"color": "#34BBE6", "thickness": 2, "wayPoints": points})
    return pad


def converter_keys() -> dict[str, Any]:
    """test_fpuzzles' every-key puzzle (clues read off a known grid) without what the converter
    does not draw as a constraint, with valued black dots."""
    fp = every_key()
    for key in (
        "slowthermometer",
        "renban",
        "whispers",
        "clone",
        "minimum",
        "maximum",
        "negative",
        "ratio",
    ):
        fp.pop(key)
    fp["littlekillersum"] = fp["littlekillersum"][:1]  # the converter draws '_' for no value
    fp["ratio"] = [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R1C7", "R1C8"], "value": "3"}]
    fp["killercage"] = fp["killercage"][:1]
    return fp


def canonical(doc: dict[str, Any]) -> list[str]:
    return sorted(json.dumps(rule, sort_keys=True) for rule in doc["rules"])


def test_every_converter_style_reads_back() -> None:
    fp = converter_keys()
    pad = converted(fp)
    data, drawings = fpuzzles_data(pad)
    assert drawings == {}
    assert canonical(fpuzzles_document(data)) == canonical(fpuzzles_document(fp))
    (puzzle,) = read_text(json.dumps(pad))  # the stored solution obeys every rule read
    assert puzzle.solution is not None and puzzle.title == "every key"


@pytest.mark.parametrize(
    "bulb",
    [["R1C1"], ["R1C1", "R1C2"], ["R1C1", "R2C1", "R2C2"]],
    ids=["circle", "straight-pill", "bent-pill"],
)
def test_arrow_bulbs_read_back(bulb: list[str]) -> None:
    """Arrows sharing one bulb: a circle, a straight pill (one wide circle) or a bent pill
    (two thick lines)."""
    fp = {
        "size": 9,
        "grid": fp_grid(9),
        "title": "t",
        "author": "a",
        "solution": [],
        "arrow": [{"cells": bulb, "lines": [[bulb[-1], "R3C3", "R4C4"], [bulb[-1], "R3C4"]]}],
    }
    pad = converted(fp)
    pad["cages"].pop()
    data, drawings = fpuzzles_data(pad)
    assert drawings == {}
    assert canonical(fpuzzles_document(data)) == canonical(fpuzzles_document(fp))


def test_flags_diagonals_and_negative_constraints() -> None:
    fp = {
        "size": 9,
        "grid": fp_grid(9),
        "title": "flags",
        "author": "t",
        "solution": [1] * 81,
        "diagonal+": True,
        "diagonal-": True,
        "antiknight": True,
    }
    pad = converted(fp)
    pad["cages"].pop()  # no solution
    pad["global"] += ["disjoint", "antixv"]
    data, drawings = fpuzzles_data(pad)
    assert drawings == {}
    assert {k for k, v in data.items() if v is True} == {
        "diagonal+",
        "diagonal-",
        "antiknight",
        "disjointgroups",
    }
    assert data["negative"] == ["xv"]


def test_styles_off_by_a_little_are_drawings() -> None:
    fp = {
        "size": 9,
        "grid": fp_grid(9),
        "title": "t",
        "author": "a",
        "solution": [1] * 81,
        "thermometer": [{"lines": [["R1C1", "R1C2"]]}],
        "odd": [{"cell": "R5C5"}],
    }
    pad = converted(fp)
    pad["cages"].pop()
    pad["lines"][0]["thickness"] = 19  # Sudoku Maker's grey line: a thermometer or not?
    pad["underlays"][1]["backgroundColor"] = "#d4da31"  # a yellow circle: odd or not?
    _, drawings = fpuzzles_data(pad)
    assert drawings == {"lines": 1, "underlays": 2}  # the bulb too, without its line


# --- cages: only a whole total with unique digits is a killer cage ---


def four_by_four(cages: list[dict[str, Any]], solution: str | None = None) -> dict[str, Any]:
    pad: dict[str, Any] = {"cells": [[{} for _ in range(4)] for _ in range(4)], "cages": cages}
    pad["regions"] = [
        [[r, c] for r in range(4) for c in range(4) if (r // 2) * 2 + c // 2 == k] for k in range(4)
    ]
    if solution:
        pad["metadata"] = {"solution": solution, "title": "t", "rules": "r"}
    return pad


def test_cages_without_a_total_are_drawings() -> None:
    killer = {"cells": [[0, 0], [0, 1]], "value": 3, "unique": True}
    bare = {"cells": [[1, 0], [1, 1]], "unique": True}  # 'Prime Killer Snack' repeats in such
    loose = {"cells": [[2, 0], [2, 1]], "value": "7"}  # no 'unique': SudokuPad asks the rules
    data, drawings = fpuzzles_data(four_by_four([killer, bare, loose]))
    assert data["killercage"] == [{"cells": ["R1C1", "R1C2"], "value": "3"}]
    assert drawings == {"cages": 2}


def test_a_stored_solution_that_breaks_a_rule_read_is_refused() -> None:
    """If the setter's solution breaks a rule as read, the rules text means something else."""
    killer = {"cells": [[0, 0], [1, 0]], "value": 4, "unique": True}
    pad = four_by_four([killer], solution="1234341221434321")  # r1c1 + r2c1 = 1 + 3 = 4
    assert read_text(json.dumps(pad))[0].solution is not None
    pad["cages"][0]["value"] = 5
    with pytest.raises(
        PuzzleError,
        match="the solution stored with the puzzle does not solve the puzzle: breaks cage",
    ):
        read_text(json.dumps(pad))


def test_no_regions_means_rows_and_columns_only() -> None:
    pad = four_by_four([])
    del pad["regions"]
    (puzzle,) = read_text(json.dumps(pad))
    assert sorted(len(region) for region in puzzle.shape.regions()) == [4] * 4
    assert get_backend("bitmask").solve(puzzle, limit=1000).count == 576  # 4x4 Latin squares


# --- zipped JSON and hostile payloads ---


def test_many_pictures_are_read_in_one_pass() -> None:
    """64 pictures a cell (the cap) of each kind, all pointing at one bulb: read in linear
    time (pairs are found through indexes, not by scanning every picture for every other)."""
    cap = 64 * 81
    arrow = {
        "color": "#a1a1a1",
        "headLength": 0.3,
        "thickness": 5,
        "wayPoints": [[0.5, 0.5], [1.5, 1.5]],
    }
    bulb = {
        "borderColor": "#a1a1a1",
        "backgroundColor": "#ffffff",
        "rounded": True,
        "center": [0.5, 0.5],
        "width": 0.83,
        "height": 0.83,
    }
    between = {"color": "#CFCFCF", "thickness": 2, "wayPoints": [[0.5, 0.5], [0.5, 2.5]]}
    pad = {
        "cells": [[{} for _ in range(9)] for _ in range(9)],
        "arrows": [arrow] * cap,
        "overlays": [bulb] * cap,
        "lines": [between] * cap,
    }
    data, drawings = fpuzzles_data(pad)
    assert data["arrow"] == [{"cells": ["R1C1"], "lines": [["R1C1", "R2C2"]] * cap}]
    assert drawings == {"lines": cap, "overlays": cap - 1}
    pad["underlays"] = [{}] * (cap + 1)
    with pytest.raises(PuzzleError, match="'underlays': 5,185 pictures on 81 cells"):
        fpuzzles_data(pad)


def test_unzip_reads_puzzlezipper_text() -> None:
    text = "{ce:[[,{v:3},],[{v:1},,{}]],c:ff0000,c1:#0,r:t,x:f,te:'it\\'s',th:-1.5}"
    assert unzip(text) == {
        "cells": [[{}, {"value": 3}, {}], [{"value": 1}, {}, {}]],
        "color": "#ff0000",
        "borderColor": "#000000",
        "rounded": True,
        "x": False,
        "text": "it's",
        "thickness": -1.5,
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("scl" + lz_bomb(5000), "decompresses to over"),
        ("{ce:" + "[" * 100 + "]" * 100 + "}", "nested deeper than 64 levels"),
        ("{ce:[[{v:" + "9" * 40 + "}]]}", "a number of more than 20 digits"),
        ("{ce:[[{v:1}],[{}]]}", "'cells' must be 2 rows of 2 cells"),
        ("{ce:[[{v:7}]],re:[[[0,0]]]}", "SudokuPad cell r1c1: given 7 is not 1..1"),
        ("{ce:[[{},{}],[{},{}]],re:[[[0,0],[0,1]],[[0,0],[1,1]]]}", "r1c1 is in two regions"),
        ("{ce:[[{},{}],[{},{}]],re:[[[0,0],[0,9]],[[1,0],[1,1]]]}", "is not a cell [row, col]"),
        ("{ce:[[{},{}],[{},{}]],global:['chess']}", "global rule 'chess' is not supported"),
        ("{ce:[[{},{}],[{},{}]],sparkles:[1]}", "SudokuPad key 'sparkles' is not supported"),
        ("{ce:[[{},{}],[{},{}]]", "the puzzle text ends early"),
        (
            '{"cells": [[{}]], "overlays": [{"center": [1e999, 0.5]}]}',
            "overlays ×1 (first: overlay outside the grid); add",
        ),
        ("{ce:[[{v:'²'}]]}", "SudokuPad cell r1c1: given '²' is not 1..1"),
    ],
    ids=[
        "bomb",
        "deep",
        "long-number",
        "not-square",
        "given",
        "overlap",
        "outside",
        "global",
        "key",
        "truncated",
        "infinite",
        "superscript",
    ],
)
def test_hostile_and_broken_payloads_are_one_line(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pad.txt"
    path.write_text(text if text.startswith("scl") else "scl" + lz_compress_base64(text))
    assert main(["solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.startswith(f"satsudoku: {path}: "), err
    assert err.count("\n") == 1 and "Traceback" not in err


# --- Sudoku Maker's and SudokuPad's own editors (tests/data/sudokupad/README.md) ---

EDITOR = {
    entry["file"]: entry
    for entry in json.loads(
        (Path(__file__).parent / "data" / "sudokupad" / "editor-styles.json").read_text()
    )["puzzles"]
}


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("puzzle_0025.json", ["antiknight", "arrow"]),  # Ascension, Florian Wortmann
        ("puzzle_0030.json", ["littlekiller", "thermometer"]),  # Tendril Battle
        ("puzzle_0044.json", ["killer", "kropki"]),  # Erin Toler
        ("puzzle_0051.json", ["killer", "thermometer"]),  # Reticule, SkepticalMario
        ("puzzle_0055.json", ["arrow", "killer", "kropki"]),  # What's the difference?, Graggle
        ("puzzle_0070.json", ["killer", "littlekiller"]),  # Introduction to Killer Sudoku
        ("puzzle_0100.json", ["thermometer"]),  # MC Hammer, damo_89
    ],
)
def test_sudoku_maker_puzzles_solve_to_the_published_solution(name: str, kinds: list[str]) -> None:
    """Sudoku Maker's thermometers (grey line, grey bulb), arrows (grey arrow from a circle's
    rim, its straight runs given by their ends only), kropki dots, killer cages and little
    killers (a total outside, a short black arrow)."""
    entry = EDITOR[name]
    (puzzle,) = read_text(entry["encoded_puzzle"])
    assert sorted({rule.to_spec()["type"] for rule in puzzle.rules}) == kinds
    assert solved(puzzle, "sat") == ("unique", entry["solution"])


def test_sudoku_maker_xv_is_read_and_coloured_lines_stay_drawings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'Zeeta-Moth' (99%Sneaky): X/V, the thermometer and the cages are read; its renban,
    entropic and other coloured lines mean something only in the rules text."""
    scl = EDITOR["puzzle_0021.json"]["encoded_puzzle"]
    data, drawings = fpuzzles_data(sudokupad_json(scl))
    assert drawings == {"lines": 6}
    assert sorted(entry["value"] for entry in data["xv"]) == ["V", "X", "X", "X", "X"]
    assert data["thermometer"] == [{"lines": [["R1C5", "R1C4", "R2C3", "R3C3"]]}]
    assert main(["solve", scl]) == 1
    assert capsys.readouterr().err.endswith(
        "lines ×6 (first: line F067F0 (thickness 10) through r6c5 r6c4 r5c3 r4c3); if the rules "
        "text says what such lines are, add --line F067F0=TYPE (thermometer, slowthermometer, "
        "renban, whispers, …), else --ignore-drawings to solve without them\n"
    )


@pytest.mark.parametrize(
    ("name", "left"),
    [
        ("puzzle_0034.json", {"lines": 3, "underlays": 3}),  # "increase or stay the same"
        ("puzzle_0040.json", {"arrows": 9, "overlays": 8}),  # "Negative Arrows"
    ],
)
def test_a_rules_text_that_twists_a_constraint_keeps_its_pictures_drawings(
    name: str, left: dict[str, int]
) -> None:
    assert fpuzzles_data(sudokupad_json(EDITOR[name]["encoded_puzzle"]))[1] == left


def test_a_stored_solution_beyond_the_grid_size_is_refused() -> None:
    """'Unique Sum Sudoku': a 4x4 filled with digits 1-9; read as 1..4 it would be wrong."""
    with pytest.raises(PuzzleError, match="uses digit 8 on a 4x4 grid"):
        read_text(EDITOR["puzzle_0079.json"]["encoded_puzzle"])


def editor_pad(size: int, **pictures: list[dict[str, Any]]) -> dict[str, Any]:
    return {"cells": [[{} for _ in range(size)] for _ in range(size)], **pictures}


def test_sudokupad_editor_thermometers_share_a_bulb_and_dots_are_small() -> None:
    """SudokuPad's editor ('NGN', Walking Writer): thin grey lines from one grey 0.65 overlay
    bulb are two thermometers; 0.25 dots are kropki; without the bulb a line is a drawing."""
    bulb = {"center": [1.5, 2.5], "width": 0.65, "height": 0.65, "borderColor": "#CFCFCF"}
    pad = editor_pad(
        4,
        lines=[
            {"wayPoints": [[1.5, 2.5], [1.5, 1.5]], "color": "#CFCFCF", "thickness": 11},
            {"wayPoints": [[1.5, 2.5], [2.5, 2.5]], "color": "#cfcfcf", "thickness": 11},
            {"wayPoints": [[3.5, 3.5], [2.5, 3.5]], "color": "#CFCFCF", "thickness": 11},
        ],
        overlays=[
            {**bulb, "backgroundColor": "#CFCFCF", "rounded": True},
            {
                "center": [1, 1.5],
                "width": 0.25,
                "height": 0.25,
                "borderColor": "#000000",
                "backgroundColor": "#FFFFFF",
                "rounded": True,
                "text": "",
            },
            {
                "center": [3.5, 3],
                "width": 0.25,
                "height": 0.25,
                "borderColor": "#000000",
                "backgroundColor": "#000000",
                "rounded": True,
                "text": "",
            },
        ],
    )
    data, drawings = fpuzzles_data(pad)
    assert data["thermometer"] == [
        {"lines": [["R2C3", "R2C2"]]},
        {"lines": [["R2C3", "R3C3"]]},
    ]
    assert data["difference"] == [{"cells": ["R1C2", "R2C2"]}]
    assert data["ratio"] == [{"cells": ["R4C3", "R4C4"]}]
    assert drawings == {"lines": 1}


def maker_arrow(points: list[list[float]], **style: Any) -> dict[str, Any]:
    return {"wayPoints": points, "headLength": 0.35, "color": "#aaaf", "thickness": 3.2, **style}


MAKER_BULB = {
    "width": 0.82,
    "height": 0.82,
    "rounded": True,
    "backgroundColor": "#FFFFFF",
    "borderColor": "#aaaf",
    "thickness": 1.28,
}


def test_sudoku_maker_arrows_fill_in_straight_runs() -> None:
    """An arrow drawn from the rim of r1c1's circle to r4c4 passes r2c2 and r3c3; a jump along
    no row, column or diagonal, or a colour one shade off, is a drawing."""
    pad = editor_pad(
        9,
        arrows=[
            maker_arrow([[0.782, 0.782], [3.5, 3.5]]),
            maker_arrow([[0.5, 8.101], [0.5, 6.5], [2.5, 6.5]]),
            maker_arrow([[8.5, 0.899], [6.5, 1.5]]),  # r9c1 to r7c2: a knight's jump
            maker_arrow([[4.5, 4.899], [4.5, 6.5]], color="#abaf"),
        ],
        overlays=[
            {**MAKER_BULB, "center": [0.5, 0.5]},
            {**MAKER_BULB, "center": [0.5, 8.5]},
            {**MAKER_BULB, "center": [8.5, 0.5]},
            {**MAKER_BULB, "center": [4.5, 4.5]},
        ],
    )
    data, drawings = fpuzzles_data(pad)
    assert data["arrow"] == [
        {"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C3", "R4C4"]]},
        {"cells": ["R1C9"], "lines": [["R1C9", "R1C8", "R1C7", "R2C7", "R3C7"]]},
    ]
    assert drawings == {"arrows": 2, "overlays": 2}


def test_sudoku_maker_styles_read_only_exactly() -> None:
    """A Sudoku Maker thermometer 18 wide, or a 0.5 'dot', is some other drawing."""
    bulb = {
        "center": [0.5, 0.5],
        "width": 0.8,
        "height": 0.8,
        "rounded": True,
        "backgroundColor": "#cccf",
    }
    line = {"wayPoints": [[0.5, 0.5], [0.5, 3.5]], "color": "#CCCCCCFF"}
    read = fpuzzles_data(editor_pad(9, lines=[{**line, "thickness": 19.2}], underlays=[bulb]))
    assert read[0]["thermometer"] == [{"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]}]
    off = fpuzzles_data(editor_pad(9, lines=[{**line, "thickness": 18}], underlays=[bulb]))
    assert "thermometer" not in off[0] and off[1] == {"lines": 1, "underlays": 1}
    dot = {
        "center": [1, 0.5],
        "width": 0.5,
        "height": 0.5,
        "rounded": True,
        "backgroundColor": "#FFFFFF",
        "borderColor": "#000000",
    }
    assert fpuzzles_data(editor_pad(9, overlays=[dot]))[1] == {"overlays": 1}


def test_a_global_rule_in_the_rules_text_is_pointed_at_never_inferred(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """'Knight Lite': read without anti-knight (several solutions), with a warning naming
    --rule antiknight; a refusal for drawings names it too, on the same line."""
    link = "https://sudokupad.app/" + payload("NfHNgj2gQd")
    assert main(["solve", link, "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["status"] == "multiple"
    assert "rules text names antiknight" in captured.err and "--rule antiknight" in captured.err
    pad = sudokupad_json(payload("NfHNgj2gQd"))
    pad["lines"].append(
        {"wayPoints": [[0.5, 0.5], [0.5, 2.5]], "color": "#f067f0", "thickness": 10}
    )
    (tmp_path / "knight.json").write_text(json.dumps(pad))
    assert main(["solve", str(tmp_path / "knight.json")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith(
        "lines ×1 (first: line F067F0 (thickness 10) through r1c1 r1c3); if the rules text "
        "says what such lines are, add --line F067F0=TYPE (thermometer, slowthermometer, "
        "renban, whispers, …), else --ignore-drawings to solve without them; its rules text "
        "names antiknight: add --rule antiknight if it applies\n"
    )


def test_a_little_killer_needs_a_total_and_a_summing_rules_text() -> None:
    """Sudoku Maker's little killer (total, arrow 0.234 out along the diagonal) is read; the
    arrow alone, or a rules text where the diagonals multiply ('Cross Product'), is drawn."""
    total = {
        "center": [-0.5, 3.5],
        "width": 1,
        "height": 1,
        "text": 7,
        "fontSize": 32,
        "color": "#000",
        "rounded": True,
        "stroke": "none",
    }
    arrow = {
        "wayPoints": [[-0.266, 3.266], [-0.068, 3.068]],
        "headLength": 0.18,
        "color": "#000000",
        "thickness": 3,
    }
    pad = editor_pad(
        4,
        overlays=[total],
        arrows=[arrow],
        regions=[
            [[r, c] for r in range(4) for c in range(4) if (r // 2) * 2 + c // 2 == k]
            for k in range(4)
        ],
    )
    data, drawings = fpuzzles_data(pad)
    assert data["littlekillersum"] == [{"cell": "R0C4", "direction": "DL", "value": "7"}]
    assert drawings == {}
    assert fpuzzles_data({**pad, "overlays": []})[1] == {"arrows": 1}
    pad["metadata"] = {"rules": "Every indicated diagonal has the same product."}
    assert fpuzzles_data(pad)[1] == {"arrows": 1, "overlays": 1}


def test_a_line_longer_than_any_constraint_is_a_drawing_read_in_bounded_time() -> None:
    """A line zigzagging 400,000 times across the grid stops being read at 4·n² cells (the
    same list shared by 50 pictures would otherwise cost 20 million point lookups)."""
    points = [[0.5, 0.5], [8.5, 8.5]] * 200_000
    bulb = {
        "center": [0.5, 0.5],
        "width": 0.8,
        "height": 0.8,
        "rounded": True,
        "backgroundColor": "#cccf",
    }
    line = {"wayPoints": points, "color": "#cccf", "thickness": 19}
    start = time.process_time()
    _, drawings = fpuzzles_data(editor_pad(9, lines=[line] * 50, underlays=[bulb]))
    assert drawings == {"lines": 50, "underlays": 1}
    assert time.process_time() - start < 1.0
