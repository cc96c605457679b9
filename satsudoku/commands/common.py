"""What several subcommands share: input options, backend options, result rendering, progress."""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

from satsudoku.backends import Backend, available, backend_class, backend_names, get_backend
from satsudoku.errors import PuzzleError, SatsudokuError
from satsudoku.io import FORMATS, format_as_read, format_line, iter_puzzles
from satsudoku.io.fpuzzles import describe_counts
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result
from satsudoku.rules import load_plugin
from satsudoku.symbols import check_symbols


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """FILE plus the options that say how to read it."""
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="puzzle file (text, LeetCode JSON, JSON/TOML document); '-' or none for stdin",
    )
    add_reading_options(parser)


def add_reading_options(parser: argparse.ArgumentParser) -> None:
    """How to read puzzle files: format, box, symbols, extra rules and rule plugins."""
    parser.add_argument(
        "--format",
        dest="fmt",
        choices=FORMATS,
        default="auto",
        help="input format (default: detect; 'line'/'grid' settle 16-symbol lines)",
    )
    parser.add_argument(
        "--box",
        type=parse_box,
        metavar="RxC",
        help="box shape, e.g. 2x3 for 6x6 (default: inferred from the size)",
    )
    parser.add_argument(
        "--symbols",
        type=symbols_argument,
        metavar="ALPHABET",
        help="digits 1..n written as these symbols, e.g. 0123456789ABCDEF (blanks are then '.')",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="TYPE",
        help="add a parameterless variant rule to every puzzle, e.g. --rule diagonal",
    )
    parser.add_argument(
        "--ignore-drawings",
        action="store_true",
        help="f-puzzles/SudokuPad: solve without the drawings (lines, circles, cages, text) whose "
        "meaning is only in the rules text, with a warning, instead of refusing the puzzle",
    )
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        type=plugin_argument,
        metavar="MODULE",
        help="import MODULE (or a .py file) first: the rules it registers become usable",
    )


def add_backend_options(parser: argparse.ArgumentParser, *, default_limit: int = 2) -> None:
    """Backend choice, limits, and per-backend tuning options."""
    parser.add_argument(
        "--backend",
        default="bitmask",
        choices=[*backend_names(), "all"],
        help="solving paradigm (default: bitmask); 'all' runs every available backend on each "
        "puzzle and fails (exit 3) on any disagreement",
    )
    parser.add_argument(
        "--limit",
        type=positive_int,
        default=default_limit,
        metavar="K",
        help=f"look for up to K solutions; 2 settles uniqueness (default: {default_limit})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds per puzzle; the verdict is 'unknown' when it runs out",
    )
    tuning = parser.add_argument_group("backend tuning (each applies to one backend)")
    tuning.add_argument(
        "--max-nodes",
        type=positive_int,
        metavar="N",
        help="bitmask: search-node budget per puzzle (verdict 'unknown' when exhausted)",
    )
    tuning.add_argument(
        "--encoding",
        metavar="E",
        help="sat: CNF encoding: minimal, efficient, extended (default) or reduced",
    )
    tuning.add_argument(
        "--solver", metavar="NAME", help="sat: any python-sat solver name (default: cadical195)"
    )
    tuning.add_argument(
        "--amo",
        metavar="E",
        help="sat: at-most-one encoding: pairwise (default), seqcounter, ladder, totalizer, "
        "bitwise, ...",
    )
    tuning.add_argument("--model", metavar="M", help="cpsat: boolean (default) or integer model")
    tuning.add_argument(
        "--workers", type=positive_int, metavar="N", help="cpsat: search workers (default: 1)"
    )
    tuning.add_argument(
        "--presolve",
        action="store_const",
        const=True,
        help="cpsat: run CP-SAT's presolve (default: off, fastest measured for both models)",
    )
    tuning.add_argument(
        "--certified",
        action="store_const",
        const=True,
        help="cpsat: re-prove unique/unsatisfiable verdicts by a DRAT proof that satsudoku "
        "checks (classic rules only)",
    )


TUNING = ("max_nodes", "encoding", "solver", "amo", "model", "workers", "certified", "presolve")


def backend_from_args(args: argparse.Namespace) -> Backend:
    """Instantiate the chosen backend with its tuning options; one it does not take is a
    usage error (exit 2). With 'all', each backend gets the options it takes."""
    given = {name: getattr(args, name) for name in TUNING if getattr(args, name, None) is not None}
    if args.backend == "all":
        from satsudoku.crosscheck import CrossCheckBackend  # imports every solver: only now

        names = available()
        options = {name: _options_for(name, given) for name in names}
        if unused := set(given) - {option for chosen in options.values() for option in chosen}:
            raise SatsudokuError(f"{_flags(unused)}: no available backend takes it")
        return CrossCheckBackend(names, options=options)
    options = _options_for(args.backend, given)
    if unused := set(given) - set(options):
        raise SatsudokuError(f"{_flags(unused)} does not apply to --backend {args.backend}")
    return get_backend(args.backend, **options)


def _options_for(name: str, given: dict[str, Any]) -> dict[str, Any]:
    """The options in `given` that backend `name`'s constructor takes."""
    accepted = inspect.signature(backend_class(name).__init__).parameters
    return {option: value for option, value in given.items() if option in accepted}


def _flags(options: set[str]) -> str:
    return ", ".join("--" + option.replace("_", "-") for option in sorted(options))


def load_puzzles(args: argparse.Namespace) -> Iterator[Puzzle]:
    """Stream the puzzles named by the input options, with any --rule added; a drawing left
    out by --ignore-drawings is said once per puzzle on stderr."""
    for puzzle in iter_puzzles(
        args.file,
        fmt=args.fmt,
        box=args.box,
        symbols=args.symbols,
        rules=args.rule,
        ignore_drawings=getattr(args, "ignore_drawings", False),
    ):
        if puzzle.ignored:
            drawn = describe_counts(dict(puzzle.ignored))
            where = f"{puzzle.origin}: " if puzzle.origin else ""
            print(
                f"satsudoku: warning: {where}ignored drawings (their meaning is in the rules "
                f"text, not in the solve): {drawn}",
                file=sys.stderr,
            )
        yield puzzle


def result_json(index: int, puzzle: Puzzle, result: Result) -> dict[str, Any]:
    """One JSON Lines record (FORMATS.md §3)."""
    symbols = puzzle.symbols
    lines = [format_line(grid, symbols) for grid in result.solutions]
    record: dict[str, Any] = {
        "index": index,
        "status": result.status.value,
        "solution": lines[0] if lines else None,
        "solutions": lines,
        "count": result.count,
        "backend": result.backend,
        "time_s": round(result.time_s, 6),
        "stats": dict(result.stats),
        "proof": result.proof.to_json() if result.proof else None,
    }
    if puzzle.origin:
        record["source"] = puzzle.origin
    if puzzle.title:
        record["title"] = puzzle.title
    described = (("source", puzzle.source), ("notes", puzzle.notes))
    about = {name: text for name, text in described if text}
    if about:
        record["about"] = about  # the document's source and notes ("source" is the file)
    if puzzle.ignored:
        record["ignored"] = dict(puzzle.ignored)
    return record


def render_text(index: int, puzzle: Puzzle, result: Result) -> str:
    """The answer in the input's own layout (FORMATS.md §3), with the verdict."""
    grid = result.solution
    status = result.status.value
    if puzzle.layout == "line":
        return f"{format_line(grid, puzzle.symbols) if grid else '-'} {status}"
    header = f"# puzzle {index + 1}"
    if puzzle.title:
        header += f" ({puzzle.title})"
    header += f": {status} [{result.backend}, {_stats_text(result)}]"
    if grid is None:
        return header
    body = format_as_read(grid, puzzle)
    return f"{header}\n{body}" if puzzle.layout == "leetcode" else f"{header}\n{body}\n"


def _stats_text(result: Result) -> str:
    parts = [f"{result.time_s:.3f} s"]
    for key in ("nodes", "conflicts", "branches"):
        if key in result.stats:
            parts.append(f"{result.stats[key]} {key}")
    if result.count is not None and result.count > 1:
        parts.append(f"exactly {result.count} solutions")
    return ", ".join(parts)


class Progress:
    """A one-line progress display on stderr, shown only to a person watching a terminal."""

    def __init__(self, enabled: bool | None, stream: TextIO | None = None) -> None:
        stream = stream or sys.stderr  # looked up now: tests and callers may swap sys.stderr
        if enabled is None:
            enabled = stream.isatty() and not sys.stdout.isatty()
        self.enabled = enabled
        self.stream = stream
        self.start = time.perf_counter()
        self.done = 0
        self.counts: dict[str, int] = {}
        self._last = 0.0

    def update(self, result: Result) -> None:
        self.done += 1
        status = result.status.value
        self.counts[status] = self.counts.get(status, 0) + 1
        now = time.perf_counter()
        if self.enabled and now - self._last > 0.2:
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = self.done / max(now - self.start, 1e-9)
        tally = " ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        self.stream.write(f"\r{self.done} puzzles, {rate:.0f}/s  {tally}   ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()


def plugin_argument(name: str) -> str:
    """Load a rule plugin while the command line is parsed, so --rule and documents see it."""
    try:
        load_plugin(name)
    except SatsudokuError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def symbols_argument(text: str) -> str:
    """Refuse an alphabet with a repeated or whitespace symbol as a usage error, up front."""
    try:
        return check_symbols(text)
    except PuzzleError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def parse_box(text: str) -> tuple[int, int]:
    try:
        rows, cols = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"box must look like 3x3 or 2x3, not {text!r}") from None
    if rows < 1 or cols < 1:
        raise argparse.ArgumentTypeError(f"box {text!r} must have positive sides")
    return rows, cols


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def write_json_line(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
