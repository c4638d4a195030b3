"""Movement (1.6) and stacking (1.62) on the castle map."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError

from .helpers import RULES, act, build, legal, of


def _reach(state, fid):
    return {
        a["to"] for a in legal(state, state["figures"][fid]["side"], "move") if a["unit"] == fid
    }


ENEMY_FAR = {"far": ("peasant", "defender", "2201")}


def test_open_ground_costs_one_point_a_cell():
    state = build({"k": ("knight", "besieger", "0119"), **ENEMY_FAR}, phase="move")
    reach = _reach(state, "k")
    assert "0619" in reach and "0719" not in reach  # knight: 5 points
    state, events = act(state, "besieger", "/move unit:k to:0619")
    assert of(events, "moved")[0]["cost"] == 5


def test_wounded_figures_use_their_wounded_movement():
    state = build({"k": ("knight", "besieger", "0119", "wounded"), **ENEMY_FAR}, phase="move")
    reach = _reach(state, "k")
    assert "0419" in reach and "0519" not in reach  # wounded knight: 3 points


def test_entering_the_moat_costs_four_and_moving_along_it_one():
    state = build({"m": ("man-at-arms", "besieger", "0203"), **ENEMY_FAR}, phase="move")
    state, events = act(state, "besieger", "/move unit:m to:0304")
    assert of(events, "moved")[0]["cost"] == 4
    state = build({"m": ("man-at-arms", "besieger", "0303"), **ENEMY_FAR}, phase="move")
    state, events = act(state, "besieger", "/move unit:m to:0306")
    assert of(events, "moved")[0]["cost"] == 3


def test_parapets_are_not_reachable_from_outside_but_by_stairs_from_inside():
    state = build({"m": ("man-at-arms", "besieger", "0703"), **ENEMY_FAR}, phase="move")
    board = RULES.board(state)
    assert not [lab for lab in _reach(state, "m") if board.cell(lab).kind == "parapet"]
    state = build({"m": ("man-at-arms", "besieger", "0806"), **ENEMY_FAR}, phase="move")
    state, events = act(state, "besieger", "/move unit:m to:0804")
    moved = of(events, "moved")[0]
    assert (
        moved["path"][2:] == ["0705", "0804"] and moved["cost"] == 1 + 2 + 1
    )  # courtyard, stairs, parapet


def test_towers_are_entered_only_through_their_doors():
    state = build(
        {"m": ("man-at-arms", "defender", "0605"), "e": ("peasant", "besieger", "2201")},
        phase="move",
        active="defender",
    )
    state, events = act(state, "defender", "/move unit:m to:0505")
    path = of(events, "moved")[0]["path"]
    assert path[1] in ("0604", "0506") and of(events, "moved")[0]["cost"] == 2


def test_arrow_slits_only_from_inside_their_building():
    state = build({"m": ("man-at-arms", "besieger", "0303"), **ENEMY_FAR}, phase="move")
    assert "0404" not in _reach(state, "m")
    state = build(
        {"m": ("man-at-arms", "defender", "0505"), "e": ("peasant", "besieger", "2201")},
        phase="move",
        active="defender",
    )
    assert "0404" in _reach(state, "m")


def test_never_through_living_enemies_even_stunned_but_through_friends():
    # The gate is the only way in: a stunned defender on it shuts it.
    figs = {
        "m": ("man-at-arms", "besieger", "1118"),
        "g": ("peasant", "defender", "1116", "stunned"),
    }
    state = build(figs, phase="move")
    assert not {c for c in _reach(state, "m") if c in ("1115", "1114")}
    figs["g"] = ("peasant", "besieger", "1116")
    figs["x"] = ("peasant", "defender", "2201")
    state = build(figs, phase="move")
    reach = _reach(state, "m")
    assert "1115" in reach and "1116" not in reach  # through a friend, not onto it


def test_dead_figures_cost_one_more_from_three_and_block_from_six():
    dead3 = {f"d{i}": ("peasant", "defender", "0219", "dead") for i in range(3)}
    state = build({"k": ("knight", "besieger", "0119"), **dead3, **ENEMY_FAR}, phase="move")
    state, events = act(state, "besieger", "/move unit:k to:0219")
    assert of(events, "moved")[0]["cost"] == 2
    dead6 = {f"d{i}": ("peasant", "defender", "0219", "dead") for i in range(6)}
    state = build({"k": ("knight", "besieger", "0119"), **dead6, **ENEMY_FAR}, phase="move")
    assert "0219" not in _reach(state, "k")


def test_one_living_figure_per_cell_in_scenarios():
    from engine.core.errors import ScenarioError

    with pytest.raises(ScenarioError, match="one living figure per cell"):
        build(
            {"a": ("knight", "besieger", "0119"), "b": ("knight", "besieger", "0119"), **ENEMY_FAR}
        )


def test_each_figure_moves_once_and_stunned_figures_do_not_move():
    state = build(
        {
            "k": ("knight", "besieger", "0119"),
            "s": ("knight", "besieger", "0120", "stunned"),
            **ENEMY_FAR,
        },
        phase="move",
    )
    assert not _reach(state, "s")
    state, _ = act(state, "besieger", "/move unit:k to:0219")
    with pytest.raises(RuleError):
        act(state, "besieger", "/move unit:k to:0319")


def test_raised_drawbridge_shuts_the_gate():
    figs = {"m": ("man-at-arms", "besieger", "1118"), **ENEMY_FAR}
    assert "1116" in _reach(build(figs, phase="move"), "m")
    assert "1116" not in _reach(build(figs, phase="move", bridge_up=True), "m")
