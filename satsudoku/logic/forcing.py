"""Forcing chains, the last logical resort: assume a candidate and follow the singles it forces.

A contradiction removes the assumption; a conclusion shared by every candidate of a cell (or
every place of a digit in a house) is true. Sudoku Explainer calls these dynamic forcing chains
(8.8+); with pointing and subsets inside the propagation, dynamic forcing chains "+" (9.1+);
with a forcing chain nested inside, nested forcing chains (9.9+). Each adds SE's length
modifier over the number of deductions the chain makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from satsudoku.logic.state import Board, digits_of
from satsudoku.logic.step import Finder, Step, length_bonus, removal_text

DYNAMIC, DYNAMIC_PLUS, NESTED = 8.8, 9.1, 9.9
# A forcing step keeps one board per candidate (n³ boards of n² cells): 25×25 is ~10 million
# entries; past it the memory, not only the time, would grow out of bounds.
MAX_FORCING_SIZE = 25
Helper = Callable[[Board], "Step | None"]


def propagate(
    board: Board,
    helpers: Sequence[Helper] = (),
    budget: int = 10_000,
    changed: Iterable[int] | None = None,
) -> tuple[int, str | None]:
    """Apply naked and hidden singles (then `helpers`) until nothing changes.

    Rounds scan the cells, then the houses, in order, as a person sweeping the grid would;
    `changed` names the cells altered since the board last had no single and no clash (None:
    unknown), so that a round looks only at cells and houses that changed since it last did:
    the others would find what they found then, nothing. Returns the number of deductions
    made and why the board broke, or None if it did not.
    """
    layout, cands, values = board.layout, board.cands, board.values
    full = (1 << board.n) - 1
    peers, houses_of, house_cells = layout.peer_tuples, layout.houses_of, layout.house_cells
    if changed is None:
        cell_dirty = [True] * len(cands)
        house_dirty = [True] * len(house_cells)
    else:
        cell_dirty = [False] * len(cands)
        house_dirty = [False] * len(house_cells)
        for cell in changed:
            cell_dirty[cell] = True
            for h in houses_of[cell]:
                house_dirty[h] = True

    def place(cell: int, bit: int) -> None:
        """Board.place, marking what changes as to be looked at again."""
        values[cell] = bit.bit_length()
        cands[cell] &= bit
        for h in houses_of[cell]:
            house_dirty[h] = True
        for peer in peers[cell]:
            mask = cands[peer]
            if mask & bit:
                cands[peer] = mask ^ bit
                cell_dirty[peer] = True
                for h in houses_of[peer]:
                    house_dirty[h] = True

    made = 0
    while made < budget:
        progress = False
        for cell, dirty in enumerate(cell_dirty):
            if not dirty:
                continue
            cell_dirty[cell] = False
            mask = cands[cell]
            if not mask:
                return made, f"{layout.name(cell)} has no candidate left"
            if not values[cell] and not mask & (mask - 1):
                place(cell, mask)
                made += 1
                progress = True
        for index, cells in enumerate(house_cells):
            if not house_dirty[index]:
                continue
            house_dirty[index] = False
            once = twice = placed = 0
            for cell in cells:
                mask = cands[cell]
                if values[cell]:
                    if placed & mask:
                        return made, f"{layout.houses[index].name} holds {values[cell]} twice"
                    placed |= mask
                    continue
                twice |= once & mask
                once |= mask
            if (once | placed) != full:
                missing = (full & ~(once | placed)).bit_length()
                return made, f"{layout.houses[index].name} has no place for {missing}"
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
        if progress:
            continue
        for helper in helpers:
            before = cands.copy(), values.copy()
            step = helper(board)
            if step is not None:
                step.apply(board)
                made += len(step.eliminations) + len(step.placements)
                progress = True
                for cell, (old, new) in enumerate(zip(before[0], cands, strict=True)):
                    if old != new or before[1][cell] != values[cell]:
                        cell_dirty[cell] = True
                        for h in houses_of[cell]:
                            house_dirty[h] = True
                break
        if not progress:  # the last round checked every cell and house: nothing is broken
            return made, None
    return made, None


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


def _outcomes(
    board: Board, helpers: Sequence[Helper], cells_only: bool
) -> tuple[dict[tuple[int, int], tuple[Board, int, str | None]], tuple[int, int, int, str] | None]:
    """Every open candidate's propagation (board after, deductions, contradiction), and the
    shortest contradiction: once one is known, longer propagations are cut short."""
    out = {}
    shortest: tuple[int, int, int, str] | None = None  # (deductions, cell, digit, why)
    quiet = settled(board)
    for cell in board.open_cells():
        if board.expired():
            return {}, None
        mask = board.cands[cell]
        if cells_only and mask.bit_count() != 2:
            continue
        for digit in digits_of(mask):
            trial, changed = assume(board, cell, digit)
            budget = shortest[0] if shortest else 10_000
            made, why = propagate(trial, helpers, budget, changed if quiet else None)
            made += 1  # the assumption itself
            if why is not None and (shortest is None or made < shortest[0]):
                shortest = (made, cell, digit, why)
            out[(cell, digit)] = (trial, made, why)
    return out, shortest


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
    outcomes: dict[tuple[int, int], tuple[Board, int, str | None]],
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
    layout, n = board.layout, board.n
    best: tuple[int, int, int, str] | None = None
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        start = [c for c in board.open_cells() if board.cands[c] & bit]
        if board.expired():
            return None
        for cell in start:
            made, why = _one_digit(board, digit, cell, best[0] if best else n * n)
            if why is not None and (best is None or made < best[0]):
                best = (made, cell, digit, why)
    if best is None:
        return None
    made, cell, digit, why = best
    gone = ((cell, digit),)
    text = (
        f"Nishio on {digit}: if {layout.name(cell)} were {digit}, {made} placements of "
        f"{digit} later {why}: {removal_text(layout, gone)}"
    )
    return Step("Nishio", round(NISHIO + length_bonus(made), 1), text, eliminations=gone)


def _one_digit(board: Board, digit: int, cell: int, budget: int) -> tuple[int, str | None]:
    """Follow `digit` placed in `cell` through hidden singles of that digit only."""
    layout, bit = board.layout, 1 << (digit - 1)
    places = {c for c in board.open_cells() if board.cands[c] & bit}
    done = {c for c, v in enumerate(board.values) if v == digit}
    todo = [cell]
    made = 0
    while todo:
        here = todo.pop()
        if here in done:
            continue
        if here not in places:
            return made, f"{layout.name(here)} cannot hold {digit}"
        done.add(here)
        made += 1
        if made > budget:
            return made, None
        places -= layout.peers[here]
        places.discard(here)
        for house in layout.houses:
            if done.intersection(house.cells):
                continue
            left = places.intersection(house.cells)
            if not left:
                return made, f"{house.name} has no place for {digit}"
            if len(left) == 1:
                todo.extend(left)
    return made, None
