"""MkDocs hook: each `<!-- fields: TYPE -->` marker in docs/rules.md becomes the table of that
rule's document fields, rendered from the rule class's own declarations (satsudoku.rules.schema),
so the page states what `from_spec` reads. Every built-in rule type with fields needs a marker."""

from __future__ import annotations

import re
from typing import Any

PAGE = "rules.md"
MARKER = re.compile(r"<!-- fields: ([\w+ -]+?) -->")  # one type, or several with equal fields


def _classes() -> dict[str, type[Any]]:
    """Rule type name -> class, for the built-in rules (an installed plugin has no section)."""
    from satsudoku.rules import _REGISTRY, rule_types  # imported at build time

    rule_types()  # fills the registry
    classes = {name: factory.__self__ for name, factory in _REGISTRY.items()}
    return {n: c for n, c in classes.items() if c.__module__.startswith("satsudoku.rules.")}


def field_table(cls: type[Any]) -> str:
    """Markdown table of a rule class's declared fields."""
    from satsudoku.rules.schema import field_docs

    rows = ["| field | if left out | value |", "|---|---|---|"]
    for doc in field_docs(cls):
        if doc.required:
            absent = "required"
        else:
            absent = f"default {doc.default}" if doc.default else "none"
        value = doc.value.replace("|", "\\|")
        rows.append(f"| `{doc.key}` | {absent} | {value} |")
    return "\n".join(rows)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Replace every marker in rules.md with its table; refuse an unknown type or a missing one."""
    if page.file.src_uri != PAGE:
        return markdown
    from satsudoku.rules.schema import field_docs

    classes = _classes()
    marked: set[type[Any]] = set()

    def table(match: re.Match[str]) -> str:
        names = match.group(1).split()
        unknown = [name for name in names if name not in classes]
        if unknown:
            raise ValueError(f"docs/{PAGE}: marker names unknown rule type {unknown[0]!r}")
        tables = {field_table(classes[name]) for name in names}
        if len(tables) != 1:
            raise ValueError(f"docs/{PAGE}: the rules {names} of one marker differ in fields")
        marked.update(classes[name] for name in names)
        return tables.pop()

    out = MARKER.sub(table, markdown)
    missing = sorted(name for name, cls in classes.items() if field_docs(cls) and cls not in marked)
    if missing:
        raise ValueError(f"docs/{PAGE} has no '<!-- fields: TYPE -->' marker for {missing}")
    return out
