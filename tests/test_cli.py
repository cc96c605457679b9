"""The command line: verdicts on stdout, JSON Lines, exit codes 0/1/2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.io import format_line, read_text
from satsudoku.symbols import Alphabet
from tests.conftest import BUNDLED, REPO

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def write(tmp_path: Path, text: str, name: str = "p.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_solve_prints_solution_and_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", write(tmp_path, EASY + "\n")]) == 0
    assert capsys.readouterr().out == f"{EASY_SOLUTION} unique\n"


def test_solve_json_lines_follow_the_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    serg = (BUNDLED / "serg-benchmark.txt").read_text().splitlines()[0]
    text = f"{EASY}\n{serg}\n{'11' + '.' * 79}\n"
    assert main(["solve", write(tmp_path, text), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["unique", "multiple", "unsatisfiable"]
    assert [r["index"] for r in records] == [0, 1, 2]
    assert records[0]["solution"] == EASY_SOLUTION and records[0]["count"] == 1
    assert len(set(records[1]["solutions"])) == 2
    assert records[2]["solution"] is None and records[2]["solutions"] == []
    for record in records:
        assert record["backend"] == "bitmask" and record["time_s"] >= 0
        assert {"nodes", "time_s"} <= set(record["stats"]) and record["proof"]["method"]


@pytest.mark.parametrize(
    "command",
    [
        ["solve"],
        ["count"],
        ["candidates"],
        ["minimal", "--givens-only"],
        ["logic"],
        ["rate", "--logic-only"],
    ],
)
def test_every_command_numbers_json_records_from_0(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One convention for "index" (the puzzle's position in its input, from 0, as FORMATS
    states for `solve`): `logic` and `rate` used to count from 1."""
    path = write(tmp_path, f"{EASY}\n{EASY}\n")
    assert main([command[0], path, "--json", *command[1:]]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["index"] for r in records] == [0, 1]


def test_grid_input_gets_grid_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Judge rows come back as judge rows, a boxed grid as a boxed grid (FORMATS.md §3)."""
    rows = "\n".join(" ".join(EASY[r * 9 : r * 9 + 9].replace(".", "0")) for r in range(9))
    assert main(["solve", write(tmp_path, rows)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# puzzle 1: unique [bitmask,")
    assert "\n4 8 3 9 2 1 6 5 7\n" in out
    boxed = "\n".join(
        " | ".join(" ".join(EASY[r * 9 + c : r * 9 + c + 3]) for c in (0, 3, 6)) for r in range(9)
    )
    assert main(["solve", write(tmp_path, boxed)]) == 0
    assert "4 8 3 | 9 2 1 | 6 5 7" in capsys.readouterr().out


def test_limit_one_and_counting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "." * 16 + "\n")
    assert main(["solve", path, "--limit", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "solved"
    assert main(["solve", path, "--limit", "1000", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "multiple" and record["count"] == 288


def test_rule_option_adds_diagonals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle, solution = (BUNDLED / "x-sudoku-sample.txt").read_text().split()
    path = write(tmp_path, puzzle)
    assert main(["solve", path]) == 0
    first, verdict, second = capsys.readouterr().out.split()  # the second witness follows
    assert verdict == "multiple" and first != second and len(first) == len(second) == 81
    assert main(["solve", path, "--rule", "diagonal"]) == 0
    assert capsys.readouterr().out == f"{solution} unique\n"


def test_node_budget_gives_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hard = (BUNDLED / "forum-hardest-1106.txt").read_text().splitlines()[0]
    assert main(["solve", write(tmp_path, hard), "--max-nodes", "1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unknown" and record["stats"]["stopped"] == "node limit"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (EASY[:-1] + "\n", ":1: expected a puzzle of n² symbols"),
        (EASY[:10] + "?" + EASY[11:], ":1:11: unknown symbol '?' at r2c2"),
        ("", "empty input"),
        ("." * 49, "size 7 has no rectangular box shape"),
    ],
)
def test_bad_input_exits_1_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    assert main(["solve", write(tmp_path, text)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["solve", "--limit", "0"])
    assert info.value.code == 2
    assert "expected a positive integer" in capsys.readouterr().err


def test_box_option_must_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", write(tmp_path, EASY), "--box", "2x3"]) == 1
    assert "box 2x3 does not fit a 9x9 board" in capsys.readouterr().err


def test_convert_round_trips_through_a_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", write(tmp_path, EASY), "--to", "json"]) == 0
    document = capsys.readouterr().out
    assert json.loads(document)["givens"] == EASY
    assert main(["convert", write(tmp_path, document, "p.json"), "--to", "line"]) == 0
    assert capsys.readouterr().out == EASY + "\n"


def test_module_entry_point_reads_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "satsudoku", "solve", "-"],
        input=EASY + "\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0 and done.stdout == f"{EASY_SOLUTION} unique\n"


def test_count_is_exact_or_a_lower_bound(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", str(REPO / "models/classic/empty-4x4.toml")]) == 0
    assert capsys.readouterr().out == "288\n"
    six = str(REPO / "models/classic/empty-6x6-first-row.toml")
    assert main(["count", six, "--limit", "100"]) == 0
    assert capsys.readouterr().out == ">= 100 (limit reached)\n"


def test_backend_all_agrees_and_cpsat_certifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    serg = (BUNDLED / "serg-benchmark.txt").read_text().splitlines()[0]
    path = write(tmp_path, f"{EASY}\n{serg}\n")
    assert main(["solve", path, "--backend", "all", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["unique", "multiple"]
    assert records[0]["solution"] == EASY_SOLUTION and records[0]["backend"] == "all"
    certified = ["--backend", "cpsat", "--certified", "--json"]
    assert main(["solve", write(tmp_path, EASY), *certified]) == 0
    proof = json.loads(capsys.readouterr().out)["proof"]
    assert proof["method"] == "cp-drat" and proof["certified"] is True


def test_an_option_the_backend_does_not_take_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, EASY)
    assert main(["solve", path, "--backend", "sat", "--max-nodes", "10"]) == 2
    assert main(["count", path, "--backend", "bitmask", "--presolve"]) == 2
    err = capsys.readouterr().err
    assert "--max-nodes does not apply to --backend sat" in err
    assert "--presolve does not apply to --backend bitmask" in err


def test_multiple_shows_both_witnesses_labelled_and_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The witness of 'multiple' is two grids: both printed, each under '# solution K', and the
    answer read back as input gives exactly those two grids as puzzles."""
    grid = "12..\n....\n....\n....\n"
    assert main(["solve", write(tmp_path, grid)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# puzzle 1: multiple [bitmask, ")
    assert "\n# solution 1\n" in out and "\n\n# solution 2\n" in out
    witnesses = [p.givens for p in read_text(out)]
    assert len(witnesses) == 2 and witnesses[0] != witnesses[1]
    assert all(w.is_complete() and w[(0, 0)] == 1 and w[(0, 1)] == 2 for w in witnesses)
    assert main(["solve", write(tmp_path, grid), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [format_line(w, Alphabet.default(4)) for w in witnesses] == record["solutions"]


def test_no_solution_prints_a_dash_in_the_line_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", write(tmp_path, "11" + "." * 79)]) == 0
    assert capsys.readouterr().out == "- unsatisfiable\n"


def test_counts_in_text_are_pluralised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The easy puzzle falls to propagation alone: one search node, said as '1 node'."""
    grid = "\n".join(EASY[r * 9 : r * 9 + 9] for r in range(9))
    assert main(["solve", write(tmp_path, grid)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.endswith(", 1 node]") and "nodes" not in header


def test_json_times_are_rounded_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", write(tmp_path, EASY + "\n"), "--json", "--backend", "sat"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["time_s"] == record["stats"]["time_s"] == round(record["time_s"], 6)
    floats = [v for v in record["stats"].values() if isinstance(v, float)]
    assert all(v == round(v, 6) for v in floats)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "--encoding", "bogus", "--backend", "sat"], "unknown encoding 'bogus'"),
        (["count", "--amo", "bogus", "--backend", "sat"], "unknown at-most-one encoding"),
        (["solve", "--solver", "bogus", "--backend", "sat"], "unknown SAT solver 'bogus'"),
        (["solve", "--model", "bogus", "--backend", "cpsat"], "unknown CP-SAT model 'bogus'"),
        (["solve", "--backend", "all", "--encoding", "bogus"], "unknown encoding 'bogus'"),
        (["solve", "--backend", "sat", "--amo", "native"], "has no native at-most-one"),
        (["solve", "--rule", "nope"], "--rule nope: unknown rule type 'nope'"),
        (["convert", "--rule", "killer"], "--rule killer: rule 'killer': missing field 'cages'"),
        (["explain", "--solver", "bogus"], "unknown SAT solver 'bogus'"),
        (["solve", "--backend", "bogus"], "invalid choice: 'bogus'"),
        (["solve", "--format", "bogus"], "invalid choice: 'bogus'"),
        (["encode", "--encoding", "bogus"], "invalid choice: 'bogus'"),
        (["encode", "--amo", "bogus"], "invalid choice: 'bogus'"),
        (["encode", "--model", "bogus"], "invalid choice: 'bogus'"),
        (["prove", "--solver", "bogus"], "invalid choice: 'bogus'"),
        (["prove", "--encoding", "reduced"], "invalid choice: 'reduced'"),
        (["convert", "--to", "bogus"], "invalid choice: 'bogus'"),
        # int() takes these too; no option means them
        (["solve", "--box", "+3x3"], "box must look like 3x3 or 2x3, not '+3x3'"),
        (["solve", "--box", "\u0663x\u0663"], "box must look like 3x3"),
        (["solve", "--limit", "+2"], "expected a positive integer, not '+2'"),
        (["solve", "--random", "--seed", "1_0"], "expected a seed 0..2147483647, not '1_0'"),
    ],
)
def test_every_option_with_a_fixed_set_of_values_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """A value outside the set is a usage error (exit 2), as README says, whichever part of
    satsudoku finds it: argparse, a backend's constructor, or the rule registry."""
    path = write(tmp_path, EASY)
    try:
        code = main([*argv, path])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    assert code == 2
    assert message in capsys.readouterr().err
