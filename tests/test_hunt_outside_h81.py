"""An outsider's check of the thirteen `--outside` clue types, with predicates written from
docs/rules.md's text alone: a clue written as f-puzzles text on each of the four sides of a
4x4 must count exactly the grids (of all 288) the predicate keeps, read from that side. And a
digit-list key's value is read as ASCII whole numbers, as every other clue value: `int()`
took '١ ٢' (Arabic-Indic digits) as 1 2, where a number type's clue refuses them."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from satsudoku import get_backend
from satsudoku.errors import PuzzleError
from satsudoku.io import read_text

N = 4
Line = list[int]


def _grids() -> list[tuple[int, ...]]:
    """All 288 4x4 sudoku grids (2x2 boxes), by plain backtracking."""
    found: list[tuple[int, ...]] = []
    cells = [0] * (N * N)

    def fits(i: int, d: int) -> bool:
        r, c = divmod(i, N)
        box = [(r - r % 2 + dr) * N + c - c % 2 + dc for dr in (0, 1) for dc in (0, 1)]
        peers = [r * N + k for k in range(N)] + [k * N + c for k in range(N)] + box
        return all(cells[p] != d for p in peers)

    def place(i: int) -> None:
        if i == N * N:
            found.append(tuple(cells))
            return
        for d in range(1, N + 1):
            if fits(i, d):
                cells[i] = d
                place(i + 1)
                cells[i] = 0

    place(0)
    return found


GRIDS = _grids()


def _longest(line: Line, same: Callable[[int, int], bool]) -> int:
    best = run = 1
    for a, b in zip(line, line[1:], strict=False):
        run = run + 1 if same(a, b) else 1
        best = max(best, run)
    return best


def _ascending_sum(line: Line) -> int:
    total, i = line[0], 1
    while i < N and line[i] > line[i - 1]:
        total, i = total + line[i], i + 1
    return total


def _beside(line: Line) -> set[int]:
    p = line.index(N)
    return {line[q] for q in (p - 1, p + 1) if 0 <= q < N}


def _sandwiched(line: Line, v: int) -> bool:
    p = line.index(v)
    return 0 < p < N - 1 and line[p - 1] % 2 == 0 and line[p + 1] % 2 == 0


# Each type: whether a line (read from the clue's side) meets clue v, and the clue text.
MEANS: dict[str, Callable[[Line, tuple[int, ...]], bool]] = {
    "minmaxsum": lambda ln, v: max(ln[:3]) + min(ln[:3]) == v[0],
    "minmaxdifference": lambda ln, v: max(ln[:3]) - min(ln[:3]) == v[0],
    "maxposition": lambda ln, v: ln[:3].index(max(ln[:3])) + 1 == v[0],
    "evensandwich": lambda ln, v: _sandwiched(ln, v[0]),
    "besidelargest": lambda ln, v: sum(_beside(ln)) == v[0],
    "prefixsum": lambda ln, v: any(sum(ln[:x]) == v[0] for x in range(1, N + 1)),
    "ascendingsum": lambda ln, v: _ascending_sum(ln) == v[0],
    "longestascending": lambda ln, v: _longest(ln, lambda a, b: b > a) == v[0],
    "paritylongest": lambda ln, v: _longest(ln, lambda a, b: a % 2 == b % 2) == v[0],
    "tripletsum": lambda ln, v: any(sum(ln[i : i + 3]) == v[0] for i in range(N - 2)),
    "besidelargestdigits": lambda ln, v: _beside(ln) == set(v),
    "adjacentpair": lambda ln, v: any({ln[i], ln[i + 1]} == set(v) for i in range(N - 1)),
    "descriptivepair": lambda ln, v: ln[v[1] - 1] == v[0] or ln[v[0] - 1] == v[1],
}
# A clue per type that is neither always nor never met on a 4x4 line, so a side read from the
# wrong end shows: asymmetric in the line's direction where the type is.
CLUES: dict[str, tuple[int, ...]] = {
    "minmaxsum": (5,),
    "minmaxdifference": (3,),
    "maxposition": (1,),
    "evensandwich": (3,),
    "besidelargest": (3,),
    "prefixsum": (3,),
    "ascendingsum": (6,),
    "longestascending": (3,),
    "paritylongest": (2,),
    "tripletsum": (7,),
    "besidelargestdigits": (1, 3),
    "adjacentpair": (1, 4),
    "descriptivepair": (1, 3),
}
# f-puzzles text cell beside line 2 (0-based 1) on each side, and that line from the side.
SIDES: dict[str, tuple[str, Callable[[tuple[int, ...]], Line]]] = {
    "left": ("R2C0", lambda g: [g[N + c] for c in range(N)]),
    "right": ("R2C5", lambda g: [g[N + c] for c in reversed(range(N))]),
    "top": ("R0C2", lambda g: [g[r * N + 1] for r in range(N)]),
    "bottom": ("R5C2", lambda g: [g[r * N + 1] for r in reversed(range(N))]),
}


def _fpuzzles(**keys: object) -> str:
    return json.dumps({"size": N, "grid": [[{} for _ in range(N)] for _ in range(N)], **keys})


@pytest.mark.parametrize("side", sorted(SIDES))
@pytest.mark.parametrize("kind", sorted(MEANS))
def test_a_text_clue_counts_the_grids_its_meaning_keeps(kind: str, side: str) -> None:
    cell, read = SIDES[side]
    clue = CLUES[kind]
    text = " ".join(map(str, clue))
    (puzzle,) = read_text(_fpuzzles(text=[{"cells": [cell], "value": text}]), outside=kind)
    want = sum(MEANS[kind](read(g), clue) for g in GRIDS)
    assert 0 < want < len(GRIDS)
    result = get_backend("bitmask").solve(puzzle, limit=len(GRIDS) + 1)
    assert result.count == want
    assert all(MEANS[kind](read(tuple(s.values)), clue) for s in result.solutions)


def test_the_clues_tell_the_sides_apart() -> None:
    """The oracle itself: for the direction-bound types, reading the line from the other end
    keeps other grids, so the test above would see a side read backwards."""
    for kind in (
        "minmaxsum",
        "maxposition",
        "prefixsum",
        "ascendingsum",
        "longestascending",
        "descriptivepair",
    ):
        left, right = SIDES["left"][1], SIDES["right"][1]
        kept = {g for g in GRIDS if MEANS[kind](left(g), CLUES[kind])}
        assert kept != {g for g in GRIDS if MEANS[kind](right(g), CLUES[kind])}, kind


@pytest.mark.parametrize("value", ["١ ٢", "1 ٣", "1.0 2", "x 2", "1 ２"])
@pytest.mark.parametrize("kind", ["besidelargestdigits", "adjacentpair", "descriptivepair"])
def test_a_digit_list_key_takes_ascii_whole_numbers_only(kind: str, value: str) -> None:
    data = _fpuzzles(**{kind: [{"cell": "R0C2", "value": value}]})
    with pytest.raises(PuzzleError, match=f"f-puzzles key '{kind}': malformed entry"):
        read_text(data)


def test_a_number_key_refuses_the_same_digits() -> None:
    with pytest.raises(PuzzleError, match="not a whole number"):
        read_text(_fpuzzles(minmaxsum=[{"cell": "R0C2", "value": "٥"}]))
