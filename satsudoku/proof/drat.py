"""A backward DRAT checker: is a clausal proof a valid refutation of a CNF formula?

Only lemmas that the final conflict (transitively) depends on are checked, newest first, each by
reverse unit propagation (RUP), falling back to RAT on its first literal. Deletions are ignored:
keeping a clause can only make RUP easier and RAT harder, so the verdict stays sound, and
Glucose-style proofs that delete reason clauses at level 0 pose no problem.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from satsudoku.deadline import check
from satsudoku.errors import PuzzleError

Clause = list[int]


class ProofFormatError(PuzzleError):
    """A CNF or DRAT file that cannot be parsed."""


@dataclass(frozen=True)
class DratVerdict:
    """The checker's answer, with how much of the proof it needed."""

    ok: bool
    message: str
    lemmas: int = 0
    checked: int = 0
    deletions: int = 0
    needed: tuple[int, ...] = ()  # 1-based numbers of the lemmas checked, in proof order


# Resolution partners `_Checker.trivially_rat` looks at before unit propagation (a definition's
# state has one per arc into it; a hostile proof could give every lemma thousands).
_TRIVIAL_PARTNERS = 1024
# DIMACS and DRAT tools (drat-trim, the SAT competition checkers) hold literals in a C int.
MAX_VARIABLE = 2**31 - 1


def parse_dimacs(text: str | bytes) -> tuple[int, list[Clause]]:
    """The declared variable count and the clauses of a DIMACS CNF text.

    The header is a promise the checker holds the file to: a literal past the declared
    variables, or more or fewer clauses than declared, is a one-line error naming the line.
    """
    header: tuple[int, int, int] | None = None  # (line, variables, clauses)
    clauses: list[Clause] = []
    current: Clause = []
    for lineno, stripped in _lines(text):
        if stripped[:1] in (b"c", b"%"):
            continue
        if stripped.startswith(b"p"):
            if header is not None:
                raise ProofFormatError(f"line {lineno}: a second 'p cnf' header")
            header = (lineno, *_header_counts(stripped, lineno))
            continue
        if header is None:
            raise ProofFormatError(f"line {lineno}: a clause before the 'p cnf' header")
        _, num_vars, declared = header
        for lit in _literals(stripped, lineno, "a DIMACS clause"):
            if lit == 0:
                if len(clauses) == declared:
                    raise ProofFormatError(
                        f"line {lineno}: clause {declared + 1}, but the header (line "
                        f"{header[0]}) declares {declared} clauses"
                    )
                clauses.append(current)
                current = []
            elif abs(lit) > num_vars:
                if abs(lit) > MAX_VARIABLE:
                    raise _beyond(lineno)  # and too long to show
                raise ProofFormatError(
                    f"line {lineno}: literal {lit} exceeds the {num_vars} variables the "
                    f"header (line {header[0]}) declares"
                )
            else:
                current.append(lit)
    if header is None:
        raise ProofFormatError("no 'p cnf' header")
    if current:
        raise ProofFormatError("the last clause is not terminated by 0")
    if header[2] != len(clauses):
        raise ProofFormatError(
            f"line {header[0]}: the header declares {header[2]} clauses, the file has "
            f"{len(clauses)}"
        )
    return header[1], clauses


def _lines(text: str | bytes) -> Iterator[tuple[int, bytes]]:
    """(line number, stripped line) of the non-blank lines, read lazily: a proof of millions
    of lines never exists as a list of lines beside its parsed clauses."""
    data = text.encode() if isinstance(text, str) else text
    for lineno, line in enumerate(io.BytesIO(data), 1):
        stripped = line.strip()
        if stripped:
            yield lineno, stripped


def _shown(text: bytes) -> str:
    """At most 40 characters of a line, for an error message that stays one short line."""
    shown = text[:40].decode("utf-8", "replace")
    return repr(shown + ("..." if len(text) > 40 else ""))


def _header_counts(stripped: bytes, lineno: int) -> tuple[int, int]:
    """(variables, clauses) of a 'p cnf V C' line, both integers in 0..MAX_VARIABLE."""
    parts = stripped.split()
    if len(parts) == 4 and parts[:2] == [b"p", b"cnf"] and all(x.isdigit() for x in parts[2:]):
        if all(len(x) <= 10 and int(x) <= MAX_VARIABLE for x in parts[2:]):
            return int(parts[2]), int(parts[3])
        raise ProofFormatError(
            f"line {lineno}: header counts beyond {MAX_VARIABLE}, the most DIMACS tools accept"
        )
    raise ProofFormatError(f"line {lineno}: bad DIMACS header {_shown(stripped)}")


def _literals(stripped: bytes, lineno: int, what: str) -> list[int]:
    """The integers of a clause line; the caller bounds them (by the header, or ±MAX_VARIABLE)."""
    tokens = stripped.split()
    try:
        return list(map(int, tokens))  # past 4,300 digits, int() raises: refused below
    except ValueError:
        if all(tok.lstrip(b"-").isdigit() for tok in tokens):
            raise _beyond(lineno) from None
        raise ProofFormatError(f"line {lineno}: not {what}: {_shown(stripped)}") from None


def _beyond(lineno: int) -> ProofFormatError:
    return ProofFormatError(
        f"line {lineno}: a literal beyond ±{MAX_VARIABLE}, the most DIMACS tools accept"
    )


# Every deletion step: its literals are checked, then dropped, since the checker never uses
# them. A proof of 'd 1 0' lines held each as its own tuple and list, ~85 bytes of memory per
# 6-byte line (verify-certificate on 16 MiB of them: 509 MB peak); shared, 8 bytes a line.
_DELETION: tuple[bool, Clause] = (True, [])


def parse_drat(text: str | bytes) -> list[tuple[bool, Clause]]:
    """The steps of a textual DRAT proof: (is_deletion, clause), in order; a deletion's clause
    is read and checked but comes back empty (the checker keeps every clause)."""
    steps: list[tuple[bool, Clause]] = []
    for lineno, stripped in _lines(text):
        if stripped.startswith(b"c"):
            continue
        deletion = stripped.startswith(b"d")
        body = stripped[1:] if deletion else stripped
        if not body.strip():
            raise ProofFormatError(f"line {lineno}: a DRAT step must end with a single 0")
        what = "a textual DRAT step (binary DRAT is not supported)"
        lits = _literals(body, lineno, what)
        if max(lits) > MAX_VARIABLE or min(lits) < -MAX_VARIABLE:
            raise _beyond(lineno)
        if lits[-1] != 0 or 0 in lits[:-1]:
            raise ProofFormatError(f"line {lineno}: a DRAT step must end with a single 0")
        if deletion:
            steps.append(_DELETION)
            continue
        lits.pop()
        steps.append((False, lits))
    return steps


class _Checker:
    """Unit propagation over formula + lemmas, where only clauses with id < limit are active.

    The formula's own unit consequences (the 'base' assignment, givens and all they imply) are
    computed once; every clause is then simplified by it, so each check starts from base.
    """

    def __init__(self, formula: Sequence[Clause], lemmas: Sequence[Clause]) -> None:
        self.num_formula = len(formula)
        # The callers' lists are shared, never changed: a copy only where a literal repeats
        # (and `_compact` renames on a copy). A copy of each was ~64 bytes a 4-byte '1 0' line.
        held = [c if _distinct(c) else list(dict.fromkeys(c)) for c in (*formula, *lemmas)]
        every, top = _compact(held)
        self.off = top
        size = 2 * top + 1
        self.val = [False] * size  # val[lit + off]: lit is true
        self.reason = [-1] * (top + 1)
        self.base_conflict = False
        self._build(every[: self.num_formula], size)
        trail: list[int] = []
        self.base_conflict = self._propagate(trail, len(formula), 0) >= 0
        self.base = set(trail)
        for lit in trail:
            self.reason[abs(lit)] = -1  # base literals are never explained again
        self.originals = every
        # literal -> ids of the clauses holding it, ascending: RAT steps (extension variables'
        # definitions) look up their resolution partners here instead of scanning every clause.
        self.occurs: dict[int, list[int]] | None = None
        self.clauses: list[Clause | None] = [self._simplify(c) for c in every]
        self.unit_ids: list[int] = []
        self.empty_ids: list[int] = []
        self._build(self.clauses, size)

    def _simplify(self, clause: Clause) -> Clause | None:
        """Drop base-false literals; None when base already satisfies the clause. Propagation
        reorders the literals of clauses of 3 or more (watches), so those are always copies: the
        original's first literal stays the RAT pivot. Shorter ones are shared when unchanged."""
        val, off = self.val, self.off
        if any(val[lit + off] for lit in clause):
            return None
        if len(clause) <= 2 and not any(val[off - lit] for lit in clause):
            return clause
        return [lit for lit in clause if not val[off - lit]]

    def _build(self, clauses: Sequence[Clause | None], size: int) -> None:
        self.imp: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        self.watch: list[list[int]] = [[] for _ in range(size)]
        self.unit_ids = []
        self.empty_ids = []
        self.pending_units: list[tuple[int, int]] = []
        for cid, clause in enumerate(clauses):
            if clause is None:
                continue
            if not clause:
                self.empty_ids.append(cid)
            elif len(clause) == 1:
                self.unit_ids.append(cid)
                self.pending_units.append((cid, clause[0]))
            elif len(clause) == 2:
                a, b = clause
                self.imp[self.off - a].append((b, cid))  # a false => b
                self.imp[self.off - b].append((a, cid))
            else:
                self.watch[clause[0] + self.off].append(cid)
                self.watch[clause[1] + self.off].append(cid)
        self.watched = clauses

    def _assign(self, lit: int, cid: int, trail: list[int]) -> None:
        self.val[lit + self.off] = True
        self.reason[abs(lit)] = cid
        trail.append(lit)

    def _propagate(self, trail: list[int], limit: int, head: int) -> int:
        """Propagate active units and the trail from `head`; a conflicting clause id or -1."""
        val, off, imp, watch, clauses = self.val, self.off, self.imp, self.watch, self.watched
        for cid in self.empty_ids:
            if cid < limit:
                return cid
        for cid, lit in self.pending_units:
            if cid >= limit:
                continue
            if val[off - lit]:
                return cid
            if not val[lit + off]:
                self._assign(lit, cid, trail)
        while head < len(trail):
            p = trail[head]
            head += 1
            for q, cid in imp[p + off]:
                if cid >= limit or val[q + off]:
                    continue
                if val[off - q]:
                    return cid
                self._assign(q, cid, trail)
            false_lit = -p
            ws = watch[false_lit + off]
            i = j = 0
            end = len(ws)
            while i < end:
                cid = ws[i]
                i += 1
                if cid >= limit:
                    ws[j] = cid
                    j += 1
                    continue
                clause = clauses[cid]
                assert clause is not None
                if clause[0] == false_lit:
                    clause[0], clause[1] = clause[1], false_lit
                first = clause[0]
                if val[first + off]:
                    ws[j] = cid
                    j += 1
                    continue
                for k in range(2, len(clause)):
                    lit = clause[k]
                    if not val[off - lit]:
                        clause[1], clause[k] = lit, false_lit
                        watch[lit + off].append(cid)
                        break
                else:
                    ws[j] = cid
                    j += 1
                    if val[off - first]:
                        while i < end:
                            ws[j] = ws[i]
                            i += 1
                            j += 1
                        del ws[j:]
                        return cid
                    self._assign(first, cid, trail)
            del ws[j:]
        return -1

    def rup(self, lits: Iterable[int], limit: int) -> set[int] | None:
        """Clause ids a unit-propagation refutation of ¬lits used, or None if there is none."""
        val, off = self.val, self.off
        trail: list[int] = []
        used: set[int] | None = None
        try:
            for lit in lits:
                if val[lit + off]:
                    if lit in self.base:
                        return set()  # the clause is already satisfied at base
                    continue  # an earlier literal's complement repeated
                if not val[off - lit]:
                    self._assign(-lit, -1, trail)
            conflict = self._propagate(trail, limit, 0)
            if conflict >= 0:
                used = self._analyze(conflict)
            return used
        finally:
            for lit in trail:
                val[lit + off] = False
                self.reason[abs(lit)] = -1

    def _analyze(self, conflict: int) -> set[int]:
        """Every clause on the implication graph behind the conflict."""
        used = {conflict}
        stack = [conflict]
        seen: set[int] = set()
        clauses, reason = self.watched, self.reason
        while stack:
            clause = clauses[stack.pop()]
            assert clause is not None
            for lit in clause:
                var = abs(lit)
                if var in seen:
                    continue
                seen.add(var)
                cid = reason[var]
                if cid >= 0 and cid not in used:
                    used.add(cid)
                    stack.append(cid)
        return used

    def _occurring(self, lit: int) -> list[int]:
        """The ids of the clauses holding `lit`, ascending (the index is built on first use:
        a proof of RUP lemmas needs none)."""
        if self.occurs is None:
            self.occurs = {}
            for cid, clause in enumerate(self.originals):
                for x in clause:
                    self.occurs.setdefault(x, []).append(cid)
        return self.occurs.get(lit, [])

    def trivially_rat(self, lemma: Clause, limit: int) -> bool:
        """Whether every resolvent on the first literal with an active clause is a tautology
        (or there is none): a definition of a fresh (extension) variable. Such a lemma needs
        no unit propagation, which for a definition would fail only after a long one."""
        pivot = lemma[0]
        partners = self._occurring(-pivot)
        if len(partners) > _TRIVIAL_PARTNERS and partners[_TRIVIAL_PARTNERS] < limit:
            return False  # too many to look at first: RUP, then RAT, as for any lemma
        negated = {-lit for lit in lemma}
        for cid in partners:
            if cid >= limit:
                break
            if not any(lit in negated for lit in self.originals[cid] if lit != -pivot):
                return False
        return True

    def rat(self, lemma: Clause, limit: int, deadline: float | None = None) -> set[int] | None:
        """RAT on the first literal: every resolvent with an active clause is RUP. The
        deadline is checked per resolvent: a proof may give one pivot a million partners,
        each a unit propagation of its own."""
        pivot = lemma[0]
        used: set[int] = set()
        for cid in self._occurring(-pivot):
            if cid >= limit:
                break  # ascending: the rest are not active yet
            check(deadline)
            other = self.originals[cid]
            resolvent = lemma + [lit for lit in other if lit != -pivot]
            if any(-lit in resolvent for lit in resolvent):
                continue  # a tautology needs no check
            found = self.rup(resolvent, limit)
            if found is None:
                return None
            used |= found | {cid}
        return used


def _compact(clauses: list[Clause]) -> tuple[list[Clause], int]:
    """`clauses` with variables past their literal count L renumbered L+1, L+2, ... in order of
    appearance, and the largest variable after that.

    The checker's arrays are indexed by variable, so this bounds them by what the files hold
    (at most 2L variables), whatever numbers a proof's new (RAT, extension) variables carry:
    renaming variables one-to-one changes no RUP or RAT verdict.
    """
    total = sum(map(len, clauses))
    top = max((max(map(abs, clause)) for clause in clauses if clause), default=0)
    if top <= total:
        return clauses, top
    renamed: dict[int, int] = {}
    for index, clause in enumerate(clauses):
        if any(abs(lit) > total for lit in clause):
            clauses[index] = copy = list(clause)  # the caller's list stays as it was read
            for k, lit in enumerate(copy):
                if abs(lit) > total:
                    new = renamed.setdefault(abs(lit), total + len(renamed) + 1)
                    copy[k] = new if lit > 0 else -new
    return clauses, max(total, total + len(renamed))


def _distinct(clause: Clause) -> bool:
    """Whether no literal repeats in `clause` (one short set for the longer clauses)."""
    if len(clause) <= 2:
        return len(clause) < 2 or clause[0] != clause[1]
    return len(set(clause)) == len(clause)


def check_drat(
    formula: Sequence[Clause],
    steps: Sequence[tuple[bool, Clause]],
    deadline: float | None = None,
) -> DratVerdict:
    """Check that `steps` (from `parse_drat`) refute `formula`.

    Lemma counts and numbers cover every lemma line of the proof, the empty clause included,
    as the certificate's manifest counts them. With `deadline` (a perf_counter time) the
    check raises OutOfTime once it passes: a proof of 33,000 lemmas takes minutes here, and
    `prove --timeout` bounds the check too.
    """
    lemmas = [clause for deletion, clause in steps if not deletion]
    total, deletions = len(lemmas), len(steps) - len(lemmas)
    end = next((k for k, clause in enumerate(lemmas) if not clause), total)
    lemmas = lemmas[:end]  # everything after the first empty clause is irrelevant
    check(deadline)
    checker = _Checker(formula, lemmas)
    check(deadline)
    if checker.base_conflict:
        message = "the formula is refuted by unit propagation alone"
        return DratVerdict(True, message, total, 0, deletions)
    first = checker.num_formula
    used = checker.rup([], first + len(lemmas))
    if used is None:
        message = "the proof derives no conflict (no empty clause by unit propagation)"
        return DratVerdict(False, message, total, 0, deletions)
    marked = used
    needed = [end + 1] if end < total else []  # the empty clause, checked just now
    for k in range(len(lemmas) - 1, -1, -1):
        cid = first + k
        if cid not in marked:
            continue
        check(deadline)  # ~0.1 µs against milliseconds a lemma
        simplified = checker.clauses[cid]
        if simplified is None:
            continue  # satisfied by the formula's unit consequences
        needed.append(k + 1)
        if lemmas[k] and checker.trivially_rat(checker.originals[cid], cid):
            continue  # RAT with nothing to check (resolvents are tautologies)
        found = checker.rup(simplified, cid)
        if found is None and lemmas[k]:
            found = checker.rat(checker.originals[cid], cid, deadline)  # renumbered
        if found is None:
            shown = " ".join(map(str, lemmas[k][:12])) + (" ..." if len(lemmas[k]) > 12 else "")
            message = f"lemma {k + 1} ({shown} 0) is neither RUP nor RAT"
            return DratVerdict(False, message, total, len(needed), deletions)
        marked |= found
    return DratVerdict(
        True,
        f"valid refutation: {len(needed)} of {total} lemmas needed and checked",
        total,
        len(needed),
        deletions,
        tuple(reversed(needed)),
    )
