"""`satsudoku bench`: rows stream to CSV/JSONL with metadata, summaries, plots, resume, workers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from satsudoku import bench
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from tests.conftest import BUNDLED

DATA = [str(BUNDLED / "17clue.txt"), str(BUNDLED / "serg-benchmark.txt")]
CONFIGS = "bitmask,cpsat,cpsat:integer"


def _run(tmp_path: Path, *extra: str) -> int:
    return main(["bench", *DATA, "--backends", CONFIGS, "--sample", "4", "--seed", "1", *extra])


def _csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open() as handle:
        return list(csv.DictReader(line for line in handle if not line.startswith("#")))


def test_csv_rows_metadata_summary_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, png = tmp_path / "r.csv", tmp_path / "r.png"
    assert _run(tmp_path, "--out", str(out), "--plot", str(png), "--cross-check") == 0
    rows = _csv_rows(out)
    assert len(rows) == 2 * 4 * 3
    assert {r["status"] for r in rows if r["dataset"] == "serg-benchmark.txt"} == {"multiple"}
    assert all(json.loads(r["stats"]) is not None and float(r["time_s"]) > 0 for r in rows)
    meta = json.loads(out.read_text().splitlines()[0].removeprefix("# meta "))
    for key in ("satsudoku", "python-sat", "ortools", "python", "cpu", "seed", "command"):
        assert key in meta
    assert meta["seed"] == 1 and png.stat().st_size > 10_000
    table = capsys.readouterr().out
    assert "puzzles/s" in table and "p99 ms" in table and "cpsat:integer" in table


def test_jsonl_resume_after_interruption(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert _run(tmp_path, "--out", str(out)) == 0
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["meta"]["sample"] == 4 and len(lines) == 1 + 24
    out.write_text("\n".join(lines[:10]) + '\n{"dataset": "17cl')  # cut mid-row
    assert _run(tmp_path, "--out", str(out), "--resume") == 0
    rows = bench.read_rows(str(out))
    assert len(rows) == 24 and len({bench.row_key(r) for r in rows}) == 24
    assert sum(1 for line in out.read_text().splitlines() if '"meta"' in line) == 2


def test_resume_of_a_finished_run_measures_nothing(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert _run(tmp_path, "--out", str(out)) == 0
    before = _csv_rows(out)
    assert _run(tmp_path, "--out", str(out), "--resume") == 0
    assert _csv_rows(out) == before


def test_worker_processes_give_the_same_verdicts(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert _run(tmp_path, "--out", str(one)) == 0
    assert _run(tmp_path, "--out", str(two), "--workers", "2") == 0
    verdicts = [
        {bench.row_key(r): r["status"] for r in bench.read_rows(str(p))} for p in (one, two)
    ]
    assert verdicts[0] == verdicts[1]


def test_user_mistakes_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", DATA[0], "--backends", "bitmask,nosuch"]) == 1
    assert main(["bench", DATA[0], "--backends", "cpsat:sparse"]) == 1
    assert main(["bench", DATA[0], "--out", str(tmp_path / "r.txt")]) == 1
    assert main(["bench", DATA[0], "--resume"]) == 1
    assert main(["bench", str(tmp_path / "missing.txt")]) == 1
    err = capsys.readouterr().err
    assert "nosuch" in err and "sparse" in err and ".csv or .jsonl" in err and "no such" in err


def test_sat_configurations_map_to_encodings() -> None:
    configs = bench.parse_configs("sat:minimal,sat:extended", solver="minisat22")
    assert [c.options for c in configs] == [
        {"encoding": "minimal", "solver": "minisat22"},
        {"encoding": "extended", "solver": "minisat22"},
    ]
    with pytest.raises(PuzzleError, match="twice"):
        bench.parse_configs("cpsat,cpsat")


def test_summary_percentiles() -> None:
    rows = [
        {"dataset": "d", "config": "c", "time_s": t / 100, "solved": t < 100} for t in range(1, 101)
    ]
    (summary,) = bench.summarize(rows)
    assert (summary.puzzles, summary.solved) == (100, 99)
    assert (summary.median, summary.p90, summary.p99, summary.maximum) == (0.505, 0.9, 0.99, 1.0)
    assert "| d | c | 100 | 99/100 |" in bench.format_summary([summary], markdown=True)


def test_reading_options_apply_to_datasets(tmp_path: Path) -> None:
    # The X-Sudoku sample is unique only under its diagonals: --rule reaches every puzzle.
    data = str(BUNDLED / "x-sudoku-sample.txt")
    for extra, status in (([], "multiple"), (["--rule", "diagonal"], "unique")):
        out = tmp_path / f"x{len(extra)}.jsonl"
        argv = ["bench", data, "--backends", "bitmask,sat:extended", "--out", str(out), *extra]
        assert main(argv) == 0
        rows = bench.read_rows(str(out))
        assert [r["status"] for r in rows] == [status, status]
    meta = json.loads(out.read_text().splitlines()[0])["meta"]
    assert meta["reading"]["rules"] == ["diagonal"]


@pytest.mark.shared
def test_killer_collections_bench_with_their_format(shared_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "k.csv"
    data = str(shared_data / "killer-janko-9x9.txt")
    argv = ["bench", data, "--format", "killer", "--sample", "2", "--backends", "sat:extended"]
    assert main([*argv, "--out", str(out), "--cross-check"]) == 0
    assert [r["status"] for r in _csv_rows(out)] == ["unique", "unique"]
