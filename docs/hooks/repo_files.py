"""MkDocs hook: publish files that live elsewhere in the repository (the benchmark plot) under
the site, so docs link to the one copy in git instead of a duplicate in docs/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# site path -> repository path; docs/*.md link to the site path (tests/test_docs.py reads this)
REPO_FILES = {
    "results/paradigms.png": "benchmarks/results/paradigms.png",
    "results/large_sizes.png": "benchmarks/results/large_sizes.png",
    "results/large_fills.png": "benchmarks/results/large_fills.png",
    "results/large_transition.png": "benchmarks/results/large_transition.png",
}


def on_files(files: Any, config: Any, **kwargs: Any) -> Any:
    """Add each file of REPO_FILES to the site (mkdocs imported here: tests read REPO_FILES
    without it)."""
    from mkdocs.structure.files import File

    for site_path, repo_path in REPO_FILES.items():
        source = ROOT / repo_path
        if not source.is_file():
            raise FileNotFoundError(f"{repo_path} (published as {site_path}) is missing")
        src_dir = source.parents[len(Path(site_path).parts) - 1]
        files.append(
            File(site_path, str(src_dir), config["site_dir"], config["use_directory_urls"])
        )
    return files
