"""The `satsudoku` command: parse arguments, run a subcommand, turn user errors into one line."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from satsudoku import __version__
from satsudoku.commands import command_modules
from satsudoku.errors import BackendBugError, PuzzleError, SatsudokuError

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="satsudoku",
        description="Solve Sudoku and its variants by SAT, CP-SAT or bitmask search, "
        "and prove the verdict.",
    )
    parser.add_argument("--version", action="version", version=f"satsudoku {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in command_modules():
        importlib.import_module(f"satsudoku.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for `satsudoku`; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except PuzzleError as exc:
        print(f"satsudoku: {exc.located()}", file=sys.stderr)
        return EXIT_INPUT
    except BackendBugError as exc:
        print(f"satsudoku: internal error, please report: {exc}", file=sys.stderr)
        return EXIT_BUG
    except SatsudokuError as exc:
        print(f"satsudoku: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("satsudoku: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # `satsudoku solve big.txt | head`: the reader left, not an error
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
