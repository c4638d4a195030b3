"""Every refusal Pocket Tactics gives while a German reader plays reads German (issue 15): the
probe tries the plausible mistakes (another unit, another tile, a garbled feature, a die or a
bonus that is not yours, an attack type not declared, a command of another step, the other
side's command) at every step of seeded games, from the choice of factions to the fighting."""

from __future__ import annotations

import pytest

from engine.registry import get_ruleset
from tests.german_probe import english_refusals

GAME = get_ruleset("pocket-tactics")


@pytest.mark.parametrize("scenario", [s.name for s in GAME.scenarios()])
def test_no_refusal_reaches_a_german_reader_in_english(scenario):
    found = english_refusals(GAME, [scenario], seeds=range(1, 9), steps=300)
    assert not found, "\n".join(list(found)[:10])
