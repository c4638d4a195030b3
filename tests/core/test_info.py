"""/info unit: and /info cell: (issue 15): any game explains one unit or one cell from what the
asker may see; what a unit may do now is told to its own side only."""

from __future__ import annotations

import pytest

from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.names import AmbiguousName
from engine.core.state import clone
from engine.registry import available, get_ruleset
from tests.fixtures.skirmish import Skirmish


def started(name: str, scenario: str = ""):
    ruleset = get_ruleset(name)
    state, _ = ruleset.setup(
        ruleset.load_scenario(scenario or ruleset.default_scenario), seeded("info", 0)
    )
    return ruleset, state


def info(ruleset, state, viewer, lang="en", **options):
    return ruleset.query(ruleset.view(state, viewer), viewer, "info", options, lang=lang).text


@pytest.mark.parametrize("name", available())
def test_every_game_offers_info_and_explains_each_piece_and_cell_it_offers(name):
    ruleset, state = started(name)
    assert any(q.name == "info" for q in ruleset.all_queries())
    side = ruleset.awaiting(state)[0]
    view = ruleset.view(state, side)
    units = ruleset.info_choices(view, side, "unit", "")
    cells = ruleset.info_choices(view, side, "cell", "")
    for value, label in units[:5]:
        text = info(ruleset, state, side, unit=value)
        assert text.startswith("**") and value in text, text
    for value, _ in cells[:3]:
        assert info(ruleset, state, side, cell=value).startswith(f"**{value}**")


def test_tenochtitlan_unit_shows_its_factors_and_its_own_side_what_it_may_do():
    ruleset, state = started("tenochtitlan", "historical")
    assert ruleset.awaiting(state) == ["spanish"]
    own = info(ruleset, state, "spanish", unit="Cav 1")
    assert own.startswith("**Spanish Cavalry 1 (sp-cavalry-1)**"), own
    assert "Side: Spanish" in own and "Attack 4 · Defence 5 · Movement 5 · Range 1" in own
    assert "It may now:\n• /move unit:sp-cavalry-1 to:" in own and "(+" in own
    for viewer in ("aztec", None):
        other = info(ruleset, state, viewer, unit="sp-cavalry-1")
        assert "Attack 4" in other and "It may now" not in other and "/move" not in other
    waiting = info(ruleset, state, "aztec", unit="az-bowmen-1")
    assert "It is not its side's turn now." in waiting


def test_tenochtitlan_cell_shows_terrain_effects_place_and_occupant():
    ruleset, state = started("tenochtitlan", "historical")
    text = info(ruleset, state, None, cell="0808")
    assert "Terrain: Causeway — Tlacopan causeway" in text, text
    assert "Movement cost 1" in text and "Controlled by: Aztec" in text
    assert "Here: Aztec Bowmen 1 (az-bowmen-1)" in text
    assert "Water: only boats enter." in info(ruleset, state, None, cell="0507")
    assert info(ruleset, state, None, cell="0101").endswith("Nobody stands here.")


def test_a_cell_is_asked_about_by_the_place_name_the_messages_give_it():
    """Issue 15 audit: `/info cell:texcoco` answered "'texcoco' is not a cell of this board"
    though every message calls 2309 "2309 (Texcoco)"."""
    ruleset, state = started("tenochtitlan", "historical")
    assert info(ruleset, state, None, cell="texcoco").startswith("**2309** (Texcoco)")
    assert info(ruleset, state, None, cell="Tlacopan").startswith("**0408** (Tlacopan)")
    with pytest.raises(AmbiguousName) as caught:
        info(ruleset, state, None, cell="Tlaco")
    assert str(caught.value).startswith("cell:Tlaco could mean more than one thing")
    assert "0408 (Tlacopan); 0508 (Tlacopan causeway)" in str(caught.value)


def test_tenochtitlan_info_in_german():
    ruleset, state = started("tenochtitlan", "historical")
    text = info(ruleset, state, "spanish", lang="de", unit="sp-cavalry-2")
    assert "Seite: Spanier" in text and "Angriff 4 · Verteidigung 5" in text, text
    assert "(Kavallerie)" in text and "Sie kann jetzt:\n• /move" in text
    cell = info(ruleset, state, "spanish", lang="de", cell="0808")
    assert "Gelände: Causeway" in cell and "Kontrolliert von: Azteken" in cell, cell


def test_info_refuses_what_it_cannot_explain_with_a_reason():
    ruleset, state = started("tenochtitlan", "historical")
    for options, why in (
        ({"unit": "nobody-7"}, "There is no unit 'nobody-7' that you can see."),
        ({"cell": "../etc"}, "'../etc' is not a cell of this board."),
        ({}, "Name a unit (unit:) or a cell (cell:) to explain."),
        ({"unit": "sp-cavalry-1", "cell": "0808"}, "Name either a unit or a cell, not both."),
    ):
        with pytest.raises(RuleError) as refused:
            info(ruleset, state, "spanish", **options)
        assert str(refused.value) == why
    with pytest.raises(AmbiguousName):
        info(ruleset, state, "spanish", unit="cav")


class Fog(Skirmish):
    """The skirmish with fog of war: a side sees only its own units."""

    def view(self, state, side):
        shown = super().view(state, side)
        shown["units"] = {u: x for u, x in clone(state["units"]).items() if x["side"] == side}
        return shown


def test_a_unit_the_viewer_may_not_see_is_neither_offered_nor_explained():
    ruleset = Fog()
    state, _ = ruleset.setup(ruleset.load_scenario("standard"), seeded("fog", 0))
    red = ruleset.view(state, "red")
    assert [v for v, _ in ruleset.info_choices(red, "red", "unit", "")] == ["r1", "r2"]
    with pytest.raises(RuleError, match="no unit 'b1'"):
        info(ruleset, state, "red", unit="b1")
    assert info(ruleset, state, "blue", unit="b1").startswith("**Blue b1")
    assert "Here" not in info(ruleset, state, "red", cell="0605")


def test_tactical_table_war_unit_numbers_as_used_now_and_a_hex_with_its_advantage():
    from tests.tactical_table_war.helpers import RS, position

    state = position(
        [
            ("r1", "red", "sword", "0203"),
            {"id": "b1", "side": "blue", "type": "bow", "at": "0303", "weakening": [4, 2]},
        ],
        tiles={"0303": "hill"},
    )
    text = info(RS, state, "red", unit="b1")
    assert "Type: Archer" in text and "Strength 3 · Speed 2 · Range 3" in text, text
    assert "Weakened by the dice 4, 2: -6 on its defence" in text
    cell = info(RS, state, None, cell="0303")
    assert "Terrain: Hill" in cell and "Defence bonus +2" in cell and "Here: Blue Archer" in cell


def test_rivet_wars_unit_card_and_the_terrain_token_of_its_segment():
    from tests.rivetwars.util import RS, make, unit

    state = make(
        phase="move",
        units=[unit("rifleman", "C7", id="r")],
        terrain={"wire": ["C7"]},
    )
    text = info(RS, state, "allies", unit="r")
    assert "Type: Rifleman" in text and "Armour infantry" in text, text
    assert "rifle: 1 attack, dice against infantry/light/medium/heavy/air: 2/1/1/0/1" in text
    assert "Abilities: runner 1" in text and "Hit points 1/1" in text
    assert "Typ: Schütze" in info(RS, state, "allies", lang="de", unit="r")
    cell = info(RS, state, None, cell="C7")
    assert "Barbed wire: infantry may not enter" in cell and "Here: " in cell, cell
    # a token acts on its whole segment (C7 D7 C8 D8)
    assert "Barbed wire" in info(RS, state, None, cell="D8")
    assert "Barbed wire" not in info(RS, state, None, cell="E8")


def test_pocket_tactics_unit_card_reserve_units_and_a_hazard():
    from tests.pockettactics.helpers import RS, position

    state = position({"spearman": "0808", "archer": {"status": "reserve"}}, tiles={"0809": "lava"})
    text = info(RS, state, "north", unit="spearman")
    assert "OFF 2 dice · DEF 2 dice · 8 points" in text, text
    assert "OFF 1 die · DEF 1 die" in info(RS, state, None, unit="archer")
    assert "Preferred terrain (one re-roll): Highland" in text
    reserve = info(RS, state, "south", unit="archer")
    assert "At: not on the board" in reserve and "In reserve." in reserve, reserve
    lava = info(RS, state, None, cell="0809")
    assert "needs a 5 on its DEF dice, or it is defeated" in lava, lava


def unit_titles(name: str, ruleset) -> list[str]:
    """Every unit type's title as the game's data files hold it."""
    from engine.rivetwars.data import base_roster
    from engine.tenochtitlan.data import unit_types

    return {
        "tenochtitlan": lambda: [t["title"] for t in unit_types().values()],
        "tactical-table-war": lambda: [t["title"] for t in ruleset.cat.types.values()],
        "rivet-wars": lambda: [t["name"] for t in base_roster().values()],
        "pocket-tactics": lambda: [u["title"] for u in ruleset.cat.units.values()],
    }[name]()


@pytest.mark.parametrize(
    "name", ["tenochtitlan", "tactical-table-war", "rivet-wars", "pocket-tactics"]
)
def test_the_rules_list_every_unit_type_of_the_games_data_in_both_languages(name):
    from engine.core.info import reference_text

    ruleset = get_ruleset(name)
    english, german = reference_text(ruleset, "en"), reference_text(ruleset, "de")
    assert english.startswith("**Units**") and "**Terrain**" in english
    assert german.startswith("**Einheiten**") and "**Gelände**" in german
    for title in unit_titles(name, ruleset):
        assert f"**{title}**" in english, title
