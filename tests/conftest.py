"""Shared test helpers: bundled samples in tests/data, and ../shared/data where it exists (CI)."""

from __future__ import annotations

import gc
import os
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from satsudoku.grid import Grid, Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Result
from tests import compile_once

TESTS = Path(__file__).parent
BUNDLED = TESTS / "data"
REPO = TESTS.parent
SHARED = Path(os.environ.get("SATSUDOKU_SHARED_DATA", REPO.parent / "shared" / "data"))


def letters_or_digits(text: str) -> tuple[int, ...]:
    """Decode a dataset line: 1-9, or letters A.. for 16x16/25x25, '.' blank."""
    return tuple(
        0 if ch == "." else int(ch) if ch.isdigit() else ord(ch) - ord("A") + 1 for ch in text
    )


def puzzle_from_line(line: str, shape: Shape | None = None) -> Puzzle:
    values = letters_or_digits(line.strip().split()[0])
    size = int(len(values) ** 0.5)
    return Puzzle(shape or Shape.for_size(size), Grid(size, values))


def grid_from_line(line: str) -> Grid:
    values = letters_or_digits(line.strip().split()[0])
    return Grid(int(len(values) ** 0.5), values)


def sample_lines(path: Path, k: int, seed: int = 2026) -> list[str]:
    """k lines drawn reproducibly from a dataset file (all of them if it has fewer)."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    if len(lines) <= k:
        return lines
    return random.Random(seed).sample(lines, k)


@cache
def referee(puzzle: Puzzle, limit: int = 2) -> Result:
    """The bitmask referee's answer to `puzzle`, searched once per test process.

    The cross-check sweeps compare each backend variant with it on the same bundled puzzles
    (12 SAT encoding x solver pairs, both CP-SAT models, the fast path, MIP): searching them
    again for every variant was most of those tests' CPU. A Result is frozen, and the referee's
    answer does not depend on what it solved before (its own tests check it afresh).
    """
    from satsudoku.backends.bitmask import BitmaskBackend

    return BitmaskBackend().solve(puzzle, limit=limit)


def pytest_configure(config: pytest.Config) -> None:
    """In pytest-xdist workers, each Numba function is compiled by one worker and loaded by
    the others (tests/compile_once.py): on an empty cache that was ~40 s of CPU per worker.

    Collection then runs with the collector as the tests do (see pytest_collection_finish),
    and Hypothesis's own modules are imported as they are, not assertion-rewritten: pytest
    rewrites every module of a package that ships a pytest plugin (73 of Hypothesis's, for
    test_export and test_fuzz). Both cost every xdist worker seconds of CPU before its first
    test (collection 10.9-14.0 -> 7.9-9.2 s, one process, load ~9); no assertion in tests/
    is rewritten differently.
    """
    if hasattr(config, "workerinput"):
        compile_once.install()
    gc.set_threshold(10_000, 20, 20)
    _import_hypothesis_unrewritten(config)


def _import_hypothesis_unrewritten(config: pytest.Config) -> None:
    """Take Hypothesis off the rewrite hook's list (pytest's own attribute: if it is renamed,
    Hypothesis is rewritten as before and nothing else changes)."""
    hook = getattr(config.pluginmanager, "rewrite_hook", None)
    marked = getattr(hook, "_must_rewrite", None)
    if isinstance(marked, set):
        marked.difference_update({name for name in marked if name.split(".")[0] == "hypothesis"})


TEST_GC_THRESHOLDS = (100_000, 50, 100)  # while tests run (see pytest_collection_finish)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Spare the tests' garbage collector the collected modules and make it run less often.

    Measured over test_models, test_rules_new_families and test_sandwich: the cyclic collector
    took 4.9 s of 35 s CPU, most of it rescanning what the imports and the collection left (the
    solver modules, the oracles' 39,168 grids) and running every 700 allocations. Frozen and
    at 10,000 it takes 1.3 s. Young collections every 100,000 and older ones after 50 of them:
    over eight sweep files (49 s of CPU, -n 0) 1.65 -> 0.79 s of collecting, peak RSS 333 ->
    336 MB. Only when garbage cycles are freed changes: no test result does.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*TEST_GC_THRESHOLDS)


@pytest.fixture
def shared_data() -> Path:
    """The shared datasets folder; the test is skipped, saying so, when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"shared datasets not found at {SHARED} (set SATSUDOKU_SHARED_DATA)")
    return SHARED


def prove_one(document: Path, tmp_path: Path) -> Path:
    """`satsudoku prove` one puzzle file into tmp_path; the certificate's folder."""
    from satsudoku.cli import main  # the CLI imports every command: only when a test needs it

    certs = tmp_path / "certs"
    assert main(["prove", str(document), "--certificate", str(certs)]) == 0
    return next(p.parent for p in certs.rglob("manifest.json"))


@pytest.fixture(autouse=True)
def _rule_registry_restored() -> Iterator[None]:
    """Plugin rules a test loads (`--plugin`, `register_rule`) stay in that test: tests that
    check every registered type (exporter, drawer, docs) must not see another test's plugin."""
    from satsudoku import rules

    rules.rule_types()  # the built-in rules are loaded before the snapshot
    saved, classes = dict(rules._REGISTRY), dict(rules._CLASSES)
    yield
    rules._REGISTRY.clear()
    rules._REGISTRY.update(saved)
    rules._CLASSES.clear()
    rules._CLASSES.update(classes)
