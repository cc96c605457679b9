"""lz-string's `compressToBase64` (pieroxy/lz-string 1.4): the packing f-puzzles and SudokuPad
links use, the inverse of `lzstring.lz_decompress_base64`."""

from __future__ import annotations

_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


class Base64Bits:
    """6-bit base64 characters filled most significant bit first; a value goes in least
    significant bit first (lz-string's bit order, mirrored by the decoder's _BitReader)."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.value = self.filled = 0

    def put(self, value: int, width: int) -> None:
        for k in range(width):
            self.value = (self.value << 1) | ((value >> k) & 1)
            self.filled += 1
            if self.filled == 6:
                self.chars.append(_BASE64[self.value])
                self.value = self.filled = 0

    def text(self) -> str:
        """Pad the last character with zero bits, then to a multiple of 4 with '='."""
        if self.filled:
            self.put(0, 6 - self.filled)
        body = "".join(self.chars)
        return body + "=" * (-len(body) % 4)


def _utf16_units(text: str) -> list[str]:
    """The string as JavaScript sees it: a character beyond U+FFFF is two surrogates."""
    units: list[str] = []
    for ch in text:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            units += [chr(0xD800 + (code >> 10)), chr(0xDC00 + (code & 0x3FF))]
        else:
            units.append(ch)
    return units


def lz_compress_base64(text: str) -> str:
    """Compress `text` as lz-string's compressToBase64 does, character for character.

    LZW over UTF-16 code units: codes 0/1 introduce an 8/16-bit literal, 2 ends the stream,
    every other code names a dictionary phrase. Codes are written with `width` bits, which
    grows by one each time the dictionary reaches the next power of two; a literal also
    claims a code, so it counts towards that growth twice (once for itself, once for the
    phrase that follows it), exactly as the reference implementation does.
    """
    codes: dict[str, int] = {}
    unsent: set[str] = set()  # characters in the dictionary whose literal is not yet written
    bits = Base64Bits()
    width, until_wider = 2, 2

    def count_code() -> None:
        nonlocal width, until_wider
        until_wider -= 1
        if until_wider == 0:
            until_wider, width = 1 << width, width + 1

    def write_phrase(phrase: str) -> None:
        if phrase in unsent:
            wide = ord(phrase) > 0xFF
            bits.put(int(wide), width)
            bits.put(ord(phrase), 16 if wide else 8)
            unsent.discard(phrase)
            count_code()
        else:
            bits.put(codes[phrase], width)
        count_code()

    phrase = ""
    for unit in _utf16_units(text):
        if unit not in codes:
            codes[unit] = len(codes) + 3  # 0..2 are the control codes
            unsent.add(unit)
        if phrase + unit in codes:
            phrase += unit
            continue
        write_phrase(phrase)
        codes[phrase + unit] = len(codes) + 3
        phrase = unit
    if phrase:
        write_phrase(phrase)
    bits.put(2, width)  # end of stream
    return bits.text()
