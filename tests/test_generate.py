"""The generator: every puzzle it writes is unique and minimal by other backends' verdicts
(cpsat for uniqueness, the SAT oracle of `minimal` for minimality), clues read off a grid hold
on it, a seed gives the same puzzles every time (and a known seed a known first puzzle), and bad
requests are one-line errors."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.grid import Grid, Shape, default_box, regular_shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from satsudoku.rules import make_rule
from satsudoku.tools.clues import READERS
from satsudoku.tools.generate import (
    GenerateError,
    Refuter,
    Request,
    complete_grid,
    generate,
    orbit,
    orbits,
)
from satsudoku.tools.minimal import find_redundant
from satsudoku.tools.regions import random_regions
from satsudoku.verify import violations

NINE = regular_shape(3, 3)
# `satsudoku generate --seed 1`, first puzzle: changes only if the generator's draws change,
# which changes what every seed means (say so in the changelog if it must happen).
SEED_1_FIRST = "3291.......8.62...6..........5.2763.....5.......38.....8.5...49..34.6.2..4....1.."


def assert_unique_by_cpsat(made_puzzle: Puzzle, solution: Grid) -> None:
    result = get_backend("cpsat").solve(made_puzzle, limit=2)
    assert result.status is Status.UNIQUE
    assert result.solutions[0] == solution


def test_classic_batch_is_unique_and_minimal_by_other_backends() -> None:
    batch = list(generate(Request(NINE, seed=7), 4))
    assert len(batch) == 4 and len({made.puzzle for made in batch}) == 4
    for made in batch:
        assert_unique_by_cpsat(made.puzzle, made.solution)
        assert not violations(made.puzzle, made.solution)
        verdict = find_redundant(made.puzzle, "sat")
        assert verdict.status is Status.UNIQUE and verdict.minimal
        assert 17 <= made.puzzle.givens.count_filled() <= 40


def test_same_seed_same_puzzles_and_a_known_first_puzzle(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["generate", "--seed", "1", "--count", "3"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(["generate", "--seed", "1", "--count", "3"]) == 0
    again = capsys.readouterr().out.splitlines()
    assert first == again and len(first) == 3
    assert first[0] == SEED_1_FIRST
    assert main(["generate", "--seed", "2", "--count", "3"]) == 0
    assert capsys.readouterr().out.splitlines() != first


def test_fast_and_bitmask_refutation_agree() -> None:
    """The two 'another solution?' tests give the same removals, so the same puzzles: the
    bitmask Refuter, on a puzzle made by the fast path, finds it unique and each given needed."""
    made = next(generate(Request(NINE, seed=11), 1))
    refuter = Refuter(made.puzzle, made.solution, None)
    values = list(made.puzzle.givens.values)
    assert not refuter.other_solution(values, [i for i, v in enumerate(values) if not v])
    for index, value in enumerate(values):
        if value:
            trial = values.copy()
            trial[index] = 0
            assert refuter.other_solution(trial, [index])


def test_without_numba_the_same_seed_gives_the_same_puzzles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A machine without Numba answers by the bitmask Refuter; the verdicts are exact either
    way, so the puzzles are the same."""
    request = Request(NINE, symmetry="rot90", seed=1)
    with_fast = [made.puzzle for made in generate(request, 2)]
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numba" else real(name, *a)
    )
    assert [made.puzzle for made in generate(request, 2)] == with_fast


@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "mirror", "diagonal"])
def test_symmetric_givens_and_every_orbit_needed(symmetry: str) -> None:
    made = next(generate(Request(NINE, symmetry=symmetry, seed=3), 1))
    givens = made.puzzle.givens
    for cell in NINE.cells():
        assert all(bool(givens[cell]) == bool(givens[other]) for other in orbit(cell, 9, symmetry))
    assert_unique_by_cpsat(made.puzzle, made.solution)
    sat = get_backend("sat")
    for group in orbits(9, symmetry):
        if givens[group[0]]:
            values = list(givens.values)
            for r, c in group:
                values[r * 9 + c] = 0
            fewer = Puzzle(NINE, Grid(9, tuple(values)))
            assert sat.solve(fewer, limit=2).status is Status.MULTIPLE


def test_orbits_partition_the_board() -> None:
    for symmetry in ("none", "rot180", "rot90", "mirror", "diagonal"):
        cells = [cell for group in orbits(9, symmetry) for cell in group]
        assert sorted(cells) == sorted(NINE.cells())
    assert orbit((0, 1), 9, "rot90") == ((0, 1), (1, 8), (7, 0), (8, 7))
    assert len(orbits(9, "rot180")) == 41  # 40 pairs and the centre


def test_diagonal_and_16x16_and_jigsaw() -> None:
    diagonal = make_rule({"type": "diagonal"}, NINE)
    made = next(generate(Request(NINE, (diagonal,), seed=5), 1))
    assert made.puzzle.rules == (diagonal,)
    assert_unique_by_cpsat(made.puzzle, made.solution)
    assert find_redundant(made.puzzle, "sat", rules=False).minimal

    big = next(generate(Request(regular_shape(4, 4), seed=5), 1))
    assert_unique_by_cpsat(big.puzzle, big.solution)

    jigsaw = Shape.jigsaw([row for row in _JIGSAW.split()])
    made = next(generate(Request(jigsaw, seed=5), 1))
    assert made.puzzle.shape == jigsaw
    assert_unique_by_cpsat(made.puzzle, made.solution)
    assert find_redundant(made.puzzle, "sat").minimal


_JIGSAW = """
000000021
453303021
453333221
453322221
455566121
445666111
445566667
488887777
888887777
"""  # the regions of models/variants/real/jigsaw.json


@pytest.mark.parametrize("n", [5, 7, 9])
def test_random_jigsaw_regions_are_connected_and_their_puzzles_unique(n: int) -> None:
    shape = random_regions(n, random.Random(n))
    assert shape.is_jigsaw and sorted(map(len, shape.regions())) == [n] * n
    assert len({tuple(region) for region in shape.regions()}) == n
    boxes = regular_shape(*default_box(n)).regions() if n == 9 else iter(())
    assert set(shape.regions()) != set(boxes)  # swaps left no box outline whole
    for region in shape.regions():
        cells, seen, todo = set(region), {region[0]}, [region[0]]
        while todo:
            r, c = todo.pop()
            for other in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if other in cells and other not in seen:
                    seen.add(other)
                    todo.append(other)
        assert seen == cells
    made = next(generate(Request(regular_shape(1, n), jigsaw=True, seed=n), 1))
    assert made.puzzle.shape.is_jigsaw
    assert_unique_by_cpsat(made.puzzle, made.solution)
    assert find_redundant(made.puzzle, "sat").minimal


@pytest.mark.parametrize("kind", sorted(READERS))
def test_clues_read_off_a_grid_hold_on_it(kind: str) -> None:
    rng = random.Random(4)
    grid = complete_grid(NINE, (), rng)
    rule = make_rule(READERS[kind](grid, NINE, rng), NINE)
    puzzle = Puzzle(NINE, Grid.empty(9), (rule,))
    assert not violations(puzzle, grid)
    spec = rule.to_spec()
    assert any(value for key, value in spec.items() if key != "type")  # something was drawn


def test_killer_cages_partition_the_board_without_one_cell_cages() -> None:
    rng = random.Random(8)
    grid = complete_grid(NINE, (), rng)
    cages = READERS["killer"](grid, NINE, rng)["cages"]
    cells = [name for cage in cages for name in cage["cells"]]
    assert sorted(cells) == sorted(f"r{r + 1}c{c + 1}" for r, c in NINE.cells())
    assert all(len(cage["cells"]) >= 2 for cage in cages)


def test_killer_without_givens_minimal_over_cages() -> None:
    six = regular_shape(2, 3)
    request = Request(six, clues=("killer",), givens=False, minimal=True, seed=2)
    made = next(generate(request, 1))
    assert made.puzzle.givens.count_filled() == 0
    assert_unique_by_cpsat(made.puzzle, made.solution)
    verdict = find_redundant(made.puzzle, "cpsat")
    assert verdict.status is Status.UNIQUE and verdict.minimal


def test_minimal_removes_dots_and_givens_together() -> None:
    request = Request(NINE, clues=("kropki",), minimal=True, seed=6)
    made = next(generate(request, 1))
    everything = READERS["kropki"](made.solution, NINE, random.Random(0))
    dots = made.puzzle.rules[0].to_spec()
    kept = len(dots.get("white", [])) + len(dots.get("black", []))
    assert 0 < kept < len(everything["white"]) + len(everything["black"])
    assert_unique_by_cpsat(made.puzzle, made.solution)
    assert find_redundant(made.puzzle, "sat").minimal


def test_rating_range_is_respected() -> None:
    from satsudoku.logic.rating import rate

    made = next(generate(Request(NINE, seed=9, rating=(3.0, 12.0)), 1))
    assert made.stats["rating"] == rate(made.puzzle, machine=False).rating >= 3.0


def test_requests_that_cannot_be_met() -> None:
    with pytest.raises(GenerateError, match="needs clues"):
        Request(NINE, givens=False)
    with pytest.raises(GenerateError, match="cannot read 'diagonal'"):
        Request(NINE, clues=("diagonal",))
    with pytest.raises(GenerateError, match="never pinned it down"):
        next(generate(Request(regular_shape(2, 2), clues=("xv",), givens=False), 1))


def test_cli_json_certificates_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "certs"
    argv = ["generate", "--box", "2x3", "--count", "2", "--seed", "4", "--json"]
    assert main([*argv, "--certificate", str(folder)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["index"] for r in records] == [1, 2] and records[0]["seed"] == 4
    assert all("checked" in r["certificate"] for r in records)
    assert (folder / "0002" / "proof.drat").exists()
    assert main(["verify-certificate", str(folder / "0001")]) == 0
    capsys.readouterr()

    assert main(["generate", "--givens", "0"]) == 2
    assert "--givens 0 needs clues" in capsys.readouterr().err
    assert main(["generate", "--rule", "nosuch"]) == 2
    assert "--rule nosuch: unknown rule type" in capsys.readouterr().err
    regions = tmp_path / "regions.txt"
    regions.write_text("1122\n1122\n3344\n334\n")
    assert main(["generate", "--regions", str(regions)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "regions.txt: regions: row 4 has 3 labels" in err
    assert main(["generate", "--regions", "/dev/zero"]) == 1
    assert "/dev/zero: is a device, not a puzzle file" in capsys.readouterr().err
    regions.write_bytes(b"1" * 70_000)
    assert main(["generate", "--regions", str(regions)]) == 1
    assert "regions.txt: larger than 64 KiB" in capsys.readouterr().err
    assert main(["generate", "--rule", "killer", "--givens", "0", "--timeout", "0.001"]) == 2
    assert "puzzle 1: none made within --timeout 0.001 s" in capsys.readouterr().err
    assert main(["generate", "--jigsaw", "9", "--regions", str(regions)]) == 2
    assert "give one" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["generate", "--givens", "5"])
