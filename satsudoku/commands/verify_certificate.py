"""`satsudoku verify-certificate`: check certificates written by `prove`, trusting no solver."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from satsudoku.commands.common import Progress, add_progress_option, positive_float
from satsudoku.errors import PuzzleError
from satsudoku.proof.certificate import (
    CHECK_SECONDS,
    CHECK_SECONDS_PER_MIB,
    MAX_PROOF_BYTES,
    CertificateCheck,
    verify_certificate,
)
from satsudoku.proof.files import CERTIFICATE_FILES, opened_folder, present
from satsudoku.shown import one_line


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
    parser.add_argument(
        "--max-proof-mib",
        type=_mebibytes,
        default=MAX_PROOF_BYTES >> 20,
        metavar="MIB",
        help=f"refuse a proof.drat larger than this, unread (default: {MAX_PROOF_BYTES >> 20}; "
        "checking takes memory in proportion to the proof)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds for each certificate's DRAT check; past it the certificate is REJECTED "
        f"(default: {CHECK_SECONDS:.0f} s + {CHECK_SECONDS_PER_MIB:.0f} s per MiB of proof.drat; "
        "checking a stranger's proof can take time quadratic in its size)",
    )
    add_progress_option(parser, "when stderr is a terminal")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    folders = _certificate_folders(Path(args.directory))
    rejected = 0
    limit = args.max_proof_mib << 20
    progress = Progress(args.progress, beside_terminal_output=True, noun="certificate")

    def shown(text: str) -> None:  # the proof's check reports how far it got: same phase
        (progress.detail if text.startswith(_CHECKING) else progress.phase)(text)

    try:
        for folder, linked in folders:
            if linked:
                check = CertificateCheck(False, ("a symbolic link; not followed",))
            else:
                check = verify_certificate(
                    folder,
                    use_drat_trim=not args.no_drat_trim,
                    max_proof_bytes=limit,
                    timeout=args.timeout,
                    phase=shown,
                )
            rejected += not check.ok
            # A stranger names the folders: one named 'x: VERIFIED⏎y' must not fake a verdict.
            lines = [f"{one_line(str(folder))}: {'VERIFIED' if check.ok else 'REJECTED'}"]
            lines += [f"  {one_line(message)}" for message in check.messages]
            if check.drat_trim is not None:  # its last line of output: escaped, as the rest
                lines.append(f"  drat-trim: {one_line(check.drat_trim)}")
            for line in lines:
                progress.emit(line)
            progress.tally("verified" if check.ok else "rejected")
    finally:
        progress.close()
    if len(folders) > 1:
        verified = len(folders) - rejected
        print(f"{len(folders)} certificates: {verified} verified, {rejected} rejected")
    return 1 if rejected else 0


_CHECKING = "checking proof.drat:"


def _holds_certificate_files(folder: Path) -> bool:
    """Whether `folder` holds a certificate file; True if it cannot be looked into, so that
    verifying it reports why instead of skipping it."""
    try:
        with opened_folder(folder, follow=False) as fd:
            return bool(present(fd, CERTIFICATE_FILES))
    except (PuzzleError, OSError):
        return True


def _mebibytes(text: str) -> int:
    """A whole number of MiB, 1 to 1,048,576 (1 TiB)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 7 and 1 <= int(text) <= 1 << 20):
        raise argparse.ArgumentTypeError(f"expected a whole number of MiB, 1 to 1048576: {text!r}")
    return int(text)


def _certificate_folders(root: Path) -> list[tuple[Path, bool]]:
    """`root` if it holds any certificate file, else its subfolders holding one (so one
    missing its manifest is reported as rejected, not skipped) and its symlinks to folders
    (to be rejected, never followed); each with whether it is such a symlink."""
    if not root.is_dir():
        raise PuzzleError(f"{root}: no such directory")
    with opened_folder(root) as fd:
        if present(fd, CERTIFICATE_FILES):
            return [(root, False)]
        folders: list[tuple[Path, bool]] = []
        for entry in sorted(os.scandir(fd), key=lambda entry: entry.name):
            if entry.is_symlink():
                if entry.is_dir():
                    folders.append((root / entry.name, True))
            elif entry.is_dir() and _holds_certificate_files(root / entry.name):
                folders.append((root / entry.name, False))
    if not folders:
        raise PuzzleError(f"{root}: holds no certificate (no manifest.json)")
    return folders
