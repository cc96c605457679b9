"""Alphabets: how digits 1..n are written as symbols, and which characters mean "empty"."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from satsudoku.errors import PuzzleError

DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
LETTER_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0-_*"


@dataclass(frozen=True, slots=True)
class Alphabet:
    """`symbols[d-1]` writes digit d; any character of `blanks` reads as an empty cell."""

    symbols: str
    blanks: str = BLANKS
    name: str = "custom"
    numbers: int = 0  # > 0: digits are written as the decimal numbers 1..numbers (`12 0 3 …`)

    @classmethod
    def default(cls, size: int) -> Alphabet:
        """`1-9` then `A`, `B`, …: 1-9A-G for 16×16 (FORMATS.md §1)."""
        return cls(DEFAULT_SYMBOLS[:size], BLANKS, "default")

    @classmethod
    def letters(cls, size: int) -> Alphabet:
        """`A`…: A-P for 16×16, as judges (POJ 3076) and the shared datasets write them."""
        return cls(LETTER_SYMBOLS[:size], BLANKS, "letters")

    @classmethod
    def custom(cls, symbols: str) -> Alphabet:
        """The alphabet of `--symbols`; blanks are only `.` so that `0` can be a digit."""
        check_symbols(symbols)
        return cls(symbols, ".", "custom")

    @classmethod
    def numeric(cls, size: int) -> Alphabet:
        """Digits as decimal numbers, as judges print 16×16 grids (`12 0 3 …`)."""
        return cls("", BLANKS, "numeric", size)

    @property
    def is_numeric(self) -> bool:
        return self.numbers > 0

    @property
    def blank(self) -> str:
        """The blank writers use: `0` between numbers, as judges write them, else `.`."""
        return "0" if self.is_numeric else "."

    @property
    def case_insensitive(self) -> bool:
        """Letters may be typed in either case when the alphabet has no lowercase of its own."""
        return not any(ch.islower() for ch in self.symbols)

    def digit(self, symbol: str) -> int | None:
        """Digit of `symbol`, 0 for a blank, None if the symbol is not in this alphabet."""
        return self.table().get(symbol)

    def table(self) -> dict[str, int]:
        """Symbol → digit (0 for blanks), built once per alphabet: parsing is per character."""
        if self.is_numeric:
            return _numeric_table(self.numbers, self.blanks)
        return _decode_table(self.symbols, self.blanks, self.case_insensitive)

    def symbol(self, digit: int, blank: str = ".") -> str:
        if not digit:
            return blank
        return str(digit) if self.is_numeric else self.symbols[digit - 1]

    def describe(self) -> str:
        """Short range form for error messages, e.g. '1-9A-G' or 'A-P'."""
        if self.is_numeric:
            return f"the numbers 1-{self.numbers}"
        runs: list[str] = []
        start = prev = self.symbols[0] if self.symbols else ""
        for ch in self.symbols[1:] + "\0":
            if ord(ch) == ord(prev) + 1:
                prev = ch
                continue
            runs.append(start if start == prev else f"{start}-{prev}")
            start = prev = ch
        return "".join(runs)

    def fits(self, size: int) -> bool:
        return (self.numbers or len(self.symbols)) >= size


def check_symbols(symbols: str) -> str:
    """Return `symbols` if it can be an alphabet: one symbol per digit, none twice, no spaces."""
    if not symbols:
        raise PuzzleError("symbols: give at least one, e.g. 0123456789ABCDEF")
    for index, symbol in enumerate(symbols):
        if symbol.isspace():
            raise PuzzleError(f"symbols {symbols!r}: symbol {index + 1} is whitespace")
        if not symbol.isprintable():  # ESC, NUL, a bidi override: they would reach the output
            raise PuzzleError(f"symbols {symbols!r}: symbol {index + 1} is not printable")
        if unicodedata.category(symbol).startswith("M"):  # U+0301: 'a' and it print as 'á'
            raise PuzzleError(
                f"symbols {symbols!r}: symbol {index + 1} is a combining mark; printed, it joins "
                "the symbol before it"
            )
        if symbol == ".":  # else an empty grid of dots reads as all one digit: 'unsatisfiable'
            raise PuzzleError(f"symbols {symbols!r}: '.' is the blank, it cannot be a digit too")
        if symbol in symbols[:index]:
            raise PuzzleError(
                f"symbols {symbols!r}: {symbol!r} appears twice, so two digits would look alike"
            )
    return symbols


@lru_cache(maxsize=64)
def _numeric_table(numbers: int, blanks: str) -> dict[str, int]:
    table = {blank: 0 for blank in blanks}
    table.update((str(digit), digit) for digit in range(1, numbers + 1))
    return table


@lru_cache(maxsize=128)
def _decode_table(symbols: str, blanks: str, case_insensitive: bool) -> dict[str, int]:
    table = {blank: 0 for blank in blanks if blank not in symbols}
    for index, symbol in enumerate(symbols):
        table[symbol] = index + 1
        if case_insensitive:
            table.setdefault(symbol.lower(), index + 1)
    return table
