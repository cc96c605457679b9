"""Minimality: 17-clue puzzles are minimal, an added solution cell is redundant, redundant rule
instances agree across sat (guards, assumptions) and cpsat/bitmask (a re-solve per test),
and --reduce reaches a unique, minimal puzzle with the same solution."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from pysat.solvers import Solver

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.constraints import Constraint
from satsudoku.grid import Grid, Shape
from satsudoku.io import read_puzzles
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.tools.guarded import guarded_cnf
from satsudoku.tools.instances import split_rules, without
from satsudoku.tools.minimal import BACKENDS, Reduction, find_redundant, reduce_puzzle
from tests.conftest import BUNDLED, REPO, puzzle_from_line

ALL = [name for name in BACKENDS if name in available()]
SEVENTEEN = (BUNDLED / "17clue.txt").read_text().splitlines()


def solution_of(puzzle: Puzzle) -> Grid:
    result = get_backend("bitmask").solve(puzzle)
    assert result.status is Status.UNIQUE
    return result.solutions[0]


def with_cells(puzzle: Puzzle, solution: Grid, indices: list[int]) -> Puzzle:
    values = list(puzzle.givens.values)
    for index in indices:
        values[index] = solution.values[index]
    return replace(puzzle, givens=Grid(puzzle.size, tuple(values)))


def redundant_by_resolving(puzzle: Puzzle, backend: str) -> set[tuple[int, int]]:
    """The independent oracle: drop each given in turn and count to 2 with `backend`."""
    found = set()
    n = puzzle.size
    for (r, c), _ in puzzle.given_cells():
        values = list(puzzle.givens.values)
        values[r * n + c] = 0
        smaller = replace(puzzle, givens=Grid(n, tuple(values)))
        if get_backend(backend).solve(smaller, limit=2).status is Status.UNIQUE:
            found.add((r, c))
    return found


@pytest.mark.parametrize("backend", ALL)
def test_17_clue_puzzles_are_minimal(backend: str) -> None:
    for line in SEVENTEEN[:2]:
        verdict = find_redundant(puzzle_from_line(line), backend)
        assert verdict.status is Status.UNIQUE
        assert verdict.minimal and verdict.redundant == ()


@pytest.mark.parametrize("line", SEVENTEEN[2:5])
def test_added_solution_cell_is_redundant(line: str) -> None:
    puzzle = puzzle_from_line(line)
    solution = solution_of(puzzle)
    added = puzzle.givens.values.index(0)
    bigger = with_cells(puzzle, solution, [added])
    verdict = find_redundant(bigger, "sat")
    assert verdict.status is Status.UNIQUE and not verdict.minimal
    assert divmod(added, 9) in verdict.redundant_givens
    assert set(verdict.redundant_givens) == redundant_by_resolving(bigger, "bitmask")


def test_several_added_cells_agree_across_backends() -> None:
    puzzle = puzzle_from_line(SEVENTEEN[5])
    solution = solution_of(puzzle)
    empty = [i for i, v in enumerate(puzzle.givens.values) if not v]
    bigger = with_cells(puzzle, solution, empty[::9])  # 8 more cells
    answers = {name: set(find_redundant(bigger, name).redundant_givens) for name in ALL}
    assert len({frozenset(a) for a in answers.values()}) == 1, answers
    assert answers["sat"] == redundant_by_resolving(bigger, "bitmask")


MODELS = [
    "killer/killer-6x6.json",
    "lines/thermometer-6x6.json",
    "dots/kropki-6x6.json",
    "cells/odd-even-6x6.json",
    "sums/arrow-6x6.json",
    "sums/sandwich-6x6.json",
]


@pytest.mark.parametrize("model", MODELS)
def test_redundant_rule_instances_agree_across_backends(model: str) -> None:
    puzzle = read_puzzles(REPO / "models" / "variants" / model)[0]
    verdicts = [find_redundant(puzzle, name) for name in ALL]
    assert all(v.status is Status.UNIQUE for v in verdicts)
    assert verdicts[0].items.instances  # the rules were cut into instances
    assert len({v.redundant for v in verdicts}) == 1, [(v.backend, v.redundant) for v in verdicts]


def test_negative_kropki_dots_stay_fixed_and_the_flag_is_the_instance() -> None:
    puzzle = read_puzzles(REPO / "models" / "variants" / "dots" / "kropki-negative-6x6.json")[0]
    split = split_rules(puzzle)
    assert [(i.type, i.field) for i in split.instances] == [("kropki", "negative")]
    extra = len(split.fixed) - 18  # beyond the 6 rows, 6 columns and 6 boxes: the dots
    assert extra == len(puzzle.rules[0].to_spec().get("white", [])) + len(
        puzzle.rules[0].to_spec().get("black", [])
    )


def test_without_rebuilds_rules_with_exactly_the_other_constraints() -> None:
    puzzle = read_puzzles(REPO / "models" / "variants" / "killer" / "killer-6x6.json")[0]
    split = split_rules(puzzle)
    gone = split.instances[::2]
    smaller = without(puzzle, split, gone)
    kept: list[Constraint] = [c for i in split.instances[1::2] for c in i.constraints]
    assert sorted(map(repr, smaller.rule_constraints())) == sorted(map(repr, kept))


def count_models(clauses: list[list[int]], assumptions: list[int], top: int) -> int:
    with Solver(name="cadical195", bootstrap_with=clauses) as sat:
        count = 0
        while sat.solve(assumptions=assumptions):
            count += 1
            sat.add_clause([-lit for lit in sat.get_model()[:top] if lit > 0])
        return count


def test_guarded_group_holds_only_under_its_guard() -> None:
    shape = Shape(2, 2)
    diagonal = list(make_rule({"type": "diagonal"}, shape).constraints(shape))
    classic = list(Puzzle.empty(shape).constraints())
    cnf = guarded_cnf(shape, classic, [diagonal])
    (guard,) = cnf.guards
    assert count_models(cnf.clauses, [guard], 64) == 48
    assert count_models(cnf.clauses, [-guard], 64) == 288


@pytest.mark.parametrize("seed", [0, 1])
def test_reduce_reaches_a_unique_minimal_puzzle(seed: int) -> None:
    puzzle = puzzle_from_line(SEVENTEEN[6])
    solution = solution_of(puzzle)
    empty = [i for i, v in enumerate(puzzle.givens.values) if not v]
    bigger = with_cells(puzzle, solution, empty[::4])
    reduced = reduce_puzzle(bigger, "sat", seed=seed)
    assert isinstance(reduced, Reduction)
    assert solution_of(reduced.puzzle) == solution
    assert find_redundant(reduced.puzzle, "bitmask").minimal  # checked by another paradigm
    assert reduced.puzzle.givens.count_filled() == bigger.givens.count_filled() - len(
        reduced.removed
    )


def test_reduce_tries_kept_givens_last() -> None:
    """17 clues + 16 of their solution's cells, keeping the 17: every added cell goes first
    (the 17 alone are unique), then each of the 17 is needed: the original puzzle comes back."""
    puzzle = puzzle_from_line(SEVENTEEN[7])
    solution = solution_of(puzzle)
    empty = [i for i, v in enumerate(puzzle.givens.values) if not v]
    bigger = with_cells(puzzle, solution, empty[::4])
    keep = [cell for cell, _ in puzzle.given_cells()]
    for seed in (0, 1, 2):
        reduced = reduce_puzzle(bigger, "sat", seed=seed, keep=keep)
        assert isinstance(reduced, Reduction)
        assert reduced.puzzle.givens == puzzle.givens


def test_multiple_and_unsatisfiable_puzzles_are_not_minimal() -> None:
    several = find_redundant(Puzzle.empty(Shape(2, 2)))
    assert several.status is Status.MULTIPLE and not several.minimal
    none = find_redundant(puzzle_from_line("12....3........."))
    assert none.status is Status.UNSATISFIABLE and not none.minimal


def test_cli_json_and_reduce(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = puzzle_from_line(SEVENTEEN[0])
    solution = solution_of(puzzle)
    added = puzzle.givens.values.index(0)
    line = "".join(str(v or ".") for v in with_cells(puzzle, solution, [added]).givens.values)
    path = tmp_path / "p.txt"
    path.write_text(f"{SEVENTEEN[0]}\n{line}\n{'.' * 81}\n")
    assert main(["minimal", str(path), "--json"]) == 0
    first, second, third = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert first["minimal"] is True and first["redundant"] == []
    assert (
        second["minimal"] is False and f"r{added // 9 + 1}c{added % 9 + 1}" in second["redundant"]
    )
    assert third["status"] == "multiple" and third["minimal"] is False
    assert third["redundant"] is None
    assert main(["minimal", str(path), "--reduce"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "unique; reduced to a minimal puzzle of 17 givens" in out[0]
    assert out[2] == SEVENTEEN[0] or len(out[2].replace(".", "")) == 17
    assert "minimality is defined for unique puzzles" in out[-1]


def test_cli_keep_must_name_a_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.txt"
    path.write_text(SEVENTEEN[0] + "\n")
    assert main(["minimal", str(path), "--reduce", "--keep", "r1c1"]) == 1
    assert "--keep r1c1: that cell is not a given" in capsys.readouterr().err


@pytest.mark.parametrize("backend", ["sat", "bitmask"])
def test_out_of_time_is_unknown_not_minimal(backend: str) -> None:
    verdict = find_redundant(puzzle_from_line(SEVENTEEN[0]), backend, timeout=1e-9)
    assert verdict.status is Status.UNKNOWN and not verdict.minimal
    assert verdict.stats["stopped"] == "timeout"
