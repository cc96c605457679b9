"""A portfolio: several backends race on one puzzle in separate processes; the first decided
verdict wins and the others are stopped.

Each entrant is a process (solvers hold the GIL or live in C++, and a process can be killed at
once, which no thread can); the winner's grids are re-verified here by `make_result`, so a
raced verdict carries the same checks as any other. On a machine with fewer cores than
entrants they share the CPU: the race then pays for its breadth in wall time.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import time
from collections.abc import Sequence
from typing import Any

from satsudoku.backends import available, backend_class, get_backend, unsupported
from satsudoku.errors import PuzzleError
from satsudoku.options import checked
from satsudoku.puzzle import Puzzle
from satsudoku.result import Proof, Result, Status, make_result

Stats = dict[str, int | float | str]

# label → (backend name, options): the SAT encodings differ most on hard and on large puzzles.
ENTRANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "sat": ("sat", {}),
    "sat:reduced": ("sat", {"encoding": "reduced"}),
    "cpsat": ("cpsat", {}),
    "fast": ("fast", {}),  # only for puzzles its rules family covers (`supports`)
}
_GRACE_S = 2.0  # after the deadline, how long entrants get to report their "unknown"


def _run(
    label: str,
    name: str,
    options: dict[str, Any],
    puzzle: Puzzle,
    limit: int,
    timeout: float | None,
    out: Any,
) -> None:
    """An entrant's process: solve and report (label, result) or (label, error message)."""
    # Ctrl-C reaches the whole process group: the parent alone handles it (and terminates the
    # entrants), so no entrant prints a KeyboardInterrupt traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        result = get_backend(name, **options).solve(puzzle, limit=limit, timeout=timeout)
        out.put((label, result, None))
    except Exception as exc:  # reported to the parent, which decides what it means
        out.put((label, None, f"{type(exc).__name__}: {exc}"))


class RaceBackend:
    """Runs `entrants` (labels of `ENTRANTS`) in parallel; default: every available one."""

    name = "race"

    def __init__(self, entrants: Sequence[str] | None = None) -> None:
        if entrants is None:
            installed = available(partial=True)
            entrants = [label for label, (name, _) in ENTRANTS.items() if name in installed]
        unknown = [label for label in entrants if label not in ENTRANTS]
        if unknown:
            raise PuzzleError(
                f"unknown race entrant {unknown[0]!r}; choose from {', '.join(ENTRANTS)}"
            )
        if not entrants:
            raise PuzzleError("a race needs at least one entrant")
        self.entrants = tuple(dict.fromkeys(entrants))

    def runners(self, puzzle: Puzzle) -> list[str]:
        """The entrants that take `puzzle` (a partial backend sits out what it cannot solve)."""
        out = []
        for label in self.entrants:
            name, options = ENTRANTS[label]
            cls = backend_class(name)
            if (
                getattr(cls, "supports", None) is None
                or unsupported(cls(**options), puzzle) is None
            ):
                out.append(label)
        return out

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result:
        """The first decided result among the entrants, re-verified; 'unknown' if none decides
        in `timeout` seconds (then the entrant that found most solutions speaks)."""
        limit, timeout = checked(limit, timeout)  # before any entrant: one error, not three
        start = time.perf_counter()
        labels = self.runners(puzzle)
        if not labels:
            raise PuzzleError("no race entrant takes this puzzle")
        context: Any = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        )
        out = context.Queue()
        processes = {
            label: context.Process(
                target=_run,
                args=(label, *ENTRANTS[label], puzzle, limit, timeout, out),
                daemon=True,
            )
            for label in labels
        }
        for process in processes.values():
            process.start()
        finished: dict[str, Result] = {}
        errors: dict[str, str] = {}
        winner: str | None = None
        try:
            winner = self._await(out, processes, finished, errors, start, timeout)
        finally:
            for process in processes.values():
                if process.is_alive():
                    process.terminate()
            for process in processes.values():
                process.join()
            out.close()
        return self._result(puzzle, limit, start, labels, winner, finished, errors)

    def _await(
        self,
        out: Any,
        processes: dict[str, Any],
        finished: dict[str, Result],
        errors: dict[str, str],
        start: float,
        timeout: float | None,
    ) -> str | None:
        """Collect reports until one is decided (its label), all are in, or time is up (None)."""
        end = None if timeout is None else start + timeout + _GRACE_S
        while len(finished) + len(errors) < len(processes):
            wait = 0.2 if end is None else min(0.2, end - time.perf_counter())
            if wait <= 0:
                return None
            try:
                label, result, error = out.get(timeout=wait)
            except queue.Empty:
                dead = [
                    label
                    for label, process in processes.items()
                    if not process.is_alive() and label not in finished and label not in errors
                ]
                for label in dead:  # killed without a word (out of memory, a signal)
                    if process_exit := processes[label].exitcode:
                        errors[label] = f"exited with code {process_exit}"
                continue
            if error is not None:
                errors[label] = error
                continue
            finished[label] = result
            if result.status is not Status.UNKNOWN:
                return str(label)
        return None

    def _result(
        self,
        puzzle: Puzzle,
        limit: int,
        start: float,
        labels: list[str],
        winner: str | None,
        finished: dict[str, Result],
        errors: dict[str, str],
    ) -> Result:
        """The winner's answer as this backend's own Result (grids verified again here)."""
        if winner is None and not finished:
            if errors:
                label, message = next(iter(errors.items()))
                raise PuzzleError(f"race: every entrant failed; {label}: {message}")
            empty: Stats = {"time_s": time.perf_counter() - start, "stopped": "timeout"}
            return make_result(puzzle, self.name, [], exhausted=False, limit=limit, stats=empty)
        label = winner or max(finished, key=lambda name: len(finished[name].solutions))
        chosen = finished[label]
        stats: Stats = {
            **chosen.stats,
            "winner": label if winner else "",
            "entrants": ",".join(labels),
            "time_s": time.perf_counter() - start,
        }
        details: dict[str, Any] = {"winner": label, "entrants": labels}
        if errors:
            details["errors"] = dict(errors)
        if chosen.proof is not None:
            details = {**chosen.proof.details, **details}
            proof = Proof(chosen.proof.method, details, chosen.proof.certificate)
        else:
            proof = Proof("none", details)
        return make_result(
            puzzle,
            self.name,
            chosen.solutions,
            exhausted=chosen.exhausted,
            limit=limit,
            stats=stats,
            proof=proof,
        )
