"""`satsudoku prove`: settle each puzzle by SAT and write a checkable certificate of the verdict."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from satsudoku.backends.sat import DEFAULT_SOLVER, SatBackend
from satsudoku.commands.common import add_input_options, load_puzzles, positive_float
from satsudoku.encoders.cnf import Encoding
from satsudoku.proof.certificate import (
    PROOF_SOLVERS,
    CertificateTimeoutError,
    SatCertificate,
    check_certificate,
    make_certificate,
)
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "prove",
        help="settle uniqueness by SAT and write DRAT certificates",
        description="Solve every puzzle of FILE by SAT. A unique or unsatisfiable verdict comes "
        "with a certificate: formula.cnf (rules, givens and, for 'unique', the blocking clause "
        "of the solution), proof.drat (its refutation), solution.txt and manifest.json, checked "
        "here at once and later by `satsudoku verify-certificate`.",
    )
    add_input_options(parser)
    parser.add_argument(
        "--certificate",
        metavar="DIR",
        help="write certificates here (DIR itself for one puzzle, DIR/0001, DIR/0002, … for "
        "several); without it the certificate is only checked in memory",
    )
    parser.add_argument(
        "--encoding",
        default=Encoding.EXTENDED.value,
        choices=[e.value for e in Encoding if e is not Encoding.REDUCED],
        help="CNF encoding of the certified formula (default: extended)",
    )
    parser.add_argument(
        "--solver",
        default=DEFAULT_SOLVER,
        choices=PROOF_SOLVERS,
        help=f"proof-logging pysat solver (default: {DEFAULT_SOLVER})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds per puzzle, search and proof together (past it: unknown, nothing written)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = SatBackend(encoding=args.encoding, solver=args.solver)
    puzzles = list(load_puzzles(args))
    root = Path(args.certificate) if args.certificate else None
    for index, puzzle in enumerate(puzzles, 1):
        folder = None if root is None else root if len(puzzles) == 1 else root / f"{index:04d}"
        print(f"puzzle {index}: {_prove(backend, puzzle, args, folder)}", flush=True)
    return 0


def _prove(
    backend: SatBackend, puzzle: Puzzle, args: argparse.Namespace, folder: Path | None
) -> str:
    """One puzzle's verdict line; a certificate is written only once it is complete.

    `--timeout` bounds the search and the proof-logging solve together: a verdict whose
    refutation is not finished in time is reported as unknown, and nothing is written.
    """
    deadline = None if args.timeout is None else time.perf_counter() + args.timeout
    result = backend.solve(puzzle, limit=2, timeout=args.timeout)
    status = result.status.value
    if result.status not in (Status.UNIQUE, Status.UNSATISFIABLE):
        reason = {
            Status.MULTIPLE: "two different solutions are the witness; nothing to refute",
            Status.UNKNOWN: "no verdict within the time limit",
        }.get(result.status, "no certificate")
        return f"{status} ({reason})"
    try:
        certificate = make_certificate(
            puzzle, result.solutions, encoding=args.encoding, solver=args.solver, deadline=deadline
        )
    except CertificateTimeoutError:
        return (
            f"unknown (the search says {status}, but its refutation was not finished within "
            "the time limit; no certificate written)"
        )
    return f"{status}{_report(certificate, folder)}"


def _report(certificate: SatCertificate, folder: Path | None) -> str:
    """Check the certificate at once, write it to `folder` if given, and describe both."""
    check = check_certificate(certificate)
    where = ""
    if folder is not None:
        certificate.write(folder)
        where = f", certificate {folder}"
    lemmas = sum(1 for line in certificate.proof if not line.startswith("d"))
    verdict = "checked" if check.ok else "CHECK FAILED"
    return (
        f"{where} ({len(certificate.clauses)} clauses, {lemmas} lemmas; "
        f"{verdict}: {check.messages[-1]})"
    )
