"""Whole numbers in f-puzzles clue values ("15", or a JSON integer), read strictly.

`int()` alone reads more than the site writes, and reads it differently: '1_5' is 15 (the
site's parseInt reads 1), '٣' (an Arabic-Indic digit) is 3, the JSON number 3.7 is 3 and
`true` is 1. Each would solve another puzzle than the file's, silently; they are refused, as
the document reader's `rules.fields.integer` refuses them.
"""

from __future__ import annotations

import re
from typing import Any

from satsudoku.io.limits import MAX_INT_DIGITS

_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{MAX_INT_DIGITS}}}")  # ASCII digits, bounded for int()


def clue_number(value: Any) -> int:
    """The whole number a clue value holds, or ValueError (the readers' 'malformed entry')."""
    if type(value) is int:
        return value
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value.strip())
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    raise ValueError(f"clue value {shown} is not a whole number")
