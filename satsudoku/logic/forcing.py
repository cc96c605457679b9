"""Forcing chains, the last logical resort: assume a candidate and follow the singles it forces.

A contradiction removes the assumption; a conclusion shared by every candidate of a cell (or
every place of a digit in a house) is true. Sudoku Explainer calls these dynamic forcing chains
(8.8+); with pointing and subsets inside the propagation, dynamic forcing chains "+" (9.1+);
with a forcing chain nested inside, nested forcing chains (9.9+). Each adds SE's length
modifier over the number of deductions the chain makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from satsudoku.logic.state import WIDEST, Board, Layout, digits_of

try:  # the compiled propagation needs Numba (the `fast` extra); without it, Propagation runs
    import numpy as np

    from satsudoku.logic import compiled
except ImportError:
    compiled = None  # type: ignore[assignment]
try:  # Nishio's compiled search needs Numba too
    from satsudoku.logic import compiled_easy
except ImportError:
    compiled_easy = None  # type: ignore[assignment]
from satsudoku.logic.step import Finder, Step, length_bonus, removal_text

DYNAMIC, DYNAMIC_PLUS, NESTED = 8.8, 9.1, 9.9
# A forcing step keeps one board per candidate (n³ boards of n² cells): 25×25 is ~10 million
# entries; past it the memory, not only the time, would grow out of bounds.
MAX_FORCING_SIZE = 25
Helper = Callable[[Board], "Step | None"]


class Propagation:
    """Naked and hidden singles (then helpers) followed from a board until nothing changes,
    in rounds that can stop at a deduction budget and resume later exactly where they were.

    Rounds scan the cells, then the houses, in order, as a person sweeping the grid would, and
    look only at the cells and houses changed since they last did: the others would find what
    they found then, nothing. `changed` names the cells altered since the board last had no
    single and no clash (None: unknown, everything is looked at).
    """

    __slots__ = ("board", "helpers", "made", "why", "finished", "_cells", "_houses")

    def __init__(
        self, board: Board, helpers: Sequence[Helper] = (), changed: Iterable[int] | None = None
    ) -> None:
        self.board, self.helpers = board, helpers
        self.made = 0  # deductions so far
        self.why: str | None = None  # why the board broke, once it has
        self.finished = False  # broken, or nothing left to deduce
        house_bits = board.layout.house_bits
        # Bit sets of the cells and houses to look at again (bit i: cell or house i).
        if changed is None:
            self._cells = (1 << len(board.cands)) - 1
            self._houses = (1 << len(board.layout.houses)) - 1
        else:
            self._cells = self._houses = 0
            for cell in changed:
                self._cells |= 1 << cell
                self._houses |= house_bits[cell]

    def run(self, budget: int = 10_000) -> str | None:
        """Go on until finished or, at the start of a round, `budget` deductions are made;
        returns why the board broke, or None."""
        board = self.board
        layout, cands, values = board.layout, board.cands, board.values
        full = (1 << board.n) - 1
        peers, house_bits = layout.peer_tuples, layout.house_bits
        house_cells = layout.house_cells
        cell_todo, house_todo, made = self._cells, self._houses, self.made

        def place(cell: int, bit: int) -> None:
            """Board.place, noting the cells and houses it changes."""
            nonlocal cell_todo, house_todo
            values[cell] = bit.bit_length()
            cands[cell] &= bit
            house_todo |= house_bits[cell]
            for peer in peers[cell]:
                mask = cands[peer]
                if mask & bit:
                    cands[peer] = mask ^ bit
                    cell_todo |= 1 << peer
                    house_todo |= house_bits[peer]

        def broken(why: str) -> str:
            self.made, self.why, self.finished = made, why, True
            return why

        while not self.finished and made < budget:
            progress = False
            cell = 0
            while rest := cell_todo >> cell:  # ascending; cells marked meanwhile join in
                cell += (rest & -rest).bit_length() - 1
                cell_todo ^= 1 << cell
                mask = cands[cell]
                if not mask:
                    return broken(f"{layout.name(cell)} has no candidate left")
                if not values[cell] and not mask & (mask - 1):
                    place(cell, mask)
                    made += 1
                    progress = True
                cell += 1
            index = 0
            while rest := house_todo >> index:
                index += (rest & -rest).bit_length() - 1
                house_todo ^= 1 << index
                cells = house_cells[index]
                once = twice = placed = 0
                for cell in cells:
                    mask = cands[cell]
                    if values[cell]:
                        if placed & mask:
                            name = layout.houses[index].name
                            return broken(f"{name} holds {values[cell]} twice")
                        placed |= mask
                        continue
                    twice |= once & mask
                    once |= mask
                if (once | placed) != full:
                    missing = (full & ~(once | placed)).bit_length()
                    return broken(f"{layout.houses[index].name} has no place for {missing}")
                hidden = once & ~twice & ~placed
                while hidden:
                    low = hidden & -hidden
                    hidden ^= low
                    for cell in cells:
                        if not values[cell] and cands[cell] & low:
                            place(cell, low)
                            made += 1
                            progress = True
                            break
                index += 1
            if not progress:
                for helper in self.helpers:
                    before = cands.copy(), values.copy()
                    step = helper(board)
                    if step is not None:
                        step.apply(board)
                        made += len(step.eliminations) + len(step.placements)
                        progress = True
                        for cell, (old, new) in enumerate(zip(before[0], cands, strict=True)):
                            if old != new or before[1][cell] != values[cell]:
                                cell_todo |= 1 << cell
                                house_todo |= house_bits[cell]
                        break
            # Without progress, the last round checked every cell and house: nothing is broken.
            self.finished = not progress
        self._cells, self._houses, self.made = cell_todo, house_todo, made
        return None


def propagate(
    board: Board,
    helpers: Sequence[Helper] = (),
    budget: int = 10_000,
    changed: Iterable[int] | None = None,
) -> tuple[int, str | None]:
    """Apply naked and hidden singles (then `helpers`) until nothing changes or `budget`
    deductions are made; returns the number made and why the board broke, or None."""
    run = Propagation(board, helpers, changed)
    why = run.run(budget)
    return run.made, why


def assume(board: Board, cell: int, digit: int) -> tuple[Board, list[int]]:
    """A copy of `board` with `digit` placed in `cell`, and the cells that placing changed."""
    trial = board.copy()
    bit = 1 << (digit - 1)
    changed = [cell, *(p for p in board.layout.peer_tuples[cell] if board.cands[p] & bit)]
    trial.place(cell, digit)
    return trial, changed


def settled(board: Board) -> bool:
    """True when the board holds no single and no clash: propagation finds nothing."""
    return propagate(board.copy(), budget=1) == (0, None)


# Every propagation is followed up to each budget in turn before any goes further: the
# shortest contradiction (9-20 deductions on top1465) is then found before the longer
# propagations are followed to their end, and those stop there.
BUDGETS = (6, 12, 24, 10_000)
Outcome = tuple[Board, int, "str | None"]  # board after, deductions (the assumption too), why


def _outcomes(
    board: Board, helpers: Sequence[Helper], cells_only: bool, *, every: bool = False
) -> tuple[Mapping[tuple[int, int], Outcome], tuple[int, int, int, str] | None]:
    """Every open candidate's propagation, and the shortest contradiction (the first in grid
    order among the shortest); outcomes are complete only when there is no contradiction (the
    compiled path leaves them out then, unless `every`)."""
    branches = [
        (cell, digit)
        for cell in board.open_cells()
        if not cells_only or board.cands[cell].bit_count() == 2
        for digit in digits_of(board.cands[cell])
    ]
    quiet = settled(board)
    if not helpers and compiled is not None:
        return _compiled_outcomes(board, branches, quiet, every)
    runs = []
    for position, (cell, digit) in enumerate(branches):
        if position & 31 == 0 and board.expired():
            return {}, None  # an empty 25x25's 15,625 assumptions take 3.6 s before any run
        trial, changed = assume(board, cell, digit)
        runs.append(Propagation(trial, helpers, changed if quiet else None))
    best: tuple[int, int] | None = None  # (deductions, position) of the shortest contradiction
    # A run stopped at budget b has made b deductions or more, so a contradiction it may still
    # meet is longer than b; one found has the length it has without any budget. Hence once
    # the shortest found is within the budget just used, no stopped run can match it.
    for limit in BUDGETS:
        for position, run in enumerate(runs):
            if run.finished:
                continue
            if position & 31 == 0 and board.expired():
                return {}, None
            # Budget b lets a run find contradictions of up to b deductions, the assumption
            # counted (b - 1 in its own count): ties with the shortest are found too.
            run.run(limit if best is None else min(limit, best[0]))
            if run.why is not None and (best is None or (run.made + 1, position) < best):
                best = (run.made + 1, position)
        if best is not None and best[0] <= limit:
            break
    out = {b: (run.board, run.made + 1, run.why) for b, run in zip(branches, runs, strict=True)}
    if best is None:
        return out, None
    cell, digit = branches[best[1]]
    return out, (best[0], cell, digit, out[(cell, digit)][2] or "")


def _compiled_outcomes(
    board: Board, branches: list[tuple[int, int]], quiet: bool, every: bool
) -> tuple[Mapping[tuple[int, int], Outcome], tuple[int, int, int, str] | None]:
    """`_outcomes` without helpers, every propagation of a budget pass in one compiled call
    (satsudoku/logic/compiled.py: the same sweeps, deductions and reasons)."""
    assert compiled is not None
    layout = board.layout
    tables = compiled.tables(layout)
    size, houses = len(branches), len(layout.houses)
    cands = np.tile(np.array(board.cands, dtype=np.int64), (size, 1))
    values = np.tile(np.array(board.values, dtype=np.int64), (size, 1))
    st = (
        cands,
        values,
        np.zeros(cands.shape, dtype=np.uint8),
        np.zeros((size, houses), dtype=np.uint8),
    )
    cells = np.array([c for c, _ in branches], dtype=np.int64)
    digits = np.array([d for _, d in branches], dtype=np.int64)
    compiled.start(cells, digits, quiet, st, tables)
    made = np.zeros(size, dtype=np.int64)
    finished = np.zeros(size, dtype=np.bool_)
    why = np.zeros((size, 3), dtype=np.int64)
    best = np.array([-1, -1], dtype=np.int64)
    for limit in BUDGETS:
        for first in range(0, size, 32):  # the clock is read every 32 propagations
            if board.expired():
                return {}, None
            stop = min(size, first + 32)
            compiled.run_pass(first, stop, limit, best, st, tables, made, finished, why)
        if best[0] >= 0 and best[0] <= limit:
            break
    reasons = why.tolist()

    def reason(r: int) -> str | None:
        kind, where, digit = reasons[r]
        if kind == compiled.EMPTY_CELL:
            return f"{layout.name(where)} has no candidate left"
        if kind == compiled.TWICE:
            return f"{layout.houses[where].name} holds {digit} twice"
        if kind == compiled.NO_PLACE:
            return f"{layout.houses[where].name} has no place for {digit}"
        return None

    if best[0] >= 0 and not every:  # the contradiction is the step: no board is needed
        cell, digit = branches[int(best[1])]
        return {}, (int(best[0]), cell, digit, reason(int(best[1])) or "")
    out = _RowOutcomes(board, branches, cands, values, made.tolist(), reason)
    if best[0] < 0:
        return out, None
    cell, digit = branches[int(best[1])]
    return out, (int(best[0]), cell, digit, out[(cell, digit)][2] or "")


class _RowOutcomes(Mapping[tuple[int, int], Outcome]):
    """The compiled pass's outcomes, one board per branch made when it is looked up: every
    board at once was n^5 Python ints (an empty 25x25: 9.8 million, +536 MB for `logic`);
    the finder looks at a cell's or a house's few branches at a time."""

    def __init__(
        self,
        board: Board,
        branches: list[tuple[int, int]],
        cands: Any,
        values: Any,
        made: list[int],
        reason: Callable[[int], str | None],
    ) -> None:
        self.board = board
        self.cand_rows, self.value_rows = cands, values  # one row per branch (numpy)
        self.made, self.why = made, reason
        self.rows = {branch: r for r, branch in enumerate(branches)}

    def __getitem__(self, branch: tuple[int, int]) -> Outcome:
        r = self.rows[branch]
        cands, values = self.cand_rows[r].tolist(), self.value_rows[r].tolist()
        trial = Board(self.board.layout, cands, values, self.board.deadline)
        return trial, self.made[r] + 1, self.why(r)

    def __contains__(self, branch: object) -> bool:
        return branch in self.rows

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def forcing_finder(
    base: float, title: str, helpers: Sequence[Helper], *, cells_only: bool = False
) -> Finder:
    """A finder of the easiest contradiction or cell/house forcing chain at this level."""

    def find(board: Board) -> Step | None:
        layout = board.layout
        if board.n > MAX_FORCING_SIZE:
            return None
        outcomes, shortest = _outcomes(board, helpers, cells_only)
        if board.expired():
            return None  # the outcomes are partial: nothing can be concluded from them
        if shortest is not None:
            made, cell, digit, why = shortest
            gone = ((cell, digit),)
            text = (
                f"{title} (contradiction): if {layout.name(cell)} were {digit}, "
                f"{made} deductions later {why}: {removal_text(layout, gone)}"
            )
            level = round(base + length_bonus(made), 1)
            return Step(f"{title} (contradiction)", level, text, eliminations=gone)
        # No contradiction, so every propagation ran to its end: look for agreement between
        # every candidate of a cell, or every place of a digit in a house.
        best: Step | None = None

        def offer(step: Step) -> None:
            nonlocal best
            if best is None or step.difficulty < best.difficulty:
                best = step

        for cell in board.open_cells():
            branches = [(cell, d) for d in digits_of(board.cands[cell])]
            if all(b in outcomes for b in branches):
                where = layout.name(cell)
                _offer_common(board, branches, outcomes, where, base, title, offer)
        if not cells_only:
            full = (1 << board.n) - 1
            for house in layout.houses:
                for digit in digits_of(~board.placed_in(house) & full):
                    places = board.positions(house, digit)
                    if 2 <= len(places) <= 3:
                        branches = [(c, digit) for c in places]
                        where = f"{digit} in {house.name}"
                        _offer_common(board, branches, outcomes, where, base, title, offer)
        return best

    find.__doc__ = f"The easiest {title}."
    return find


def _offer_common(
    board: Board,
    branches: list[tuple[int, int]],
    outcomes: Mapping[tuple[int, int], tuple[Board, int, str | None]],
    where: str,
    base: float,
    title: str,
    offer: Callable[[Step], None],
) -> None:
    """Offer the placements or eliminations every branch leads to (none may be broken)."""
    results = [outcomes[b] for b in branches]
    if any(why is not None for _, _, why in results):
        return
    boards = [trial for trial, _, _ in results]
    layout = board.layout
    for cell in board.open_cells():
        digit = boards[0].values[cell]
        if digit and all(t.values[cell] == digit for t in boards[1:]):
            made = max(m for _, m, _ in results)
            text = f"{title} ({where}): every choice leads to {layout.name(cell)} = {digit}"
            level = round(base + length_bonus(made), 1)
            offer(Step(f"{title} (forcing)", level, text, placements=((cell, digit),)))
            return
    kept = [0] * len(board.cands)  # candidates some branch keeps; the others go in all
    for trial in boards:
        for i, mask in enumerate(trial.cands):
            kept[i] |= mask
    gone = tuple((c, d) for c in board.open_cells() for d in digits_of(board.cands[c] & ~kept[c]))
    if gone:
        made = max(m for _, m, _ in results)
        text = f"{title} ({where}): every choice agrees; {removal_text(layout, gone)}"
        level = round(base + length_bonus(made), 1)
        offer(Step(f"{title} (forcing)", level, text, eliminations=gone))


NISHIO = 7.6


def nishio(board: Board) -> Step | None:
    """A contradiction on one digit alone: put `d` in a cell, strike it from the peers, place
    `d` wherever a house has one place left; a house with no place for `d` removes the
    assumption (SE's Nishio forcing chain, 7.6+). The shortest such chain is chosen."""
    if compiled_easy is not None and board.n <= WIDEST:
        best = _compiled_nishio(board)
    else:
        best = _shortest_nishio(board)
    if best is None:
        return None
    layout = board.layout
    made, cell, digit, why = best
    gone = ((cell, digit),)
    text = (
        f"Nishio on {digit}: if {layout.name(cell)} were {digit}, {made} placements of "
        f"{digit} later {why}: {removal_text(layout, gone)}"
    )
    return Step("Nishio", round(NISHIO + length_bonus(made), 1), text, eliminations=gone)


def _shortest_nishio(board: Board) -> tuple[int, int, int, str] | None:
    """(placements, cell, digit, why) of the shortest one-digit contradiction, the first
    met among equals (digits, then cells, ascending)."""
    layout, n = board.layout, board.n
    cands, values = board.cands, board.values
    best: tuple[int, int, int, str] | None = None
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        start = [c for c, v in enumerate(values) if not v and cands[c] & bit]
        if board.expired():
            return None
        # Bit sets of the cells (bit i: cell i) where `digit` may go, and where it is placed.
        places = sum(1 << c for c in start)
        done = sum(1 << c for c, v in enumerate(values) if v == digit)
        for cell in start:
            budget = best[0] if best else n * n
            made, why = _one_digit(layout, digit, cell, budget, places, done)
            if why is not None and (best is None or made < best[0]):
                best = (made, cell, digit, why)
    return best


def _compiled_nishio(board: Board) -> tuple[int, int, int, str] | None:
    """`nishio`'s search in compiled code (compiled_easy._nishio): the same chain, worded
    here; the clock is read once, before."""
    if board.expired():
        return None
    found = compiled_easy.nishio(board.cands, board.values, board.layout)
    if found is None:
        return None
    made, cell, digit, kind, where = found
    layout = board.layout
    if kind == 1:
        return made, cell, digit, f"{layout.name(where)} cannot hold {digit}"
    return made, cell, digit, f"{layout.houses[where].name} has no place for {digit}"


def _one_digit(
    layout: Layout, digit: int, cell: int, budget: int, places: int, done: int
) -> tuple[int, str | None]:
    """Follow `digit` placed in `cell` through hidden singles of that digit only; `places`
    and `done` are bit sets of the cells where it may go and where it is placed."""
    peer_masks, house_masks = layout.peer_masks, layout.house_masks
    todo = [cell]
    made = 0
    while todo:
        here = todo.pop()
        bit = 1 << here
        if done & bit:
            continue
        if not places & bit:
            return made, f"{layout.name(here)} cannot hold {digit}"
        done |= bit
        made += 1
        if made > budget:
            return made, None
        places &= ~(peer_masks[here] | bit)
        for index, house in enumerate(house_masks):
            if done & house:
                continue
            left = places & house
            if not left:
                return made, f"{layout.houses[index].name} has no place for {digit}"
            if not left & (left - 1):
                todo.append(left.bit_length() - 1)
    return made, None
