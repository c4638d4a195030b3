"""docs/rules/tactical-table-war.md: besides tests/test_rules_docs.py's check that cited tests
exist, every numbered clause row must cite one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"(test_[a-z0-9_]+\.py)::(test_[A-Za-z0-9_]+)")


def test_every_cited_test_exists_and_every_clause_cites_one_or_says_not_yet():
    text = (ROOT / "docs" / "rules" / "tactical-table-war.md").read_text(encoding="utf-8")
    citations = set(CITATION.findall(text))
    assert len(citations) >= 30
    missing = []
    for file, name in sorted(citations):
        path = ROOT / "tests" / "tactical_table_war" / file
        if not path.exists():
            path = ROOT / "tests" / file  # the shared checks every registered game passes
        source = path.read_text(encoding="utf-8") if path.exists() else ""
        if not re.search(rf"^\s*(?:async\s+)?def {re.escape(name)}\(", source, re.MULTILINE):
            missing.append(f"{file}::{name}")
    assert not missing
    for row in text.splitlines():
        if re.match(r"\| [BEP]\d+ \|", row):
            assert CITATION.search(row) or "**not yet" in row, row
