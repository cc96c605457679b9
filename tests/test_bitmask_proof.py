"""The bitmask search's own DRAT proofs (issue 15): accepted by satsudoku's checker and by an
independent one (dratify, a forward checker sharing no code with us; drat-trim too where it is
installed), on hard and unsatisfiable classic puzzles and on every rule type, and rejected once
tampered with."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from satsudoku import Shape, get_backend
from satsudoku.cli import main
from satsudoku.errors import PuzzleError
from satsudoku.grid import Grid
from satsudoku.io import read_puzzles
from satsudoku.proof import search_proof
from satsudoku.proof.certificate import (
    CertificateTimeoutError,
    SatCertificate,
    check_certificate,
    run_drat_trim,
    verify_certificate,
)
from satsudoku.proof.drat import check_drat, parse_dimacs, parse_drat
from satsudoku.proof.search_proof import prove_by_search
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status
from tests.conftest import BUNDLED, REPO, puzzle_from_line
from tests.proof_checks import independent
from tests.test_models import raw

TDOKU = BUNDLED / "tdoku-test-puzzles.labeled.txt"
HARDEST = BUNDLED / "forum-hardest-1106.txt"


def refutes(certificate: SatCertificate) -> bool:
    """satsudoku's checker on the proof alone (the formula is the encoder's own here)."""
    return check_drat(certificate.clauses, parse_drat("\n".join(certificate.proof))).ok


def certified(puzzle: Puzzle, folder: Path) -> tuple[SatCertificate, dict[str, Any]]:
    """The search's certificate of `puzzle`, written to `folder` and accepted by both checkers."""
    found = prove_by_search(puzzle)
    assert found.certificate is not None, found.status
    found.certificate.write(folder)
    check = verify_certificate(folder)
    assert check.ok, check.messages
    assert independent(folder)
    return found.certificate, json.loads((folder / "manifest.json").read_text())


def test_hardest_puzzles_are_certified_by_their_search_tree(tmp_path: Path) -> None:
    puzzle = puzzle_from_line(HARDEST.read_text().splitlines()[11], Shape(3, 3))
    certificate, manifest = certified(puzzle, tmp_path / "h")
    plain = get_backend("bitmask").solve(puzzle)
    assert certificate.status == "unique" and certificate.solution == plain.solution
    assert manifest["solver"] == manifest["backend"] == "bitmask"
    # One lemma per refuted node of the tree, which has plain.stats["nodes"] expanded nodes
    # and as many failed children as the search backtracked.
    assert certificate.lemma_count >= plain.stats["nodes"] + plain.stats["backtracks"]


LINE_21 = TDOKU.read_text().splitlines()[20].split(":")[0]  # unsatisfiable; needs search


@pytest.fixture(scope="module")
def line_21(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[SatCertificate, dict[str, Any], Path]:
    """Line 21's certificate, written and accepted by both checkers once per worker (four tests
    read it; certifying it is ~0.7 s of CPU). Tests that change the files copy the folder."""
    folder = tmp_path_factory.mktemp("line21") / "u"
    certificate, manifest = certified(puzzle_from_line(LINE_21, Shape(3, 3)), folder)
    return certificate, manifest, folder


def _unsatisfiable_lines() -> list[str]:
    lines = [line.split(":")[0] for line in TDOKU.read_text().splitlines() if line.endswith(":0")]
    assert len(lines) == 10
    return lines


def test_unsatisfiable_puzzles_are_certified(
    line_21: tuple[SatCertificate, dict[str, Any], Path],
) -> None:
    """All ten ':0' lines of tdoku's labelled set have a certificate; line 21, which needs
    search, not propagation, is accepted by both checkers (the other nine: the slow test)."""
    for line in _unsatisfiable_lines():
        found = prove_by_search(puzzle_from_line(line, Shape(3, 3)))
        assert found.status == "unsatisfiable" and found.certificate is not None
    certificate, manifest, _ = line_21
    assert manifest["status"] == "unsatisfiable" and certificate.solution is None
    verdict = check_drat(certificate.clauses, parse_drat("\n".join(certificate.proof)))
    assert verdict.ok and verdict.checked > 1  # a real refutation, not propagation alone


@pytest.mark.slow
def test_every_unsatisfiable_certificate_refutes() -> None:
    """satsudoku's checker on each of the ten proofs (~2.5 s of CPU: line 21 covers the path
    by default)."""
    for line in _unsatisfiable_lines():
        found = prove_by_search(puzzle_from_line(line, Shape(3, 3)))
        assert found.certificate is not None and refutes(found.certificate)


@pytest.mark.slow  # ~2.8 s CPU; the search's proof is the same code on 9x9 and 6x6 by default
def test_16x16_is_certified(tmp_path: Path) -> None:
    puzzle = puzzle_from_line((BUNDLED / "16x16-acwing169-sample.txt").read_text())
    found = prove_by_search(puzzle)
    known = (BUNDLED / "16x16-acwing169-sample.solutions.txt").read_text().split()[0]
    assert found.status == "unique" and found.certificate is not None
    assert found.solutions[0].values == tuple(ord(ch) - ord("A") + 1 for ch in known)
    assert refutes(found.certificate)


# One constructed model per rule type (the smallest holding it): every deduction the kernel
# makes for that rule must end up justified, whatever the encoding's unit propagation does.
def _smallest_per_rule() -> list[Path]:
    models = sorted((REPO / "models").rglob("*.json"))
    chosen: dict[str, tuple[int, Path]] = {}
    for path in models:
        if "miracle-rules-72" in path.name:  # 72 grids: a count, not a verdict
            continue
        doc = raw(path)
        if doc.get("count", 1) > 1:
            continue
        size = len(doc.get("givens", "")) or 10**6
        for kind in {rule["type"] for rule in doc.get("rules", [])} | {"classic"}:
            if kind not in chosen or (size, path) < chosen[kind]:
                chosen[kind] = (size, path)
    return sorted({path for _, path in chosen.values()})


RULE_MODELS = _smallest_per_rule()
# Published 9x9 puzzles whose search and check take too long here (x-sum: 4 s to prove, 22 s
# to check its 141,641 clauses; lockout: 3.5 s to prove): solved with every k-th cell of their
# published solution added as a given, which still leaves their rules deductions to justify.
# Entropic connections and modular lines (1.0 and 0.45 s of CPU to prove and check as published,
# 0.15 s eased) keep over 1,100 lemmas each when eased.
EASED = {
    "x-sum.json": 3,
    "lockout-double-arrows.json": 4,
    "entropic-connections.json": 4,
    "modular-lines.json": 4,
}


def eased(puzzle: Puzzle, every: int) -> Puzzle:
    """`puzzle` with every `every`-th cell of its known solution given as well."""
    assert puzzle.solution is not None
    values = tuple(
        v if k % every == 0 or puzzle.givens.values[k] else 0
        for k, v in enumerate(puzzle.solution.values)
    )
    return replace(puzzle, givens=Grid(puzzle.size, values))


def test_every_rule_type_is_covered() -> None:
    from tests.test_models import RULE_TYPES

    kinds = {rule["type"] for path in RULE_MODELS for rule in raw(path).get("rules", [])}
    assert set(RULE_TYPES) <= kinds


@pytest.mark.parametrize("path", RULE_MODELS, ids=lambda p: str(p.relative_to(REPO / "models")))
def test_every_rule_type_is_certified_by_the_search(path: Path) -> None:
    (puzzle,) = read_puzzles(path)
    if path.name in EASED:
        puzzle = eased(puzzle, EASED[path.name])
    expected = {0: "unsatisfiable"}.get(raw(path).get("count", 1), "unique")
    found = prove_by_search(puzzle, deadline=time.perf_counter() + 60)
    assert found.status == expected and found.certificate is not None
    if expected == "unique":
        assert puzzle.solution is None or found.solutions[0] == puzzle.solution
    check = check_certificate(found.certificate)
    assert check.ok, check.messages


@pytest.mark.parametrize(
    "name", ["variants/sums/arrow-6x6.json", "variants/lines/whispers-6x6.json"]
)
def test_variant_proofs_with_lemmas_pass_the_independent_checker(name: str, tmp_path: Path) -> None:
    """Sums and two-cell tables: deductions unit propagation does not make, so lemmas."""
    (puzzle,) = read_puzzles(REPO / "models" / name)
    certificate, _ = certified(puzzle, tmp_path / "v")
    assert certificate.lemma_count > 1


def test_tampered_search_proofs_are_rejected(
    line_21: tuple[SatCertificate, dict[str, Any], Path], tmp_path: Path
) -> None:
    _, _, written = line_21
    folder = tmp_path / "u"
    shutil.copytree(written, folder)
    proof = (folder / "proof.drat").read_text()
    clauses = parse_dimacs((folder / "formula.cnf").read_text())[1]
    steps = parse_drat(proof)
    verdict = check_drat(clauses, steps)
    lemmas = [i for i, (deletion, _) in enumerate(steps) if not deletion]
    first = lemmas[verdict.needed[0] - 1]  # the earliest lemma the refutation needs
    for name, broken in (
        ("dropped", [s for i, s in enumerate(steps) if i != first]),
        (
            "negated",
            [(d, [-x for x in c]) if i == first else (d, c) for i, (d, c) in enumerate(steps)],
        ),
    ):
        text = "".join(("d " if d else "") + " ".join(map(str, c + [0])) + "\n" for d, c in broken)
        (folder / "proof.drat").write_text(text)
        check = verify_certificate(folder)
        assert not check.ok and "neither RUP nor RAT" in check.messages[-1], name
        assert not independent(folder), name
    (folder / "proof.drat").write_text(proof)
    assert verify_certificate(folder).ok


def test_a_tampered_manifest_is_rejected(tmp_path: Path) -> None:
    """The manifest is checked against the files whatever the proof: a filled 4x4's certificate
    (one lemma) serves, where line 21's costs ~0.4 s of CPU per check."""
    folder = tmp_path / "f"
    _, manifest = certified(puzzle_from_line("1234341221434321", Shape(2, 2)), folder)
    for key, value, reason in (
        ("solver", "dfs", "cannot write usable proofs"),
        ("backend", "oracle", 'backend "oracle" is none of'),
        ("lemmas", manifest["lemmas"] + 1, "lemmas is"),
    ):
        (folder / "manifest.json").write_text(json.dumps({**manifest, key: value}))
        check = verify_certificate(folder)
        assert not check.ok and reason in check.messages[-1], key


def test_a_proof_without_the_blocking_clause_does_not_refute(tmp_path: Path) -> None:
    """The solution's leaf is refuted by the blocking clause: without it the formula has a
    model, and the same proof must fail."""
    puzzle = puzzle_from_line(HARDEST.read_text().splitlines()[0], Shape(3, 3))
    found = prove_by_search(puzzle)
    assert found.certificate is not None
    steps = parse_drat("\n".join(found.certificate.proof))
    assert check_drat(found.certificate.clauses, steps).ok
    assert not check_drat(found.certificate.clauses[:-1], steps).ok


def test_several_solutions_have_no_certificate() -> None:
    found = prove_by_search(Puzzle.empty(Shape(2, 2)))
    assert found.status == "multiple" and found.certificate is None
    assert len(found.solutions) == 2


def test_a_filled_grid_and_a_broken_one(tmp_path: Path) -> None:
    lines = TDOKU.read_text().splitlines()
    solution = lines[0].split(":")[2]
    filled, _ = certified(puzzle_from_line(solution, Shape(3, 3)), tmp_path / "f")
    assert filled.status == "unique" and filled.lemma_count == 1  # the empty clause alone
    broken = solution[:-1] + solution[-2]  # the last two cells of row 9 alike
    found = prove_by_search(puzzle_from_line(broken, Shape(3, 3)))
    assert found.status == "unsatisfiable" and found.certificate is not None
    assert check_certificate(found.certificate).ok


def test_limits_and_encodings_are_refused_in_one_line() -> None:
    puzzle = puzzle_from_line(HARDEST.read_text().splitlines()[0], Shape(3, 3))
    with pytest.raises(CertificateTimeoutError):
        prove_by_search(puzzle, deadline=time.perf_counter() - 1)
    with pytest.raises(CertificateTimeoutError):
        prove_by_search(puzzle, max_nodes=10)
    with pytest.raises(PuzzleError, match="bitmask proofs use the extended encoding"):
        prove_by_search(puzzle, encoding="minimal")


@pytest.mark.parametrize(
    ("backend", "proof_by", "solver"),
    [("bitmask", None, "bitmask"), ("cpsat", "bitmask", "bitmask"), ("mip", None, "cadical195")],
)
def test_prove_cli_names_who_settled_and_who_proved(
    backend: str,
    proof_by: str | None,
    solver: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    puzzle = REPO / "models" / "classic" / "ai-escargot.toml"
    args = ["prove", str(puzzle), "--backend", backend, "--certificate", str(tmp_path / "c")]
    assert main(args + (["--proof-by", proof_by] if proof_by else [])) == 0
    assert "unique" in capsys.readouterr().out
    manifest = json.loads((tmp_path / "c" / "manifest.json").read_text())
    assert (manifest["backend"], manifest["solver"]) == (backend, solver)
    assert main(["verify-certificate", str(tmp_path / "c")]) == 0


def test_prove_cli_reports_several_solutions_and_wrong_encodings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("." * 16 + "\n")
    assert main(["prove", str(empty), "--backend", "bitmask"]) == 0
    assert "multiple (two different solutions" in capsys.readouterr().out
    code = main(["prove", str(empty), "--backend", "bitmask", "--encoding", "minimal"])
    assert code != 0 and "extended encoding" in capsys.readouterr().err


def test_drat_trim_agrees_where_installed(
    line_21: tuple[SatCertificate, dict[str, Any], Path],
) -> None:
    verdict = run_drat_trim(line_21[2])
    if verdict is None:
        pytest.skip("drat-trim is not on PATH (no Debian or PyPI package; dratify checked it)")
    assert verdict == "verified"


def test_the_verdict_matches_every_backend() -> None:
    puzzle = puzzle_from_line(LINE_21, Shape(3, 3))
    assert prove_by_search(puzzle).status == "unsatisfiable"
    for name in ("sat", "cpsat"):
        assert get_backend(name).solve(puzzle).status is Status.UNSATISFIABLE


def test_pair_support_lemmas_make_the_pair_search_unchecked(tmp_path: Path) -> None:
    """With houses and two-cell tables only, the pairs' support clauses, written once at the
    root, make unit propagation as strong as the kernel: no lemma per node is checked or
    justified by branching. Each is needed and verified by both checkers; dropped, the
    certificate is rejected by both."""
    (puzzle,) = read_puzzles(REPO / "models" / "variants" / "real" / "xv-kropki.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["propagations"] == found.stats["refined_nodes"] == 0
    supports = int(found.stats["support_lemmas"])
    assert supports > 0 and found.stats["nodes"] > 20
    certificate, _ = certified(puzzle, tmp_path / "w")
    proof = certificate.proof
    # ¬x(a, d), then the partner's digits d allows: the X on r2c1-r2c2 lets a 3 have only a 7.
    assert "-84 97 0" in proof[:supports]  # x(r2c1, 3) = 9·9 + 3, x(r2c2, 7) = 10·9 + 7
    steps = parse_drat("\n".join(proof))
    verdict = check_drat(certificate.clauses, steps)
    first = next(k - 1 for k in verdict.needed if k <= supports)  # a support the proof uses
    broken = "".join(line + "\n" for k, line in enumerate(proof) if k != first)
    (tmp_path / "w" / "proof.drat").write_text(broken)
    check = verify_certificate(tmp_path / "w")
    assert not check.ok and "neither RUP nor RAT" in check.messages[-1]
    assert not independent(tmp_path / "w")


def test_selector_support_lemmas() -> None:
    """A group of selectors s28 ∨ s29 ∨ s30 (a cage's digit sets, say) on a 3-digit board:
    x(r1c1, 1) is left only to s30, and s28 leaves r1c1 only its 3; what unit propagation
    already gets (one selector or one digit left out) is not written."""
    from satsudoku.proof.supports import read_selectors, selector_supports

    clauses = [[1, 2, 3], [4, 5, 6], [28, 29, 30]]
    clauses += [[-28, -1], [-28, -2], [-29, -1], [-30, 5]]  # s30 → x(r1c2, 2)
    assert list(selector_supports(read_selectors(clauses, 3))) == [[-1, 30], [-28, 3]]


def test_cage_support_lemmas_leave_nothing_to_branch_on(tmp_path: Path) -> None:
    """Renban cages (digit sets): with the selector supports written, unit propagation makes
    every deduction the kernel's cage revision makes, so no node is justified by branching;
    without the supports the search's lemmas do not follow, for either checker."""
    (puzzle,) = read_puzzles(REPO / "models" / "variants" / "real" / "vanderwaal-6x6.json")
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["refined_nodes"] == 0 and found.stats["nodes"] > 20
    supports = int(found.stats["support_lemmas"])
    certificate, _ = certified(puzzle, tmp_path / "r")
    assert supports > 0
    broken = "".join(line + "\n" for line in certificate.proof[supports:])
    (tmp_path / "r" / "proof.drat").write_text(broken)
    check = verify_certificate(tmp_path / "r")
    assert not check.ok and any("neither RUP nor RAT" in line for line in check.messages)
    assert not independent(tmp_path / "r")


def test_state_support_candidates() -> None:
    """From a sum's transitions s ∧ x → t: a digit needs a state before and after it, a state
    a successor (candidates: the prover writes those unit propagation confirms)."""
    from satsudoku.proof.supports import state_supports

    clauses = [[1, 2, 3], [-30, -1, 31], [-30, -2, 32], [-33, -1, 32]]
    assert list(state_supports(clauses, 3)) == [
        [-1, 30, 33],
        [-1, 31, 32],
        [-2, 30],
        [-2, 32],
        [-30, 31, 32],
        [-33, 32],
    ]


def test_three_cell_table_projections_replace_branching(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between lines are three-cell tables: their nogoods, units and supports, written at the
    root, let unit propagation make the kernel's deductions on this puzzle, which were
    otherwise justified by branching (between.json: 612 refined nodes -> 109). Both checkers
    accept the certificate."""
    (puzzle,) = read_puzzles(
        REPO / "models" / "variants" / "real" / "between-odd-and-even-6x6.json"
    )
    found = prove_by_search(puzzle)
    assert found.status == "unique" and found.solutions[0] == puzzle.solution
    assert found.stats["refined_nodes"] == 0 and found.stats["support_lemmas"] > 100
    certified(puzzle, tmp_path / "b")
    monkeypatch.setattr(search_proof, "_TRIPLES", False)  # the projections alone (no pairs)
    projected = prove_by_search(puzzle)
    assert projected.stats["refined_nodes"] == 0 and projected.stats["pair_variables"] == 0
    monkeypatch.setattr(search_proof, "_TRIPLE_CANDIDATES", 0)  # too many: none written
    without = prove_by_search(puzzle)
    assert without.stats["support_lemmas"] == 0 and without.stats["refined_nodes"] > 0
