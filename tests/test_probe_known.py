"""Probe outcomes carried down the search (`satsudoku.search.probe`'s `known`): a trial that
resumes from its outcome at an ancestor must keep every solution a fresh trial keeps and fail
whatever a fresh trial fails, since the search then trusts it to drop digits."""

from __future__ import annotations

from pathlib import Path

from satsudoku.search.kernel import search_kernel
from satsudoku.search.probe import Known, probe
from tests.test_kernel_probe import forum_36


def test_resumed_trials_answer_as_fresh_ones(shared_data: Path) -> None:
    """Forum killer 36 with two cells given (unique). The root is probed for 20 trials (of 43
    to its fixpoint, which solves it), remembering their outcomes; each child on r1c3 is then
    probed once fresh and once from the root's outcomes: the wrong digits fail both ways, the
    solution's digit leaves the solution both ways, and the resumed probe narrows at least as
    far as the fresh one."""
    puzzle, solution = forum_36(shared_data, 2)
    kernel = search_kernel(puzzle)
    root = kernel.initial(puzzle.givens.values)
    assert root is not None and kernel.settle(root, (1 << len(kernel.houses)) - 1, False)
    known: Known = {}
    assert probe(kernel, root, False, 20, known=known) == 20
    assert len(known) == 7 and sum(map(int.bit_count, root)) == 561  # not yet solved
    assert all(
        kernel.open_bits(m) & kernel.bit[v - 1] for m, v in zip(root, solution.values, strict=True)
    )
    outcomes = []
    for bit in kernel.bit:
        if not root[2] & bit:
            continue
        node = root.copy()
        dirty = kernel.assign(node, 2, bit)
        if dirty < 0 or not kernel.settle(node, dirty, False):
            continue
        fresh, resumed = node.copy(), node.copy()
        mine = dict(known)
        by_fresh = probe(kernel, fresh, False, 10_000)
        by_resumed = probe(kernel, resumed, False, 10_000, known=mine)
        assert (by_fresh < 0) == (by_resumed < 0)
        right = kernel.digit(bit) == solution.values[2]
        assert (by_resumed >= 0) == right  # unique: only the solution's digit survives
        if right:
            assert tuple(map(kernel.digit, resumed)) == solution.values
            opened = list(map(kernel.open_bits, fresh))
            assert all(kernel.open_bits(m) & ~o == 0 for m, o in zip(resumed, opened, strict=True))
        outcomes.append(by_resumed)
    assert len(outcomes) == 5 and sum(r < 0 for r in outcomes) == 4  # one fails at once
