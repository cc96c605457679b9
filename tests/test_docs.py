"""README and docs/ cannot rot: links resolve, README starts with the two set-up commands CI runs,
every tour command runs on the repository alone, and every rule example in docs/rules.md builds.

The site itself (anchors, the generated CLI and API references) is built by `.ci/run` with
`mkdocs build --strict`; these tests need no MkDocs."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
from pathlib import Path

import pytest

from satsudoku.cli import main
from satsudoku.grid import Shape
from satsudoku.io import read_text
from satsudoku.result import Status
from satsudoku.rules import make_rule, rule_types
from tests.conftest import REPO

README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = sorted(DOCS.glob("*.md"))
# Markdown links and images: [text](target) / ![alt](target); a target ends at ')' or a space.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _site_files() -> dict[str, str]:
    """Site path -> repository path of the files the docs hook publishes from outside docs/."""
    spec = importlib.util.spec_from_file_location("repo_files", DOCS / "hooks" / "repo_files.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files: dict[str, str] = module.REPO_FILES
    return files


def _relative_links(page: Path) -> list[str]:
    """Link targets in `page` that point into the repository (no URL, no bare anchor)."""
    targets = [m.group(1) for m in LINK.finditer(page.read_text())]
    return [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:|#", t)]


def _blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(page.read_text()) if lang == language]


def test_readme_starts_with_the_two_commands_and_the_test_command_is_cis() -> None:
    text = README.read_text()
    first = FENCE.search(text)
    assert first is not None and text[: first.start()].strip() == "# satsudoku"
    install, tests = first.group(2).strip().splitlines()
    assert install.startswith("python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && ")
    assert " .venv/bin/satsudoku solve models/" in install
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert tests in [line.strip() for line in ci]  # exactly what CI runs, not a look-alike
    assert tests == ".venv/bin/python -m pytest -q -n auto"


def test_readme_stays_a_front_page() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move detail into docs/"
    assert "../shared" not in README.read_text()  # a clone has no ../shared: never send users there


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_point_at_files_that_exist(page: Path) -> None:
    links = _relative_links(page)
    published = _site_files()
    missing = []
    for target in links:
        if page.parent == DOCS:  # inside the site: a page, or a file the hook publishes
            resolved = (DOCS / target).resolve()
            ok = resolved.is_relative_to(DOCS) and resolved.exists() or target in published
            ok = ok and (target not in published or (REPO / published[target]).is_file())
        else:
            ok = (page.parent / target).exists()
        if not ok:
            missing.append(target)
    assert not missing, f"{page.name}: broken links {missing}"


def test_every_docs_page_is_in_the_site_navigation() -> None:
    nav = (REPO / "mkdocs.yml").read_text()
    assert [p.name for p in PAGES if f": {p.name}" not in nav] == []


def test_every_rule_type_has_a_section_and_every_example_builds() -> None:
    page = DOCS / "rules.md"
    text = page.read_text()
    headings = " ".join(re.findall(r"^### (.+)$", text, re.M))
    assert [t for t in rule_types() if f"`{t}`" not in headings] == []
    examples = [json.loads(block) for block in _blocks(page, "json")]
    shape = Shape(3, 3)
    for spec in examples:
        make_rule(spec, shape)  # raises, naming the rule and field, if the example is wrong
    assert {spec["type"] for spec in examples} >= {"killer", "sandwich", "kropki", "clone"}
    assert len(examples) >= 20


@pytest.mark.parametrize("page", [README, DOCS / "formats.md"], ids=lambda p: p.name)
def test_puzzle_document_examples_read(page: Path) -> None:
    documents = [b for b in _blocks(page, "json") if '"givens"' in b]
    assert documents
    for block in documents:
        (puzzle,) = read_text(block)
        assert puzzle.rules


def test_the_plugin_example_in_the_docs_is_the_shipped_file() -> None:
    (code,) = _blocks(DOCS / "rules.md", "python")
    assert code in (REPO / "examples" / "queen_rule.py").read_text()


def test_readme_python_example_runs() -> None:
    (code,) = _blocks(README, "python")
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    result = namespace["result"]
    assert getattr(result, "status") is Status.UNIQUE  # noqa: B009 - typed as object here


def _tour_commands() -> list[str]:
    """`satsudoku …` lines of the README's and getting-started's shell blocks ('\\' joined)."""
    commands: dict[str, str] = {}  # without its comment -> as written (the first time)
    for page in (README, DOCS / "getting-started.md"):
        for block in _blocks(page, "bash"):
            for line in block.replace("\\\n", " ").splitlines():
                if line.startswith("satsudoku "):
                    commands.setdefault(" ".join(shlex.split(line, comments=True)), line)
    return list(commands.values())


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory that holds what a fresh clone holds (and no ../shared)."""
    for name in ("models", "examples"):
        (tmp_path / name).symlink_to(REPO / name)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "data").symlink_to(REPO / "tests" / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# `--backend all` on 16 hard puzzles: 5 s CPU and 12 s on a loaded 2-core box (the race forks
# three solvers per puzzle); CI's `pytest -m slow` runs it, test_cli runs --backend all by default.
SLOW_TOUR = {"satsudoku solve tests/data/famous-hard-16.txt --backend all"}


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, marks=[pytest.mark.slow] if c in SLOW_TOUR else []) for c in _tour_commands()],
)
def test_tour_commands_run_on_a_clone(
    command: str, clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shlex.split(command, comments=True)
    if words[1] == "verify-certificate":  # checks what the tour's `prove` wrote
        assert main(["prove", "models/classic/ai-escargot.toml", "--certificate", "certs/"]) == 0
        capsys.readouterr()
    assert main(words[1:]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    expected = command.partition("#")[2].strip()
    if expected.isdigit():  # `satsudoku count … # 288`: the comment is the answer
        assert out.strip() == expected
    else:
        # a command writing its answer to `-o FILE` prints nothing; the file must then exist
        assert out.strip() or Path(words[words.index("-o") + 1]).stat().st_size > 0
