"""Distributed runs on Dask: rows and verdicts equal a one-process run, in order or not, and a
worker killed mid-run loses and duplicates nothing."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from satsudoku import bench
from satsudoku.cli import main
from tests.conftest import BUNDLED, REPO


def _dask() -> tuple[Any, Any]:
    """distributed and dask, imported by the tests that run them, not at collection: every
    pytest-xdist worker collects this file, and importing them took each ~1 s of CPU."""
    return pytest.importorskip("distributed"), pytest.importorskip("dask")


# A cluster takes seconds to start on a loaded machine: the tests that run one are slow.
slow = pytest.mark.slow

# 120 puzzles: unique (17-clue, hard), several solutions (serg); then 80 again, as new indices.
SOURCES = (
    "17clue",
    "top1465",
    "forum-hardest-1106",
    "norvig-top95",
    "norvig-easy50",
    "serg-benchmark",
)


def _lines() -> list[str]:
    lines = [
        line.strip()
        for name in SOURCES
        for line in (BUNDLED / f"{name}.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return lines + lines[:80]


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cluster") / "two-hundred.txt"
    path.write_text("\n".join(_lines()) + "\n")
    return path


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A 2-worker LocalCluster the CLI reaches by --scheduler, as it would a remote one."""
    distributed, _ = _dask()
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def _comparable(rows: list[bench.Row]) -> list[tuple[Any, ...]]:
    """A row without its timings; bitmask's search statistics are deterministic, so kept."""
    return [
        (
            r["dataset"],
            r["index"],
            r["config"],
            r["status"],
            r["solved"],
            r["source"],
            r["stats"].get("nodes") if r["config"] == "bitmask" else None,
        )
        for r in rows
    ]


def _bench(puzzles: Path, out: Path, *extra: str) -> list[bench.Row]:
    argv = ["bench", str(puzzles), "--backends", "bitmask,sat:extended,cpsat", "--out", str(out)]
    argv += ["--sample", "60"] if "--sample" not in extra else []
    assert main([*argv, *extra]) == 0
    return bench.read_rows(str(out))


@slow
def test_bench_rows_on_a_cluster_equal_one_process(
    puzzles: Path, scheduler: str, tmp_path: Path
) -> None:
    alone = _bench(puzzles, tmp_path / "one.jsonl")
    spread = _bench(puzzles, tmp_path / "dask.jsonl", "--scheduler", scheduler, "--chunk-size", "8")
    assert len(alone) == 3 * 60
    assert _comparable(spread) == _comparable(alone)
    assert {r["status"] for r in alone} == {"unique", "multiple"}
    meta = bench.read_meta(str(tmp_path / "dask.jsonl"))[-1]
    assert meta["cluster"] == scheduler


@slow
def test_unordered_bench_and_resume_across_runs(
    puzzles: Path, scheduler: str, tmp_path: Path
) -> None:
    out = tmp_path / "r.csv"
    first = _bench(puzzles, out, "--scheduler", scheduler, "--unordered", "--sample", "50")
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:40]) + "\n")  # an interrupted run
    rows = _bench(puzzles, out, "--scheduler", scheduler, "--sample", "50", "--resume")
    key = bench.row_key
    assert sorted(map(key, rows)) == sorted(map(key, first)) and len(rows) == 150
    assert len(set(map(key, rows))) == 150  # nothing measured twice


def _solve(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """The JSON records without timings; stderr is kept in `_solve.err`."""
    assert main(["solve", *argv, "--json"]) == 0
    out, _solve.err = capsys.readouterr()  # type: ignore[attr-defined]
    records = [json.loads(line) for line in out.splitlines()]
    for record in records:
        record.pop("time_s", None)
        record.pop("stats", None)
    return records


@slow
def test_solve_on_a_cluster_in_order_and_unordered(
    puzzles: Path, scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = _solve([str(puzzles)], capsys)
    ordered = _solve([str(puzzles), "--scheduler", scheduler, "--chunk-size", "7"], capsys)
    loose = _solve([str(puzzles), "--scheduler", scheduler, "--unordered"], capsys)
    assert len(alone) == 200 and ordered == alone
    assert sorted(loose, key=lambda r: r["index"]) == alone


@slow
def test_sat_verdicts_on_a_local_cluster(puzzles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--cluster local:N starts its own; incremental SAT sessions live on across chunks."""
    alone = _solve([str(puzzles), "--backend", "sat"], capsys)
    spread = _solve([str(puzzles), "--backend", "sat", "--cluster", "local:2"], capsys)
    verdicts = [[(r["index"], r["status"]) for r in records] for records in (alone, spread)]
    assert verdicts[0] == verdicts[1]
    unique = [r for r in alone if r["status"] == "unique"]
    assert unique and all(r in spread for r in unique)  # a unique solution is the solution
    assert "2 workers, dashboard http" in _solve.err  # type: ignore[attr-defined]


@slow
def test_count_exact_listed_and_estimated_on_a_cluster(
    scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Counts do not depend on where they ran; estimates are seeded per puzzle."""
    serg = str(BUNDLED / "serg-benchmark.txt")
    for mode in (["--limit", "500"], ["--backend", "sat", "--limit", "60"], ["--estimate", "30"]):
        outputs = []
        for where in ([], ["--scheduler", scheduler, "--chunk-size", "3"]):
            assert main(["count", serg, *mode, *where]) == 0
            outputs.append(capsys.readouterr().out.splitlines())
        assert len(outputs[0]) == 20 and outputs[1] == outputs[0], mode
    assert any(line != "1" for line in outputs[0])  # serg's puzzles have several solutions


@slow
def test_rate_minimal_and_prove_on_a_cluster_equal_one_process(
    scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The batch tools give the same lines wherever they ran; prove's certificates come back
    from the workers and are checked and written here."""
    five = tmp_path / "five.txt"
    five.write_text("\n".join(_lines()[20:25]) + "\n")
    commands = (
        ["rate", str(five), "--logic-only", "--json"],
        ["minimal", str(five), "--json"],
        ["prove", str(five), "--certificate", str(tmp_path / "certs"), "--force"],
    )
    for argv in commands:
        outputs = []
        for where in ([], ["--scheduler", scheduler, "--chunk-size", "2"]):
            assert main([*argv, *where]) == 0
            lines = capsys.readouterr().out.splitlines()
            outputs.append([re.sub(r'"(time_s|verdict_s)": [0-9.e-]+', "", x) for x in lines])
        assert len(outputs[0]) == 5 and outputs[1] == outputs[0], argv
    assert all(line.startswith("puzzle ") and "; checked: " in line for line in outputs[0])
    assert main(["verify-certificate", str(tmp_path / "certs" / "0005")]) == 0
    assert "VERIFIED" in capsys.readouterr().out


def test_usage_errors_name_the_option(puzzles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(puzzles), "--unordered"]) == 2
    assert "--unordered needs --scheduler or --cluster" in capsys.readouterr().err
    assert main(["bench", str(puzzles), "--workers", "2", "--cluster", "local:2"]) == 2
    assert "--workers is the local pool" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", str(puzzles), "--cluster", "lots"])
    assert "use local:N" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_one_line(
    puzzles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, dask = _dask()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(["solve", str(puzzles), "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2 and "--scheduler tcp://127.0.0.1:9: cannot connect" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_cli_imports_no_dask() -> None:
    code = (
        "import sys, satsudoku.cli; "
        "print(any(m.startswith(('dask', 'distributed')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


@slow
def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(
    puzzles: Path, scheduler: str
) -> None:
    """After the other tests on the shared cluster: its nanny restarts the worker, but later
    tests need none."""
    from satsudoku.cluster import Cluster

    distributed, _ = _dask()
    tasks = bench.load_tasks([str(puzzles)], sample=None, seed=0)
    configs = bench.parse_configs("bitmask,sat:extended")
    alone = [row for o in bench.run(tasks, configs) for row in o.rows]
    with distributed.Client(scheduler) as client:
        outcomes = bench.run(tasks, configs, cluster=Cluster(scheduler=scheduler, chunk_size=4))
        rows = [row for _, o in zip(range(10), outcomes, strict=False) for row in o.rows]
        # A quiet machine may drain the window of queued chunks between two outcomes, so the
        # kill waits for the first outcome after which a worker is seen mid-chunk.
        victim = None
        for outcome in outcomes:
            rows += outcome.rows
            busy = [address for address, keys in client.processing().items() if keys]
            if busy:
                victim = client.run(os.getpid, workers=busy[:1])[busy[0]]
                os.kill(victim, signal.SIGKILL)
                break
        assert victim is not None, "no chunk was ever seen running: the kill tested nothing"
        rows += [row for o in outcomes for row in o.rows]
        assert victim not in client.run(os.getpid).values()  # it was really gone
    assert len(rows) == 2 * 200 and _comparable(rows) == _comparable(alone)


def _die(chunk: list[int]) -> list[int]:
    """A chunk that kills whichever worker runs it, as a puzzle exhausting memory would."""
    os.kill(os.getpid(), signal.SIGKILL)
    return chunk


@slow
def test_a_chunk_that_keeps_killing_workers_ends_the_run_in_one_line() -> None:
    from satsudoku.cluster import stream
    from satsudoku.errors import SatsudokuError

    distributed, dask = _dask()
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
        pytest.raises(SatsudokuError, match=r"chunk 0 \(2 puzzles\) lost more workers"),
    ):
        list(stream(client, _die, [1, 2], chunk_size=2))
