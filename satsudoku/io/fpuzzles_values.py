"""Rules texts that give cells a *value* other than their digit, which satsudoku never reads.

Some puzzles redefine what a cell counts as ("Hot/Cold: the value of a shaded cell is one more
than its digit", "The values of all Prey cells are 0", "The value of an indexer cell is the
digit in the cell it indexes") and then state their arrows, dots or lines on those values. The
pictures look exactly like ordinary arrows and dots, so reading them sums digits: another
puzzle, whose verdict (often `unsatisfiable`) would be wrong for the published one. Such a
rules text is refused up front, naming its sentence, whatever the pictures are; with a stored
solution the check against it caught these only by luck.
"""

from __future__ import annotations

import re

from satsudoku.errors import PuzzleError

# "the value(s) of a/an/all/each/every/the/any <up to 3 words> cell(s) is/are/equals", and
# "their value is" (said of cells just named: "for all other cells, their value is …").
_REDEFINED = re.compile(
    r"\bvalues?\s+of\s+(?:(?:a|an|all|each|every|the|any)\s+)?(?:[\w'-]+\s+){0,3}cells?\s+"
    r"(?:is|are|equals?|becomes?|would\s+be)\b"
    r"|\btheir\s+values?\s+(?:is|are)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.\n]*")


def redefined_value(rules_text: str) -> str | None:
    """The sentence of `rules_text` that gives cells a value other than their digit, or None."""
    match = _REDEFINED.search(rules_text)
    if match is None:
        return None
    head = rules_text[: match.start()]
    start = max(head.rfind("\n") + 1, head.rfind(". ") + 2 if ". " in head else 0)
    sentence = _SENTENCE.match(rules_text, start)
    return " ".join((sentence.group(0) if sentence else match.group(0)).split())


def refuse_redefined_values(rules_text: str, site: str) -> None:
    """PuzzleError when the rules text gives cells values other than their digits."""
    sentence = redefined_value(rules_text)
    if sentence is not None:
        shown = sentence if len(sentence) <= 80 else sentence[:79] + "…"
        raise PuzzleError(
            f'{site}: the rules text gives cells a value other than their digit ("{shown}"), '
            "and its clues may sum or compare those values; satsudoku "
            "reads every clue on digits, so it would solve another puzzle: not read"
        )
