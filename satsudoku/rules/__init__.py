"""Rules: named, parameterised generators of constraints, and the registry that finds them by type.

A rule is data plus one generator (`constraints(shape)`); it knows nothing about backends.
Register a class with `@register_rule` and it works in puzzle documents, `--rule` and every backend.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from satsudoku.constraints import Constraint
from satsudoku.errors import PuzzleError, UnknownRuleError
from satsudoku.grid import Cell, Shape


class Rule(Protocol):
    """A variant rule: `type` names it in documents; `constraints` is what a solution obeys."""

    type: ClassVar[str]

    def constraints(self, shape: Shape) -> Iterator[Constraint]: ...

    def to_spec(self) -> dict[str, Any]:
        """The puzzle-document form of this rule (inverse of the factory)."""
        ...


RuleFactory = Callable[[Mapping[str, Any], Shape], Rule]
_REGISTRY: dict[str, RuleFactory] = {}

R = TypeVar("R")


def register_rule(*types: str) -> Callable[[R], R]:
    """Class decorator: make `from_spec` of the class answer to each rule type name."""

    def decorate(cls: R) -> R:
        for name in types:
            _REGISTRY[name] = getattr(cls, "from_spec")  # noqa: B009 - cls is generic here
        return cls

    return decorate


def rule_types() -> list[str]:
    _load_builtin_rules()
    return sorted(_REGISTRY)


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


_CELL_RE = re.compile(r"^[rR](\d+)[cC](\d+)$")


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


def _load_builtin_rules() -> None:
    """Import the modules whose decorators fill the registry (deferred to avoid cycles)."""
    from satsudoku.rules import cells, chess, classic, dots, groups, lines, sums  # noqa: F401
