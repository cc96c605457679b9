"""Rule instances: the parts of a puzzle's rules a setter can remove one by one (a cage, a dot,
a line, an arrow, an outside clue), found from each rule's document form.

An item of a list or table in a rule's spec (or a `true` flag) is an instance when the rule
built without it generates a sub-multiset of its constraints: the difference is then exactly
what the item adds. Items that change other constraints when removed (a kropki dot under the
negative constraint turns into "not a kropki pair") are not separable and stay fixed; a rule
with no separable item is one instance as a whole (a diagonal, an extra region).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from satsudoku.constraints import Constraint
from satsudoku.deadline import check
from satsudoku.errors import BackendBugError, PuzzleError
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule, make_rule

_BLANK, _DELETE = "blank", "delete"  # how an item leaves its spec: None in place, or gone


@dataclass(frozen=True)
class Instance:
    """One removable part of the rules: rule `rule`'s item `key` of field `field`, or (field
    None) the whole rule; `constraints` is what it adds to the puzzle."""

    rule: int
    type: str
    field: str | None
    key: int | str | None
    item: Any  # the item as the document writes it (JSON-ready)
    constraints: tuple[Constraint, ...]
    removal: str = _DELETE

    @property
    def label(self) -> str:
        """How messages name it, e.g. `killer cages[2] {"cells": ["r1c1", "r2c1"], "sum": 7}`."""
        if self.field is None:
            return f"{self.type} (rule {self.rule + 1})"
        where = f"[{self.key}]" if isinstance(self.key, int) else f"[{self.key!r}]"
        shown = json.dumps(self.item)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return f"{self.type} {self.field}{where} {shown}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "type": self.type}
        if self.field is not None:
            out.update(field=self.field, key=self.key, item=self.item)
        return out


@dataclass(frozen=True)
class Split:
    """A puzzle's rules as removable instances plus the constraints that always hold."""

    instances: tuple[Instance, ...]
    fixed: tuple[Constraint, ...]  # classic houses and the rules' non-separable rest


def split_rules(puzzle: Puzzle, deadline: float | None = None) -> Split:
    """Cut every rule of `puzzle` into instances (see the module docstring)."""
    shape = puzzle.shape
    fixed: list[Constraint] = list(Puzzle.empty(shape).constraints())  # the classic houses
    found: list[Instance] = []
    for index, rule in enumerate(puzzle.rules):
        check(deadline)
        parts, rest = _split_rule(index, rule, shape, deadline)
        found.extend(parts)
        fixed.extend(rest)
    return Split(tuple(found), tuple(fixed))


def _split_rule(
    index: int, rule: Rule, shape: Shape, deadline: float | None
) -> tuple[list[Instance], list[Constraint]]:
    spec = rule.to_spec()
    kind = str(spec["type"])
    constraints = list(rule.constraints(shape))
    try:
        whole = Counter(constraints)
    except TypeError:  # a plugin constraint that is not hashable: the rule stays one piece
        return [Instance(index, kind, None, None, None, tuple(constraints))], []
    parts: list[Instance] = []
    for field, value in spec.items():
        for key, item in _items(field, value):
            check(deadline)
            found = _separable(spec, field, key, shape, whole)
            if found is not None:
                removal, added = found
                if not added and _blank_entry(item):
                    continue  # an outside rule's 0: no clue there, nothing a setter placed
                parts.append(Instance(index, kind, field, key, item, added, removal))
    if not parts:
        return [Instance(index, kind, None, None, spec, tuple(constraints))], []
    rest = whole - sum((Counter(part.constraints) for part in parts), Counter())
    return parts, list(rest.elements())


def _items(field: str, value: Any) -> Iterable[tuple[int | str | None, Any]]:
    """The candidate items of one spec field: list entries, table keys, or a `true` flag."""
    if field == "type":
        return []
    if isinstance(value, list):
        return [(k, item) for k, item in enumerate(value) if item is not None]
    if isinstance(value, Mapping):
        return [(str(k), item) for k, item in value.items()]
    if value is True:
        return [(None, True)]
    return []  # a parameter (a difference, a modulus): not a part of the puzzle


def _blank_entry(item: Any) -> bool:
    """A list entry that holds no clue (0 in `left`/`right`/`top`/`bottom`, where TOML has no
    null); counted as an instance, every empty slot of a minimal puzzle read as redundant."""
    return item is False or (not isinstance(item, bool) and item in (0, ""))


def _separable(
    spec: Mapping[str, Any], field: str, key: int | str | None, shape: Shape, whole: Counter[Any]
) -> tuple[str, tuple[Constraint, ...]] | None:
    """How the item leaves the spec and what it adds, or None if removing it is not a pure
    removal of constraints (or the rule refuses the spec without it)."""
    for removal in (_BLANK, _DELETE) if isinstance(key, int) else (_DELETE,):
        reduced = _without(spec, {field: [(key, removal)]})
        try:
            rest = Counter(make_rule(reduced, shape).constraints(shape))
        except (PuzzleError, TypeError):
            continue
        if all(whole[c] >= count for c, count in rest.items()):
            return removal, tuple((whole - rest).elements())
    return None


def _without(
    spec: Mapping[str, Any], removals: Mapping[str, Sequence[tuple[int | str | None, str]]]
) -> dict[str, Any]:
    """A copy of `spec` with the items named per field taken out (list entries from the end,
    so earlier indices stay valid; an emptied field is dropped, as writers leave it out)."""
    out = dict(spec)
    for field, items in removals.items():
        value = out[field]
        if isinstance(value, list):
            value = list(value)
            for key, removal in sorted(items, key=lambda kr: -int(kr[0] or 0)):
                assert isinstance(key, int)
                if removal == _BLANK:
                    value[key] = None
                else:
                    del value[key]
            keep = value and any(v is not None for v in value)
        elif isinstance(value, Mapping):
            value = {k: v for k, v in value.items() if str(k) not in {key for key, _ in items}}
            keep = bool(value)
        else:
            keep = False
        if keep:
            out[field] = value
        else:
            del out[field]
    return out


def without(puzzle: Puzzle, split: Split, removed: Iterable[Instance]) -> Puzzle:
    """`puzzle` with the given instances taken out of its rules (whole rules dropped), checked:
    each rebuilt rule must generate exactly its constraints minus theirs."""
    by_rule: dict[int, list[Instance]] = {}
    for instance in removed:
        by_rule.setdefault(instance.rule, []).append(instance)
    rules: list[Rule] = []
    for index, rule in enumerate(puzzle.rules):
        gone = by_rule.get(index, [])
        if not gone:
            rules.append(rule)
            continue
        if any(instance.field is None for instance in gone):
            continue  # the whole rule goes
        removals: dict[str, list[tuple[int | str | None, str]]] = {}
        for instance in gone:
            assert instance.field is not None
            removals.setdefault(instance.field, []).append((instance.key, instance.removal))
        spec = _without(rule.to_spec(), removals)
        expected = Counter(rule.constraints(puzzle.shape)) - sum(
            (Counter(instance.constraints) for instance in gone), Counter()
        )
        rebuilt: Rule | None = None
        try:
            rebuilt = make_rule(spec, puzzle.shape)
        except PuzzleError:
            if expected:  # the rule refuses to stand without those items yet still says more
                raise BackendBugError(
                    f"rule {spec['type']!r} cannot be rebuilt without its items"
                ) from None
        if rebuilt is None:
            continue
        if Counter(rebuilt.constraints(puzzle.shape)) != expected:
            raise BackendBugError(f"rule {spec['type']!r}: its items are not independent")
        if expected:
            rules.append(rebuilt)
    return replace(puzzle, rules=tuple(rules))
