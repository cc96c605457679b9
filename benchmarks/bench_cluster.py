"""Dask against one process: the bench of a 17-clue sample under every configuration, on one
process and on a local cluster, with the cluster's cost per chunk and a projection to N workers.

Run: python benchmarks/bench_cluster.py [--sample 5000] [--workers 2] [--chunk-sizes 16,64]

Every cluster run must give the one-process run's verdicts row for row, in order (exit 1
otherwise). The per-chunk cost is measured with chunks that do nothing, so it is what the
scheduler, the network and pickling add to each task; the projection divides the measured
one-process time per puzzle by the workers, capped by the chunks the scheduler can hand out.
Wall-clock figures depend on the machine's load: compare runs under equal load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from satsudoku import bench
from satsudoku.cluster import Cluster, stream

SHARED = Path(os.environ.get("SATSUDOKU_SHARED_DATA", Path(__file__).parents[2] / "shared/data"))
DATASET = SHARED / "17clue-royle-49151.txt"
CONFIGS = "bitmask,sat:extended,sat:minimal,cpsat,cpsat:integer"


def nothing(chunk: list[int]) -> list[int]:
    """A chunk that costs no solving: its round trip is the cluster's own overhead."""
    return chunk


def overhead(client: object, *, window: int | None, chunks: int = 2000) -> float:
    """Seconds per empty chunk streamed back in order, `window` chunks out at once."""
    start = time.perf_counter()
    done = sum(1 for _ in stream(client, nothing, range(chunks), chunk_size=1, window=window))
    return (time.perf_counter() - start) / done


def verdicts(outcomes: list[bench.Outcome]) -> list[tuple[str, int, str, str]]:
    return [
        (str(r["dataset"]), int(r["index"]), str(r["config"]), str(r["status"]))
        for o in outcomes
        for r in o.rows
    ]


def timed(
    tasks: list[bench.Task], configs: list[bench.Config], **options: object
) -> tuple[float, list[bench.Outcome]]:
    start = time.perf_counter()
    outcomes = list(bench.run(tasks, configs, **options))  # type: ignore[arg-type]
    return time.perf_counter() - start, outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=str(DATASET))
    parser.add_argument("--sample", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk-sizes", default="16,64")
    parser.add_argument("--configs", default=CONFIGS)
    args = parser.parse_args()
    import distributed  # the cluster extra: pip install 'satsudoku[cluster]'

    tasks = bench.load_tasks([args.dataset], sample=args.sample, seed=0)
    configs = bench.parse_configs(args.configs)
    print(f"{len(tasks)} puzzles of {Path(args.dataset).name} x {len(configs)} configurations")
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    alone_s, alone = timed(tasks, configs)
    per_puzzle = alone_s / len(tasks)
    print(f"one process      {alone_s:8.1f} s  {len(tasks) / alone_s:7.1f} puzzles/s")
    failures = 0
    start = time.perf_counter()
    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as local,
        distributed.Client(local) as client,
    ):
        print(f"local:{args.workers} started in {time.perf_counter() - start:.1f} s")
        for size in map(int, args.chunk_sizes.split(",")):
            spec = Cluster(scheduler=local.scheduler_address, chunk_size=size)
            wall, outcomes = timed(tasks, configs, cluster=spec)
            same = verdicts(outcomes) == verdicts(alone)
            failures += not same
            print(
                f"local:{args.workers} chunk {size:<4}{wall:8.1f} s  {len(tasks) / wall:7.1f} "
                f"puzzles/s  speed-up {alone_s / wall:4.2f}  "
                f"{'same verdicts' if same else 'VERDICTS DIFFER'}"
            )
        latency = overhead(client, window=None)  # as bench runs: a few chunks out per worker
        per_chunk = overhead(client, window=500)  # as many out as the scheduler will take
    print(f"cluster round trip of one empty chunk, {args.workers} workers: {latency * 1e3:.2f} ms")
    print(f"cluster overhead: {per_chunk * 1e3:.2f} ms per chunk ({1 / per_chunk:.0f} chunks/s)")
    print(f"one puzzle, all configurations, one process: {per_puzzle * 1e3:.2f} ms")
    print("projection (puzzles/s): workers x 1/per-puzzle, capped by chunks/s x chunk size")
    for size in map(int, args.chunk_sizes.split(",")):
        cap = size / per_chunk
        cells = [f"{n}: {min(n / per_puzzle, cap):,.0f}" for n in (1, 2, 8, 32, 128, 512)]
        print(f"  chunk {size:<4} " + "  ".join(cells))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
