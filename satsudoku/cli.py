"""The `satsudoku` command: parse arguments, run a subcommand, turn user errors into one line."""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence

from satsudoku import __version__
from satsudoku.commands import command_modules, command_summary
from satsudoku.errors import BackendBugError, OutputError, PuzzleError, SatsudokuError
from satsudoku.shown import one_line

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 128 + signal.SIGINT, 128 + signal.SIGPIPE


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `only`, just that command's module is imported and registered,
    and every other command is listed by its summary (read without importing it)."""
    parser = argparse.ArgumentParser(
        prog="satsudoku",
        description="Solve Sudoku and its variants by SAT, CP-SAT or bitmask search, "
        "and prove the verdict.",
    )
    parser.add_argument("--version", action="version", version=f"satsudoku {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in command_modules():
        if only is None or name == only:
            importlib.import_module(f"satsudoku.commands.{name}").register(subparsers)
        else:
            subparsers.add_parser(name.replace("_", "-"), help=command_summary(name))
    return parser


def _chosen_command(argv: Sequence[str]) -> str:
    """The module of the command `argv` names, or "" (help, --version, a typo; no module then
    is imported): top-level
    options take no values, so the first word not starting with '-' is the command."""
    word = next((arg for arg in argv if not arg.startswith("-")), "")
    return word.replace("-", "_")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for `satsudoku`; returns the process exit code."""
    # Importing only the chosen command keeps start-up to what it needs (no OR-Tools for a
    # bitmask solve, nothing of the commands for --help): see tests/test_import_graph.py.
    argv = sys.argv[1:] if argv is None else argv
    _no_final_collection()
    args = build_parser(_chosen_command(argv)).parse_args(argv)
    from satsudoku.commands.common import check_rule_types
    from satsudoku.io.output import GuardedStdout, silence

    stdout = sys.stdout
    sys.stdout = GuardedStdout(stdout)  # write errors become one line, not a traceback
    try:
        check_rule_types(getattr(args, "rule", ()))
        code: int = args.run(args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at interpreter exit
        return code
    except PuzzleError as exc:
        return _fail(exc.located(), EXIT_INPUT)
    except BackendBugError as exc:
        return _fail(f"internal error, please report: {exc}", EXIT_BUG)
    except OutputError as exc:
        silence(stdout)
        return _fail(str(exc), EXIT_INPUT)
    except SatsudokuError as exc:
        return _fail(str(exc), EXIT_USAGE)
    except KeyboardInterrupt:
        return _fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        # `satsudoku solve big.txt | head -1`: the reader has seen enough. Quietly, with the
        # status a shell reports for a GNU tool ended by SIGPIPE.
        silence(stdout)
        return EXIT_BROKEN_PIPE
    except OSError as exc:  # a file error no command turned into a message: still one line
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}", EXIT_INPUT)
    finally:
        sys.stdout = stdout


def _no_final_collection() -> None:
    """At exit, move every object to the collector's permanent generation first, so that the
    interpreter's last collections do not walk them: the process is ending, and nothing
    satsudoku leaves behind needs a cycle collected to be flushed or removed (files are closed
    by `with` blocks, standard output is flushed before `main` returns). Measured as CPU after
    `main()` returned, one-puzzle `solve` at load 2-4: fast 0.43-0.50 s (Numba's objects) ->
    0.03-0.04 s, sat 0.06-0.08 -> 0.014, bitmask 0.03-0.04 -> 0.01. Registered once a process
    (tests call `main` many times in one)."""
    global _FREEZE_AT_EXIT
    if not _FREEZE_AT_EXIT:
        import atexit
        import gc

        atexit.register(gc.freeze)
        _FREEZE_AT_EXIT = True


_FREEZE_AT_EXIT = False


def _fail(message: str, code: int) -> int:
    """Say what went wrong in one line on stderr (if stderr itself still works)."""
    try:
        print(f"satsudoku: {one_line(message)}", file=sys.stderr, flush=True)
    except OSError:
        pass
    return code


if __name__ == "__main__":
    sys.exit(main())
