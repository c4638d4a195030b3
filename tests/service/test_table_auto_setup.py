"""``/auto-setup`` on the local table: logged like any action, so verify still holds."""

from __future__ import annotations

from service import verify

from .test_table import run


def test_script_mode_auto_setup_for_both_sides_then_verify(tmp_path, capsys):
    db = tmp_path / "t.db"
    code, lines, _ = run(
        ["--game", "tenochtitlan", "--seed", "9", "--db", str(db)],
        tmp_path,
        ["/auto-setup", "/auto-setup", "/auto-setup"],
    )
    assert code == 0
    aztec, spanish, again = lines
    assert aztec["ok"] and aztec["side"] == "aztec", aztec
    assert sum(e["type"] == "placed" for e in aztec["events"]) > 10
    assert spanish["ok"] and spanish["side"] == "spanish" and spanish["phase"] != "setup"
    assert not again["ok"] and "nothing to place now" in again["error"]
    capsys.readouterr()
    assert verify.main(["--db", str(db), "--game", "1", "--seed", "9"]) == 0
    assert "OK" in capsys.readouterr().out
