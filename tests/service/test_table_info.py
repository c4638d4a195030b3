"""/info on the local table (issue 15): the same question as in Discord, typed in script mode,
for the side to act or for a side named first; nothing changes."""

from __future__ import annotations

from .test_table import run


def test_info_on_the_local_table_explains_a_unit_and_a_cell(tmp_path):
    code, lines, _ = run(
        ["--game", "tenochtitlan", "--scenario", "historical", "--db", str(tmp_path / "t.db")],
        tmp_path,
        [
            '/info unit:"Spanish Cavalry 1"',
            "aztec /info unit:sp-cavalry-1",
            "/info cell:0808",
            "/info unit:nobody",
            "/help",
        ],
    )
    assert code == 0
    own, other, cell, refused, helped = lines
    assert own["ok"] and "It may now:\n• /move unit:sp-cavalry-1 to:" in own["text"], own
    assert other["ok"] and "Attack 4" in other["text"] and "It may now" not in other["text"]
    assert "Tlacopan causeway" in cell["text"] and "Aztec Bowmen 1" in cell["text"]
    assert not refused["ok"] and "There is no unit 'nobody'" in refused["error"]
    assert "/info unit:… cell:…" in helped["text"]
    assert len({line["version"] for line in lines}) == 1


def test_rules_on_the_local_table_list_units_and_terrain_from_the_data(tmp_path):
    from engine.tenochtitlan.data import terrain_chart, unit_types

    code, lines, _ = run(
        ["--game", "tenochtitlan", "--scenario", "historical", "--db", str(tmp_path / "t.db")],
        tmp_path,
        ["/rules"],
    )
    assert code == 0
    text = lines[0]["text"]
    assert text.startswith("**Siege of Tenochtitlan**") and "**Units**" in text
    for unit in unit_types().values():
        assert f"**{unit['title']}** ({unit['short']}" in text
    assert "**Spanish Cavalry** (Cav, Spanish, cavalry): Attack 4 · Defence 5 · Movement 5" in text
    for terrain in terrain_chart()["types"].values():
        assert f"**{terrain['title']}**: " in text
    assert "**Marsh**: Movement cost 2 · Entering ends the move" in text


def test_suggested_deployment_on_the_local_table(tmp_path):
    code, lines, _ = run(
        ["--game", "tenochtitlan", "--scenario", "standard", "--db", str(tmp_path / "t.db")],
        tmp_path,
        ["/help", "/suggested", "/suggested", "/suggested"],
    )
    assert code == 0
    helped, aztec, spanish, again = lines
    assert "/suggested" in helped["text"].split("Now, for Aztec:")[1]
    assert aztec["ok"] and aztec["side"] == "aztec" and spanish["ok"]
    assert spanish["phase"] == "movement"
    assert not again["ok"] and "/suggested is not possible" in again["error"]
