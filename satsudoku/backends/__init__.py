"""Backend protocol and registry: name → backend class, imported only when asked for."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Protocol

from satsudoku.errors import BackendUnavailableError, UnknownBackendError
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result


class Backend(Protocol):
    """Solves a puzzle, looking for up to `limit` solutions (2 settles uniqueness); `limit`
    and `timeout` go through `satsudoku.options.checked` first, as every other numeric option
    does."""

    name: str

    def solve(self, puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None) -> Result: ...


_BACKENDS = {
    "bitmask": "satsudoku.backends.bitmask:BitmaskBackend",
    "sat": "satsudoku.backends.sat:SatBackend",
    "cpsat": "satsudoku.backends.cpsat:CpSatBackend",
    "fast": "satsudoku.backends.fast:FastBackend",
    "mip": "satsudoku.backends.mip:MipBackend",
    "race": "satsudoku.backends.race:RaceBackend",
}
_NEEDS = {"bitmask": None, "sat": "pysat", "cpsat": "ortools", "fast": "numba", "mip": "ortools"}
_NEEDS["race"] = "pysat"  # a portfolio of sat, cpsat and fast: whichever of them is installed
# Backends that take only some rules: each says why it cannot take a puzzle (`supports`), so
# they are listed by `available()` only when asked, and `--backend all` skips them per puzzle.
_PARTIAL = frozenset({"fast"})
# Takes every rule, but hard puzzles take it seconds to minutes (docs/backends.md), too slow for
# every test that runs over all backends: listed, like partial ones, only when asked (--backend
# all, bench); tests/test_mip.py runs it on a fast subset.
_ON_REQUEST = frozenset({"mip", "race"})  # race: a process per entrant per puzzle


def backend_names() -> list[str]:
    """Every registered backend whose module exists in this installation."""
    return [
        name
        for name, target in _BACKENDS.items()
        if importlib.util.find_spec(target.partition(":")[0]) is not None
    ]


def available(*, partial: bool = False) -> list[str]:
    """Backends whose module and solver package are both importable (nothing is imported);
    with `partial`, also those that take only some rules (see `unsupported`) and `mip`."""
    names = []
    for name in backend_names():
        if name in _PARTIAL | _ON_REQUEST and not partial:
            continue
        package = _NEEDS[name]
        if package is None or importlib.util.find_spec(package) is not None:
            names.append(name)
    return names


def unsupported(backend: Backend, puzzle: Puzzle) -> str | None:
    """Why `backend` cannot take `puzzle` (a backend without `supports` takes every puzzle)."""
    supports = getattr(backend, "supports", None)
    reason: str | None = None if supports is None else supports(puzzle)
    return reason


def get_backend(name: str, **options: Any) -> Backend:
    """Instantiate backend `name`, importing its solver package only now."""
    backend: Backend = backend_class(name)(**options)
    return backend


def backend_class(name: str) -> type[Any]:
    """The class behind backend `name` (to read its options without building one)."""
    if name not in _BACKENDS or name not in backend_names():
        raise UnknownBackendError(
            f"unknown backend {name!r}; choose from {', '.join(backend_names())}"
        )
    module_name, _, class_name = _BACKENDS[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("satsudoku"):
            raise  # our own bug, not a missing dependency
        raise BackendUnavailableError(
            f"backend {name!r} needs the package {exc.name!r}: pip install {exc.name}"
        ) from exc
    cls: type[Any] = getattr(module, class_name)
    return cls
