"""Every refusal Tenochtitlan gives while a German reader plays reads German (issue 15): the
probe tries the plausible mistakes (another unit, another hex, a unit that is not eliminated, a
partner out of range, a command of another phase, the other side's command) at every step of
seeded games."""

from __future__ import annotations

import pytest

from engine.core.game import new_game
from engine.registry import get_ruleset
from tests.discord.test_german_replies import english_sentences
from tests.german_probe import english_refusals, refused_in_german

GAME = get_ruleset("tenochtitlan")


@pytest.mark.parametrize("scenario", [s.name for s in GAME.scenarios()])
def test_no_refusal_reaches_a_german_reader_in_english(scenario):
    found = english_refusals(GAME, [scenario], seeds=(1, 2), steps=80)
    assert not found, "\n".join(list(found)[:10])


@pytest.mark.parametrize(
    "edit, german",
    [
        ({"type": "ref-place", "unit": "nobody", "to": "0101"}, "Es gibt keine Einheit 'nobody'"),
        ({"type": "ref-place", "unit": "sp-cavalry-1", "to": "9999"}, "kein Feld dieser Karte"),
        ({"type": "ref-place", "unit": "sp-cavalry-1", "to": "1514"}, "nicht auf dem Wasserfeld"),
        ({"type": "ref-place", "unit": "sp-brigantine-1", "to": "0308"}, "nur auf Wasser"),
        ({"type": "ref-place", "unit": "sp-cavalry-1", "to": "0808"}, "Auf 0808 steht schon"),
        ({"type": "ref-remove", "unit": "nobody"}, "auf dem Brett"),
        ({"type": "ref-phase", "phase": "combat", "value": "nobody"}, "keine Seite 'nobody'"),
    ],
)
def test_a_referees_refused_edit_reads_german(edit, german):
    state, _ = new_game(GAME, GAME.load_scenario("historical"), 1)
    text = refused_in_german(GAME, state, {**edit, "side": "referee"})
    assert german in text and not english_sentences(text), text


@pytest.mark.parametrize(
    "reason, german",
    [
        (
            "only 3 Spanish units (without Tlaxcalans) remain on the map",
            "nur noch 3 spanische Einheiten (ohne Tlaxcalteken) auf dem Brett",
        ),
        (
            "the Spanish control every objective and a causeway with its village",
            "die Spanier kontrollieren jedes Ziel und einen Damm samt Dorf",
        ),
        (
            "the Spanish did not win by the end of turn 8",
            "die Spanier haben bis zum Ende von Spielzug 8 nicht gewonnen",
        ),
    ],
)
def test_every_ending_is_told_in_german(reason, german):
    # the reasons are worded as the engine's end checks word them (rules.py)
    ended = {"result": {"winner": "aztec", "reason": reason}}
    assert GAME.result_reason(ended, "de") == german
    assert GAME.result_reason(ended, "en") == reason


def test_german_rules_name_the_terrain_as_the_german_board_does():
    terrain = dict(GAME.rules_reference("de"))["Gelände"]
    names = [line.split("**")[1] for line in terrain if line.startswith("**")]
    for german in ("Offenes Gelände", "Hügel", "Sumpf", "Dorf", "Damm", "Dammbrücke"):
        assert german in names, names
    for english in ("Clear", "Hills", "Marsh", "Village", "Causeway", "Causeway bridge"):
        assert english not in names, names
    english_terrain = dict(GAME.rules_reference("en"))["Terrain"]
    assert any(line.startswith("**Clear**") for line in english_terrain)
