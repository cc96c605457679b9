"""Large boards: cost against board size per backend, solve time against fill, and the race.

Every run is its own process, so its peak memory (ru_maxrss) and CPU time are its own; puzzles
are `satsudoku.tools.holes` QCP-style instances (a random complete grid with a fraction of
cells kept, seeded), so every instance is satisfiable and most below ~80% fill have several
solutions. "Settled" means a verdict other than unknown (unique, multiple or unsatisfiable).

    python benchmarks/bench_large.py sizes  --out benchmarks/results/large_sizes.csv
    python benchmarks/bench_large.py fills  --out benchmarks/results/large_fills.csv
    python benchmarks/bench_large.py race   --out benchmarks/results/large_race.csv
    python benchmarks/bench_large.py transition --seeds 5 --timeout 60 --configs sat:reduced
    python benchmarks/bench_large.py plot [sizes fills transition]  (CSV files -> PNGs beside)

`found` is how many solutions the run had when it stopped: an unknown with 0 never found the
first solution, an unknown with 1 found it and could not settle whether a second exists.

On a shared machine read the CPU column: wall time there includes waiting for a core.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"
CONFIGS = {
    "sat": ("sat", {}),
    "sat:reduced": ("sat", {"encoding": "reduced"}),
    "cpsat": ("cpsat", {}),
    "bitmask": ("bitmask", {}),
    "fast": ("fast", {}),
    "race": ("race", {}),
}
FIELDS = [
    "config",
    "size",
    "fill",
    "seed",
    "status",
    "found",
    "cpu_s",
    "wall_s",
    "peak_mb",
    "winner",
]


def one(config: str, boxes: int, fill: float, seed: int, timeout: float) -> dict[str, object]:
    """Solve one instance in this process and describe it (called in a child process)."""
    from satsudoku.backends import get_backend
    from satsudoku.grid import Shape
    from satsudoku.tools.holes import qcp_puzzle

    puzzle = qcp_puzzle(Shape(boxes, boxes), fill, seed)
    name, options = CONFIGS[config]
    backend = get_backend(name, **options)
    cpu, wall = time.process_time(), time.perf_counter()
    result = backend.solve(puzzle, timeout=timeout)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the race's entrants
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "config": config,
        "size": boxes * boxes,
        "fill": fill,
        "seed": seed,
        "status": result.status.value,
        "found": len(result.solutions),
        "cpu_s": round(time.process_time() - cpu + children.ru_utime + children.ru_stime, 3),
        "wall_s": round(time.perf_counter() - wall, 3),
        "peak_mb": max(own.ru_maxrss, children.ru_maxrss) // 1024,
        "winner": result.stats.get("winner", ""),
    }


def run(config: str, boxes: int, fill: float, seed: int, timeout: float) -> dict[str, object]:
    """`one` in a fresh process; a crash (e.g. out of memory) is a row with its exit code."""
    command = [sys.executable, __file__, "one", config, str(boxes), str(fill), str(seed)]
    command += [str(timeout)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1]
        row: dict[str, object] = {"config": config, "size": boxes * boxes, "fill": fill}
        return {**row, "seed": seed, "status": f"error: {tail}"}
    loaded: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


def sweep(jobs: list[tuple[str, int, float, int]], timeout: float, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as handle:
        handle.write(f"# timeout_s {timeout}, load at start {os.getloadavg()[0]:.1f}\n")
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        for config, boxes, fill, seed in jobs:
            row = run(config, boxes, fill, seed, timeout)
            writer.writerow(row)
            handle.flush()
            print(json.dumps(row), flush=True)


def plot(only: list[str]) -> None:
    """Cost against size per backend, time against fill per backend, and the transition
    (`only`: some of sizes, fills, transition; all when empty)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for name, x_field in (("large_sizes", "size"), ("large_fills", "fill")):
        path = RESULTS / f"{name}.csv"
        if only and name.removeprefix("large_") not in only:
            continue
        if not path.exists():
            continue
        with path.open() as handle:
            rows = list(csv.DictReader(line for line in handle if not line.startswith("#")))
        fills = sorted({row["fill"] for row in rows}) if x_field == "size" else ["all"]
        figure, axes = plt.subplots(1, 2 if x_field == "size" else 1, figsize=(11, 4.2))
        axes_list = list(axes) if x_field == "size" else [axes]
        for panel, (axis, fill) in enumerate(zip(axes_list, fills, strict=False)):
            for config in CONFIGS:
                picked = [
                    row
                    for row in rows
                    if row["config"] == config
                    and (fill == "all" or row["fill"] == fill)
                    and row.get("cpu_s")
                ]
                if not picked:
                    continue
                xs = [float(row[x_field]) for row in picked]
                ys = [max(float(row["cpu_s"]), 1e-3) for row in picked]  # clock resolution
                settled = [row["status"] not in ("unknown",) for row in picked]
                axis.plot(xs, ys, marker="o", label=config, alpha=0.8)
                axis.scatter(
                    [x for x, ok in zip(xs, settled, strict=True) if not ok],
                    [y for y, ok in zip(ys, settled, strict=True) if not ok],
                    marker="x",
                    color="black",
                    zorder=3,
                )
            axis.set_yscale("log")
            axis.set_ylabel("CPU seconds (x: unknown at the timeout)")
            axis.set_xlabel("board size n" if x_field == "size" else "fraction of cells given")
            title = f"fill {fill}" if x_field == "size" else "25x25 QCP instances"
            axis.set_title(title)
            if panel == 0:
                axis.legend()
        figure.tight_layout()
        figure.savefig(RESULTS / f"{name}.png", dpi=90)
        print(f"wrote {RESULTS / f'{name}.png'}")
    if not only or "transition" in only:
        plot_transition(plt)


def plot_transition(plt: Any) -> None:
    """Every seed's CPU against fill (x: unknown), one panel per board size, a line through the
    medians; each config's dots are nudged sideways so that configs at one fill stay apart."""
    path = RESULTS / "large_transition.csv"
    if not path.exists():
        return
    with path.open() as handle:
        rows = list(csv.DictReader(line for line in handle if not line.startswith("#")))
    highest = max(float(row["cpu_s"]) for row in rows if row.get("cpu_s"))
    sizes = sorted({int(row["size"]) for row in rows})
    figure, axes = plt.subplots(1, len(sizes), figsize=(5.5 * len(sizes), 4.2), squeeze=False)
    for axis, size in zip(axes[0], sizes, strict=True):
        here = [r for r in rows if int(r["size"]) == size and r.get("cpu_s")]
        present = [config for config in CONFIGS if any(r["config"] == config for r in here)]
        for nudge, config in enumerate(present):
            picked = [r for r in here if r["config"] == config]
            fills = sorted({float(r["fill"]) for r in picked})
            medians = [
                statistics.median(float(r["cpu_s"]) for r in picked if float(r["fill"]) == f)
                for f in fills
            ]
            (line,) = axis.plot(fills, medians, label=f"{config} (median)", alpha=0.8)
            for unknown, marker in ((False, "o"), (True, "x")):
                dots = [r for r in picked if (r["status"] == "unknown") == unknown]
                axis.scatter(
                    [float(r["fill"]) + 0.003 * nudge for r in dots],
                    [max(float(r["cpu_s"]), 1e-3) for r in dots],
                    marker=marker,
                    color=line.get_color(),
                    zorder=3,
                )
        axis.axhline(10, color="grey", linestyle=":", linewidth=1)  # the target
        axis.set_yscale("log")
        axis.set_ylim(top=highest * 2)
        axis.set_xlabel("fraction of cells given")
        axis.set_ylabel("CPU seconds (x: unknown at the timeout)")
        axis.set_title(f"{size}x{size} QCP instances, one dot per seed")
        axis.legend()
    figure.tight_layout()
    figure.savefig(RESULTS / "large_transition.png", dpi=90)
    print(f"wrote {RESULTS / 'large_transition.png'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["sizes", "fills", "race", "transition", "plot", "one"])
    parser.add_argument("args", nargs="*")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--configs", default="sat:reduced,cpsat", help="transition: which")
    parser.add_argument("--boxes", default="6,7", help="transition: box sizes (6: 36x36)")
    parser.add_argument("--fills", default="0.45,0.5,0.55,0.6", help="transition: fills")
    options = parser.parse_args()
    if options.what == "one":
        config, boxes, fill, seed, timeout = options.args
        print(json.dumps(one(config, int(boxes), float(fill), int(seed), float(timeout))))
        return 0
    if options.what == "plot":
        plot(options.args)
        return 0
    seeds = range(1, options.seeds + 1)
    if options.what == "sizes":
        jobs = [
            (config, boxes, fill, seed)
            for fill in (0.7, 0.5)
            for boxes in (3, 4, 5, 6, 7, 8)
            for config in ("sat", "sat:reduced", "cpsat", "bitmask")
            for seed in seeds
        ]
    elif options.what == "fills":
        fills = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8)
        jobs = [
            (config, 5, fill, seed)
            for fill in fills
            for config in ("sat", "sat:reduced", "cpsat", "bitmask")
            for seed in seeds
        ]
    elif options.what == "transition":
        configs = options.configs.split(",")
        unknown = sorted(set(configs) - set(CONFIGS))
        if unknown:
            parser.error(f"unknown config {unknown[0]!r}; choose from {', '.join(CONFIGS)}")
        jobs = [
            (config, int(boxes), fill, seed)
            for boxes in options.boxes.split(",")
            for fill in map(float, options.fills.split(","))
            for seed in seeds
            for config in configs
        ]
    else:
        jobs = [
            (config, boxes, fill, seed)
            for boxes, fill in ((5, 0.42), (6, 0.5))
            for seed in seeds
            for config in ("sat", "sat:reduced", "cpsat", "race")
        ]
    sweep(jobs, options.timeout, options.out or RESULTS / f"large_{options.what}.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
