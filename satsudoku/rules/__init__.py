"""Rules: named, parameterised generators of constraints, and the registry that finds them by type.

A rule is data plus one generator (`constraints(shape)`); it knows nothing about backends.
Register a class with `@register_rule` and it works in puzzle documents, `--rule` and every backend;
deriving it from `schema.Declared` with its fields declared gives it `from_spec` and `to_spec`.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from satsudoku.constraints import Constraint
from satsudoku.errors import PuzzleError, SatsudokuError, UnknownRuleError
from satsudoku.grid import Cell, Shape


class Rule(Protocol):
    """A variant rule: `type` names it in documents; `constraints` is what a solution obeys.

    A class may also set `digit_symmetric: ClassVar[bool] = True` when relabelling digits maps
    its solutions onto solutions (counting then skips relabelled copies); absent means False.
    """

    type: ClassVar[str]

    def constraints(self, shape: Shape) -> Iterator[Constraint]: ...

    def to_spec(self) -> dict[str, Any]:
        """The puzzle-document form of this rule (inverse of the factory)."""
        ...


RuleFactory = Callable[[Mapping[str, Any], Shape], Rule]
_REGISTRY: dict[str, RuleFactory] = {}
_CLASSES: dict[str, type] = {}

R = TypeVar("R")


def register_rule(*types: str) -> Callable[[R], R]:
    """Class decorator: make `from_spec` of the class answer to each rule type name."""

    def decorate(cls: R) -> R:
        for name in types:
            _REGISTRY[name] = getattr(cls, "from_spec")  # noqa: B009 - cls is generic here
            if isinstance(cls, type):
                _CLASSES[name] = cls
        return cls

    return decorate


def rule_types() -> list[str]:
    _load_builtin_rules()
    return sorted(_REGISTRY)


def rule_classes() -> dict[str, type]:
    """Each registered rule type's class, built-in or from a plugin: for readers and writers
    that follow what a rule declares (the f-puzzles key of `schema.Declared.fpuzzles`)."""
    _load_builtin_rules()
    return dict(_CLASSES)


def make_rule(spec: Mapping[str, Any], shape: Shape) -> Rule:
    """Build a rule from its document form, e.g. {"type": "diagonal"}; errors name the rule."""
    _load_builtin_rules()
    kind = spec.get("type")
    if not isinstance(kind, str):
        raise PuzzleError(f"rule {dict(spec)!r} has no 'type' field")
    factory = _REGISTRY.get(kind)
    if factory is None:
        raise UnknownRuleError(
            f"unknown rule type {kind!r}; known types: {', '.join(sorted(_REGISTRY))}"
        )
    try:
        return factory(spec, shape)
    except PuzzleError as exc:
        raise PuzzleError(f"rule {kind!r}: {exc.message}") from None


# ASCII digits, at most 20: '\d+' takes '１' and '١', and int() of 5,000 digits raises ValueError.
_CELL_RE = re.compile(r"^[rR]([0-9]{1,20})[cC]([0-9]{1,20})$")


def parse_cell(value: Any, shape: Shape, where: str) -> Cell:
    """Read a cell as 'r3c5' or [3, 5] (1-based), checking it is on the board."""
    if isinstance(value, str) and (m := _CELL_RE.match(value.strip())):
        row, col = int(m.group(1)), int(m.group(2))
    elif (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        row, col = value
    else:
        raise PuzzleError(f"{where}: {value!r} is not a cell (write 'r1c1' or [1, 1])")
    n = shape.size
    if not (1 <= row <= n and 1 <= col <= n):
        raise PuzzleError(f"{where}: cell {value!r} is outside the {n}x{n} board")
    return row - 1, col - 1


ENTRY_POINT_GROUP = "satsudoku.rules"
_entry_points_loaded = False


def _load_builtin_rules() -> None:
    """Import the modules whose decorators fill the registry (deferred to avoid cycles), then
    the installed plugins: every `satsudoku.rules` entry point is loaded once."""
    global _entry_points_loaded
    from satsudoku.rules import (  # noqa: F401
        beside,
        bulbs,
        cages,
        candidates,
        cells,
        chess,
        classic,
        counting,
        dots,
        groups,
        indexers,
        inequalities,
        linedigits,
        lines,
        linesets,
        linesums,
        nearest,
        outside,
        runs,
        sums,
    )

    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points  # ~10 ms: only when rules are looked up

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            entry.load()
        except Exception as exc:  # a broken plugin must say which one it is
            raise SatsudokuError(
                f"rule plugin {entry.name!r} ({entry.value}) failed to load: {exc}"
            ) from exc


def load_plugin(name: str) -> None:
    """Import a user module that registers rules: a dotted module name (found from the current
    directory too) or the path of a .py file."""
    _load_builtin_rules()
    try:
        if name.endswith(".py"):
            path = Path(name)
            if not path.is_file():
                raise SatsudokuError(f"plugin file {name!r} not found")
            spec = importlib.util.spec_from_file_location(f"satsudoku_plugin_{path.stem}", path)
            if spec is None or spec.loader is None:
                raise SatsudokuError(f"cannot import plugin file {name!r}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            return
        if "" not in sys.path and str(Path.cwd()) not in sys.path:
            sys.path.append(str(Path.cwd()))  # `--plugin mymodule` next to the puzzle files
        importlib.import_module(name)
    except SatsudokuError:
        raise
    except Exception as exc:
        raise SatsudokuError(f"plugin {name!r} failed to import: {exc}") from exc
