"""Skirmish whose board scene says which process built it (by refusing to be built)."""

import os

from tests.fixtures.skirmish import Skirmish


class WhereDrawn(Skirmish):
    name = "skirmish-where"

    def scene(self, state, events, viewer, lang="en"):
        raise RuntimeError(f"scene built in process {os.getpid()}")
