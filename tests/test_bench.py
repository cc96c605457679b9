"""`satsudoku bench`: rows stream to CSV/JSONL with metadata, summaries, plots, resume, workers."""

from __future__ import annotations

import csv
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satsudoku import bench
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from tests.conftest import BUNDLED, REPO
from tests.test_cpsat import interrupt, write_endless

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
    argv = [
        "bench",
        data,
        "--format",
        "killer",
        "--sample",
        "2",
        "--backends",
        "sat:extended,cpsat",
    ]
    assert main([*argv, "--out", str(out), "--cross-check"]) == 0
    assert [r["status"] for r in _csv_rows(out)] == ["unique"] * 4


def test_timeout_zero_or_none_means_no_limit(tmp_path: Path) -> None:
    # Lingeling cannot be stopped early, so it can be benched only without a timeout.
    for value in ("0", "none"):
        out = tmp_path / f"t{value}.jsonl"
        argv = ["bench", DATA[0], "--sample", "2", "--backends", "sat:extended"]
        assert main([*argv, "--solver", "lingeling", "--timeout", value, "--out", str(out)]) == 0
        assert bench.read_meta(str(out))[0]["timeout_s"] is None
        assert [r["status"] for r in bench.read_rows(str(out))] == ["unique", "unique"]


def test_presolve_and_other_flags_are_configuration_suffixes(tmp_path: Path) -> None:
    configs = bench.parse_configs("cpsat:integer+presolve,cpsat+certified+presolve,bitmask+generic")
    assert [dict(c.options) for c in configs] == [
        {"model": "integer", "presolve": True},
        {"certified": True, "presolve": True},
        {"generic": True},
    ]
    with pytest.raises(PuzzleError, match=r"no '\+turbo' flag; choose from presolve, certified"):
        bench.parse_configs("cpsat+turbo")
    with pytest.raises(PuzzleError, match="it takes none"):
        bench.parse_configs("sat:extended+presolve")
    out = tmp_path / "p.jsonl"
    argv = ["bench", DATA[0], "--sample", "2", "--backends", "cpsat,cpsat+presolve"]
    assert main([*argv, "--out", str(out)]) == 0
    presolve = {r["config"]: r["stats"]["presolve"] for r in bench.read_rows(str(out))}
    assert presolve == {"cpsat": False, "cpsat+presolve": True}


def test_key_value_suffixes_set_solver_amo_and_workers(tmp_path: Path) -> None:
    text = "sat:reduced+solver=minicard+amo=native,cpsat+workers=2,sat:extended"
    configs = bench.parse_configs(text, solver="glucose4")
    assert [dict(c.options) for c in configs] == [
        {"encoding": "reduced", "solver": "minicard", "amo": "native"},
        {"workers": 2},
        {"encoding": "extended", "solver": "glucose4"},  # --solver fills in only the unnamed
    ]
    with pytest.raises(PuzzleError, match=r"no '\+model' '\+KEY=VALUE' option"):
        bench.parse_configs("sat+model=integer")
    with pytest.raises(PuzzleError, match="no native at-most-one"):
        bench.parse_configs("sat+amo=native")  # the backend's own check, at parse time
    out = tmp_path / "kv.jsonl"
    argv = ["bench", DATA[0], "--sample", "2", "--backends", "sat+solver=g4,sat:reduced"]
    assert main([*argv, "--out", str(out)]) == 0
    rows = bench.read_rows(str(out))
    assert {r["config"] for r in rows} == {"sat+solver=g4", "sat:reduced"}


@pytest.mark.slow  # ~2.4 s CPU: a 25x25 encoded for SAT and CP-SAT
def test_models_are_built_before_timing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The 25x25 SAT session takes seconds to encode; the first timed puzzle must not pay it.
    line = (BUNDLED / "25x25-durr-example.txt").read_text().split()[0]
    data = tmp_path / "two.txt"
    data.write_text(f"{line}\n{line}\n")
    out = tmp_path / "w.jsonl"
    argv = ["bench", str(data), "--backends", "sat:extended,cpsat", "--timeout", "30"]
    assert main([*argv, "--out", str(out)]) == 0
    rows = bench.read_rows(str(out))
    assert all(r["status"] == "unique" for r in rows)
    first_sat = next(r for r in rows if r["config"] == "sat:extended")
    assert first_sat["time_s"] < 1.0, first_sat
    err = capsys.readouterr().err
    assert "model warm-up before timing (not in the times): sat:extended" in err


def test_singleton_rule_sets_are_not_warmed_up() -> None:
    tasks = bench.load_tasks([str(BUNDLED / "x-sudoku-sample.txt"), DATA[0]], sample=3, seed=1)
    groups = bench.shared_groups(tasks)
    assert groups == {bench.model_group(t.puzzle) for t in tasks if t.dataset == "17clue.txt"}


def test_wall_clock_throughput_is_reported_beside_solve_time_throughput(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(tmp_path, "--workers", "2") == 0
    out = capsys.readouterr().out
    assert "puzzles/s (n/Σt)" in out and "puzzles/s (wall)" in out
    assert "3 configurations per puzzle, 2 processes" in out
    wall = out.split("wall clock of this run")[1].splitlines()
    datasets = [line.split()[:2] for line in wall[2:]]
    assert datasets == [["17clue.txt", "4"], ["serg-benchmark.txt", "4"], ["all", "8"]]


@pytest.mark.parametrize(
    "change",
    [["--timeout", "5"], ["--limit", "3"], ["--backends", "bitmask,cpsat"], ["--timeout", "0"]],
)
def test_resume_refuses_other_options_than_the_recorded_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: list[str]
) -> None:
    out = tmp_path / "r.csv"
    assert _run(tmp_path, "--out", str(out), "--sample", "1") == 0
    before = out.read_text()
    capsys.readouterr()
    assert _run(tmp_path, "--out", str(out), "--sample", "1", "--resume", *change) == 2
    err = capsys.readouterr().err
    assert err.startswith("satsudoku: --resume: --") and err.count("\n") == 1
    assert "differs from the recorded run's" in err and out.read_text() == before


def test_cross_check_needs_two_configurations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", DATA[0], "--backends", "cpsat", "--cross-check"]) == 2
    assert "--cross-check needs two configurations" in capsys.readouterr().err


def test_ctrl_c_in_a_bench_keeps_rows_and_exits_130(tmp_path: Path) -> None:
    lines = (BUNDLED / "forum-hardest-1106.txt").read_text().splitlines() * 300
    data = tmp_path / "many.txt"
    data.write_text("\n".join(lines) + "\n")
    out = tmp_path / "r.jsonl"
    argv = ["bench", str(data), "--backends", "bitmask,cpsat", "--out", str(out)]

    def rows_written() -> bool:  # Ctrl-C once some rows exist, however fast the machine
        return out.exists() and out.read_text().count("\n") >= 3

    code, err, waited = interrupt([*argv, "--workers", "2"], after=1, ready=rows_written)
    assert (code, err) == (130, "satsudoku: interrupted\n") and waited < 10
    rows = bench.read_rows(str(out))
    assert rows and all(r["status"] in ("unique", "unsatisfiable") for r in rows)


@pytest.mark.slow  # seconds of waiting or solving: CI's `pytest -m slow` runs it
def test_ctrl_c_during_a_cpsat_bench_writes_no_unknown_row(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    document, _, plugin, *_ = write_endless(tmp_path)
    argv = ["bench", document, "--plugin", plugin, "--backends", "cpsat", "--out", str(out)]
    code, err, waited = interrupt([*argv, "--timeout", "120"], after=5)
    assert (code, err) == (130, "satsudoku: interrupted\n") and waited < 10
    assert bench.read_rows(str(out)) == []


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_resume_drops_a_row_cut_mid_line_and_continues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    out = tmp_path / f"r{suffix}"
    assert _run(tmp_path, "--out", str(out)) == 0
    text = out.read_text()
    cut = text.rstrip("\n").rfind("\n") + 30  # a crash 30 bytes into the last row
    out.write_text(text[:cut])
    capsys.readouterr()
    assert _run(tmp_path, "--out", str(out), "--resume") == 0
    err = capsys.readouterr().err
    assert "dropped its last row, cut mid-line" in err
    assert "resuming: 7 of 8 puzzles already measured" in err
    rows = bench.read_rows(str(out))
    assert len(rows) == 24 and len({bench.row_key(r) for r in rows}) == 24
    assert len(bench.read_meta(str(out))) == 2  # the new metadata record is on a line of its own


def test_resume_names_a_damaged_line_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    assert _run(tmp_path, "--out", str(out)) == 0
    lines = out.read_text().splitlines(keepends=True)
    lines[4] = lines[4][:20] + "\n"  # a row damaged in the middle of the file
    out.write_text("".join(lines))
    capsys.readouterr()
    assert _run(tmp_path, "--out", str(out), "--resume") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"satsudoku: {out}: --resume: line 5 is damaged (") and "not 8" in err
    assert err.endswith("repair or delete it, or use a new --out\n") and err.count("\n") == 1


def test_unwritable_out_or_plot_fails_before_measuring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    for flag, path in (("--plot", tmp_path / "no" / "r.png"), ("--out", tmp_path / "no" / "r.csv")):
        started = time.perf_counter()
        assert _run(tmp_path, "--out", str(out), flag, str(path)) == 1
        assert time.perf_counter() - started < 1 and not out.exists()
        err = capsys.readouterr().err
        assert err == f"satsudoku: {flag} {path}: directory {path.parent} does not exist\n"
    assert _run(tmp_path, "--plot", str(tmp_path)) == 1
    assert "is a directory" in capsys.readouterr().err


def test_a_plot_that_cannot_be_finished_is_removed(tmp_path: Path) -> None:
    # A file-size limit stands in for a full disk: matplotlib gets EFBIG halfway through.
    rows = [{"dataset": "d", "config": "c", "time_s": t / 10, "solved": True} for t in (1, 2, 3)]
    png = tmp_path / "r.png"
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of death
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, hard))
    try:
        with pytest.raises(PuzzleError, match=f"--plot {png}: File too large"):
            bench.plot(rows, bench.summarize(rows), str(png))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    assert not png.exists()


def _children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_die_with_a_bench_killed_by_sigkill(tmp_path: Path) -> None:
    document, _, plugin, *_ = write_endless(tmp_path)
    twin = tmp_path / "twin.json"  # a second task, so that both workers search
    twin.write_text(Path(document).read_text())
    argv = ["bench", document, str(twin), "--plugin", plugin, "--backends", "cpsat"]
    process = subprocess.Popen(
        [sys.executable, "-m", "satsudoku", *argv, "--workers", "2", "--timeout", "120"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    workers: list[int] = []
    for _ in range(300):  # both workers started (imports take a while on a busy machine)
        workers = _children(process.pid)
        if len(workers) >= 2 or process.poll() is not None:
            break
        time.sleep(0.1)
    assert len(workers) >= 2, process.communicate()
    time.sleep(0.5)  # inside their initializer or their search
    process.kill()
    killed = time.perf_counter()
    try:
        process.communicate(timeout=10)  # EOF: no worker holds the pipes any more
        while any(map(_alive, workers)) and time.perf_counter() - killed < 5:
            time.sleep(0.1)
        assert not any(map(_alive, workers)), "workers outlived their bench"
    finally:  # should this fail, leave no searching orphan behind
        for pid in filter(_alive, workers):
            os.kill(pid, signal.SIGKILL)
