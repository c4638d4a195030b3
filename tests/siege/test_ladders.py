"""Assault ladders (1.9) that stand raised: climbing, crossing, stepping onto the parapet,
shooting and fighting from a ladder, pushing it over. Carrying, raising and turning ladders
(1.91, 1.92) are not implemented yet (docs/rules/siege.md)."""

from __future__ import annotations

import pytest

from engine.core.errors import ScenarioError

from .helpers import RULES, act, build, legal, of

LADDER = {"l1": {"at": "0703", "faces": "0704"}}


def _reach(state, fid):
    return {
        a["to"]: a for a in legal(state, state["figures"][fid]["side"], "move") if a["unit"] == fid
    }


def test_climbing_costs_three_and_the_parapet_four_more():
    state = build(
        {"m": ("man-at-arms", "besieger", "0702"), "x": ("peasant", "defender", "2201")},
        phase="move",
        ladders=LADDER,
    )
    reach = _reach(state, "m")
    assert "0703" in reach and "0704" not in reach  # 3 + 4 > 5 points
    state, events = act(state, "besieger", "/move unit:m to:0703")
    assert of(events, "moved")[0]["cost"] == 3
    state = build(
        {"m": ("man-at-arms", "besieger", "0703"), "x": ("peasant", "defender", "2201")},
        phase="move",
        ladders=LADDER,
    )
    state, events = act(state, "besieger", "/move unit:m to:0704")
    assert of(events, "moved")[0]["cost"] == 4


def test_crossing_a_ladders_cell_costs_three():
    state = build(
        {"m": ("man-at-arms", "besieger", "0603"), "x": ("peasant", "defender", "2201")},
        phase="move",
        ladders=LADDER,
    )
    state, events = act(state, "besieger", "/move unit:m to:0803")
    moved = of(events, "moved")[0]
    assert moved["path"] == ["0603", "0703", "0803"] and moved["cost"] == 3 + 1  # moat to moat: 1
    without = build(
        {"m": ("man-at-arms", "besieger", "0702"), "x": ("peasant", "defender", "2201")},
        phase="move",
    )
    assert "0704" not in _reach(without, "m")  # no ladder: no way up


def test_from_a_ladder_only_the_parapet_it_leans_on_and_the_ladder_gives_no_cover():
    figs = {
        "a": ("archer", "besieger", "0703"),
        "p": ("man-at-arms", "defender", "0704"),
        "q": ("man-at-arms", "defender", "0702"),
    }
    state = build(figs, ladders=LADDER)
    assert {a["target"] for a in legal(state, "besieger", "shoot")} == {"p"}
    state, events = act(state, "besieger", "/shoot unit:a target:p", dice=[9])
    assert of(events, "shot")[0]["cover"] == "heavy"
    los = RULES.los(state, "0702", "0703")
    assert "on a ladder: no cover" in los


def test_a_figure_on_a_ladder_attacks_only_its_parapet_on_unfavourable_terrain():
    figs = {
        "k": ("knight", "besieger", "0703"),
        "p": ("peasant", "defender", "0704"),
        "q": ("peasant", "defender", "0702"),
    }
    state = build(figs, phase="melee", ladders=LADDER)
    assert {a["target"] for a in legal(state, "besieger", "attack")} == {"p"}
    state, _ = act(state, "besieger", "/attack unit:k target:p")
    state, events = act(state, "besieger", "/fight", dice=[4])
    line = of(events, "melee")[0]
    assert (
        "on a ladder (1.93)" in line["text"] and line["column"] == "2-1"
    )  # 4-1, parapet -1, ladder -1


def test_pushing_a_ladder_over_on_one_to_six_the_climber_falls():
    figs = {
        "k": ("knight", "besieger", "0703"),
        "p": ("peasant", "defender", "0704"),
        "far": ("peasant", "besieger", "2220"),
    }
    state = build(figs, phase="melee", active="defender", ladders=LADDER)
    assert legal(state, "defender", "push") == [
        {"type": "push", "side": "defender", "unit": "p", "ladder": "l1"}
    ]
    kept, events = act(state, "defender", "/push unit:p ladder:l1", dice=[7])
    assert kept["ladders"]["l1"]["raised"] and not of(events, "fell")
    state, events = act(state, "defender", "/push unit:p ladder:l1", dice=[6])
    assert not state["ladders"]["l1"]["raised"]
    options = of(events, "choose_landing")[0]["options"]
    assert "0703" in options and "0704" not in options  # the fallen ladder, never the parapet
    assert state["awaiting"] == ["besieger"]
    state, events = act(state, "besieger", "/land unit:k to:0702")
    fell = of(events, "fell")[0]
    assert fell["unit"] == "k" and fell["to"] == "0702" and fell["outcome"] == "stunned healthy"
    assert state["awaiting"] == ["defender"] and not legal(state, "defender", "push")


def test_a_figure_that_moved_this_phase_cannot_push():
    figs = {"p": ("peasant", "defender", "0804"), "k": ("knight", "besieger", "2220")}
    state = build(figs, phase="move", active="defender", ladders=LADDER)
    state, _ = act(state, "defender", "/move unit:p to:0704")
    state, _ = act(state, "defender", "/end-phase")
    state, _ = act(state, "defender", "/end-phase")
    assert state["phase"] == "melee" and not legal(state, "defender", "push")


def test_ladders_never_lean_on_towers():
    with pytest.raises(ScenarioError, match="never a tower"):
        build(
            {"k": ("knight", "besieger", "2220"), "p": ("peasant", "defender", "2201")},
            ladders={"l": {"at": "0403", "faces": "0404"}},
        )


LYING = {"l": {"at": "0719", "raised": False}}
FAR_DEFENDER = {"x": ("archer", "defender", "2201")}


def test_two_adjacent_figures_carry_a_ladder_together_two_points_slower():
    figs = {
        "a": ("man-at-arms", "besieger", "0719"),
        "b": ("man-at-arms", "besieger", "0619"),
        **FAR_DEFENDER,
    }
    state = build(figs, phase="move", ladders=LYING)
    assert {"type": "carry", "side": "besieger", "unit": "a", "with": "b", "ladder": "l"} in legal(
        state, "besieger"
    )
    state, events = act(state, "besieger", "/carry unit:a with:b ladder:l")
    assert state["ladders"]["l"]["carriers"] == ["a", "b"]
    reach = {x["to"] for x in legal(state, "besieger", "move") if x["unit"] == "a"}
    assert "1019" in reach and "1119" not in reach  # 5 - 2 = 3 points
    state, events = act(state, "besieger", "/move unit:a to:1019")
    moves = {e["unit"]: e for e in of(events, "moved")}
    assert (
        moves["b"]["path"][:2] == ["0619", "0719"]
        and moves["b"]["path"][1:] == moves["a"]["path"][:-1]
    )
    assert moves["b"]["carrying"]
    assert state["figures"]["b"]["at"] == "0919" and state["ladders"]["l"]["at"] == "1019"
    assert not [x for x in legal(state, "besieger", "move") if x["unit"] == "b"]  # moved with a


def test_carriers_neither_shoot_nor_attack():
    figs = {
        "a": ("archer", "besieger", "0719"),
        "b": ("man-at-arms", "besieger", "0619"),
        "x": ("peasant", "defender", "0819"),
    }
    state = build(figs, ladders={"l": {"at": "0719", "raised": False, "carriers": ["a", "b"]}})
    assert not legal(state, "besieger", "shoot")
    state = build(
        figs, phase="melee", ladders={"l": {"at": "0719", "raised": False, "carriers": ["a", "b"]}}
    )
    assert not legal(state, "besieger", "attack")


def test_carriers_raise_the_ladder_at_the_foot_of_a_parapet_never_a_tower():
    figs = {
        "a": ("man-at-arms", "besieger", "0818"),
        "b": ("man-at-arms", "besieger", "0918"),
        **FAR_DEFENDER,
    }
    state = build(
        figs, phase="move", ladders={"l": {"at": "0818", "raised": False, "carriers": ["a", "b"]}}
    )
    raises = {(x["at"], x["faces"]) for x in legal(state, "besieger", "raise")}
    assert ("0817", "0816") in raises
    assert all(RULES.board(state).cell(faces).kind == "parapet" for _, faces in raises)
    state, events = act(state, "besieger", "/raise ladder:l at:0817 faces:0816")
    assert state["ladders"]["l"] == {"at": "0817", "faces": "0816", "raised": True, "carriers": []}
    assert of(events, "ladder_raised")


def test_a_carried_ladder_falls_when_a_carrier_is_stunned():
    figs = {
        "a": ("man-at-arms", "besieger", "0719"),
        "b": ("man-at-arms", "besieger", "0619"),
        "x": ("archer", "defender", "1119"),
    }
    state = build(
        figs,
        active="defender",
        ladders={"l": {"at": "0719", "raised": False, "carriers": ["a", "b"]}},
    )
    state, events = act(state, "defender", "/shoot unit:x target:a", dice=[5])  # C: stunned
    assert state["figures"]["a"]["stunned"]
    assert state["ladders"]["l"]["carriers"] == [] and of(events, "ladder_dropped")


def test_two_figures_turn_or_move_a_raised_ladder_one_cell_for_two_points_each():
    figs = {
        "a": ("man-at-arms", "besieger", "0818"),
        "b": ("man-at-arms", "besieger", "0718"),
        **FAR_DEFENDER,
    }
    state = build(figs, phase="move", ladders={"l": {"at": "0817", "faces": "0816"}})
    shifts = {(x["at"], x["faces"]) for x in legal(state, "besieger", "shift")}
    assert shifts and all(RULES.board(state).distance(at, "0817") <= 1 for at, _ in shifts)
    at, faces = min(shifts)
    state, events = act(state, "besieger", f"/shift unit:a with:b ladder:l at:{at} faces:{faces}")
    assert state["ladders"]["l"]["at"] == at and of(events, "ladder_shifted")
    reach = {x["to"] for x in legal(state, "besieger", "move") if x["unit"] == "a"}
    assert "1118" in reach and "1218" not in reach  # 5 - 2 = 3 points left


def test_a_ladder_with_a_figure_on_it_cannot_be_turned():
    figs = {
        "a": ("man-at-arms", "besieger", "0818"),
        "b": ("man-at-arms", "besieger", "0718"),
        "c": ("man-at-arms", "besieger", "0817"),
        **FAR_DEFENDER,
    }
    state = build(figs, phase="move", ladders={"l": {"at": "0817", "faces": "0816"}})
    assert not legal(state, "besieger", "shift")
