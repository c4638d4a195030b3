"""The siege shield (5.2): carried at two points less, laid along a hexside, cover against
shots across that side or its two neighbours, no fight and no retreat across it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core.errors import RuleError, ScenarioError
from engine.core.scenario_io import check_schema
from engine.siege.scenarios import normalise
from renderer import render_png

from .helpers import RULES, act, legal, of
from .helpers import build as build_position

BYSTANDERS = {"zb": ("peasant", "besieger", "2201"), "zd": ("peasant", "defender", "2220")}
# 1019 on open ground; its shield stands along the side towards 1119 (up and to the east).
SHIELD = {"s": {"at": "1019", "faces": "1119"}}


def build(figs: dict, **extra) -> dict:
    return build_position({**BYSTANDERS, **figs}, **extra)


@pytest.mark.parametrize(
    "shooter, cover",
    [
        ("1319", "heavy"),  # the line crosses the shield's own side
        ("1220", "heavy"),  # across the neighbouring side towards 1120
        ("0619", "none"),  # from behind
        ("1020", "none"),  # from below: two sides away from the shield's
        ("0918", "heavy"),  # exactly along the border of the covered half: the defender's favour
    ],
)
def test_a_laid_shield_covers_against_shots_across_its_side_and_the_two_beside_it(shooter, cover):
    state = build(
        {"d": ("man-at-arms", "defender", "1019"), "a": ("archer", "besieger", shooter)},
        shields=SHIELD,
    )
    state, events = act(state, "besieger", "/shoot unit:a target:d", dice=[1])
    assert of(events, "shot")[0]["cover"] == cover
    answer = RULES.los(state, shooter, "1019")
    assert ("siege shield" in answer) == (cover == "heavy")


def test_no_fight_across_the_shields_side():
    state = build(
        {
            "d": ("man-at-arms", "defender", "1019"),
            "k": ("knight", "besieger", "1119"),
            "j": ("knight", "besieger", "1020"),
        },
        phase="melee",
        shields=SHIELD,
    )
    attacks = {(a["unit"], a["target"]) for a in legal(state, "besieger", "attack")}
    assert ("j", "d") in attacks and ("k", "d") not in attacks
    with pytest.raises(RuleError):
        act(state, "besieger", "/attack unit:k target:d")


def test_no_retreat_across_the_shields_side():
    # Every other neighbour of 1019 is taken: the only way out is across the shield, so the
    # defender cannot retreat and is stunned instead (G10).
    figs = {
        "d": ("peasant", "defender", "1019"),
        "k": ("knight", "besieger", "1020"),
        "f1": ("peasant", "defender", "0919"),
        "f2": ("peasant", "defender", "0920"),
        "f3": ("peasant", "defender", "1018"),
        "f4": ("peasant", "defender", "1120"),
    }
    state = build(figs, phase="melee", shields=SHIELD)
    state, _ = act(state, "besieger", "/attack unit:k target:d")
    state, events = act(state, "besieger", "/fight", dice=[4])  # 8 against 2: 4-1, a 4 is D
    assert of(events, "cannot_retreat")[0]["unit"] == "d"
    assert state["figures"]["d"]["at"] == "1019" and state["figures"]["d"]["stunned"]
    # Without the shield the same figure steps back across that side.
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:d")
    state, events = act(state, "besieger", "/fight", dice=[4])
    assert of(events, "retreated")[0]["to"] == "1119"


def test_a_carrier_moves_two_points_less_and_lays_the_shield_along_a_side():
    state = build(
        {"d": ("man-at-arms", "besieger", "0219"), "e": ("peasant", "besieger", "0419")},
        phase="move",
        shields={"s": {"at": "0219"}},
    )
    board = RULES.board(state)

    def reach(st):
        moves = [a["to"] for a in legal(st, "besieger", "move") if a["unit"] == "d"]
        return max(board.distance("0219", c) for c in moves)

    assert reach(state) == 5
    # Only a figure on the shield's own cell takes it up.
    assert [(a["unit"], a["item"]) for a in legal(state, "besieger", "lift")] == [("d", "s")]
    state, _ = act(state, "besieger", "/lift unit:d item:s")
    assert reach(state) == 3
    assert {"at": "0219", "kind": "flag", "color": "#34495e", "text": "Sh"} in RULES.scene(
        state, [], None
    )["markers"]
    state, _ = act(state, "besieger", "/move unit:d to:0519")
    state, events = act(state, "besieger", "/lay unit:d faces:0619")
    assert of(events, "shield_laid")[0]["at"] == "0519"
    assert state["shields"]["s"] == {"at": "0519", "faces": "0619"}
    scene = RULES.scene(state, [], None)
    assert {"at": "0519", "to": "0619", "color": "#34495e", "width": 9} in scene["edges"]
    assert "0519|0619" in scene["map_key"]
    assert Image.open(io.BytesIO(render_png(scene))).format == "PNG"


def test_scenario_shields_are_checked_by_schema_and_meaning():
    doc = {
        "figures": {
            "d": {"type": "knight", "side": "defender", "at": "1019"},
            "b": {"type": "knight", "side": "besieger", "at": "0119"},
        },
        "shields": {"s": {"at": "1019", "faces": "1119"}, "t": {"carrier": "b"}},
    }
    check_schema(doc, "siege", "mine.json")
    assert normalise(doc, "mine.json", "mine")["shields"] == doc["shields"]
    with pytest.raises(ScenarioError, match="shields.s.faces"):
        normalise({**doc, "shields": {"s": {"at": "1019", "faces": "1519"}}}, "mine.json", "x")
    with pytest.raises(ScenarioError, match="shields.t.carrier"):
        normalise({**doc, "oil": {"p": {"carrier": "b"}}}, "mine.json", "x")


def _horse(front: str, back: str, rider: str, side: str) -> dict:
    return {"side": side, "cells": [front, back], "rider": rider}


def test_no_rider_fights_across_the_shields_side():
    # The knight's horse stands on 1119 and 1218: it touches 1019 only across the shield.
    def position(**extra):
        return build(
            {"d": ("man-at-arms", "defender", "1019"), "k": ("knight", "besieger", "1119")},
            phase="melee",
            horses={"h": _horse("1119", "1218", "k", "besieger")},
            **extra,
        )

    def attacks(state):
        return {(a["unit"], a["target"]) for a in legal(state, "besieger", "attack")}

    assert ("k", "d") not in attacks(position(shields=SHIELD))
    with pytest.raises(RuleError):
        act(position(shields=SHIELD), "besieger", "/attack unit:k target:d")
    assert ("k", "d") in attacks(position())


def test_no_rider_retreats_across_the_shields_side():
    # A mounted sergeant (defence 7) on 1019-0919; every way back but across the shield is
    # taken. Knight 8 against 7 is 1-1; on the mounted table an 8 is D.
    figs = {
        "s": ("sergeant", "defender", "1019"),
        "k": ("knight", "besieger", "1120"),
        "f1": ("peasant", "defender", "0920"),
        "f2": ("peasant", "defender", "1018"),
        "f3": ("peasant", "defender", "1020"),
    }
    horses = {"h": _horse("1019", "0919", "s", "defender")}

    def fight(**extra):
        state = build(figs, phase="melee", horses=horses, **extra)
        state, _ = act(state, "besieger", "/attack unit:k target:s")
        return act(state, "besieger", "/fight", dice=[8])

    state, events = fight(shields=SHIELD)
    assert of(events, "melee")[0]["letter"] == "D"
    assert of(events, "cannot_retreat")[0]["unit"] == "s"
    assert state["horses"]["h"]["cells"] == ["1019", "0919"]
    state, events = fight()
    assert of(events, "retreated")[0]["to"] == "1119"


def test_a_rider_with_a_shield_in_one_of_his_two_cells_takes_its_cover():
    # 3.31: the rider stands in whichever of his cells covers him better; his horse's back is
    # on 1019, behind the shield, its front on 0919 in the open.
    def position(**extra):
        return build(
            {"r": ("sergeant", "defender", "0919"), "a": ("archer", "besieger", "1319")},
            horses={"h": _horse("0919", "1019", "r", "defender")},
            **extra,
        )

    _, events = act(position(shields=SHIELD), "besieger", "/shoot unit:a target:r", dice=[1])
    assert of(events, "shot")[0]["cover"] == "heavy"
    _, events = act(position(), "besieger", "/shoot unit:a target:r", dice=[1])
    assert of(events, "shot")[0]["cover"] == "none"


def test_a_stunned_carrier_drops_the_shield_and_must_take_it_up_again():
    """F11: "a stunned or dead carrier holds nothing": the shield lies unlaid in his cell, and
    coming to does not put it back in his hands."""
    state = build(
        {"a": ("archer", "defender", "0519"), "d": ("man-at-arms", "besieger", "0219")},
        phase="fire1",
        active="defender",
        first="defender",
        shields={"s": {"carrier": "d"}},
    )
    state, events = act(state, "defender", "/shoot unit:a target:d", dice=[5])  # C: stunned
    assert state["figures"]["d"]["stunned"]
    assert of(events, "shield_dropped") == [{"type": "shield_dropped", "unit": "d", "shield": "s"}]
    assert state["shields"]["s"] == {"at": "0219"}
    while not (state["active"] == "besieger" and state["phase"] == "move"):
        state, _ = act(state, state["active"], "/end-phase")
    while state["figures"]["d"]["stunned"]:  # his own phase ends: he comes to
        state, _ = act(state, state["active"], "/end-phase")
    while not (state["active"] == "besieger" and state["phase"] == "move"):
        state, _ = act(state, state["active"], "/end-phase")
    board = RULES.board(state)
    moves = [a["to"] for a in legal(state, "besieger", "move") if a["unit"] == "d"]
    assert max(board.distance("0219", c) for c in moves) == 5  # nothing in his hands
    assert [(a["unit"], a["item"]) for a in legal(state, "besieger", "lift")] == [("d", "s")]
