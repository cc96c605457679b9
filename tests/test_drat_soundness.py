"""The DRAT checker never accepts a refutation of a satisfiable formula.

Certificates come from strangers, so the checker's one unforgivable answer is "valid" for a
formula that has a model. Random small formulas (decided by trying every assignment) meet random
proofs mixing arbitrary clauses, extension definitions (fresh or reused variables), deletions and
an empty clause; every accepted refutation must be of an unsatisfiable formula.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import pytest

from satsudoku.proof.drat import check_drat

Clause = list[int]
Case = tuple[int, list[Clause], list[tuple[bool, Clause]]]  # variables, formula, proof


def satisfiable(variables: int, clauses: list[Clause]) -> bool:
    """Brute force over every assignment: shares nothing with the checker."""
    for bits in itertools.product((False, True), repeat=variables):
        if all(any((lit > 0) == bits[abs(lit) - 1] for lit in c) for c in clauses):
            return True
    return False


def random_clause(rng: random.Random, variables: int, width: int) -> Clause:
    chosen = rng.sample(range(1, variables + 1), min(width, variables))
    return [v if rng.random() < 0.5 else -v for v in chosen]


def random_case(seed: int) -> Case:
    rng = random.Random(seed)
    variables = rng.randint(2, 8)
    formula = [random_clause(rng, variables, rng.randint(1, 3)) for _ in range(2 * variables)]
    top, steps = variables, []
    for _ in range(rng.randint(0, 16)):
        roll = rng.random()
        if roll < 0.15 and steps:
            added = [c for deleted, c in steps if not deleted]
            steps.append((True, list(rng.choice(formula + added))))
        elif roll < 0.4:  # x <-> a & b, x fresh most of the time, else a variable in use
            a, b = random_clause(rng, top, 2)
            x = top + 1 if rng.random() < 0.7 else rng.randint(1, top)
            top = max(top, x)
            steps += [(False, [-x, a]), (False, [-x, b]), (False, [x, -a, -b])]
        else:
            steps.append((False, random_clause(rng, top, rng.randint(1, 3))))
    steps.append((False, []))
    return variables, formula, steps


def sound_over(cases: Callable[[int], Case], seeds: range) -> tuple[int, int]:
    """Check every case: no accepted refutation of a formula with a model. (Accepted
    refutations, formulas with a model), so a caller can show the sample is not trivial."""
    accepted = with_model = 0
    for seed in seeds:
        variables, formula, steps = cases(seed)
        verdict = check_drat(formula, steps)
        has_model = satisfiable(variables, formula)
        assert not (verdict.ok and has_model), (seed, formula, steps)
        accepted += verdict.ok
        with_model += has_model
    return accepted, with_model


def test_no_refutation_of_a_satisfiable_formula_is_accepted() -> None:
    accepted, with_model = sound_over(random_case, range(600))
    # Not a trivial sample: seeds 0-599 give 333 accepted refutations, 266 satisfiable formulas.
    assert accepted > 150 and with_model > 150


def with_units(seed: int) -> Case:
    """`random_case` with unit lemmas mixed in: repeated ones, ones on variables no other clause
    holds (the checker keeps those aside) and clauses repeating a literal."""
    variables, formula, steps = random_case(seed)
    rng = random.Random(-seed)
    lone = [variables + 50 + k for k in range(3)]  # never in a longer clause
    for _ in range(rng.randint(1, 8)):
        where = rng.randint(0, len(steps) - 1)  # before the closing empty clause
        roll = rng.random()
        if roll < 0.4:
            var = rng.choice(lone)
            unit = [[var if rng.random() < 0.5 else -var]] * rng.randint(1, 3)
        elif roll < 0.7:
            var = rng.randint(1, variables)
            unit = [[var if rng.random() < 0.5 else -var]] * rng.randint(1, 3)
        else:
            clause = random_clause(rng, variables, rng.randint(1, 3))
            unit = [[clause[0], *clause]]
        steps[where:where] = [(False, list(c)) for c in unit]
    return variables, formula, steps


def test_unit_lemmas_repeated_or_on_lone_variables_refute_no_satisfiable_formula() -> None:
    accepted, with_model = sound_over(with_units, range(400))
    assert accepted > 100 and with_model > 100, (accepted, with_model)


def test_a_variable_redefined_after_its_deletion_is_not_fresh() -> None:
    """x := a, its definition deleted, then x := not a: a strict DRAT checker accepts the second
    definition (x is fresh again). This checker keeps deleted clauses as partners, so it must
    refuse it; either way no refutation of the satisfiable (a or b) may follow."""
    formula = [[1, 2]]
    steps = [
        (False, [-3, 1]),
        (False, [3, -1]),
        (True, [-3, 1]),
        (True, [3, -1]),
        (False, [-3, -1]),
        (False, [3, 1]),
        (False, [1]),
        (False, [-1]),
        (False, []),
    ]
    verdict = check_drat(formula, steps)
    assert not verdict.ok
    assert "neither RUP nor RAT" in verdict.message


def test_a_refutation_that_ignoring_unit_deletions_would_accept_is_refused() -> None:
    """Found by fuzzing against dratify: it accepts this 7-step 'refutation' of the satisfiable
    (not x4 or x5). After 6 turns false, the deleted (not 7 or 6) is a unit clause; a checker
    that ignores unit deletions (drat-trim's operational DRAT, followed by dratify) finds
    (7 or 3) RAT through it and the empty clause RUP with it. A checker that applies every
    deletion finds (7 or 3) RAT (no partner left) but no conflict for the empty clause;
    satsudoku's keeps the deleted clause as a partner, and the resolvent (3 or 6) is not RUP."""
    steps = [
        (False, [-2, -2]),
        (False, [-6, 2]),
        (False, [-7, 6]),
        (True, [-7, 6]),
        (False, [-3, 6]),
        (False, [7, 3]),
        (False, []),
    ]
    assert satisfiable(7, [[-4, 5]])
    assert not check_drat([[-4, 5]], steps).ok


def naive_closure(clauses: list[Clause], assumed: Sequence[int] = ()) -> set[int] | None:
    """The literals unit propagation over `clauses` implies from `assumed`, or None at a
    conflict (scanning the clauses to a fixed point: shares nothing with the checker)."""
    true = set(assumed)
    if any(-lit in true for lit in true):
        return None
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(lit in true for lit in clause):
                continue
            open_ = [lit for lit in clause if -lit not in true]
            if not open_:
                return None
            if len(open_) == 1:
                true.add(open_[0])
                changed = True
    return true


def naive_rup(clauses: list[Clause], lits: Clause) -> bool:
    """Whether unit propagation over `clauses` refutes not-lits."""
    return naive_closure(clauses, [-lit for lit in lits]) is None


def naive_accepts(formula: list[Clause], steps: list[tuple[bool, Clause]]) -> bool:
    """A forward checker written for this test only: every lemma, in order, RUP over all
    clauses before it or RAT on its first literal, up to the first empty clause; deletions
    ignored, as satsudoku's checker ignores them."""
    clauses = [list(c) for c in formula]
    for deleted, lemma in steps:
        if deleted:
            continue
        ok = (
            naive_rup(clauses, lemma)
            or bool(lemma)
            and all(
                naive_rup(clauses, [*lemma, *(lit for lit in clause if lit != -lemma[0])])
                for clause in clauses
                if -lemma[0] in clause
            )
        )
        if not ok:
            return False
        if not lemma:
            return True
        clauses.append(list(lemma))
    return False


def with_unit_chains(seed: int) -> Case:
    """Unit lemmas and binary implications between them, spread through a random proof: the
    checker keeps what active units imply between checks and must undo it when a lemma it
    used is passed (checks run newest first)."""
    variables, formula, steps = random_case(seed)
    rng = random.Random(seed ^ 0x5EED)
    top = max([variables, *(abs(lit) for _, c in steps for lit in c)])
    for _ in range(rng.randint(2, 10)):
        where = rng.randint(0, len(steps) - 1)
        roll = rng.random()
        a = rng.choice([-1, 1]) * rng.randint(1, top)
        b = rng.choice([-1, 1]) * rng.randint(1, top + 2)
        lemma = [a] if roll < 0.45 else [b, -a] if roll < 0.9 else [b, -a, a]
        steps.insert(where, (False, lemma))
    return variables, formula, steps


@pytest.mark.parametrize("make", [random_case, with_units, with_unit_chains])
def test_what_a_naive_forward_checker_accepts_is_accepted_and_nothing_unsound(
    make: Callable[[int], Case],
) -> None:
    # Completeness where it is decidable by hand: a proof every lemma of which is RUP or RAT
    # over all clauses before it is valid, whatever the checker keeps between checks.
    both = 0
    for seed in range(300):
        variables, formula, steps = make(seed)
        verdict = check_drat(formula, steps)
        if naive_accepts(formula, steps):
            assert verdict.ok, (seed, formula, steps, verdict.message)
            both += 1
        if verdict.ok:
            assert not satisfiable(variables, formula), (seed, formula, steps)
    assert both > 60, both  # not a trivial sample


def test_unit_propagation_at_falling_limits_matches_a_naive_one() -> None:
    """The checker keeps what the active unit clauses imply between checks, undoing and
    redoing it as the limit falls past clauses it used; at every limit its RUP answer must be
    the naive one over the clauses below the limit (neither more: unsound, nor less)."""
    from satsudoku.proof.drat import _Checker

    compared = refuted = 0
    for seed in range(150):
        rng = random.Random(seed)
        variables = rng.randint(3, 8)
        formula = [random_clause(rng, variables, rng.randint(2, 3)) for _ in range(variables)]
        kept = max(abs(lit) for clause in formula for lit in clause)  # none renamed
        lemmas: list[Clause] = []
        for _ in range(rng.randint(5, 40)):
            width = rng.choice([1, 1, 1, 2, 2, 3])
            lemmas.append(random_clause(rng, kept, width))
        clauses = formula + lemmas
        checker = _Checker(formula, lemmas)
        limit = len(clauses)
        while limit >= len(formula):
            closure = naive_closure(clauses[:limit])
            conflict = checker._fixed_conflict(limit)
            if conflict < 0:
                conflict = checker._top_level(limit)
            if closure is None:
                assert conflict >= 0, (seed, limit)
            else:  # what it keeps between checks is exactly what the clauses imply
                assert conflict < 0, (seed, limit)
                assert checker.base | set(checker._top.trail) == closure, (seed, limit)
            for _ in range(3):
                query = random_clause(rng, kept, rng.randint(0, 3))
                ours = checker.rup(query, limit) is not None
                assert ours == naive_rup(clauses[:limit], query), (seed, limit, query)
                compared += 1
                refuted += ours
            limit -= rng.randint(1, 3)
            if rng.random() < 0.1:  # a caller going forward again: built anew, watches moved
                limit = rng.randint(limit, len(clauses))
    assert compared > 2000 and 0.2 * compared < refuted < 0.9 * compared, (compared, refuted)
