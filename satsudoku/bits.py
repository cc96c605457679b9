"""One bit-iteration helper for the pure-Python code that reads sets kept as int bitmasks
(candidate digits, chosen lines, used digits): the lowest-bit loop written once."""

from __future__ import annotations


def bit_indices(mask: int, base: int = 0) -> list[int]:
    """The positions of the set bits of `mask`, lowest first, counted from `base` (0 for bit
    positions, 1 for the digits of a candidate mask whose bit d-1 stands for digit d)."""
    found = []
    while mask:
        low = mask & -mask
        mask ^= low
        found.append(low.bit_length() - 1 + base)
    return found
