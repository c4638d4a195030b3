"""Suite-wide: nothing a test runs may write into the real home directory, and every game a
test opens without a seed gets one that is the same on every run."""

from __future__ import annotations

import hashlib

import pytest

from service import games as service_games
from service import table as service_table


@pytest.fixture(autouse=True)
def _table_home_in_tmp(tmp_path_factory, monkeypatch):
    """The local table keeps games under $XDG_DATA_HOME/umpire by default; every test (and
    every subprocess it starts) gets a throwaway one instead of the developer's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))


class GameSeeds:
    """Stands in for the ``secrets`` module where a new game draws its dice seed: each test
    gets the same seeds on every run, so a failure replays (a random seed once failed CI in a
    way no rerun showed). Games within a test still get different seeds; a test that needs a
    particular one puts it in ``chosen``."""

    def __init__(self, test_id: str):
        self.test_id = test_id
        self.drawn = 0
        self.chosen: list[str] = []

    def token_hex(self, nbytes: int = 32) -> str:
        if self.chosen:
            return self.chosen.pop(0)
        self.drawn += 1
        digest = hashlib.sha256(f"{self.test_id}#{self.drawn}".encode()).hexdigest()
        return digest[: 2 * nbytes]


@pytest.fixture(autouse=True)
def game_seeds(request, monkeypatch) -> GameSeeds:
    seeds = GameSeeds(request.node.nodeid)
    for module in (service_games, service_table):
        monkeypatch.setattr(module, "secrets", seeds)
    return seeds
