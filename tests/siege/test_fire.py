"""Fire (3.5) and fire arrows (5.31): setting alight, spreading, putting out, burning cells,
destruction after three rounds. Engines are built into the state as the shared contract's
engine dict with the keys the scenario loader gives it."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from engine.core import hexgrid
from engine.core.dice import fixed
from engine.core.errors import RuleError, ScenarioError
from engine.core.scenario_io import check_schema
from engine.siege import data, fire
from renderer import render_png

from .helpers import RULES, act, legal, of
from .helpers import build as build_position

# Far away, so that each side has a living figure (a scenario needs one) that changes nothing.
BYSTANDERS = {"zb": ("peasant", "besieger", "2201"), "zd": ("peasant", "defender", "2220")}


def build(figs: dict, **extra) -> dict:
    return build_position({**BYSTANDERS, **figs}, **extra)


# Engines with the keys the scenario loader gives them (engines.validate), on any cells a test
# needs (a ram of one or two cells too, to burn a single cell of it).
LOADED = {
    "ballista": {"markers": 3},
    "catapult": {"lost": 0, "repair_day": None, "aimed": None},
    "onager": {"lost": 0, "repair_day": None, "aimed": None},
}


def _ram_front(cells: list[str]) -> str:
    q, r = hexgrid.parse_label(cells[0])
    if len(cells) > 1:
        q2, r2 = hexgrid.parse_label(cells[1])
        return hexgrid.label((2 * q - q2, 2 * r - r2))
    return hexgrid.label((q, r - 1))


def with_engines(state: dict, fires: dict | None = None, **engines) -> dict:
    state["engines"] = {
        eid: {"kind": kind, "side": side, "cells": list(cells), **LOADED.get(kind, {})}
        | (
            {"towards": _ram_front(list(cells)), "last_roll": None, "driven_half": None}
            if kind == "ram"
            else {}
        )
        for eid, (kind, side, cells) in engines.items()
    }
    if fires:
        state["fires"] = {cell: {"age": age, "by": by} for cell, (age, by) in fires.items()}
    return state


def end_steps(state: dict, count: int) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    for _ in range(count):
        state, new = act(state, state["active"], "/end-phase")
        events += new
    return state, events


def test_a_figure_beside_an_enemy_engine_sets_it_alight_after_a_whole_round():
    state = with_engines(
        build(
            {"d": ("man-at-arms", "defender", "0518"), "b": ("peasant", "besieger", "0120")},
            first="defender",
            phase="move",
        ),
        cat=("catapult", "besieger", ["0519"]),
    )
    assert {"type": "kindle", "side": "defender", "unit": "d", "at": "0519"} in legal(
        state, "defender", "kindle"
    )
    state, events = act(state, "defender", "/kindle unit:d at:0519")
    assert of(events, "kindling")[0]["at"] == "0519"
    assert "Kindling" in RULES.header(state)
    # Instead of moving, and nothing else while it takes: no move, no attack.
    assert not [a for a in legal(state, "defender", "move") if a["unit"] == "d"]
    state, events = end_steps(state, 6)  # fire2, melee, the besiegers' four steps
    assert not of(events, "fire_lit")
    state, events = end_steps(state, 1)  # a whole round later, the defenders' phase begins
    assert of(events, "fire_lit") == [
        {"type": "fire_lit", "at": "0519", "by": "defender", "how": "kindled"}
    ]
    assert state["fires"]["0519"]["age"] == 1
    assert not state["kindling"] and "Kindling" not in RULES.header(state)


def test_no_one_sets_his_own_engine_alight():
    state = with_engines(
        build({"b": ("peasant", "besieger", "0518")}, phase="move"),
        cat=("catapult", "besieger", ["0519"]),
    )
    assert not legal(state, "besieger", "kindle")


def test_kindling_fails_when_the_figure_is_stunned_meanwhile():
    state = with_engines(
        build(
            {"d": ("man-at-arms", "defender", "0518"), "a": ("archer", "besieger", "0119")},
            first="defender",
            phase="move",
        ),
        cat=("catapult", "besieger", ["0519"]),
    )
    state, _ = act(state, "defender", "/kindle unit:d at:0519")
    state, _ = end_steps(state, 3)
    state, events = act(state, "besieger", "/shoot unit:a target:d", dice=[5])
    assert of(events, "shot")[0]["outcome"] == "stunned healthy"
    state, events = end_steps(state, 4)
    assert of(events, "kindle_failed")[0]["reason"] == "is stunned"
    assert not state.get("fires")


def test_kindling_fails_when_the_figure_is_driven_from_its_place():
    state = with_engines(
        build(
            {"d": ("peasant", "defender", "0518"), "k": ("knight", "besieger", "0418")},
            first="defender",
            phase="move",
        ),
        cat=("catapult", "besieger", ["0519"]),
    )
    state, _ = act(state, "defender", "/kindle unit:d at:0519")
    state, _ = end_steps(state, 6)
    assert state["phase"] == "melee" and state["active"] == "besieger"
    state, _ = act(state, "besieger", "/attack unit:k target:d")
    # Knight 8 against peasant 2: 4-1, a 4 is D, the defender retreats (1.72).
    state, events = act(state, "besieger", "/fight", dice=[4])
    if of(events, "choose_retreat"):
        to = of(events, "choose_retreat")[0]["options"][0]
        state, _ = act(state, "defender", f"/retreat unit:d to:{to}")
    assert state["figures"]["d"]["at"] != "0518" and not state["figures"]["d"]["stunned"]
    if state.get("advance"):
        state, _ = act(state, "besieger", "/stay")
    state, events = end_steps(state, 1)
    assert of(events, "kindle_failed")[0]["reason"] == "was driven from its place"
    assert not state.get("fires")


def test_not_from_a_parapet():
    # 3.51 "Anmerkung": from a parapet only fire arrows or boiling oil set an engine alight.
    state = with_engines(
        build({"d": ("man-at-arms", "defender", "0704")}, first="defender", phase="move"),
        ram=("ram", "besieger", ["0703"]),
    )
    assert not legal(state, "defender", "kindle")
    with pytest.raises(RuleError):
        act(state, "defender", "/kindle unit:d at:0703")


def test_fire_spreads_at_the_end_of_the_opponents_phase_to_adjacent_engines():
    def position():
        return with_engines(
            build({"d": ("peasant", "defender", "0101")}, phase="melee"),
            {"0519": (1, "defender")},
            cat=("catapult", "besieger", ["0519"]),
            ona=("onager", "besieger", ["0619", "0719"]),
            far=("ballista", "besieger", ["1019"]),
        )

    # One roll for the one adjacent cell holding an object (0619); 0719 and 1019 are not
    # adjacent to the fire. Our table: an engine catches on 1-4.
    state, events = act(position(), "besieger", "/end-phase", dice=[4])
    assert [(e["at"], e["caught"]) for e in of(events, "fire_spread")] == [("0619", True)]
    assert state["fires"]["0619"] == {"age": 1, "by": "defender"}
    state, events = act(position(), "besieger", "/end-phase", dice=[5])
    assert [(e["at"], e["caught"]) for e in of(events, "fire_spread")] == [("0619", False)]
    assert "0619" not in state["fires"]


def test_a_fire_spreads_only_at_the_end_of_its_setters_opponents_phase():
    state = with_engines(
        build({"d": ("peasant", "defender", "0101")}, phase="melee"),
        {"0519": (1, "besieger")},
        cat=("catapult", "defender", ["0519"]),
        ona=("onager", "defender", ["0619"]),
    )
    state, events = act(state, "besieger", "/end-phase")  # no die rolled: no spread check
    assert not of(events, "fire_spread")


def test_an_adjacent_figure_tries_once_to_put_out_a_fire():
    def position():
        return with_engines(
            build(
                {"b": ("peasant", "besieger", "0518"), "c": ("peasant", "besieger", "0418")},
                phase="melee",
            ),
            {"0519": (2, "defender")},
            cat=("catapult", "besieger", ["0519"]),
        )

    state, events = act(position(), "besieger", "/douse unit:b at:0519", dice=[5])
    assert of(events, "douse")[0]["out"] is True
    assert "0519" not in state["fires"]
    state, events = act(position(), "besieger", "/douse unit:b at:0519", dice=[6])
    assert of(events, "douse")[0]["out"] is False and state["fires"]["0519"]["age"] == 2
    # One attempt a figure, in one direction; another adjacent figure may try too.
    assert {a["unit"] for a in legal(state, "besieger", "douse")} == {"c"}
    with pytest.raises(RuleError):
        act(state, "besieger", "/douse unit:b at:0519", dice=[1])


def test_one_burning_cell_destroys_the_whole_engine_after_three_rounds_in_a_row():
    state = with_engines(
        build(
            {"d": ("peasant", "defender", "0101")},
            phase="melee",
            first="besieger",
            active="defender",
        ),
        {"0619": (1, "defender")},
        ram=("ram", "besieger", ["0519", "0619", "0719"]),
    )
    ages = []
    for _ in range(2):
        state, events = end_steps(state, 1)  # the round ends
        ages.append(state["fires"]["0619"]["age"])
        assert not of(events, "engine_destroyed")
        state, _ = end_steps(state, 7)
    assert ages == [2, 3]
    assert [m["text"] for m in RULES.scene(state, [], None)["markers"] if m["kind"] == "fire"] == [
        "3"
    ]
    state, events = end_steps(state, 1)
    assert of(events, "engine_destroyed") == [
        {"type": "engine_destroyed", "engine": "ram", "by": "fire"}
    ]
    assert state["engines"] == {} and state["fires"] == {}


def test_a_figure_staying_in_a_burning_cell_is_wounded_then_killed_and_a_stunned_one_comes_to():
    state = with_engines(
        build(
            {"r": ("peasant", "defender", "0619", "stunned"), "b": ("peasant", "besieger", "0101")},
            phase="melee",
        ),
        {"0519": (1, "defender")},
        cat=("catapult", "besieger", ["0519"]),
        ram=("ram", "besieger", ["0619"]),
    )
    state, events = act(state, "besieger", "/end-phase", dice=[1])  # the fire spreads to 0619
    assert {"type": "recovered", "unit": "r", "at": "0619", "by": "fire"} in events
    state, events = end_steps(state, 4)  # the defenders' phase; the round ends
    assert state["figures"]["r"]["wounded"] and not state["figures"]["r"]["dead"]
    state, _ = end_steps(state, 8)
    assert state["figures"]["r"]["dead"]


def test_no_figure_enters_a_burning_cell_and_one_inside_may_leave():
    state = with_engines(
        build(
            {"b": ("peasant", "besieger", "0518"), "r": ("peasant", "besieger", "0619")},
            phase="move",
        ),
        {"0519": (1, "defender"), "0619": (1, "defender")},
        ram=("ram", "besieger", ["0519", "0619"]),
    )
    moves = {a["to"] for a in legal(state, "besieger", "move") if a["unit"] == "b"}
    assert "0519" not in moves and "0619" not in moves and "0418" in moves
    assert {a["to"] for a in legal(state, "besieger", "move") if a["unit"] == "r"}


def test_fire_arrows_at_short_range_against_enemy_engines_only():
    def position():
        return with_engines(
            build(
                {
                    "a": ("archer", "defender", "0119"),
                    "x": ("crossbowman", "defender", "0120"),
                    "p": ("peasant", "besieger", "0101"),
                },
                first="defender",
            ),
            cat=("catapult", "besieger", ["0519"]),
            far=("onager", "besieger", ["1519"]),
            mid=("onager", "besieger", ["1020"]),  # 9 cells: the longbow's medium band
        )

    state = position()
    # Short range only (the longbow's short band is 8 cells); bows, not crossbows (F5).
    assert {(a["unit"], a["at"]) for a in legal(state, "defender", "firearrow")} == {("a", "0519")}
    assert "medium" in RULES.los(state, "0119", "1020")
    for beyond in ("1519", "1020"):
        with pytest.raises(RuleError):
            act(state, "defender", f"/firearrow unit:a at:{beyond}", dice=[1])
    state, events = act(state, "defender", "/firearrow unit:a at:0519", dice=[4])
    assert of(events, "fire_arrow")[0]["caught"] is True
    assert state["fires"]["0519"] == {"age": 1, "by": "defender"}
    assert not legal(state, "defender", "firearrow")
    assert "a" not in {a["unit"] for a in legal(state, "defender", "shoot")}
    state, events = act(position(), "defender", "/firearrow unit:a at:0519", dice=[5])
    assert of(events, "fire_arrow")[0]["caught"] is False and not state.get("fires")


def test_the_picture_shows_fire_markers_with_their_age_and_the_header_the_burning_cells():
    state = with_engines(
        build({"d": ("peasant", "defender", "0101")}),
        {"0519": (2, "defender"), "0619": (1, "defender")},
        ram=("ram", "besieger", ["0519", "0619"]),
    )
    scene = RULES.scene(state, [], None)
    fires = [m for m in scene["markers"] if m["kind"] == "fire"]
    assert fires == [
        {"at": "0519", "kind": "fire", "text": "2"},
        {"at": "0619", "kind": "fire", "text": "1"},
    ]
    assert ["Fires", "0519 (2/3), 0619 (1/3)"] in scene["header"]
    png = render_png(scene)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width > 400


def test_the_fire_table_is_data_checked_on_load(tmp_path):
    assert fire.table()["destroyed_after"] == 3
    good = json.loads((data.DATA_DIR / fire.FILE).read_text(encoding="utf-8"))
    for broken, entry in (
        ({**good, "catches": {**good["catches"], "engine": ["F"] * 9}}, "catches.engine"),
        ({**good, "put_out": ["yes"] * 10}, "put_out"),
        ({**good, "destroyed_after": 0}, "destroyed_after"),
        ({**good, "fire_arrow_band": "point-blank"}, "fire_arrow_band"),
    ):
        path = tmp_path / "fire-spread.json"
        path.write_text(json.dumps(broken), encoding="utf-8")
        with pytest.raises(ScenarioError, match=entry):
            fire.load(path, "fire-spread.json")


def test_no_retreat_into_a_burning_cell():
    # Every neighbour of 1019 but the burning 1119 is taken: the defender cannot retreat.
    state = with_engines(
        build(
            {
                "d": ("peasant", "defender", "1019"),
                "k": ("knight", "besieger", "1020"),
                "f1": ("peasant", "defender", "0919"),
                "f2": ("peasant", "defender", "0920"),
                "f3": ("peasant", "defender", "1018"),
                "f4": ("peasant", "defender", "1120"),
            },
            phase="melee",
        ),
        {"1119": (1, "besieger")},
        ram=("ram", "defender", ["1119"]),
    )
    state, _ = act(state, "besieger", "/attack unit:k target:d")
    state, events = act(state, "besieger", "/fight", dice=[4])  # 4-1, a 4 is D
    assert of(events, "cannot_retreat")[0]["unit"] == "d"
    assert state["figures"]["d"]["at"] == "1019"


# A siege tower south of the castle, its first cell 0619, forward = north (as in test_tower.py).
TOWER = {"t": {"side": "besieger", "cells": ["0619", "0719", "0819"], "towards": "0618"}}


def test_a_siege_tower_burns_like_an_engine_and_its_top_falls_when_it_burns_down():
    state = with_engines(
        build(
            {
                "i": ("peasant", "besieger", "0719"),
                "top": ("archer", "besieger", "0719", "healthy", "top"),
                "d": ("man-at-arms", "defender", "0518"),
            },
            phase="melee",
            active="defender",
            first="besieger",
            towers=TOWER,
        ),
        {"0619": (3, "defender")},
    )
    state, events = act(state, "defender", "/end-phase")  # the round ends
    assert of(events, "tower_destroyed") == [
        {"type": "tower_destroyed", "tower": "t", "by": "fire"}
    ]
    assert state["towers"] == {} and state["fires"] == {}
    # The archer on its platform falls onto the cell, stunned, and stuns the peasant inside.
    assert of(events, "fell")[0]["unit"] == "top"
    assert "layer" not in state["figures"]["top"] and state["figures"]["top"]["stunned"]
    assert state["figures"]["i"]["stunned"]


def test_a_figure_beside_an_enemy_siege_tower_sets_it_alight_and_its_fire_rolls_with_it():
    state = build(
        {
            "a": ("man-at-arms", "besieger", "0619"),
            "b": ("man-at-arms", "besieger", "0719"),
            "c": ("man-at-arms", "besieger", "0819"),
            "d": ("man-at-arms", "defender", "0519"),
        },
        phase="move",
        first="defender",
        towers=TOWER,
    )
    assert {"type": "kindle", "side": "defender", "unit": "d", "at": "0619"} in legal(
        state, "defender", "kindle"
    )
    state, _ = act(state, "defender", "/kindle unit:d at:0619")
    state, events = end_steps(state, 4)  # to the besiegers' movement step
    assert not of(events, "fire_lit")
    # Kindling takes a whole round: the besiegers push the tower away before it is over.
    state, _ = act(state, "besieger", "/roll tower:t to:0620")
    state, events = end_steps(state, 3)
    assert of(events, "kindle_failed")[0]["reason"] == "has nothing left to set alight"
    # A fire on a tower moves with it.
    state = build(
        {
            "a": ("man-at-arms", "besieger", "0619"),
            "b": ("man-at-arms", "besieger", "0719"),
            "c": ("man-at-arms", "besieger", "0819"),
        },
        phase="move",
        towers=TOWER,
    )
    state["fires"] = {"0719": {"age": 2, "by": "defender"}}
    state, _ = act(state, "besieger", "/roll tower:t to:0618")
    assert state["fires"] == {"0718": {"age": 2, "by": "defender"}}


def test_fire_arrows_reach_an_enemy_siege_tower():
    state = build(
        {"a": ("archer", "defender", "0116"), "i": ("peasant", "besieger", "0619")},
        first="defender",
        towers=TOWER,
    )
    assert "0619" in {a["at"] for a in legal(state, "defender", "firearrow")}
    state, events = act(state, "defender", "/firearrow unit:a at:0619", dice=[1])
    assert state["fires"]["0619"] == {"age": 1, "by": "defender"}


def test_a_fire_whose_engine_left_the_map_dies_down_at_the_round_end():
    state = with_engines(
        build({"d": ("peasant", "defender", "0101")}, phase="melee", active="defender"),
        {"0519": (1, "defender")},
        cat=("catapult", "besieger", ["0519"]),
    )
    del state["engines"]["cat"]  # as when its own side's rules take it away
    state, events = act(state, "defender", "/end-phase")
    assert of(events, "fire_out") == [{"type": "fire_out", "at": "0519"}]
    assert state["fires"] == {}


def test_a_ram_crew_member_fighting_a_fire_stops_the_ram_this_round():
    # 4.34: "Wenn eine der Figuren, die den Widder bedient in einen Kampf verwickelt wird oder
    # versucht ein Feuer zu löschen, dann kann der Belagerer mit diesem Widder in dieser Runde
    # keinen Zerstörungsversuch ..." The ram stands at the parapet 0816, its back cell burning.
    def position():
        return with_engines(
            build(
                {
                    "a": ("peasant", "besieger", "0817"),
                    "b": ("peasant", "besieger", "0818"),
                    "c": ("peasant", "besieger", "0819"),
                    "w": ("peasant", "besieger", "0919"),
                },
                filled_moat=["0817"],
                phase="melee",
            ),
            {"0819": (1, "defender")},
            ram=("ram", "besieger", ["0817", "0818", "0819"]),
        )

    assert position()["engines"]["ram"]["towards"] == "0816"
    assert {"type": "batter", "side": "besieger", "engine": "ram"} in legal(
        position(), "besieger", "batter"
    )
    # Someone outside the crew may fight the fire and leave the ram working.
    state, _ = act(position(), "besieger", "/douse unit:w at:0819", dice=[6])
    assert legal(state, "besieger", "batter")
    # A crew member who tries, put out or not, stops the ram for this round.
    state, events = act(position(), "besieger", "/douse unit:b at:0819", dice=[1])
    assert of(events, "douse")[0]["out"] is True
    assert not legal(state, "besieger", "batter")
    with pytest.raises(RuleError, match="one of its crew fought a fire this round"):
        act(state, "besieger", "/batter engine:ram")
    # The next round it works again.
    state, _ = end_steps(state, 8)
    assert (state["turn"], state["phase"], state["active"]) == (2, "melee", "besieger")
    assert legal(state, "besieger", "batter")


# ----- tents on the camp map ---------------------------------------------------------------
CAMP_FAR = {"zb": ("peasant", "besieger", "2401"), "zd": ("peasant", "defender", "2420")}


def camp(figs: dict, **extra) -> dict:
    return build_position({**CAMP_FAR, **figs}, map="camp", **extra)


def _through(state: dict, spread_dice: dict[int, list[int]], until) -> tuple[dict, list[dict]]:
    """End steps until ``until(state)``; ``spread_dice`` gives the dice for the spread check
    at the end of the besiegers' phase of that round."""
    events: list[dict] = []
    for _ in range(60):
        if until(state):
            return state, events
        dice = []
        if state["phase"] == "melee" and state["active"] == "besieger":
            dice = spread_dice.get(state["turn"], [])
        state, new = act(state, state["active"], "/end-phase", dice=dice)
        events += new
    raise AssertionError("never reached")


def test_a_tent_of_two_cells_burns_cell_by_cell_and_once_burnt_lets_shots_through():
    # 3.24: "Es ist möglich, in ein Zeltfeld zu schießen, aber nicht durch ein Zeltfeld, wenn
    # das Zelt nicht vorher durch Feuer zerstört worden ist." The tent 0408-0508 stands
    # between the archer at 0406 and his target at 0410.
    state = camp(
        {
            "d": ("man-at-arms", "defender", "0309"),
            "a": ("archer", "defender", "0406"),
            "t": ("man-at-arms", "besieger", "0410"),
        },
        first="defender",
        phase="move",
    )
    assert "0408: a tent" in RULES.los(state, "0406", "0410")
    assert {"type": "kindle", "side": "defender", "unit": "d", "at": "0408"} in legal(
        state, "defender", "kindle"
    )
    state, _ = act(state, "defender", "/kindle unit:d at:0408")
    state, events = _through(state, {}, lambda s: s.get("fires"))
    assert of(events, "fire_lit")[0]["at"] == "0408" and state["turn"] == 2
    # F14: each cell of a tent burns on its own; the fire reaches the tent's other cell as it
    # reaches any neighbour, by a roll on the tent column (our table: 1-6).
    state, events = _through(state, {2: [6]}, lambda s: s["turn"] == 3)
    assert [(e["at"], e["kind"], e["caught"]) for e in of(events, "fire_spread")] == [
        ("0508", "tent", True)
    ]
    state, events = _through(state, {}, lambda s: s["turn"] == 5)
    placed = sorted(e["at"] for e in of(events, "counter_placed") if e["kind"] == "burnt-tent")
    assert placed == ["0408", "0508"] and state["fires"] == {}
    assert not legal(state, "defender", "kindle")  # nothing left there to set alight
    assert "0408: a tent" not in RULES.los(state, "0406", "0410")
    assert (state["phase"], state["active"]) == ("fire1", "defender")
    state, events = act(state, "defender", "/shoot unit:a target:t", dice=[9])
    assert of(events, "shot")[0]["cover"] == "none"


def test_a_figure_in_a_burning_tent_is_wounded_and_a_burning_tent_sets_an_engine_alight():
    state = with_engines(
        camp(
            {"k": ("knight", "besieger", "0514"), "d": ("peasant", "defender", "0101")},
            phase="melee",
        ),
        {"0414": (1, "defender")},
        cat=("catapult", "besieger", ["0415"]),
    )
    # The defenders' fire spreads at the end of the besiegers' phase: one roll for the tent's
    # other cell (tent column), one for the catapult (engine column: 1-4).
    state, events = act(state, "besieger", "/end-phase", dice=[4, 2])
    assert [(e["at"], e["kind"], e["caught"]) for e in of(events, "fire_spread")] == [
        ("0415", "engine", True),
        ("0514", "tent", True),
    ]
    state, events = end_steps(state, 4)  # the defenders' phase; the round ends
    assert state["figures"]["k"]["wounded"] and not state["figures"]["k"]["dead"]
    assert {"0414", "0415", "0514"} <= set(RULES.header(state)["Fires"].replace(",", " ").split())
    # The knight may leave his tent; nobody walks into it.
    assert (state["phase"], state["active"]) == ("fire1", "besieger")
    state, _ = end_steps(state, 1)
    moves = {a["to"] for a in legal(state, "besieger", "move") if a["unit"] == "k"}
    assert moves and not moves & {"0414", "0415", "0514"}


# ----- a scenario won by burning (victory.burn) ----------------------------------------------
BURN = {"keep_taken_by": "defender", "burn": {"by": "defender", "engines": ["b1"], "tents": 2}}
BALLISTA_AT_TRENCH = {"b1": {"kind": "ballista", "side": "besieger", "at": "1115", "markers": 3}}


def _raid(fires_at: dict, **extra) -> dict:
    state = camp(
        {"d": ("peasant", "defender", "1820")},
        first="defender",
        active="besieger",
        phase="melee",
        engines=BALLISTA_AT_TRENCH,
        victory=BURN,
        **extra,
    )
    state["fires"] = {cell: {"age": age, "by": "defender"} for cell, age in fires_at.items()}
    return state


def test_the_raiders_win_when_the_ballista_and_two_whole_tents_have_burnt_down():
    # One tent burnt before, the other and the ballista in their third round of fire.
    state = _raid({"1115": 3, "0411": 3, "0511": 3}, burnt_tents=["0408", "0508"])
    assert RULES.header(state)["Objective"] == (
        "defenders win by burning b1 (standing), 2 tents (1 burnt down)"
    )
    state, events = act(state, "besieger", "/end-phase")  # the round ends
    assert of(events, "game_over") == [
        {
            "type": "game_over",
            "winner": "defender",
            "reason": "engine b1 and 2 tents destroyed",
        }
    ]
    assert not RULES.legal_actions(state, "defender")


def test_half_a_tent_or_a_standing_ballista_is_not_yet_a_win():
    # Only one cell of the second tent burns (its fire fails to reach the other, d10 7): that
    # tent still stands in part.
    state, events = act(
        _raid({"1115": 3, "0411": 3}, burnt_tents=["0408", "0508"]),
        "besieger",
        "/end-phase",
        dice=[7],
    )
    assert not of(events, "game_over") and "b1" not in state["engines"]
    assert "b1 (destroyed), 2 tents (1 burnt down)" in RULES.header(state)["Objective"]
    # Both tents down, the ballista's fire put out long ago: it stands, no win.
    state, events = act(
        _raid({"0411": 3, "0511": 3}, burnt_tents=["0408", "0508"]), "besieger", "/end-phase"
    )
    assert not of(events, "game_over") and "b1" in state["engines"]


@pytest.mark.parametrize(
    "burn, message",
    [
        ({"by": "besieger", "engines": ["b1"]}, "victory.burn.engines: must list engines"),
        ({"by": "defender", "engines": ["nope"]}, "victory.burn.engines: must list engines"),
        ({"by": "defender", "tents": 10}, r"victory.burn.tents: must be a whole number 0-9"),
        ({"by": "defender"}, "victory.burn: must name an engine or tents to burn"),
        ({"by": "nobody", "tents": 1}, "victory.burn.by: must be one of besieger, defender"),
    ],
)
def test_a_burn_victory_is_checked_against_the_scenario(burn, message):
    with pytest.raises(ScenarioError, match=message):
        camp(
            {"d": ("peasant", "defender", "1820")},
            engines=BALLISTA_AT_TRENCH,
            victory={"keep_taken_by": "defender", "burn": burn},
        )


def test_a_burn_victory_passes_the_published_schema_and_a_malformed_one_does_not():
    doc = {
        "map": "camp",
        "figures": {
            "d": {"type": "knight", "side": "defender", "at": "1820"},
            "b": {"type": "knight", "side": "besieger", "at": "0101"},
        },
        "engines": BALLISTA_AT_TRENCH,
        "victory": BURN,
    }
    check_schema(doc, "siege", "mine.json")
    with pytest.raises(ScenarioError, match="victory"):
        check_schema(
            {**doc, "victory": {"burn": {"by": "defender", "tents": "two"}}}, "siege", "mine.json"
        )


def test_wagons_and_horses_do_not_burn():
    # 3.51 names "ein Zelt oder eine Belagerungsmaschine"; 5.1 gives wagons no fire rule (F14).
    state = build(
        {"d": ("man-at-arms", "defender", "0618")},
        first="defender",
        phase="move",
        horses={"ox": {"side": "besieger", "cells": ["0719"], "kind": "ox"}},
        wagons={"w": {"side": "besieger", "cells": ["0619", "0519"], "animal": "ox"}},
    )
    assert not legal(state, "defender", "kindle")
    with pytest.raises(RuleError):
        act(state, "defender", "/kindle unit:d at:0619")
    # Beside a burning engine the wagon is no cell the fire can spread to.
    burning = with_engines(
        build(
            {"d": ("peasant", "defender", "0101")},
            phase="melee",
            horses={"ox": {"side": "besieger", "cells": ["0719"], "kind": "ox"}},
            wagons={"w": {"side": "besieger", "cells": ["0619", "0519"], "animal": "ox"}},
        ),
        {"0620": (1, "defender")},
        cat=("catapult", "besieger", ["0620"]),
    )
    _, events = act(burning, "besieger", "/end-phase")  # no die: nothing beside it burns
    assert not of(events, "fire_spread")


def test_fire_arrows_set_engines_alight_not_tents():
    # 5.31: "… können aber Belagerungsmaschinen in Brand setzen": tents only by kindling.
    state = with_engines(
        camp({"a": ("archer", "defender", "0406")}, first="defender"),
        cat=("catapult", "besieger", ["0204"]),
    )
    assert {a["at"] for a in legal(state, "defender", "firearrow")} == {"0204"}
    with pytest.raises(RuleError):
        act(state, "defender", "/firearrow unit:a at:0408", dice=[1])


def test_the_camp_raid_tells_the_raiders_what_to_burn():
    scenario = RULES.load_scenario("camp-raid")
    assert scenario["victory"]["burn"] == {
        "by": "defender",
        "engines": ["trench-ballista"],
        "tents": 2,
    }
    assert "ballista and two whole tents" in scenario["description"]
    state, _ = RULES.setup(scenario, fixed([]))
    assert RULES.header(state)["Objective"] == (
        "defenders win by burning trench-ballista (standing), 2 tents (0 burnt down)"
    )


def test_no_rider_dismounts_into_a_burning_cell():
    # F4: nobody enters a burning cell, from the saddle neither. The horse stands on 0407 and
    # 0406, beside the tent cell 0408, which burns.
    state = camp(
        {"k": ("knight", "defender", "0407")},
        first="defender",
        phase="move",
        horses={"h": {"side": "defender", "cells": ["0407", "0406"], "rider": "k"}},
    )
    assert "0408" in {a["to"] for a in legal(state, "defender", "dismount")}
    state["fires"] = {"0408": {"age": 1, "by": "besieger"}}
    spots = {a["to"] for a in legal(state, "defender", "dismount")}
    assert spots and "0408" not in spots
    with pytest.raises(RuleError):
        act(state, "defender", "/dismount unit:k to:0408")
