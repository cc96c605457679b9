"""The `limit` and `timeout` every solving entry point takes, checked in one place, as the
command line checks --limit and --timeout: a bad value is a one-line OptionError naming it, not
a failure deep inside a solver (CP-SAT called a nan time limit an invalid model)."""

from __future__ import annotations

import math
from numbers import Integral, Real

from satsudoku.errors import OptionError, OptionTypeError

# Thirty years of seconds are ample for any puzzle; more (inf, 1e300) means no limit at all,
# which no solver's own clock then sees (MIP's timedelta and a thread's wait overflowed).
MAX_SECONDS = 10**9


def checked_limit(limit: object, name: str = "limit") -> int:
    """`limit` as an int >= 1 (solutions to look for), as --limit takes it; a bool, a float or
    a string is refused rather than read as a number."""
    if isinstance(limit, bool) or not isinstance(limit, Integral):
        raise OptionTypeError(f"{name} must be a positive integer, not {limit!r}")
    if limit < 1:
        raise OptionError(f"{name} must be a positive integer, not {limit!r}")
    return int(limit)


def checked_timeout(timeout: object, name: str = "timeout") -> float | None:
    """`timeout` in seconds as a float, or None for no limit (None, inf, or past MAX_SECONDS);
    0 is allowed (the verdict is 'unknown' at once), a negative number or nan is not."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, Real):
        raise OptionTypeError(f"{name} must be a number of seconds or None, not {timeout!r}")
    try:
        seconds = float(timeout)
    except OverflowError:  # an int past any float: no limit, as inf
        return None
    if math.isnan(seconds) or seconds < 0:
        raise OptionError(f"{name} must be a number of seconds >= 0 or None, not {timeout!r}")
    return None if seconds > MAX_SECONDS else seconds


def checked(limit: object, timeout: object) -> tuple[int, float | None]:
    """`checked_limit(limit)` and `checked_timeout(timeout)`: a solve's two options at once."""
    return checked_limit(limit), checked_timeout(timeout)
