"""What several subcommands share: input options, backend options, result rendering, progress."""

from __future__ import annotations

import argparse
import inspect
import re
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from satsudoku.backends import Backend, available, backend_class, backend_names, get_backend
from satsudoku.errors import PuzzleError, SatsudokuError, UnknownRuleError
from satsudoku.grid import regular_shape
from satsudoku.io import FORMATS, NEGATIVE_KINDS, format_as_read, format_line, iter_puzzles
from satsudoku.io.border_marks import CAGE_TYPES
from satsudoku.io.fpuzzles import describe_counts
from satsudoku.io.outside_text import OUTSIDE_KEYS
from satsudoku.io.painted import PaintType, parse_paint_type
from satsudoku.io.sudokupad_lines import CellType, LineType, parse_cell_type, parse_line_type
from satsudoku.options import MAX_SECONDS, MAX_SEED  # the API's bounds
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result
from satsudoku.rules import load_plugin, make_rule
from satsudoku.symbols import check_symbols


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """FILE plus the options that say how to read it."""
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="puzzle file (text, LeetCode JSON, JSON/TOML document, f-puzzles or SudokuPad "
        "data), or an f-puzzles/SudokuPad link; '-' or none for stdin",
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
        "--negative",
        action="append",
        default=[],
        choices=sorted(NEGATIVE_KINDS),
        metavar="KIND",
        help='every such mark is given, as a rules text may say ("all possible dots are '
        'given"): adjacent cells without one are not consecutive (white), not in ratio 1:2 '
        "(black), do not add to 10 (x) or to 5 (v)",
    )
    parser.add_argument(
        "--ignore-drawings",
        action="store_true",
        help="f-puzzles/SudokuPad: solve without the drawings (lines, circles, cages, text) whose "
        "meaning is only in the rules text, with a warning, instead of refusing the puzzle",
    )
    parser.add_argument(
        "--line",
        action="append",
        default=[],
        type=line_argument,
        metavar="COLOUR[:WIDTH]=TYPE[:K]",
        help="SudokuPad, f-puzzles: lines of this colour (hex, e.g. f067f0; and this thickness "
        "or width) are TYPE "
        "(renban, whispers, thermometer, regionsumline, ..., distinctline:K), as the rules text "
        "says",
    )
    parser.add_argument(
        "--cell",
        action="append",
        default=[],
        type=cell_argument,
        metavar="COLOUR[:round|square]=TYPE",
        help="SudokuPad, f-puzzles: cells holding a circle or square of this colour are TYPE "
        "(odd, even, low, middle, high, countingcircles), or such a shape with a number between "
        "cells is one (sum, contains, largest, excludes, greaterthan), as the rules text says",
    )
    parser.add_argument(
        "--unique-cages",
        action="store_true",
        help="SudokuPad: a cage without a total is a killer cage with no sum (its digits do not "
        "repeat), as the rules text says",
    )
    parser.add_argument(
        "--cage",
        choices=sorted(CAGE_TYPES),
        metavar="TYPE",
        help="f-puzzles, SudokuPad: the digits written in a cage that is no killer cage are TYPE "
        "(contains: each appears in the cage, as often as written), as the rules text says",
    )
    parser.add_argument(
        "--paint",
        action="append",
        default=[],
        type=paint_argument,
        metavar="RRGGBB=TYPE",
        help="f-puzzles: cells painted this colour are TYPE (clone: each connected region of the "
        "colour is a clone of the first; magicsquare: each is a 3x3 magic square of 1..9; "
        "extraregion: each holds 1..n once; rowindexer, columnindexer, boxindexer: each cell is "
        "one, as in f-puzzles), as the rules text says",
    )
    parser.add_argument(
        "--outside",
        choices=sorted(OUTSIDE_KEYS),
        metavar="TYPE",
        help="f-puzzles, SudokuPad: numbers written beside the grid are clues of TYPE (frame, "
        "sandwich, skyscraper, xsum, numberedroom; of the three nearest digits: minmaxsum, "
        "minmaxdifference, maxposition; evensandwich: the clue's digit between evens; "
        "besidelargest: the sum beside the n; runs: prefixsum, ascendingsum, longestascending, "
        "paritylongest, tripletsum; digit lists: contains (among the first three cells), "
        "besidelargestdigits, adjacentpair, descriptivepair), as the rules text says",
    )
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        type=plugin_argument,
        metavar="MODULE",
        help="import MODULE (or a .py file) first: the rules it registers become usable",
    )


def add_backend_options(
    parser: argparse.ArgumentParser, *, default_limit: int | None = 2, limit_help: str = ""
) -> None:
    """Backend choice, limits, and per-backend tuning options (`limit_help` replaces the
    help of --limit, for a command that reads it its own way)."""
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
        help=limit_help
        or f"look for up to K solutions; 2 settles uniqueness (default: {default_limit})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds per puzzle (with --backend all: per backend, so each paradigm gets the "
        "same budget); the verdict is 'unknown' when it runs out",
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
        help="sat: at-most-one encoding: auto (default: pairwise up to 25 literals, seqcounter "
        "beyond), pairwise, seqcounter, ladder, totalizer, bitwise, ...",
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
    tuning.add_argument("--mip-solver", metavar="NAME", help="mip: scip (default) or highs")


TUNING = (
    *("max_nodes", "encoding", "solver", "amo", "model", "workers", "certified", "presolve"),
    "mip_solver",
    "random_seed",  # not a flag: `solve --random` sets it for the backends that take it
)


def backend_from_args(args: argparse.Namespace) -> Backend:
    """Instantiate the chosen backend with its tuning options; one it does not take is a
    usage error (exit 2). With 'all', each backend gets the options it takes."""
    given = {name: getattr(args, name) for name in TUNING if getattr(args, name, None) is not None}
    if args.backend == "all":
        from satsudoku.crosscheck import CrossCheckBackend  # imports every solver: only now

        names = available(partial=True)  # a partial backend skips puzzles outside its rules
        options = {name: _options_for(name, given) for name in names}
        if unused := set(given) - {option for chosen in options.values() for option in chosen}:
            raise SatsudokuError(f"{_flags(unused)}: no available backend takes it")
        try:
            return CrossCheckBackend(names, options=options)
        except PuzzleError as exc:
            raise SatsudokuError(exc.message) from None
    options = _options_for(args.backend, given)
    if unused := set(given) - set(options):
        raise SatsudokuError(f"{_flags(unused)} does not apply to --backend {args.backend}")
    try:
        return get_backend(args.backend, **options)
    except PuzzleError as exc:  # a constructor sees only options: a bad value is a usage error
        raise SatsudokuError(exc.message) from None


def _options_for(name: str, given: dict[str, Any]) -> dict[str, Any]:
    """The options in `given` that backend `name`'s constructor takes."""
    accepted = inspect.signature(backend_class(name).__init__).parameters
    return {option: value for option, value in given.items() if option in accepted}


def _flags(options: set[str]) -> str:
    return ", ".join("--" + option.replace("_", "-") for option in sorted(options))


def say_on_stderr(message: str) -> None:
    """One line on stderr: what reading waits for (a terminal, a named pipe) or a warning."""
    print(f"satsudoku: {message}", file=sys.stderr, flush=True)


def load_logic_kernels() -> None:
    """Before any puzzle's --timeout starts: the logic techniques' compiled kernels (compiled
    on a machine's first run, said once on stderr as the fast backend's kernel is)."""
    from satsudoku.logic.solver import load_compiled_kernels

    if (seconds := load_compiled_kernels()) is not None:
        say_on_stderr(f"loaded or compiled the logic techniques' kernels in {seconds:.1f} s")


def load_puzzles(args: argparse.Namespace) -> Iterator[Puzzle]:
    """Stream the puzzles named by the input options, with any --rule added; a drawing left
    out by --ignore-drawings is said once per puzzle on stderr."""
    for puzzle in iter_puzzles(
        args.file,
        fmt=args.fmt,
        box=args.box,
        symbols=args.symbols,
        rules=args.rule,
        negative=getattr(args, "negative", ()),
        ignore_drawings=getattr(args, "ignore_drawings", False),
        lines=getattr(args, "line", ()),
        cells=getattr(args, "cell", ()),
        unique_cages=getattr(args, "unique_cages", False),
        outside=getattr(args, "outside", None),
        cage=getattr(args, "cage", None),
        paints=getattr(args, "paint", ()),
        notify=say_on_stderr,
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


def check_rule_types(types: Iterable[str]) -> None:
    """Refuse a `--rule` that names no rule type, or one that needs fields, as a usage error
    (run after parsing, so rules from every --plugin, wherever it stood, are known)."""
    for name in types:
        try:
            make_rule({"type": name}, regular_shape(3, 3))
        except UnknownRuleError as exc:
            raise SatsudokuError(f"--rule {name}: {exc.message}") from None
        except PuzzleError as exc:
            raise SatsudokuError(
                f"--rule {name}: {exc.message} (a rule with fields goes in a puzzle document)"
            ) from None


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
        "time_s": _seconds(result.time_s),
        "stats": {k: _seconds(v) if isinstance(v, float) else v for k, v in result.stats.items()},
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


def _seconds(value: float) -> float:
    """Times in JSON to the microsecond, the same rounding wherever a time appears."""
    return round(value, 6)


def render_text(index: int, puzzle: Puzzle, result: Result) -> str:
    """The answer in the input's own layout (FORMATS.md §3), with the verdict.

    A line puzzle gets `<solution> <verdict>` (`-` when there is none), and `multiple` adds the
    second witness after the verdict; other layouts get a `# puzzle N` header and the grids,
    each under a `# solution K` label when there are two. Either way it reads back as puzzles.
    """
    witnesses = result.solutions[:2]  # two different grids settle 'multiple'
    status = result.status.value
    if puzzle.layout == "line":
        lines = [format_line(grid, puzzle.symbols) for grid in witnesses] or ["-"]
        return " ".join([lines[0], status, *lines[1:]])
    header = f"# puzzle {index + 1}"
    if puzzle.title:
        header += f" ({puzzle.title})"
    header += f": {status} [{result.backend}, {_stats_text(result)}]"
    blocks = [format_as_read(grid, puzzle) for grid in witnesses]
    if len(blocks) > 1:
        blocks = [f"# solution {k}\n{block}" for k, block in enumerate(blocks, 1)]
    if puzzle.layout == "leetcode":  # one board per line: no blank line needed between them
        return "\n".join([header, *blocks])
    return "\n".join([header, *(f"{block}\n" for block in blocks)])


_UNITS = {"nodes": "node", "conflicts": "conflict", "branches": "branch"}


def _stats_text(result: Result) -> str:
    parts = [f"{result.time_s:.3f} s"]
    for key in ("nodes", "conflicts", "branches"):
        if key in result.stats:
            parts.append(plural(int(result.stats[key]), _UNITS[key]))
    if result.count is not None and result.count > 1:
        parts.append(f"exactly {result.count} solutions")
    return ", ".join(parts)


def add_progress_option(parser: argparse.ArgumentParser, default: str) -> None:
    """--progress / --no-progress, one spelling for every long-running command."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"progress line on stderr (default: {default})",
    )


class Progress:
    """A one-line progress display on stderr for a person watching: puzzles done with their
    verdicts (solve, prove) or the solutions found (count), and what is running now (`phase`),
    redrawn with its elapsed time while it lasts."""

    def __init__(
        self,
        enabled: bool | None,
        stream: TextIO | None = None,
        *,
        solutions: bool = False,
        beside_terminal_output: bool = False,
        noun: str = "puzzle",
    ) -> None:
        """`enabled=None` decides by the terminals: stderr must be one, and stdout must not be
        unless `beside_terminal_output` (the line is then erased before each output line).
        `noun` names what is counted (puzzles; certificates for verify-certificate)."""
        stream = stream or sys.stderr  # looked up now: tests and callers may swap sys.stderr
        if enabled is None:
            enabled = stream.isatty() and (beside_terminal_output or not sys.stdout.isatty())
        self.enabled = enabled
        self.stream = stream
        self.show_solutions = solutions
        self.noun = noun
        self.start = time.perf_counter()
        self.done = 0
        self.solutions = 0
        self.counts: dict[str, int] = {}
        self.current = ""  # the phase running now, e.g. "puzzle 3: refuting"
        self.current_start = self.start
        self._last = 0.0
        self._width = 0  # characters of the line on screen, 0 when none is
        self._lock = threading.Lock()  # the ticker thread draws too
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def update(self, result: Result | None = None) -> None:
        """Count one finished puzzle, with its verdict and solutions when given."""
        if result is None:
            self.tally(None)
        else:
            self.tally(result.status.value, len(result.solutions))

    def tally(self, status: str | None, solutions: int = 0, puzzles: int = 1) -> None:
        """Count finished puzzles by their verdict's name (the array paths keep no Result)."""
        self.done += puzzles
        if status is not None:
            self.solutions += solutions
            self.counts[status] = self.counts.get(status, 0) + puzzles
        self.current = ""
        now = time.perf_counter()
        if self.enabled and now - self._last > 0.2:
            self._draw(now)

    def phase(self, name: str) -> None:
        """Show what runs now on the next puzzle (e.g. 'refuting'); a ticker redraws it twice a
        second, so a long phase shows life."""
        self.detail(name)
        self.current_start = time.perf_counter()
        if not self.enabled:
            return
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._ticker.start()
        if self.current_start - self._last > 0.2:  # short phases show at the ticker's pace
            self._draw(self.current_start)

    def detail(self, name: str) -> None:
        """Say how far the running phase has got, keeping its clock (the ticker draws it)."""
        self.current = f"{self.noun} {self.done + 1}: {name}"

    def emit(self, text: str) -> None:
        """Print one output line on stdout, erasing the progress line first if they share a
        terminal (it is drawn again at the next update)."""
        with self._lock:
            if self._width and sys.stdout.isatty():
                self._write("\r" + " " * self._width + "\r")
                self._width = 0
            sys.stdout.write(text + "\n")
            sys.stdout.flush()  # results stream: each one is out as soon as it is known

    def close(self) -> None:
        """Stop the ticker and leave the final state on its own line."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self.enabled and (self.done or self._width):
            self.current = ""
            self._draw(time.perf_counter())
            self._write("\n")

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            self._draw(time.perf_counter())

    def _draw(self, now: float) -> None:
        with self._lock:
            self._last = now
            text = self._text(now)
            pad = " " * max(self._width - len(text), 0)  # cover the end of a longer old line
            self._width = len(text)
            self._write(f"\r{text}{pad}")

    def _text(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        parts = [plural(self.done, self.noun)]
        if self.show_solutions:
            parts.append(f"{plural(self.solutions, 'solution')}, {self.solutions / elapsed:.0f}/s")
        elif self.noun == "puzzle":  # certificates take seconds each: no rate
            parts.append(f"{self.done / elapsed:.0f}/s")
        text = ", ".join(parts)
        if self.counts and not self.show_solutions:
            text += "  " + " ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        if self.current:
            text += f"  {self.current} ({now - self.current_start:.1f} s)"
        return text

    def _write(self, text: str) -> None:
        if not self.enabled:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except OSError:
            self.enabled = False  # stderr went away: the work goes on without the display


def plural(count: int, noun: str) -> str:
    """'1 node', '2 nodes', '1 branch', '3 branches'."""
    if count == 1:
        return f"{count} {noun}"
    suffix = "es" if noun.endswith(("s", "sh", "ch", "x", "z")) else "s"
    return f"{count} {noun}{suffix}"


def plugin_argument(name: str) -> str:
    """Load a rule plugin while the command line is parsed, so --rule and documents see it."""
    try:
        load_plugin(name)
    except SatsudokuError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def line_argument(text: str) -> LineType:
    """--line COLOUR[:WIDTH]=TYPE, checked while parsing (exit 2, one line)."""
    try:
        return parse_line_type(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def paint_argument(text: str) -> PaintType:
    """--paint RRGGBB=TYPE, checked while parsing (exit 2, one line)."""
    try:
        return parse_paint_type(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cell_argument(text: str) -> CellType:
    """--cell COLOUR[:round|square]=TYPE, checked while parsing (exit 2, one line)."""
    try:
        return parse_cell_type(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def symbols_argument(text: str) -> str:
    """Refuse an alphabet with a repeated or whitespace symbol as a usage error, up front."""
    try:
        return check_symbols(text)
    except PuzzleError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


_PLAIN_INT = re.compile(r"[0-9]{1,18}")


def plain_int(text: str) -> int:
    """ASCII digits only: int() also takes '+3', ' 3', '3_0' and '٣', which no option means."""
    if not _PLAIN_INT.fullmatch(text):
        raise ValueError(text)
    return int(text)


def parse_box(text: str) -> tuple[int, int]:
    try:
        rows, cols = (plain_int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"box must look like 3x3 or 2x3, not {text!r}") from None
    if rows < 1 or cols < 1:
        raise argparse.ArgumentTypeError(f"box {text!r} must have positive sides")
    return rows, cols


def positive_int(text: str) -> int:
    try:
        value = plain_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return value


def seed_argument(text: str) -> int:
    """A random seed 0..2^31-1: every backend (CP-SAT's is 32-bit) takes it as it is."""
    try:
        value = plain_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a seed 0..2147483647, not {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a seed 0..2147483647, not {text!r}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    if not value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"expected at most {MAX_SECONDS:,} seconds (about 31 years), not {text!r}"
        )
    return value
