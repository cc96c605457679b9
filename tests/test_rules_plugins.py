"""User rules without forking: a rule in the user's own file, loaded with --plugin (module name
or .py path) or an entry point, works in --rule, in documents and on every backend."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.cli import main
from satsudoku.errors import SatsudokuError
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.rules import load_plugin, make_rule
from tests.test_rules import all_4x4

# The README's example, shipped as examples/queen_rule.py: no two cells a chess queen's move
# apart both hold a 9 (rows and columns already forbid that, so only the diagonals need rules).
QUEEN_PLUGIN = (Path(__file__).resolve().parent.parent / "examples" / "queen_rule.py").read_text()


@pytest.fixture
def plugin_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "queen_rule.py"
    path.write_text(QUEEN_PLUGIN)
    monkeypatch.chdir(tmp_path)
    yield path
    sys.modules.pop("queen_rule", None)


def queen_ok(g: tuple[tuple[int, ...], ...], digit: int) -> bool:
    spots = [(r, c) for r in range(4) for c in range(4) if g[r][c] == digit]
    return all(
        abs(a[0] - b[0]) != abs(a[1] - b[1]) for i, a in enumerate(spots) for b in spots[i + 1 :]
    )


@pytest.mark.parametrize("backend_name", available())
def test_a_plugin_rule_counts_right_on_every_backend(plugin_file: Path, backend_name: str) -> None:
    load_plugin(str(plugin_file))
    shape = Shape(2, 2)
    rule = make_rule({"type": "queen", "digit": 4}, shape)
    expected = sum(1 for g in all_4x4() if queen_ok(g, 4))
    assert 0 < expected < 288
    result = get_backend(backend_name).solve(Puzzle.empty(shape, (rule,)), limit=300)
    assert result.exhausted and result.count == expected


def test_cli_plugin_by_module_name_with_rule_option(
    plugin_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzle = plugin_file.parent / "p.txt"
    puzzle.write_text("." * 81 + "\n")
    argv = ["solve", str(puzzle), "--plugin", "queen_rule", "--rule", "queen", "--limit", "1"]
    assert main([*argv, "--backend", "sat", "--json"]) == 0
    solution = json.loads(capsys.readouterr().out)["solution"]
    nines = [divmod(i, 9) for i, ch in enumerate(solution) if ch == "9"]
    assert len(nines) == 9
    assert all(abs(a[0] - b[0]) != abs(a[1] - b[1]) for a in nines for b in nines if a != b)


def test_cli_plugin_by_path_in_a_document(
    plugin_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = plugin_file.parent / "doc.json"
    doc.write_text(json.dumps({"size": 4, "rules": [{"type": "queen", "digit": 1}]}))
    assert main(["count", str(doc), "--plugin", str(plugin_file)]) == 0
    expected = sum(1 for g in all_4x4() if queen_ok(g, 1))
    assert str(expected) in capsys.readouterr().out


def test_missing_plugin_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["solve", "-", "--plugin", "no_such_rules_module_xyz"])
    assert info.value.code == 2
    assert "plugin 'no_such_rules_module_xyz' failed to import" in capsys.readouterr().err
    with pytest.raises(SatsudokuError, match="not found"):
        load_plugin(str(tmp_path / "missing.py"))


def test_entry_points_are_loaded(monkeypatch: pytest.MonkeyPatch, plugin_file: Path) -> None:
    """A distribution's `[project.entry-points."satsudoku.rules"]` is imported with the builtins."""
    import satsudoku.rules as rules

    class Entry:
        name, value = "queen", "queen_rule"

        def load(self) -> object:
            sys.path.insert(0, str(plugin_file.parent))
            try:
                return __import__("queen_rule")
            finally:
                sys.path.remove(str(plugin_file.parent))

    def fake_entry_points(group: str) -> list[Entry]:
        return [Entry()] if group == rules.ENTRY_POINT_GROUP else []

    monkeypatch.setattr("importlib.metadata.entry_points", fake_entry_points)  # read on use
    monkeypatch.setattr(rules, "_entry_points_loaded", False)
    monkeypatch.setattr(rules, "_REGISTRY", dict(rules._REGISTRY))
    rules._REGISTRY.pop("queen", None)
    assert make_rule({"type": "queen"}, Shape(3, 3)).to_spec() == {"type": "queen", "digit": 9}


@pytest.mark.parametrize(
    ("digit", "message"),
    [
        ('"x"', "rule 'queen': digit must be an integer, not 'x'"),
        ("99", "rule 'queen': digit = 99 is outside 1..9"),
        ("0", "rule 'queen': digit = 0 is outside 1..9"),
        ("true", "rule 'queen': digit must be an integer, not True"),
    ],
)
def test_the_example_plugin_checks_its_field_like_a_builtin_rule(
    plugin_file: Path, capsys: pytest.CaptureFixture[str], digit: str, message: str
) -> None:
    """A user copies examples/queen_rule.py: it must show how a bad field becomes one line."""
    doc = plugin_file.parent / "doc.json"
    doc.write_text(f'{{"size": 9, "rules": [{{"type": "queen", "digit": {digit}}}]}}')
    assert main(["solve", str(doc), "--plugin", str(plugin_file)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_example_plugin_refuses_an_unknown_field(plugin_file: Path) -> None:
    load_plugin(str(plugin_file))
    with pytest.raises(SatsudokuError, match="unexpected field 'digits'"):
        make_rule({"type": "queen", "digits": 9}, Shape(3, 3))
    assert make_rule({"type": "queen"}, Shape(2, 2)).to_spec() == {"type": "queen", "digit": 4}


def test_rule_may_come_before_the_plugin_that_defines_it(
    plugin_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--rule is checked once every --plugin is loaded, wherever it stands on the line."""
    puzzle = plugin_file.parent / "p.txt"
    puzzle.write_text("." * 16 + "\n")
    assert main(["count", str(puzzle), "--rule", "queen", "--plugin", str(plugin_file)]) == 0
    assert capsys.readouterr().out == f"{sum(1 for g in all_4x4() if queen_ok(g, 4))}\n"
