"""Which constraint steps a change concerns: the kernel's propagation queue.

A step's narrowing depends only on its own cells' masks, so after it has run to its fixpoint
it needs running again only once one of them changes. The kernel's dirty values carry, above
the house bits, a marker bit and then one bit per step reading a changed cell: each cell's
`_Kernel.house_bits` entry holds them, so `assign`'s `dirty |= house_bits[p]` wakes the
steps of every cell it narrows at no extra cost, and a round of propagation fetches and
compares the masks of those steps alone instead of every step's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_


class Watch:
    """Cells (and houses) -> the steps watching them, as bits over the steps."""

    def __init__(
        self, cells: int, houses: Sequence[Sequence[int]], steps: Sequence[Sequence[int]]
    ) -> None:
        self.marker = len(houses)  # dirty values: house bits, the marker, the steps
        self.shift = self.marker + 1
        self.houses = (1 << len(houses)) - 1
        # Per cell: the marker (the dirty value names its steps) and the steps reading it.
        self.wake = [1 << len(houses)] * cells
        # Steps a value of houses alone (a caller's "every house") cannot name through them:
        # no cells (a table without tuples fails at once) or a cell in no house.
        self.always = 0
        housed = {i for house in houses for i in house}
        for k, step in enumerate(steps):
            for i in step:
                self.wake[i] |= 1 << (self.shift + k)
            if not step or not housed.issuperset(step):
                self.always |= 1 << k
        self.of_house = tuple(
            reduce(or_, (self.wake[i] for i in house), 0) >> self.shift for house in houses
        )

    def __call__(self, dirty: int) -> int:
        """The steps a dirty value wakes: those it names, or, when it names houses alone,
        every step reading a cell of one of them."""
        if dirty >> self.marker:
            return dirty >> self.shift
        found, houses = self.always, dirty & self.houses
        while houses:
            low = houses & -houses
            houses ^= low
            found |= self.of_house[low.bit_length() - 1]
        return found
