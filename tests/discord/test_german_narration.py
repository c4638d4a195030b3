"""A German reader's narration (issue 15): every event line and every die's purpose that
Tenochtitlan, Rivet Wars, Pocket Tactics and Tactical Table War show in a seeded random game,
as the turn post and /game log render them for a German server, carries no English sentence.
Game data (unit, card and tile names) may stay as the game wrote it."""

from __future__ import annotations

import random

import pytest

from cogs.common import event_lines
from engine.core.dice import seeded
from engine.registry import get_ruleset
from engine.tenochtitlan.data import cards_by_id

from .test_german_replies import english_sentences

GAMES = {
    "tenochtitlan": ("historical", 700),
    "rivet-wars": ("mission-1", 900),
    "pocket-tactics": ("", 700),
    "tactical-table-war": ("", 900),
}


def narrated(name: str, lang: str) -> tuple[list[str], set[str]]:
    ruleset = get_ruleset(name)
    scenario, steps = GAMES[name]
    state, events = ruleset.setup(
        ruleset.load_scenario(scenario or ruleset.default_scenario), seeded("narration", 0)
    )
    rng = random.Random(15)
    lines = event_lines(ruleset, state, events, None, lang)
    kinds: set[str] = set()
    for step in range(steps):
        if state.get("result"):
            break
        side = ruleset.awaiting(state)[0]
        state, events = ruleset.apply(
            state, rng.choice(ruleset.legal_actions(state, side)), seeded("narration", step + 1)
        )
        kinds.update(e["type"] for e in events)
        lines += event_lines(ruleset, state, events, side, lang)
    return lines, kinds


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_german_reader_gets_the_narration_of_a_whole_game_in_german(name):
    lines, kinds = narrated(name, "de")
    english, _ = narrated(name, "en")
    assert len(lines) == len(english) and len(kinds) >= 8, (len(lines), len(english), kinds)
    text = "\n".join(lines)
    for card in cards_by_id().values():  # Tenochtitlan's card titles are game data
        text = text.replace(card["title"], "«card»")
    assert not english_sentences(text), english_sentences(text)[:10]
    assert english_sentences("\n".join(english)), "the detector must see the English narration"


GERMAN_LABEL_WORDS = {
    "tenochtitlan": " auf ",
    "rivet-wars": " LP)",
    "pocket-tactics": "Punkte,",
    "tactical-table-war": " auf ",
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_action_labels_in_autocomplete_read_german(name):
    """The labels /act and every option's autocomplete show a German client (game data such as
    unit names may stay)."""
    ruleset = get_ruleset(name)
    scenario, steps = GAMES[name]
    state, _ = ruleset.setup(
        ruleset.load_scenario(scenario or ruleset.default_scenario), seeded("labels", 0)
    )
    rng = random.Random(16)
    labels: list[str] = []
    for step in range(steps // 3):
        if state.get("result"):
            break
        side = ruleset.awaiting(state)[0]
        legal = ruleset.legal_actions(state, side)
        labels += [ruleset.action_label(state, a, "de") for a in legal[:40]]
        state, _ = ruleset.apply(state, rng.choice(legal), seeded("labels", step + 1))
    text = "\n".join(labels)
    assert GERMAN_LABEL_WORDS[name] in text, text[:2000]
    assert not english_sentences(text), english_sentences(text)[:10]


def test_the_rarer_tenochtitlan_refusals_read_german():
    from cogs.i18n import rule_text
    from engine.core.errors import RuleError
    from tests.tenochtitlan.helpers import act
    from tests.tenochtitlan.test_defensive_fire import position, u

    state = position(
        {
            "b": u("az-bowmen", "0401"),
            "i": u("sp-infantry", "0403"),
            "w": u("az-warriors", "0806"),
            "c": u("sp-cavalry", "0805"),
        }
    )
    assert state["awaiting"] == ["aztec"]
    for command, german in (
        ("/fire unit:w target:c", "Defensivfeuer geben nur aztekische Bogenschützen"),
        ("/fire unit:b target:i hex:0101", "/fire hat keine Option hex."),
    ):
        with pytest.raises(RuleError) as refused:
            act(state, "aztec", command, dice=[1])
        assert rule_text(refused.value, "de").startswith(german), rule_text(refused.value, "de")
        assert not english_sentences(rule_text(refused.value, "de"))


def test_tactical_table_war_refusals_and_command_descriptions_read_german():
    from cogs.i18n import rule_text
    from engine.core.errors import RuleError
    from tests.tactical_table_war.helpers import RS, play, position

    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0803")], phase="movement"
    )
    for command, german in (
        ("/move unit:b1 to:0703", "'b1' ist keine deiner Einheiten."),
        ("/move unit:r1 to:0903", "r1 braucht 7 Schritte bis 0903 und hat Geschwindigkeit 2."),
    ):
        with pytest.raises(RuleError) as refused:
            play(state, "red", command)
        assert rule_text(refused.value, "de").startswith(german), rule_text(refused.value, "de")
        assert not english_sentences(rule_text(refused.value, "de"))
    assert all(c.description_i18n.get("de") for c in RS.commands)


def test_pocket_tactics_play_refusals_read_german():
    from cogs.i18n import rule_text
    from engine.core.errors import RuleError
    from tests.pockettactics.helpers import act, position

    state = position({"spearman": "0808", "archer": {"status": "reserve"}, "goblin": "0810"})
    for command, german in (
        ("/reserve unit:spearman", "spearman steht auf keinem Merkmal"),
        ("/deploy unit:archer to:0809", "0809 liegt nicht neben einem Merkmal"),
    ):
        with pytest.raises(RuleError) as refused:
            act(state, command)
        assert rule_text(refused.value, "de").startswith(german), rule_text(refused.value, "de")
        assert not english_sentences(rule_text(refused.value, "de"))


def test_rivet_wars_movement_refusals_read_german():
    from cogs.i18n import rule_text
    from engine.core.errors import RuleError
    from tests.rivetwars.util import RS, make, unit

    state = make(phase="move", units=[unit("rifleman", "C7", id="r")], terrain={"wire": ["E7"]})
    for to, german in (
        ("Z99", "Z99 ist kein Segment"),
        ("G7", "G7 liegt nicht neben dem Segment C7 von r"),
        ("E7", "r kann nicht nach E7: Infanterie kann nicht in Stacheldraht."),
    ):
        with pytest.raises(RuleError) as refused:
            RS.apply(state, {"type": "move", "side": "allies", "unit": "r", "to": to}, None)
        assert rule_text(refused.value, "de").startswith(german), rule_text(refused.value, "de")
        assert not english_sentences(rule_text(refused.value, "de"))


def test_pocket_tactics_setup_refusals_read_german():
    """Building an army is a newcomer's first step in Pocket Tactics."""
    from cogs.i18n import rule_text
    from engine.core.errors import RuleError
    from tests.pockettactics.helpers import act
    from tests.pockettactics.test_setup import fresh

    army = fresh(factions={"north": "clans", "south": "horde"}, order=["north", "south"], points=22)
    army, _ = act(army, "/recruit unit:champion")
    for command, german in (
        ("/recruit unit:archer", "archer kostet 9 Punkte; deine Armee hat 14 von 22, 8 übrig."),
        ("/recruit unit:champion", "champion ist schon in deiner Armee"),
        ("/recruit unit:goblin", "'goblin' ist keine Einheit von Highland Clans."),
    ):
        with pytest.raises(RuleError) as refused:
            act(army, command)
        assert rule_text(refused.value, "de").startswith(german), rule_text(refused.value, "de")
        assert not english_sentences(rule_text(refused.value, "de"))


def test_tenochtitlan_setup_refusals_read_german():
    """Placing units is a newcomer's first step in Tenochtitlan's standard scenario."""
    from cogs.i18n import rule_text
    from engine.core.errors import RuleError
    from engine.core.game import new_game
    from tests.tenochtitlan.helpers import RULES, act

    state = new_game(RULES, RULES.load_scenario("standard"), 7)[0]
    for command, german in (
        ("/place unit:az-bowmen-1 to:0101", "Aztekische Einheiten werden in Tenochtitlan"),
        ("/place unit:az-canoe-1 to:0101", "Kanus werden auf Seefeldern"),
    ):
        with pytest.raises(RuleError) as refused:
            act(state, "aztec", command)
        assert rule_text(refused.value, "de").startswith(german), rule_text(refused.value, "de")
        assert not english_sentences(rule_text(refused.value, "de"))
