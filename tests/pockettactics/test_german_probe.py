"""Every refusal Pocket Tactics gives while a German reader plays reads German (issue 15): the
probe tries the plausible mistakes (another unit, another tile, a garbled feature, a die or a
bonus that is not yours, an attack type not declared, a command of another step, the other
side's command) at every step of seeded games, from the choice of factions to the fighting."""

from __future__ import annotations

import pytest

from cogs.i18n import rule_text
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game
from engine.registry import get_ruleset
from tests.discord.test_german_replies import english_sentences
from tests.german_probe import english_refusals, refused_in_german

GAME = get_ruleset("pocket-tactics")


@pytest.mark.parametrize("scenario", [s.name for s in GAME.scenarios()])
def test_no_refusal_reaches_a_german_reader_in_english(scenario):
    found = english_refusals(GAME, [scenario], seeds=range(1, 9), steps=300)
    assert not found, "\n".join(list(found)[:10])


@pytest.mark.parametrize(
    "edit, german",
    [
        ({"type": "ref-place", "unit": "nobody", "to": "0808"}, "Es gibt keine Einheit 'nobody'"),
        ({"type": "ref-place", "unit": "spearman", "to": "9999"}, "kein freies Plättchen"),
        ({"type": "ref-remove", "unit": "nobody"}, "Es gibt keine Einheit 'nobody'"),
    ],
)
def test_a_referees_refused_edit_reads_german(edit, german):
    state, _ = new_game(GAME, GAME.load_scenario("skirmish"), 1)
    text = refused_in_german(GAME, state, {**edit, "side": "referee"})
    assert german in text and not english_sentences(text), text


def test_a_referee_cannot_change_the_turn_during_setup_and_says_so_in_german():
    state, _ = new_game(GAME, GAME.load_scenario("standard"), 1)
    with pytest.raises(RuleError) as refused:
        edit = {"type": "ref-phase", "phase": "play", "side": "referee"}
        apply_action(GAME, state, edit, seeded(1, 1))
    text = rule_text(refused.value, "de")
    assert "erst ändern, wenn das Spiel begonnen hat" in text and not english_sentences(text)


def test_tiles_in_a_german_readers_hints_are_named_in_german():
    state, _ = new_game(GAME, GAME.load_scenario("skirmish"), 1)
    assert GAME.label(state, "to", "0808", "de") == "0808 (Dorf auf Grasland)"
    assert GAME.describe(state, "to", "0808") == "0808 (Village on Grassland)"
    assert GAME.label(state, "tile", "highland", "de") == "Hochland"


@pytest.mark.parametrize(
    "winner, reason, german",
    [
        (
            "south",
            "North can neither activate nor deploy a unit",
            "Süd: Nord kann weder eine Einheit aktivieren noch stationieren",
        ),
        ("north", "North controls every feature", "Nord: Nord kontrolliert jedes Merkmal"),
        (
            None,
            "Neither player can activate or deploy a unit",
            "Unentschieden: Keiner kann eine Einheit aktivieren oder stationieren",
        ),
    ],
)
def test_every_ending_reads_german_in_the_header_and_the_reason(winner, reason, german):
    # the reasons are worded as the engine's end checks word them (rules.py)
    state, _ = new_game(GAME, GAME.load_scenario("skirmish"), 1)
    ended = {**state, "result": {"winner": winner, "reason": reason}}
    assert GAME.localised_header(GAME.view(ended, None), "de")["Ergebnis"] == german
    assert GAME.result_reason(ended, "de") == german.split(": ", 1)[1]
    assert GAME.result_reason(ended, "en") == reason


def test_german_rules_name_terrain_types_and_attacks_in_german():
    text = "\n".join(line for _, lines in GAME.rules_reference("de") for line in lines)
    assert "**Grasland**" in text and "**Spukruinen**" in text and "**See**" in text
    assert "Typen: Mensch, Infanterie;" in text
    assert "Bevorzugtes Gelände (ein Neuwurf): Hochland" in text
    assert "Fluch der Art Bestie" in text
    for english in ("**Grassland**", "**Lake**", ": Forest", "human", "infantry"):
        assert english not in text, english
    english_text = "\n".join(line for _, lines in GAME.rules_reference("en") for line in lines)
    assert "**Grassland**" in english_text and "Kinds: human, infantry;" in english_text


def test_german_narration_names_tiles_and_features_in_german():
    state, _ = new_game(GAME, GAME.load_scenario("skirmish"), 1)
    drawn = GAME.narrate(state, {"type": "reveal", "what": "tile", "terrain": "grass"}, "de")
    assert drawn == "Aus dem Beutel gezogen: Grasland."
    chosen = GAME.narrate(
        state, {"type": "feature_chosen", "side": "south", "feature": "ruins"}, "de"
    )
    assert chosen == "Süd wählt Spukruinen als eigenes Merkmal."
    assert "Haunted ruins" in GAME.narrate(
        state, {"type": "feature_chosen", "side": "south", "feature": "ruins"}, "en"
    )
