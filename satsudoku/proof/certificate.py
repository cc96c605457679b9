"""SAT certificates: a formula, its DRAT refutation and the puzzle, written to and read from a
directory, and checked without trusting any solver (see ARCHITECTURE.md, 'What a proof is')."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from satsudoku.backends.pysat_tools import SolverRun, load, new_solver
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

T = TypeVar("T")

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
CERTIFICATE_FILES = ("manifest.json", "formula.cnf", "proof.drat", "solution.txt")


class CertificateTimeoutError(Exception):
    """The proof-logging solve reached the deadline: there is no certificate, and the verdict
    it was to certify stays unproved."""


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

    @property
    def auxiliary_variables(self) -> int:
        """Variables past n³ (cage and table selectors, sum states), re-derived by the verifier."""
        return self.formula.num_vars - self.puzzle.size**3

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
            "auxiliary_variables": self.auxiliary_variables,
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
        """Write formula.cnf, proof.drat, solution.txt, then manifest.json into `directory`.

        A folder is a certificate once it holds manifest.json, so an old manifest goes first
        and the new one comes last, each file renamed into place whole: an interrupted write
        leaves no manifest, never a manifest beside half-written evidence.
        """
        from satsudoku.io import format_line

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        (out / "manifest.json").unlink(missing_ok=True)
        n = self.puzzle.size
        solution = format_line(self.solution, Alphabet.default(n)) if self.solution else "none"
        _write_whole(out / "formula.cnf", self.formula_text())
        _write_whole(out / "proof.drat", "\n".join(self.proof) + "\n")
        _write_whole(out / "solution.txt", solution + "\n")
        _write_whole(out / "manifest.json", json.dumps(self.manifest(), indent=2) + "\n")
        return out


def _write_whole(path: Path, text: str) -> None:
    """Write `text` to a temporary name and rename it, so `path` is never half-written."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text)
    os.replace(partial, path)


def make_certificate(
    puzzle: Puzzle,
    solutions: list[Grid] | tuple[Grid, ...],
    *,
    encoding: Encoding | str = Encoding.EXTENDED,
    solver: str = PROOF_SOLVER,
    deadline: float | None = None,
) -> SatCertificate:
    """Certify 'unique' (one solution given) or 'unsatisfiable' (none) with a DRAT refutation.

    The formula uses pairwise at-most-one: classic and house-only rules have no auxiliary
    variables; cages, sums and large tables bring deterministic ones, which the verifier
    re-derives clause by clause. With `deadline` (a perf_counter time) the proof-logging solve
    runs in conflict-budget slices and raises CertificateTimeoutError when time runs out.
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
    _check_time(deadline, solver)  # encoding a 25x25 formula alone takes ~0.8 s
    formula = encode_puzzle(puzzle, encoding, AtMostOne.PAIRWISE)
    solution = solutions[0] if solutions else None
    if solution is not None:
        formula.clauses.append(formula.block(solution, puzzle.givens))
    proof = _refute(formula, solver, deadline)
    return SatCertificate(
        puzzle,
        "unique" if solution is not None else "unsatisfiable",
        solution,
        formula,
        solver,
        proof,
    )


def _refute(formula: CnfFormula, solver: str, deadline: float | None) -> list[str]:
    """The proof-logging solver's DRAT lines for `formula`, which must be unsatisfiable."""
    sat = new_solver(solver, with_proof=True)
    try:
        if not load(sat, formula, deadline):
            raise _timed_out(solver)
        answer = SolverRun(sat, solver).solve([], deadline)
        if answer is None:
            raise _timed_out(solver)
        if answer:
            raise BackendBugError(f"{solver} found a model of a formula the verdict says is unsat")
        return [line for line in sat.get_proof() if line.strip()]
    finally:
        sat.delete()


def _check_time(deadline: float | None, solver: str) -> None:
    """Give up early once `deadline` (a perf_counter time) has passed: no work is wasted."""
    if deadline is not None and time.perf_counter() >= deadline:
        raise _timed_out(solver)


def _timed_out(solver: str) -> CertificateTimeoutError:
    return CertificateTimeoutError(f"{solver} did not finish the refutation in time")


@dataclass(frozen=True)
class CertificateCheck:
    """The verifier's answer: `ok`, a line per check, and drat-trim's verdict where installed."""

    ok: bool
    messages: tuple[str, ...]
    drat_trim: str | None = None


def verify_certificate(directory: str | Path, *, use_drat_trim: bool = True) -> CertificateCheck:
    """Check a certificate directory without trusting the solver that wrote it.

    Anything missing, unreadable or inconsistent is a rejection with a one-line reason, never
    an exception, so one bad certificate does not stop the check of a folder of them.
    """
    folder = Path(directory)
    try:
        return _verify(folder, use_drat_trim)
    except PuzzleError as exc:
        return CertificateCheck(False, (exc.located(),))
    except (OSError, UnicodeDecodeError) as exc:
        return CertificateCheck(False, (f"unreadable: {exc}",))


def _verify(folder: Path, use_drat_trim: bool) -> CertificateCheck:
    """`verify_certificate`, raising PuzzleError for what makes the folder unreadable."""
    missing = [name for name in CERTIFICATE_FILES if not (folder / name).is_file()]
    if missing:
        raise PuzzleError(f"{folder}: not a certificate (missing {', '.join(missing)})")
    manifest = _read_manifest(folder)
    puzzle = _manifest_puzzle(folder, manifest)
    status = manifest.get("status")
    if status not in ("unique", "unsatisfiable"):
        raise PuzzleError(f"{folder}/manifest.json: status must be unique or unsatisfiable")
    encoding = parse_encoding(str(manifest.get("encoding", "")))
    if encoding is Encoding.REDUCED:
        raise PuzzleError(f"{folder}/manifest.json: certificates never use the reduced encoding")
    solution = _read_solution(folder, puzzle) if status == "unique" else None
    clauses = _parsed(folder / "formula.cnf", parse_dimacs)[1]
    steps = _parsed(folder / "proof.drat", parse_drat)
    messages: list[str] = []
    if solution is not None:
        if broken := violations(puzzle, solution):
            return CertificateCheck(False, (f"solution.txt is not a solution: {broken[0]}",))
        messages.append("solution.txt solves the puzzle")
    rules = _rules(puzzle, encoding)
    aux = rules.num_vars - puzzle.size**3
    problem = _aux_mismatch(manifest, aux) or _unjustified(rules, puzzle, clauses, solution)
    if problem:
        return CertificateCheck(False, (*messages, problem))
    derived = f"{aux} auxiliary variables re-derived" if aux else "no auxiliary variables"
    messages.append(f"all {len(clauses)} clauses of formula.cnf follow from the puzzle ({derived})")
    verdict = check_drat(clauses, steps)
    messages.append(("proof.drat: " if verdict.ok else "proof.drat rejected: ") + verdict.message)
    trim = run_drat_trim(folder) if use_drat_trim else None
    ok = verdict.ok and (trim is None or trim.startswith("verified"))
    return CertificateCheck(ok, tuple(messages), trim)


def _aux_mismatch(manifest: dict[str, Any], aux: int) -> str | None:
    """The manifest's auxiliary-variable count must be the re-derived one (absent: older file)."""
    claimed = manifest.get("auxiliary_variables", aux)
    if claimed == aux and not isinstance(claimed, bool):
        return None
    return f"manifest.json: {claimed!r} auxiliary variables, the encoding has {aux}"


def _parsed(path: Path, parse: Callable[[str], T]) -> T:
    """`parse` of the file's text; a PuzzleError naming the file when it does not parse."""
    try:
        return parse(path.read_text())
    except ProofFormatError as exc:
        raise PuzzleError(f"{path.name}: {exc.message}") from None


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
    return _unjustified(_rules(puzzle, encoding), puzzle, clauses, solution)


def _rules(puzzle: Puzzle, encoding: Encoding) -> CnfFormula:
    """The puzzle's rules re-encoded as the certificate's formula was (auxiliaries included)."""
    return encode_rules(puzzle.shape, puzzle.constraints(), encoding, AtMostOne.PAIRWISE)


def _unjustified(
    rules: CnfFormula, puzzle: Puzzle, clauses: list[Clause], solution: Grid | None
) -> str | None:
    """`unjustified_clause` against rules already re-encoded."""
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
        shown = text[:20] + ("..." if len(text) > 20 else "")
        raise PuzzleError(
            f"{folder}/solution.txt: expected {n * n} symbols from {symbols!r}, "
            f"found {len(text)} ({shown!r})"
        )
    return Grid(n, tuple(symbols.index(ch) + 1 for ch in text))
