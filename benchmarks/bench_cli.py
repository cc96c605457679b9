"""What the `satsudoku` command adds to its engine: start-up, and streaming speed against the API.

Usage: python benchmarks/bench_cli.py [--backend sat] [--count N] [--rounds R] [--runs K]
[--data FILE] [--no-startup].
Throughput: `satsudoku solve FILE --json --backend B` on N puzzles minus the same on one puzzle
(start-up excluded), against the Python API on the same puzzles (a fresh backend, N puzzles
minus one, puzzles already read): the CLI's extra is reading, formatting and writing. Rounds
interleave CLI and API so load from other processes hits both; best of R. Start-up: median
wall and CPU seconds of K runs of `--help` and of a one-puzzle `solve` per backend.
Data: ../shared/data/17clue.txt when present (tests/data/17clue.txt otherwise), repeated to N.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from satsudoku.backends import available, get_backend
from satsudoku.commands.solve import solve_stream
from satsudoku.io import read_puzzles

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "17clue.txt"
LOCAL = ROOT / "tests" / "data" / "17clue.txt"


def child_env(cache: str) -> dict[str, str]:
    """The environment for timed children: bytecode cached (in `cache`) as an installed
    package has it, even where PYTHONDONTWRITEBYTECODE would recompile every module per run."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def run_timed(command: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def startup(puzzle: Path, runs: int, env: dict[str, str]) -> list[tuple[str, float, float]]:
    """Median wall and CPU seconds of `--help` and of a one-puzzle solve on each backend."""
    satsudoku = [sys.executable, "-m", "satsudoku"]
    cases = [("satsudoku --help", [*satsudoku, "--help"])]
    for name in ("bitmask", "sat", "cpsat"):
        if name in available():
            command = [*satsudoku, "solve", str(puzzle), "--backend", name]
            cases.append((f"solve ONE --backend {name}", command))
    rows = []
    for label, command in cases:
        run_timed(command, env)  # warm: bytecode written, files in the page cache
        times = [run_timed(command, env) for _ in range(runs)]
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        rows.append((label, wall, cpu))
    return rows


def api_seconds(backend_name: str, path: Path) -> tuple[float, float]:
    """Wall and CPU seconds the API takes on the puzzles of `path`, already read, through the
    path the CLI uses (the backend's batch `solve_many` when it has one), a fresh backend."""
    puzzles = read_puzzles(path)
    backend = get_backend(backend_name)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in solve_stream(backend, puzzles, limit=2, timeout=None):
        pass
    return time.perf_counter() - start, time.process_time() - cpu


def throughput(
    backend: str, lines: Sequence[str], count: int, rounds: int, env: dict[str, str]
) -> dict[str, float]:
    """Best-of-rounds wall and CPU seconds per puzzle, start-up excluded, CLI and API."""
    many_lines = [lines[k % len(lines)] for k in range(count)]
    best = dict.fromkeys(("cli wall", "cli cpu", "api wall", "api cpu"), float("inf"))
    with tempfile.TemporaryDirectory() as folder:
        many, one = Path(folder, "many.txt"), Path(folder, "one.txt")
        many.write_text("\n".join(many_lines) + "\n")
        one.write_text(many_lines[0] + "\n")
        command = [sys.executable, "-m", "satsudoku", "solve", "--json", "--backend", backend]
        run_timed([*command, str(one)], env)  # warm
        for _ in range(rounds):
            cli_many, cli_one = (
                run_timed([*command, str(many)], env),
                run_timed([*command, str(one)], env),
            )
            api_many, api_one = api_seconds(backend, many), api_seconds(backend, one)
            for k, kind in enumerate(("wall", "cpu")):
                best[f"cli {kind}"] = min(best[f"cli {kind}"], cli_many[k] - cli_one[k])
                best[f"api {kind}"] = min(best[f"api {kind}"], api_many[k] - api_one[k])
    return {key: seconds / (count - 1) for key, seconds in best.items()}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="sat")
    parser.add_argument("--count", type=int, default=2000, help="puzzles streamed (default 2000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=10, help="start-up runs per case (median)")
    parser.add_argument("--data", type=Path, default=SHARED if SHARED.exists() else LOCAL)
    parser.add_argument("--no-startup", dest="startup", action="store_false")
    args = parser.parse_args(argv)
    lines = [line for line in args.data.read_text().splitlines() if line.strip()][: args.count]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; data {args.data}")
    with tempfile.TemporaryDirectory() as cache:
        env = child_env(cache)
        if args.startup:
            with tempfile.TemporaryDirectory() as folder:
                puzzle = Path(folder, "one.txt")
                puzzle.write_text(lines[0] + "\n")
                for label, wall, cpu in startup(puzzle, args.runs, env):
                    print(
                        f"{label:32s} wall {wall:.3f} s   cpu {cpu:.3f} s   (median of {args.runs})"
                    )
        per = throughput(args.backend, lines, args.count, args.rounds, env)
    print(
        f"solve --json --backend {args.backend}, {args.count} puzzles minus 1, "
        f"best of {args.rounds}:"
    )
    for kind in ("wall", "cpu"):
        cli, api = per[f"cli {kind}"], per[f"api {kind}"]
        print(
            f"  {kind:4s}  CLI {1 / cli:8,.0f}/s  API {1 / api:8,.0f}/s  "
            f"CLI/API {cli / api:.3f} (the CLI adds {100 * (cli / api - 1):+.1f} %)"
        )
    print("(on a loaded machine the CPU figures are the ones to read: wall time waits for a core)")


if __name__ == "__main__":
    main()
