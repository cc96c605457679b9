"""Checks a written certificate must pass: satsudoku's own checker and dratify, a DRAT checker
written independently of it (in the dev extra; a test module importing this one is skipped
without it, and says so)."""

from __future__ import annotations

from pathlib import Path

import pytest

from satsudoku.proof.certificate import SatCertificate, verify_certificate

dratify = pytest.importorskip(
    "dratify", reason="dratify is in the dev extra: pip install -e .[dev]"
)


def independent(folder: Path) -> bool:
    """dratify's verdict on formula.cnf and proof.drat, deletions applied, every step checked."""
    formula = dratify.parse_dimacs((folder / "formula.cnf").read_text())
    result = dratify.check_proof(formula, (folder / "proof.drat").read_text(), engine="python")
    return bool(result.ok and result.reached_empty)


def both_checkers_accept(certificate: SatCertificate | None, folder: Path) -> None:
    """The certificate, written to `folder`, passes satsudoku's checker and dratify."""
    assert certificate is not None
    certificate.write(folder)
    check = verify_certificate(folder)
    assert check.ok, check.messages
    assert independent(folder)
