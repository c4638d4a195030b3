"""Boiling oil (5.32): carried at two points less, poured from a parapet in the melee step onto
adjacent lower cells, resolved on the melee table against foot figures (our column: the last,
F7), setting engines alight on the fire table."""

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


def build(figs: dict, **extra) -> dict:
    return build_position({**BYSTANDERS, **figs}, **extra)


def on_the_wall(**extra) -> dict:
    # 0704 is a parapet (level 2); 0703 below it is moat (level 0), 0804 the next parapet.
    return build(
        {
            "d": ("man-at-arms", "defender", "0704"),
            "b": ("peasant", "besieger", "0703"),
            "w": ("peasant", "besieger", "0804"),
        },
        first="defender",
        phase="melee",
        oil={"pot": {"carrier": "d"}},
        **extra,
    )


def test_oil_poured_from_a_parapet_onto_an_adjacent_lower_enemy_uses_the_melee_table():
    state = on_the_wall()
    # Not onto the parapet beside it (same level), only into the moat below.
    assert [a["at"] for a in legal(state, "defender", "pour")] == ["0703"]
    state, events = act(state, "defender", "/pour unit:d at:0703", dice=[8])
    poured = of(events, "oil_poured")[0]
    assert (poured["column"], poured["letter"]) == ("6-1", "A")
    assert state["figures"]["b"]["dead"]
    assert state["oil"] == {}  # the pot is used up
    # The pourer has had its melee step: no attack after pouring.
    assert not [a for a in legal(state, "defender", "attack") if a["unit"] == "d"]


def test_oil_that_misses_does_nothing_and_d_makes_the_victim_retreat():
    state, events = act(on_the_wall(), "defender", "/pour unit:d at:0703", dice=[1])
    assert of(events, "oil_poured")[0]["letter"] == "-" and not of(events, "figure_hit")
    state, events = act(on_the_wall(), "defender", "/pour unit:d at:0703", dice=[2])
    assert of(events, "oil_poured")[0]["letter"] == "D"
    if of(events, "choose_retreat"):
        to = of(events, "choose_retreat")[0]["options"][0]
        state, events = act(state, "besieger", f"/retreat unit:b to:{to}")
    assert of(events, "retreated")[0]["unit"] == "b"
    assert not state["advance"] and state["awaiting"] == ["defender"]


def test_oil_reaches_a_figure_on_a_ladder():
    state = build(
        {"d": ("man-at-arms", "defender", "0816"), "c": ("peasant", "besieger", "0817")},
        first="defender",
        phase="melee",
        ladders={"west": {"at": "0817", "faces": "0816"}},
        oil={"pot": {"carrier": "d"}},
    )
    state, events = act(state, "defender", "/pour unit:d at:0817", dice=[6])
    assert of(events, "figure_hit")[0]["outcome"] == "wounded"


def test_oil_on_an_engine_rolls_on_the_fire_table_and_spares_the_figure_inside():
    def position():
        state = on_the_wall()
        state["engines"] = {"ram": {"kind": "ram", "side": "besieger", "cells": ["0703"]}}
        return state

    state, events = act(position(), "defender", "/pour unit:d at:0703", dice=[4])
    assert of(events, "oil_poured")[0]["caught"] is True
    assert state["fires"]["0703"] == {"age": 1, "by": "defender"}
    assert not state["figures"]["b"]["wounded"] and not of(events, "figure_hit")
    state, events = act(position(), "defender", "/pour unit:d at:0703", dice=[5])
    assert of(events, "oil_poured")[0]["caught"] is False and not state.get("fires")


def test_only_from_a_parapet_and_not_after_shooting():
    state = build(
        {"d": ("man-at-arms", "defender", "0118"), "b": ("peasant", "besieger", "0119")},
        first="defender",
        phase="melee",
        oil={"pot": {"carrier": "d"}},
    )
    assert not legal(state, "defender", "pour")
    with pytest.raises(RuleError):
        act(state, "defender", "/pour unit:d at:0119", dice=[8])
    archer = build(
        {"a": ("archer", "defender", "0704"), "b": ("peasant", "besieger", "0703")},
        first="defender",
        oil={"pot": {"carrier": "a"}},
    )
    archer, _ = act(archer, "defender", "/shoot unit:a target:b", dice=[1])
    for _ in range(3):
        archer, _ = act(archer, "defender", "/end-phase")
    assert archer["phase"] == "melee" and not legal(archer, "defender", "pour")


def test_a_figure_carrying_oil_moves_two_points_less_and_lifts_a_pot_beside_it():
    state = build(
        {"d": ("man-at-arms", "defender", "0219")},
        first="defender",
        phase="move",
        oil={"pot": {"at": "0319"}, "far": {"at": "0419"}},
    )
    board = RULES.board(state)
    # Only a pot on its cell or beside it (F8): "far" stands two cells away.
    assert [a["item"] for a in legal(state, "defender", "lift")] == ["pot"]
    with pytest.raises(RuleError):
        act(state, "defender", "/lift unit:d item:far")

    def reach(st):
        return max(
            board.distance("0219", a["to"])
            for a in legal(st, "defender", "move")
            if a["unit"] == "d"
        )

    assert reach(state) == 5
    state, events = act(state, "defender", "/lift unit:d item:pot")
    assert of(events, "oil_lifted") and reach(state) == 3
    state, _ = act(state, "defender", "/move unit:d to:0519")
    assert RULES.scene(state, [], None)["markers"][-1] == {
        "at": "0519",
        "kind": "control",
        "color": "#3b2412",
        "text": "O",
    }


def test_a_stunned_carrier_lets_go_and_another_figure_lifts_the_pot():
    state = build(
        {"d": ("man-at-arms", "defender", "0219", "stunned"), "e": ("peasant", "defender", "0319")},
        first="defender",
        phase="move",
        oil={"pot": {"carrier": "d"}},
    )
    assert [a["unit"] for a in legal(state, "defender", "lift")] == ["e"]


def test_scenario_oil_is_checked_by_schema_and_meaning():
    doc = {
        "figures": {
            "d": {"type": "knight", "side": "defender", "at": "0704"},
            "b": {"type": "knight", "side": "besieger", "at": "0119"},
        },
        "oil": {"pot": {"carrier": "d"}, "spare": {"at": "0705"}},
    }
    check_schema(doc, "siege", "mine.json")
    assert normalise(doc, "mine.json", "mine")["oil"] == doc["oil"]
    with pytest.raises(ScenarioError, match="oil.pot.carrier"):
        normalise({**doc, "oil": {"pot": {"carrier": "nobody"}}}, "mine.json", "mine")
    with pytest.raises(ScenarioError, match="oil.pot.at"):
        normalise({**doc, "oil": {"pot": {"at": "0101x"}}}, "mine.json", "mine")


def test_the_picture_shows_oil_pots():
    state = on_the_wall()
    png = render_png(RULES.scene(state, [], None))
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert {"at": "0704", "kind": "control", "color": "#3b2412", "text": "O"} in RULES.scene(
        state, [], None
    )["markers"]


def test_oil_on_the_local_table_by_typed_commands(tmp_path):
    """A scenario file of one's own with a pot on the wall: /lift and /pour typed on the local
    table; a pour onto the parapet beside (same level) is refused with the legal pours."""
    import json

    from tests.siege.test_table import run

    document = {
        "name": "oil-test",
        "first": "defender",
        "phase": "move",
        "figures": {
            "d": {"type": "man-at-arms", "side": "defender", "at": "0704", "name": "Dietrich"},
            "b": {"type": "peasant", "side": "besieger", "at": "0703", "name": "Bauer"},
            "w": {"type": "peasant", "side": "besieger", "at": "0804", "name": "Wido"},
        },
        "oil": {"pot": {"at": "0704"}},
    }
    path = tmp_path / "oil.json"
    path.write_text(json.dumps(document))
    code, lines, _ = run(
        ["--game", "siege", "--scenario", str(path), "--seed", "1", "--db", str(tmp_path / "t.db")],
        tmp_path,
        [
            "defender /lift unit:d item:pot",
            "defender /end-phase",
            "defender /end-phase",
            "defender /pour unit:d at:0804",
            "defender /pour unit:d at:0703",
        ],
    )
    assert code == 0
    lifted, _, _, refused, poured = lines
    assert lifted["ok"] and lifted["events"][0]["type"] == "oil_lifted"
    assert not refused["ok"] and "Legal: /pour unit:d at:0703" in refused["error"]
    assert poured["ok"]
    assert (
        "Dietrich pours oil on Bauer at 0703: column 6-1"
        in of(poured["events"], "oil_poured")[0]["text"]
    )


def test_only_defenders_pour_oil():
    # 5.32 "Verteidiger, die sich auf Brustwehrfeldern befinden": a besieger who took the
    # parapet with a pot does not pour it onto the courtyard stairs below.
    state = build(
        {"b": ("man-at-arms", "besieger", "0704"), "d": ("peasant", "defender", "0705")},
        phase="melee",
        oil={"pot": {"carrier": "b"}},
    )
    assert not legal(state, "besieger", "pour")
    # The same place in a defender's hands pours onto a besieger on the stairs.
    mirrored = build(
        {"b": ("man-at-arms", "defender", "0704"), "d": ("peasant", "besieger", "0705")},
        first="defender",
        phase="melee",
        oil={"pot": {"carrier": "b"}},
    )
    assert [a["at"] for a in legal(mirrored, "defender", "pour")] == ["0705"]


def test_oil_on_a_siege_tower_sets_it_alight_and_spares_the_figure_inside():
    state = build(
        {"d": ("man-at-arms", "defender", "0716"), "i": ("peasant", "besieger", "0717")},
        first="defender",
        phase="melee",
        towers={"t": {"side": "besieger", "cells": ["0617", "0717", "0817"], "towards": "0616"}},
        filled_moat=["0617", "0717", "0817"],
        oil={"pot": {"carrier": "d"}},
    )
    assert "0717" in [a["at"] for a in legal(state, "defender", "pour")]
    state, events = act(state, "defender", "/pour unit:d at:0717", dice=[4])
    assert of(events, "oil_poured")[0]["caught"] is True and state["fires"]["0717"]["age"] == 1
    assert not state["figures"]["i"]["wounded"] and not of(events, "figure_hit")


def test_no_oil_on_a_burning_engine_nor_on_the_figure_sheltered_in_it():
    # F9: a figure inside an engine suffers "nur, wenn die Belagerungsmaschine Feuer fängt";
    # once it burns, more oil can neither set it alight nor reach the figure under it.
    state = on_the_wall()
    state["engines"] = {"ram": {"kind": "ram", "side": "besieger", "cells": ["0703"]}}
    assert [a["at"] for a in legal(state, "defender", "pour")] == ["0703"]
    state["fires"] = {"0703": {"age": 1, "by": "defender"}}
    assert not legal(state, "defender", "pour")
    with pytest.raises(RuleError):
        act(state, "defender", "/pour unit:d at:0703", dice=[8])


def test_a_stunned_carrier_puts_the_pot_down_in_his_cell():
    """F8: "a stunned or dead carrier holds nothing": his pot stands in his cell for anyone on
    it to take up; he does not hold it again when he comes to."""
    state = build(
        {"a": ("archer", "besieger", "0519"), "d": ("man-at-arms", "defender", "0219")},
        phase="fire1",
        oil={"p": {"carrier": "d"}},
    )
    state, events = act(state, "besieger", "/shoot unit:a target:d", dice=[5])  # C: stunned
    assert state["figures"]["d"]["stunned"]
    assert of(events, "oil_dropped") == [{"type": "oil_dropped", "unit": "d", "pot": "p"}]
    assert state["oil"]["p"] == {"at": "0219"}
