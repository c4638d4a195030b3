"""Every refusal Tactical Table War gives while a German reader plays reads German (issue 15):
the probe tries the plausible mistakes (another unit, another hex, a building it cannot afford,
a target out of reach, a command of another phase, the other side's command) at every step
of seeded games."""

from __future__ import annotations

import pytest

from engine.registry import get_ruleset
from tests.german_probe import english_refusals

GAME = get_ruleset("tactical-table-war")


@pytest.mark.parametrize("scenario", [s.name for s in GAME.scenarios()])
def test_no_refusal_reaches_a_german_reader_in_english(scenario):
    found = english_refusals(GAME, [scenario], seeds=(1, 2), steps=250)
    assert not found, "\n".join(list(found)[:10])
