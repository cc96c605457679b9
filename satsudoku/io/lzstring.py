"""lz-string's `decompressFromBase64` (pieroxy/lz-string 1.4), the packing of f-puzzles and
SudokuPad links, with its output and its work bounded by MAX_PAYLOAD_CHARS."""

from __future__ import annotations

from satsudoku.errors import PuzzleError
from satsudoku.io.limits import MAX_DOCUMENT_CHARS, MAX_PAYLOAD_CHARS

_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_BASE64_VALUE = {ch: i for i, ch in enumerate(_BASE64)}


def lz_decompress_base64(data: str, what: str = "f-puzzles data") -> str:
    """Decode an lz-string base64 text: an LZW variant whose codes grow from 3 bits; code 0/1
    introduces an 8/16-bit literal, 2 ends the stream. Errors start with `what`.

    LZW output can grow quadratically in its input (each code may name an entry one character
    longer than the last: a 44 KB text once decoded to 600 MB), so the characters produced are
    counted and the decoding stops at MAX_PAYLOAD_CHARS. Every dictionary entry is at most one
    character longer than an entry already written out, so that cap bounds the dictionary too.
    """
    data = data.strip()
    if len(data) > MAX_DOCUMENT_CHARS:
        raise PuzzleError(f"{what}: over {MAX_DOCUMENT_CHARS:,} characters of compressed text")
    try:
        values = [_BASE64_VALUE[ch] for ch in data]
    except KeyError as exc:
        raise PuzzleError(f"{what}: {exc.args[0]!r} is not a base64 character") from None
    if not values:
        return ""
    reader = _BitReader(values)
    dictionary: list[str] = ["", "", ""]  # codes 0..2 are the control codes above
    enlarge_in, bits = 4, 3
    kind = reader.read(2)
    if kind == 2:
        return ""
    if kind not in (0, 1):
        raise PuzzleError(f"{what}: not an lz-string stream")
    first = chr(reader.read(8 if kind == 0 else 16))
    dictionary.append(first)
    previous, out, produced = first, [first], 1
    while True:
        if reader.exhausted():
            raise PuzzleError(f"{what}: the compressed text is truncated")
        code = reader.read(bits)
        if code in (0, 1):
            dictionary.append(chr(reader.read(8 if code == 0 else 16)))
            code = len(dictionary) - 1
            enlarge_in -= 1
        elif code == 2:
            return "".join(out)
        if enlarge_in == 0:
            enlarge_in, bits = 1 << bits, bits + 1
        if code < len(dictionary):
            entry = dictionary[code]
        elif code == len(dictionary):  # the LZW corner case: the code being defined right now
            entry = previous + previous[0]
        else:
            raise PuzzleError(f"{what}: corrupt lz-string stream")
        produced += len(entry)
        if produced > MAX_PAYLOAD_CHARS:
            raise PuzzleError(
                f"{what}: decompresses to over {MAX_PAYLOAD_CHARS:,} characters, far more than "
                "any puzzle holds; refused"
            )
        out.append(entry)
        dictionary.append(previous + entry[0])
        enlarge_in -= 1
        previous = entry
        if enlarge_in == 0:
            enlarge_in, bits = 1 << bits, bits + 1


class _BitReader:
    """Bits of 6-bit base64 values, most significant first, assembled least significant first."""

    def __init__(self, values: list[int]) -> None:
        self.values, self.index, self.mask = values, 0, 32

    def exhausted(self) -> bool:
        return self.index > len(self.values)

    def read(self, count: int) -> int:
        result = 0
        for k in range(count):
            value = self.values[self.index] if self.index < len(self.values) else 0
            if value & self.mask:
                result |= 1 << k
            self.mask >>= 1
            if not self.mask:
                self.mask, self.index = 32, self.index + 1
        return result
