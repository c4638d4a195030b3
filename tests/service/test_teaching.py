"""Refusals that teach (issue 15): the rules' reason, then at most a few typeable commands
relevant to what was tried, never a list of hundreds of labels."""

from __future__ import annotations

from service.names import MAX_SUGGESTIONS, suggestions

from .test_table import run

LEGAL = [
    {"type": "move", "side": "red", "unit": u, "to": to}
    for u in ("r1", "r2", "r3")
    for to in ("0201", "0202", "0203")
] + [{"type": "end-phase", "side": "red"}]


def test_the_same_units_moves_come_first_then_other_commands():
    shown, more = suggestions({"type": "move", "side": "red", "unit": "r2", "to": "0909"}, LEGAL)
    assert sorted(shown[:3]) == [
        "/move unit:r2 to:0201",
        "/move unit:r2 to:0202",
        "/move unit:r2 to:0203",
    ]
    assert "/end-phase" in shown and len(shown) <= MAX_SUGGESTIONS
    assert more == len(LEGAL) - len(shown)


def test_a_command_not_possible_now_gets_one_example_of_each_that_is():
    shown, _ = suggestions({"type": "fire", "side": "red", "unit": "r3", "target": "b1"}, LEGAL)
    assert shown == ["/move unit:r3 to:0201", "/end-phase"]


def test_the_table_shows_few_relevant_typeable_alternatives(tmp_path):
    code, lines, _ = run(
        ["--game", "tenochtitlan", "--seed", "5", "--db", str(tmp_path / "t.db")],
        tmp_path,
        [
            "/place unit:az-bowmen-1 to:0508",
            "/place unit:az-bowmen-2 to:0608",
            '/place unit:"Bowmen 3" to:0708',
        ],
    )
    refused = lines[-1]
    assert not refused["ok"]
    reason, _, alternatives = refused["error"].partition(" Legal: ")
    assert "causeway" in reason
    commands = alternatives.split(" (+")[0].rstrip(".").split(", ")
    assert 1 <= len(commands) <= MAX_SUGGESTIONS
    assert all(c.startswith("/place unit:az-bowmen-3 to:") for c in commands), commands
    assert "more)" in alternatives


def test_the_same_units_moves_nearest_to_the_cell_tried_come_first():
    """Issue 15 audit: a move too far suggested the unit's moves in id order (to:0101, 0102,
    0103, ...) however far they were from where the player wanted to go."""
    legal = [
        {"type": "move", "side": "red", "unit": "r1", "to": to}
        for to in ("0101", "0102", "0103", "0708", "0809", "0909")
    ]
    shown, _ = suggestions({"type": "move", "side": "red", "unit": "r1", "to": "0910"}, legal)
    # 0809 and 0909 are both next to 0910 (ties keep the game's order), then 0708
    assert shown[:3] == ["/move unit:r1 to:0809", "/move unit:r1 to:0909", "/move unit:r1 to:0708"]
    squares = [{"type": "move", "side": "red", "unit": "r1", "to": to} for to in ("A1", "E5", "C3")]
    shown, _ = suggestions({"type": "move", "side": "red", "unit": "r1", "to": "F6"}, squares)
    assert shown == ["/move unit:r1 to:E5", "/move unit:r1 to:C3", "/move unit:r1 to:A1"]
