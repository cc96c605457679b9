"""`satsudoku verify-certificate`: check certificates written by `prove`, trusting no solver."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.proof.certificate import verify_certificate


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "verify-certificate",
        help="check certificates written by `satsudoku prove`",
        description="Check a certificate directory (or a directory of them): solution.txt "
        "solves the puzzle, every clause of formula.cnf follows from the puzzle (a rule "
        "clause, a given or the blocking clause), and proof.drat is a valid DRAT refutation "
        "(checked by satsudoku's own backward checker, and by drat-trim where installed). "
        "Exit status 1 when any certificate is rejected.",
    )
    parser.add_argument("directory", metavar="DIR", help="a certificate, or a folder of them")
    parser.add_argument(
        "--no-drat-trim", action="store_true", help="do not run drat-trim even if installed"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    root = Path(args.directory)
    if not root.is_dir():
        raise PuzzleError(f"{root}: no such directory")
    if (root / "manifest.json").is_file():
        folders = [root]
    else:
        folders = sorted(p.parent for p in root.glob("*/manifest.json"))
    if not folders:
        raise PuzzleError(f"{root}: holds no certificate (no manifest.json)")
    rejected = 0
    for folder in folders:
        check = verify_certificate(folder, use_drat_trim=not args.no_drat_trim)
        rejected += not check.ok
        print(f"{folder}: {'VERIFIED' if check.ok else 'REJECTED'}")
        for message in check.messages:
            print(f"  {message}")
        if check.drat_trim is not None:
            print(f"  drat-trim: {check.drat_trim}")
    return 1 if rejected else 0
