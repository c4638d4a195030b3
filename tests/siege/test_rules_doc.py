"""docs/rules/siege.md cites only tests that exist (the project-wide check in
tests/test_rules_docs.py covers registered games; SIEGE is not registered yet)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CITATION = re.compile(r"(?:tests/[a-z_]+/)?(test_[a-z0-9_]+\.py)::(test_[A-Za-z0-9_]+)")


def test_every_cited_siege_test_exists():
    text = (ROOT / "docs" / "rules" / "siege.md").read_text(encoding="utf-8")
    citations = set(CITATION.findall(text))
    assert len(citations) >= 30
    missing = []
    for file, name in sorted(citations):
        path = ROOT / "tests" / "siege" / file
        source = path.read_text(encoding="utf-8") if path.exists() else ""
        if not re.search(rf"^\s*(?:async\s+)?def {re.escape(name)}\(", source, re.MULTILINE):
            missing.append(f"{file}::{name}")
    assert not missing, missing
