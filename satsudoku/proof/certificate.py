"""SAT certificates: a formula, its DRAT refutation and the puzzle, written to and read from a
directory, and checked without trusting any solver (see ARCHITECTURE.md, 'What a proof is')."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from satsudoku.backends import backend_names
from satsudoku.deadline import OutOfTime, check
from satsudoku.encoders.cnf import (
    AtMostOne,
    Clause,
    CnfFormula,
    Encoding,
    FormulaTooLarge,
    dimacs,
    encode_puzzle,
    encode_rules,
    header_comments,
    parse_encoding,
)
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Grid
from satsudoku.options import checked_int, checked_timeout
from satsudoku.proof.drat import (
    DratProof,
    ProofFormatError,
    check_drat,
    parse_dimacs,
    parse_drat,
)
from satsudoku.proof.files import (
    CERTIFICATE_FILES,
    clear,
    make_folder,
    opened_folder,
    present,
    read_bounded,
    read_text,
    size_of,
    write_all,
)
from satsudoku.puzzle import Puzzle
from satsudoku.sat.solvers import SolverRun, load, new_solver
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
SEARCH_PROOF_WRITER = "bitmask"  # proofs written by the bitmask search (proof/search_proof.py)

# Reading limits: every file is refused unread past these, so a stranger's certificate costs
# memory in proportion to what its puzzle needs (formula.cnf's limit follows from the
# re-encoded puzzle, solution.txt's from its size) or to a bound the caller states (the proof).
MAX_MANIFEST_BYTES = 8 * 1024 * 1024  # a manifest holds one puzzle document (io.limits' cap)
MAX_PROOF_BYTES = 64 * 1024 * 1024  # the default (checking takes ~20x that); --max-proof-mib
CHECK_SECONDS, CHECK_SECONDS_PER_MIB = 60.0, 60.0  # `default_check_seconds`
_CLAUSES_PER_CHECK = 1 << 16  # clauses compared between two reads of the clock (~30 ms)


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
    solver: str  # who wrote proof.drat: a pysat solver or SEARCH_PROOF_WRITER
    proof: list[str] = field(repr=False)
    backend: str = "sat"  # who settled the verdict (its own search, not this proof)

    @property
    def encoding(self) -> Encoding:
        return self.formula.encoding

    @property
    def clauses(self) -> list[Clause]:
        return self.formula.clauses

    @property
    def lemma_count(self) -> int:
        """Lemma lines of the proof (deletions aside), the empty clause included."""
        return sum(1 for line in self.proof if not line.startswith("d"))

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
            "lemmas": self.lemma_count,
            "deletions": len(self.proof) - self.lemma_count,
            "backend": self.backend,  # after the counts, so their lines stay where they were
            "puzzle": puzzle_document(plain),
        }

    def to_json(self) -> dict[str, Any]:
        """A summary for JSON output (the full evidence is written by `write`)."""
        summary = self.manifest()
        del summary["puzzle"]
        return summary

    def write(self, directory: str | Path, *, force: bool = False) -> Path:
        """Write formula.cnf, proof.drat, solution.txt, then manifest.json into `directory`.

        A folder that already holds certificate files (or subfolders that do) is refused, so
        old and new evidence never mix; `force` removes those files first (satsudoku's own
        names only). A folder is a certificate once it holds manifest.json, so the manifest
        comes last, each file renamed into place whole: an interrupted or failed write leaves
        no manifest and none of the files it wrote. Symlinks are never followed.
        """
        from satsudoku.io import format_line

        out = Path(directory)
        make_folder(out)
        clear(out, force=force)
        n = self.puzzle.size
        solution = format_line(self.solution, Alphabet.default(n)) if self.solution else "none"
        files = [
            ("formula.cnf", self.formula_text()),
            ("proof.drat", "\n".join(self.proof) + "\n"),
            ("solution.txt", solution + "\n"),
            ("manifest.json", json.dumps(self.manifest(), indent=2) + "\n"),
        ]
        write_all(out, files)
        return out


# Certificates post at-most-one pairwise (no auxiliary variables to re-derive): 2n^3(n-1)
# clauses for a board's houses and cells, 3.3 million on 36x36, 11.3 million on 49x49, 33
# million on 64x64 (about 10 GB as Python lists: past --timeout, a 64x64 held 3 GB at 15 s).
MAX_CERTIFIED_CLAUSES = 12_000_000


def too_large_to_certify(size: int) -> str | None:
    """Why no certificate of a size x size board is written or read (None if one can be)."""
    clauses = 2 * size**3 * (size - 1)
    if clauses <= MAX_CERTIFIED_CLAUSES:
        return None
    return (
        f"a {size}x{size} certificate's pairwise formula would hold {clauses:,} clauses, more "
        f"than the {MAX_CERTIFIED_CLAUSES:,} a certificate may (boards up to 49x49)"
    )


def make_certificate(
    puzzle: Puzzle,
    solutions: list[Grid] | tuple[Grid, ...],
    *,
    encoding: Encoding | str = Encoding.EXTENDED,
    solver: str = PROOF_SOLVER,
    deadline: float | None = None,
    backend: str = "sat",
) -> SatCertificate:
    """Certify 'unique' (one solution given) or 'unsatisfiable' (none) with a DRAT refutation.

    The formula uses pairwise at-most-one: classic and house-only rules have no auxiliary
    variables; cages, sums and large tables bring deterministic ones, which the verifier
    re-derives clause by clause. With `deadline` (a perf_counter time) the proof-logging solve
    runs in conflict-budget slices and raises CertificateTimeoutError when time runs out.
    `backend` names who settled the verdict, for the manifest.
    """
    if why := too_large_to_certify(puzzle.size):
        raise PuzzleError(why)
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
    try:  # a 64x64's pairwise formula is 33 million clauses: 21 GB, minutes past --timeout
        formula = encode_puzzle(puzzle, encoding, AtMostOne.PAIRWISE, deadline)
    except OutOfTime:
        raise _timed_out(solver) from None
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
        backend,
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


def verify_certificate(
    directory: str | Path,
    *,
    use_drat_trim: bool = True,
    max_proof_bytes: int = MAX_PROOF_BYTES,
    timeout: float | None = None,
    phase: Callable[[str], None] | None = None,
) -> CertificateCheck:
    """Check a certificate directory without trusting the solver that wrote it.

    Anything missing, unreadable, oversized or inconsistent is a rejection with a one-line
    reason, never an exception, so one bad certificate does not stop the check of a folder of
    them. Files inside the folder are never read through a symlink. `timeout` seconds bound
    the DRAT check: backward checking can take time quadratic in a proof's size (each lemma's
    unit propagation may run through all earlier ones), so a stranger's proof within the size
    limit could run for hours; past it the certificate is rejected, naming the limit. Without
    `timeout` the limit grows with the proof (`default_check_seconds`); `math.inf` lifts it.
    `phase(text)` hears what runs now and how far the proof's check has got.
    """
    max_proof_bytes = checked_int(max_proof_bytes, "max_proof_bytes")
    seconds = checked_timeout(timeout)  # None for inf or past MAX_SECONDS: here, no limit
    clock = _CheckClock(math.inf if seconds is None and timeout is not None else seconds)
    folder = Path(directory)
    try:
        with opened_folder(folder) as fd:
            return _verify(folder, fd, use_drat_trim, max_proof_bytes, clock, phase or _quiet)
    except OutOfTime:
        return CertificateCheck(False, (f"proof.drat: not checked within {clock.shown()}",))
    except PuzzleError as exc:
        return CertificateCheck(False, (exc.located(),))
    except OSError as exc:
        return CertificateCheck(False, (f"unreadable: {exc.strerror or exc}",))
    except MemoryError:
        return CertificateCheck(False, ("out of memory while checking it",))


def _quiet(text: str) -> None:
    """No one is watching."""


def default_check_seconds(proof_bytes: int) -> float:
    """The DRAT check's time limit when none is given: in proportion to what the proof holds.

    Honest proofs check at 2-20 s of CPU per MiB (a 9x9 variant's 0.6 MiB bitmask proof:
    4-13 s; SAT proofs are far shorter), so 60 s plus 60 s per MiB leaves them a wide margin
    on a loaded machine, while a crafted proof cannot hold the checker for hours: a 64 MiB
    proof gets at most 65 minutes.
    """
    return CHECK_SECONDS + CHECK_SECONDS_PER_MIB * proof_bytes / (1 << 20)


@dataclass
class _CheckClock:
    """The DRAT check's time limit: given, or set once the proof is read (by its size)."""

    given: float | None
    limit: float | None = None

    def deadline(self, proof_bytes: int) -> float:
        """The perf_counter time at which a check starting now must stop."""
        self.limit = self.given if self.given is not None else default_check_seconds(proof_bytes)
        return time.perf_counter() + self.limit

    def shown(self) -> str:
        if self.given is not None:
            return f"--timeout {self.given:g} s"
        limit = self.limit if self.limit is not None else CHECK_SECONDS
        return (
            f"the default {limit:.0f} s ({CHECK_SECONDS:.0f} s + {CHECK_SECONDS_PER_MIB:.0f} s "
            "per MiB of proof; --timeout S allows more)"
        )


def _verify(
    folder: Path,
    fd: int,
    use_drat_trim: bool,
    max_proof_bytes: int,
    clock: _CheckClock,
    phase: Callable[[str], None],
) -> CertificateCheck:
    """`verify_certificate` on the open folder `fd`, raising PuzzleError for what is unreadable."""
    missing = [name for name in CERTIFICATE_FILES if name not in present(fd, CERTIFICATE_FILES)]
    if missing:
        raise PuzzleError(f"not a certificate (missing {', '.join(missing)})")
    manifest = _read_manifest(fd)
    puzzle = _manifest_puzzle(manifest)
    if why := too_large_to_certify(puzzle.size):  # before its formula is re-encoded
        raise PuzzleError(f"manifest.json: {why}")
    status = manifest.get("status")
    if status not in ("unique", "unsatisfiable"):
        raise PuzzleError("manifest.json: status must be unique or unsatisfiable")
    encoding = parse_encoding(str(manifest.get("encoding", ""))[:40])
    if encoding is Encoding.REDUCED:
        raise PuzzleError("manifest.json: certificates never use the reduced encoding")
    solution = _read_solution(fd, puzzle) if status == "unique" else None
    phase("re-encoding the puzzle and reading formula.cnf")
    rules = _rules_held(fd, puzzle, encoding)
    num_vars, clauses = _parsed(fd, "formula.cnf", _formula_limit(rules, puzzle), parse_dimacs)
    if num_vars != rules.num_vars:
        raise PuzzleError(
            f"formula.cnf: the header declares {num_vars} variables, the puzzle's "
            f"{encoding.value} encoding has {rules.num_vars}"
        )
    why = "for a proof (raise it with --max-proof-mib)"
    phase("reading proof.drat")
    proof_bytes = read_bounded(fd, "proof.drat", max_proof_bytes, why)
    steps = _parsed_bytes("proof.drat", proof_bytes, parse_drat)
    proof_size = len(proof_bytes)
    del proof_bytes
    messages: list[str] = []
    if solution is not None:
        if broken := violations(puzzle, solution):
            return CertificateCheck(False, (f"solution.txt is not a solution: {broken[0]}",))
        messages.append("solution.txt solves the puzzle")
    aux = rules.num_vars - puzzle.size**3
    phase("checking formula.cnf against the puzzle")
    problem = _aux_mismatch(manifest, aux) or _unjustified(rules, puzzle, clauses, solution)
    if problem:
        return CertificateCheck(False, (*messages, problem))
    derived = f"{aux} auxiliary variables re-derived" if aux else "no auxiliary variables"
    messages.append(f"all {len(clauses)} clauses of formula.cnf follow from the puzzle ({derived})")
    phase("checking proof.drat")

    def going_back(lemma: int, end: int, checked: int) -> None:
        phase(f"checking proof.drat: lemma {lemma:,} of {end:,} next, {checked:,} checked")

    verdict = check_drat(clauses, steps, clock.deadline(proof_size), going_back)
    messages.append(("proof.drat: " if verdict.ok else "proof.drat rejected: ") + verdict.message)
    # Checked once the evidence holds: its own faults say more than the bookkeeping they upset.
    mismatch = verdict.ok and _manifest_mismatch(manifest, puzzle, rules, clauses, steps)
    if mismatch:
        messages.append(mismatch)
    if use_drat_trim:
        phase("running drat-trim")
    trim = run_drat_trim(folder) if use_drat_trim else None
    ok = verdict.ok and not mismatch and (trim is None or trim.startswith("verified"))
    return CertificateCheck(ok, tuple(messages), trim)


def formula_floor(size: int, encoding: Encoding) -> int:
    """The fewest bytes a certificate's formula.cnf for an n×n puzzle can take.

    Pairwise at-most-one per digit in each of the 3n classic houses, and per cell unless
    minimal: n·C(n,2) binary clauses each, every one at least "-a -b 0\n" (8 bytes; 6 counted).
    """
    houses = 3 * size + (0 if encoding is Encoding.MINIMAL else size)
    return 6 * houses * size * (size * (size - 1) // 2)


def _rules_held(fd: int, puzzle: Puzzle, encoding: Encoding) -> CnfFormula:
    """The puzzle's rules re-encoded, within what formula.cnf can hold.

    A certificate's formula holds every rule clause, each literal and clause end taking at
    least 2 bytes, so the file's size bounds the re-encoding: a few bytes claiming a 64x64
    puzzle, or a 90 KB formula whose manifest claims 36 skyscraper clues (6.7 GB and 241 s
    before this bound), are refused without the gigabytes their encodings take.
    """
    n = puzzle.size
    least = formula_floor(n, encoding)
    size = size_of(fd, "formula.cnf")
    if size < least:
        raise PuzzleError(
            f"formula.cnf: {size:,} bytes cannot hold the {n}x{n} {encoding.value} encoding "
            f"(at least {least:,} bytes)"
        )
    try:
        return _rules(puzzle, encoding, max_items=size // 2 + 1)  # the last "0" may end the file
    except FormulaTooLarge as exc:
        raise PuzzleError(
            f"formula.cnf: {size:,} bytes cannot hold the puzzle's {encoding.value} encoding "
            f"(its rules need more than {exc.max_items:,} literals and clauses)"
        ) from None


def _formula_limit(rules: CnfFormula, puzzle: Puzzle) -> int:
    """The most bytes formula.cnf may take: 16 per literal and clause of the re-encoded rules,
    givens and blocking clause (a literal is at most 7 digits, a sign and a space), plus 1 MiB
    for the comment header, which repeats the puzzle and its title."""
    cells = puzzle.size**2
    items = sum(len(clause) + 1 for clause in rules.clauses) + 2 * cells + cells + 1
    return 16 * items + (1 << 20)


def _manifest_mismatch(
    manifest: dict[str, Any],
    puzzle: Puzzle,
    rules: CnfFormula,
    clauses: list[Clause],
    steps: DratProof,
) -> str | None:
    """The first manifest field that contradicts the files or the puzzle, if any."""
    lemmas = steps.lemma_count
    expected: dict[str, Any] = {
        "shape": puzzle.shape.describe(),
        "rules": puzzle.rule_names(),
        "amo": AtMostOne.PAIRWISE.value,
        "variables": rules.num_vars,
        "clauses": len(clauses),
        "lemmas": lemmas,
        "deletions": len(steps) - lemmas,
    }
    for key, value in expected.items():
        claimed = manifest.get(key)
        if claimed != value or isinstance(claimed, bool):
            return f"manifest.json: {key} is {_short(claimed)}, the files say {_short(value)}"
    solver = manifest.get("solver")
    writers = (*PROOF_SOLVERS, SEARCH_PROOF_WRITER)
    if solver not in writers:
        return (
            f"manifest.json: solver {_short(solver)} cannot write usable proofs "
            f"(one of {', '.join(writers)})"
        )
    # Who settled the verdict does not change what the proof shows, but the name must be one
    # of satsudoku's backends. Absent: a certificate from before the field, written by SAT.
    backend = manifest.get("backend", "sat")
    if backend not in backend_names():
        return f"manifest.json: backend {_short(backend)} is none of {', '.join(backend_names())}"
    return None


def _short(value: Any) -> str:
    """A manifest value for a one-line message: at most 40 characters."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _aux_mismatch(manifest: dict[str, Any], aux: int) -> str | None:
    """The manifest's auxiliary-variable count must be the re-derived one (absent: older file)."""
    claimed = manifest.get("auxiliary_variables", aux)
    if claimed == aux and not isinstance(claimed, bool):
        return None
    return f"manifest.json: {_short(claimed)} auxiliary variables, the encoding has {aux}"


def _parsed(
    fd: int, name: str, limit: int, parse: Callable[[bytes], T], why: str = "for this puzzle"
) -> T:
    """`parse` of the file's bytes (read up to `limit`); a PuzzleError naming the file."""
    return _parsed_bytes(name, read_bounded(fd, name, limit, why), parse)


def _parsed_bytes(name: str, data: bytes, parse: Callable[[bytes], T]) -> T:
    """`parse(data)`, a PuzzleError naming the file `name` if it cannot be parsed."""
    try:
        return parse(data)
    except ProofFormatError as exc:
        raise PuzzleError(f"{name}: {exc.message}") from None


def check_certificate(cert: SatCertificate, deadline: float | None = None) -> CertificateCheck:
    """`verify_certificate` for an in-memory certificate (as attached to `Result.proof`);
    OutOfTime once `deadline` (a perf_counter time) passes during the proof's check."""
    if why := too_large_to_certify(cert.puzzle.size):
        return CertificateCheck(False, (why,))
    if cert.solution is not None and (broken := violations(cert.puzzle, cert.solution)):
        return CertificateCheck(False, (f"the solution breaks the puzzle: {broken[0]}",))
    problem = unjustified_clause(
        cert.puzzle, cert.encoding, cert.clauses, cert.solution, deadline=deadline
    )
    if problem:
        return CertificateCheck(False, (problem,))
    verdict = check_drat(cert.clauses, parse_drat("\n".join(cert.proof)), deadline)
    return CertificateCheck(verdict.ok, (verdict.message,))


def unjustified_clause(
    puzzle: Puzzle,
    encoding: Encoding,
    clauses: list[Clause],
    solution: Grid | None,
    *,
    deadline: float | None = None,
) -> str | None:
    """The first clause that is neither a rule clause, a given nor the blocking clause;
    OutOfTime once `deadline` passes (a 36x36's 3.3 million rule clauses take 9 s)."""
    rules = _rules(puzzle, encoding, deadline=deadline)
    return _unjustified(rules, puzzle, clauses, solution, deadline)


def _rules(
    puzzle: Puzzle,
    encoding: Encoding,
    max_items: int | None = None,
    deadline: float | None = None,
) -> CnfFormula:
    """The puzzle's rules re-encoded as the certificate's formula was (auxiliaries included)."""
    return encode_rules(
        puzzle.shape,
        puzzle.constraints(),
        encoding,
        AtMostOne.PAIRWISE,
        deadline=deadline,
        max_items=max_items,
    )


def _unjustified(
    rules: CnfFormula,
    puzzle: Puzzle,
    clauses: list[Clause],
    solution: Grid | None,
    deadline: float | None = None,
) -> str | None:
    """`unjustified_clause` against rules already re-encoded."""
    justified: set[frozenset[int]] = set()
    for start in range(0, len(rules.clauses), _CLAUSES_PER_CHECK):
        check(deadline)
        justified.update(map(frozenset, rules.clauses[start : start + _CLAUSES_PER_CHECK]))
    n = puzzle.size
    justified.update(frozenset([i * n + d]) for i, d in enumerate(puzzle.givens.values) if d)
    if solution is not None:
        # Must hold the negated solution literal of every non-given cell, and nothing else.
        justified.add(frozenset(rules.block(solution, puzzle.givens)))
    for number, clause in enumerate(clauses, 1):
        if number % _CLAUSES_PER_CHECK == 0:
            check(deadline)
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


def _read_manifest(fd: int) -> dict[str, Any]:
    """manifest.json, refused when too large, too deeply nested or holding over-long numbers."""
    from satsudoku.io.limits import load_json

    data = load_json(
        read_text(fd, "manifest.json", MAX_MANIFEST_BYTES, "for a manifest"), "manifest.json"
    )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f"manifest.json: not a {FORMAT} manifest")
    return data


def _manifest_puzzle(manifest: dict[str, Any]) -> Puzzle:
    from satsudoku.io import ReadOptions
    from satsudoku.io.document import puzzle_from_document

    return puzzle_from_document(manifest.get("puzzle"), ReadOptions(source="manifest.json"))


def _read_solution(fd: int, puzzle: Puzzle) -> Grid:
    """solution.txt: one line in the default alphabet of the size (1-9, then A, B, ...)."""
    n = puzzle.size
    symbols = Alphabet.default(n).symbols
    text = read_text(fd, "solution.txt", 4 * n * n + 64, f"for a {n}x{n} solution").strip()
    if len(text) != n * n or any(ch not in symbols for ch in text):
        shown = text[:20] + ("..." if len(text) > 20 else "")
        raise PuzzleError(
            f"solution.txt: expected {n * n} symbols from {symbols!r}, "
            f"found {len(text)} ({shown!r})"
        )
    return Grid(n, tuple(symbols.index(ch) + 1 for ch in text))
