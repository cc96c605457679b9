"""MkDocs hook: render `satsudoku --help` and every subcommand's help into docs/cli.md at build
time, from the parser the command itself uses, so the reference cannot drift from the code."""

from __future__ import annotations

import argparse
import functools
from typing import Any

MARKER = "<!-- cli-reference:"
PAGE = "cli.md"
WIDTH = 100  # fixed, so the page does not depend on the terminal that builds it


def _fixed_width(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.formatter_class = functools.partial(parser.formatter_class, width=WIDTH)  # type: ignore[call-arg]
    return parser


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse exposes subcommands only through its actions
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_reference() -> str:
    """Markdown for the top-level help and each subcommand's, in --help order."""
    from satsudoku.cli import build_parser  # imported at build time: the installed package

    parser = _fixed_width(build_parser())
    parts = ["### `satsudoku`", "", "```text", parser.format_help().rstrip(), "```", ""]
    for name, sub in _subparsers(parser).items():
        help_text = _fixed_width(sub).format_help().rstrip()
        parts += [f"### `satsudoku {name}`", "", "```text", help_text, "```", ""]
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Replace the marker comment in cli.md (and from it to the end) with the reference."""
    if page.file.src_uri != PAGE:
        return markdown
    start = markdown.find(MARKER)
    if start < 0:
        raise ValueError(f"docs/{PAGE} lost its '{MARKER}' marker: the CLI reference has no place")
    return markdown[:start] + cli_reference()
