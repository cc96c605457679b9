"""`satsudoku solve FILE --json --backend fast` with its stages timed inside its own process.

Usage: python benchmarks/cli_split.py FILE [solve options...]; the command's answers go to
standard output as usual, and one JSON object to standard error: CPU seconds (user + system)
of `main()` and of each stage's calls (the kernel, the compiled verifier, reading the lines,
assembling the answers, writing them), with the number of calls.

Why: the issue's figure, N puzzles minus one through two processes, subtracts start-ups that
vary by 0.05 s (quiet) to 0.2 s (load 4) of CPU against 1-2 s of work, and compares with a kernel
timed in another process at another moment. Inside one process the command's kernel calls and
everything around them are timed over the same seconds, so load and drift hit both alike.
The stages are wrapped in place (a Python wrapper per call: about 1 µs a call, ~40 calls per
100,000 17clue puzzles); the command runs unchanged otherwise.
"""

from __future__ import annotations

import json
import resource
import sys
from collections.abc import Callable
from typing import Any


def cpu() -> float:
    """User + system CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def wrap(owner: Any, name: str, label: str, spent: dict[str, list[float]]) -> None:
    """Replace owner.name by a wrapper adding its CPU time and calls to spent[label]."""
    real: Callable[..., Any] = getattr(owner, name)
    tally = spent.setdefault(label, [0.0, 0.0])

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = cpu()
        try:
            return real(*args, **kwargs)
        finally:
            tally[0] += cpu() - began
            tally[1] += 1

    setattr(owner, name, timed)


def main() -> None:
    from satsudoku.backends import fast, fast_kernel

    fast._Compilation.ensure()  # it inspects the kernel's dispatcher: before the wrapping
    import satsudoku.commands.solve as solve
    import satsudoku.io.classic_lines as classic_lines
    import satsudoku.verify_compiled as verify_compiled
    from satsudoku import cli

    spent: dict[str, list[float]] = {}
    wrap(fast_kernel, "solve_batch", "kernel", spent)
    wrap(verify_compiled, "first_bad", "verifier", spent)
    wrap(classic_lines, "_scan", "reading", spent)
    wrap(classic_lines, "_assemble", "assembling", spent)
    wrap(solve, "_write_ascii", "writing", spent)
    began = cpu()
    try:
        cli.main(["solve", *sys.argv[1:], "--json", "--backend", "fast"])
    finally:
        spent["main"] = [cpu() - began, 1]
        sys.stdout.flush()
        print(json.dumps(spent), file=sys.stderr)


if __name__ == "__main__":
    main()
