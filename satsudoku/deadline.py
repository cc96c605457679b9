"""Deadlines (time.perf_counter() values) while models are built: the exception that ends a
build, its check, and a cache that keeps only builds that finished."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

from satsudoku.errors import SatsudokuError

V = TypeVar("V")


class OutOfTime(SatsudokuError):
    """The deadline passed while a model was being built: the backend reports 'unknown'."""

    def __init__(self) -> None:
        super().__init__("the time limit ran out while the model was being built")


def check(deadline: float | None) -> None:
    """Raise OutOfTime once `deadline` has passed; cheap (~0.1 µs), so callers may check every
    few thousand clauses or variables."""
    if deadline is not None and time.perf_counter() >= deadline:
        raise OutOfTime


_BUILDING: ContextVar[float | None] = ContextVar("satsudoku_build_deadline", default=None)


@contextmanager
def building(deadline: float | None) -> Iterator[None]:
    """Within it, `check_building()` checks against `deadline`: for loops deep inside a rule's
    decomposition (a skyscraper clue's table takes seconds) that no deadline argument reaches."""
    token = _BUILDING.set(deadline)
    try:
        yield
    finally:
        _BUILDING.reset(token)


def check_building() -> None:
    """`check` against the deadline of the build under way, if any (~0.1 µs)."""
    check(_BUILDING.get())


class BuildCache(Generic[V]):
    """The `size` most recently used models, by key.

    Not `functools.lru_cache`: the deadline a build runs under must not be part of the key,
    and a build it cuts short (OutOfTime) is simply not stored.
    """

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._items: dict[Hashable, V] = {}  # least recently used first

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """The model stored under `key`, or `build()`'s, which is then stored."""
        value = self._items.pop(key) if key in self._items else build()
        self._items[key] = value
        while len(self._items) > self.size:
            del self._items[next(iter(self._items))]
        return value
