"""Static multiple forcing chains (Sudoku Explainer's cell and region forcing chains, 8.0+):
every candidate of a cell, or every place of a digit in a house, leads by chains of singles
to the same conclusion, which is therefore true.

*Static*: a chain uses only the links the pencil marks show now: a placed candidate rules out
its cell's other digits and its peers' copies; a ruled-out candidate makes the other digit of a
bivalue cell, or the other place of a digit with two places in a house, true. Dynamic chains
(forcing.py) also use the links the chain itself creates, and rate higher.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from satsudoku.logic.state import Board, digits_of
from satsudoku.logic.step import Step, length_bonus, removal_text

MULTIPLE = 8.0  # SE's base figure for cell/region forcing chains, plus its length modifier
Node = tuple[int, int, bool]  # (cell, digit, on): the candidate is true (on) or false


@dataclass(frozen=True)
class _Links:
    """The static implications of a board: what each candidate's truth or falsity forces."""

    on: dict[tuple[int, int], list[tuple[int, int]]]  # true -> these false
    off: dict[tuple[int, int], list[tuple[int, int]]]  # false -> these true


def _links(board: Board) -> _Links:
    layout, cands = board.layout, board.cands
    on: dict[tuple[int, int], list[tuple[int, int]]] = {}
    off: dict[tuple[int, int], list[tuple[int, int]]] = {}
    open_cells = list(board.open_cells())
    for cell in open_cells:
        mask = cands[cell]
        digits = digits_of(mask)
        for digit in digits:
            bit = 1 << (digit - 1)
            gone = [(cell, d) for d in digits if d != digit]
            gone += [(p, digit) for p in layout.peers[cell] if cands[p] & bit and p != cell]
            on[(cell, digit)] = [(c, d) for c, d in gone if not board.values[c]]
            off[(cell, digit)] = (
                [(cell, d) for d in digits if d != digit] if len(digits) == 2 else []
            )
    for house in layout.houses:
        for digit in range(1, board.n + 1):
            places = board.positions(house, digit)
            if len(places) == 2:
                a, b = places
                off[(a, digit)].append((b, digit))
                off[(b, digit)].append((a, digit))
    return _Links(on, off)


def _closure(links: _Links, start: tuple[int, int]) -> dict[Node, int]:
    """Every node the assumption `start` is true forces, with the chain length to reach it."""
    depth: dict[Node, int] = {(*start, True): 0}
    queue = deque([(*start, True)])
    while queue:
        cell, digit, is_on = node = queue.popleft()
        nexts = links.on if is_on else links.off
        for c, d in nexts.get((cell, digit), ()):
            child = (c, d, not is_on)
            if child not in depth:
                depth[child] = depth[node] + 1
                queue.append(child)
    return depth


def multiple_forcing_chain(board: Board) -> Step | None:
    """The cell or region forcing chain with the shortest chains in total."""
    if board.n > 25:
        return None  # one closure per candidate: the same bound as the dynamic chains
    links = _links(board)
    closures: dict[tuple[int, int], dict[Node, int]] = {}

    def closure(start: tuple[int, int]) -> dict[Node, int]:
        if start not in closures:
            closures[start] = _closure(links, start)
        return closures[start]

    layout = board.layout
    best: tuple[int, str, str, list[tuple[int, int]], Node] | None = None
    sources: list[tuple[str, str, list[tuple[int, int]]]] = []  # (kind, where, branches)
    for cell in board.open_cells():
        branches = [(cell, d) for d in digits_of(board.cands[cell])]
        sources.append(("cell", layout.name(cell), branches))
    full = (1 << board.n) - 1
    for house in layout.houses:
        for digit in digits_of(~board.placed_in(house) & full):
            places = board.positions(house, digit)
            if len(places) >= 2:
                sources.append(("region", f"{digit} in {house.name}", [(c, digit) for c in places]))
    for kind, where, branches in sources:
        if board.expired():
            return None
        if len(branches) < 2:
            continue
        outcomes = [closure(b) for b in branches]
        common = set(outcomes[0]).intersection(*outcomes[1:])
        for node in common:
            if node[:2] in branches:
                continue  # a source candidate: true in every branch means none is consistent
            # Every node is a candidate of an open cell, so either conclusion changes the marks.
            length = sum(o[node] + 1 for o in outcomes)
            if best is None or length < best[0]:
                best = (length, kind, where, branches, node)
    if best is None:
        return None
    return _step(board, *best)


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
