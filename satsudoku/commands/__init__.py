"""One module per `satsudoku` subcommand, each with `register(subparsers)`; found by discovery,
so adding a command is adding a module (the order below is only the order in --help)."""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

_ORDER = ("solve", "count", "prove", "verify_certificate", "explain", "encode", "convert", "bench")
_HELPERS = {"common"}
_DOCSTRING = re.compile(r'\s*"""(.*?)(?:\n\n|""")', re.DOTALL)  # up to its first blank line
_COMMAND_PREFIX = re.compile(r"`satsudoku [\w-]+`:\s*")


def command_modules() -> list[str]:
    """Names of the subcommand modules in this package, in help order."""
    found = {m.name for m in pkgutil.iter_modules(__path__)} - _HELPERS
    return [name for name in _ORDER if name in found] + sorted(found - set(_ORDER))


def command_summary(name: str) -> str:
    """The first paragraph of command module `name`'s docstring, read from its source rather
    than imported, so `satsudoku --help` costs no command's imports."""
    try:
        head = (Path(__file__).parent / f"{name}.py").read_text(encoding="utf-8")[:2000]
    except OSError:
        return ""
    found = _DOCSTRING.match(head)
    text = " ".join(found.group(1).split()) if found else ""
    return _COMMAND_PREFIX.sub("", text, count=1)
