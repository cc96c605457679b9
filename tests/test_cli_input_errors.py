"""Bad input through the real command line: exit 1, one line naming the place, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.cli import main
from tests import forked

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_ROWS = [EASY[r * 9 : r * 9 + 9] for r in range(9)]
BOARD = [list(row) for row in EASY_ROWS]
JUDGE_BLANK_ROWS = ["0 0 0 0 0 0 0 0 0"] * 8


def board_with(r: int, c: int, entry: object, board: list[list[str]] = BOARD) -> list[list[object]]:
    changed: list[list[object]] = [list(row) for row in board]
    changed[r][c] = entry
    return changed


# (file name, content, extra options, what the one stderr line holds; FILE: the file's path)
CASES = [
    ("lc55.json", json.dumps(board_with(0, 1, "55")), [], "FILE:1:8: board 1: digit 55 at r1c2"),
    ("lc10.json", json.dumps(board_with(0, 1, "10")), [], "FILE:1:8: board 1: digit 10 at r1c2"),
    (
        "lc16.json",
        json.dumps(board_with(3, 3, "17", [["."] * 16 for _ in range(16)])),
        [],
        "board 1: digit 17 at r4c4 is out of range 1..16",
    ),
    ("lcsup.json", json.dumps(board_with(8, 8, "²")), [], "board 1: unknown symbol '²' at r9c9"),
    ("lcnull.json", json.dumps(board_with(2, 3, None)), [], "FILE:1:112: board 1: r3c4 is null"),
    (
        "lcmany.json",
        "[\n" + json.dumps(BOARD) + ",\n" + json.dumps(board_with(1, 2, "x")) + "\n]",
        [],
        "FILE:3:",
    ),
    (
        "lcrow.json",
        json.dumps([BOARD, BOARD[:8]], indent=1),
        [],
        "board 2: row 1 has 9 entries, expected 8",
    ),
    ("lc5.json", json.dumps([["."] * 5] * 5), [], "FILE:1: board 1: size 5 has no rectangular box"),
    ("lcnot.json", "[1, 2, 3]", [], "FILE:1: expected a LeetCode board"),
    ("empty.json", "[]", [], "FILE: no puzzle found"),
    ("nopuzzles.json", '{"puzzles": []}', [], "FILE: no puzzle found"),
    ("empty.txt", "", [], "FILE: empty input, no puzzle found"),
    ("comments.txt", "# nothing\n", [], "FILE: no puzzle found"),
    ("badjson.json", '{"givens": "' + EASY + '",}', [], "FILE:1:"),
    ("judgesup.txt", "\n".join(["8 0 0 0 0 0 0 0 ²", *JUDGE_BLANK_ROWS]), [], "FILE:1:17: unknown"),
    ("judgeara.txt", "\n".join(["8 0 0 0 0 0 0 0 ١", *JUDGE_BLANK_ROWS]), [], "FILE:1:17: unknown"),
    ("linesup.txt", EASY[:-1] + "²", [], "FILE:1:81: unknown symbol '²' at r9c9"),
    ("judge99.txt", "\n".join(["99 0 0 0 0 0 0 0 0", *JUDGE_BLANK_ROWS]), [], "FILE:1:1: digit 99"),
    (
        "judgehuge.txt",
        "\n".join(["9" * 5000 + " 0 0 0 0 0 0 0 0", *JUDGE_BLANK_ROWS]),
        [],
        "FILE:1:1: digit 999999999… at r1c1 is out of range",
    ),
    (
        "fourbad.txt",
        "\n".join(["1234341221434321"] * 15 + ["1234341221434325"]),
        [],
        "FILE:16:16: unknown symbol '5' at r4c4: a 4x4 board",
    ),
    (
        "bandgap.txt",
        "\n".join(EASY_ROWS[:2]) + "\n\n" + "\n".join(EASY_ROWS[2:]),
        [],
        "FILE:1: a 9x9 grid needs 9 rows, found 2",
    ),
    ("shortrow.txt", "123\n456\n78\n", [], "FILE:3: grid row has 2 cells"),
    ("short.txt", EASY[:-1], [], "FILE:1: expected a puzzle of n² symbols"),
    ("unknown.txt", EASY[:40] + "x" + EASY[41:], [], "FILE:1:41: unknown symbol 'x' at r5c5"),
    (
        "killer.txt",
        "AABBCCDDEEFFGGHH 3,7,7,3,3,7,7,3 123434122143432²",
        ["--format", "killer"],
        "FILE:1: solution must be 16 digits",
    ),
    (
        "jigsaw.txt",
        "١............... aabbaabbccddccdd -",
        ["--format", "jigsaw"],
        "FILE:1: PUZZLE: '١' at r1c1",
    ),
    (
        "docsymbols.json",
        json.dumps({"givens": EASY, "symbols": "aac456789"}),
        [],
        "'a' appears twice",
    ),
]


@pytest.mark.parametrize(("name", "text", "options", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_located_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    options: list[str],
    expected: str,
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["solve", str(path), *options]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    assert len(captured.err.splitlines()) == 1
    assert expected.replace("FILE", str(path)) in captured.err


@pytest.mark.parametrize(
    ("symbols", "message"),
    [("aac456789", "'a' appears twice"), ("12 456789", "is whitespace"), ("", "at least one")],
)
def test_bad_symbols_are_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], symbols: str, message: str
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(EASY)
    with pytest.raises(SystemExit) as info:
        main(["solve", str(path), "--symbols", symbols])
    assert info.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert "argument --symbols:" in last and message in last


def test_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    """The same through `python -m satsudoku` in its own process (a fork of this one, see
    tests/forked.py): stderr is exactly the message, exit status 1."""
    for name, text, options, expected in CASES[:3] + CASES[9:10] + CASES[14:15]:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        done = forked.satsudoku("solve", str(path), *options)
        assert done.code == 1, done.err
        assert done.out == "" and "Traceback" not in done.err
        assert done.err.count("\n") == 1
        assert expected.replace("FILE", str(path)) in done.err
