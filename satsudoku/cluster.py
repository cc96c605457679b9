"""Run chunks of puzzles on a Dask cluster and stream the results back, in input order or as they
come. A chunk lost with its worker is recomputed by Dask and its result is taken once, so no row
is lost or duplicated; each worker thread keeps its solvers between chunks (`session`).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import itertools
import re
import shutil
import signal
import sys
import tempfile
import threading
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from satsudoku.errors import SatsudokuError

Item = TypeVar("Item")
Out = TypeVar("Out")

_LOCAL = re.compile(r"local:([1-9][0-9]{0,3})")
_SESSIONS_KEPT = 4  # per worker process: a long-lived worker serves many runs, one at a time


@dataclass(frozen=True)
class Cluster:
    """Where chunks run: a running scheduler's address, or a LocalCluster of `local` workers."""

    scheduler: str | None = None
    local: int | None = None
    chunk_size: int = 16
    ordered: bool = True

    def describe(self) -> str:
        return self.scheduler if self.scheduler else f"local:{self.local}"


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """--scheduler, --cluster, --chunk-size and --unordered, one spelling for every command."""
    group = parser.add_argument_group("distributed runs (pip install 'satsudoku[cluster]')")
    where = group.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a running Dask scheduler, e.g. tcp://host:8786 (`dask scheduler`)",
    )
    where.add_argument(
        "--cluster",
        type=_local_workers,
        metavar="local:N",
        help="run on a Dask LocalCluster of N worker processes started for this run",
    )
    group.add_argument(
        "--chunk-size",
        type=_chunk_size,
        default=16,
        metavar="N",
        help="puzzles per Dask task (default: 16)",
    )
    group.add_argument(
        "--unordered",
        action="store_true",
        help="write results as chunks finish rather than in input order",
    )


def _local_workers(text: str) -> int:
    match = _LOCAL.fullmatch(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r}: use local:N, e.g. local:4")
    return int(match.group(1))


def _chunk_size(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number from 1 to 100000")
    return int(text)


def cluster_from_args(args: argparse.Namespace) -> Cluster | None:
    """The cluster the options name, or None; refuses --unordered alone and a missing Dask."""
    scheduler, local = args.scheduler, args.cluster
    if scheduler is None and local is None:
        if args.unordered:
            raise SatsudokuError("--unordered needs --scheduler or --cluster")
        return None
    if importlib.util.find_spec("distributed") is None:  # find_spec imports nothing
        flag = "--scheduler" if scheduler is not None else "--cluster"
        raise SatsudokuError(f"{flag} needs Dask: pip install 'satsudoku[cluster]'")
    return Cluster(scheduler, local, args.chunk_size, not args.unordered)


@contextmanager
def connect(cluster: Cluster) -> Iterator[Any]:
    """A `distributed.Client` for the run (a LocalCluster is started and closed with it); its
    scheduler, workers and dashboard are said on stderr, as `dask` itself does."""
    import logging

    distributed = _distributed()
    scratch = None
    if cluster.local is not None:
        import dask

        # Dask's workspace is /tmp/dask-scratch-space unless told otherwise: a name anyone on
        # the machine can create first, open to all, with symlinks at its lock files' names.
        # The scheduler and workers of this run get a private folder instead (0700, fresh).
        scratch = tempfile.mkdtemp(prefix="satsudoku-dask-")
        # One thread per process: pure-Python solving holds the GIL, and a worker thread's
        # solvers are its own. Port 0: another run on this machine may hold Dask's default.
        try:
            with sigint_deferred() as pressed, dask.config.set({"temporary-directory": scratch}):
                local = distributed.LocalCluster(
                    n_workers=cluster.local,
                    threads_per_worker=1,
                    processes=True,
                    scheduler_port=0,
                    dashboard_address=":0",
                    silence_logs=logging.CRITICAL,  # a busy worker logs its scheduler closing
                )
                client = distributed.Client(local)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
    else:
        local, pressed = None, []
        try:
            # Dask's connect timeout (distributed.comm.timeouts.connect, 30 s by default; e.g.
            # DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s): a scheduler may be starting too.
            client = distributed.Client(cluster.scheduler)
        except (OSError, ValueError, TypeError) as exc:  # TimeoutError is an OSError
            raise SatsudokuError(
                f"--scheduler {cluster.scheduler}: cannot connect ({exc}); start one with "
                "`dask scheduler` and give its tcp://HOST:PORT"
            ) from None
    try:
        if pressed:
            raise KeyboardInterrupt  # held while the cluster started; now it can be closed
        workers = len(client.scheduler_info().get("workers", {}))
        link = client.dashboard_link if _has_dashboard(client) else "none (pip install bokeh)"
        print(
            f"satsudoku: dask scheduler {client.scheduler.address}, {workers} workers, "
            f"dashboard {link}",
            file=sys.stderr,
            flush=True,
        )
        yield client
    finally:
        client.close()
        if local is not None:
            local.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


@contextmanager
def sigint_deferred() -> Iterator[list[int]]:
    """Hold Ctrl-C through a short step that must not be cut (the list says whether it was
    pressed), for the caller to act on after it: a LocalCluster starting (interrupted halfway,
    the cluster is out of reach and Dask's exit hook fails on it with a traceback), bench rows
    being written (cut, a row would be left half a line)."""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    previous = signal.signal(signal.SIGINT, lambda number, _frame: pressed.append(number))
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def _distributed() -> Any:
    """The `distributed` module, imported only when a run uses Dask (and typed as Any: its
    annotations are partial, and mypy runs where the extra may be absent)."""
    return importlib.import_module("distributed")


def _has_dashboard(client: Any) -> bool:
    services = client.scheduler_info().get("services", {})
    return "dashboard" in services


def stream(
    client: Any,
    work: Callable[[list[Item]], Sequence[Out]],
    items: Iterable[Item],
    *,
    chunk_size: int = 16,
    ordered: bool = True,
    window: int | None = None,
) -> Generator[tuple[Item, Out], None, None]:
    """Each item with its result, `work` run on chunks of `chunk_size` items on the cluster.

    `work` must be picklable (a module-level function or a partial of one) and return one
    result per item. At most `window` chunks are out at once (default: twice the cluster's
    threads, plus two), so a long file is read as the cluster consumes it. A worker lost
    mid-chunk makes the scheduler run the chunk again elsewhere; its result is taken once. A
    chunk that killed several workers (Dask's `allowed_failures`) raises, naming its items.
    Closing the iterator cancels the chunks still queued.
    """
    token = uuid.uuid4().hex[:12]
    numbered = enumerate(_chunks(items, chunk_size))
    threads = sum(client.nthreads().values()) or 1
    window = window or 2 * threads + 2
    chunk_of: dict[Any, tuple[int, list[Item]]] = {}

    def submit() -> Any | None:
        for number, chunk in itertools.islice(numbered, 1):
            future = client.submit(work, chunk, key=f"satsudoku-{token}-{number}", pure=False)
            chunk_of[future] = (number, chunk)
            return future
        return None

    started = [f for f in (submit() for _ in range(window)) if f is not None]
    try:
        if ordered:
            queue = deque(started)
            while queue:
                future = queue.popleft()
                yield from _take(future, chunk_of)
                if (following := submit()) is not None:
                    queue.append(following)
        else:
            completed = _distributed().as_completed(started)
            for future in completed:
                if (following := submit()) is not None:
                    completed.add(following)
                yield from _take(future, chunk_of)
    finally:
        if chunk_of:  # the consumer stopped early (an error, Ctrl-C): drop queued chunks
            client.cancel(list(chunk_of))


def _take(future: Any, chunk_of: dict[Any, tuple[int, list[Item]]]) -> Iterator[tuple[Item, Any]]:
    number, chunk = chunk_of[future]
    try:
        results = future.result()
    except _distributed().KilledWorker:
        raise SatsudokuError(
            f"chunk {number} ({len(chunk)} puzzles) lost more workers than Dask allows "
            "(distributed.scheduler.allowed-failures); one of its puzzles may exhaust a "
            "worker's memory"
        ) from None
    del chunk_of[future]
    future.release()  # the scheduler may forget the result: it is ours now
    if len(results) != len(chunk):
        raise SatsudokuError(f"chunk {number}: {len(results)} results for {len(chunk)} items")
    yield from zip(chunk, results, strict=True)


def each(
    compute: Callable[[Item], Out], items: Iterable[Item], cluster: Cluster | None
) -> Iterator[tuple[Item, Out]]:
    """Each item with `compute(item)`: here, one after another, or on `cluster` in chunks (in
    input order unless the cluster says otherwise). One loop for every batch command, so a
    command runs on Dask by passing its cluster. `compute` must be picklable (a module-level
    function or a partial of one). Closing the iterator cancels the chunks still queued."""
    if cluster is None:
        for item in items:
            yield item, compute(item)
        return
    with connect(cluster) as client:
        work = functools.partial(_compute_chunk, compute)
        values = stream(client, work, items, chunk_size=cluster.chunk_size, ordered=cluster.ordered)
        with closing(values):  # cancels the queued chunks before the client closes
            yield from values


def on_puzzle(compute: Callable[[Any], Out], numbered: tuple[int, Any]) -> Out:
    """`compute` on the puzzle of an (index, puzzle) item, for `each` over numbered puzzles."""
    return compute(numbered[1])


def _compute_chunk(compute: Callable[[Item], Out], chunk: list[Item]) -> list[Out]:
    """A cluster task: `compute` on each item of one chunk."""
    return [compute(item) for item in chunk]


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


_sessions: OrderedDict[tuple[Hashable, int], Any] = OrderedDict()
_sessions_lock = threading.Lock()


def session(key: Hashable, make: Callable[[], Any]) -> Any:
    """This worker thread's state for `key` (its solvers), made at its first chunk and kept.

    Keyed by thread too: a backend is not thread-safe, and a worker started with several
    threads runs chunks side by side. The least recently used sessions beyond a few are
    dropped, so a long-lived worker does not keep every past run's solvers.
    """
    slot = (key, threading.get_ident())
    with _sessions_lock:
        if slot in _sessions:
            _sessions.move_to_end(slot)
            return _sessions[slot]
    made = make()  # outside the lock: building solvers may take a while
    with _sessions_lock:
        _sessions[slot] = made
        while len(_sessions) > _SESSIONS_KEPT:
            _sessions.popitem(last=False)
    return made
