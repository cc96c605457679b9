"""One list-indexing helper for the pure-Python searches (the reference kernel, its sandwich
propagator, the logic solver): they read a house's or a line's entries from a per-cell list
many times a node."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

Getter = Callable[[Sequence[int]], tuple[int, ...]]  # fetches several list entries at once


def getter(positions: Sequence[int]) -> Getter:
    """A function taking a per-cell list to its entries at `positions`, always as a tuple (in C
    when there are two or more; itemgetter alone returns a bare value for one)."""
    if not positions:
        return _nothing
    if len(positions) == 1:
        only = positions[0]
        return lambda values: (values[only],)
    return itemgetter(*positions)


def _nothing(values: Sequence[int]) -> tuple[int, ...]:
    return ()
