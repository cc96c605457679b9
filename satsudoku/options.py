"""Every numeric option of the Python API (limit, timeout, max_nodes, seeds, samples, workers,
...), checked in one place, as the command line checks its flags: a bad value is a one-line
OptionError naming the option and the value, not a failure deep inside a solver (CP-SAT
called a nan time limit an invalid model) nor a silent other meaning (True as 1, nan as no
limit, a seed of nan drawing a different order every run)."""

from __future__ import annotations

import math
from numbers import Integral, Real

from satsudoku.errors import OptionError, OptionTypeError

# Thirty years of seconds are ample for any puzzle; more (inf, 1e300) means no limit at all,
# which no solver's own clock then sees (MIP's timedelta and a thread's wait overflowed).
MAX_SECONDS = 10**9
# Seeds are those --seed takes: CP-SAT's is a 32-bit int, and random.Random read a float or a
# string as some other seed (nan: another one every run, its hash being its address).
MAX_SEED = 2**31 - 1


def shown(value: object) -> str:
    """`value`'s repr on one line of at most 60 characters: a numpy array's repr runs over
    lines, a pasted string to megabytes, and a 10**5000 has none (Python's 4,300 digits)."""
    try:
        text = " ".join(repr(value).split())
    except ValueError:
        return "an integer of more than 4,300 digits"
    return text if len(text) <= 60 else f"{text[:57]}..."


def _described(least: int, most: int | None, none: bool) -> str:
    if most is not None:
        what = f"an integer from {least:,} to {most:,}"
    else:
        what = "a positive integer" if least == 1 else f"an integer >= {least:,}"
    return f"{what} or None" if none else what


def integral(value: object) -> int | None:
    """`value` as an int if it is an integer (a numpy integer too), else None: a bool, a float
    (even 2.0) or a string is never read as one. The one test every integer option, shape side
    and given goes through."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        return None
    return int(value)


def _integer(value: object, name: str, least: int, most: int | None, none: bool) -> int | None:
    if value is None and none:
        return None
    message = f"{name} must be {_described(least, most, none)}, not {shown(value)}"
    number = integral(value)
    if number is None:
        raise OptionTypeError(message)
    if number < least or (most is not None and number > most):
        raise OptionError(message)
    return number


def checked_int(value: object, name: str, *, least: int = 1, most: int | None = None) -> int:
    """`value` as an int in least..most (a numpy integer too); a bool, a float (even 2.0) or
    a string is refused rather than read as a number."""
    number = _integer(value, name, least, most, none=False)
    assert number is not None
    return number


def checked_optional_int(
    value: object, name: str, *, least: int = 0, most: int | None = None
) -> int | None:
    """`checked_int`, or None where None means 'no cap' or 'not random' (max_nodes, a seed)."""
    return _integer(value, name, least, most, none=True)


def checked_limit(limit: object, name: str = "limit") -> int:
    """`limit` as an int >= 1 (solutions to look for), as --limit takes it."""
    return checked_int(limit, name)


def checked_max_nodes(max_nodes: object, name: str = "max_nodes") -> int | None:
    """A node budget: None for none, 0 for 'unknown' at once (as a timeout of 0), any int."""
    return checked_optional_int(max_nodes, name)


def checked_seed(seed: object, name: str = "seed") -> int:
    """A random seed in 0..MAX_SEED, as --seed takes it."""
    return checked_int(seed, name, least=0, most=MAX_SEED)


def checked_optional_seed(seed: object, name: str = "random_seed") -> int | None:
    """`checked_seed`, or None where it means 'not random' or 'drawn afresh'."""
    return checked_optional_int(seed, name, most=MAX_SEED)


def checked_timeout(timeout: object, name: str = "timeout") -> float | None:
    """`timeout` in seconds as a float, or None for no limit (None, inf, or past MAX_SECONDS);
    0 is allowed (the verdict is 'unknown' at once), a negative number or nan is not."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, Real):
        raise OptionTypeError(f"{name} must be a number of seconds or None, not {shown(timeout)}")
    try:
        seconds = float(timeout)
    except OverflowError:  # an int past any float: no limit, as inf
        return None
    if math.isnan(seconds) or seconds < 0:
        raise OptionError(f"{name} must be a number of seconds >= 0 or None, not {shown(timeout)}")
    return None if seconds > MAX_SECONDS else seconds


def checked_range(bounds: object, name: str) -> tuple[float, float] | None:
    """None, or two numbers LO <= HI (inf allowed, nan not) as a pair of floats: a range
    nothing falls in (7, 4) or (nan, 5) would have every candidate refused, without end."""
    if bounds is None:
        return None
    message = f"{name} must be None or two numbers (LO, HI) with LO <= HI, not {shown(bounds)}"
    if not isinstance(bounds, tuple | list) or len(bounds) != 2:
        raise OptionTypeError(message)
    if any(isinstance(bound, bool) or not isinstance(bound, Real) for bound in bounds):
        raise OptionTypeError(message)
    low, high = float(bounds[0]), float(bounds[1])
    if not low <= high:  # nan too
        raise OptionError(message)
    return low, high


def checked(limit: object, timeout: object) -> tuple[int, float | None]:
    """`checked_limit(limit)` and `checked_timeout(timeout)`: a solve's two options at once."""
    return checked_limit(limit), checked_timeout(timeout)
