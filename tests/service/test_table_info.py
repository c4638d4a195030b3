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
    assert own["ok"] and "It may now: /move unit:sp-cavalry-1" in own["text"], own
    assert other["ok"] and "Attack 4" in other["text"] and "It may now" not in other["text"]
    assert "Tlacopan causeway" in cell["text"] and "Aztec Bowmen 1" in cell["text"]
    assert not refused["ok"] and "There is no unit 'nobody'" in refused["error"]
    assert "/info unit:… cell:…" in helped["text"]
    assert len({line["version"] for line in lines}) == 1
