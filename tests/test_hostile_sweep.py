"""Holes found by the attacker sweep of 2026-11-27 (brief h51), each with the hostile input that
opened it: cell names of 5,000 digits, titles that break a line of output or an SVG, `bench`'s
own files (--out/--plot through a symlink, --sample on a line without end, --resume of a damaged
or hostile rows file), an alphabet holding the blank, `generate --regions` on a pipe. Each fails
in one line with a non-zero exit, and writes nothing it should not.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.commands import generate as generate_command
from satsudoku.constraints import Sum
from satsudoku.deadline import OutOfTime
from satsudoku.encoders import cnf
from satsudoku.errors import PuzzleError
from satsudoku.grid import regular_shape
from satsudoku.io import iter_puzzles
from satsudoku.render.svg import xml_text
from satsudoku.rules import parse_cell
from satsudoku.search.sums import SumSupport
from satsudoku.tools.minimal import Reduction, find_redundant, reduce_puzzle
from tests.conftest import BUNDLED, REPO

GIVENS = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert captured.err.startswith("satsudoku: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err
    return captured.err


@pytest.mark.parametrize("name", ["r" + "1" * 5000 + "c1", "r1c" + "9" * 30, "r１c1", "r1c١"])
def test_cell_names_with_long_or_non_ascii_numbers_are_refused(name: str) -> None:
    # int() of 5,000 digits raised ValueError (a traceback); '１' read as 1.
    with pytest.raises(PuzzleError, match="is not a cell"):
        parse_cell(name, regular_shape(3, 3), "cells[0]")


def test_document_and_fpuzzles_cells_of_5000_digits_fail_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cell = "R" + "1" * 5000 + "C1"
    document = {"size": 9, "rules": [{"type": "killer", "cages": [{"cells": [cell], "sum": 3}]}]}
    fpuzzles = {
        "size": 9,
        "grid": [[{} for _ in range(9)] for _ in range(9)],
        "killercage": [{"cells": [cell, "R1C2"], "value": "5"}],
    }
    for name, content in (("doc.json", document), ("fp.json", fpuzzles)):
        path = tmp_path / name
        path.write_text(json.dumps(content))
        assert main(["solve", str(path)]) == 1
        assert "is not a cell" in _one_line_error(capsys)


def test_a_title_cannot_add_lines_or_escapes_to_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = "1" * 81 + " unique"
    title = f"T\n{fake}\x1b[31m\u2028\u202e"
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"size": 9, "givens": GIVENS, "title": title}))
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# puzzle 1 (T ") and "): unique [bitmask, " in out[0]
    assert not any(line.startswith("1" * 81) for line in out) and "\x1b" not in "".join(out)
    assert (
        "".join(out[1:]).replace(" ", "").replace("|", "").replace("-", "").replace("+", "")
        == SOLUTION
    )


def test_a_title_with_a_nul_still_makes_a_well_formed_svg_and_png(tmp_path: Path) -> None:
    # XML forbids NUL even escaped: the SVG was ill-formed and cairosvg died with a traceback.
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"size": 4, "title": "</text><b>&amp;\u0000\u0001"}))
    svg = tmp_path / "t.svg"
    assert main(["render", str(path), "--output", str(svg)]) == 0
    title = ElementTree.parse(svg).getroot().find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "</text><b>&amp;  "
    assert xml_text("a\x00<\ud800b") == "a&lt;b"  # other text drawn: symbols, clues
    pytest.importorskip("cairosvg", reason="the png extra is not installed")
    png = tmp_path / "t.png"
    assert main(["render", str(path), "--output", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")


def _bench(tmp_path: Path, *extra: str) -> int:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(GIVENS + "\n")
    return main(["bench", str(puzzles), "--backends", "bitmask", "--no-progress", *extra])


def test_bench_out_and_plot_refuse_a_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Someone else's file behind a link in a shared /tmp was overwritten by --out.
    victim = tmp_path / "victim.txt"
    victim.write_text("victim\n")
    for flag, name in (("--out", "rows.csv"), ("--out", "rows.jsonl"), ("--plot", "p.png")):
        link = tmp_path / name
        link.symlink_to(victim)
        assert _bench(tmp_path, flag, str(link)) == 1
        assert _one_line_error(capsys).endswith(
            f"{flag} {link}: is a symbolic link (name its target)\n"
        )
    assert victim.read_text() == "victim\n"


def test_bench_out_refuses_a_named_pipe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A pipe planted at the rows file's name made bench wait for a reader, in silence.
    pipe = tmp_path / "rows.csv"
    os.mkfifo(pipe)
    assert _bench(tmp_path, "--out", str(pipe)) == 1
    assert _one_line_error(capsys).endswith(f"--out {pipe}: not a regular file\n")


def test_bench_sample_reads_a_line_without_end_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --sample read every line whole into memory: /dev/zero ended in MemoryError.
    endless = tmp_path / "long.txt"
    endless.write_bytes(b"." * 300_000)
    assert main(["bench", str(endless), "--sample", "1", "--backends", "bitmask"]) == 1
    assert "line longer than 65,536 bytes" in _one_line_error(capsys)
    assert main(["bench", "/dev/zero", "--sample", "1", "--backends", "bitmask"]) == 1
    assert "is a device" in _one_line_error(capsys)


def test_bench_sample_draws_the_same_lines_as_before(tmp_path: Path) -> None:
    # Two passes instead of a list of lines: the drawn lines must stay those of a given seed.
    out = tmp_path / "r.jsonl"
    data = str(BUNDLED / "top1465.txt")
    args = [data, "--sample", "2", "--seed", "3", "--backends", "bitmask", "--no-progress"]
    assert main(["bench", *args, "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert [row["source"] for row in rows] == [f"{data}:8", f"{data}:19"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("[" * 100_000, "nested deeper than 64 levels"),
        (
            '{"dataset": "p.txt", "index": [0], "config": "bitmask", "status": "unique", '
            '"time_s": 1, "solved": true, "source": "s", "stats": {}}',
            "index is not a whole",
        ),
        (
            '{"dataset": "p.txt", "index": 0, "config": "bitmask", "status": "unique", '
            '"time_s": "x", "solved": true, "source": "s", "stats": {}}',
            "time_s is not a finite",
        ),
        (
            '{"dataset": "p.txt", "index": 0, "config": "bitmask", "status": "unique", '
            '"time_s": 1, "solved": "yes", "source": "s", "stats": []}',
            "solved is not true",
        ),
    ],
)
def test_bench_resume_of_a_hostile_rows_file_fails_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, why: str
) -> None:
    # RecursionError and TypeError tracebacks, or rows of the wrong types summarised silently.
    out = tmp_path / "r.jsonl"
    out.write_text(line + "\n")
    assert _bench(tmp_path, "--out", str(out), "--resume") == 1
    err = _one_line_error(capsys)
    assert "--resume: line 1 is damaged (" in err and why in err


def test_bench_resume_skips_meta_records_that_are_not_objects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    out.write_text("# meta [1]\n# meta " + "[" * 100_000 + "\n")
    assert _bench(tmp_path, "--out", str(out), "--resume") == 0
    assert out.read_text().count("\np.txt,0,bitmask,unique,") == 1


def test_an_alphabet_holding_the_blank_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # '.' was a digit and the blank at once: an empty grid read as all 1s, 'unsatisfiable'.
    path = tmp_path / "empty.txt"
    path.write_text("." * 81 + "\n")
    with pytest.raises(SystemExit) as stop:
        main(["count", str(path), "--symbols", ".12345678"])
    assert stop.value.code == 2
    assert "'.' is the blank, it cannot be a digit too" in capsys.readouterr().err
    document = tmp_path / "d.json"
    document.write_text(json.dumps({"size": 9, "symbols": ".12345678", "givens": "." * 81}))
    assert main(["count", str(document)]) == 1
    assert "'.' is the blank" in _one_line_error(capsys)


@pytest.mark.parametrize("symbol", ["\x1b", "\x00", "\u202e", "\u200b"])
def test_an_alphabet_of_unprintable_symbols_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], symbol: str
) -> None:
    # ESC or a bidi override as a digit went into every grid printed (terminal escapes,
    # a row shown reversed).
    document = tmp_path / "d.json"
    document.write_text(json.dumps({"size": 4, "symbols": symbol + "234", "givens": "." * 16}))
    assert main(["solve", str(document)]) == 1
    assert "symbol 1 is not printable" in _one_line_error(capsys)


def test_generate_regions_opens_its_file_as_puzzle_files_are_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A named pipe without a writer was waited on in silence; a directory said only 'Is a
    # directory'.
    assert main(["generate", "--regions", str(tmp_path)]) == 1
    assert _one_line_error(capsys).endswith(f"{tmp_path}: is a directory, not a puzzle file\n")
    pipe = tmp_path / "regions"
    os.mkfifo(pipe)

    notice = f"{pipe}: waiting for a writer on this named pipe"
    said: list[str] = []

    def write_after_the_notice() -> None:
        # Not after a fixed sleep: at load the reader came to the pipe after the writer had
        # written, and rightly said nothing (CI, once).
        give_up = time.monotonic() + 30
        while not any(notice in text for text in said) and time.monotonic() < give_up:
            said.append(capsys.readouterr().err)
            time.sleep(0.01)
        pipe.write_text("aabb\naabb\nccdd\nccdd\n")

    writer = threading.Thread(target=write_after_the_notice)
    writer.start()
    try:  # the regions alone: generating a puzzle costs its imports, a second here
        shape = generate_command._shape(argparse.Namespace(jigsaw=None, regions=str(pipe)))
    finally:
        writer.join()
    assert any(notice in text for text in said)
    assert shape.size == 4 and ((2, 2), (2, 3), (3, 2), (3, 3)) in set(shape.regions())


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            f'{{"size": 9, "givens": "{GIVENS}", "rules": [{{"type": "odd", "cells": ["r1c1"]}}], '
            '"rules": []}',
            "rules",
        ),
        ('{"size": 9, "rules": [{"type": "killer", "type": "diagonal"}]}', "type"),
        ('{"size": 9, "grid": [], "size": 4}', "size"),
    ],
)
def test_a_json_key_given_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, key: str
) -> None:
    # json.loads kept the last: the odd cell of the first 'rules' was dropped in silence.
    path = tmp_path / "d.json"
    path.write_text(text)
    assert main(["solve", str(path)]) == 1
    assert f"JSON: key '{key}' appears twice in one object; keep one" in _one_line_error(capsys)


def test_empty_outside_clue_slots_are_not_rule_instances() -> None:
    # Each 0 of left/right/top/bottom (no clue) counted as an instance, always redundant: a
    # minimal skyscraper puzzle came out 'unique, not minimal' with 19 empty slots redundant.
    puzzle = next(iter_puzzles(str(REPO / "models/variants/outside/skyscraper-6x6.json")))
    verdict = find_redundant(puzzle)
    assert len(verdict.items.instances) == 6
    assert [i.label for i in verdict.redundant_instances] == ["skyscraper top[4] 3"]
    reduced = reduce_puzzle(puzzle, seed=1)
    assert isinstance(reduced, Reduction)
    assert find_redundant(reduced.puzzle).minimal


def test_reduce_goes_on_when_a_removal_frees_fixed_items() -> None:
    # Kropki dots under the negative constraint stay fixed (removing one would add "not a
    # kropki pair"); --reduce removed the negative flag, stopped, and called the puzzle minimal
    # while every dot had become redundant.
    puzzle = next(iter_puzzles(str(REPO / "models/variants/dots/kropki-negative-6x6.json")))
    reduced = reduce_puzzle(puzzle, seed=1)
    assert isinstance(reduced, Reduction) and reduced.then is not None
    assert "kropki negative[None] true" in [items.name(k) for items, k in reduced.removals()]
    assert find_redundant(reduced.puzzle).minimal
    assert puzzle.solution is not None
    assert get_backend("sat").solve(reduced.puzzle, limit=2).solutions == (puzzle.solution,)


def test_a_sum_over_a_whole_house_of_open_cells_is_not_enumerated() -> None:
    # A little killer clue over every cell of a 25x25 walked 2^25 digit sets per row and node:
    # 'solve --backend bitmask --timeout 5' ran past 120 s at 1 GB; 16x16: 19 s for one node.
    full = (1 << 16) - 1
    support = SumSupport([1 << k for k in range(16)])
    assert support.supports([full] * 16, [(tuple(range(16)), 1)], 136) == [full] * 16
    assert not support.states  # read as 16 terms, no set of digits enumerated
    small = SumSupport([1 << k for k in range(9)])  # a small group stays exact: 1+2+3 only
    assert small.supports([0b111] * 3, [((0, 1, 2), 1)], 7) is None
    assert small.supports([0b111] * 3, [((0, 1, 2), 1)], 6) == [0b111] * 3


def test_a_sum_too_large_for_its_sat_encoding_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A little killer clue over a whole 25x25 board (sat, --timeout 5): 15 s and 1 GB building
    # 125 million arcs, the clock unread -> refused at 4.7 s. Here the caps are made small.
    # Whole houses fold into the total (`encoders.house_sums`): the clue leaves out one cell
    # of every row, column and box, so none does and all 72 cells get layers.
    left_out = {(r, (r % 3) * 3 + r // 3) for r in range(9)}
    cells = [f"r{r + 1}c{c + 1}" for r in range(9) for c in range(9) if (r, c) not in left_out]
    clue = {"type": "littlekiller", "clues": [{"cells": cells, "sum": 360}]}
    path = tmp_path / "lk.json"
    path.write_text(json.dumps({"size": 9, "givens": GIVENS, "rules": [clue]}))
    monkeypatch.setattr(cnf, "MAX_SUM_ARCS", 1000)
    assert main(["solve", "--backend", "sat", str(path)]) == 1
    err = _one_line_error(capsys)
    assert "the sum over r1c2, r1c3, r1c4, … (72 cells): its SAT encoding would unroll" in err
    monkeypatch.setattr(cnf, "MAX_SUM_TRIED", 1000)
    assert main(["solve", "--backend", "sat", str(path)]) == 1
    assert "more than 1,000 transitions" in _one_line_error(capsys)
    with pytest.raises(OutOfTime):  # the clock is read layer by layer
        cnf._sum_states([1] * 81, [tuple(range(1, 10))] * 81, 405, deadline=0.0)


def test_the_mip_rows_of_a_sum_s_distinct_pairs_read_the_clock() -> None:
    # A little killer clue over a whole 25x25 board: 22,500 peer pairs, n rows each, 16.4 s
    # under --timeout 5 -> 5.0 s ('unknown').
    mip_encoder = pytest.importorskip("satsudoku.encoders.mip")
    shape = regular_shape(3, 3)
    builder = mip_encoder._Builder(shape, [frozenset(range(1, 10))] * 81, None)
    row = tuple((0, c) for c in range(9))
    builder.deadline = 0.0  # past
    with pytest.raises(OutOfTime):
        builder._sum(Sum(row, 45, (), tuple((a, b) for a in range(9) for b in range(a + 1, 9))))


@pytest.mark.slow
def test_a_local_cluster_works_in_a_private_folder_not_shared_tmp() -> None:
    # Dask's default workspace, /tmp/dask-scratch-space, is a fixed name in a shared /tmp:
    # another user can create it first, open to all, with symlinks at its lock files' names.
    pytest.importorskip("distributed")
    from satsudoku.cluster import Cluster, connect

    with connect(Cluster(local=1)) as client:
        folders = list(client.run(lambda dask_worker: dask_worker.local_directory).values())
        scratch = Path(folders[0]).parent.parent
        assert scratch.name.startswith("satsudoku-dask-") and scratch.stat().st_mode & 0o077 == 0
    assert not scratch.exists()
