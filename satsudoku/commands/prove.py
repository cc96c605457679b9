"""`satsudoku prove`: settle each puzzle and write a checkable DRAT certificate of the verdict.

The verdict comes from --backend; the proof from a proof-logging SAT solver or from the bitmask
search itself (--proof-by), over the same formula either way, so one checker accepts both.
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from satsudoku.backends import Backend, backend_names, get_backend
from satsudoku.backends.sat import DEFAULT_SOLVER, SatBackend
from satsudoku.cluster import add_cluster_options, cluster_from_args, each
from satsudoku.commands.common import (
    Progress,
    add_input_options,
    add_progress_option,
    load_puzzles,
    positive_float,
)
from satsudoku.deadline import OutOfTime
from satsudoku.encoders.cnf import Encoding
from satsudoku.errors import BackendBugError
from satsudoku.grid import Grid
from satsudoku.proof.certificate import (
    PROOF_SOLVERS,
    SEARCH_PROOF_WRITER,
    CertificateCheck,
    CertificateTimeoutError,
    SatCertificate,
    check_certificate,
    make_certificate,
    too_large_to_certify,
)
from satsudoku.proof.files import clear, make_folder
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "prove",
        help="settle uniqueness and write DRAT certificates",
        description="Solve every puzzle of FILE (by SAT unless --backend says otherwise). A "
        "unique or unsatisfiable verdict comes with a certificate: formula.cnf (rules, givens "
        "and, for 'unique', the blocking clause of the solution), proof.drat (its refutation, "
        "written by a proof-logging SAT solver or by the bitmask search), solution.txt and "
        "manifest.json (naming both), checked here at once and later by `satsudoku "
        "verify-certificate`.",
    )
    add_input_options(parser)
    parser.add_argument(
        "--certificate",
        metavar="DIR",
        help="write certificates here (DIR itself for one puzzle, DIR/0001, DIR/0002, … for "
        "several); without it the certificate is only checked in memory. A DIR already "
        "holding certificate files is refused (see --force); symlinks in it are not followed",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="remove the certificate files already in DIR and its subfolders first (only the "
        "names satsudoku writes; nothing else is touched)",
    )
    parser.add_argument(
        "--encoding",
        default=Encoding.EXTENDED.value,
        choices=[e.value for e in Encoding if e is not Encoding.REDUCED],
        help="CNF encoding of the certified formula (default: extended)",
    )
    parser.add_argument(
        "--backend",
        default="sat",
        choices=backend_names(),
        help="who settles the verdict (default: sat); the others' verdicts are certified by "
        "a proof of the same formula from --proof-by",
    )
    parser.add_argument(
        "--proof-by",
        choices=("sat", SEARCH_PROOF_WRITER),
        help="who writes proof.drat: a proof-logging SAT solver (--solver) or the bitmask "
        "search's own tree (default: bitmask for --backend bitmask, else sat)",
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
    add_progress_option(parser, "when stderr is a terminal")
    add_cluster_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    dask = cluster_from_args(args)
    if args.proof_by is None:
        args.proof_by = SEARCH_PROOF_WRITER if args.backend == "bitmask" else "sat"
    options = {name: getattr(args, name) for name in ("backend", "encoding", "solver", "proof_by")}
    options.update(timeout=args.timeout, run=uuid.uuid4().hex)
    puzzles = list(load_puzzles(args))
    root = Path(args.certificate) if args.certificate else None
    created = False
    if root is not None:  # before any solving: an unusable or occupied DIR fails at once
        created = make_folder(root)
        clear(root, force=args.force)
    progress = Progress(args.progress, beside_terminal_output=True)
    if dask is None:
        backend = _backend(options)
        settled: Iterator[tuple[Any, Settled]] = (
            ((index, puzzle), _settle(options, backend, puzzle, progress.phase))
            for index, puzzle in enumerate(puzzles, 1)
        )
    else:  # the workers search and write proofs; the certificates are checked here
        progress.phase("searching on the cluster")
        settled = each(partial(_settle_there, options), enumerate(puzzles, 1), dask)
    failed = 0
    try:
        for (index, _), answer in settled:
            folder = None if root is None else root if len(puzzles) == 1 else root / f"{index:04d}"
            if answer.certificate is None:
                verdict = answer.status + answer.note
            else:
                left = None if args.timeout is None else args.timeout - answer.spent
                verdict, ok = _report(answer, folder, progress, left)
                failed += not ok
            progress.emit(f"puzzle {index}: {verdict}")
            progress.update()
    finally:
        progress.close()
        if created and root is not None and not any(root.iterdir()):
            root.rmdir()  # no certificate written: leave no trace
    if failed:
        raise BackendBugError(f"{failed} certificate(s) failed satsudoku's own check")
    return 0


@dataclass(frozen=True)
class Settled:
    """A puzzle's verdict and its certificate (not yet checked), or why there is none."""

    status: str
    certificate: SatCertificate | None = None
    note: str = ""
    spent: float = 0.0  # seconds of --timeout used (a duration: the clock may be a worker's)


def _backend(options: dict[str, Any]) -> Backend:
    if options["backend"] == "sat":
        return SatBackend(encoding=options["encoding"], solver=options["solver"])
    return get_backend(options["backend"])


def _settle_there(options: dict[str, Any], item: tuple[int, Puzzle]) -> Settled:
    """`_settle` on a Dask worker, with the worker's backend for this run (kept between
    chunks). Only the certificate travels back: the checking is done by the caller."""
    from satsudoku.cluster import session

    backend = session(options["run"], lambda: _backend(options))
    return _settle(options, backend, item[1], lambda _: None)


def _settle(
    options: dict[str, Any], backend: Backend, puzzle: Puzzle, phase: Callable[[str], None]
) -> Settled:
    """One puzzle's verdict and the certificate of it, built only once it is complete.

    `--timeout` bounds the search and the proof-logging solve together: a verdict whose
    refutation is not finished in time is reported as unknown, and nothing is written.
    """
    timeout = options["timeout"]
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    if too_large := too_large_to_certify(puzzle.size):  # the verdict alone, said so
        phase("searching")
        result = backend.solve(puzzle, limit=2, timeout=timeout)
        return Settled(result.status.value, note=f" ({too_large}; no certificate written)")
    if options["backend"] == SEARCH_PROOF_WRITER == options["proof_by"]:  # one search
        phase("searching, with a proof log")
        try:
            found = prove_by_search(puzzle, encoding=options["encoding"], deadline=deadline)
        except CertificateTimeoutError:
            return Settled("unknown", note=f" ({_UNSETTLED[Status.UNKNOWN]})")
        if found.certificate is None:
            return Settled(found.status, note=f" ({_UNSETTLED[Status.MULTIPLE]})")
        return Settled(found.status, found.certificate, spent=time.perf_counter() - start)
    phase("searching")
    result = backend.solve(puzzle, limit=2, timeout=timeout)
    status = result.status.value
    if result.status not in (Status.UNIQUE, Status.UNSATISFIABLE):
        return Settled(status, note=f" ({_UNSETTLED.get(result.status, 'no certificate')})")
    phase("refuting, with a proof log")
    try:
        certificate = _certify(puzzle, list(result.solutions), status, options, deadline)
    except CertificateTimeoutError:
        return Settled(
            "unknown",
            note=f" (the search says {status}, but its refutation was not finished within "
            "the time limit; no certificate written)",
        )
    return Settled(status, certificate, spent=time.perf_counter() - start)


_UNSETTLED = {
    Status.MULTIPLE: "two different solutions are the witness; nothing to refute",
    Status.UNKNOWN: "no verdict within the time limit",
}


def _certify(
    puzzle: Puzzle,
    solutions: list[Grid],
    status: str,
    options: dict[str, Any],
    deadline: float | None,
) -> SatCertificate:
    """A proof of the verdict `options["backend"]` reached, written by `options["proof_by"]`.

    The proof stands on its own, but a bitmask search that disagrees with the verdict it was
    to certify means one of the two backends is wrong: that is reported, never papered over.
    """
    backend, encoding = options["backend"], options["encoding"]
    if options["proof_by"] == "sat":
        return make_certificate(
            puzzle,
            solutions,
            encoding=encoding,
            solver=options["solver"],
            deadline=deadline,
            backend=backend,
        )
    found = prove_by_search(puzzle, encoding=encoding, deadline=deadline, backend=backend)
    if found.certificate is None or found.status != status or found.solutions != solutions:
        raise BackendBugError(
            f"{backend} says {status}, the bitmask search says {found.status} "
            f"({len(found.solutions)} solution(s)): one of them is wrong"
        )
    return found.certificate


def _report(
    answer: Settled, folder: Path | None, progress: Progress, left: float | None
) -> tuple[str, bool]:
    """Check the certificate at once, within the `left` seconds of --timeout, write it to
    `folder` if given, and describe both; False when the check rejects our own proof.

    A check that runs out of time proves nothing yet: the verdict is then unknown, and the
    certificate is still written for `verify-certificate` (its own limit: 60 s + 60 s a MiB).
    """
    certificate = answer.certificate
    assert certificate is not None
    progress.phase("checking the proof")
    deadline = None if left is None else time.perf_counter() + max(left, 0.0)
    try:
        check: CertificateCheck | None = check_certificate(certificate, deadline)
    except OutOfTime:
        check = None
    where = ""
    if folder is not None:
        progress.phase("writing the certificate")
        certificate.write(folder)
        where = f", certificate {folder}" + (" (unchecked)" if check is None else "")
    if check is None:
        return (
            f"unknown (the search says {answer.status}, but the time limit ran out while its "
            f"proof of {certificate.lemma_count} lemmas was checked{where})",
            True,
        )
    verdict = "checked" if check.ok else "CHECK FAILED"
    by = "" if certificate.solver == certificate.backend else f" by {certificate.solver}"
    return (
        f"{answer.status}{where} ({len(certificate.clauses)} clauses, "
        f"{certificate.lemma_count} lemmas{by}; {verdict}: {check.messages[-1]})",
        check.ok,
    )
