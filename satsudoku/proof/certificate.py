"""SAT certificates: a formula, its DRAT refutation and the puzzle, written to and read from a
directory, and checked without trusting any solver (see ARCHITECTURE.md, 'What a proof is')."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pysat.solvers import Solver

from satsudoku.encoders.cnf import (
    AtMostOne,
    Clause,
    CnfFormula,
    Encoding,
    dimacs,
    encode_puzzle,
    encode_rules,
    header_comments,
    parse_encoding,
)
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Grid
from satsudoku.proof.drat import ProofFormatError, check_drat, parse_dimacs, parse_drat
from satsudoku.puzzle import Puzzle
from satsudoku.symbols import Alphabet
from satsudoku.verify import violations

FORMAT = "satsudoku-certificate/1"
PROOF_SOLVER = "cadical195"
# Solvers whose pysat proofs are usable: MapleSAT-family proofs print every variable shifted by one.
PROOF_SOLVERS = (
    "cadical195",
    "cadical153",
    "cadical103",
    "glucose4",
    "glucose42",
    "glucose3",
    "lingeling",
)
_FILES = ("manifest.json", "formula.cnf", "proof.drat", "solution.txt")


@dataclass
class SatCertificate:
    """A verdict's evidence: `formula` is unsatisfiable, and `proof` shows it in DRAT."""

    puzzle: Puzzle
    status: str  # "unique" or "unsatisfiable"
    solution: Grid | None
    formula: CnfFormula  # rules ∧ givens (∧ the blocking clause of `solution`)
    solver: str
    proof: list[str] = field(repr=False)

    @property
    def encoding(self) -> Encoding:
        return self.formula.encoding

    @property
    def clauses(self) -> list[Clause]:
        return self.formula.clauses

    def formula_text(self) -> str:
        comments = header_comments(self.puzzle, self.formula)
        if self.status == "unique":
            comments.append("last clause: the blocking clause of the solution in solution.txt")
        return dimacs(self.formula, comments)

    def manifest(self) -> dict[str, Any]:
        from satsudoku.io import puzzle_document

        # Written in the default alphabet, as solution.txt is, so both read back the same way.
        plain = replace(self.puzzle, alphabet=None, layout="document")
        return {
            "format": FORMAT,
            "status": self.status,
            "shape": self.puzzle.shape.describe(),
            "rules": self.puzzle.rule_names(),
            "encoding": self.encoding.value,
            "amo": AtMostOne.PAIRWISE.value,
            "solver": self.solver,
            "variables": self.formula.num_vars,
            "clauses": len(self.clauses),
            "lemmas": sum(1 for line in self.proof if not line.startswith("d")),
            "deletions": sum(1 for line in self.proof if line.startswith("d")),
            "puzzle": puzzle_document(plain),
        }

    def to_json(self) -> dict[str, Any]:
        """A summary for JSON output (the full evidence is written by `write`)."""
        summary = self.manifest()
        del summary["puzzle"]
        return summary

    def write(self, directory: str | Path) -> Path:
        """Write manifest.json, formula.cnf, proof.drat and solution.txt into `directory`."""
        from satsudoku.io import format_line

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        (out / "manifest.json").write_text(json.dumps(self.manifest(), indent=2) + "\n")
        (out / "formula.cnf").write_text(self.formula_text())
        (out / "proof.drat").write_text("\n".join(self.proof) + "\n")
        n = self.puzzle.size
        solution = format_line(self.solution, Alphabet.default(n)) if self.solution else "none"
        (out / "solution.txt").write_text(solution + "\n")
        return out


def make_certificate(
    puzzle: Puzzle,
    solutions: list[Grid] | tuple[Grid, ...],
    *,
    encoding: Encoding | str = Encoding.EXTENDED,
    solver: str = PROOF_SOLVER,
) -> SatCertificate:
    """Certify 'unique' (one solution given) or 'unsatisfiable' (none) with a DRAT refutation.

    The formula uses pairwise at-most-one, so it has no auxiliary variables (tables with very
    many forbidden tuples excepted) and every clause can be traced back to the puzzle.
    """
    encoding = parse_encoding(encoding)
    if encoding is Encoding.REDUCED:
        encoding = Encoding.EXTENDED  # reduced clauses are simplified: not traceable one by one
    if solver not in PROOF_SOLVERS:
        raise PuzzleError(
            f"solver {solver!r} cannot write usable proofs; choose from {', '.join(PROOF_SOLVERS)}"
        )
    if len(solutions) > 1:
        raise PuzzleError("a puzzle with several solutions has no refutation to certify")
    formula = encode_puzzle(puzzle, encoding, AtMostOne.PAIRWISE)
    solution = solutions[0] if solutions else None
    if solution is not None:
        formula.clauses.append(formula.block(solution, puzzle.givens))
    with Solver(name=solver, bootstrap_with=formula.clauses, with_proof=True) as sat:
        if sat.solve():
            raise BackendBugError(f"{solver} found a model of a formula the verdict says is unsat")
        proof = [line for line in sat.get_proof() if line.strip()]
    return SatCertificate(
        puzzle,
        "unique" if solution is not None else "unsatisfiable",
        solution,
        formula,
        solver,
        proof,
    )


@dataclass(frozen=True)
class CertificateCheck:
    """The verifier's answer: `ok`, a line per check, and drat-trim's verdict where installed."""

    ok: bool
    messages: tuple[str, ...]
    drat_trim: str | None = None


def verify_certificate(directory: str | Path, *, use_drat_trim: bool = True) -> CertificateCheck:
    """Check a certificate directory without trusting the solver that wrote it."""
    folder = Path(directory)
    missing = [name for name in _FILES if not (folder / name).is_file()]
    if missing:
        raise PuzzleError(f"{folder}: not a certificate (missing {', '.join(missing)})")
    manifest = _read_manifest(folder)
    puzzle = _manifest_puzzle(folder, manifest)
    status = manifest.get("status")
    if status not in ("unique", "unsatisfiable"):
        raise PuzzleError(f"{folder}/manifest.json: status must be unique or unsatisfiable")
    encoding = parse_encoding(str(manifest.get("encoding", "")))
    solution = _read_solution(folder, puzzle) if status == "unique" else None
    try:
        _, clauses = parse_dimacs((folder / "formula.cnf").read_text())
        steps = parse_drat((folder / "proof.drat").read_text())
    except ProofFormatError as exc:
        return CertificateCheck(False, (f"unreadable: {exc.message}",))
    messages: list[str] = []
    if solution is not None:
        if broken := violations(puzzle, solution):
            return CertificateCheck(False, (f"solution.txt is not a solution: {broken[0]}",))
        messages.append("solution.txt solves the puzzle")
    problem = unjustified_clause(puzzle, encoding, clauses, solution)
    if problem:
        return CertificateCheck(False, (*messages, problem))
    messages.append(f"all {len(clauses)} clauses of formula.cnf follow from the puzzle")
    verdict = check_drat(clauses, steps)
    messages.append(("proof.drat: " if verdict.ok else "proof.drat rejected: ") + verdict.message)
    trim = run_drat_trim(folder) if use_drat_trim else None
    ok = verdict.ok and (trim is None or trim.startswith("verified"))
    return CertificateCheck(ok, tuple(messages), trim)


def check_certificate(cert: SatCertificate) -> CertificateCheck:
    """`verify_certificate` for an in-memory certificate (as attached to `Result.proof`)."""
    if cert.solution is not None and (broken := violations(cert.puzzle, cert.solution)):
        return CertificateCheck(False, (f"the solution breaks the puzzle: {broken[0]}",))
    problem = unjustified_clause(cert.puzzle, cert.encoding, cert.clauses, cert.solution)
    if problem:
        return CertificateCheck(False, (problem,))
    verdict = check_drat(cert.clauses, parse_drat("\n".join(cert.proof)))
    return CertificateCheck(verdict.ok, (verdict.message,))


def unjustified_clause(
    puzzle: Puzzle, encoding: Encoding, clauses: list[Clause], solution: Grid | None
) -> str | None:
    """The first clause that is neither a rule clause, a given nor the blocking clause."""
    rules = encode_rules(puzzle.shape, puzzle.constraints(), encoding, AtMostOne.PAIRWISE)
    justified = {frozenset(clause) for clause in rules.clauses}
    n = puzzle.size
    justified.update(frozenset([i * n + d]) for i, d in enumerate(puzzle.givens.values) if d)
    if solution is not None:
        # Must hold the negated solution literal of every non-given cell, and nothing else.
        justified.add(frozenset(rules.block(solution, puzzle.givens)))
    for number, clause in enumerate(clauses, 1):
        if frozenset(clause) not in justified:
            shown = " ".join(map(str, clause[:12])) + (" ..." if len(clause) > 12 else "")
            return f"clause {number} ({shown} 0) is not justified by the puzzle"
    return None


def run_drat_trim(folder: Path, timeout: float = 60.0) -> str | None:
    """drat-trim's verdict ('verified' / 'not verified: ...') when it is installed, else None."""
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    try:
        done = subprocess.run(
            [exe, str(folder / "formula.cnf"), str(folder / "proof.drat")],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"not verified: drat-trim timed out after {timeout:.0f} s"
    if "s VERIFIED" in done.stdout:
        return "verified"
    last = (done.stdout.strip().splitlines() or ["no output"])[-1]
    return f"not verified: {last}"


def _read_manifest(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / "manifest.json").read_text())
    except json.JSONDecodeError as exc:
        raise PuzzleError(f"{folder}/manifest.json: not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f"{folder}/manifest.json: not a {FORMAT} manifest")
    return data


def _manifest_puzzle(folder: Path, manifest: dict[str, Any]) -> Puzzle:
    from satsudoku.io import ReadOptions
    from satsudoku.io.document import puzzle_from_document

    return puzzle_from_document(
        manifest.get("puzzle"), ReadOptions(source=str(folder / "manifest.json"))
    )


def _read_solution(folder: Path, puzzle: Puzzle) -> Grid:
    """solution.txt: one line in the default alphabet of the size (1-9, then A, B, ...)."""
    n = puzzle.size
    symbols = Alphabet.default(n).symbols
    text = (folder / "solution.txt").read_text().strip()
    if len(text) != n * n or any(ch not in symbols for ch in text):
        raise PuzzleError(f"{folder}/solution.txt: expected {n * n} symbols from {symbols!r}")
    return Grid(n, tuple(symbols.index(ch) + 1 for ch in text))
