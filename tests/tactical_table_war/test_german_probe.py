"""Every refusal Tactical Table War gives while a German reader plays reads German (issue 15):
the probe tries the plausible mistakes (another unit, another hex, a building it cannot afford,
a target out of reach, a command of another phase, the other side's command) at every step
of seeded games."""

from __future__ import annotations

import pytest

from engine.core.game import new_game
from engine.registry import get_ruleset
from tests.discord.test_german_replies import english_sentences
from tests.german_probe import english_refusals, refused_in_german

GAME = get_ruleset("tactical-table-war")


@pytest.mark.parametrize("scenario", [s.name for s in GAME.scenarios()])
def test_no_refusal_reaches_a_german_reader_in_english(scenario):
    found = english_refusals(GAME, [scenario], seeds=(1, 2), steps=250)
    assert not found, "\n".join(list(found)[:10])


@pytest.mark.parametrize(
    "edit, german",
    [
        ({"type": "ref-place", "unit": "nobody", "to": "0808"}, "Es gibt keine Einheit 'nobody'"),
        ({"type": "ref-place", "unit": "red-1", "to": "9999"}, "kein freies Feld"),
    ],
)
def test_a_referees_refused_edit_reads_german(edit, german):
    state, _ = new_game(GAME, GAME.load_scenario("prepared-battlefield"), 1)
    text = refused_in_german(GAME, state, {**edit, "side": "referee"})
    assert german in text and not english_sentences(text), text


@pytest.mark.parametrize(
    "reason, german",
    [
        ("turn limit: score red 19, blue 18", "Rundenlimit: Punkte Rot 19, Blau 18"),
        (
            "Blue has no unit left and cannot recruit",
            "Blau hat keine Einheit mehr und kann nicht rekrutieren",
        ),
        ("Blue's castle is destroyed", "die Burg von Blau ist zerstört"),
    ],
)
def test_every_ending_is_told_in_german(reason, german):
    # the reasons are worded as the engine's end checks word them (rules.py)
    state, _ = new_game(GAME, GAME.load_scenario(GAME.scenarios()[0].name), 1)
    ended = {**state, "result": {"winner": "red", "reason": reason}}
    assert GAME.result_reason(ended, "de") == german
    assert GAME.result_reason(ended, "en") == reason
