"""A backward DRAT checker: is a clausal proof a valid refutation of a CNF formula?

Only lemmas that the final conflict (transitively) depends on are checked, newest first, each by
reverse unit propagation (RUP), falling back to RAT on its first literal. Deletions are ignored:
keeping a clause can only make RUP easier and RAT harder, so the verdict stays sound, and
Glucose-style proofs that delete reason clauses at level 0 pose no problem.
"""

from __future__ import annotations

import io
from array import array
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import overload

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


# A deletion's literals are checked, then dropped: the checker never uses them (it keeps every
# clause), so every deletion step reads back as this one shared object.
_DELETION: tuple[bool, Clause] = (True, [])


class DratProof(Sequence[tuple[bool, Clause]]):
    """The steps of a DRAT proof, (is_deletion, clause) in order, held flat.

    Every lemma's literals sit in one array of C ints: a lemma costs 9 bytes plus 4 a literal,
    a deletion 1 byte. A list per step cost ~310 bytes for a 4-byte '1 0' line: 5 GB for the
    64 MiB proof a certificate may hold, from a stranger who only had to repeat one line.
    """

    def __init__(self) -> None:
        self.literals: array[int] = array("i")
        self.ends: array[int] = array("q")  # where lemma k's literals end in `literals`
        self.is_deletion = bytearray()  # one byte a step
        self.deletions = 0

    @classmethod
    def of(cls, steps: Iterable[tuple[bool, Sequence[int]]]) -> DratProof:
        proof = cls()
        for deletion, clause in steps:
            proof.add(clause, deletion)
        return proof

    def add(self, clause: Iterable[int], deletion: bool = False) -> None:
        if deletion:
            self.deletions += 1
        else:
            self.literals.extend(clause)
            self.ends.append(len(self.literals))
        self.is_deletion.append(deletion)

    @property
    def lemma_count(self) -> int:
        return len(self.ends)

    def __len__(self) -> int:
        return len(self.is_deletion)

    @overload
    def __getitem__(self, index: int) -> tuple[bool, Clause]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[bool, Clause]]: ...

    def __getitem__(self, index: int | slice) -> tuple[bool, Clause] | list[tuple[bool, Clause]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("proof step out of range")
        if self.is_deletion[index]:
            return _DELETION
        return False, self.lemma(self.is_deletion.count(0, 0, index))  # lemmas before it

    def __iter__(self) -> Iterator[tuple[bool, Clause]]:
        lemmas = self.lemmas()
        for deletion in self.is_deletion:
            yield _DELETION if deletion else (False, next(lemmas).tolist())

    def lemmas(self) -> Iterator[array[int]]:
        """Each lemma's literals, in proof order (a short-lived slice each)."""
        begin = 0
        for end in self.ends:
            yield self.literals[begin:end]
            begin = end

    def lemma(self, k: int) -> Clause:
        """Lemma k (from 0) as the proof wrote it."""
        return self.literals[self.ends[k - 1] if k else 0 : self.ends[k]].tolist()


def parse_drat(text: str | bytes) -> DratProof:
    """The steps of a textual DRAT proof; a deletion's clause is read and checked but comes
    back empty (the checker keeps every clause)."""
    proof = DratProof()
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
        lits.pop()
        proof.add(lits, deletion)
    return proof


_NONE = 2**62  # "no clause" in the arrays of clause ids below (every real id is smaller)


@dataclass
class _TopLevel:
    """What the active clauses imply at the top level, kept between checks (`_top_level`):
    one level per clause id whose arrival implied something, in id order."""

    trail: array[int] = field(default_factory=lambda: array("i"))
    starts: array[int] = field(default_factory=lambda: array("q"))  # where each level begins
    ids: array[int] = field(default_factory=lambda: array("q"))  # the clause that began it
    limit: int = -1
    conflict: int = -1


class _Checker:
    """Unit propagation over formula + lemmas, where only clauses with id < limit are active.

    Clause c's literals are `orig[start[c]:start[c + 1]]` as written (first one: the RAT
    pivot), and `work[start[c]:start[c] + wlen[c]]` simplified and reordered by propagation
    (wlen -1: satisfied). Flat arrays throughout: a hostile proof of millions of short lemmas
    costs tens of bytes a lemma, not hundreds. The formula's own unit consequences (the 'base'
    assignment: givens and all they imply) are computed once and every clause simplified by
    them, so each check starts from base.
    """

    def __init__(self, formula: Sequence[Sequence[int]], lemmas: Iterable[Sequence[int]]) -> None:
        self.num_formula = len(formula)
        orig: array[int] = array("i")
        start: array[int] = array("q", [0])
        for clause in formula:
            _append(orig, start, clause)
        self.num_lemmas = 0  # the lemmas before the first empty one: the rest are irrelevant
        for clause in lemmas:
            if not len(clause):
                break
            _append(orig, start, clause)
            self.num_lemmas += 1
        held = orig[: start[self.num_formula]]  # the formula's literals
        kept = max(max(held, default=0), -min(held, default=0))
        del held
        top = _compact(orig, kept)
        self.orig, self.start, self.off = orig, start, top
        count = len(start) - 1
        size = 2 * top + 1
        self.work = array("i", orig)
        self.wlen = array("i", (start[c + 1] - start[c] for c in range(count)))
        self.val = bytearray(size)  # val[lit + off]: lit is true
        self.reason = array("q", [-1]) * (top + 1)
        self.isolated = array("q", [_NONE]) * size  # see `_build`
        self.clash = (_NONE, 0, 0)
        self._build(self.num_formula, size, with_isolated=False)
        trail: list[int] = []
        conflict = self._fixed_conflict(self.num_formula)
        if conflict < 0:
            conflict = self._assign_units(trail, self.num_formula)
        if conflict < 0:
            conflict = self._propagate(trail, self.num_formula, 0)
        self.base_conflict = conflict >= 0
        self.base = set(trail)
        for lit in trail:
            self.reason[abs(lit)] = -1  # base literals are never explained again
        self._simplify_all(count)
        self.occ_start: array[int] | None = None  # literal -> its clause ids: `_occurring`
        self.occ: array[int] = array("q")
        self._build(count, size, with_isolated=True)
        self._top = _TopLevel()
        self._conflict_clause = -1
        self.is_unit = bytearray(count)  # the units `_build` kept in unit_ids
        for cid in self.unit_ids:
            self.is_unit[cid] = 1

    def _simplify_all(self, count: int) -> None:
        """Drop base-false literals from every clause; wlen -1 where base satisfies it."""
        val, off, work, start, wlen = self.val, self.off, self.work, self.start, self.wlen
        for cid in range(count):
            begin = start[cid]
            segment = work[begin : begin + wlen[cid]]
            if any(val[lit + off] for lit in segment):
                wlen[cid] = -1
                continue
            kept = [lit for lit in segment if not val[off - lit]]
            if len(kept) < len(segment):
                work[begin : begin + len(kept)] = array("i", kept)
                wlen[cid] = len(kept)

    def _build(self, count: int, size: int, *, with_isolated: bool) -> None:
        """Watches and implications of clauses 0..count-1.

        Units: only the first clause of each literal is kept (a later copy is active only
        where the first is, so it is never needed). With `with_isolated`, a unit whose
        variable is in no longer clause implies nothing: it is kept aside in `isolated`
        (literal -> its clause), so that a proof of a million fresh unit lemmas does not make
        every check walk a million units; only a lemma holding its literal, or the opposite
        unit, can meet it, and `rup` looks for both.
        """
        off, work, start, wlen = self.off, self.work, self.start, self.wlen
        self.imp: list[array[int] | None] = [None] * size  # false lit -> (implied, cid)...
        self.watch: list[array[int] | None] = [None] * size
        self.unit_ids: array[int] = array("q")
        self.first_empty = _NONE
        longer = bytearray(self.off + 1)
        if with_isolated:
            for cid in range(count):
                if wlen[cid] >= 2:
                    begin = start[cid]
                    for lit in work[begin : begin + wlen[cid]]:
                        longer[abs(lit)] = 1
        first_unit = self.isolated if with_isolated else array("q", [_NONE]) * size
        imp, watch = self.imp, self.watch
        for cid in range(count):
            length = wlen[cid]
            if length < 0:
                continue
            begin = start[cid]
            if length == 0:
                self.first_empty = min(self.first_empty, cid)
            elif length == 1:
                lit = work[begin]
                if first_unit[lit + off] != _NONE:
                    continue  # a repeat
                first_unit[lit + off] = cid
                if not longer[abs(lit)] and with_isolated:
                    other = first_unit[off - lit]
                    if other != _NONE and max(other, cid) < self.clash[0]:
                        self.clash = (max(other, cid), other, cid)
                    continue
                self.unit_ids.append(cid)
            elif length == 2:
                a, b = work[begin], work[begin + 1]
                _push(imp, off - a, b, cid)  # a false => b
                _push(imp, off - b, a, cid)
            else:
                _push(watch, work[begin] + off, cid)
                _push(watch, work[begin + 1] + off, cid)
        if with_isolated:  # non-isolated units are in unit_ids; `isolated` keeps the others
            for cid in self.unit_ids:
                self.isolated[work[start[cid]] + off] = _NONE

    def _assign(self, lit: int, cid: int, trail: MutableSequence[int]) -> None:
        self.val[lit + self.off] = 1
        self.reason[abs(lit)] = cid
        trail.append(lit)

    def _assign_units(self, trail: MutableSequence[int], limit: int) -> int:
        """Assign every active unit clause at once (the formula's, for the base); a unit
        clause contradicting an earlier one, or -1."""
        val, off, work, start = self.val, self.off, self.work, self.start
        for cid in self.unit_ids:
            if cid >= limit:
                break  # ascending
            lit = work[start[cid]]
            if val[off - lit]:
                return cid
            if not val[lit + off]:
                self._assign(lit, cid, trail)
        return -1

    def _top_level(self, limit: int) -> int:
        """Bring the top level (what unit propagation over the active clauses, ids below
        `limit`, implies) to `limit`; its conflicting clause id, or -1.

        Rebuilding it for every check made each check walk every active unit lemma: a proof
        prepending a million units on variables of its own binary lemmas made checking
        quadratic (0.9 MiB of them: 1.5 -> 33 s). It is built once, clause by clause in id
        order (as a forward checker would): each clause's arrival, if it implies a literal
        under what the earlier ones imply, opens a level propagated over the clauses up to it
        (drat-trim's forward pass likewise). The levels below id t are then exactly what the
        clauses below t imply, so as checks go back (`limit` only falls) the top level is
        those levels: later ones are undone, as a CDCL solver backjumps, never redone.
        """
        top = self._top
        if limit > top.limit:  # the first call (or a caller going forward): build it
            self._undo_levels(self.num_formula)
            top.conflict = -1
            trail, starts, ids = top.trail, top.starts, top.ids
            for cid in range(self.num_formula, limit):
                first = len(trail)
                conflict = self._arrive(cid, trail)
                if conflict < 0 and len(trail) > first:
                    starts.append(first)
                    ids.append(cid)
                    conflict = self._propagate(trail, cid + 1, first)
                if conflict >= 0:
                    top.conflict = cid  # stays while the limit is above the clause met
                    self._conflict_clause = conflict
                    break
        else:
            self._undo_levels(limit)
            if top.conflict >= limit:
                top.conflict = -1
        top.limit = limit
        return -1 if top.conflict < 0 else self._conflict_clause

    def _undo_levels(self, limit: int) -> None:
        """Undo the levels opened by clauses at or past `limit`."""
        top, val, off, reason = self._top, self.val, self.off, self.reason
        trail, starts, ids = top.trail, top.starts, top.ids
        level = len(ids)
        while level and ids[level - 1] >= limit:
            level -= 1
        if level == len(ids):
            return
        for lit in trail[starts[level] :]:
            val[lit + off] = 0
            reason[abs(lit)] = -1
        del trail[starts[level] :], starts[level:], ids[level:]

    def _arrive(self, cid: int, trail: MutableSequence[int]) -> int:
        """Clause `cid` joins the active ones: assign what it implies now, set its watches on
        literals not false (or on its latest false ones: it is then satisfied or unit, and
        stays so while it is active); `cid` if every literal is false, else -1."""
        val, off, work, start, length = self.val, self.off, self.work, self.start, self.wlen[cid]
        begin = start[cid]
        if length < 0 or length == 1 and not self.is_unit[cid]:
            return -1  # satisfied at base; a repeated unit, or one kept aside (`_build`)
        if length <= 2:  # units and binaries need no watches
            open_ = [lit for lit in work[begin : begin + length] if not val[off - lit]]
            if any(val[lit + off] for lit in open_):
                return -1
            if not open_:
                return cid
            if len(open_) == 1:
                self._assign(open_[0], cid, trail)
            return -1
        slots = [k for k in range(begin, begin + length) if not val[off - work[k]]]
        if any(val[work[k] + off] for k in slots):
            slots = [k for k in slots if val[work[k] + off]] + slots  # a true literal first
        slots = list(dict.fromkeys(slots))[:2]
        if not slots:
            return cid
        watched = (work[begin], work[begin + 1])
        chosen = [work[k] for k in slots]  # into the watched places, the rest after them
        rest = [work[k] for k in range(begin, begin + length) if k not in slots]
        work[begin : begin + length] = array("i", chosen + rest)
        for place in range(2):
            lit = work[begin + place]
            if lit not in watched:
                _push(self.watch, lit + off, cid)  # the old entry is dropped when next met
        if len(slots) == 1 and not val[work[begin] + off]:
            self._assign(work[begin], cid, trail)
        return -1

    def _fixed_conflict(self, limit: int) -> int:
        """An active empty clause, or one of two opposite lone units (`_build`), or -1."""
        if self.first_empty < limit:
            return self.first_empty
        if self.clash[0] < limit:
            return self.clash[1]
        return -1

    def _propagate(self, trail: MutableSequence[int], limit: int, head: int) -> int:
        """Propagate the trail from `head` over the active clauses (ids below `limit`); a
        conflicting clause id or -1."""
        val, off, imp, watch = self.val, self.off, self.imp, self.watch
        work, start, wlen = self.work, self.start, self.wlen
        while head < len(trail):
            p = trail[head]
            head += 1
            pairs = imp[p + off]
            if pairs is not None:
                items = iter(pairs)
                for q, cid in zip(items, items, strict=False):
                    if cid >= limit or val[q + off]:
                        continue
                    if val[off - q]:
                        return cid
                    self._assign(q, cid, trail)
            false_lit = -p
            ws = watch[false_lit + off]
            if ws is None:
                continue
            i = j = 0
            end = len(ws)
            while i < end:
                cid = ws[i]
                i += 1
                if cid >= limit:
                    ws[j] = cid
                    j += 1
                    continue
                begin = start[cid]
                first = work[begin]
                if first == false_lit:
                    first = work[begin + 1]
                    work[begin] = first
                    work[begin + 1] = false_lit
                elif work[begin + 1] != false_lit:
                    continue  # a stale entry: `_arrive` moved the clause's watches
                if val[first + off]:
                    ws[j] = cid
                    j += 1
                    continue
                for k in range(begin + 2, begin + wlen[cid]):
                    lit = work[k]
                    if not val[off - lit]:
                        work[begin + 1] = lit
                        work[k] = false_lit
                        _push(watch, lit + off, cid)
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
        val, off, isolated = self.val, self.off, self.isolated
        trail: list[int] = []
        used: set[int] | None = None
        conflict = self._fixed_conflict(limit)
        if conflict < 0:
            conflict = self._top_level(limit)
        if conflict >= 0:
            return self._used(conflict, limit)
        try:
            for lit in lits:
                if isolated[lit + off] < limit:
                    return {isolated[lit + off]}  # an active unit clause (lit) subsumes it
                if val[lit + off]:
                    if lit in self.base:
                        return set()  # the clause is already satisfied at base
                    if self.reason[abs(lit)] >= 0:
                        return self._analyze(self.reason[abs(lit)])  # ... at the top level
                    continue  # an earlier literal's complement repeated
                if not val[off - lit]:
                    self._assign(-lit, -1, trail)
            conflict = self._propagate(trail, limit, 0)
            if conflict >= 0:
                used = self._used(conflict, limit)
            return used
        finally:
            for lit in trail:
                val[lit + off] = 0
                self.reason[abs(lit)] = -1

    def _used(self, conflict: int, limit: int) -> set[int]:
        """The clauses a conflict rests on (two opposite lone units, or `_analyze`)."""
        if conflict == self.clash[1] and self.clash[0] < limit:
            return {self.clash[1], self.clash[2]}
        return self._analyze(conflict)

    def _analyze(self, conflict: int) -> set[int]:
        """Every clause on the implication graph behind the conflict."""
        used = {conflict}
        stack = [conflict]
        seen: set[int] = set()
        work, start, wlen, reason = self.work, self.start, self.wlen, self.reason
        while stack:
            cid = stack.pop()
            begin = start[cid]
            for k in range(begin, begin + wlen[cid]):
                var = abs(work[k])
                if var in seen:
                    continue
                seen.add(var)
                reason_id = reason[var]
                if reason_id >= 0 and reason_id not in used:
                    used.add(reason_id)
                    stack.append(reason_id)
        return used

    def original(self, cid: int) -> array[int]:
        """Clause `cid` as written (renamed only past `_compact`'s bound): its RAT pivot first."""
        return self.orig[self.start[cid] : self.start[cid + 1]]

    def simplified(self, cid: int) -> array[int] | None:
        """Clause `cid` without its base-false literals; None when base satisfies it."""
        length = self.wlen[cid]
        begin = self.start[cid]
        return None if length < 0 else self.work[begin : begin + length]

    def _occurring(self, lit: int) -> array[int]:
        """The ids of the clauses holding `lit`, ascending. The index (two flat arrays, by a
        counting sort) is built on first use: a proof of RUP lemmas needs none."""
        off = self.off
        if self.occ_start is None:
            orig, start = self.orig, self.start
            counts = array("q", [0]) * (2 * off + 2)
            for x in orig:
                counts[x + off + 1] += 1
            for i in range(1, len(counts)):
                counts[i] += counts[i - 1]
            fill = array("q", counts)
            occ = array("q", [0]) * len(orig)
            for cid in range(len(start) - 1):
                for x in orig[start[cid] : start[cid + 1]]:
                    occ[fill[x + off]] = cid
                    fill[x + off] += 1
            self.occ_start, self.occ = counts, occ
        return self.occ[self.occ_start[lit + off] : self.occ_start[lit + off + 1]]

    def trivially_rat(self, lemma: Sequence[int], limit: int) -> bool:
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
            if not any(lit in negated for lit in self.original(cid) if lit != -pivot):
                return False
        return True

    def rat(
        self, lemma: Sequence[int], limit: int, deadline: float | None = None
    ) -> set[int] | None:
        """RAT on the first literal: every resolvent with an active clause is RUP. The
        deadline is checked per resolvent: a proof may give one pivot a million partners,
        each a unit propagation of its own."""
        pivot = lemma[0]
        used: set[int] = set()
        for cid in self._occurring(-pivot):
            if cid >= limit:
                break  # ascending: the rest are not active yet
            check(deadline)
            resolvent = [*lemma, *(lit for lit in self.original(cid) if lit != -pivot)]
            if any(-lit in resolvent for lit in resolvent):
                continue  # a tautology needs no check
            found = self.rup(resolvent, limit)
            if found is None:
                return None
            used |= found | {cid}
        return used


def _append(orig: array[int], start: array[int], clause: Sequence[int]) -> None:
    """Add a clause to the flat store, a repeated literal kept once (first place: the pivot)."""
    orig.extend(clause if _distinct(clause) else dict.fromkeys(clause))
    start.append(len(orig))


def _push(lists: list[array[int] | None], at: int, *values: int) -> None:
    """Append `values` to the array at `at`, made on first use (most literals need none)."""
    found = lists[at]
    if found is None:
        lists[at] = array("q", values)
    else:
        found.extend(values)


def _compact(literals: array[int], kept: int) -> int:
    """Renumber, in place, the variables past `kept` (the formula's) as kept+1, kept+2, ... in
    ascending order, when some variable lies past the count of literals; the largest variable
    after that.

    The checker's arrays are indexed by variable, so this bounds them by the variables the
    files hold, whatever numbers a proof's new (RAT, extension) variables carry: renaming
    variables one-to-one changes no RUP or RAT verdict. Done in numpy: a proof of millions of
    units on fresh variables cost ~100 bytes a variable more in a dict, and kept arrays twice
    the size (renamed past the literal count rather than the formula's variables).
    """
    top = max(max(literals, default=0), -min(literals, default=0))
    if top <= max(kept, len(literals)):
        return top  # already bounded by what the files hold: nothing to gain
    import numpy as np  # here: only hostile proofs get this far (its import costs ~0.2 s)

    lits = np.frombuffer(literals, dtype=np.int32)  # the same memory: written in place
    magnitudes = np.abs(lits)
    past = magnitudes > kept
    del magnitudes
    moved = lits[past]
    distinct, index = np.unique(np.abs(moved), return_inverse=True)
    renamed = (kept + 1 + index.reshape(-1)).astype(np.int32)
    lits[past] = np.where(moved > 0, renamed, -renamed)
    return kept + len(distinct)


def _distinct(clause: Sequence[int]) -> bool:
    """Whether no literal repeats in `clause` (one short set for the longer clauses)."""
    if len(clause) <= 2:
        return len(clause) < 2 or clause[0] != clause[1]
    return len(set(clause)) == len(clause)


def check_drat(
    formula: Sequence[Sequence[int]],
    steps: Sequence[tuple[bool, Sequence[int]]],
    deadline: float | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> DratVerdict:
    """Check that `steps` (from `parse_drat`, or any (is_deletion, clause) sequence) refute
    `formula`.

    Lemma counts and numbers cover every lemma line of the proof, the empty clause included,
    as the certificate's manifest counts them. With `deadline` (a perf_counter time) the
    check raises OutOfTime once it passes: a proof of 33,000 lemmas takes minutes here, and
    `prove --timeout` bounds the check too. `progress(k, end, checked)` hears, every 1,024
    lemmas checked, that lemma k of the `end` before the empty clause is next, going back.
    """
    proof = steps if isinstance(steps, DratProof) else DratProof.of(steps)
    total, deletions = proof.lemma_count, proof.deletions
    check(deadline)
    checker = _Checker(formula, proof.lemmas())
    check(deadline)
    end = checker.num_lemmas  # lemmas before the first empty clause
    if checker.base_conflict:
        message = "the formula is refuted by unit propagation alone"
        return DratVerdict(True, message, total, 0, deletions)
    first = checker.num_formula
    used = checker.rup([], first + end)
    if used is None:
        message = "the proof derives no conflict (no empty clause by unit propagation)"
        return DratVerdict(False, message, total, 0, deletions)
    marked = bytearray(first + end)
    for cid in used:
        marked[cid] = 1
    needed = array("q", [end + 1] if end < total else [])  # the empty clause, checked just now
    for k in range(end - 1, -1, -1):
        cid = first + k
        if not marked[cid]:
            continue
        check(deadline)  # ~0.1 µs against milliseconds a lemma
        if progress is not None and not len(needed) % 1024:
            progress(k + 1, end, len(needed))
        simplified = checker.simplified(cid)
        if simplified is None:
            continue  # satisfied by the formula's unit consequences
        needed.append(k + 1)
        lemma = checker.original(cid)  # renumbered
        if checker.trivially_rat(lemma, cid):
            continue  # RAT with nothing to check (resolvents are tautologies)
        found = checker.rup(simplified, cid)
        if found is None:
            found = checker.rat(lemma, cid, deadline)
        if found is None:
            written = proof.lemma(k)  # the proof's own numbers
            shown = " ".join(map(str, written[:12])) + (" ..." if len(written) > 12 else "")
            message = f"lemma {k + 1} ({shown} 0) is neither RUP nor RAT"
            return DratVerdict(False, message, total, len(needed), deletions)
        for cid in found:
            marked[cid] = 1
    return DratVerdict(
        True,
        f"valid refutation: {len(needed)} of {total} lemmas needed and checked",
        total,
        len(needed),
        deletions,
        tuple(reversed(needed)),
    )
