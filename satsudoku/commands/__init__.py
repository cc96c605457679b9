"""One module per `satsudoku` subcommand, each with `register(subparsers)`; found by discovery,
so adding a command is adding a module (the order below is only the order in --help)."""

from __future__ import annotations

import pkgutil

_ORDER = ("solve", "count", "prove", "verify_certificate", "explain", "encode", "convert", "bench")
_HELPERS = {"common"}


def command_modules() -> list[str]:
    """Names of the subcommand modules in this package, in help order."""
    found = {m.name for m in pkgutil.iter_modules(__path__)} - _HELPERS
    return [name for name in _ORDER if name in found] + sorted(found - set(_ORDER))
