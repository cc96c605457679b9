"""The logic engine's shortcuts find exactly what the plain searches find: forcing propagations
followed to budgets in turn pick the contradiction a full propagation of every candidate picks,
and re-running a per-digit technique on changed digits only takes the same steps."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from satsudoku.io.text import ReadOptions, parse_line
from satsudoku.logic import (
    chains,
    fish,
    forcing,
    franken,
    locked,
    multiple,
    singles,
    subsets,
    wings,
)
from satsudoku.logic.solver import (
    TECHNIQUE_NAMES,
    TECHNIQUES,
    _digit_view,
    solve_logically,
)
from satsudoku.logic.state import Board, digits_of
from satsudoku.logic.step import length_bonus

DATA = Path(__file__).parent / "data"
LINES = [line.split()[0] for line in (DATA / "top1465.txt").read_text().split("\n") if line]
# Bundled top1465 puzzles 1 and 24 (1-based) need dynamic forcing chains (both rate 9.3);
# puzzle 4 needs Nishio, fish and static forcing chains (8.3).
FORCING = {"top1465:1": LINES[0], "top1465:24": LINES[23]}
BEFORE_FORCING = TECHNIQUES[: TECHNIQUE_NAMES.index("forcing chain")]


def _stuck(line: str) -> Board:
    """The board where every technique before the dynamic forcing chains is stuck."""
    result = solve_logically(Board.from_puzzle(parse_line(line, ReadOptions())), BEFORE_FORCING)
    assert result.status == "stuck"
    return result.board


def _plain_shortest(board: Board) -> tuple[int, int, int, str]:
    """Every candidate propagated to its end, no budget: the fewest deductions (assumption
    counted), the first such candidate in grid order."""
    best: tuple[int, int, int, str] | None = None
    for cell in board.open_cells():
        for digit in digits_of(board.cands[cell]):
            trial = board.copy()
            trial.place(cell, digit)
            made, why = forcing.propagate(trial)  # every cell and house looked at
            if why is not None and (best is None or made + 1 < best[0]):
                best = (made + 1, cell, digit, why)
    assert best is not None
    return best


@pytest.mark.parametrize("line", FORCING.values(), ids=FORCING.keys())
def test_budgeted_forcing_finds_the_plain_shortest_contradiction(line: str) -> None:
    board = _stuck(line)
    _outcomes, shortest = forcing._outcomes(board, (), cells_only=False)
    assert shortest == _plain_shortest(board)


def test_propagation_resumed_after_a_budget_ends_as_one_run() -> None:
    board = _stuck(LINES[0])
    for cell in list(board.open_cells())[:12]:
        for digit in digits_of(board.cands[cell]):
            whole = forcing.Propagation(forcing.assume(board, cell, digit)[0])
            whole.run()
            steps = forcing.Propagation(forcing.assume(board, cell, digit)[0])
            for budget in (1, 2, 3, 5, 8, 13):
                steps.run(budget)
            steps.run()
            assert (steps.made, steps.why, steps.board.cands, steps.board.values) == (
                whole.made,
                whole.why,
                whole.board.cands,
                whole.board.values,
            )


def test_per_digit_reruns_take_the_same_steps() -> None:
    """top1465 puzzle 4 with every technique searching every digit at every call."""
    puzzle = parse_line(LINES[3], ReadOptions())
    everything = tuple(replace(t, per_digit=False) for t in TECHNIQUES)
    fast = solve_logically(Board.from_puzzle(puzzle))
    plain = solve_logically(Board.from_puzzle(puzzle), everything)
    assert fast.status == plain.status == "solved"
    assert [s.text for s in fast.steps] == [s.text for s in plain.steps]
    assert fast.rating == plain.rating == 8.3
    assert {"Nishio", "finned X-wing"} <= {s.technique for s in fast.steps}


def _plain_multiple(board: Board) -> tuple[int, str, tuple[int, int, bool]]:
    """The static cell/region forcing chain found the plain way: (cell, digit, on) nodes in
    dicts, a breadth-first closure per candidate, every source's shared nodes compared in the
    order their set lists them: (total length, source, node) of the first shortest."""
    layout, cands, n = board.layout, board.cands, board.n

    def forced(cell: int, digit: int, on: bool) -> list[tuple[int, int, bool]]:
        if on:
            others = [(cell, d, False) for d in digits_of(cands[cell]) if d != digit]
            bit = 1 << (digit - 1)
            peers = [(p, digit, False) for p in layout.peers[cell] if cands[p] & bit]
            return others + [x for x in peers if not board.values[x[0]]]
        out = [(cell, d, True) for d in digits_of(cands[cell]) if d != digit]
        out = out if len(out) == 1 else []
        for house in layout.houses:  # house order, as the strong links are listed
            places = board.positions(house, digit)
            if len(places) == 2 and cell in places:
                out += [(c, digit, True) for c in places if c != cell]
        return out

    def closure(cell: int, digit: int) -> dict[tuple[int, int, bool], int]:
        depth = {(cell, digit, True): 0}
        queue = [(cell, digit, True)]
        for node in queue:
            for child in forced(*node):
                if child not in depth:
                    depth[child] = depth[node] + 1
                    queue.append(child)
        return depth

    sources = [(layout.name(c), [(c, d) for d in digits_of(cands[c])]) for c in board.open_cells()]
    for house in layout.houses:
        for digit in range(1, n + 1):
            places = board.positions(house, digit)
            if len(places) >= 2:
                sources.append((f"{digit} in {house.name}", [(c, digit) for c in places]))
    best: tuple[int, str, tuple[int, int, bool]] | None = None
    for where, branches in sources:
        if len(branches) < 2:
            continue
        outcomes = [closure(c, d) for c, d in branches]
        for node in set(outcomes[0]).intersection(*outcomes[1:]):
            length = sum(o[node] + 1 for o in outcomes)
            if node[:2] not in branches and (best is None or length < best[0]):
                best = (length, where, node)
    assert best is not None
    return best


# Puzzle 4 by default; puzzle 24 (0.5-0.75 s of CPU) under -m slow.
@pytest.mark.parametrize("index", [3, pytest.param(23, marks=pytest.mark.slow)])
def test_static_forcing_chain_is_the_plain_searchs_first_shortest(
    index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Numbered nodes and list-indexed links, compiled (with Numba) or not, pick the step the
    tuple-keyed search picks, ties included (bundled top1465 puzzles 4 and 24, where
    everything easier is stuck)."""
    before = TECHNIQUES[: TECHNIQUE_NAMES.index("cell/region forcing chain")]
    puzzle = parse_line(LINES[index], ReadOptions())
    board = solve_logically(Board.from_puzzle(puzzle), before).board
    length, where, (cell, digit, on) = _plain_multiple(board)
    effect = ((cell, digit),)
    compiled = vars(multiple)["compiled"]
    # Compiled with every closure at once, compiled one source at a time (what boards past
    # ALL_AT_ONCE entries get: an empty 25x25 took 2.2 GB at once), and in Python, with its
    # closures remembered or, past _KEPT_ENTRIES, made again.
    configs = {(compiled, 1 << 40, 1 << 20), (compiled, 0, 1 << 20)}
    for kernel, at_once, kept in configs | {(None, 0, 1 << 20), (None, 0, 0)}:
        with monkeypatch.context() as patch:
            patch.setattr(multiple, "compiled", kernel)
            patch.setattr(multiple, "_KEPT_ENTRIES", kept)
            if kernel is not None:
                patch.setattr(kernel, "ALL_AT_ONCE", at_once)
            step = multiple.multiple_forcing_chain(board)
        assert step is not None
        assert where in step.text
        assert step.difficulty == round(multiple.MULTIPLE + length_bonus(length), 1)
        assert (step.placements, step.eliminations) == ((effect, ()) if on else ((), effect))


@pytest.mark.skipif(
    vars(forcing)["compiled"] is None, reason="the compiled propagation needs numba"
)
@pytest.mark.parametrize("line", FORCING.values(), ids=FORCING.keys())
def test_compiled_propagations_end_as_the_python_ones(
    line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every candidate's board, deduction count and reason, and the shortest contradiction,
    from the compiled kernel and from forcing.Propagation, on a settled board (propagation
    from the changed cells) and on one that is not (from every cell)."""
    board = _stuck(line)
    unsettled = board.copy()
    cell = next(c for c in unsettled.open_cells() if unsettled.cands[c].bit_count() == 2)
    unsettled.eliminate(cell, unsettled.cands[cell].bit_length())  # a naked single now
    for start in (board, unsettled):
        fast = forcing._outcomes(start, (), cells_only=False, every=True)
        assert forcing._outcomes(start, (), cells_only=False)[1] == fast[1]
        with monkeypatch.context() as patch:
            patch.setattr(forcing, "compiled", None)
            plain = forcing._outcomes(start, (), cells_only=False)
        assert fast[1] == plain[1] and fast[1] is not None
        assert fast[0].keys() == plain[0].keys()
        for branch, (trial, made, why) in plain[0].items():
            other, other_made, other_why = fast[0][branch]
            assert (other.cands, other.values, other_made, other_why) == (
                trial.cands,
                trial.values,
                made,
                why,
            )


# test_logic_techniques' franken swordfish (magictour-top2365), the easiest step there.
FRANKEN = "..4...97..62..7...........15...1..93...9..8.....4..6.53.58.....7...39.........2.."


@pytest.mark.skipif(
    vars(franken)["compiled_franken"] is None, reason="the compiled franken search needs numba"
)
def test_compiled_franken_fish_are_the_python_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where everything easier is stuck, the compiled franken search and the Python one give
    the same step (or none) for X-wing and swordfish, also on per-digit views (4 alone, all
    but 4) and on a board whose digits have more places than one word holds (the compiled
    search hands those digits to the Python one)."""
    before = TECHNIQUES[: TECHNIQUE_NAMES.index("franken X-wing")]
    board = solve_logically(Board.from_puzzle(parse_line(FRANKEN, ReadOptions())), before).board
    crowded = Board.from_puzzle(parse_line("1" + "." * 80, ReadOptions()))  # 64 places of 2
    views = [board, crowded, _digit_view(board, 0b1000), _digit_view(board, 0b111110111)]
    found = 0
    for view in views:
        for size in (2, 3):
            fast = franken.franken(size)(view)
            with monkeypatch.context() as patch:
                patch.setattr(franken, "compiled_franken", None)
                plain = franken.franken(size)(view)
            assert fast == plain
            found += fast is not None
    assert found == 2  # the swordfish on 4: on the board and on the view of 4 alone


@pytest.mark.skipif(
    vars(chains)["compiled_chains"] is None, reason="the compiled chain search needs numba"
)
def test_compiled_chains_are_the_python_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled X-chain, XY-chain and AIC searches name the chain the Python ones name
    (their links met in the order they are made), step after step of bundled top1465 puzzles
    5 and 11, X-chains also on one-digit views."""
    finders = (chains.x_chain, chains.xy_chain, chains.aic)
    found = 0
    for line in (LINES[4], LINES[10]):
        board = Board.from_puzzle(parse_line(line, ReadOptions()))
        while True:
            views = [board, _digit_view(board, 0b100), _digit_view(board, 0b1000000)]
            for finder in finders:
                for view in views if finder is chains.x_chain else views[:1]:
                    fast = finder(view)
                    with monkeypatch.context() as patch:
                        patch.setattr(chains, "compiled_chains", None)
                        assert finder(view) == fast
                    found += fast is not None
            result = solve_logically(board.copy(), max_steps=1)
            if result.status != "stopped":
                break
            result.steps[0].apply(board)
    assert found == 338


@pytest.mark.skipif(vars(fish)["compiled_fish"] is None, reason="the compiled fish need numba")
def test_compiled_fish_are_the_python_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled fish search gives fish_steps' first fish (or none), basic and finned, of
    every size, step after step of bundled top1465 puzzle 4, on the board and per-digit views
    (a finned fish's fin boxes met in the order Python's set lists them)."""
    finders = [fish.fish(k, finned=f) for k in (2, 3, 4) for f in (False, True)]
    board = Board.from_puzzle(parse_line(LINES[3], ReadOptions()))
    found = 0
    for number, step in enumerate(solve_logically(board.copy()).steps):
        step.apply(board)
        if number < 30 or number % 3:
            continue  # the first boards: the Python jellyfish take long
        views = [board, _digit_view(board, 0b1000), _digit_view(board, 0b111110111)]
        for finder in finders:
            for view in views:
                fast = finder(view)
                with monkeypatch.context() as patch:
                    patch.setattr(fish, "compiled_fish", None)
                    assert finder(view) == fast
                found += fast is not None
    assert found == 63  # 47 finned


@pytest.mark.skipif(vars(subsets)["compiled_easy"] is None, reason="the compiled scans need numba")
def test_compiled_scans_give_the_python_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Singles, subsets, locked candidates, wings and turbot fish looking only where the
    compiled scans point, and Nishio searched in compiled code, take the steps the Python
    searches take (or none), every other step of bundled top1465 puzzle 5."""
    finders = [
        *(subsets.naked_subset(k) for k in (2, 3, 4)),
        *(subsets.hidden_subset(k) for k in (2, 3, 4)),
        *(subsets.direct_hidden(k) for k in (2, 3)),
        locked.direct_locked,
        locked.locked_candidates,
        wings.xy_wing,
        wings.xyz_wing,
        wings.w_wing,
        singles.full_house,
        singles.hidden_single_box,
        singles.hidden_single_line,
        chains.turbot_fish,
        forcing.nishio,
    ]
    found = 0
    board = Board.from_puzzle(parse_line(LINES[4], ReadOptions()))
    for number, step in enumerate(solve_logically(board.copy()).steps):
        view = _digit_view(board, 0b100100)  # turbot fish and Nishio are asked per digit
        for finder in finders if number % 2 == 0 else ():
            for on in (board, view) if finder in finders[-2:] else (board,):
                fast = finder(on)
                with monkeypatch.context() as patch:
                    for module in (subsets, locked, wings, singles, chains, forcing):
                        patch.setattr(module, "compiled_easy", None)
                    assert finder(on) == fast
                found += fast is not None
        step.apply(board)
    assert found == 384
