"""Exception types: user mistakes (shown as one line, exit 1) versus our own bugs."""

from __future__ import annotations


class SatsudokuError(Exception):
    """Base of every error the library raises on purpose."""


class PuzzleError(SatsudokuError):
    """The user's input is wrong: a message naming what and where, never a traceback."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self.located())

    def located(self) -> str:
        """Render as 'file:line:col: message', leaving out the parts we do not know."""
        parts = [p for p in (self.source, self.line, self.column) if p is not None]
        prefix = ":".join(str(p) for p in parts)
        return f"{prefix}: {self.message}" if prefix else self.message

    def at(self, source: str | None = None, line: int | None = None) -> PuzzleError:
        """Return a copy that also names the file/line, keeping what is already known."""
        return PuzzleError(
            self.message,
            source=self.source or source,
            line=self.line if self.line is not None else line,
            column=self.column,
        )


class UnknownRuleError(PuzzleError):
    """A rule type that no registered rule class provides."""


class UnsupportedPuzzleError(PuzzleError):
    """A backend that handles only some rules (e.g. `fast`) was given a puzzle outside them."""


class OutputError(SatsudokuError):
    """An output cannot be written (a full disk, a directory in the way): one line, exit 1."""


class UnknownBackendError(SatsudokuError):
    """A backend name that the registry does not know."""


class BackendUnavailableError(SatsudokuError):
    """The backend's solver package is not installed."""


class BackendBugError(SatsudokuError):
    """A backend produced an answer the independent verifier rejects: always our bug."""


class OptionError(SatsudokuError, ValueError):
    """A solving option given through the API is out of range (a limit of 0, a timeout of
    nan): named with its value, before any solver sees it."""


class OptionTypeError(OptionError, TypeError):
    """A solving option of the wrong type (a limit of 1.5 or "2", a timeout of True)."""
