"""Geometry facts: box inference, houses, jigsaw validation."""

from __future__ import annotations

import pytest

from satsudoku.errors import PuzzleError
from satsudoku.grid import Shape, default_box


@pytest.mark.parametrize(
    ("size", "box"),
    [
        (4, (2, 2)),
        (6, (2, 3)),
        (8, (2, 4)),
        (9, (3, 3)),
        (10, (2, 5)),
        (12, (3, 4)),
        (16, (4, 4)),
        (25, (5, 5)),
        (36, (6, 6)),
    ],
)
def test_box_inferred_from_size(size: int, box: tuple[int, int]) -> None:
    assert default_box(size) == box


@pytest.mark.parametrize("size", [5, 7, 11, 13])
def test_prime_sizes_have_no_boxes(size: int) -> None:
    with pytest.raises(PuzzleError, match=f"size {size} has no rectangular box shape"):
        Shape.for_size(size)


@pytest.mark.parametrize(
    ("rows", "cols"), [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6)]
)
def test_every_house_is_a_permutation_of_the_cells(rows: int, cols: int) -> None:
    shape = Shape(rows, cols)
    n = shape.size
    houses = list(shape.houses())
    assert len(houses) == 3 * n
    assert all(len(set(h)) == n for h in houses)
    for kind in (shape.rows(), shape.columns(), shape.regions()):
        cells = [cell for house in kind for cell in house]
        assert sorted(cells) == sorted(shape.cells())  # each kind partitions the board


def test_box_of_a_6x6_is_two_rows_by_three_columns() -> None:
    first_box = next(Shape(2, 3).regions())
    assert first_box == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))


def test_jigsaw_regions_are_taken_from_labels() -> None:
    labels = ["aabb", "aabb", "ccdd", "cdcc"]
    with pytest.raises(PuzzleError, match="region 'c' has 5 cells, expected 4"):
        Shape.jigsaw([list(row) for row in labels])
    shape = Shape.jigsaw([list(row) for row in ["aabb", "aabb", "ccdd", "ccdd"]])
    assert shape.is_jigsaw and shape.size == 4
    assert sorted(len(r) for r in shape.regions()) == [4, 4, 4, 4]
    assert shape.describe() == "4x4 jigsaw"
