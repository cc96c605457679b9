"""`solve --random`: a seeded randomised search on every backend shows different solutions for
different seeds, the same one for the same seed, and still the exact verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.backends import get_backend
from satsudoku.cli import main
from satsudoku.grid import Grid, regular_shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status

BACKENDS = ["bitmask", "sat", "cpsat"]
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# Bitmask draws its digit order from random.Random(seed), identical on every machine: this
# is the solution seed 7 gives on an empty 4x4, whatever the platform.
EMPTY_4X4_SEED_7 = "3412123443212143"


def first_solution(backend: str, puzzle: Puzzle, seed: int) -> Grid:
    result = get_backend(backend, random_seed=seed).solve(puzzle, limit=2)
    assert result.status is Status.MULTIPLE  # the verdict is unchanged by the order
    assert result.solution is not None
    return result.solution


@pytest.mark.parametrize("backend", BACKENDS)
def test_seeds_pick_solutions_and_repeat_them(backend: str) -> None:
    puzzle = Puzzle.empty(regular_shape(3, 3))
    picked = [first_solution(backend, puzzle, seed) for seed in range(4)]
    assert len(set(picked)) >= 3  # not the same grid whatever the seed
    assert first_solution(backend, puzzle, 2) == picked[2]


def test_bitmask_seed_gives_the_same_grid_everywhere() -> None:
    grid = first_solution("bitmask", Puzzle.empty(regular_shape(2, 2)), 7)
    assert "".join(map(str, grid.values)) == EMPTY_4X4_SEED_7


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_unique_puzzle_stays_unique(backend: str) -> None:
    shape = regular_shape(3, 3)
    puzzle = Puzzle(shape, Grid(9, tuple(map(int, EASY))))
    result = get_backend(backend, random_seed=123).solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE
    assert result.solution is not None
    assert "".join(map(str, result.solution.values)) == EASY_SOLUTION


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "puzzles.txt"
    path.write_text(text)
    return str(path)


def test_cli_random_reports_its_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "." * 16 + "\n")
    assert main(["solve", path, "--random", "--seed", "7", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["seed"] == 7 and record["solution"] == EMPTY_4X4_SEED_7
    assert record["status"] == "multiple"
    assert main(["solve", path, "--random"]) == 0  # a drawn seed is printed, to repeat the run
    captured = capsys.readouterr()
    seed = int(captured.err.split("--seed ")[1])
    assert main(["solve", path, "--random", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out == captured.out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--seed", "3"], "--seed needs --random"),
        (["--random", "--backend", "sat", "--solver", "kissat"], "takes no phases"),
        # pysat's CaDiCaL 1.0.3 raises NotImplementedError for phases: was a traceback (h84)
        (["--random", "--backend", "sat", "--solver", "cadical103"], "takes no phases"),
    ],
)
def test_random_misuse_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    path = write(tmp_path, "." * 16 + "\n")
    assert main(["solve", path, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
