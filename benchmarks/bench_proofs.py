"""Proof cost per paradigm: the bitmask search's own DRAT proof against the plain search, and
the SAT backend's proof-logging refutation of the same formula (lemmas, bytes, time to check).

Run: python benchmarks/bench_proofs.py [--sample N] [--data DIR] [--models] [--independent]
       [--limit S] [--out rows.csv]

Datasets: forum-hardest-1106 (unique) and tdoku's labelled unsatisfiable lines (':0'), from
--data, else ../shared/data next to the repo, else the bundled tests/data; with --models also
the published variant puzzles of models/variants/real (9x9 only). Per puzzle, in CPU seconds
of this process (the machine may be shared: wall time would count the neighbours): the plain
bitmask search (limit 2) and the same search writing its proof (`prove_by_search`, --limit
seconds at most). Both start from the puzzle's rules prepared once, as a batch of puzzles with
those rules would find them: the search kernel built (one untimed solve), the rules decomposed
into the encoder's constraint kinds (`encoders.cnf.lowered`) and, for the proof, encoded as CNF
(`proof.formulas`, which each proof copies and adds its givens to). Those preparations are
timed apart (CSV: kernel_s, rules_s); the "with setup" ratio adds them to both sides (a set
whose puzzles share their rules, as the classic ones do, pays them once). The proof's figure
then includes everything the plain search does not need: the certificate's formula (the kept
rules copied, the givens added; also shown apart, as measured inside that same proof run), the
proof's lemmas and their checks.
Then satsudoku's checker on that proof, and `make_certificate` (CaDiCaL 1.9.5) with the same
checker; --independent adds dratify's forward check of the bitmask proof. CP-SAT and MIP
verdicts are certified by one of these two proofs, so their proof figures are these. Every
proof must check, else the exit status is 1.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from satsudoku.backends.bitmask import BitmaskBackend
from satsudoku.encoders.cnf import AtMostOne, Encoding, lowered
from satsudoku.grid import Shape
from satsudoku.io import read_puzzles
from satsudoku.proof.certificate import (
    CertificateTimeoutError,
    SatCertificate,
    make_certificate,
)
from satsudoku.proof.drat import check_drat, parse_drat
from satsudoku.proof.formulas import puzzle_formula
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.search.kernel import _kernel_for

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO))
from tests.conftest import puzzle_from_line  # noqa: E402  (the datasets' line format)


@dataclass
class Row:
    """One puzzle's figures; times in seconds, sizes in bytes."""

    dataset: str
    index: int
    verdict: str
    plain_s: float
    proof_s: float
    encode_s: float
    nodes: int
    lemmas: int
    proof_bytes: int
    check_s: float
    sat_s: float
    sat_lemmas: int
    sat_bytes: int
    sat_check_s: float
    independent_s: float
    ok: bool
    kernel_s: float = 0.0  # building the search kernel (both searches share it)
    rules_s: float = 0.0  # encoding the rules as CNF (the proofs share it)


def datasets(folder: Path, sample: int, models: bool) -> dict[str, list[Puzzle]]:
    """The puzzles of each dataset, the first `sample` lines of each."""
    hardest = (folder / "forum-hardest-1106.txt").read_text().splitlines()
    tdoku = (folder / "tdoku-test-puzzles.labeled.txt").read_text().splitlines()
    unsat = [line.split(":")[0] for line in tdoku if line.endswith(":0")]
    out = {
        "forum-hardest-1106": [puzzle_from_line(x, Shape(3, 3)) for x in hardest if x][:sample],
        "tdoku-unsat": [puzzle_from_line(x, Shape(3, 3)) for x in unsat][:sample],
    }
    if models:
        real = sorted((REPO / "models" / "variants" / "real").glob("*.json"))
        found = [read_puzzles(path)[0] for path in real]
        out["variants-real-9x9"] = [p for p in found if p.size == 9][:sample]
    return out


def measure(name: str, index: int, puzzle: Puzzle, independent: bool, limit: float) -> Row:
    backend = BitmaskBackend()
    start = time.process_time()
    _kernel_for(puzzle)  # built and kept: both searches below find it ready
    kernel_s = time.process_time() - start
    backend.solve(puzzle)
    lowered(puzzle)  # the rules decomposed once, as the kernel: the proof's encoding reuses it
    start = time.process_time()
    puzzle_formula(puzzle, Encoding.EXTENDED, AtMostOne.PAIRWISE)  # the rules' CNF, kept
    rules_s = time.process_time() - start
    start = time.process_time()
    plain = backend.solve(puzzle)
    plain_s = time.process_time() - start
    encode_s = 0.0
    start = time.process_time()
    try:
        found = prove_by_search(puzzle, deadline=time.perf_counter() + limit)
    except CertificateTimeoutError:
        print(f"{name} {index}: no proof within {limit:g} s", file=sys.stderr)
        row = Row(name, index, "timeout", plain_s, limit, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, False)
        row.kernel_s, row.rules_s = kernel_s, rules_s
        return row
    proof_s = time.process_time() - start
    encode_s = float(found.stats["encode_cpu_s"])  # the CNF inside this very proof run
    ok = found.certificate is not None and found.status == plain.status.value
    cert = found.certificate
    check_s, lemmas, size = _check(cert) if cert else (0.0, 0, 0)
    ok = ok and check_s >= 0
    sat_s = sat_check_s = 0.0
    sat_lemmas = sat_bytes = 0
    if plain.status in (Status.UNIQUE, Status.UNSATISFIABLE):
        start = time.perf_counter()
        sat = make_certificate(puzzle, plain.solutions)
        sat_s = time.perf_counter() - start
        sat_check_s, sat_lemmas, sat_bytes = _check(sat)
        ok = ok and sat_check_s >= 0
    independent_s = _independent(cert) if independent and cert else 0.0
    ok = ok and independent_s >= 0
    return Row(
        name,
        index,
        found.status,
        plain_s,
        proof_s,
        encode_s,
        int(found.stats["nodes"]),
        lemmas,
        size,
        check_s,
        sat_s,
        sat_lemmas,
        sat_bytes,
        sat_check_s,
        independent_s,
        ok,
        kernel_s,
        rules_s,
    )


def _check(cert: SatCertificate) -> tuple[float, int, int]:
    """satsudoku's checker on the proof: seconds (-1 if rejected), lemmas, bytes."""
    text = "\n".join(cert.proof) + "\n"
    start = time.perf_counter()
    verdict = check_drat(cert.clauses, parse_drat(text))
    seconds = time.perf_counter() - start
    return (seconds if verdict.ok else -1.0), cert.lemma_count, len(text.encode())


def _independent(cert: SatCertificate) -> float:
    """dratify's forward check (every step, deletions applied): seconds, -1 if rejected."""
    import dratify

    from satsudoku.encoders.cnf import dimacs

    start = time.perf_counter()
    formula = dratify.parse_dimacs(dimacs(cert.formula))
    result = dratify.check_proof(formula, "\n".join(cert.proof) + "\n", engine="python")
    seconds = time.perf_counter() - start
    return seconds if result.ok and result.reached_empty else -1.0


def summary(rows: list[Row]) -> str:
    """Medians (and the worst ratio) per dataset over the puzzles proved, as a Markdown table:
    a proof past --limit is counted in n only (at the limit it would swamp every total)."""
    lines = [
        "| dataset | n | plain s | proof s | of which encode | ratio | search ratio | lemmas | KiB "
        "| with setup | check s | SAT proof s | SAT lemmas | SAT KiB | SAT check s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in dict.fromkeys(row.dataset for row in rows):
        every = [row for row in rows if row.dataset == name]
        mine = [row for row in every if row.verdict != "timeout"]
        if not mine:
            lines.append(f"| {name} | {len(every)}, none proved |" + " |" * 13)
            continue

        def med(key: str, rows: list[Row] = mine) -> float:
            return float(statistics.median(getattr(row, key) for row in rows))

        ratios = [row.proof_s / max(row.plain_s, 1e-9) for row in mine]
        # Without encoding the formula (which any paradigm's certificate needs): the search's.
        searches = [max(row.proof_s - row.encode_s, 0) / max(row.plain_s, 1e-9) for row in mine]
        plain = sum(row.plain_s for row in mine)
        kernels = sum(row.kernel_s for row in mine)
        # With the preparations: the kernel for both, the rules' CNF for the proof.
        setup = (sum(row.proof_s + row.rules_s for row in mine) + kernels) / max(
            plain + kernels, 1e-9
        )
        lines.append(
            f"| {name} | {len(every)}{_timeouts(len(every) - len(mine))} "
            f"| {med('plain_s'):.3f} | {med('proof_s'):.3f} "
            f"| {med('encode_s'):.3f} | {statistics.median(ratios):.1f} (max {max(ratios):.1f}; "
            f"total {sum(row.proof_s for row in mine) / max(plain, 1e-9):.1f}) "
            f"| {statistics.median(searches):.1f} (max {max(searches):.1f}; total "
            f"{sum(row.proof_s - row.encode_s for row in mine) / max(plain, 1e-9):.1f}) "
            f"| {med('lemmas'):.0f} | {med('proof_bytes') / 1024:.1f} | {setup:.1f} "
            f"| {med('check_s'):.2f} "
            f"| {med('sat_s'):.3f} | {med('sat_lemmas'):.0f} | {med('sat_bytes') / 1024:.1f} "
            f"| {med('sat_check_s'):.2f} |"
        )
    return "\n".join(lines)


def _timeouts(count: int) -> str:
    return f" ({count} past the limit)" if count else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=10, help="puzzles per dataset (10)")
    parser.add_argument("--data", type=Path, help="dataset folder (../shared/data, tests/data)")
    parser.add_argument("--models", action="store_true", help="add models/variants/real 9x9")
    parser.add_argument("--independent", action="store_true", help="also time dratify")
    parser.add_argument("--limit", type=float, default=120, help="seconds per proof (120)")
    parser.add_argument("--out", type=Path, help="write every row as CSV here")
    args = parser.parse_args(argv)
    folder = args.data or (SHARED if (SHARED / "forum-hardest-1106.txt").is_file() else None)
    folder = folder or REPO / "tests" / "data"
    rows: list[Row] = []
    for name, puzzles in datasets(folder, args.sample, args.models).items():
        for index, puzzle in enumerate(puzzles, 1):
            rows.append(measure(name, index, puzzle, args.independent, args.limit))
            print(f"{name} {index}: {rows[-1]}", file=sys.stderr)
    print(summary(rows))
    print(f"\nload average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", file=sys.stderr)
    if args.out:
        with args.out.open("w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(asdict(rows[0])))
            writer.writeheader()
            writer.writerows(asdict(row) for row in rows)
    failed = [row for row in rows if not row.ok]
    for row in failed:
        print(f"FAILED: {row.dataset} {row.index}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
