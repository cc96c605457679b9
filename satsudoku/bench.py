"""The experiment harness: datasets × backend configurations → rows, summaries and plots.

Rows stream to a CSV or JSON Lines file as they are measured, so an interrupted run keeps its
work and `resume` continues it; each run also records what makes it reproducible.
"""

from __future__ import annotations

import codecs
import csv
import ctypes
import hashlib
import io
import json
import math
import os
import platform
import random
import shlex
import signal
import stat
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import (
    Callable,
    Generator,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from satsudoku.backends import Backend, available, get_backend
from satsudoku.cluster import sigint_deferred
from satsudoku.errors import OutputError, PuzzleError
from satsudoku.io import iter_puzzles, read_text
from satsudoku.io.limits import MAX_LINE_CHARS, load_json
from satsudoku.io.output import write_output
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result, Status

if TYPE_CHECKING:
    from satsudoku.cluster import Cluster

DEFAULT_CONFIGS = ("bitmask", "sat:extended", "sat:minimal", "cpsat")
COLUMNS = ("dataset", "index", "config", "status", "time_s", "solved", "source", "stats")
_OPTION_OF = {"sat": "encoding", "cpsat": "model", "mip": "mip_solver"}  # `backend:VALUE`
_FLAGS_OF = {"bitmask": ("generic",), "cpsat": ("presolve", "certified")}  # `backend+FLAG`
_VALUES_OF = {"sat": ("solver", "amo"), "cpsat": ("workers",)}  # `backend+KEY=VALUE`

Row = dict[str, Any]
Key = tuple[str, int, str]


@dataclass(frozen=True)
class Config:
    """One column of the experiment: a backend and its options, named as on the command line."""

    name: str
    backend: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def make(self) -> Backend:
        return get_backend(self.backend, **self.options)


def parse_configs(text: str, *, solver: str | None = None) -> list[Config]:
    """`bitmask,sat:extended,cpsat:integer+presolve` → configurations.

    `backend[:VARIANT][+FLAG...]`: VARIANT is sat's encoding, cpsat's model or mip's solver; a
    FLAG switches a Boolean option on (cpsat: presolve, certified; bitmask: generic) or, as
    KEY=VALUE, sets one (sat: solver, amo; cpsat: workers), e.g.
    `sat:reduced+solver=minicard+amo=native` or `mip:highs`.
    `solver` applies to every sat configuration that names none.
    """
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise PuzzleError("--backends is empty; e.g. --backends bitmask,sat:extended,cpsat")
    configs = [_parse_config(name, solver) for name in names]
    if len({c.name for c in configs}) != len(configs):
        raise PuzzleError("--backends names a configuration twice")
    return configs


def _parse_config(name: str, solver: str | None) -> Config:
    head, *flags = name.split("+")
    backend, _, value = head.partition(":")
    if backend not in available(partial=True):
        raise PuzzleError(
            f"--backends: {backend!r} is not available; "
            f"choose from {', '.join(available(partial=True))}"
        )
    options: dict[str, Any] = {}
    if value:
        if backend not in _OPTION_OF:
            raise PuzzleError(f"--backends: {backend!r} takes no ':{value}' variant")
        options[_OPTION_OF[backend]] = value
    for flag in flags:
        key, has_value, value = flag.partition("=")
        known = _VALUES_OF.get(backend, ()) if has_value else _FLAGS_OF.get(backend, ())
        if key not in known:
            choices = f"choose from {', '.join(known)}" if known else "it takes none"
            what = "'+KEY=VALUE' option" if has_value else "flag"
            raise PuzzleError(f"--backends: {backend!r} has no '+{key}' {what}; {choices}")
        options[key] = (int(value) if value.isdigit() else value) if has_value else True
    if solver and backend == "sat":
        options.setdefault("solver", solver)
    config = Config(name, backend, options)
    config.make()  # fail now, with the backend's own message, on a bad variant name
    return config


@dataclass(frozen=True)
class Task:
    """One puzzle of one dataset; `index` is its position in the file (stable across samples)."""

    dataset: str
    index: int
    puzzle: Puzzle


@dataclass(frozen=True)
class Reading:
    """How datasets are read: `solve`'s input options (format, box, symbols, --rule)."""

    fmt: str = "auto"
    box: tuple[int, int] | None = None
    symbols: str | None = None
    rules: tuple[str, ...] = ()

    def options(self) -> dict[str, Any]:
        return {"fmt": self.fmt, "box": self.box, "symbols": self.symbols, "rules": self.rules}


def load_tasks(
    paths: Sequence[str], *, sample: int | None, seed: int, reading: Reading = Reading()
) -> list[Task]:
    """Every puzzle of every dataset, or `sample` of each drawn with `seed`."""
    names = [Path(path).name for path in paths]
    if len(set(names)) != len(names):
        raise PuzzleError("two datasets share a file name; rows could not be told apart")
    tasks: list[Task] = []
    for path, name in zip(paths, names, strict=True):
        chosen = _sample_lines(path, sample, seed, reading) if sample else None
        if chosen is None:
            puzzles = list(enumerate(iter_puzzles(path, **reading.options())))
            if sample and len(puzzles) > sample:
                picked = sorted(random.Random(seed).sample(range(len(puzzles)), sample))
                puzzles = [puzzles[i] for i in picked]
            chosen = puzzles
        if not chosen:
            raise PuzzleError(f"{path}: no puzzles found")
        tasks.extend(Task(name, index, puzzle) for index, puzzle in chosen)
    return tasks


def _sample_lines(
    path: str, k: int, seed: int, reading: Reading
) -> list[tuple[int, Puzzle]] | None:
    """Fast sampling for one-puzzle-per-line files: parse only the drawn lines.

    Returns None when the file is not of that kind, and the caller parses it whole. Two passes
    over a regular file (count the lines, then take the drawn ones), so memory follows the
    sample, not the file; a line over MAX_LINE_CHARS, text that is not UTF-8, or anything but
    a regular file (a device, a pipe) is left to the general reader and its one-line errors.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            count = sum(1 for _ in _content_lines(handle))
            picked = sorted(random.Random(seed).sample(range(count), min(k, count)))
            handle.seek(0)
            wanted = set(picked)
            lines = [line for i, line in enumerate(_content_lines(handle)) if i in wanted]
    except (OSError, UnicodeDecodeError, _NotLines):
        return None  # iter_puzzles reports it properly
    out: list[tuple[int, Puzzle]] = []
    for index, (number, text) in zip(picked, lines, strict=True):
        try:
            puzzles = read_text(text, source=path, **reading.options())
        except PuzzleError:
            return None
        if len(puzzles) != 1:
            return None
        puzzles[0] = replace(puzzles[0], origin=f"{path}:{number}")
        out.append((index, puzzles[0]))
    return out


class _NotLines(Exception):
    """A dataset that is not short lines of text: sampled by the general reader instead."""


def _content_lines(handle: BinaryIO) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line that is neither blank nor a `#` comment, reading at
    most MAX_LINE_CHARS a line (a 100 MB line, or /dev/zero, is never held whole)."""
    number = 0
    while raw := handle.readline(MAX_LINE_CHARS + 1):
        number += 1
        if len(raw) > MAX_LINE_CHARS and not raw.endswith(b"\n"):
            raise _NotLines
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        text = raw.decode("utf-8").strip()
        if text and not text.startswith("#"):
            yield number, text


def measure(
    task: Task, config: Config, backend: Backend, *, limit: int, timeout: float | None
) -> tuple[Row, Result]:
    """Solve one task with one configuration; the row and the result it came from."""
    start = time.perf_counter()
    result = backend.solve(task.puzzle, limit=limit, timeout=timeout)
    elapsed = time.perf_counter() - start
    row: Row = {
        "dataset": task.dataset,
        "index": task.index,
        "config": config.name,
        "status": result.status.value,
        "time_s": round(elapsed, 6),
        "solved": result.status is not Status.UNKNOWN,
        "source": task.puzzle.origin or "",
        "stats": {k: v for k, v in result.stats.items() if k != "time_s"},
    }
    return row, result


@dataclass(frozen=True)
class Outcome:
    """What measuring one task gave: its rows, any disagreement, and untimed warm-up seconds."""

    rows: list[Row]
    problem: str | None = None
    warm_up: dict[str, float] = field(default_factory=dict)  # config name -> seconds


def model_group(puzzle: Puzzle) -> Hashable | None:
    """Puzzles of one group share a backend's model (shape and rules); None if unhashable."""
    key = (puzzle.shape, puzzle.rules)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def shared_groups(tasks: Iterable[Task]) -> frozenset[Hashable]:
    """Groups of two or more puzzles: their model is built once, so warm it before timing.

    A puzzle with a rule set of its own (a killer's cages) builds its model for itself alone,
    so that cost stays in its time.
    """
    seen: set[Hashable] = set()
    shared: set[Hashable] = set()
    for task in tasks:
        key = model_group(task.puzzle)
        if key is not None:
            (shared if key in seen else seen).add(key)
    return frozenset(shared)


def warm_up(backend: Backend, puzzle: Puzzle, timeout: float | None) -> float:
    """Build `backend`'s model for the puzzle's shape and rules, untimed; the seconds it took.

    A backend with a `warm_up` hook builds just the model, within the run's timeout ('bench
    e64x2 --backends mip --timeout 1' built for 18 s before). Otherwise the empty puzzle of that
    shape and rules is solved (limit 1, within the run's timeout), which builds and caches it
    and lets the solver settle in (a warm-up cut short left a 25x25 SAT solve at 1 s, not 30 ms).
    """
    start = time.perf_counter()
    hook = getattr(backend, "warm_up", None)
    if hook is not None:
        hook(puzzle, timeout)
    else:
        backend.solve(Puzzle.empty(puzzle.shape, puzzle.rules), limit=1, timeout=timeout)
    return time.perf_counter() - start


class Measurer:
    """One process's (or cluster worker thread's) backends for a run: built once, then warmed
    at each shared group's first task and used for every task after."""

    def __init__(
        self,
        configs: Sequence[Config],
        limit: int,
        timeout: float | None,
        check: bool,
        groups: frozenset[Hashable] = frozenset(),
    ) -> None:
        self.configs = tuple(configs)
        self.backends = [c.make() for c in configs]
        self.limit, self.timeout, self.check, self.groups = limit, timeout, check, groups
        self.current: Hashable | None = None  # the group whose models are warm

    def warm_up_for(self, task: Task) -> dict[str, float]:
        """Warm every configuration for the task's group when this run enters it.

        Done at the group's first task, not up front: a backend may keep one model at a time.
        """
        key = model_group(task.puzzle)
        if key not in self.groups or key == self.current:
            return {}
        self.current = key  # warmed again after another group: its models may be gone
        return {
            config.name: warm_up(backend, task.puzzle, self.timeout)
            for config, backend in zip(self.configs, self.backends, strict=True)
        }

    def run_task(self, task: Task) -> Outcome:
        """Every configuration on one puzzle; with cross-checking, any disagreement's report."""
        warm = self.warm_up_for(task)
        rows: list[Row] = []
        results: dict[str, Result] = {}
        for config, backend in zip(self.configs, self.backends, strict=True):
            row, result = measure(task, config, backend, limit=self.limit, timeout=self.timeout)
            rows.append(row)
            results[config.name] = result
        problem = None
        if self.check:
            from satsudoku.crosscheck import disagreement

            problem = disagreement(task.puzzle, results)
        return Outcome(rows, problem, warm)


# Per-process state of the worker pool: backends are built once per process, not per task.
_WORKER: list[Measurer] = []


def _init_worker(
    configs: Sequence[Config],
    limit: int,
    timeout: float | None,
    check: bool,
    groups: frozenset[Hashable] = frozenset(),
    pooled: bool = False,
) -> None:
    if pooled:  # Ctrl-C reaches the whole process group; the parent alone handles it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _die_with_parent()
    _WORKER[:] = [Measurer(configs, limit, timeout, check, groups)]


def _run_task(task: Task) -> Outcome:
    return _WORKER[0].run_task(task)


def _run_chunk(
    run_id: str,
    setup: tuple[tuple[Config, ...], int, float | None, bool, frozenset[Hashable]],
    tasks: list[Task],
) -> list[Outcome]:
    """A cluster task: one chunk of puzzles, by this worker thread's Measurer for the run."""
    from satsudoku.cluster import session

    measurer: Measurer = session(run_id, lambda: Measurer(*setup))
    return [measurer.run_task(task) for task in tasks]


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _die_with_parent() -> None:
    """End this worker when its parent dies, even by SIGKILL, which runs no cleanup in it.

    Otherwise orphaned workers run on, solving, and hold the output pipes open. On Linux the
    kernel sends SIGKILL at the parent's death (prctl PR_SET_PDEATHSIG); everywhere, a daemon
    thread also polls getppid(), which changes once the worker is orphaned.
    """
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watcher thread still does the job, within a second
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    watcher = threading.Thread(target=_watch_parent, args=(parent,), daemon=True)
    watcher.start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)  # no cleanup: the rows belong to the parent, which is gone


def run(
    tasks: Sequence[Task],
    configs: Sequence[Config],
    *,
    limit: int = 2,
    timeout: float | None = None,
    workers: int = 1,
    cross_check: bool = False,
    cluster: Cluster | None = None,
    ready: Callable[[], object] | None = None,
) -> Generator[Outcome, None, None]:
    """The outcome of every task, in order, one task (all configurations) at a time.

    With `workers` > 1 the tasks run in that many processes; an exception or Ctrl-C in the
    consumer (or closing this generator) ends them at once rather than after their puzzle.
    With a `cluster`, chunks of tasks run on Dask (in order unless the cluster says otherwise);
    `ready` is called once it is up, so a wall clock can leave its start-up out.
    """
    groups = shared_groups(tasks)
    if cluster is not None:
        setup = (tuple(configs), limit, timeout, cross_check, groups)
        yield from _run_on_cluster(tasks, setup, cluster, ready)
        return
    if workers <= 1:
        _init_worker(configs, limit, timeout, cross_check, groups)
        yield from map(_run_task, tasks)
        return
    pool = ProcessPoolExecutor(
        max_workers=workers,
        initializer=_init_worker,
        initargs=(tuple(configs), limit, timeout, cross_check, groups, True),
    )
    try:
        yield from pool.map(_run_task, tasks, chunksize=4)
    except BaseException:  # KeyboardInterrupt, GeneratorExit, a consumer's error
        _terminate(pool)
        raise
    pool.shutdown()


def _run_on_cluster(
    tasks: Sequence[Task],
    setup: tuple[tuple[Config, ...], int, float | None, bool, frozenset[Hashable]],
    cluster: Cluster,
    ready: Callable[[], object] | None,
) -> Generator[Outcome, None, None]:
    from satsudoku import cluster as dask

    work = partial(_run_chunk, uuid.uuid4().hex, setup)  # the id keys each worker's Measurer
    with dask.connect(cluster) as client:
        if ready is not None:
            ready()
        outcomes = dask.stream(
            client, work, tasks, chunk_size=cluster.chunk_size, ordered=cluster.ordered
        )
        with closing(outcomes):  # cancels the queued chunks before the client closes
            for _, outcome in outcomes:
                yield outcome


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now: a puzzle mid-search may run up to the timeout, or forever."""
    if hasattr(pool, "terminate_workers"):  # Python 3.14+
        pool.terminate_workers()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public handle
    # shutdown(wait=False) forgets the pool's manager thread. It must have ended before the
    # interpreter exits: else the exit hook of concurrent.futures may wake it through a pipe
    # it is closing, and print "Exception ignored … Bad file descriptor" after our one line
    # (seen once in ~10 interrupted runs on a loaded machine, Python 3.11).
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    if manager is not None:
        manager.join(timeout=10)  # it sees the workers gone and closes its pipes


def pending(tasks: Sequence[Task], configs: Sequence[Config], done: set[Key]) -> list[Task]:
    """Tasks with at least one configuration not yet measured (everything reruns for those)."""
    names = [c.name for c in configs]
    return [t for t in tasks if any((t.dataset, t.index, n) not in done for n in names)]


def metadata_record(
    *,
    seed: int,
    sample: int | None,
    timeout: float | None,
    workers: int,
    limit: int,
    configs: Sequence[Config],
    datasets: Sequence[str],
    reading: Reading = Reading(),
    argv: Sequence[str] | None = None,
    cluster: str | None = None,
) -> dict[str, Any]:
    """What makes a run reproducible: versions, machine, options, inputs, command line.

    `cluster` is the Dask scheduler or `local:N` the rows were measured on (None: this
    machine, `workers` processes).
    """
    return {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": shlex.join(argv if argv is not None else sys.argv),
        "satsudoku": _version("satsudoku"),
        "python-sat": _version("python-sat"),
        "ortools": _version("ortools"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu_name(),
        "cpu_count": os.cpu_count(),
        "seed": seed,
        "sample": sample,
        "timeout_s": timeout,
        "workers": workers,
        "cluster": cluster,
        "limit": limit,
        "configs": {c.name: {"backend": c.backend, **c.options} for c in configs},
        "datasets": {Path(p).name: {"path": str(p), "sha256": _sha256(p)} for p in datasets},
        "reading": reading.options(),
    }


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _sha256(path: str) -> str | None:
    """The dataset's digest, read in chunks; None for anything but a regular file (a pipe
    was read once already and would block, a device never ends)."""
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


class RowWriter:
    """Appends rows to a .csv or .jsonl file, flushing each, after one metadata record.

    CSV keeps metadata in `# meta {json}` comment lines (pandas: `comment="#"`); JSON Lines
    keeps it as a `{"meta": ...}` line. A resumed run appends a new metadata record.
    """

    def __init__(self, path: str, meta: Mapping[str, Any], *, resume: bool) -> None:
        self.path = path
        self.csv = _is_csv(path)
        exists = resume and Path(path).exists() and Path(path).stat().st_size > 0
        headed = exists and _has_header(path)  # a run cut before its header has none
        # No symlink followed even if one appears after check_writable (a shared /tmp).
        flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(path, flags | (os.O_APPEND if exists else os.O_TRUNC), 0o666)
        self.handle: TextIO = open(fd, "a" if exists else "w", encoding="utf-8", newline="")
        if self.csv:
            self.handle.write(f"# meta {json.dumps(meta)}\n")
            self.writer = csv.DictWriter(self.handle, COLUMNS)
            if not headed:
                self.writer.writeheader()
        else:
            self.handle.write(json.dumps({"meta": meta}) + "\n")
        self.handle.flush()

    def write(self, rows: Iterable[Row]) -> None:
        """Rows written whole: a Ctrl-C while they go out waits until they are flushed, so an
        interrupted run leaves no row cut mid-line (as one killed outright may: see
        `drop_torn_row`)."""
        with sigint_deferred() as pressed:
            for row in rows:
                if self.csv:
                    self.writer.writerow({**row, "stats": json.dumps(row["stats"])})
                else:
                    self.handle.write(json.dumps(row) + "\n")
            self.handle.flush()
        if pressed:  # delivered now, to whatever handles it (an ignoring one ignores it)
            signal.raise_signal(signal.SIGINT)

    def close(self) -> None:
        self.handle.close()


def _has_header(path: str) -> bool:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return any(not line.startswith("#") for line in handle)


def check_writable(path: str, flag: str) -> None:
    """Fail before measuring when `path` cannot be written (a missing or read-only directory,
    a directory in the way), leaving nothing behind: --plot is written only after the run."""
    target = Path(path)
    parent = target.parent
    if target.is_symlink():  # following it could overwrite whatever file the link names
        raise PuzzleError(f"{flag} {path}: is a symbolic link (name its target)")
    if target.is_dir():
        raise PuzzleError(f"{flag} {path}: is a directory")
    if flag == "--out" and target.exists() and not target.is_file():
        # Rows are appended and read back by --resume: a pipe would hang here, unread.
        raise PuzzleError(f"{flag} {path}: not a regular file")
    if not parent.is_dir():
        raise PuzzleError(f"{flag} {path}: directory {parent} does not exist")
    try:
        with tempfile.TemporaryFile(dir=parent):  # creating a file is the only honest test
            pass
        if target.exists():
            with open(target, "ab"):  # appends nothing; fails on a read-only file
                pass
    except OSError as exc:
        raise PuzzleError(f"{flag} {path}: cannot write there: {exc.strerror}") from None


def _is_csv(path: str) -> bool:
    suffix = Path(path).suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        raise PuzzleError(f"--out {path}: use a .csv or .jsonl file name")
    return suffix == ".csv"


def read_rows(path: str) -> list[Row]:
    """The rows of an earlier run's output (metadata records skipped), for --resume."""
    csv_file = _is_csv(path)
    if not Path(path).exists():
        return []
    rows: list[Row] = []
    header: list[str] | None = None  # CSV: the first line that is not a comment
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        for number, line in enumerate(handle, start=1):
            if "\ufffd" in line:
                raise PuzzleError(f"--resume: line {number} is not UTF-8 text", source=path)
            if not line.strip() or (csv_file and line.startswith("#")):
                continue
            try:
                if csv_file and header is None:
                    header = next(csv.reader([line]))
                    if header != list(COLUMNS):
                        raise ValueError(f"the header is not {','.join(COLUMNS)}")
                    continue
                record = _csv_row(header, line) if header else _jsonl_record(line)
            except (ValueError, TypeError) as exc:  # JSONDecodeError is a ValueError
                raise PuzzleError(
                    f"--resume: line {number} is damaged ({exc}); repair or delete it, "
                    "or use a new --out",
                    source=path,
                ) from None
            if "meta" not in record:
                rows.append(record)
    return rows


def _csv_row(header: list[str], line: str) -> Row:
    fields = next(csv.reader([line]))
    if len(fields) != len(header):
        raise ValueError(f"{len(fields)} fields, not {len(header)}")
    record = dict(zip(header, fields, strict=True))
    return _checked_row(
        {
            **record,
            "index": int(record["index"]),
            "time_s": float(record["time_s"]),
            "solved": record["solved"] == "True",
            "stats": _json(record["stats"] or "{}"),
        }
    )


def _jsonl_record(line: str) -> Row:
    record = _json(line)
    if not isinstance(record, dict) or not ("meta" in record or set(COLUMNS) <= set(record)):
        raise ValueError("it is neither a row nor a metadata record")
    return record if "meta" in record else _checked_row(record)


def _json(text: str) -> Any:
    """A rows file's JSON, under the input limits (nesting, numbers): a damaged or hostile
    line is a ValueError naming it, never a RecursionError."""
    try:
        return load_json(text, "row")
    except PuzzleError as exc:
        raise ValueError(exc.message) from None


def _checked_row(row: Row) -> Row:
    """A row read back, its fields of the types a fresh row has (summaries and keys use them)."""
    for name in ("dataset", "config", "status", "source"):
        if not isinstance(row[name], str):
            raise ValueError(f"its {name} is not a string")
    if type(row["index"]) is not int or row["index"] < 0:
        raise ValueError("its index is not a whole number")
    if type(row["time_s"]) not in (int, float) or not 0 <= row["time_s"] < math.inf:
        raise ValueError("its time_s is not a finite number of seconds")
    if not isinstance(row["solved"], bool):
        raise ValueError("its solved is not true or false")
    if not isinstance(row["stats"], dict):
        raise ValueError("its stats are not a JSON object")
    return row


def drop_torn_row(path: str) -> int:
    """Cut off a last line an interrupted run left without its newline; the bytes removed.

    Rows never contain a newline, so whatever follows the last one is a row cut mid-write;
    appending after it would glue the next record onto it. Reads only the file's tail.
    """
    with open(path, "rb+") as handle:
        end = handle.seek(0, os.SEEK_END)
        position = end
        while position > 0:
            start = max(0, position - (1 << 16))
            handle.seek(start)
            newline = handle.read(position - start).rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            position = start
        else:
            keep = 0
        if keep < end:
            handle.truncate(keep)
    return end - keep


def read_meta(path: str) -> list[dict[str, Any]]:
    """The metadata records of an earlier run's output, oldest first."""
    if not Path(path).exists():
        return []
    csv_file = _is_csv(path)
    records: list[dict[str, Any]] = []
    with open(path, encoding="utf-8", newline="") as handle:
        for line in handle:
            try:
                if csv_file and line.startswith("# meta "):
                    record = _json(line.removeprefix("# meta "))
                elif not csv_file and line.startswith('{"meta"'):
                    record = _json(line)["meta"]
                else:
                    continue
            except (ValueError, TypeError, KeyError):
                continue  # a line cut short by an interruption (or not a record at all)
            if isinstance(record, dict):
                records.append(record)
    return records


# Options that change what a row means; --resume must not mix rows measured under others.
RESUME_KEYS = {"timeout_s": "--timeout", "limit": "--limit", "configs": "--backends"}


def resume_conflict(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> str | None:
    """Which option of this run differs from the recorded run's, in one line; None if none."""
    now = json.loads(json.dumps(current))  # compare as JSON: tuples are lists there
    for key, flag in RESUME_KEYS.items():
        if key in recorded and recorded[key] != now.get(key):
            return (
                f"--resume: {flag} differs from the recorded run's "
                f"({_shown(key, now.get(key))} now, {_shown(key, recorded[key])} then); "
                "use the same options or a new --out"
            )
    return None


def _shown(key: str, value: Any) -> str:
    if key == "configs" and isinstance(value, Mapping):
        return ",".join(value)
    if key == "timeout_s" and value is None:
        return "none"
    return str(value)


def row_key(row: Row) -> Key:
    return (str(row["dataset"]), int(row["index"]), str(row["config"]))


@dataclass(frozen=True)
class Summary:
    """Throughput and latency of one configuration on one dataset (times in seconds)."""

    dataset: str
    config: str
    puzzles: int
    solved: int
    per_second: float
    median: float
    p90: float
    p99: float
    maximum: float


def summarize(rows: Iterable[Row]) -> list[Summary]:
    """One Summary per (dataset, configuration), in first-seen order."""
    groups: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        groups.setdefault((str(row["dataset"]), str(row["config"])), []).append(row)
    out = []
    for (dataset, config), group in groups.items():
        times = sorted(float(r["time_s"]) for r in group)
        total = sum(times)
        out.append(
            Summary(
                dataset,
                config,
                len(times),
                sum(1 for r in group if r["solved"]),
                len(times) / total if total > 0 else float("inf"),
                statistics.median(times),
                _quantile(times, 0.90),
                _quantile(times, 0.99),
                times[-1],
            )
        )
    return out


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank quantile: the smallest time at least a fraction q of runs stayed within."""
    rank = math.ceil(round(q * len(ordered), 9))  # round: 0.9 * 10 is 9.000000000000002
    return ordered[min(len(ordered), max(1, rank)) - 1]


def format_summary(summaries: Sequence[Summary], *, markdown: bool = False) -> str:
    """The summary as an aligned text table, or as a Markdown table.

    `puzzles/s (n/Σt)` is puzzles divided by the sum of their solve times: one configuration's
    speed on one core, whatever --workers was; `format_wall` gives the run's wall clock.
    """
    header = [
        "dataset",
        "config",
        "puzzles",
        "solved",
        "puzzles/s (n/Σt)",
        "median ms",
        "p90 ms",
        "p99 ms",
        "max ms",
    ]
    body = [
        [
            s.dataset,
            s.config,
            str(s.puzzles),
            f"{s.solved}/{s.puzzles}",
            f"{s.per_second:.1f}",
            f"{s.median * 1e3:.2f}",
            f"{s.p90 * 1e3:.2f}",
            f"{s.p99 * 1e3:.2f}",
            f"{s.maximum * 1e3:.1f}",
        ]
        for s in summaries
    ]
    return _table(header, body, markdown=markdown, left=2)


class WallClock:
    """Wall-clock time per dataset as the run sees it: what --workers speeds up.

    Tasks come back in order and datasets one after another, so the time between two
    consecutive results belongs to the later one's dataset (with --workers, tasks near a
    dataset boundary overlap, so only the total is exact).
    """

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.seconds: dict[str, float] = {}
        self.puzzles: dict[str, int] = {}

    def restart(self) -> None:
        """Count from now: what came before (a cluster starting) is no dataset's time."""
        self.last = time.perf_counter()

    def record(self, dataset: str) -> None:
        now = time.perf_counter()
        self.seconds[dataset] = self.seconds.get(dataset, 0.0) + now - self.last
        self.puzzles[dataset] = self.puzzles.get(dataset, 0) + 1
        self.last = now


def format_wall(
    wall: WallClock, configs: int, workers: int, *, markdown: bool = False, where: str = ""
) -> str:
    """Puzzles per wall-clock second, each puzzle run by every configuration, per dataset."""
    header = ["dataset", "puzzles", "wall s", "puzzles/s (wall)"]
    spans = [(dataset, n, wall.seconds[dataset]) for dataset, n in wall.puzzles.items()]
    if len(spans) > 1:
        spans.append(("all", sum(wall.puzzles.values()), sum(wall.seconds.values())))
    body = [
        [dataset, str(n), f"{seconds:.2f}", f"{n / seconds:.1f}"]
        for dataset, n, seconds in spans
        if seconds > 0
    ]
    process = "process" if workers == 1 else "processes"
    where = where or f"{workers} {process}"
    title = (
        f"wall clock of this run ({configs} configurations per puzzle, {where}, "
        "untimed warm-up included):"
    )
    return title + "\n" + _table(header, body, markdown=markdown, left=1)


def _table(header: list[str], body: list[list[str]], *, markdown: bool, left: int) -> str:
    """Aligned text (the first `left` columns flush left) or a Markdown table."""
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * left]
        lines[1] += "---:|" * (len(header) - left)
        lines += ["| " + " | ".join(cells) + " |" for cells in body]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in [header, *body]
    )


def require_matplotlib() -> None:
    """Fail before measuring anything when --plot cannot be honoured."""
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        raise PuzzleError("--plot needs matplotlib: pip install 'satsudoku[plot]'") from None


def plot(rows: Sequence[Row], summaries: Sequence[Summary], path: str) -> None:
    """A cactus plot (puzzles solved vs. time per puzzle) and per-dataset throughput bars."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    configs = list(dict.fromkeys(str(r["config"]) for r in rows))
    datasets = list(dict.fromkeys(s.dataset for s in summaries))
    figure, (cactus, bars) = plt.subplots(1, 2, figsize=(13, 5))
    for config in configs:
        times = sorted(float(r["time_s"]) for r in rows if r["config"] == config and r["solved"])
        cactus.plot(range(1, len(times) + 1), times, marker=".", markersize=3, label=config)
    cactus.set(
        yscale="log",
        xlabel="puzzles solved",
        ylabel="time per puzzle (s)",
        title="Cactus plot (all datasets)",
    )
    cactus.grid(True, which="both", alpha=0.3)
    width = 0.8 / max(1, len(configs))
    rate = {(s.dataset, s.config): s.per_second for s in summaries}
    for k, config in enumerate(configs):
        xs = [i + k * width for i in range(len(datasets))]
        bars.bar(xs, [rate.get((d, config), 0.0) for d in datasets], width, label=config)
    bars.set_xticks([i + width * (len(configs) - 1) / 2 for i in range(len(datasets))])
    bars.set_xticklabels([Path(d).stem for d in datasets], rotation=20, ha="right")
    bars.set(yscale="log", ylabel="puzzles per second", title="Throughput per dataset")
    bars.grid(True, axis="y", which="both", alpha=0.3)
    # One legend below both plots: inside either it hides curves or bars.
    handles, labels = cactus.get_legend_handles_labels()
    columns = min(len(configs), 3)
    figure.legend(handles, labels, loc="lower center", ncol=columns, frameon=False)
    rows_of_labels = -(-len(configs) // columns)
    figure.tight_layout(rect=(0, 0.05 * rows_of_labels + 0.02, 1, 1))
    picture = io.BytesIO()  # drawn in memory, then written whole and never through a symlink
    try:
        figure.savefig(picture, dpi=120, format=Path(path).suffix.lstrip(".").lower() or "png")
    except ValueError as exc:  # a suffix matplotlib cannot write
        raise PuzzleError(f"--plot {path}: {exc}") from None
    finally:
        plt.close(figure)
    try:
        write_output(path, picture.getvalue())
    except OutputError as exc:
        reason = str(exc).removeprefix(f"cannot write {path}: ")
        raise PuzzleError(f"--plot {path}: {reason}") from None
