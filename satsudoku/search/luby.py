"""Luby, Sinclair & Zuckerman's restart sequence, shared by the searches that restart."""

from __future__ import annotations


def luby(i: int) -> int:
    """The i-th term (from 1) of the sequence 1 1 2 1 1 2 4 1 1 2 …: within a log factor of
    the best fixed cutoff for any run-time distribution, knowing nothing about it."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)
