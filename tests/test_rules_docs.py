"""Every rule clause in docs/rules/<game>.md names the test that checks it; those tests exist.

A rules document that cites a renamed or deleted test would claim a check that no longer runs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = {
    "tenochtitlan": "tenochtitlan",
    "rivet-wars": "rivetwars",
    "pocket-tactics": "pockettactics",
    "tactical-table-war": "tactical_table_war",
    "siege": "siege",
}
CITATION = re.compile(r"(tests/[a-z_]+/)?(test_[a-z0-9_]+\.py)::(test_[A-Za-z0-9_]+)")


@pytest.mark.parametrize("game", sorted(DOCS))
def test_every_cited_test_exists(game):
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    citations = set(CITATION.findall(text))
    assert len(citations) >= 30, f"docs/rules/{game}.md cites only {len(citations)} tests"
    missing = []
    for folder, file, name in sorted(citations):
        # A citation that names its folder (tests/core/...) is looked up there only.
        path = ROOT / folder / file if folder else ROOT / "tests" / DOCS[game] / file
        if not folder and not path.exists():
            path = ROOT / "tests" / file
        source = path.read_text(encoding="utf-8") if path.exists() else ""
        if not re.search(rf"^\s*(?:async\s+)?def {re.escape(name)}\(", source, re.M):
            missing.append(f"{file}::{name}")
    assert not missing, f"docs/rules/{game}.md cites tests that do not exist: {missing}"
