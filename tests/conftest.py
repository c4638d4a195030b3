"""Suite-wide safety: nothing a test runs may write into the real home directory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _table_home_in_tmp(tmp_path_factory, monkeypatch):
    """The local table keeps games under $XDG_DATA_HOME/umpire by default; every test (and
    every subprocess it starts) gets a throwaway one instead of the developer's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
