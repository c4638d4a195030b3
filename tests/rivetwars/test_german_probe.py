"""Every refusal Rivet Wars gives while a German reader plays a mission reads German (issue 15):
the probe tries the plausible mistakes (another unit, another square, a card not in hand, a
command of another phase, the other side's command) at every step of seeded games."""

from __future__ import annotations

import pytest

from engine.core.dice import seeded
from engine.core.game import apply_action, new_game
from engine.registry import get_ruleset
from tests.discord.test_german_replies import english_sentences
from tests.german_probe import english_refusals, refused_in_german

GAME = get_ruleset("rivet-wars")


@pytest.mark.parametrize("scenario", [s.name for s in GAME.scenarios()])
def test_no_refusal_reaches_a_german_reader_in_english(scenario):
    found = english_refusals(GAME, [scenario], seeds=(1, 2), steps=100)
    assert not found, "\n".join(list(found)[:10])


def test_a_referees_refused_edits_read_german():
    state, _ = new_game(GAME, GAME.load_scenario("mission-1"), 1)
    state, _ = apply_action(
        GAME, state, {"type": "suggested", "side": state["active"]}, seeded(1, 0)
    )
    placed = sorted(state["units"])
    taken = state["units"][placed[1]]["at"]
    for edit, german in (
        ({"type": "ref-place", "unit": "nobody", "to": "C4"}, "Es gibt keine Einheit 'nobody'"),
        ({"type": "ref-place", "unit": placed[0], "to": "Z99"}, "kein Feld der Karte"),
        ({"type": "ref-place", "unit": placed[0], "to": taken}, f"Das Feld {taken} ist besetzt"),
    ):
        text = refused_in_german(GAME, state, {**edit, "side": "referee"})
        assert german in text and not english_sentences(text), text


@pytest.mark.parametrize(
    "reason, german",
    [
        ("reached 12 victory points", "12 Siegpunkte erreicht"),
        (
            "ended the round ahead on victory points (9 to 7)",
            "Runde mit mehr Siegpunkten beendet (9 zu 7)",
        ),
        ("round limit 8: tied on victory points", "Rundenlimit 8: Gleichstand bei Siegpunkten"),
        ("round limit 8: more victory points", "Rundenlimit 8: mehr Siegpunkte"),
    ],
)
def test_every_ending_is_told_in_german(reason, german):
    # the reasons are worded as the engine's end checks word them (rules.py)
    ended = {"result": {"winner": "allies", "reason": reason}}
    assert GAME.result_reason(ended, "de") == german
    assert GAME.result_reason(ended, "en") == reason
