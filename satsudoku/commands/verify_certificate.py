"""`satsudoku verify-certificate`: check certificates written by `prove`, trusting no solver."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.proof.certificate import CERTIFICATE_FILES, verify_certificate


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "verify-certificate",
        help="check certificates written by `satsudoku prove`",
        description="Check a certificate directory (or a directory of them): solution.txt "
        "solves the puzzle, every clause of formula.cnf follows from the puzzle (a rule "
        "clause, a given or the blocking clause), and proof.drat is a valid DRAT refutation "
        "(checked by satsudoku's own backward checker, and by drat-trim where installed). "
        "Every certificate is checked, unreadable ones are REJECTED with the reason; exit "
        "status 1 when any certificate is rejected.",
    )
    parser.add_argument("directory", metavar="DIR", help="a certificate, or a folder of them")
    parser.add_argument(
        "--no-drat-trim", action="store_true", help="do not run drat-trim even if installed"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    folders = _certificate_folders(Path(args.directory))
    rejected = 0
    for folder in folders:
        check = verify_certificate(folder, use_drat_trim=not args.no_drat_trim)
        rejected += not check.ok
        print(f"{folder}: {'VERIFIED' if check.ok else 'REJECTED'}")
        for message in check.messages:
            print(f"  {message}")
        if check.drat_trim is not None:
            print(f"  drat-trim: {check.drat_trim}")
    if len(folders) > 1:
        verified = len(folders) - rejected
        print(f"{len(folders)} certificates: {verified} verified, {rejected} rejected")
    return 1 if rejected else 0


def _certificate_folders(root: Path) -> list[Path]:
    """`root` if it is a certificate, else its subfolders holding any certificate file (so one
    missing its manifest is reported as rejected, not skipped)."""
    if not root.is_dir():
        raise PuzzleError(f"{root}: no such directory")
    if (root / "manifest.json").is_file():
        return [root]
    folders = sorted({path.parent for name in CERTIFICATE_FILES for path in root.glob(f"*/{name}")})
    if not folders:
        raise PuzzleError(f"{root}: holds no certificate (no manifest.json)")
    return folders
