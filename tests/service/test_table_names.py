"""The local table takes the names players read, not only ids (issue 15)."""

from __future__ import annotations

from .test_table import run


def test_script_mode_resolves_labels_prefixes_and_case_and_refuses_ambiguity(tmp_path):
    code, lines, _ = run(
        ["--game", "tenochtitlan", "--seed", "5", "--db", str(tmp_path / "t.db")],
        tmp_path,
        [
            'aztec /place unit:"Aztec Bowmen 1" to:0508',
            "aztec /place unit:bowmen to:0608",
            "aztec /place unit:AZ-BOWMEN-2 to:0608",
        ],
    )
    assert code == 0
    by_label, ambiguous, by_case = lines
    assert by_label["ok"] and by_label["action"]["unit"] == "az-bowmen-1"
    assert not ambiguous["ok"]
    assert "could mean more than one thing" in ambiguous["error"]
    assert "az-bowmen-2" in ambiguous["error"] and ambiguous["version"] == by_label["version"]
    assert by_case["ok"] and by_case["action"]["unit"] == "az-bowmen-2"
