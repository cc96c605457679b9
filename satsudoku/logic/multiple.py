"""Static multiple forcing chains (Sudoku Explainer's cell and region forcing chains, 8.0+):
every candidate of a cell, or every place of a digit in a house, leads by chains of singles
to the same conclusion, which is therefore true.

*Static*: a chain uses only the links the pencil marks show now: a placed candidate rules out
its cell's other digits and its peers' copies; a ruled-out candidate makes the other digit of a
bivalue cell, or the other place of a digit with two places in a house, true. Dynamic chains
(forcing.py) also use the links the chain itself creates, and rate higher.
"""

from __future__ import annotations

from typing import Protocol

from satsudoku.logic.state import Board, digits_of

try:  # the compiled search needs Numba (the `fast` extra); without it, the closures below run
    from satsudoku.logic import compiled_multiple as compiled
except ImportError:
    compiled = None  # type: ignore[assignment]
from satsudoku.logic.step import Step, length_bonus, removal_text

MULTIPLE = 8.0  # SE's base figure for cell/region forcing chains, plus its length modifier
Node = tuple[int, int, bool]  # (cell, digit, on): the candidate is true (on) or false
_KEPT_ENTRIES = 1 << 20  # closure nodes the Python search remembers (~100 bytes each)


_NONE: list[int] = []


class Links(Protocol):
    """Each node's links by node number: `_links`' lists, or the compiled search's arrays."""

    def __getitem__(self, node: int, /) -> list[int]: ...


def _links(board: Board) -> list[list[int]]:
    """The static implications of a board, per node (a candidate `cell * n + digit - 1`, times
    two, plus one when it is true): the nodes it forces. A true candidate makes its cell's other
    digits and its peers' copies false; a false one makes the other digit of a bivalue cell, or
    the other place of a digit with two places in a house, true."""
    layout, cands, values, n = board.layout, board.cands, board.values, board.n
    # Only open candidates have links (both of their nodes get a list below): the others share
    # one empty list, never appended to.
    nexts: list[list[int]] = [_NONE] * (2 * n * len(cands))
    for cell in board.open_cells():
        digits = digits_of(cands[cell])
        pair = len(digits) == 2
        # The open peers in the order the layout's set lists them (breadth-first searches meet
        # links in this order; ties between equally short chains depend on it).
        open_peers = [(cands[p], 2 * p * n) for p in layout.peers[cell] if not values[p]]
        for digit in digits:
            bit = 1 << (digit - 1)
            node = 2 * (cell * n + digit - 1)
            others = [2 * (cell * n + d - 1) for d in digits if d != digit]
            shift = 2 * (digit - 1)
            peers = [base + shift for mask, base in open_peers if mask & bit]
            nexts[node + 1] = others + peers
            nexts[node] = [o + 1 for o in others] if pair else []
    for house in layout.houses:
        for digit in range(1, n + 1):
            places = board.positions(house, digit)
            if len(places) == 2:
                a, b = (2 * (c * n + digit - 1) for c in places)
                nexts[a].append(b + 1)
                nexts[b].append(a + 1)
    return nexts


def _closure(nexts: Links, start: int) -> dict[int, int]:
    """Every node the assumption `start` (a candidate) is true forces, with the chain length
    to reach it, in the order a breadth-first search meets them."""
    first = 2 * start + 1
    depth = {first: 0}
    queue = [first]
    for node in queue:  # the list grows while it is walked: a FIFO queue
        after = depth[node] + 1
        for child in nexts[node]:
            if child not in depth:
                depth[child] = after
                queue.append(child)
    return depth


def multiple_forcing_chain(board: Board) -> Step | None:
    """The cell or region forcing chain with the shortest chains in total (ties: the first
    source in grid order, then the first node as the set of shared tuples lists them)."""
    if board.n > 25:
        return None  # one closure per candidate: the same bound as the dynamic chains
    n = board.n
    if compiled is not None:
        return _compiled_step(board)
    nexts = _links(board)
    closures: dict[int, dict[int, int]] = {}
    kept = [0]  # entries in `closures`

    def closure(start: int) -> dict[int, int]:
        """Remembered while the closures kept hold at most _KEPT_ENTRIES nodes (each
        candidate is in up to four sources), else made again: all of them at once grow as n^6."""
        found = closures.get(start)
        if found is None:
            found = _closure(nexts, start)
            if kept[0] + len(found) <= _KEPT_ENTRIES:
                closures[start] = found
                kept[0] += len(found)
        return found

    layout = board.layout
    sources: list[Source] = []
    for cell in board.open_cells():
        branches = [(cell, d) for d in digits_of(board.cands[cell])]
        sources.append(("cell", layout.name(cell), branches))
    full = (1 << n) - 1
    for house in layout.houses:
        for digit in digits_of(~board.placed_in(house) & full):
            places = board.positions(house, digit)
            if len(places) >= 2:
                sources.append(("region", f"{digit} in {house.name}", [(c, digit) for c in places]))
    best: tuple[int, int] | None = None  # (length, index into sources)
    for index, (_kind, _where, branches) in enumerate(sources):
        if board.expired():
            return None
        if len(branches) < 2:
            continue
        outcomes = [closure(c * n + d - 1) for c, d in branches]
        common = outcomes[0].keys() & outcomes[1].keys()
        for other in outcomes[2:]:
            common &= other.keys()
        starts = {c * n + d - 1 for c, d in branches}
        for node in common:
            if node >> 1 in starts:
                continue  # a source candidate: true in every branch means none is consistent
            # Every node is a candidate of an open cell, so either conclusion changes the marks.
            length = sum(o[node] for o in outcomes) + len(outcomes)
            if best is None or length < best[0]:
                best = (length, index)
    return None if best is None else _best_step(board, nexts, sources, *best)


Source = tuple[str, str, list[tuple[int, int]]]  # (kind, where, branches)


def _best_step(board: Board, nexts: Links, sources: list[Source], length: int, index: int) -> Step:
    """The step of source `index`, whose shortest shared node has chains of `length`."""
    n = board.n
    kind, where, branches = sources[index]
    outcomes = [_closure(nexts, c * n + d - 1) for c, d in branches]
    return _step(board, length, kind, where, branches, _first_node(outcomes, branches, length, n))


def _compiled_step(board: Board) -> Step | None:
    """The search in compiled form (compiled_multiple): the links, sources and closures built
    and compared there; the winning source's step worded here from the same links."""
    assert compiled is not None
    layout = board.layout
    length, kind, where, digit, nexts = compiled.search(
        board.cands, board.values, layout, board.expired
    )
    if nexts is None:
        return None
    source: Source
    if kind == 0:
        source = ("cell", layout.name(where), [(where, d) for d in digits_of(board.cands[where])])
    else:
        house = layout.houses[where]
        places = [(c, digit) for c in board.positions(house, digit)]
        source = ("region", f"{digit} in {house.name}", places)
    return _best_step(board, nexts, [source], length, 0)


def _first_node(
    outcomes: list[dict[int, int]], branches: list[tuple[int, int]], length: int, n: int
) -> Node:
    """Among the nodes every branch reaches with chains of `length` in total, the one the
    shared set of (cell, digit, on) tuples lists first (the order the ratings were made with,
    kept so that ties resolve as they always did)."""
    named = [{_node(node, n): d for node, d in o.items()} for o in outcomes]
    common = set(named[0]).intersection(*named[1:])
    for node in common:
        if node[:2] in branches:
            continue
        if sum(o[node] + 1 for o in named) == length:
            return node
    raise AssertionError("the shortest node is shared by every branch")


def _node(node: int, n: int) -> Node:
    cell, digit = divmod(node >> 1, n)
    return cell, digit + 1, bool(node & 1)


def _step(
    board: Board,
    length: int,
    kind: str,
    where: str,
    branches: list[tuple[int, int]],
    node: Node,
) -> Step:
    layout = board.layout
    cell, digit, is_on = node
    name = f"{kind} forcing chain"
    if kind == "cell":
        choices = f"{where} is " + " or ".join(str(d) for _, d in branches)
    else:
        choices = f"{where} is at " + " or ".join(layout.name(c) for c, _ in branches)
    level = round(MULTIPLE + length_bonus(length), 1)
    if is_on:
        text = f"{name}: {choices}; each way, singles lead to {layout.name(cell)} = {digit}"
        return Step(name, level, text, placements=((cell, digit),))
    gone = ((cell, digit),)
    text = (
        f"{name}: {choices}; each way, singles rule out {digit} at {layout.name(cell)}: "
        f"{removal_text(layout, gone)}"
    )
    return Step(name, level, text, eliminations=gone)
