"""The certificate's formula for a bitmask proof, its rule clauses encoded once per rule set.

A batch of puzzles with the same rules (a file of classic puzzles, a variant's set) shares one
search kernel; encoding the rules again for every proof was the largest fixed cost of a proof
after a short search (159: 0.011 of 0.023 s). The rules' clauses are kept here, per shape, rules
and encoding, as the kernel is; each proof copies them and adds its givens' unit clauses last,
exactly as `encode_puzzle` would, so the formula (and every certificate) is the same clause for
clause. The clause lists themselves are shared between the copies: nothing edits a clause in
place (proofs append whole clauses, such as the blocking clause, to their own copy).
"""

from __future__ import annotations

import threading
from dataclasses import replace

from satsudoku.deadline import BuildCache
from satsudoku.encoders.cnf import (
    AtMostOne,
    CnfFormula,
    Encoding,
    encode_puzzle,
    encode_rules,
    lowered,
)
from satsudoku.puzzle import Puzzle

# Rule sets kept: a batch needs one. Larger formulas are not kept (a 16x16's rules are 124,000
# clauses, a 25x25's about 750,000: copying those would cost memory for little).
_KEPT = 4
_MAX_KEPT_CLAUSES = 200_000
_RULES: BuildCache[CnfFormula | None] = BuildCache(_KEPT)
_LOCK = threading.Lock()  # callers may prove from several threads


def puzzle_formula(
    puzzle: Puzzle, encoding: Encoding, amo: AtMostOne, deadline: float | None = None
) -> CnfFormula:
    """`encode_puzzle(puzzle, encoding, amo)`, its rule clauses built once per rule set.

    Not for the reduced encoding, whose clauses depend on the givens. OutOfTime once
    `deadline` passes (a 36x36's 3.3 million clauses take 3 s to encode)."""
    if encoding is Encoding.REDUCED:
        return encode_puzzle(puzzle, encoding, amo, deadline)
    try:
        key = (puzzle.shape, tuple(puzzle.rules), encoding, amo)
        hash(key)
    except TypeError:  # a user rule that is not hashable
        return encode_puzzle(puzzle, encoding, amo, deadline)

    built: list[CnfFormula] = []

    def build() -> CnfFormula | None:
        built.append(_encoded_rules(puzzle, encoding, amo, deadline))
        return built[0] if len(built[0].clauses) <= _MAX_KEPT_CLAUSES else None

    with _LOCK:
        rules = _RULES.get(key, build)
    n = puzzle.size
    givens = [[index * n + digit] for index, digit in enumerate(puzzle.givens.values) if digit]
    if rules is None:  # too large to keep: this call's own encoding, or a new one
        formula = built[0] if built else _encoded_rules(puzzle, encoding, amo, deadline)
        formula.clauses.extend(givens)
        return formula
    return replace(rules, clauses=[*rules.clauses, *givens], atmost=list(rules.atmost))


def _encoded_rules(
    puzzle: Puzzle, encoding: Encoding, amo: AtMostOne, deadline: float | None
) -> CnfFormula:
    return encode_rules(puzzle.shape, lowered(puzzle, deadline), encoding, amo, deadline=deadline)
