"""Rules the command line adds to every puzzle read: `--rule TYPE` and `--negative KIND`.

A rules text often says "all possible dots are given" or "all XV pairs are given", and
SudokuPad's data has no place for it (f-puzzles' has: its `negative` list, read with the
dots). `--negative` says it for such a puzzle: every kropki or XV rule of the puzzle becomes
one rule whose negative constraint covers that kind, so the marks of all of them are exempt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from satsudoku.errors import PuzzleError
from satsudoku.grid import cell_name
from satsudoku.puzzle import Puzzle
from satsudoku.rules import Rule, make_rule

# --negative's kinds, each with the rule whose `negative` names it (what each forbids between
# unmarked cells is the rule's: a difference of 1, a ratio of 2, a sum of 10 or 5).
NEGATIVE_KINDS = {"white": "kropki", "black": "kropki", "x": "xv", "v": "xv"}


def with_rules(puzzle: Puzzle, types: Sequence[str], negative: Sequence[str] = ()) -> Puzzle:
    """The puzzle with parameterless rules of these types added (e.g. `diagonal`) and the
    negative constraint of these mark kinds (`white`, `black`, `x`, `v`) applied."""
    if not types and not negative:
        return puzzle
    extra = tuple(make_rule({"type": name}, puzzle.shape) for name in types)
    if "nonconsecutive" in types:
        _refuse_beside_white_dots(puzzle.rules)
    rules = puzzle.rules + extra
    for kind in ("kropki", "xv"):
        chosen = sorted({k for k in negative if NEGATIVE_KINDS[k] == kind})
        if chosen:
            rules = _with_negative(rules, kind, chosen, puzzle)
    return replace(puzzle, rules=rules)


def _refuse_beside_white_dots(rules: Sequence[Rule]) -> None:
    """Global nonconsecutive forbids a white dot's own pair; a rules text saying "all possible
    white dots are given" means the pairs without a dot, which --negative white says."""
    for rule in rules:
        if rule.type == "kropki":
            for a, b, value in getattr(rule, "white", ()):
                if value == 1:
                    raise PuzzleError(
                        "--rule nonconsecutive beside white kropki dots would forbid the dots' "
                        f"own pairs ({cell_name(a)}-{cell_name(b)}); for "
                        '"all possible white dots are given" use --negative white'
                    )


def _with_negative(
    rules: tuple[Rule, ...], kind: str, chosen: list[str], puzzle: Puzzle
) -> tuple[Rule, ...]:
    """The puzzle's `kind` rules merged into one whose negative also covers `chosen`: a
    negative on one of two rules would not exempt the other's marks."""
    same = [rule for rule in rules if rule.type == kind]
    merged: dict[str, Any] = {"type": kind}
    covered: set[str] = set()
    for rule in same:
        spec = rule.to_spec()
        for field, value in spec.items():
            if field == "negative":
                covered |= _kinds(value, kind)
            elif field != "type":
                merged.setdefault(field, []).extend(value)
    merged["negative"] = sorted(covered | set(chosen))
    try:
        one = make_rule(merged, puzzle.shape)
    except PuzzleError as exc:
        raise PuzzleError(f"--negative {', '.join(chosen)}: {exc}") from None
    others = tuple(rule for rule in rules if rule.type != kind)
    return (*others, one)


def _kinds(value: Any, kind: str) -> set[str]:
    """A written negative (`true` or a list) as the kinds it covers."""
    if value is True:
        return {k for k, owner in NEGATIVE_KINDS.items() if owner == kind}
    return set(value or ())
