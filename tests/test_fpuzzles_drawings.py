"""f-puzzles files as setters write them: drawings that render a stored constraint, drawings
whose meaning is only in the rules text (refused, or left out with --ignore-drawings), the
setter's title/author/rules, whispers differences, and hostile payloads (issue 9 §2, 10 §3/§7)."""

from __future__ import annotations

import json
import math
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.io import read_puzzles, read_text
from satsudoku.io.fpuzzles import fpuzzles_document
from satsudoku.io.limits import MAX_PAYLOAD_CHARS
from satsudoku.io.lzcompress import Base64Bits
from satsudoku.io.lzstring import lz_decompress_base64
from satsudoku.io.sudokupad_lines import parse_line_type
from tests.test_fpuzzles import (
    GRIDS_4X4,
    count_everywhere,
    fp_grid,
    fp_link,
    lz_compress_base64,
)

Grid4 = tuple[tuple[int, ...], ...]


def at(grid: Grid4, name: str) -> int:
    """The digit of an f-puzzles cell name such as R2C3."""
    r, c = name.upper().lstrip("R").split("C")
    return grid[int(r) - 1][int(c) - 1]


def renban_holds(grid: Grid4, line: list[str]) -> bool:
    digits = sorted(at(grid, cell) for cell in line)
    return digits == list(range(digits[0], digits[0] + len(digits)))


def slow_thermo_holds(grid: Grid4, line: list[str]) -> bool:
    digits = [at(grid, cell) for cell in line]
    return all(a <= b for a, b in zip(digits, digits[1:], strict=False))


def whispers_holds(grid: Grid4, line: list[str], difference: int) -> bool:
    digits = [at(grid, cell) for cell in line]
    return all(abs(a - b) >= difference for a, b in zip(digits, digits[1:], strict=False))


RENBAN = ["R1C2", "R2C2", "R2C3"]
SLOW = ["R4C1", "R3C1", "R3C2"]


def renban_file(**drawings: Any) -> dict[str, Any]:
    """A 4x4 with a renban and a slow thermometer, drawn as rangsk's f-puzzles tool exports
    them, plus `drawings`."""
    data: dict[str, Any] = {
        "size": 4,
        "grid": fp_grid(4),
        "renban": [{"lines": [RENBAN]}],
        "slowthermometer": [{"lines": [SLOW]}],
        "line": [
            {"lines": [RENBAN], "outlineC": "#F067F0", "width": 0.25, "fromConstraint": "Renban"},
            {"lines": [SLOW], "outlineC": "#6495ED", "fromConstraint": "Slow Thermometer"},
        ],
        "circle": [
            {"cells": [SLOW[0]], "baseC": "#6495ED", "fromConstraint": "Slow Thermometer"},
        ],
    }
    for key, entries in drawings.items():
        data[key] = data.get(key, []) + entries
    return data


def oracle_count() -> int:
    return sum(renban_holds(g, RENBAN) and slow_thermo_holds(g, SLOW) for g in GRIDS_4X4)


def test_drawings_of_stored_constraints_are_accepted_silently() -> None:
    (puzzle,) = read_text(json.dumps(renban_file()))
    assert {rule.to_spec()["type"] for rule in puzzle.rules} == {"renban", "slowthermometer"}
    assert puzzle.ignored == ()
    assert count_everywhere(puzzle) == oracle_count() == 15


def test_older_isnewconstraint_lines_are_recognised_by_colour() -> None:
    old = {"lines": [RENBAN], "outlineC": "#C060C0", "isNewConstraint": True}
    data = renban_file()
    data["line"] = [old]
    (puzzle,) = read_text(json.dumps(data))
    assert count_everywhere(puzzle) == oracle_count()


def test_drawings_covering_a_stored_constraint_are_accepted() -> None:
    data = renban_file(
        line=[{"lines": [list(reversed(RENBAN))], "outlineC": "#000000"}],  # same cells
        circle=[{"cells": ["R1C4"], "width": 0.8}],  # the thermometer's bulb
        cage=[{"cells": ["R1C3", "R1C4"]}, {"cells": ["R4C3", "R4C4"]}],  # clone outlines
        text=[{"cells": ["R2C2"], "value": ""}],  # an empty text draws nothing
    )
    data["thermometer"] = [{"lines": [["R1C4", "R2C4"]]}]
    data["clone"] = [{"cells": ["R1C3", "R1C4"], "cloneCells": ["R4C3", "R4C4"]}]
    (puzzle,) = read_text(json.dumps(data))
    assert puzzle.ignored == ()


def test_every_blocking_drawing_is_named_with_its_count() -> None:
    data = renban_file(
        line=[{"lines": [["R2C1", "R2C2"]]}, {"lines": [["R4C4", "R3C4"]], "outlineC": "#f00"}],
        circle=[{"cells": ["R2C2"]}],
        cage=[{"cells": ["R3C3", "R3C4"], "value": "DR5"}],
        # marked, but the constraint it claims to draw is not in the file
        rectangle=[{"cells": ["R1C4"], "fromConstraint": "Palindrome"}],
    )
    with pytest.raises(PuzzleError) as info:
        fpuzzles_document(data)
    assert info.value.message == (
        "f-puzzles: drawings whose meaning is in the rules text: line ×2, circle ×1, "
        "rectangle ×1, cage ×1 (first: line through r2c1 r2c2); add --ignore-drawings to "
        "solve without them"
    )


def test_ignore_drawings_solves_without_them_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = renban_file(
        line=[{"lines": [["R2C1", "R2C2"]]}], text=[{"cells": ["R0C1"], "value": "7"}]
    )
    path = tmp_path / "drawn.json"
    path.write_text(json.dumps(data))
    assert main(["solve", str(path), "--json"]) == 1
    err = capsys.readouterr().err
    assert "line ×1, text ×1 (first: line through r2c1 r2c2); add --ignore-drawings" in err
    assert err.count("\n") == 1

    assert main(["solve", str(path), "--json", "--limit", "100", "--ignore-drawings"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["ignored"] == {"line": 1, "text": 1}
    assert record["count"] == oracle_count()  # the stored constraints still hold
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"satsudoku: warning: {path}: ignored drawings")
    assert "line ×1, text ×1" in captured.err


def test_title_author_and_rules_text_are_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = renban_file()
    data.update(title="Renban slow", author="A. Setter", ruleset="Normal sudoku rules apply.\n")
    link = fp_link(data)
    assert main(["convert", link]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["title"], doc["source"], doc["notes"]) == (
        "Renban slow",
        "A. Setter",
        "Normal sudoku rules apply.",
    )
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc))
    (again,) = read_puzzles(path)
    assert (again.source, again.notes) == ("A. Setter", "Normal sudoku rules apply.")
    assert main(["solve", link, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["title"] == "Renban slow"
    assert record["about"] == {"source": "A. Setter", "notes": "Normal sudoku rules apply."}


def test_a_lone_surrogate_in_the_title_is_replaced(capsys: pytest.CaptureFixture[str]) -> None:
    """JSON may escape half a surrogate pair ('\\ud800'); no output encoding can write it."""
    text = json.dumps({"size": 4, "title": "a\ud800b", "author": "\udfff", "grid": fp_grid(4)})
    (puzzle,) = read_text(text)
    assert (puzzle.title, puzzle.source) == ("a\ufffdb", "\ufffd")


# --- whispers: an entry's value is its difference; without one, f-puzzles' ceil(size / 2) ---


@pytest.mark.parametrize(
    ("size", "value", "difference"),
    [(9, None, 5), (9, "4", 4), (9, "", 5), (6, None, 3), (4, None, 2), (7, None, 4)],
)
def test_whispers_difference(size: int, value: str | None, difference: int) -> None:
    entry: dict[str, Any] = {"lines": [["R1C1", "R2C1"]]}
    if value is not None:
        entry["value"] = value
    doc = fpuzzles_document({"size": size, "grid": fp_grid(size), "whispers": [entry]})
    assert doc["rules"] == [
        {"type": "whispers", "lines": [["r1c1", "r2c1"]], "difference": difference}
    ]


def test_dutch_and_german_whispers_count_like_their_definitions() -> None:
    german, dutch = ["R1C1", "R1C2", "R2C2"], ["R3C3", "R4C3"]
    data = {
        "size": 4,
        "grid": fp_grid(4),
        "whispers": [{"lines": [german]}, {"lines": [dutch], "value": "3"}],
    }
    (puzzle,) = read_text(json.dumps(data))
    expected = sum(
        whispers_holds(g, german, math.ceil(4 / 2)) and whispers_holds(g, dutch, 3)
        for g in GRIDS_4X4
    )
    assert count_everywhere(puzzle) == expected == 8


# --- issue 10 §7: malformed files are one located line, exit 1, no traceback ---


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"size": 4, "grid": 5}, "f-puzzles 'grid' must be 4 rows of 4 cells"),
        ({"size": 4, "grid": None}, "f-puzzles 'grid' must be 4 rows of 4 cells"),
        (
            {"size": 4, "grid": fp_grid(4), "negative": ["ratio"], "ratio": [{"cells": ["R1C1"]}]},
            "a dot joins two cells, not 1 (r1c1)",
        ),
        (
            {"size": 4, "grid": fp_grid(4), "difference": [{"cells": ["R1C1", "R1C2", "R1C3"]}]},
            "a dot joins two cells, not 3",
        ),
        (
            {"size": 4, "grid": fp_grid(4), "xv": [{"cells": "R1C1", "value": "X"}]},
            "'cells' must be a list",
        ),
        ({"size": 65, "grid": []}, "f-puzzles 'size' must be an integer 1..64, not 65"),
        ({"size": True, "grid": []}, "f-puzzles 'size' must be an integer 1..64, not True"),
        ({"size": 4, "grid": fp_grid(4), "line": 3}, "'line' must be a list of objects"),
    ],
)
def test_malformed_files_are_one_line(
    data: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"satsudoku: {path}: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("size", [61, 62, 63, 64])
def test_largest_sizes_read(size: int) -> None:
    (plain,) = read_text(json.dumps({"size": size, "grid": fp_grid(size)}))
    assert plain.size == size
    grid = fp_grid(size)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            cell["region"] = (r + c) % size  # a jigsaw of broken diagonals, every label in use
    (jigsaw,) = read_text(json.dumps({"size": size, "grid": grid}))
    regions = sorted(sorted(region) for region in jigsaw.shape.regions())
    assert regions == sorted(
        sorted((r, c) for r in range(size) for c in range(size) if (r + c) % size == k)
        for k in range(size)
    )


def nested(depth: int) -> str:
    return '{"size": 4, "grid": []' + ', "x": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (nested(100_000), "nested deeper than 64 levels"),
        ('{"size": 4, "grid": [], "killercage": [{"value": ' + "9" * 5000 + "}]}", "digits"),
    ],
    ids=["deep", "huge-integer"],
)
@pytest.mark.parametrize("packed", [False, True], ids=["json", "link"])
def test_hostile_json_is_refused(
    payload: str, message: str, packed: bool, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if packed:
        argument = "https://f-puzzles.com/?load=" + lz_compress_base64(payload)
    else:
        argument = str(tmp_path / "hostile.json")
        Path(argument).write_text(payload)
    assert main(["solve", argument]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


# --- issue 10 §3: an lz-string bomb. Each code names the entry being defined (LZW's corner
# case), so entry k is k+1 characters long: n codes of ~14 bits decode to ~n²/2 characters ---


def lz_bomb(codes: int) -> str:
    """An lz-string stream of one literal 'a' then `codes` self-referencing codes."""
    out = Base64Bits()
    out.put(0, 2)  # an 8-bit literal starts the stream
    out.put(ord("a"), 8)
    defined, bits, enlarge = 4, 3, 4  # 3 control codes + 'a'; the decoder's code width state
    for _ in range(codes):
        out.put(defined, bits)
        defined += 1
        enlarge -= 1
        if enlarge == 0:
            enlarge, bits = 1 << bits, bits + 1
    out.put(2, bits)
    return out.text()


def test_small_self_referencing_stream_decodes() -> None:
    assert lz_decompress_base64(lz_bomb(3)) == "a" + "aa" + "aaa" + "aaaa"


def test_bomb_is_refused_in_process() -> None:
    bomb = lz_bomb(5000)  # 12.5 million characters if decoded
    assert len(bomb) < 12_000
    with pytest.raises(PuzzleError, match=f"over {MAX_PAYLOAD_CHARS:,} characters"):
        lz_decompress_base64(bomb)


def test_bomb_is_refused_under_a_memory_cap(tmp_path: Path) -> None:
    """45 KB that would decode to 400 million characters (the old decoder: >800 MB) ends in
    one line, exit 1, inside 300 MB of address space beyond the interpreter's own."""
    path = tmp_path / "bomb.txt"
    path.write_text(lz_bomb(20_000))
    assert len(path.read_text()) < 50_000
    baseline = _address_space_of_an_idle_satsudoku()
    cap = baseline + 300 * 1024 * 1024

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    run = subprocess.run(
        [sys.executable, "-m", "satsudoku", "solve", "--format", "fpuzzles", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit,
    )
    assert run.returncode == 1, run.stderr
    assert "characters, far more than any puzzle holds" in run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def _address_space_of_an_idle_satsudoku() -> int:
    """Virtual memory of `python -m satsudoku --help`'s imports, which the cap sits above."""
    probe = (
        "import resource, satsudoku.cli, satsudoku.io;"
        "print(int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize())"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return int(out.stdout)


def _painted(data: dict[str, Any], cells: list[str], colour: str, key: str = "c") -> None:
    for name in cells:
        r, c = name.upper().lstrip("R").split("C")
        data["grid"][int(r) - 1][int(c) - 1][key] = colour


def test_painted_cells_are_a_drawing_unless_they_paint_stored_constraints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """f-puzzles 'Magic Squares' (y28hom23) paints 27 cells and says in its rules text that
    each blue area is a magic square: read as a classic it would be a confident `multiple`."""
    data = renban_file()
    _painted(data, ["R1C1", "R1C2", "R2C1", "R2C2"], "#6495ED")  # a rule only the text states
    with pytest.raises(PuzzleError) as info:
        fpuzzles_document(data)
    assert info.value.message == (
        "f-puzzles: drawings whose meaning is in the rules text: cell colour ×4 (first: cell "
        "colour 6495ED on r1c1 r1c2 r2c1 r2c2); add --ignore-drawings to solve without them"
    )
    path = tmp_path / "painted.json"
    path.write_text(json.dumps(data))
    assert main(["solve", str(path), "--json", "--limit", "100", "--ignore-drawings"]) == 0
    assert json.loads(capsys.readouterr().out)["ignored"] == {"cell colour": 4}

    explained = renban_file()
    explained["extraregion"] = [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R4C3", "R4C4"]}]
    _painted(explained, ["R1C1", "R1C2", "R4C3", "R4C4"], "#cfcfcf")  # both extra regions
    _painted(explained, RENBAN, "#F067F0", key="cArray")  # not a list: no colour read
    _painted(explained, ["R3C3"], "#ff0000", key="highlight")  # the solver's own mark
    (puzzle,) = read_text(json.dumps(explained))
    assert puzzle.ignored == () and len(puzzle.rules) == 4  # renban, slow thermo, 2 regions
    _painted(explained, ["R2C4"], "#CFCFCF")  # one more grey cell: no longer only regions
    with pytest.raises(
        PuzzleError,
        match="cell colour ×5 \\(first: cell colour CFCFCF on r1c1 r1c2 r2c4 r4c3 r4c4\\);",
    ):
        fpuzzles_document(explained)


def test_lockout_lines_and_their_drawings_are_read() -> None:
    """The f-puzzles lockout tool's files (Sam Cappleman-Lynes' 'Lockout Lines', f-puzzles
    y6ua99nn, 2022) keep the lines under `lockout` and draw them, diamonds included, as lines
    and rectangles marked `isLLConstraint`."""
    line = ["R3C2", "R3C3", "R3C4", "R3C5", "R3C6", "R3C7"]
    drawn = {"isLLConstraint": True, "outlineC": "#0000FF"}
    data: dict[str, Any] = {
        "size": 9,
        "grid": fp_grid(9),
        "lockout": [{"lines": [line]}],
        "line": [{**drawn, "lines": [line]}],
        "rectangle": [{**drawn, "cells": [line[0]]}, {**drawn, "cells": [line[-1]]}],
    }
    document = fpuzzles_document(data)
    assert document["rules"] == [{"type": "lockout", "lines": [[c.lower() for c in line]]}]
    del data["lockout"]  # a drawing marked for a tool whose constraint is absent
    with pytest.raises(PuzzleError, match=r"line ×1, rectangle ×2 \(first: line"):
        fpuzzles_document(data)


def test_a_rules_text_puzzle_that_is_not_unique_gets_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Published f-puzzles files whose rule lives only in the text ('digits along each arrow
    multiply', 'Product Arrow', f-puzzles ya824y7m) came out unsatisfiable or multiple with
    nothing said: 27 of 615 files in Nickleaton/sudoku. The verdict stays; stderr doubts it."""
    text = "Normal sudoku rules apply. Digits along each arrow multiply to the circle."
    cases = {
        "unsat.json": ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "20"}]}, "unsat"),
        "many.json": ({}, "multiple"),
    }
    for name, (keys, status) in cases.items():
        for ruleset in (text, None):
            data = {"size": 4, "grid": fp_grid(4), **keys}
            if ruleset:
                data["ruleset"] = ruleset
            path = tmp_path / name
            path.write_text(json.dumps(data))
            assert main(["solve", str(path)]) == 0
            out, err = capsys.readouterr()
            assert status in out
            warned = "has a rules text: a rule stated only there is not read" in err
            assert warned == bool(ruleset) and err.count("\n") == int(warned)
    line = "12.43.12214.4.21"  # unique: 1234 3412 2143 4321
    givens = {(i // 4, i % 4): int(ch) for i, ch in enumerate(line) if ch != "."}
    unique = {"size": 4, "grid": fp_grid(4, givens), "ruleset": text}
    (tmp_path / "unique.json").write_text(json.dumps(unique))
    assert main(["solve", str(tmp_path / "unique.json")]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "key,entry,first",
    [
        (
            "circle",
            {"cells": ["R2C3"], "baseC": "#D07DE0", "outlineC": "#D07DE0"},
            "(first: circle D07DE0 on r2c3); if the rules text says what such cells are, add "
            "--cell D07DE0:round=TYPE, else --ignore-drawings",
        ),
        (
            "rectangle",
            {"cells": ["R1C1", "R1C2"], "baseC": "#FFFFFF", "value": "3"},
            "(first: rectangle FFFFFF '3' on r1c1 r1c2); if the rules text says what such cells "
            "are, add --cell FFFFFF:square=TYPE (sum, contains, largest, excludes, greaterthan), "
            "else --ignore-drawings",
        ),
        (
            "cage",
            {"cells": ["R1C1", "R2C1"], "value": "12", "outlineC": "#000000"},
            "(first: cage '12' on r1c1 r2c1); if the rules text says what such cages are, add "
            "--cage TYPE (contains), else --ignore-drawings",
        ),
    ],
)
def test_refusal_names_the_first_drawing_and_its_cells(
    key: str, entry: dict[str, Any], first: str
) -> None:
    """A drawing only the rules text explains is refused in one line naming its key, colour,
    text and cells (and the --cell option for a one-cell circle or square)."""
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], key: [entry]}
    with pytest.raises(PuzzleError) as info:
        fpuzzles_document(data)
    assert f"rules text: {key} ×1 {first} to solve without them" in info.value.message
    assert "\n" not in info.value.message


def test_a_line_through_a_quadruples_cells_is_a_line_not_its_picture() -> None:
    """clover!'s "Renban/Quadruples" (Nickleaton/sudoku y364zc6b) draws eight of its twelve
    grey renban lines through exactly the four cells of a quadruple. A line drawing renders
    a stored line only: read as the quadruple's picture, those lines were dropped, and with
    --line cccccc=renban the puzzle came out multiple. Here a 4x4 line over a quadruple's
    four centre cells is refused untyped and read as a renban when typed: the four digits
    then differ (brute-force count)."""
    quad = ["R2C2", "R2C3", "R3C2", "R3C3"]
    line = {"lines": [["R2C2", "R2C3", "R3C3", "R3C2"]], "outlineC": "#CCCCCC", "width": 0.5}
    data = {"size": 4, "grid": fp_grid(4), "quadruple": [{"cells": quad, "values": [2]}]}
    data["line"] = [line]
    with pytest.raises(PuzzleError, match=r"line ×1 \(first: line CCCCCC"):
        read_text(json.dumps(data))
    (puzzle,) = read_text(json.dumps(data), lines=[parse_line_type("cccccc=renban")])
    assert sorted(rule.type for rule in puzzle.rules) == ["quadruple", "renban"]
    expected = sum(1 for g in GRIDS_4X4 if len({at(g, c) for c in quad}) == 4)
    assert 0 < expected < sum(1 for g in GRIDS_4X4 if 2 in {at(g, c) for c in quad})
    assert get_backend("sat").solve(puzzle, limit=400).count == expected


def test_a_numbered_cage_over_a_stored_cage_is_not_its_picture() -> None:
    """Nickleaton/sudoku ycg5n5rm ("Ordered Sums") stores killer cages without totals and
    draws over each a cage numbered with its rank ("cages marked with a 1 have the lowest
    total"). The number says more than the stored cage: such a drawing is refused, where it
    was taken for the cage's picture and the number dropped."""
    cells = ["R1C1", "R1C2"]
    data = {"size": 4, "grid": fp_grid(4), "killercage": [{"cells": cells}]}
    data["cage"] = [{"cells": cells, "value": "3", "outlineC": "#000000"}]
    with pytest.raises(PuzzleError, match=r"cage ×1 \(first: cage '3' on r1c1 r1c2\)"):
        read_text(json.dumps(data))
    data["cage"] = [{"cells": cells, "outlineC": "#000000"}]  # an outline alone is its picture
    (puzzle,) = read_text(json.dumps(data))
    assert [rule.type for rule in puzzle.rules] == ["killer"]
