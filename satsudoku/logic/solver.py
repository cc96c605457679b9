"""The logical solver: apply the easiest technique that finds something, step after step, until
the grid is solved, logic runs out, or the pencil marks show there is no solution."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce
from itertools import chain, compress
from operator import ne, or_, xor

from satsudoku.backends import get_backend
from satsudoku.errors import BackendBugError
from satsudoku.grid import Shape
from satsudoku.logic import (
    chains,
    fish,
    forcing,
    franken,
    locked,
    multiple,
    singles,
    subsets,
    uniqueness,
    wings,
)
from satsudoku.logic.restrictions import restriction
from satsudoku.logic.state import Board
from satsudoku.logic.step import Step, Technique
from satsudoku.options import checked_optional_int, checked_timeout
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status

_SUBSET_HELPERS = (
    locked.locked_candidates,
    subsets.naked_subset(2),
    subsets.hidden_subset(2),
)
_DYNAMIC = forcing.forcing_finder(forcing.DYNAMIC, "forcing chain", ())
_DYNAMIC_PLUS = forcing.forcing_finder(forcing.DYNAMIC_PLUS, "forcing chain+", _SUBSET_HELPERS)


def _contradiction_only(board: Board) -> Step | None:
    """A level-one contradiction, the helper a nested forcing chain runs inside itself."""
    quiet = forcing.settled(board)  # always, as propagation calls helpers only then
    for cell in board.open_cells():
        mask = board.cands[cell]
        if mask.bit_count() != 2 or board.expired():
            continue
        for digit in (mask & -mask).bit_length(), mask.bit_length():
            trial, changed = forcing.assume(board, cell, digit)
            _made, why = forcing.propagate(
                trial, _SUBSET_HELPERS, changed=changed if quiet else None
            )
            if why is not None:
                return Step("contradiction", forcing.DYNAMIC, why, eliminations=((cell, digit),))
    return None


_NESTED = forcing.forcing_finder(
    forcing.NESTED, "nested forcing chain", (*_SUBSET_HELPERS, _contradiction_only), cells_only=True
)

# In Sudoku Explainer's order of difficulty; the figures are its ratings where it has the
# technique (docs/logic.md lists them and the ones that are ours).
TECHNIQUES: tuple[Technique, ...] = (
    Technique("full house", singles.FULL_HOUSE, singles.full_house),
    Technique("hidden single in a box", singles.HIDDEN_BOX, singles.hidden_single_box),
    Technique("hidden single", singles.HIDDEN_LINE, singles.hidden_single_line),
    Technique("direct locked candidates", 1.7, locked.direct_locked),
    Technique("direct hidden pair", 2.0, subsets.direct_hidden(2)),
    Technique("restriction", 2.0, restriction),
    Technique("naked single", singles.NAKED, singles.naked_single),
    Technique("direct hidden triple", 2.5, subsets.direct_hidden(3)),
    Technique("locked candidates", 2.6, locked.locked_candidates),
    Technique("naked pair", 3.0, subsets.naked_subset(2)),
    Technique("X-wing", 3.2, fish.fish(2), per_digit=True),
    Technique("hidden pair", 3.4, subsets.hidden_subset(2)),
    Technique("naked triple", 3.6, subsets.naked_subset(3)),
    Technique("swordfish", 3.8, fish.fish(3), per_digit=True),
    Technique("hidden triple", 4.0, subsets.hidden_subset(3)),
    Technique("turbot fish", chains.SKYSCRAPER, chains.turbot_fish, per_digit=True),
    Technique("XY-wing", wings.XY_WING, wings.xy_wing),
    Technique("finned X-wing", fish.FINNED_LEVEL[2], fish.fish(2, finned=True), per_digit=True),
    Technique("XYZ-wing", wings.XYZ_WING, wings.xyz_wing),
    Technique("W-wing", wings.W_WING, wings.w_wing),
    Technique("finned swordfish", fish.FINNED_LEVEL[3], fish.fish(3, finned=True), per_digit=True),
    Technique("naked quad", 5.0, subsets.naked_subset(4)),
    Technique("jellyfish", 5.2, fish.fish(4), per_digit=True),
    Technique("finned jellyfish", fish.FINNED_LEVEL[4], fish.fish(4, finned=True), per_digit=True),
    Technique("hidden quad", 5.4, subsets.hidden_subset(4)),
    Technique("X-chain", chains.X_CHAIN, chains.x_chain, per_digit=True),
    Technique("XY-chain", chains.XY_CHAIN, chains.xy_chain),
    Technique("alternating inference chain", chains.AIC, chains.aic),
    franken.technique(2),
    franken.technique(3),
    Technique("Nishio", forcing.NISHIO, forcing.nishio, per_digit=True),
    # Finned franken fish (franken.technique(k, finned=True), 7.9 / 8.1) are left out of the
    # ladder: measured on 400 puzzles SE rates 7+ and all 133 jigsaws, Nishio (one digit's
    # forcing chain, rated below them) always took the step first, so they were used 0 times
    # while costing 30 % of the logic's CPU. They stay available to callers who ask for them.
    Technique("cell/region forcing chain", multiple.MULTIPLE, multiple.multiple_forcing_chain),
    Technique("forcing chain", forcing.DYNAMIC, _DYNAMIC),
    Technique("forcing chain+", forcing.DYNAMIC_PLUS, _DYNAMIC_PLUS),
    Technique("nested forcing chain", forcing.NESTED, _NESTED),
)
TECHNIQUE_NAMES = tuple(t.name for t in TECHNIQUES)
UNIQUENESS: tuple[Technique, ...] = (
    Technique("unique rectangle", uniqueness.UNIQUE_RECTANGLE, uniqueness.unique_rectangle, False),
    Technique("BUG+1", uniqueness.BUG, uniqueness.bug_plus_one, False),
)


def techniques(*, uniqueness: bool = False) -> tuple[Technique, ...]:
    """The techniques in order of difficulty; uniqueness ones only when asked for (they
    assume the puzzle has a single solution)."""
    if not uniqueness:
        return TECHNIQUES
    return tuple(sorted((*TECHNIQUES, *UNIQUENESS), key=lambda t: t.difficulty))


def for_puzzle(
    puzzle: Puzzle, chosen: Sequence[Technique], timeout: float | None = None
) -> tuple[Technique, ...]:
    """`chosen` without the uniqueness techniques unless a search finds `puzzle` unique (within
    `timeout` seconds): they assume one solution, and on a 4x4 with three they 'solved' it."""
    if not any(t in UNIQUENESS for t in chosen):
        return tuple(chosen)
    found = get_backend("bitmask").solve(puzzle, limit=2, timeout=timeout)
    if found.status is Status.UNIQUE:
        return tuple(chosen)
    return tuple(t for t in chosen if t not in UNIQUENESS)


@dataclass
class LogicResult:
    """The steps taken and where they ended: 'solved', 'stuck' or 'contradiction'."""

    steps: list[Step]
    board: Board
    status: str
    reason: str | None = None  # why there is no solution, for 'contradiction'
    hardest: Step | None = field(default=None)

    @property
    def rating(self) -> float:
        """The hardest step's difficulty (0.0 when no step was needed)."""
        return self.hardest.difficulty if self.hardest else 0.0


def load_compiled_kernels() -> float | None:
    """Compile (a machine's first run) or load from the disk cache the Numba kernels the
    techniques call, before any puzzle's clock starts: compiling took 20-60 s of the first
    puzzle's --timeout, so `logic` on a fresh install said 'gave up (--timeout)' on an empty
    4x4. Every technique runs once on an empty 4x4, finding nothing but calling its kernels.
    Returns the seconds taken when that compiled anything (over a second), else None."""
    global _KERNELS_LOADED
    if _KERNELS_LOADED or importlib.util.find_spec("numba") is None:
        return None
    _KERNELS_LOADED = True
    began = time.perf_counter()
    empty = Board.from_puzzle(Puzzle.empty(Shape(2, 2)))
    solve_logically(empty, techniques(uniqueness=True))
    seconds = time.perf_counter() - began
    return seconds if seconds > 1 else None


_KERNELS_LOADED = False


def solve_logically(
    board: Board,
    techniques: Sequence[Technique] = TECHNIQUES,
    *,
    max_steps: int | None = None,
    timeout: float | None = None,
) -> LogicResult:
    """Step until solved, stuck, broken, `max_steps` steps (status 'stopped') or `timeout`
    seconds (status 'timeout': the search for the next step gave up)."""
    max_steps = checked_optional_int(max_steps, "max_steps")
    timeout = checked_timeout(timeout)
    if timeout is not None:
        board.deadline = time.perf_counter() + timeout
    steps: list[Step] = []
    hardest: Step | None = None
    # Per technique, the digits whose pencil marks changed since it last found nothing: a
    # per-digit technique searches only those (the others would fail as they did).
    pending = [(1 << board.n) - 1] * len(techniques)
    touched: list[int] | None = None  # the houses a step changed; None: look at every house
    while True:
        if (why := board.broken(touched)) is not None:
            return LogicResult(steps, board, "contradiction", why, hardest)
        if board.solved():
            if (why := board.unmet()) is not None:
                return LogicResult(steps, board, "contradiction", why, hardest)
            return LogicResult(steps, board, "solved", None, hardest)
        if max_steps is not None and len(steps) >= max_steps:
            return LogicResult(steps, board, "stopped", None, hardest)
        step = _next_step(board, techniques, pending)
        if step is None:
            status = "timeout" if board.expired() else "stuck"
            return LogicResult(steps, board, status, None, hardest)
        before = (board.cands.copy(), board.values.copy())
        step.apply(board)
        if (board.cands, board.values) == before:
            raise BackendBugError(f"logic step changed nothing: {step.text}")
        changed = _changed_digits(board, *before, step)
        # The board was not broken before the step: only the houses it changed can be now.
        touched = _touched_houses(board, *before)
        pending = [digits | changed for digits in pending]
        steps.append(step)
        if hardest is None or step.difficulty > hardest.difficulty:
            hardest = step


def _next_step(board: Board, techniques: Sequence[Technique], pending: list[int]) -> Step | None:
    """The first step of the easiest technique that finds one; clears `pending` for each
    technique that finds nothing (unless the time ran out during its search)."""
    full = (1 << board.n) - 1
    for index, technique in enumerate(techniques):
        if board.expired():
            return None  # some searches cannot look at the clock (a compiled one: 9 s on 25x25)
        if not technique.per_digit:
            step = technique.find(board)
        elif digits := pending[index]:
            step = technique.find(board if digits == full else _digit_view(board, digits))
        else:
            continue
        if step is not None:
            return step
        if not board.expired():
            pending[index] = 0
    return None


def _digit_view(board: Board, digits: int) -> Board:
    """The board with the other digits' candidates hidden in open cells (placed cells stay):
    a per-digit search sees the kept digits exactly as they are and nothing of the rest."""
    cands = [m if v else m & digits for m, v in zip(board.cands, board.values, strict=True)]
    return Board(board.layout, cands, board.values, board.deadline)


def _touched_houses(board: Board, cands: list[int], values: list[int]) -> list[int]:
    """The houses holding a cell whose candidates or digit differ between then and now, in
    house order."""
    size = range(len(cands))
    cells = chain(
        compress(size, map(ne, cands, board.cands)), compress(size, map(ne, values, board.values))
    )
    houses = 0
    house_bits = board.layout.house_bits
    for cell in cells:
        houses |= house_bits[cell]
    out = []
    while houses:
        low = houses & -houses
        houses ^= low
        out.append(low.bit_length() - 1)
    return out


def _changed_digits(board: Board, cands: list[int], values: list[int], step: Step) -> int:
    """Mask of the digits whose candidates or placements differ between then and now (only
    the step's placements change placed digits)."""
    changed = reduce(or_, map(xor, cands, board.cands), 0)
    for cell, _digit in step.placements:
        if values[cell] != board.values[cell]:
            new = board.values[cell]
            changed |= 1 << (new - 1) if new else 1 << (values[cell] - 1)
    return changed
