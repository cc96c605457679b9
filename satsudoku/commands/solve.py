"""`satsudoku solve`: solve every puzzle of a file, streaming one verdict per puzzle."""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import stat
import sys
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import closing
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any

from satsudoku.backends import Backend, backend_class
from satsudoku.cluster import Cluster, add_cluster_options, cluster_from_args
from satsudoku.commands.common import (
    TUNING,
    Progress,
    add_backend_options,
    add_input_options,
    add_progress_option,
    backend_from_args,
    load_puzzles,
    render_text,
    result_json,
    say_on_stderr,
    seed_argument,
)
from satsudoku.errors import SatsudokuError
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result, Status, status_from

if TYPE_CHECKING:
    from satsudoku.backends import fast_lines


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "solve",
        help="solve puzzles and settle uniqueness",
        description="Solve every puzzle in FILE and print the solution with its verdict "
        "(unique, multiple, unsatisfiable, unknown; solved with --limit 1).",
    )
    add_input_options(parser)
    add_backend_options(parser)
    parser.add_argument(
        "--random",
        action="store_true",
        help="search in a random order, so a puzzle with many solutions shows a random one: a "
        "solution reached by a randomised search, not uniformly sampled (bitmask: digit order; "
        "sat: phases; cpsat: polarity and branching); the verdict is still exact",
    )
    parser.add_argument(
        "--seed",
        type=seed_argument,
        metavar="S",
        help="--random: the seed (0..2^31-1); the same seed, puzzle and backend give the same "
        "solution on any machine (default: drawn afresh and printed on stderr)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle (JSONL)")
    add_progress_option(parser, "when stderr is a terminal and stdout is not")
    add_cluster_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    drawn = _choose_seed(args)
    dask = cluster_from_args(args)
    backend = backend_from_args(args)  # on a cluster too: a bad option fails here, once
    if drawn:  # said once the options are known to be good: this run can be repeated
        print(f"satsudoku: --random with --seed {args.seed}", file=sys.stderr)
    progress = Progress(args.progress)
    try:
        batch = _may_batch(args)
        if dask is None:
            first = 0
            if batch and _plain_lines_apply(args, backend):
                first, whole = _solve_plain_lines(args, backend, progress)
                if whole:
                    return 0
            puzzles = load_puzzles(args)
            if first:  # the file goes on otherwise: read again, its plain lines skipped
                puzzles = islice(puzzles, first, None)
            puzzles = _read_ahead(puzzles) if batch else puzzles
            pairs = solve_stream(backend, puzzles, limit=args.limit, timeout=args.timeout)
            solved: Iterator[tuple[int, Puzzle, Result]] = (
                (index, puzzle, result) for index, (puzzle, result) in enumerate(pairs, first)
            )
        else:
            solved = _solve_on_cluster(args, dask)
        for answered in _batches(solved, batch):
            progress.emit("\n".join(_answer(args, *done) for done in answered))
            for done in answered:
                progress.update(done[2])
                _doubt_unread_rules(*done)
    finally:
        progress.close()
    return 0


def _answer(args: argparse.Namespace, index: int, puzzle: Puzzle, result: Result) -> str:
    """One puzzle's output: a JSON line, or the text answer in the input's own layout."""
    if not args.json:
        return render_text(index, puzzle, result)
    record = result_json(index, puzzle, result)
    if args.random_seed is not None:
        record["seed"] = args.random_seed
    return json.dumps(record)


def _doubt_unread_rules(index: int, puzzle: Puzzle, result: Result) -> None:
    """A puzzle with a rules text that comes out with several solutions or none may state a
    rule only in that text ("digits along each arrow multiply", "each blue area is a magic
    square"), which no reader can see: say so on stderr rather than let the verdict stand alone.
    Measured on 615 published f-puzzles files (Nickleaton/sudoku): 27 such verdicts, each from
    a rule the text states (one gives its candidates as ordinary pencil marks, which are the
    player's in f-puzzles and not read)."""
    if puzzle.ignored:
        return  # the drawings left out were said already, with what their meaning depends on
    if puzzle.notes and result.status in (Status.MULTIPLE, Status.UNSATISFIABLE):
        title = f" ({puzzle.title})" if puzzle.title else ""
        say_on_stderr(
            f"warning: puzzle {index + 1}{title} is {result.status.value}, and it has a rules "
            "text: a rule stated only there is not read (satsudoku reads the stored "
            "constraints and --rule); check the verdict against the text"
        )


BATCH, BATCH_SECONDS = 64, 0.1
Step = tuple[int, int | str]  # a step of a classic_lines.Template: (operation, argument)


def _plain_lines_apply(args: argparse.Namespace, backend: Backend) -> bool:
    """True when FILE's plain classic lines may take the array path: --backend fast, the file
    read as text with nothing forced on it, and batch calls allowed (see FastBackend.solve_many).
    """
    if args.backend != "fast" or args.fmt not in ("auto", "line"):
        return False
    if args.rule or args.negative or args.box or args.symbols:
        return False
    if getattr(backend, "max_nodes", None) is not None:
        return False
    from satsudoku.backends import fast
    from satsudoku.io.fpuzzles import looks_like_fpuzzles
    from satsudoku.io.sudokupad import looks_like_sudokupad

    if args.timeout is not None and args.timeout < fast._BATCH_MIN_TIMEOUT:
        return False
    if args.limit * 81 > fast._BATCH_CELLS:
        return False
    source = str(args.file)  # as iter_puzzles dispatches: these names are never read as text
    links = looks_like_fpuzzles(source) or looks_like_sudokupad(source)
    return not (links or source.endswith((".toml", ".json")))


def _solve_plain_lines(
    args: argparse.Namespace, backend: Backend, progress: Progress
) -> tuple[int, bool]:
    """Answer the plain classic lines FILE starts with, a kernel call per batch and no Python
    per cell (io.classic_lines, backends.fast_lines); how many, and whether that was all.

    A puzzle over the batch's node slice is read again in full and solved by `backend`, with
    the clock; a grid the verifier refuses is raised after the answers before it are out.
    """
    import numpy as np

    from satsudoku.backends import fast, fast_lines
    from satsudoku.io.classic_lines import ClassicRun
    from satsudoku.io.source import open_input
    from satsudoku.io.text import ReadOptions, parse_line

    source = str(args.file)
    answers = _PlainAnswers(args, source, fast._Compilation.ensure())
    options = ReadOptions(source=source)
    done = 0
    with open_input(source, source) as raw:
        lines = ClassicRun(raw)
        pace = fast_lines.Pace(args.limit)
        for batch in lines.batches(pace):
            verdicts = fast_lines.solve_classic(batch.givens, args.limit)
            pace.took(verdicts)
            data, ends = answers.write(done, batch.linenos, verdicts, progress)
            settled = verdicts.finished[: verdicts.verified]
            if not settled.all():  # over the node slice: solved again, with the clock
                starts = [0, *ends[:-1]]
                texts = [str(data[a:b], "ascii") for a, b in zip(starts, ends, strict=True)]
                for k in np.flatnonzero(~settled).tolist():
                    puzzle = parse_line(batch.text(k), options, int(batch.linenos[k]))
                    result = backend.solve(puzzle, limit=args.limit, timeout=args.timeout)
                    texts[k] = _answer(args, done + k, puzzle, result) + "\n"
                    progress.update(result)
                data = memoryview("".join(texts).encode())
            done += verdicts.verified
            if data:
                _write_ascii(data)
            if verdicts.refused is not None:
                raise verdicts.refused
    return done, done > 0 and not lines.stopped


def _write_ascii(data: memoryview) -> None:
    """Write and flush answers already encoded (as ASCII: JSON escapes the rest, and a plain
    line's answer is digits and words); standard output is no terminal on this path, so no
    progress line shares it."""
    write = getattr(sys.stdout, "write_ascii", None)
    if write is not None:  # io.output.GuardedStdout, as the command line sets it
        write(data)
    else:
        sys.stdout.write(str(data, "ascii"))
        sys.stdout.flush()


class _PlainAnswers:
    """Answers written from the arrays by compiled code (`classic_lines.Template`), character
    for character what `_answer` writes for the same verdicts (tests/test_cli_stream.py
    compares the two); the text around the numbers and grids is made once per run."""

    def __init__(self, args: argparse.Namespace, source: str, compiled: float | None) -> None:
        self.json = args.json
        self.limit = args.limit
        self.where = json.dumps(source)[:-1] + ":"  # '"FILE:' then the line number
        self.compiled = compiled  # in the first answer's stats, as FastBackend reports it
        # per number of solutions found: (verdict, count or null, proof method, complete)
        self.kinds: list[tuple[str, str, str, str]] = []
        for found in range(self.limit + 1):
            exhausted = found < self.limit
            status = status_from(found, limit=self.limit, exhausted=exhausted).value
            method = "exhaustive-search" if exhausted else "witness" if found >= 2 else "none"
            count = str(found) if exhausted else "null"
            self.kinds.append((status, count, method, "true" if exhausted else "false"))
        from satsudoku.io.classic_lines import Template

        self.template = Template(self._steps(compiled))

    def write(
        self, first: int, linenos: Any, verdicts: fast_lines.Verdicts, progress: Progress
    ) -> tuple[memoryview, list[int]]:
        """The answers of the puzzles `verdicts` verified, numbered from `first`, each ending
        in a newline (none for a puzzle not settled), as ASCII in a buffer the next call
        reuses, and where each ends; every settled verdict is counted on `progress`."""
        import numpy as np

        settled = verdicts.verified
        found = verdicts.found[:settled]
        finished = verdicts.finished[:settled]
        kinds = np.where(finished, found, -1)
        seconds = repr(round(verdicts.seconds / len(verdicts.found), 6))
        if self.compiled is not None and settled and finished[0]:
            kinds[0] += self.limit + 1  # the first answer: the same with compile_s
            self.compiled = None
        data, ends = self.template.write_view(
            seconds, first, kinds, linenos[:settled], verdicts.nodes, verdicts.backtracks,
            verdicts.sols,
        )  # fmt: skip
        counts = np.bincount(found[finished], minlength=self.limit + 1).tolist()
        for many, puzzles in enumerate(counts):
            if puzzles:
                progress.tally(self.kinds[many][0], many * puzzles, puzzles)
        return data, ends.tolist()  # ASCII: JSON escapes the file name

    def _steps(self, compiled: float | None) -> list[list[Step]]:
        """The template's kinds: one per number found, then the same with compile_s."""
        from satsudoku.io.classic_lines import (
            BACKTRACKS,
            GRID,
            INDEX,
            LINENO,
            LITERAL,
            NODES,
            SECONDS,
        )

        kinds: list[list[Step]] = []
        extra = "" if compiled is None else f', "compile_s": {round(round(compiled, 3), 6)!r}'
        for stats_end in ("}", f"{extra}}}"):
            for found, (status, count, method, complete) in enumerate(self.kinds):
                grids: list[Step] = [(GRID, j) for j in range(found)]
                if not self.json:
                    words: list[Step] = [grids[0] if grids else (LITERAL, "-")]
                    words.append((LITERAL, f" {status}"))
                    if found >= 2:  # the second witness of 'multiple'
                        words += [(LITERAL, " "), grids[1]]
                    kinds.append(words)
                    continue
                quoted: list[Step] = [(LITERAL, '"'), *grids[:1], (LITERAL, '"')] if grids else []
                listed: list[Step] = []
                close = '"' if grids else ""
                for j, grid in enumerate(grids):
                    listed += [(LITERAL, '"' if j == 0 else '", "'), grid]
                steps: list[Step] = [
                    (LITERAL, '{"index": '),
                    (INDEX, 0),
                    (LITERAL, f', "status": "{status}", "solution": '),
                    *(quoted or [(LITERAL, "null")]),
                    (LITERAL, ', "solutions": ['),
                    *listed,
                    (LITERAL, f'{close}], "count": {count}, "backend": "fast", '),
                    (LITERAL, '"time_s": '),
                    (SECONDS, 0),
                    (LITERAL, ', "stats": {"nodes": '),
                    (NODES, 0),
                    (LITERAL, ', "backtracks": '),
                    (BACKTRACKS, 0),
                    (LITERAL, ', "time_s": '),
                    (SECONDS, 0),
                    (LITERAL, f'{stats_end}, "proof": {{"method": '),
                    (LITERAL, f'"{method}", "nodes": '),
                    (NODES, 0),
                    (LITERAL, f', "complete": {complete}}}, "source": {self.where}'),
                    (LINENO, 0),
                    (LITERAL, '"}'),
                ]
                kinds.append(steps)
        return kinds


def _may_batch(args: argparse.Namespace) -> bool:
    """True when nobody waits on each answer: the input is a regular file (reading it never
    waits for a person or a process) and standard output is not a terminal."""
    try:
        regular = args.file != "-" and stat.S_ISREG(os.stat(args.file).st_mode)
    except (OSError, ValueError):
        regular = False  # a link, or a name the reader will refuse in its own words
    return regular and not sys.stdout.isatty()


def _read_ahead(puzzles: Iterable[Puzzle]) -> Iterator[Puzzle]:
    """`puzzles`, read BATCH at a time (from a regular file: reading never waits); those read
    before a bad one are still answered before its error."""
    stream = iter(puzzles)
    while True:
        chunk: list[Puzzle] = []
        try:
            for puzzle in islice(stream, BATCH):
                chunk.append(puzzle)
        except Exception:
            yield from chunk
            raise
        if not chunk:
            return
        yield from chunk


def _batches(
    solved: Iterable[tuple[int, Puzzle, Result]], batch: bool
) -> Iterator[list[tuple[int, Puzzle, Result]]]:
    """The results one by one, or, with `batch`, up to BATCH at a time and no batch held past
    BATCH_SECONDS when the next result comes: formatting and writing a batch in one go keeps
    the solver's and the writer's code and data hot in the cache (sat on 17-clue puzzles: the
    CLI's cost over the engine's roughly halves). A result may then wait for the one after it."""
    if not batch:
        yield from ([done] for done in solved)
        return
    pending: list[tuple[int, Puzzle, Result]] = []
    started = 0.0
    stream = iter(solved)
    while True:
        try:
            done = next(stream)
        except StopIteration:
            break
        except BaseException:  # a bad puzzle, Ctrl-C: the answers known go out first
            if pending:
                yield pending
            raise
        if not pending:
            started = time.perf_counter()
        pending.append(done)
        if len(pending) >= BATCH or time.perf_counter() - started > BATCH_SECONDS:
            yield pending
            pending = []
    if pending:
        yield pending


def _solve_on_cluster(
    args: argparse.Namespace, dask: Cluster
) -> Iterator[tuple[int, Puzzle, Result]]:
    """Chunks of the file solved on Dask, each puzzle with its index in the file."""
    from satsudoku import cluster

    options = {"backend": args.backend, **{name: getattr(args, name, None) for name in TUNING}}
    work = partial(_solve_chunk, uuid.uuid4().hex, options, args.limit, args.timeout)
    with cluster.connect(dask) as client:
        numbered = enumerate(load_puzzles(args))
        results = cluster.stream(
            client, work, numbered, chunk_size=dask.chunk_size, ordered=dask.ordered
        )
        with closing(results):  # cancels the queued chunks before the client closes
            for (index, puzzle), result in results:
                yield index, puzzle, result


def _solve_chunk(
    run_id: str,
    options: dict[str, Any],
    limit: int,
    timeout: float | None,
    chunk: list[tuple[int, Puzzle]],
) -> list[Result]:
    """A cluster task: one chunk, by this worker thread's backend for the run (kept between
    chunks, so an incremental SAT session or a CP-SAT model serves the whole file)."""
    from satsudoku.cluster import session

    backend = session(run_id, lambda: backend_from_args(argparse.Namespace(**options)))
    pairs = solve_stream(backend, (puzzle for _, puzzle in chunk), limit=limit, timeout=timeout)
    return [result for _, result in pairs]


def _choose_seed(args: argparse.Namespace) -> bool:
    """Set `args.random_seed` (the backends' option) from --random and --seed; True when the
    seed was drawn here rather than given."""
    args.random_seed = None
    if not args.random:
        if args.seed is not None:
            raise SatsudokuError("--seed needs --random")
        return False
    if args.backend != "all":
        accepted = inspect.signature(backend_class(args.backend).__init__).parameters
        if "random_seed" not in accepted:
            raise SatsudokuError(f"--random does not apply to --backend {args.backend}")
    drawn = args.seed is None
    if drawn:
        args.seed = random.SystemRandom().randrange(2**31)
    args.random_seed = args.seed
    return drawn


def solve_stream(
    backend: Backend, puzzles: Iterable[Puzzle], *, limit: int, timeout: float | None
) -> Iterator[tuple[Puzzle, Result]]:
    """Pair each puzzle with its result, using the backend's batch path when it has one.

    A batch path (`solve_many`, e.g. one incremental SAT solver for a whole file) may read a
    few puzzles ahead; the queue keeps each result with the puzzle it belongs to.
    """
    solve_many = getattr(backend, "solve_many", None)
    if solve_many is None:
        for puzzle in puzzles:
            yield puzzle, backend.solve(puzzle, limit=limit, timeout=timeout)
        return
    pending: deque[Puzzle] = deque()

    def feed() -> Iterator[Puzzle]:
        for puzzle in puzzles:
            pending.append(puzzle)
            yield puzzle

    for result in solve_many(feed(), limit=limit, timeout=timeout):
        yield pending.popleft(), result
