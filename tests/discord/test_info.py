"""/info through the bot (issue 15): any player or spectator in the game's thread asks about a
unit or a cell, with autocomplete; the answer goes to the asker only, in the asker's language,
and changes nothing."""

from __future__ import annotations

from .conftest import reply_text
from .test_german_replies import english_sentences


async def historical(table):
    await table.alice.slash(
        table.channel, "game new", ruleset="tenochtitlan", scenario="historical"
    )
    await table.alice.slash(table.thread, "game join", side="spanish")
    await table.bob.slash(table.thread, "game join", side="aztec")
    await table.alice.slash(table.thread, "game start")
    return await table.game()


async def test_info_unit_and_cell_for_players_and_spectators(table):
    before = await historical(table)
    offered = await table.alice.autocomplete(table.thread, "info", "unit", "cav")
    assert [c["value"] for c in offered] == ["sp-cavalry-1", "sp-cavalry-2"]
    assert offered[0]["name"].startswith("Spanish Cavalry 1")
    cells = await table.dave.autocomplete(table.thread, "info", "cell", "xol")
    assert [c["value"] for c in cells] == ["1214"]

    own = await table.alice.slash(table.thread, "info", unit="Cav 1")
    text = reply_text(own)
    assert own.ephemeral
    assert text.startswith("**Spanish Cavalry 1 (sp-cavalry-1)**"), text
    assert "Attack 4 · Defence 5 · Movement 5 · Range 1" in text
    assert "It may now:\n• /move unit:sp-cavalry-1 to:" in text
    for other in (table.bob, table.dave):
        seen = reply_text(await other.slash(table.thread, "info", unit="sp-cavalry-1"))
        assert "Attack 4" in seen and "It may now" not in seen, seen
    cell = reply_text(await table.dave.slash(table.thread, "info", cell="0808"))
    assert "Tlacopan causeway" in cell and "Here: Aztec Bowmen 1" in cell, cell
    refused = reply_text(await table.dave.slash(table.thread, "info", unit="x" * 90))
    assert "There is no unit" in refused and "x" * 90 in refused
    after = await table.game()
    assert after.version == before.version and after.state == before.state


async def test_info_in_german_carries_no_english(table, german):
    await historical(table)
    text = reply_text(await table.alice.slash(table.thread, "info", unit="sp-cavalry-1"))
    text += "\n" + reply_text(await table.dave.slash(table.thread, "info", cell="0808"))
    refused = reply_text(await table.dave.slash(table.thread, "info", unit="niemand"))
    assert "Angriff 4" in text and "Sie kann jetzt" in text and "Hier: " in text, text
    assert "Es gibt keine Einheit 'niemand'" in refused, refused
    assert not english_sentences(text + "\n" + refused), english_sentences(text + refused)


async def test_game_rules_add_units_and_terrain_in_the_readers_language(table, german):
    await historical(table)
    result = await table.dave.slash(table.thread, "game rules")
    text = reply_text(result)
    assert "**Einheiten**" not in text  # headings are embed titles
    assert "Einheiten" in text and "Gelände" in text, text
    assert "**Spanish Cavalry** (Cav, Spanier, Kavallerie): Angriff 4 · Verteidigung 5" in text
    assert "**Sumpf**: Bewegungskosten 2 · Wer es betritt, beendet seine Bewegung" in text


async def test_a_side_takes_the_suggested_deployment_with_one_command(table):
    await table.alice.slash(table.channel, "game new", ruleset="tenochtitlan", scenario="standard")
    assert "/suggested" in table.public_text()
    await table.alice.slash(table.thread, "game join", side="spanish")
    await table.bob.slash(table.thread, "game join", side="aztec")
    await table.alice.slash(table.thread, "game start")
    early = await table.alice.slash(table.thread, "suggested")
    assert "not your turn" in reply_text(early).lower(), reply_text(early)
    for person in (table.bob, table.alice):
        result = await person.slash(table.thread, "suggested")
        assert reply_text(result).startswith("Done"), reply_text(result)
    info = await table.game()
    assert info.state["phase"] == "movement"
    assert info.state["units"]["sp-cavalry-1"]["at"] == "0308"  # the historical deployment
