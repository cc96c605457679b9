"""Chains of alternating inference: strong links (a bivalue cell, a digit with two places in a
house) and weak links (one cell, or one digit in two peers). If A is false then Z is true, so
a candidate that sees both A and Z goes. Turbot fish (skyscraper, 2-string kite), X-chains on
one digit (SE 6.5+), XY-chains through bivalue cells (6.6+) and mixed AICs (7.0+)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from itertools import combinations

from satsudoku.logic.state import WIDEST, Board, Layout
from satsudoku.logic.step import Finder, Step, length_bonus, removal_text

try:  # the compiled search needs Numba (the `fast` extra); without it, _search runs
    from satsudoku.logic import compiled_chains, compiled_easy
except ImportError:
    compiled_chains = None  # type: ignore[assignment]
    compiled_easy = None  # type: ignore[assignment]

SKYSCRAPER, KITE, TURBOT = 4.0, 4.1, 4.2
X_CHAIN, XY_CHAIN, AIC = 6.5, 6.6, 7.0
MAX_NODES = 24  # longer chains exist, but a person does not follow them; forcing comes next


def two_places(cells: Sequence[int], values: Sequence[int], cands: Sequence[int]) -> int:
    """The digits (as a mask) with exactly two open places among `cells`: strong links."""
    once = twice = thrice = 0
    for cell in cells:
        if not values[cell]:
            mask = cands[cell]
            thrice |= twice & mask
            twice |= once & mask
            once |= mask
    return twice & ~thrice


def turbot_fish(board: Board) -> Step | None:
    """Two strong links on one digit joined by a weak link: skyscraper (both rows or both
    columns), 2-string kite (a row and a column meeting in a box), else turbot fish."""
    layout, cands, values = board.layout, board.cands, board.values
    if compiled_easy is not None and board.n <= WIDEST:
        if not compiled_easy.turbot_any(cands, values, layout):
            return None  # (the compiled scan says whether there is one; Python picks it)
    best: Step | None = None
    pair_masks = [two_places(house.cells, values, cands) for house in layout.houses]
    for digit in range(1, board.n + 1):
        bit = 1 << (digit - 1)
        links = [
            (house, board.positions(house, digit))
            for house, pairs in zip(layout.houses, pair_masks, strict=True)
            if pairs & bit
        ]
        for (h1, l1), (h2, l2) in combinations(links, 2):
            if set(l1) == set(l2):
                continue
            for b, a in (l1, l1[::-1]):
                for c, d in (l2, l2[::-1]):
                    if len({a, b, c, d}) < 4 or c not in layout.peers[b]:
                        continue
                    gone = _common_candidates(board, a, d, digit, exclude={a, b, c, d})
                    if not gone:
                        continue
                    name, level = _turbot_name(h1.kind, h2.kind)
                    if best is not None and best.difficulty <= level:
                        continue
                    text = (
                        f"{name} on {digit}: {layout.name(a)}={layout.name(b)} ({h1.name}), "
                        f"{layout.name(c)}={layout.name(d)} ({h2.name}), "
                        f"{layout.name(b)} sees {layout.name(c)}: {layout.name(a)} or "
                        f"{layout.name(d)} is {digit}; {removal_text(layout, gone)}"
                    )
                    best = Step(name, level, text, eliminations=gone)
    return best


def _turbot_name(k1: str, k2: str) -> tuple[str, float]:
    lines = ("row", "column")
    if k1 == k2 and k1 in lines:
        return "skyscraper", SKYSCRAPER
    if {k1, k2} == set(lines):
        return "2-string kite", KITE
    return "turbot fish", TURBOT


def _common_candidates(
    board: Board, a: int, d: int, digit: int, exclude: set[int]
) -> tuple[tuple[int, int], ...]:
    layout, bit = board.layout, 1 << (digit - 1)
    both = layout.peers[a] & layout.peers[d]
    return tuple(
        (c, digit) for c in sorted(both - exclude) if not board.values[c] and board.cands[c] & bit
    )


class _Graph:
    """Candidates as nodes (cell·n + digit − 1) with their strong and weak links."""

    def __init__(self, board: Board, kind: str) -> None:
        n, layout, cands, values = board.n, board.layout, board.cands, board.values
        self.n = n
        self.board = board
        nodes = [
            c * n + d - 1
            for c in board.open_cells()
            for d in range(1, n + 1)
            if cands[c] >> (d - 1) & 1
        ]
        self.nodes = nodes
        # Links are dicts used as ordered sets: the search meets them in the order they are
        # made, so which of two equally short chains a step names is fixed (and the compiled
        # search can list them the same way).
        self.strong: dict[int, dict[int, None]] = {v: {} for v in nodes}
        self.weak = _weak_links(board, same_cell=kind != "x")
        if kind in ("xy", "aic"):
            for c in board.open_cells():
                if cands[c].bit_count() == 2:
                    low = (cands[c] & -cands[c]).bit_length() - 1
                    high = cands[c].bit_length() - 1
                    self.strong[c * n + low][c * n + high] = None
                    self.strong[c * n + high][c * n + low] = None
        if kind in ("x", "aic"):
            strong = self.strong
            for house in layout.houses:
                # Digits with exactly two places here: each pair, in digit order, links both ways.
                pairs = two_places(house.cells, values, cands)
                while pairs:
                    low = pairs & -pairs
                    pairs ^= low
                    d = low.bit_length() - 1
                    p, q = (c * n + d for c in house.cells if not values[c] and cands[c] & low)
                    strong[p][q] = None
                    strong[q][p] = None


# same_cell -> (layout, candidates and values, links) of the last board seen
_WEAK_CACHE: dict[bool, tuple[Layout, tuple[int, ...], dict[int, dict[int, None]]]] = {}


def _weak_links(board: Board, *, same_cell: bool) -> dict[int, dict[int, None]]:
    """Each node's weak links: the same digit in a peer, and (`same_cell`) the cell's other
    digits. The XY-chain and AIC searches of one board share them (a one-entry cache)."""
    cands, values = board.cands, board.values
    state = (*cands, *values)
    cached = _WEAK_CACHE.get(same_cell)
    if cached is not None and cached[0] is board.layout and cached[1] == state:
        return cached[2]
    weak = _WeakLinks(board, same_cell)
    _WEAK_CACHE[same_cell] = (board.layout, state, weak)
    return weak


class _WeakLinks(dict[int, dict[int, None]]):
    """Weak links made when a search first asks for a node's: XY-chains only reach nodes of
    bivalue cells and X-chains nodes of conjugate pairs, so most are never made there."""

    def __init__(self, board: Board, same_cell: bool) -> None:
        super().__init__()
        # Copies: the cache may hand this to a later board of the same marks after this one
        # has changed.
        self.n, self.cands, self.placed = board.n, board.cands.copy(), board.values.copy()
        self.peers = board.layout.peers
        self.same_cell = same_cell
        self.open_peers: dict[int, list[int]] = {}

    def __missing__(self, v: int) -> dict[int, None]:
        # Links are made in a fixed order (digits ascending, then the peers as the layout
        # lists them): the breadth-first search meets them in that order.
        n, cands = self.n, self.cands
        cell, d = divmod(v, n)
        open_peers = self.open_peers.get(cell)
        if open_peers is None:
            placed = self.placed
            open_peers = self.open_peers[cell] = [p for p in self.peers[cell] if not placed[p]]
        bit = 1 << d
        if self.same_cell:
            mask = cands[cell]
            links = {cell * n + e: None for e in range(n) if mask >> e & 1 and e != d}
        else:
            links = {}
        links.update((p * n + d, None) for p in open_peers if cands[p] & bit)
        self[v] = links
        return links


def _chain_finder(kind: str, base: float, title: str, digit_filter: bool) -> Finder:
    def find(board: Board) -> Step | None:
        if compiled_chains is not None and compiled_chains.usable(board.n):
            best = _compiled_best(board, kind, digit_filter)
        else:
            best = _best(board, kind, digit_filter)
        if best is None:
            return None
        length, path, gone = best
        links = [_name(board, path[0])]
        for i, v in enumerate(path[1:]):
            links.append(("=" if i % 2 == 0 else "-") + _name(board, v))
        text = f"{title}: {' '.join(links)}: {removal_text(board.layout, gone)}"
        return Step(title, round(base + length_bonus(length), 1), text, eliminations=gone)

    find.__doc__ = f"The shortest {title} that removes something."
    return find


Found = tuple[int, list[int], tuple[tuple[int, int], ...]]  # length, nodes, eliminations


def _name(board: Board, v: int) -> str:
    cell, d = divmod(v, board.n)
    return f"({d + 1}){board.layout.name(cell)}"


def _best(board: Board, kind: str, digit_filter: bool) -> Found | None:
    """The last start's chain among the shortest (the reference search)."""
    graph = _Graph(board, kind)
    best: Found | None = None
    for start in graph.nodes:
        if board.expired():
            return None
        if not graph.strong[start]:
            continue
        limit = best[0] if best else MAX_NODES
        found = _search(graph, start, limit, same_digit=digit_filter)
        if found is not None:
            best = found
    return best


def _compiled_best(board: Board, kind: str, digit_filter: bool) -> Found | None:
    """`_best` in compiled code (the same chain; the clock is read once, before)."""
    if board.expired():
        return None
    found = compiled_chains.search(
        board.cands, board.values, board.layout, kind, digit_filter, MAX_NODES
    )
    if found is None:
        return None
    length, path, gone = found
    n = board.n
    return length, path, tuple((v // n, v % n + 1) for v in gone)


def _search(
    graph: _Graph, start: int, limit: int, *, same_digit: bool
) -> tuple[int, list[int], tuple[tuple[int, int], ...]] | None:
    """Breadth-first from 'start is false' along strong-then-weak links; the first 'true' end
    that shares a weak neighbour (other than both) with `start` gives an elimination."""
    # State: node · 2 + truth. From a false node a strong link makes its partner true; from a
    # true node a weak link makes its partner false.
    weak, strong = graph.weak, graph.strong
    first = 2 * start
    parent: dict[int, int] = {first: -1}
    queue = deque([(first, 1)])
    while queue:
        state, length = queue.popleft()
        if length >= limit:
            return None  # breadth-first: every state still queued is as long or longer
        node, truth = state >> 1, state & 1
        for nxt in weak[node] if truth else strong[node]:
            after = 2 * nxt + 1 - truth
            if after in parent or truth and not strong[nxt]:
                continue  # seen, or a false node no strong link leaves: a dead end
            parent[after] = state
            if not truth:  # nxt is now true: A or nxt
                gone = _both_see(graph, start, nxt, same_digit)
                if gone:
                    return length + 1, _path(parent, after), gone
            queue.append((after, length + 1))
    return None


def _both_see(graph: _Graph, a: int, z: int, same_digit: bool) -> tuple[tuple[int, int], ...]:
    if a == z:
        return ()
    n = graph.n
    if same_digit and a % n != z % n:
        return ()
    weak_a, weak_z = graph.weak[a].keys(), graph.weak[z].keys()
    if weak_a.isdisjoint(weak_z):
        return ()
    common = (weak_a & weak_z) - {a, z}
    return tuple(sorted((v // n, v % n + 1) for v in common))


def _path(parent: dict[int, int], state: int) -> list[int]:
    out: list[int] = []
    while state != -1:
        out.append(state >> 1)
        state = parent[state]
    return out[::-1]


x_chain = _chain_finder("x", X_CHAIN, "X-chain", digit_filter=True)
xy_chain = _chain_finder("xy", XY_CHAIN, "XY-chain", digit_filter=False)
aic = _chain_finder("aic", AIC, "alternating inference chain", digit_filter=False)
