"""Certificates from strangers, and certificate folders that cannot be written.

Every hostile certificate sits in one folder beside a good one and is checked by one
`verify-certificate` run in a subprocess limited to 1 GiB of address space: each must be
REJECTED with a one-line reason, no traceback, exit status 1, and the good one still VERIFIED.
`prove --certificate` onto unusable places fails in one line and leaves no partial file.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from satsudoku import Shape, get_backend
from satsudoku.io import ReadOptions, puzzle_document
from satsudoku.io.document import puzzle_from_document
from satsudoku.proof.certificate import make_certificate, verify_certificate
from satsudoku.puzzle import Puzzle
from tests import forked
from tests.conftest import BUNDLED, puzzle_from_line, sample_lines

# RLIMIT_AS of the checking process, above its start; the old checker wanted tens of GB here
MEMORY = 1 << 30
LINE = sample_lines(BUNDLED / "top1465.txt", 1)[0]
SIDES = ("left", "right", "top", "bottom")


def _satsudoku(args: list[str], limit: int, which: int) -> subprocess.CompletedProcess[str]:
    """`python -m satsudoku ARGS` under a resource limit and a timeout, in a fork of this
    process (tests/forked.py); an address-space limit counts from the fork's start."""
    if which == resource.RLIMIT_AS:
        run = forked.satsudoku(*args, timeout=120, address_space=limit)
    else:
        assert which == resource.RLIMIT_FSIZE
        run = forked.satsudoku(*args, timeout=120, file_size=limit)
    return subprocess.CompletedProcess(args, run.code, run.out, run.err)


# ---------------------------------------------------------------------------------------------
# Tampering: each function turns a copy of the good certificate into a hostile one.


def _edit(path: Path, change: Callable[[str], str]) -> None:
    path.write_text(change(path.read_text()))


def _header(folder: Path) -> str:
    return next(x for x in (folder / "formula.cnf").read_text().splitlines() if x[:1] == "p")


def _manifest(folder: Path, **fields: object) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest.update(fields)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _lemmas(folder: Path) -> int:
    lemmas = json.loads((folder / "manifest.json").read_text())["lemmas"]
    assert isinstance(lemmas, int)
    return lemmas


def _sparse(name: str, size: int) -> Callable[[Path], None]:
    def tamper(folder: Path) -> None:
        os.truncate(folder / name, size)  # holes: no disk used, and never read

    return tamper


def _symlinked(name: str) -> Callable[[Path], None]:
    def tamper(folder: Path) -> None:
        (folder / name).unlink()
        (folder / name).symlink_to(folder.parent / "good" / name)  # the good, identical bytes

    return tamper


def _huge_literal_formula(folder: Path) -> None:
    header = _header(folder)
    _edit(
        folder / "formula.cnf", lambda t: t.replace(header, "p cnf 99999999 " + header.split()[3])
    )
    _edit(folder / "formula.cnf", lambda t: t.rstrip("\n").rsplit("\n", 1)[0] + "\n99999999 0\n")


def _rat_lemma_with_huge_variable(folder: Path) -> None:
    """A valid RAT lemma on a brand-new variable 2^31-1: the proof stays a refutation."""
    _edit(folder / "proof.drat", lambda t: "-2147483647 0\n" + t)
    _manifest(folder, lemmas=_lemmas(folder) + 1)


def _manifest_digits(folder: Path) -> None:
    _edit(
        folder / "manifest.json",
        lambda t: t.replace('"variables": 729', '"variables": ' + "9" * 5000),
    )


def _an_empty_claim(box: int, folder: Path) -> None:
    """The manifest claims an empty board of box x box boxes: a 49x49's encoding alone would
    take gigabytes; a 64x64 (33 million pairwise clauses) is past what any certificate holds."""
    puzzle = Puzzle.empty(Shape(box, box))
    _manifest(
        folder,
        puzzle=puzzle_document(puzzle),
        shape=puzzle.shape.describe(),
        status="unsatisfiable",
    )


def _skyscraper_claim(folder: Path) -> None:
    """The manifest claims the 9x9 with a skyscraper clue of 3 on all 36 sides: each clue's
    table holds 118,124 rows, so re-encoding it all took 241 s and 6.7 GB before the checker
    bounded the re-encoding by what formula.cnf can hold."""
    document = {"size": 9, "rules": [{"type": "skyscraper", **{s: [3] * 9 for s in SIDES}}]}
    puzzle = puzzle_from_document(document, ReadOptions(source="test"))
    _manifest(folder, puzzle=puzzle_document(puzzle), rules=puzzle.rule_names())


def _fifo(folder: Path) -> None:
    (folder / "proof.drat").unlink()
    os.mkfifo(folder / "proof.drat")  # opening it for reading would block forever


HOSTILE: dict[str, tuple[Callable[[Path], object], str]] = {
    "proof-huge-literal": (
        lambda f: (f / "proof.drat").write_text("99999999 0\n"),
        "proof.drat rejected: the proof derives no conflict",
    ),
    "proof-5000-digits": (
        lambda f: _edit(f / "proof.drat", lambda t: "1" + "0" * 4999 + " 0\n" + t),
        "proof.drat: line 1: a literal beyond ±2147483647",
    ),
    "proof-huge-file": (_sparse("proof.drat", 4 << 30), "over the 67,108,864-byte limit"),
    "proof-fifo": (_fifo, "proof.drat: not a regular file"),
    "formula-huge-literal": (
        _huge_literal_formula,
        "the header declares 99999999 variables, the puzzle's extended encoding has 729",
    ),
    "formula-header-lies-variables": (
        lambda f: _edit(
            f / "formula.cnf", lambda t: t.replace(_header(f), "p cnf 5 " + _header(f).split()[3])
        ),
        "exceeds the 5 variables the header",
    ),
    "formula-header-lies-clauses": (
        lambda f: _edit(f / "formula.cnf", lambda t: t.replace(_header(f), "p cnf 729 99999999")),
        "the header declares 99999999 clauses, the file has",
    ),
    "formula-5000-digits": (
        lambda f: _edit(
            f / "formula.cnf", lambda t: t.replace(_header(f), "p cnf 729 " + "9" * 5000)
        ),
        "formula.cnf: line ",
    ),
    "formula-huge-file": (_sparse("formula.cnf", 4 << 30), "-byte limit for this puzzle"),
    "formula-too-small-for-its-puzzle": (
        partial(_an_empty_claim, 7),
        "cannot hold the 49x49 extended encoding",
    ),
    "a-board-past-49x49": (partial(_an_empty_claim, 8), "boards up to 49x49"),
    "formula-too-small-for-its-rules": (
        _skyscraper_claim,
        "bytes cannot hold the puzzle's extended encoding (its rules need more than",
    ),
    "manifest-5000-digits": (
        _manifest_digits,
        "manifest.json:11:16: JSON: a number of 5000 digits (at most 20 are read)",
    ),
    "manifest-nested": (
        lambda f: (f / "manifest.json").write_text("[" * 100_000),
        "manifest.json:1:65: JSON: nested deeper than 64 levels",
    ),
    "manifest-huge-file": (_sparse("manifest.json", 4 << 30), "over the 8,388,608-byte limit"),
    "manifest-lemmas": (
        lambda f: _manifest(f, lemmas=_lemmas(f) + 1),
        "manifest.json: lemmas is ",
    ),
    "manifest-clauses": (
        lambda f: _manifest(f, clauses=1),
        "manifest.json: clauses is 1, the files say",
    ),
    "manifest-solver": (
        lambda f: _manifest(f, solver="minisat22"),
        'manifest.json: solver "minisat22" cannot write usable proofs',
    ),
    "solution-huge-file": (_sparse("solution.txt", 4 << 30), "over the 388-byte limit"),
    "symlinked-formula": (_symlinked("formula.cnf"), "formula.cnf: a symbolic link; not followed"),
    "symlinked-manifest": (
        _symlinked("manifest.json"),
        "manifest.json: a symbolic link; not followed",
    ),
}


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], dict[str, list[str]]]:
    """One verify-certificate run over the good certificate, every hostile one, a symlinked
    folder and a valid proof with a huge new variable; each folder's output lines by name."""
    root = tmp_path_factory.mktemp("hostile")
    puzzle = puzzle_from_line(LINE, Shape(3, 3))
    solution = get_backend("bitmask").solve(puzzle).solutions
    make_certificate(puzzle, solution).write(root / "good")
    for name, (tamper, _) in {
        **HOSTILE,
        "rat-huge-variable": (_rat_lemma_with_huge_variable, ""),
    }.items():
        shutil.copytree(root / "good", root / name)
        tamper(root / name)
    (root / "symlinked-folder").symlink_to(root / "good")
    done = _satsudoku(
        ["verify-certificate", str(root), "--no-drat-trim"], MEMORY, resource.RLIMIT_AS
    )
    report: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        if not line.startswith("  ") and line.startswith(str(root)):
            name, _, verdict = line[len(str(root)) + 1 :].partition(": ")
            report[name] = [verdict]
        elif line.startswith("  "):
            report[name].append(line.strip())
    return done, report


def test_the_run_stays_within_1_gib_and_reports_every_folder(
    checked: tuple[subprocess.CompletedProcess[str], dict[str, list[str]]],
) -> None:
    done, report = checked
    assert done.returncode == 1 and done.stderr == "" and "Traceback" not in done.stdout
    total = len(HOSTILE) + 3
    assert done.stdout.splitlines()[-1] == f"{total} certificates: 2 verified, {total - 2} rejected"
    assert report["good"][0] == "VERIFIED", report["good"]


def test_a_valid_rat_lemma_on_variable_2_31_minus_1_costs_no_memory(
    checked: tuple[subprocess.CompletedProcess[str], dict[str, list[str]]],
) -> None:
    report = checked[1]
    lines = report["rat-huge-variable"]
    counted = [
        re.search(r" of (\d+) lemmas", report[name][-1]) for name in ("good", "rat-huge-variable")
    ]
    assert lines[0] == "VERIFIED" and all(counted), lines
    assert int(counted[1][1]) == int(counted[0][1]) + 1  # type: ignore[index]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_certificate_is_rejected_in_one_line(
    name: str, checked: tuple[subprocess.CompletedProcess[str], dict[str, list[str]]]
) -> None:
    lines = checked[1][name]
    assert lines[0] == "REJECTED", lines
    assert HOSTILE[name][1] in lines[-1], lines
    assert all(len(line) < 300 for line in lines), lines


def test_a_symlinked_certificate_folder_is_not_followed(
    checked: tuple[subprocess.CompletedProcess[str], dict[str, list[str]]],
) -> None:
    assert checked[1]["symlinked-folder"] == ["REJECTED", "a symbolic link; not followed"]


# ---------------------------------------------------------------------------------------------
# prove --certificate: places that cannot be written, symlinks, folders already in use.


@pytest.fixture
def one(tmp_path: Path) -> Path:
    path = tmp_path / "one.txt"
    path.write_text(LINE + "\n")
    return path


@pytest.fixture
def two(tmp_path: Path) -> Path:
    path = tmp_path / "two.txt"
    path.write_text("\n".join(sample_lines(BUNDLED / "top1465.txt", 2)) + "\n")
    return path


def _prove(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from satsudoku.cli import main  # imports every command: only here

    code = main(["prove", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("one.txt", "one.txt: not a folder"),
        ("one.txt/certs", "one.txt/certs: cannot create the certificate folder (Not a directory)"),
        (
            "/proc/satsudoku/certs",
            "cannot create the certificate folder (No such file or directory)",
        ),
    ],
)
def test_prove_onto_a_place_that_is_no_folder_fails_in_one_line(
    target: str, reason: str, one: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _prove([str(one), "--certificate", str(one.parent / target)], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1 and reason in err, err
    assert sorted(p.name for p in one.parent.iterdir()) == ["one.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_prove_into_a_read_only_folder_fails_in_one_line(
    one: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    code, _, err = _prove([str(one), "--certificate", str(locked)], capsys)
    assert code == 1 and err.count("\n") == 1 and "Permission denied" in err, err
    assert list(locked.iterdir()) == []


def test_prove_on_a_full_disk_leaves_no_partial_file(one: Path, tmp_path: Path) -> None:
    # RLIMIT_FSIZE makes any write past 20 kB fail (EFBIG) as a full disk would (ENOSPC);
    # Python ignores the SIGXFSZ that comes with it, so the write raises instead.
    certs = tmp_path / "certs"
    args = ["prove", str(one), "--certificate", str(certs)]
    done = _satsudoku(args, 20_000, resource.RLIMIT_FSIZE)
    assert done.returncode == 1 and done.stdout == "", done
    assert done.stderr == f"satsudoku: {certs}/formula.cnf: cannot write (File too large)\n"
    assert not certs.exists()  # created for this run, and removed with nothing in it
    certs.mkdir()
    done = _satsudoku(args, 20_000, resource.RLIMIT_FSIZE)
    assert done.returncode == 1 and "formula.cnf: cannot write (File too large)" in done.stderr
    assert list(certs.iterdir()) == []  # no .formula.cnf.partial left behind


def test_prove_never_writes_through_a_symlink(
    one: Path, two: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "formula.cnf").symlink_to(victim)
    (certs / ".proof.drat.partial").symlink_to(victim)
    code, _, err = _prove([str(one), "--certificate", str(certs)], capsys)
    assert code == 1 and "already holds certificate files (formula.cnf, .proof.drat" in err, err
    code, out, err = _prove([str(one), "--certificate", str(certs), "--force"], capsys)
    assert code == 0 and err == "" and "unique" in out
    assert victim.read_text() == "keep me\n" and not (certs / "formula.cnf").is_symlink()
    assert verify_certificate(certs).ok

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    several = tmp_path / "several"
    several.mkdir()
    (several / "0001").symlink_to(elsewhere, target_is_directory=True)
    code, out, err = _prove([str(two), "--certificate", str(several)], capsys)
    assert code == 1 and err == f"satsudoku: {several / '0001'}: a symbolic link; not followed\n"
    assert list(elsewhere.iterdir()) == []

    (certs / "link").symlink_to(victim.parent, target_is_directory=True)
    code, out, err = _prove([str(one), "--certificate", str(certs / "link")], capsys)
    assert code == 1 and "link: a symbolic link; not followed" in err


def test_a_reused_folder_is_refused_and_force_clears_only_certificate_files(
    one: Path, two: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    certs = tmp_path / "certs"
    assert _prove([str(two), "--certificate", str(certs)], capsys)[0] == 0
    (certs / "notes.txt").write_text("mine\n")
    (certs / "0002" / "mine.txt").write_text("mine too\n")
    (certs / "0002" / "keep").mkdir()
    code, out, err = _prove([str(one), "--certificate", str(certs)], capsys)
    assert code == 1 and out == ""
    assert "already holds certificate files (0001/manifest.json" in err and "--force" in err
    assert sorted(p.name for p in (certs / "0001").iterdir())[0] == "formula.cnf"  # untouched

    code, out, err = _prove([str(one), "--certificate", str(certs), "--force"], capsys)
    assert code == 0 and err == ""
    assert sorted(p.name for p in certs.iterdir()) == [
        "0002",  # kept: it holds files satsudoku did not write
        "formula.cnf",
        "manifest.json",
        "notes.txt",
        "proof.drat",
        "solution.txt",
    ]
    assert sorted(p.name for p in (certs / "0002").iterdir()) == ["keep", "mine.txt"]
    assert (certs / "notes.txt").read_text() == "mine\n"
    from satsudoku.cli import main

    assert main(["verify-certificate", str(certs)]) == 0
    assert capsys.readouterr().out.count("VERIFIED") == 1


def test_the_proof_limit_is_the_callers_to_raise(
    one: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from satsudoku.cli import main

    certs = tmp_path / "certs"
    assert _prove([str(one), "--certificate", str(certs)], capsys)[0] == 0
    with (certs / "proof.drat").open("a") as proof:
        proof.write("c " + "x" * (3 << 20) + "\n")  # a 3 MiB comment: still a valid proof
    assert main(["verify-certificate", str(certs), "--max-proof-mib", "2"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].strip().startswith("proof.drat: 3,1") and "over the 2,097,152-byte" in out[1]
    assert main(["verify-certificate", str(certs), "--max-proof-mib", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("VERIFIED")
