"""Every verdict path against the brute-force oracle on random small variant puzzles: `count`
(exact and with --limit), `candidates` (with counts), `logic` (each placement and elimination
must hold in every solution of a unique puzzle), `minimal --givens-only` (exactly the givens
whose removal keeps one solution are redundant) and `prove` (the verdict and its certificate,
by SAT and by the bitmask search)."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from satsudoku.cli import main
from tests.test_differential_oracle import Case, name
from tests.test_differential_rules import classic_grids, document, draw

Rows = tuple[tuple[int, ...], ...]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    out = capsys.readouterr().out
    return code, json.loads(out.splitlines()[0]) if out.strip().startswith("{") else out


def status_of(count: int) -> str:
    return "unsatisfiable" if count == 0 else "unique" if count == 1 else "multiple"


@cache  # the oracles look cells up by name for every grid
def cell_index(text: str) -> tuple[int, int]:
    r, c = text[1:].split("c")
    return int(r) - 1, int(c) - 1


def check_case(case: Case, solutions: list[Rows], path: Path, capsys: Any) -> None:
    n, want = case.n, len(solutions)
    _, record = run(capsys, "count", str(path), "--json")
    assert record["count"] == want
    limit = 1 + want % 3
    for backend in ("bitmask", "sat"):
        args = ("count", str(path), "--json", "--backend", backend, "--limit", str(limit))
        _, record = run(capsys, *args)
        if want < limit:
            assert record["count"] == want
        else:
            assert len(record["solutions"]) >= min(limit, 2) and record["count"] is None
    _, record = run(capsys, "candidates", str(path), "--json", "--cap", "1000")
    expected = [
        dict(sorted(Counter(g[i // n][i % n] for g in solutions).items())) for i in range(n * n)
    ]
    assert record["status"] == status_of(want)
    assert [{int(d): k for d, k in cell.items()} for cell in record["candidates"]] == expected
    if want == 1:
        (only,) = solutions
        _, record = run(capsys, "logic", str(path), "--json")
        for step in record["steps"]:
            for placed in step["placements"]:
                where, digit = placed.split("=")
                r, c = cell_index(where)
                assert only[r][c] == int(digit), step["text"]
            for removed in step["eliminations"]:
                where, digit = removed.split("#")
                r, c = cell_index(where)
                assert only[r][c] != int(digit), step["text"]
        _, record = run(capsys, "minimal", str(path), "--json", "--givens-only")
        redundant = []
        for cell in sorted(case.givens):
            rest = Case(n, {p: d for p, d in case.givens.items() if p != cell}, [], case.checks, [])
            grids = classic_grids(rest)
            if grids is not None and len(rest.oracle(grids)) == 1:
                redundant.append(name(cell))
        assert sorted(record["redundant"] or []) == redundant
        assert record["minimal"] is (not redundant)
    if want <= 1:
        for extra in ([], ["--backend", "bitmask", "--proof-by", "bitmask"]):
            folder = path.parent / f"certificate{len(extra)}"
            _, out = run(capsys, "prove", str(path), "--certificate", str(folder), *extra)
            assert status_of(want) in str(out)
            assert main(["verify-certificate", str(folder)]) == 0
            capsys.readouterr()


def cases(seeds: range, n: int) -> list[tuple[Case, list[Rows]]]:
    out = []
    for seed in seeds:
        drawn = draw(seed, n)
        if drawn is None:
            continue
        case = drawn[0]
        grids = classic_grids(case)
        assert grids is not None
        out.append((case, case.oracle(grids)))
    return out


SAMPLE = cases(range(3000, 3024), 4)


def test_the_sample_has_every_verdict() -> None:
    counts = {status_of(len(solutions)) for _, solutions in SAMPLE}
    assert counts == {"unsatisfiable", "unique", "multiple"}


def _default_indexes() -> set[int]:
    """The first two puzzles of each verdict: the other 18 of the sample under -m slow."""
    seen: Counter[str] = Counter()
    keep = set()
    for index, (_, solutions) in enumerate(SAMPLE):
        verdict = status_of(len(solutions))
        if seen[verdict] < 2:
            keep.add(index)
        seen[verdict] += 1
    return keep


DEFAULT_INDEXES = _default_indexes()


@pytest.mark.parametrize(
    "index",
    [
        pytest.param(i, marks=[] if i in DEFAULT_INDEXES else [pytest.mark.slow])
        for i in range(len(SAMPLE))
    ],
)
def test_every_verdict_path_agrees_with_the_oracle(
    index: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case, solutions = SAMPLE[index]
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(document(case)))
    check_case(case, solutions, path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 6])
def test_a_broad_sweep_of_verdict_paths(
    n: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for i, (case, solutions) in enumerate(cases(range(20_000, 20_000 + 240 // (n - 2)), n)):
        path = tmp_path / f"p{i}" / "puzzle.json"
        path.parent.mkdir()
        path.write_text(json.dumps(document(case)))
        check_case(case, solutions, path, capsys)
