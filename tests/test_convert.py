"""`satsudoku convert`: plain targets refuse to drop rules, regions or a box shape; `--to toml`
writes documents that read back to the same puzzle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.commands.convert import toml_document
from satsudoku.errors import PuzzleError
from satsudoku.io import puzzle_document, read_puzzles, read_text
from tests.test_models import model_params

ROOT = Path(__file__).resolve().parent.parent
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def write(tmp_path: Path, text: str, name: str = "p.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("target", ["line", "grid", "leetcode"])
def test_plain_targets_keep_plain_puzzles(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", write(tmp_path, EASY), "--to", target]) == 0
    (back,) = read_text(capsys.readouterr().out)
    assert back.givens == read_text(EASY)[0].givens


@pytest.mark.parametrize(
    ("document", "lost"),
    [
        (
            {"givens": EASY, "rules": [{"type": "diagonal"}, {"type": "antiknight"}]},
            "would drop the rules diagonal, antiknight;",
        ),
        (
            {"size": 4, "regions": ["1122", "1122", "3344", "3434"]},
            "would drop the jigsaw regions;",
        ),
        ({"size": 6, "box": [3, 2]}, "would drop the box 3x2;"),
        (
            {
                "size": 4,
                "regions": ["1122", "1122", "3344", "3434"],
                "rules": [{"type": "antiking"}],
            },
            "would drop the rule antiking and the jigsaw regions;",
        ),
    ],
)
@pytest.mark.parametrize("target", ["line", "grid", "leetcode"])
def test_plain_targets_refuse_what_they_would_lose(
    document: dict[str, object],
    lost: str,
    target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = write(tmp_path, json.dumps(document), "doc.json")
    assert main(["convert", path, "--to", target]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"satsudoku: {path}: --to {target} {lost} use --to json or --to toml\n"


# Published models beyond one per rule type and feature under -m slow (covering_models).
@pytest.mark.parametrize("path", model_params())
def test_toml_round_trips_every_model(path: Path) -> None:
    for puzzle in read_puzzles(path):
        doc = puzzle_document(puzzle)
        if "sandwich" in {rule["type"] for rule in doc["rules"]}:
            continue  # null clues: see test_toml_refuses_null
        (back,) = read_text(toml_document(doc), fmt="toml")
        assert puzzle_document(back) == doc


def test_convert_to_toml_solves_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = ROOT / "models/variants/killer/wikipedia-killer.json"
    assert main(["convert", str(source), "--to", "toml"]) == 0
    path = write(tmp_path, capsys.readouterr().out, "killer.toml")
    (puzzle,) = read_puzzles(path)
    (original,) = read_puzzles(source)
    assert puzzle.rules == original.rules and puzzle.givens == original.givens
    assert main(["solve", path, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (
        record["status"] == "unique" and record["solution"] == puzzle_document(original)["solution"]
    )


def test_toml_refuses_null(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = ROOT / "models/variants/sums/sandwich-6x6.json"
    assert main(["convert", str(source), "--to", "toml"]) == 1
    assert "rules[0].rows[" in capsys.readouterr().err
    with pytest.raises(PuzzleError, match="TOML cannot hold; use --to json"):
        toml_document({"size": 4, "rules": [{"type": "sandwich", "rows": [None, 3, None, None]}]})


def test_toml_holds_one_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EASY + "\n" + EASY + "\n")
    assert main(["convert", path, "--to", "toml"]) == 1
    assert "the input holds 2 puzzles; use --to json" in capsys.readouterr().err


def test_toml_strings_are_escaped() -> None:
    doc = {"title": 'a "quoted" \\ title\twith\ttabs', "size": 4, "givens": "1..." + "." * 12}
    (back,) = read_text(toml_document(doc), fmt="toml")
    assert back.title == doc["title"]
