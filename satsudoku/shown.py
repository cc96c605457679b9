"""Text from outside (file and folder names, titles) made safe for one line of output.

A folder of certificates from a stranger may name a subfolder `0002: VERIFIED⏎  proof ok⏎x`:
printed as it is, its REJECTED verdict read as a VERIFIED one, and a name holding ESC sends
terminal escapes. Such characters are written as escapes instead (`\\n`, `\\x1b`, `\\u202e`),
so the name still names its file and the line stays one line, read in the order written.
"""

from __future__ import annotations

import re

# C0/C1 controls but tab (a newline starts a line of its own, such as a fake verdict; ESC starts
# terminal escapes), the Unicode line and paragraph separators, and the bidirectional overrides
# and isolates that make a line read in an order other than the one written.
UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def one_line(text: str) -> str:
    """`text` with every character of UNPRINTABLE written as its Python escape."""
    return UNPRINTABLE.sub(_escape, text)
