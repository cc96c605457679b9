"""The `Automaton` kind (skyscraper clues): its live layers, each backend's native posting
against the Table path and an oracle written here, GAC by unit propagation and by the bitmask
propagator, the memory a 9×9 of skyscraper clues takes, and its certificates."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from pysat.solvers import Solver

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.constraints import Automaton, Table, TableTooLargeError, unroll
from satsudoku.encoders.cnf import Encoding, encode_rules
from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import make_rule
from satsudoku.rules.condition import Condition
from satsudoku.rules.outside import _skyline_done, _skyline_step, _x_sum_parts, side_line
from satsudoku.search.kernel import _Kernel
from tests.conftest import REPO
from tests.test_rules import Rows, all_4x4, count_6x6

Clue = tuple[str, int, int]  # side, row or column index, how many are seen


def seen(digits: list[int]) -> int:
    """The oracle: digits taller than all before them, counted by hand."""
    count, tallest = 0, 0
    for d in digits:
        if d > tallest:
            count, tallest = count + 1, d
    return count


def line(g: Rows, side: str, i: int) -> list[int]:
    n = len(g)
    if side in ("left", "right"):
        cells = list(g[i])
    else:
        cells = [g[r][i] for r in range(n)]
    return cells[::-1] if side in ("right", "bottom") else cells


def spec(n: int, clues: list[Clue]) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "skyscraper"}
    for side, i, k in clues:
        out.setdefault(side, [None] * n)[i] = k
    return out


def sky(n: int, k: int, distinct: bool = True) -> Automaton:
    cells = tuple((0, c) for c in range(n))
    step, done = partial(_skyline_step, count=k), partial(_skyline_done, count=k)
    return Automaton(cells, n, (0, 0), step, done, f"sees {k}", distinct)


# ---------------------------------------------------------------------------------------------
# The layers


def test_layers_keep_the_states_on_some_accepted_path() -> None:
    """4 cells seeing 2: after the first digit (tallest, seen) with tallest < 4 (a 4 first sees
    one only); the last layer holds only states that have seen two."""
    layers = sky(4, 2).layers()
    assert layers.states[0] == ((0, 0),)
    assert layers.states[1] == ((1, 1), (2, 1), (3, 1))
    assert all(s[1] == 2 for s in layers.states[4])
    assert layers.digits(0) == {1, 2, 3}
    # Forward ∩ backward over domains: a 4 in the first cell leaves nothing; 3 then 4 fits.
    assert not sky(4, 2).layers([{4}, range(1, 5), range(1, 5), range(1, 5)]).states[0]
    narrowed = sky(4, 2).layers([{3}, {1, 2, 4}, {1, 2, 4}, {1, 2, 4}])
    assert narrowed.digits(0) == {3} and narrowed.digits(1) == {1, 2, 4}
    # Without distinct digits, 4^4 sequences are counted by paths: those seeing exactly 2.
    assert layers.paths() == sum(
        1 for t in itertools.product(range(1, 5), repeat=4) if seen(list(t)) == 2
    )


def test_unroll_with_no_cells_accepts_only_an_accepting_start() -> None:
    assert unroll((0,), lambda s, d: s, lambda s: True, []).states == (((0,),),)
    assert unroll((0,), lambda s, d: s, lambda s: False, []).states == ((),)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_table_fallback_is_every_permutation_the_oracle_accepts(n: int) -> None:
    for k in range(1, n + 1):
        (table,) = sky(n, k).decompose(Shape.for_size(n) if n != 5 else Shape(1, 5))
        expected = {p for p in itertools.permutations(range(1, n + 1)) if seen(list(p)) == k}
        assert isinstance(table, Table) and table.tuples == expected, k


def test_check_is_safe_on_partial_lines() -> None:
    """check() is False exactly when no permutation completes the assigned cells (a 4-cell
    line, every partial assignment of up to three cells), and on a repeated digit."""
    automaton = sky(4, 2)
    every = list(itertools.permutations(range(1, 5)))
    for size in range(4):
        for where in itertools.combinations(range(4), size):
            for digits in itertools.product(range(1, 5), repeat=size):
                values = {automaton.cells[i]: d for i, d in zip(where, digits, strict=True)}
                fits = any(
                    seen(list(p)) == 2
                    and all(p[i] == d for i, d in zip(where, digits, strict=True))
                    for p in every
                )
                if fits:
                    assert automaton.check(values)
                if len(set(digits)) < size:
                    assert not automaton.check(values)


def test_a_16x16_clue_is_refused_by_the_table_path_only() -> None:
    with pytest.raises(TableTooLargeError, match="sees 3 needs a search over more than"):
        sky(16, 3).decompose(Shape(4, 4))
    assert len(sky(16, 3).layers().arcs) == 16


# ---------------------------------------------------------------------------------------------
# Every backend against the oracle (and the Table path, bitmask generic)

BACKENDS: list[tuple[str, dict[str, Any]]] = [
    *(("sat", {"encoding": e.value}) for e in Encoding),
    ("cpsat", {"model": "boolean"}),
    ("cpsat", {"model": "integer"}),
    ("bitmask", {"generic": True}),
    ("bitmask", {}),
    ("mip", {}),
]
IDS = ["sat-" + e.value for e in Encoding] + [
    "cpsat-boolean",
    "cpsat-integer",
    "bitmask-tables",
    "bitmask",
    "mip",
]
CLUES_4 = [
    [("top", 1, 3), ("left", 2, 2), ("bottom", 2, 2)],  # 22 of the 288 grids
    [("top", 0, 2), ("right", 1, 2), ("bottom", 3, 3)],  # 9
]
CLUES_6 = [("top", 1, 3), ("left", 2, 3), ("left", 4, 4), ("bottom", 0, 2)]  # 82 grids
FIRST_ROW = Grid(6, (1, 2, 3, 4, 5, 6) + (0,) * 30)


def _oracle(clues: list[Clue]) -> Any:
    return lambda g: all(seen(line(g, side, i)) == k for side, i, k in clues)


def _count(name: str, options: dict[str, Any], puzzle: Puzzle, limit: int) -> int:
    if name not in available(partial=True):
        pytest.skip(f"{name} is not installed")
    result = get_backend(name, **options).solve(puzzle, limit=limit)
    assert result.exhausted and result.count is not None, (name, options, result.status)
    return result.count


# mip (5 s) and cpsat's Boolean model (2 s) count the 22-grid clue set under -m slow only.
_SLOW_IDS = {"mip", "cpsat-boolean"}


def _count_4x4(name: str, options: dict[str, Any], clues: list[Clue]) -> None:
    shape = Shape(2, 2)
    puzzle = Puzzle(shape, Grid.empty(4), (make_rule(spec(4, clues), shape),))
    expected = sum(1 for g in all_4x4() if _oracle(clues)(g))
    assert 0 < expected < 288
    assert _count(name, options, puzzle, 300) == expected, clues


@pytest.mark.parametrize(("name", "options"), BACKENDS, ids=IDS)
def test_4x4_counts_match_the_oracle(name: str, options: dict[str, Any]) -> None:
    slow = IDS[BACKENDS.index((name, options))] in _SLOW_IDS
    for clues in CLUES_4[1:] if slow else CLUES_4:
        _count_4x4(name, options, clues)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "options"),
    [config for config, i in zip(BACKENDS, IDS, strict=True) if i in _SLOW_IDS],
    ids=sorted(_SLOW_IDS, key=IDS.index),
)
def test_4x4_counts_match_the_oracle_on_the_larger_set(name: str, options: dict[str, Any]) -> None:
    _count_4x4(name, options, CLUES_4[0])


@pytest.mark.slow  # 82 solutions: 2-7 s a backend
@pytest.mark.parametrize(("name", "options"), BACKENDS, ids=IDS)
def test_6x6_counts_match_the_oracle(name: str, options: dict[str, Any]) -> None:
    shape = Shape(2, 3)
    puzzle = Puzzle(shape, FIRST_ROW, (make_rule(spec(6, CLUES_6), shape),))
    expected = count_6x6(_oracle(CLUES_6), key="skyscraper-automaton")
    assert expected == 82
    assert _count(name, options, puzzle, expected + 1) == expected


# ---------------------------------------------------------------------------------------------
# GAC: unit propagation on the SAT encoding, and the bitmask propagator


def _random_domains(rng: random.Random, n: int) -> list[set[int]]:
    return [set(rng.sample(range(1, n + 1), rng.randint(1, n))) for _ in range(n)]


def test_unit_propagation_is_gac_on_the_automaton() -> None:
    """On one line with no houses (repeats allowed), under random digit removals, unit
    propagation leaves exactly the digits on some accepted path, or fails when none is."""
    rng = random.Random(7)
    n, shape = 6, Shape(2, 3)
    for k in (2, 3, 4):
        automaton = sky(n, k, distinct=False)
        clauses = encode_rules(shape, [automaton], Encoding.EXTENDED).clauses
        # Units go in as assumptions: pysat reports no literal implied at level 0.
        units = [clause[0] for clause in clauses if len(clause) == 1]
        longer = [clause for clause in clauses if len(clause) > 1]
        with Solver(name="glucose4", bootstrap_with=longer) as solver:
            for _ in range(150):
                domains = _random_domains(rng, n)
                assumptions = units + [
                    -(c * n + d) for c in range(n) for d in range(1, n + 1) if d not in domains[c]
                ]
                ok, implied = solver.propagate(assumptions=assumptions)
                layers = automaton.layers(domains)
                assert ok == bool(layers.states[0]), domains
                if ok:
                    false = {-lit for lit in implied if lit < 0}
                    for c in range(n):
                        left = {d for d in range(1, n + 1) if c * n + d not in false}
                        assert left == layers.digits(c), (k, domains, c)


def test_the_bitmask_propagator_is_gac_on_the_automaton() -> None:
    rng = random.Random(11)
    n = 6
    for k in (2, 3, 5):
        automaton = sky(n, k, distinct=False)
        kernel = _Kernel(n, [automaton])
        ((_, step, index),) = kernel.extras
        assert step == kernel._automaton
        for _ in range(200):
            domains = _random_domains(rng, n)
            masks = tuple(sum(kernel.bit[d - 1] for d in digits) for digits in domains)
            support = kernel._automaton_support(index, masks)
            layers = automaton.layers(domains)
            if not layers.states[0]:
                assert support == ()
                continue
            for c in range(n):
                kept = {d for d in range(1, n + 1) if support[c] & kernel.bit[d - 1]}
                assert kept == layers.digits(c)


# ---------------------------------------------------------------------------------------------
# Memory, published puzzles, certificates

NINE_CLUES_OF_3 = {"size": 9, "rules": [{"type": "skyscraper", "top": [3] * 9}]}


@pytest.mark.slow
def test_nine_clues_of_3_solve_on_sat_within_300_mb() -> None:
    """The 9×9 with a clue of 3 over every column (unsatisfiable: the column with a 9 on top
    sees one) took the Table path 3.0 GB and over 120 s on sat; capped at 300 MB of address
    space above the interpreter's imports, it is answered."""
    code = (
        "import json, resource, sys\n"
        "from satsudoku import get_backend\n"
        "from satsudoku.io import read_text\n"
        "(puzzle,) = read_text(sys.argv[1])\n"
        "backend = get_backend('sat')\n"
        "base = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
        "cap = base + 300 * 1024 * 1024\n"
        "resource.setrlimit(resource.RLIMIT_AS, (cap, cap))\n"
        "print(backend.solve(puzzle, timeout=60).status.name)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, json.dumps(NINE_CLUES_OF_3)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "UNSATISFIABLE"


@pytest.mark.slow  # 1-3 s
def test_the_encoding_of_36_clues_is_small() -> None:
    """Every side of a 9×9 with clues of 3: the Table path's selectors were 36 × 118,124 rows
    of 10 clauses each; the layers take under 6,000 clauses a clue."""
    shape = Shape(3, 3)
    rule = make_rule({"type": "skyscraper", **{s: [3] * 9 for s in SIDES}}, shape)
    formula = encode_rules(shape, Puzzle.empty(shape, (rule,)).constraints())
    plain = encode_rules(shape, Puzzle.empty(shape).constraints())
    assert 0 < len(formula.clauses) - len(plain.clauses) < 36 * 6_000


SIDES = ("left", "right", "top", "bottom")
SKYSCRAPER_6 = REPO / "models" / "variants" / "outside" / "skyscraper-6x6.json"


@pytest.mark.parametrize("backend", ["bitmask", pytest.param("sat", marks=pytest.mark.slow)])
def test_certificates_verify_and_tampering_is_caught(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    certs = tmp_path / "certs"
    args = ["prove", str(SKYSCRAPER_6), "--backend", backend, "--certificate", str(certs)]
    assert main(args) == 0
    assert "unique" in capsys.readouterr().out
    folder = next(p.parent for p in certs.rglob("manifest.json"))
    assert main(["verify-certificate", str(folder)]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    formula = (folder / "formula.cnf").read_text().splitlines()
    # An arc's "needs its digit" clause (¬a ∨ x) loses its digit: ¬a, stronger than the rules.
    arc = next(i for i, text in enumerate(formula) if _needs_its_digit(text.split()))
    formula[arc] = formula[arc].split()[1] + " 0"
    (folder / "formula.cnf").write_text("\n".join(formula) + "\n")
    assert main(["verify-certificate", str(folder)]) == 1
    assert "not justified" in capsys.readouterr().out


def _needs_its_digit(words: list[str]) -> bool:
    """Whether a DIMACS line is x ∨ ¬a: a cell digit of 6×6 and an auxiliary variable."""
    if len(words) != 3 or words[0][:1] in ("c", "p"):
        return False
    x, a = int(words[0]), int(words[1])
    return 0 < x <= 216 and a < -216


def test_sides_read_from_their_side() -> None:
    """The automaton's cells are the clue's line, nearest first (right: reversed row)."""
    shape = Shape(2, 2)
    rule = make_rule(spec(4, [("right", 1, 2)]), shape)
    (condition,) = rule.constraints(shape)
    assert isinstance(condition, Condition)
    (automaton,) = condition.decompose(shape)
    assert isinstance(automaton, Automaton) and automaton.distinct
    assert automaton.cells == side_line(shape, "right", 1)
    assert automaton.start == (0, 0)
    assert automaton.accepts([1, 4, 2, 3]) and not automaton.accepts([4, 1, 2, 3])


def test_x_sum_automata_keep_the_prefix_tables_rows() -> None:
    """Every x-sum clue of a 6×6 row: the automaton's Table is the permutation table of the
    deciding prefix the rule used to build (X = 6 ends it at once), checked by the oracle."""
    shape = Shape(2, 3)
    line = side_line(shape, "left", 0)
    for total in range(1, 22):
        parts = _x_sum_parts(line, total, f"x-sum {total}", shape)
        automata = [part for part in parts if isinstance(part, Automaton)]
        if not automata:
            continue
        (automaton,) = automata
        (table,) = automaton.decompose(shape)
        assert isinstance(table, Table)
        width = len(automaton.cells)
        expected = {
            p
            for p in itertools.permutations(range(1, 7), width)
            if p[0] == 6 or (p[0] <= width and sum(p[: p[0]]) == total)
        }
        assert table.tuples == expected, total
