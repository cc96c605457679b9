"""Research tools checked against an independent brute force (every grid of a small board
enumerated and each rule's meaning read off the grid), and the wrong answers the hunt found."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from satsudoku.cli import main
from satsudoku.io import iter_puzzles
from satsudoku.io.document import puzzle_from_document
from satsudoku.io.text import ReadOptions
from satsudoku.logic.rating import rate
from satsudoku.logic.solver import for_puzzle, solve_logically, techniques
from satsudoku.logic.state import Board
from satsudoku.logic.step import Step
from satsudoku.proof.core import minimal_conflict
from satsudoku.puzzle import Puzzle
from satsudoku.tools.candidates import true_candidates
from satsudoku.tools.counting import count_solutions
from satsudoku.tools.minimal import find_redundant


def document(givens: str, rules: list[dict[str, object]], **extra: object) -> Puzzle:
    doc = {"size": 4, "givens": givens, "rules": rules, **extra}
    return puzzle_from_document(doc, ReadOptions())


# A full 4x4 grid whose white dot joins 3 (r1c3) and 1 (r2c3): no solution, yet every cell is
# placed, so `logic` said "solved by logic in 0 steps" and `rate` "logic solved".
BROKEN_DOT = ("1234341221434321", [{"type": "kropki", "white": [["r1c3", "r2c3"]]}])
# The hunt's case (seed 1020): singles fill the board after one arrow step, breaking the white
# dot r1c3-r1c4 (2 and 4); `logic` said "solved by logic in 16 steps".
FILLED_BY_SINGLES = (
    "3...............",
    [
        {"type": "diagonal"},
        {
            "type": "arrow",
            "arrows": [
                {"bulb": ["r3c1"], "shaft": ["r4c1", "r4c2"]},
                {"bulb": ["r3c4"], "shaft": ["r2c3"]},
            ],
        },
        {
            "type": "kropki",
            "white": [
                ["r1c3", "r1c4"], ["r2c1", "r2c2"], ["r2c1", "r3c1"], ["r2c2", "r2c3"],
                ["r2c2", "r3c2"], ["r3c1", "r3c2"], ["r4c2", "r4c3"], ["r4c3", "r4c4"],
            ],
            "black": [
                ["r1c1", "r2c1"], ["r1c3", "r2c3"], ["r3c2", "r4c2"], ["r3c4", "r4c4"],
                ["r1c1", "r1c2"], ["r2c3", "r2c4"], ["r2c3", "r3c3"], ["r2c4", "r3c4"],
                ["r3c3", "r3c4"], ["r4c1", "r4c2"],
            ],
            "negative": ["white"],
        },
    ],
)  # fmt: skip


@pytest.mark.parametrize(("givens", "rules"), [BROKEN_DOT, FILLED_BY_SINGLES])
def test_a_filled_board_that_breaks_a_rule_is_no_solution(
    givens: str, rules: list[dict[str, object]]
) -> None:
    result = solve_logically(Board.from_puzzle(document(givens, rules)))
    assert result.status == "contradiction"
    assert result.reason is not None and "kropki at r1c3" in result.reason


def test_logic_and_rate_say_no_solution_for_a_broken_full_grid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"size": 4, "givens": BROKEN_DOT[0], "rules": BROKEN_DOT[1]}))
    assert main(["logic", str(path)]) == 0
    assert "no solution: after 0 steps, kropki at r1c3… does not hold" in capsys.readouterr().out
    assert main(["rate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["logic"] == "contradiction"


# Three solutions (the brute force's count): with --uniqueness a unique rectangle "solved" it
# to one of them. Uniqueness techniques now run only once a search finds the puzzle unique.
THREE_SOLUTIONS = "1....431...33..."
UR_PUZZLE = ".....54.........91.5894.3..7..594.....1.7.6.....613..7..5.3672.63.........94....."


def test_uniqueness_steps_are_left_out_when_the_puzzle_has_several_solutions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(THREE_SOLUTIONS + "\n")
    assert main(["count", str(path)]) == 0
    assert capsys.readouterr().out == "3\n"
    assert main(["logic", str(path), "--uniqueness", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["logic"] == "stuck" and record["search"] == "multiple"
    assert not any("rectangle" in step["technique"] for step in record["steps"])
    puzzle = puzzle_from_document({"size": 4, "givens": THREE_SOLUTIONS}, ReadOptions())
    assert rate(puzzle, techniques(uniqueness=True), machine=False).status == "stuck"


def test_uniqueness_steps_still_run_on_a_unique_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tests/test_logic_sound.py's unique rectangle puzzle (one solution): the step is taken."""
    path = tmp_path / "ur.txt"
    path.write_text(UR_PUZZLE + "\n")
    assert main(["logic", str(path), "--uniqueness", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["logic"] == "solved"
    assert "unique rectangle type 1" in [step["technique"] for step in record["steps"]]
    (puzzle,) = iter_puzzles(path)
    assert for_puzzle(puzzle, techniques(uniqueness=True)) == techniques(uniqueness=True)


def test_candidates_on_a_solver_without_phases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CaDiCaL 1.0.3 takes no phases: `candidates --solver cadical103` ended in a traceback
    (NotImplementedError from set_phases); the phases are only a hint, so it now saturates."""
    path = tmp_path / "p.txt"
    path.write_text(THREE_SOLUTIONS + "\n")
    assert main(["candidates", str(path), "--solver", "cadical103", "--cap", "5", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "multiple" and record["solutions_seen"] == 3
    # The three solutions (brute force) agree on r1c1 (1 in each); r4c4 holds 2 once, 4 twice.
    assert record["candidates"][0] == {"1": 3} and record["candidates"][15] == {"2": 1, "4": 2}


# --- The brute force: all 288 grids of a 4x4, each rule's meaning read off a whole grid. ---

Grid4 = tuple[int, ...]  # row-major, 16 digits
Spec = dict[str, Any]


def _all_grids() -> tuple[Grid4, ...]:
    """Row by row, each row a permutation keeping the columns and boxes so far distinct (in
    the order of itertools.product over four rows; pruned early: collection paid ~1 s for the
    331,776 products in every worker)."""
    rows = list(itertools.permutations(range(1, 5)))

    def fits(g: Grid4, row: Grid4) -> bool:
        r = len(g) // 4
        if any(row[k] in g[k::4] for k in range(4)):
            return False
        above = g[(r - 1) * 4 : r * 4] if r % 2 else ()  # the box row shared with this one
        return not any(set(row[bc : bc + 2]) & set(above[bc : bc + 2]) for bc in (0, 2))

    grids: list[Grid4] = [()]
    for _ in range(4):
        grids = [g + row for g in grids for row in rows if fits(g, row)]
    return tuple(grids)


GRIDS = _all_grids()
ORTHOGONAL = [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)] + [
    (r * 4 + c, (r + 1) * 4 + c) for r in range(3) for c in range(4)
]
KNIGHT = [
    (r * 4 + c, (r + a) * 4 + c + b)
    for r in range(4)
    for c in range(4)
    for a, b in ((1, 2), (1, -2), (2, 1), (2, -1))
    if 0 <= r + a < 4 and 0 <= c + b < 4
]


@cache  # the oracles look cells up by name for every grid
def _at(cell: str) -> int:
    r, c = cell[1:].split("c")
    return (int(r) - 1) * 4 + int(c) - 1


def _holds(spec: Spec, g: Grid4) -> bool:
    """Does grid `g` obey `spec`? Written from docs/rules.md, sharing nothing with satsudoku."""
    kind = spec["type"]
    if kind == "diagonal":
        return len({g[i * 5] for i in range(4)}) == 4 and len({g[3 + i * 3] for i in range(4)}) == 4
    if kind == "antiknight":
        return all(g[a] != g[b] for a, b in KNIGHT)
    if kind in ("odd", "even"):
        return all(g[_at(c)] % 2 == (kind == "odd") for c in spec["cells"])
    if kind == "thermometer":
        return all(
            all(g[_at(a)] < g[_at(b)] for a, b in itertools.pairwise(line))
            for line in spec["lines"]
        )
    if kind == "arrow":
        return all(
            g[_at(a["bulb"][0])] == sum(g[_at(c)] for c in a["shaft"]) for a in spec["arrows"]
        )
    if kind == "killer":
        return all(
            len({g[_at(c)] for c in cage["cells"]}) == len(cage["cells"])
            and ("sum" not in cage or sum(g[_at(c)] for c in cage["cells"]) == cage["sum"])
            for cage in spec["cages"]
        )
    pairs = {
        name: [tuple(sorted(map(_at, dot))) for dot in spec.get(name, [])]
        for name in ("white", "black", "x", "v")
    }
    white = {frozenset((a, b)) for a, b in pairs["white"]}
    black = {frozenset((a, b)) for a, b in pairs["black"]}
    if kind == "kropki":
        if any(abs(g[a] - g[b]) != 1 for a, b in pairs["white"]):
            return False
        if any(g[a] != 2 * g[b] and g[b] != 2 * g[a] for a, b in pairs["black"]):
            return False
        free = [p for p in ORTHOGONAL if frozenset(p) not in white | black]
        return not spec.get("negative") or all(
            abs(g[a] - g[b]) != 1 and g[a] != 2 * g[b] and g[b] != 2 * g[a] for a, b in free
        )
    if kind == "xv":
        if any(g[a] + g[b] != 10 for a, b in pairs["x"]) or any(
            g[a] + g[b] != 5 for a, b in pairs["v"]
        ):
            return False
        marked = {frozenset(p) for p in pairs["x"] + pairs["v"]}
        free = [p for p in ORTHOGONAL if frozenset(p) not in marked]
        return not spec.get("negative") or all(g[a] + g[b] not in (5, 10) for a, b in free)
    raise ValueError(kind)


@dataclass
class Drawn:
    givens: dict[int, int]
    specs: list[Spec]

    def solutions(self, givens: dict[int, int] | None = None) -> list[Grid4]:
        keep = self.givens if givens is None else givens
        return [
            g
            for g in GRIDS
            if all(g[i] == d for i, d in keep.items()) and all(_holds(s, g) for s in self.specs)
        ]

    def puzzle(self) -> Puzzle:
        text = "".join(str(self.givens.get(i, ".")) for i in range(16))
        return document(text, self.specs)


def _name(i: int) -> str:
    return f"r{i // 4 + 1}c{i % 4 + 1}"


def _clue(kind: str, g: Grid4, rng: random.Random) -> Spec:
    """A `kind` rule true of `g`, sometimes with one clue off by one (unsatisfiable cases)."""
    off = rng.choice([0, 0, 0, 0, 1, -1])
    if kind == "killer":
        a, b = rng.choice([p for p in ORTHOGONAL])
        return {
            "type": "killer",
            "cages": [{"cells": [_name(a), _name(b)], "sum": g[a] + g[b] + off}],
        }
    if kind == "arrow":
        ok = [(a, b) for a, b in ORTHOGONAL if g[a] > g[b]] or [(0, 1)]
        a, b = rng.choice(ok)
        return {"type": "arrow", "arrows": [{"bulb": [_name(a)], "shaft": [_name(b)]}]}
    if kind == "thermometer":
        a, b = rng.choice(ORTHOGONAL)
        a, b = (a, b) if g[a] < g[b] else (b, a)
        return {"type": "thermometer", "lines": [[_name(a), _name(b)]]}
    if kind in ("odd", "even"):
        cells = [i for i in range(16) if g[i] % 2 == (kind == "odd")]
        return {"type": kind, "cells": [_name(i) for i in rng.sample(cells, 2)]}
    if kind == "kropki":
        white = [[_name(a), _name(b)] for a, b in ORTHOGONAL if abs(g[a] - g[b]) == 1]
        black = [
            [_name(a), _name(b)]
            for a, b in ORTHOGONAL
            if abs(g[a] - g[b]) != 1 and (g[a] == 2 * g[b] or g[b] == 2 * g[a])
        ]
        if rng.random() < 0.5:
            return {"type": "kropki", "white": white, "black": black, "negative": True}
        return {"type": "kropki", "white": rng.sample(white, min(2, len(white)))}
    dots = [[_name(a), _name(b)] for a, b in ORTHOGONAL if g[a] + g[b] == 5]
    return {"type": "xv", "v": dots, "negative": True}


KINDS = ("killer", "arrow", "thermometer", "odd", "even", "kropki", "xv")


def draw(seed: int) -> Drawn:
    """A random 4x4: maybe a fixed rule, one or two clue rules read off a grid, random givens
    (one of them sometimes wrong)."""
    rng = random.Random(seed)
    fixed = [{"type": t} for t in rng.sample(["diagonal", "antiknight"], rng.randint(0, 1))]
    fitting = [g for g in GRIDS if all(_holds(s, g) for s in fixed)]
    g = rng.choice(fitting)
    specs = fixed + [_clue(k, g, rng) for k in rng.sample(KINDS, rng.randint(1, 2))]
    givens = {i: g[i] for i in rng.sample(range(16), rng.randint(0, 7))}
    if givens and rng.random() < 0.2:
        givens[rng.choice(list(givens))] = rng.randint(1, 4)
    return Drawn(givens, specs)


def wrong_steps(steps: list[Step], solutions: list[Grid4]) -> list[str]:
    """The steps' claims some solution contradicts (an elimination of a digit a solution puts
    there, a placement a solution does not make)."""
    wrong = []
    for step in steps:
        for cell, digit in step.eliminations:
            if any(s[cell] == digit for s in solutions):
                wrong.append(f"{step.text}: {_name(cell)} can be {digit}")
        for cell, digit in step.placements:
            if any(s[cell] != digit for s in solutions):
                wrong.append(f"{step.text}: {_name(cell)} need not be {digit}")
    return wrong


def core_problems(drawn: Drawn, core: list[tuple[tuple[int, int], int]]) -> list[str]:
    """Why `core` is not a minimal clash of `drawn`'s givens (empty when it is one)."""
    given = {r * 4 + c: d for (r, c), d in core}
    problems = [f"{_name(i)}={d} is no given" for i, d in given.items() if drawn.givens.get(i) != d]
    if drawn.solutions(given):
        problems.append("the core has a solution")
    for i in given:
        if not drawn.solutions({j: d for j, d in given.items() if j != i}):
            problems.append(f"the core without {_name(i)} still clashes")
    return problems


SEEDS = range(80)
DRAWN = {seed: draw(seed) for seed in SEEDS}
SOLUTIONS = {seed: DRAWN[seed].solutions() for seed in SEEDS}


def test_the_sample_has_every_verdict() -> None:
    counts = Counter(min(len(s), 2) for s in SOLUTIONS.values())
    assert counts[0] >= 10 and counts[1] >= 10 and counts[2] >= 10, counts
    assert len(GRIDS) == 288


def test_logic_steps_and_verdicts_agree_with_every_solution() -> None:
    """Every step holds in every solution; 'solved' only with one solution (the board is it),
    'contradiction' only with none: unique, multiple and unsatisfiable puzzles alike."""
    for seed in SEEDS:
        puzzle, solutions = DRAWN[seed].puzzle(), SOLUTIONS[seed]
        result = solve_logically(Board.from_puzzle(puzzle))
        where = f"seed {seed}: {DRAWN[seed]}"
        if result.status == "solved":
            assert solutions == [tuple(result.board.values)], where
        if result.status == "contradiction":
            assert solutions == [], where
        assert wrong_steps(result.steps, solutions) == [] or not solutions, where


@pytest.mark.parametrize("backend", ["sat", "bitmask"])
def test_candidates_and_counts_match_the_brute_force(backend: str) -> None:
    """Per cell and digit, the solutions using it (cap 2); the count with and without digit
    symmetry (diagonal and anti-knight puzzles declare it)."""
    for seed in SEEDS:
        puzzle, solutions = DRAWN[seed].puzzle(), SOLUTIONS[seed]
        found = true_candidates(puzzle, backend, cap=2)
        for cell in range(16):
            want = Counter(s[cell] for s in solutions)
            assert found.counts[cell] == {d: min(k, 2) for d, k in want.items()}, f"seed {seed}"
        for symmetry in (True, False):
            counted = count_solutions(puzzle, symmetry=symmetry)
            assert (counted.count, counted.complete) == (len(solutions), True), f"seed {seed}"


def test_explain_names_a_minimal_clash_of_givens() -> None:
    tried = 0
    for seed in SEEDS:
        drawn = DRAWN[seed]
        if SOLUTIONS[seed] or not drawn.solutions({}):
            continue  # explain speaks of givens: the rules alone must have a solution
        tried += 1
        core = minimal_conflict(drawn.puzzle())
        assert core is not None and core_problems(drawn, core) == [], f"seed {seed}: {drawn}"
    assert tried >= 5


def test_minimal_finds_exactly_the_redundant_givens_and_rule_parts() -> None:
    """Each given and each rule instance is redundant iff the brute force keeps one solution
    without it (an instance removed from its rule's document, as the tool says it removes it)."""
    tried = 0
    for seed in SEEDS:
        drawn = DRAWN[seed]
        if len(SOLUTIONS[seed]) != 1:
            continue
        tried += 1
        found = find_redundant(drawn.puzzle())
        want = sorted(
            divmod(i, 4)
            for i in drawn.givens
            if len(drawn.solutions({j: d for j, d in drawn.givens.items() if j != i})) == 1
        )
        assert sorted(found.redundant_givens) == want, f"seed {seed}: {drawn}"
        redundant = {id(x) for x in found.redundant_instances}
        for instance in found.items.instances:
            specs = copy.deepcopy(drawn.specs)
            spec = specs[instance.rule]
            if instance.field is None:
                del specs[instance.rule]
            elif isinstance(spec[instance.field], list):
                del spec[instance.field][instance.key]
            else:
                spec[instance.field] = False
            alone = len(Drawn(drawn.givens, specs).solutions()) == 1
            assert alone == (id(instance) in redundant), f"seed {seed}: {instance.label}"
    assert tried >= 10


def test_the_checks_catch_wrong_answers() -> None:
    """The comparisons can fail: a step removing a digit some solution uses, a placement one
    solution lacks, a core with an extra given, a core that is no given, are all reported."""
    seed = next(s for s in SEEDS if len(SOLUTIONS[s]) >= 2)
    solutions = SOLUTIONS[seed]
    cell = next(i for i in range(16) if len({s[i] for s in solutions}) > 1)
    digit = solutions[0][cell]
    bad = Step("made up", 1.0, "made up", placements=((cell, digit),))
    assert wrong_steps([bad], solutions)
    bad = Step("made up", 1.0, "made up", eliminations=((cell, digit),))
    assert wrong_steps([bad], solutions)
    unsat = next(s for s in SEEDS if not SOLUTIONS[s] and DRAWN[s].solutions({}))
    drawn = DRAWN[unsat]
    core = minimal_conflict(drawn.puzzle())
    assert core is not None and core_problems(drawn, core) == []
    extra = next(i for i in range(16) if divmod(i, 4) not in dict(core))
    padded = [*core, (divmod(extra, 4), 1)]
    assert "still clashes" in " ".join(core_problems(drawn, padded))
    free = next(i for i in range(16) if i not in drawn.givens)
    assert core_problems(drawn, [*core, (divmod(free, 4), 1)])
