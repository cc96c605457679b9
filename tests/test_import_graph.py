"""Start-up stays cheap: each command imports what it uses, and a solver only for its backend.

Each check runs in a fresh interpreter (this process has imported everything long ago) and
reads `sys.modules` after the command ran, so it sees imports made inside functions too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from satsudoku.commands import command_modules, command_summary

PUZZLE = Path(__file__).parent / "data" / "17clue.txt"
HEAVY = ("ortools", "pysat", "numba", "numpy", "pandas", "matplotlib", "cairosvg", "dask")

_PROBE = """
import contextlib, io, json, sys
from satsudoku.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:  # --help
        code = exc.code
modules = sorted(sys.modules)
roots = sorted({name.partition(".")[0] for name in modules})
print(json.dumps({"code": code, "out": out.getvalue(), "roots": roots, "modules": modules}))
"""


def _run(*argv: str, stdin: str = "") -> tuple[str, set[str], set[str]]:
    """Run `satsudoku ARGV` in a fresh interpreter: its output, its modules, their packages."""
    child = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 0, child.stderr
    report = json.loads(child.stdout)
    assert report["code"] == 0, report
    return str(report["out"]), set(report["modules"]), set(report["roots"])


def _one_puzzle() -> str:
    return PUZZLE.read_text().splitlines()[0] + "\n"


def test_help_imports_no_command_and_no_solving_core() -> None:
    out, modules, roots = _run("--help")
    assert "solve" in out
    assert not {m for m in modules if m.startswith("satsudoku.commands.")}
    assert not {"satsudoku.puzzle", "satsudoku.io", "satsudoku.backends"} & modules
    assert not set(HEAVY) & roots


def test_help_lists_every_command_by_its_summary() -> None:
    out = _run("--help")[0]
    for name in command_modules():
        summary = command_summary(name)
        assert summary, f"satsudoku/commands/{name}.py has no docstring to list it by"
        assert name.replace("_", "-") in out and summary.split()[0] in out


@pytest.mark.parametrize(
    ("backend", "allowed"),
    [("bitmask", ()), ("sat", ("pysat",)), ("cpsat", ("ortools", "numpy", "pandas"))],
)
def test_solve_imports_only_its_backends_solver(backend: str, allowed: tuple[str, ...]) -> None:
    if backend != "bitmask":
        pytest.importorskip(allowed[0])
    out, modules, roots = _run("solve", "-", "--backend", backend, stdin=_one_puzzle())
    assert out.split()[1] == "unique"
    loaded = roots & set(HEAVY)
    assert loaded <= set(allowed), f"solve --backend {backend} imported {sorted(loaded)}"
    commands = {m for m in modules if m.startswith("satsudoku.commands.")}
    assert commands <= {"satsudoku.commands.solve", "satsudoku.commands.common"}


_PACKAGES = """
import sys, satsudoku, satsudoku.cli
assert satsudoku.Puzzle and satsudoku.get_backend  # the public names load on use
print(" ".join({name.partition(".")[0] for name in sys.modules}))
"""


def test_importing_the_package_imports_no_solver() -> None:
    child = subprocess.run(
        [sys.executable, "-c", _PACKAGES],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 0, child.stderr
    assert not set(HEAVY) & set(child.stdout.split())


def _imports(path: Path) -> set[str]:
    """The satsudoku modules a source file imports, at any depth of the file."""
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("satsudoku")}


# The layers, lowest first: a package may import its own layer and those below, never above.
LAYERS = (
    ("satsudoku.grid", "satsudoku.errors", "satsudoku.symbols", "satsudoku.deadline"),
    ("satsudoku.constraints", "satsudoku.rules", "satsudoku.puzzle", "satsudoku.verify"),
    ("satsudoku.encoders", "satsudoku.sat", "satsudoku.search"),
    ("satsudoku.backends", "satsudoku.proof", "satsudoku.result"),
)
ABOVE_ALL = ("satsudoku.commands", "satsudoku.cli", "satsudoku.bench", "satsudoku.cluster")


def test_the_solving_layers_import_nothing_above_them() -> None:
    """rules → constraints → encoders, the SAT layer and the search kernel → backends and proof
    → commands (issue 14). One arrow still runs within the top solving layer on purpose:
    proof.certificate reads the backend names a manifest may give (`backends.backend_names`)."""
    root = Path(__file__).resolve().parent.parent / "satsudoku"
    for level, packages in enumerate(LAYERS[:-1]):
        above = [p for layer in LAYERS[level + 1 :] for p in layer] + list(ABOVE_ALL)
        for package in packages:
            folder = root / package.split(".", 1)[1]
            files = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
            for path in files:
                wrong = {m for m in _imports(path) if m.startswith(tuple(above))}
                assert not wrong, f"{path.relative_to(root)} imports {sorted(wrong)}"
