"""/info's autocomplete names units and cells in the asker's language (issue 15): a German
client is offered "Blau Schwertkämpfer" and "Wald", an English one "Blue Swordsman"."""

from __future__ import annotations

import pytest


async def battlefield(table):
    await table.alice.slash(
        table.channel, "game new", ruleset="tactical-table-war", scenario="prepared-battlefield"
    )
    await table.alice.slash(table.thread, "game join", side="red")
    await table.bob.slash(table.thread, "game join", side="blue")
    await table.alice.slash(table.thread, "game start")


async def test_info_autocomplete_in_english(table):
    await battlefield(table)
    offered = await table.dave.autocomplete(table.thread, "info", "unit", "blue-1")
    assert offered and offered[0]["value"] == "blue-1"
    assert offered[0]["name"].startswith("Blue "), offered


@pytest.mark.usefixtures("german")
async def test_info_autocomplete_labels_are_german_for_a_german_client(table):
    await battlefield(table)
    offered = await table.dave.autocomplete(table.thread, "info", "unit", "blue-1")
    assert offered and offered[0]["value"] == "blue-1"
    assert offered[0]["name"].startswith("Blau "), offered
    # a German name is what a German player types, and it finds the unit
    typed = offered[0]["name"].split()[1][:6]
    found = await table.dave.autocomplete(table.thread, "info", "unit", typed)
    assert "blue-1" in [c["value"] for c in found], (typed, found)
    castles = await table.alice.autocomplete(table.thread, "info", "cell", "Burg")
    assert castles and all("Burg" in c["name"] for c in castles), castles
    assert {c["name"] for c in castles} == {"0105 (Burg Rot)", "1305 (Burg Blau)"}, castles
