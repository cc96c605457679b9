"""`satsudoku prove`: settle each puzzle by SAT and write a checkable certificate of the verdict."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from satsudoku.backends.sat import DEFAULT_SOLVER, SatBackend
from satsudoku.commands.common import add_input_options, load_puzzles, positive_float
from satsudoku.encoders.cnf import Encoding
from satsudoku.proof.certificate import PROOF_SOLVERS, SatCertificate, check_certificate
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
    parser.add_argument("--timeout", type=positive_float, metavar="S", help="seconds per puzzle")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    backend = SatBackend(encoding=args.encoding, solver=args.solver)
    puzzles = list(load_puzzles(args))
    root = Path(args.certificate) if args.certificate else None
    for index, puzzle in enumerate(puzzles, 1):
        result = backend.solve(puzzle, limit=2, timeout=args.timeout, certify=True)
        label = f"puzzle {index}: {result.status.value}"
        certificate = result.proof.certificate if result.proof else None
        if not isinstance(certificate, SatCertificate):
            reason = {
                Status.MULTIPLE: "two different solutions are the witness; nothing to refute",
                Status.UNKNOWN: "no verdict within the time limit",
            }.get(result.status, "no certificate")
            print(f"{label} ({reason})")
            continue
        check = check_certificate(certificate)
        where = ""
        if root is not None:
            folder = root if len(puzzles) == 1 else root / f"{index:04d}"
            certificate.write(folder)
            where = f", certificate {folder}"
        lemmas = sum(1 for line in certificate.proof if not line.startswith("d"))
        verdict = "checked" if check.ok else "CHECK FAILED"
        print(
            f"{label}{where} ({len(certificate.clauses)} clauses, {lemmas} lemmas; "
            f"{verdict}: {check.messages[-1]})"
        )
    return 0
