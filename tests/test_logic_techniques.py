"""Each technique on a puzzle that needs it: the easier techniques get stuck, this one finds
the step a person would write down, and the SAT backend confirms every claim of it.

The puzzles are from sudoku-exchange-graded (QQWing puzzles, public domain; see
tests/data/SOURCES.md), and for the franken fish from magictour-top2365 and janko.at's jigsaw
set (../shared/data/SOURCES.md); the sentences were read and checked by hand against the grids.
"""

# ruff: noqa: E501  (the expected sentences are data, kept whole to be read)
from __future__ import annotations

import pytest

from satsudoku.io.datasets import parse_jigsaw
from satsudoku.io.text import ReadOptions, parse_line
from satsudoku.logic import franken
from satsudoku.logic.check import false_claims
from satsudoku.logic.solver import TECHNIQUE_NAMES, TECHNIQUES, solve_logically, techniques
from satsudoku.logic.state import Board
from satsudoku.puzzle import Puzzle

# (technique, puzzle, the step's own name, the sentence it says)
CASES = [
    (
        "hidden single in a box",
        "57..6...3.3...5.6.6.1..7....53.....1....8....9.....27....8..4.2.8.1...3.2...4..19",
        "hidden single",
        "hidden single: 8 in box 2 → r1c6",
    ),
    (
        "hidden single",
        "57..6...3.3...5.6.6.1..7....53.....1....8....9.....27....8..4.2.8.1...3.2...4..19",
        "hidden single",
        "hidden single: 9 in column 2 → r3c2",
    ),
    (
        "direct locked candidates",
        "...8.4...9.......3..23769..48.2.1.35.25.3.89.3.......2..6...3............13.8.45.",
        "direct pointing",
        "direct pointing: 5 in box 2 lies in row 2 (r2c4, r2c6): remove 5 from r2c2, r2c7 → hidden single r1c7 = 5",
    ),
    (
        "direct hidden pair",
        "57..6...3.3...5.6.6.1..7....53.....1....8....9.....27....8..4.2.8.1...3.2...4..19",
        "direct hidden pair",
        "direct hidden pair 79 in row 7 (r7c3, r7c5): remove 5 from r7c3, r7c5 → hidden single r7c8 = 5",
    ),
    (
        "naked single",
        "..35.92...28...69...4...5......9.......7.4....9.3.2.7.15.....86.8.....4.4.6...9.5",
        "naked single",
        "naked single: r7c6 can only be 3",
    ),
    (
        "direct hidden triple",
        "57..6...3.3...5.6.6.1..7....53.....1....8....9.....27....8..4.2.8.1...3.2...4..19",
        "direct hidden triple",
        "direct hidden triple 259 in row 8 (r8c3, r8c5, r8c6): remove 4 from r8c3; 7 from r8c3, r8c5 → hidden single r8c1 = 4",
    ),
    (
        "full house",
        ".4.....6.3...6...1..93..2.....5849...5.2.6.1...7931.....1..78..8...2...4.3.....5.",
        "full house",
        "full house: 7 is missing from box 5 → r5c5",
    ),
    (
        "locked candidates",
        ".825........6.3..9....24..3.24....31..1.4.9..69....48.4..96....1..2.5........167.",
        "pointing",
        "pointing: 7 in box 1 lies in row 2 (r2c1, r2c3): remove 7 from r2c5, r2c7",
    ),
    (
        "naked pair",
        "9..16.2.......95.8..1.5.9.6...687..2....2....2..391...5.6.7.8..8.95.......7.18..4",
        "naked pair",
        "naked pair 39 in column 8 (r4c8, r7c8): remove 3 from r1c8, r3c8, r5c8; 9 from r5c8",
    ),
    (
        "X-wing",
        "6..185..9.........59.....878.......3...7.4....54.2.91..8.2.3.9.46.....31..7.4.5..",
        "X-wing",
        "X-wing on 2 in rows 1,8, columns 3,7: remove 2 from r3c7, r4c3, r5c7",
    ),
    (
        "hidden pair",
        "3..8....5.2.9...4...6.143....9....83..2...5..53....4....734.6...6...9.7.1....7..9",
        "hidden pair",
        "hidden pair 45 in row 9 (r9c2, r9c3): remove 8 from r9c2, r9c3",
    ),
    (
        "naked triple",
        ".4....59.89.5...623.5..28.......1.4...6.9.7...3.6.......47..1.668...4.57.73....8.",
        "naked triple",
        "naked triple 123 in box 8 (r8c4, r8c5, r9c4): remove 1 from r9c5; 2 from r7c5, r9c5; 3 from r7c5, r7c6",
    ),
    (
        "swordfish",
        ".6..4..3..7..9..8...1...5....61.28..1.......2.8.3.4.6.7.......6.19.6.37.....1....",
        "swordfish",
        "swordfish on 2 in rows 2,6,8, columns 1,3,4: remove 2 from r1c1, r1c3, r1c4, r3c1, r3c4, r7c3, r7c4, r9c3, r9c4",
    ),
    (
        "turbot fish",
        "2..9.....8..5.3....547.6..2..8.....9.97...42.1.....3..3..1.589....8.2..3.....7..5",
        "skyscraper",
        "skyscraper on 4: r6c4=r6c2 (row 6), r7c2=r7c5 (row 7), r6c2 sees r7c2: r6c4 or r7c5 is 4; remove 4 from r4c5, r9c4",
    ),
    (
        "XY-wing",
        "........9.145...6.7.64..........5.4.6.93.81.7.7.6..........75.8.8...432.1........",
        "XY-wing",
        "XY-wing: pivot r1c4 (12), pincers r1c1, r3c5: one of them is 3; remove 3 from r3c2",
    ),
    (
        "finned X-wing",
        "49...13...6...9..8..738..9..8....7...36.7.52...2....1..1..479..8..6...3...91...87",
        "finned X-wing",
        "finned X-wing on 4 in columns 3,9, rows 4,8 with fins r5c9, r6c9: remove 4 from r4c8",
    ),
    (
        "finned swordfish",
        ".9.37..6....8.4..3.3..295....9...2..7...8...9..2...4....143..2.6..2.7....7..98.4.",
        "finned swordfish",
        "finned swordfish on 1 in rows 1,4,6, columns 2,6,7 with fins r4c8, r4c9, r6c8, r6c9: remove 1 from r5c7",
    ),
    (
        "XYZ-wing",
        ".1..84.92..4...8..5.3..........9..5....7.6....7..3..........1.9..8...7..19.37..8.",
        "XYZ-wing",
        "XYZ-wing: pivot r5c3 (129), pincers r4c3, r5c7: one of them is 2; remove 2 from r5c1",
    ),
    (
        "hidden triple",
        "1...5...6...482.....71.64...56...13...2...5....85.42..2.......33..2.9..4....6....",
        "hidden triple",
        "hidden triple 479 in row 9 (r9c2, r9c3, r9c7): remove 1 from r9c3; 5 from r9c3; 8 from r9c2, r9c7",
    ),
    (
        "W-wing",
        "2...1...7...2.7....5.....2...5.2.4....15492..3..7.8..1.7.8.4.3..........63.....85",
        "W-wing",
        "W-wing: r1c2 and r2c5 are both 89, and 8 in row 3 is at r3c1 or r3c5: one of the pair is 9; remove 9 from r1c4",
    ),
    (
        "X-chain",
        "2.4..39.1.6...2.3.1...79..4652........1...3........2455..38...2.2.4...5.9.32..8.6",
        "X-chain",
        "X-chain: (7)r9c6 =(7)r9c8 -(7)r1c8 =(7)r1c2 -(7)r2c1 =(7)r8c1: remove 7 from r8c6",
    ),
    (
        "alternating inference chain",
        "9..38...4.2.9...7.....27.....6....452.9...7.645....9.....49.....9...1.2.3...65..1",
        "alternating inference chain",
        "alternating inference chain: (6)r3c2 =(6)r7c2 -(6)r8c1 =(5)r8c1 -(5)r3c1 =(8)r3c1: remove 8 from r3c2",
    ),
    (
        "naked quad",
        "..4.6.5..23.....94..........76...82.....2....1..7.3..6...145...8.......7.91...34.",
        "naked quad",
        "naked quad 1578 in box 2 (r2c4, r2c5, r2c6, r3c5): remove 7 from r1c6, r3c6; 8 from r1c4, r1c6, r3c4, r3c6",
    ),
    (
        "jellyfish",
        "6.......3..37.48....49.32...........2.84.65.9.9..5..8.8.......1....9......68.54..",
        "jellyfish",
        "jellyfish on 1 in rows 2,3,5,9, columns 1,2,5,8: remove 1 from r1c5, r4c1, r4c8, r6c1",
    ),
    (
        "hidden quad",
        "..8...7....7.2.3..3.47.16.28...3...7....9....6.38.29.1.........4.23.51.6...468...",
        "hidden quad",
        "hidden quad 2367 in column 8 (r4c8, r5c8, r7c8, r9c8): remove 4 from r4c8, r5c8, r7c8; 5 from r4c8, r5c8, r7c8, r9c8; 8 from r5c8, r7c8",
    ),
    (
        "Nishio",
        "97.....24....9....34.....71..9...2...2.1.9.6.....7....2.7.8.4.6..17.48...6.2.3.9.",
        "Nishio",
        "Nishio on 5: if r1c5 were 5, 4 placements of 5 later column 8 has no place for 5: remove 5 from r1c5",
    ),
    (
        "forcing chain",
        "7.89...3..6...1...1..24......6.....351.....288.....4......79..4...1...5..9...57.2",
        "forcing chain (contradiction)",
        "forcing chain (contradiction): if r6c3 were 2, 6 deductions later row 5 has no place for 7: remove 2 from r6c3",
    ),
    (
        "finned jellyfish",
        ".92.8.13..3.....5....396....86.5.92.....2....9..6.7..1..5.3.6...........21.....95",
        "finned jellyfish",
        "finned jellyfish on 4 in rows 1,2,5,9, columns 3,4,6,7 with fin r1c1: remove 4 from r3c3",
    ),
    (
        "XY-chain",
        "3......2..645........9.16.4.1...73..7.......1..58...9.5.16.3........281..8......2",
        "XY-chain",
        "XY-chain: (4)r7c8 =(7)r7c8 -(7)r2c8 =(3)r2c8 -(3)r9c8 =(6)r9c8 -(6)r9c1 =(4)r9c1 -(4)r8c2 =(9)r8c2 -(9)r5c2 =(4)r5c2: remove 4 from r5c8",
    ),
    (
        "franken swordfish",
        "..4...97..62..7...........15...1..93...9..8.....4..6.53.58.....7...39.........2..",
        "franken swordfish",
        "franken swordfish on 4: its places in row 4, row 8, box 3 all lie in column 2, column 7, column 9; remove 4 from r5c2, r5c9, r9c2",
    ),
    (
        "cell/region forcing chain",
        "8..2....1..46..2...2..98.6...8....26..5.8.1..79....4...1.83..5...3..48..6....1..3",
        "region forcing chain",
        "region forcing chain: 5 in row 1 is at r1c2 or r1c6 or r1c7; each way, singles rule out 5 at r6c6: remove 5 from r6c6",
    ),
]


@pytest.mark.parametrize(("technique", "line", "name", "text"), CASES, ids=[c[0] for c in CASES])
def test_technique_on_a_puzzle_that_needs_it(
    technique: str, line: str, name: str, text: str
) -> None:
    assert_needed(parse_line(line, ReadOptions()), technique, name, text)


def assert_needed(puzzle: Puzzle, technique: str, name: str, text: str) -> None:
    """Every easier technique is stuck; this one takes the step `text`, and SAT confirms it."""
    position = TECHNIQUE_NAMES.index(technique)
    easier = solve_logically(Board.from_puzzle(puzzle), TECHNIQUES[:position])
    assert easier.status == "stuck"
    step = TECHNIQUES[position].find(easier.board)
    assert step is not None
    assert (step.technique, step.text) == (name, text)
    assert false_claims(puzzle, [step]) == []


def test_every_technique_has_a_case() -> None:
    """Each technique is exercised here but three: restrictions need variant rules (see
    test_logic_sound), and the '+' and nested forcing chains need puzzles slower than the
    tests can afford (bench_rate check confirms their steps by SAT)."""
    covered = {c[0] for c in CASES} | {JIGSAW_CASE[0]}
    rest = set(TECHNIQUE_NAMES) - covered
    assert rest == {"restriction", "forcing chain+", "nested forcing chain"}


UNIQUENESS_CASES = [
    (
        "unique rectangle",
        ".....54.........91.5894.3..7..594.....1.7.6.....613..7..5.3672.63.........94.....",
        "unique rectangle type 1",
        "unique rectangle type 1 on 45 (r5c8, r5c9, r8c8, r8c9): r5c8 must break it, or 45 could swap; remove 4 from r5c8; 5 from r5c8",
    ),
    (
        "BUG+1",
        ".3..97....4.5..187.8.......8..9.4.6.6...2...5.5.6.1..2.......1.491..6.3....18..2.",
        "BUG+1",
        "BUG+1: every open cell but r3c3 has two candidates, and 5 appears three times in each of its houses → r3c3 = 5",
    ),
    (
        "unique rectangle",
        "...751..............13642..1.......858.....917.3.2.5.68..2.7..4.........34..9..12",
        "unique rectangle type 2",
        "unique rectangle type 2 on 57 (r2c2, r2c9, r3c2, r3c9): one of r2c2, r2c9 must be 3; remove 3 from r2c8",
    ),
    (
        "unique rectangle",
        ".5.9.2.7.3..8.4..5..6.5.9....3...7...7.619.8.5.......2.4.2.1.6...1...2...3.....4.",
        "unique rectangle type 3",
        "unique rectangle type 3 on 79 (r7c1, r7c9, r8c1, r8c9): r7c1, r8c1 hold one of 68, a naked set 68 with r8c2 in box 7; remove 6 from r9c1",
    ),
    (
        "unique rectangle",
        ".2...3.....1985..2....4..6.78.....2..43...67..9.....45.1..3....3..4962.....7...9.",
        "unique rectangle type 4",
        "unique rectangle type 4 on 49 (r1c1, r1c3, r7c1, r7c3): 4 in row 1 is at r1c1 or r1c3 only, so neither is 9; remove 9 from r1c1, r1c3",
    ),
    (
        "unique rectangle",
        "9.5...8.6.2.....1...3.6.9.....6.3......5.7...2..8.4..7.7.....8.1.87462.3..9...6..",
        "unique rectangle type 6",
        "unique rectangle type 6 on 12 (r1c4, r1c6, r9c4, r9c6): 2 in rows 1 and 9 lies in the rectangle only, so r1c4, r9c6 cannot be 2; remove 2 from r1c4, r9c6",
    ),
    (
        "unique rectangle",
        "..18.54...5.....3..863.175.....6.....1..2..6.6..9.4..554.....711.8...6.4..2...5..",
        "hidden unique rectangle",
        "hidden unique rectangle on 49 (r2c1, r2c3, r5c1, r5c3): 4 in row 5 and column 3 lies in the rectangle only, so r5c3 cannot be 9; remove 9 from r5c3",
    ),
    (
        "BUG+1",
        "....2....9...6...5.32...94.....9....3.54726.8.9.....1...........83...72..4.3.8.6.",
        "BUG type 2",
        "BUG type 2: without 5 in r4c7, r7c7 every open cell would hold two candidates and every digit two places per house, so one of them is 5; remove 5 from r6c7, r9c7",
    ),
]


@pytest.mark.parametrize(
    ("technique", "line", "name", "text"), UNIQUENESS_CASES, ids=[c[2] for c in UNIQUENESS_CASES]
)
def test_uniqueness_technique_when_asked_for(
    technique: str, line: str, name: str, text: str
) -> None:
    """Each type of unique rectangle and BUG on a puzzle of sudoku-exchange-graded whose first
    uniqueness step it is (found by scanning the shared set's 8,000 puzzles)."""
    puzzle = parse_line(line, ReadOptions())
    chosen = techniques(uniqueness=True)
    position = [t.name for t in chosen].index(technique)
    easier = solve_logically(Board.from_puzzle(puzzle), chosen[:position])
    assert easier.status == "stuck"
    step = chosen[position].find(easier.board)
    assert step is not None and (step.technique, step.text) == (name, text)
    assert false_claims(puzzle, [step]) == []
    default = solve_logically(Board.from_puzzle(puzzle))
    assert technique not in {s.technique for s in default.steps}  # off unless asked for


# A franken X-wing needs a layout whose regions are not boxes to be the easiest step: janko.at's
# "Chaos" puzzle (../shared/data/jigsaw-janko-9x9.txt, line 107: givens,
# regions, solution), where regions 1 and 6 act as the base lines.
JIGSAW_CASE = (
    "franken X-wing",
    ".2.5.....6..........6.1..85...9..56.1..4.7..6.74..2...86..2.7..........1.....6.2. 111177799114477999114777799144444499222222222335555558336666588333665588336668888 321568479687259134946713285738941562152487396574392618869124753293675841415836927",
    "franken X-wing",
    "franken X-wing on 4: its places in region 1, region 6 all lie in column 1, column 2; remove 4 from r4c2",
)


def test_franken_fish_on_jigsaw_regions() -> None:
    technique, line, name, text = JIGSAW_CASE
    assert_needed(parse_jigsaw(line), technique, name, text)


# No puzzle of the shared sets needs a finned franken X-wing: on classic grids Nishio (7.6), a
# search on one digit as well, comes first and finds its eliminations; so its finder is tested
# where the techniques before franken fish are stuck, on janko.at's jigsaw line 54.
FINNED_JIGSAW_CASE = (
    "finned franken X-wing",
    "............6.43..38..4..1.7....31..63.....47..58....3.7..6..29..69.1............ 555555999444455999443465989343466988333666888323266788223261787222211777111111777 853172964217694385389546712792483156631259847425817693178365429546931278964728531",
    "finned franken X-wing on 2: its places in row 4, row 5 all lie in region 3, region 5 with fins r4c3, r5c3; remove 2 from r2c3",
)


# Finned franken fish are not in the ladder (Nishio took the step first on every puzzle measured;
# see solver.py), but callers may ask for them: here on a classic grid where every technique
# below the dynamic forcing chain is stuck.
FINNED_SWORDFISH_CASE = (
    "finned franken swordfish",
    ".36....4...75.........3......49...6.7...4.8..6.....37..59.........1..7594..6.....",
    "finned franken swordfish on 2: its places in row 7, row 8, box 1 all lie in column 1, column 8, box 8 with fins r3c2, r3c3; remove 2 from r3c8",
)


def test_finned_franken_fish_on_demand() -> None:
    technique, line, text = FINNED_JIGSAW_CASE
    puzzle = parse_jigsaw(line)
    before = TECHNIQUE_NAMES.index("franken X-wing")
    board = solve_logically(Board.from_puzzle(puzzle), TECHNIQUES[:before]).board
    step = franken.technique(2, finned=True).find(board)
    assert step is not None and (step.technique, step.text) == (technique, text)
    assert false_claims(puzzle, [step]) == []

    technique, line, text = FINNED_SWORDFISH_CASE
    puzzle = parse_line(line, ReadOptions())
    before = TECHNIQUE_NAMES.index("forcing chain")
    easier = solve_logically(Board.from_puzzle(puzzle), TECHNIQUES[:before])
    assert easier.status == "stuck" and technique not in TECHNIQUE_NAMES
    step = franken.technique(3, finned=True).find(easier.board)
    assert step is not None and (step.technique, step.text) == (technique, text)
    assert false_claims(puzzle, [step]) == []
