"""Wagons and draught animals (5.1) on the castle map's open ground."""

from __future__ import annotations

import pytest

from engine.core.errors import ScenarioError
from engine.siege import riders

from .helpers import RULES, act, build, legal, of

FAR = {"far": ("peasant", "defender", "2201")}
# A wagon facing east: front 0619, back 0519; its front cells are 0719, 0720 and 0620.
WAGON = {"w": {"side": "besieger", "cells": ["0619", "0519"], "animal": "team"}}
TEAM = {"team": {"side": "besieger", "cells": ["0819", "0719"]}}


def test_a_led_draught_horse_draws_its_wagon_behind_it():
    state = build(
        {"p": ("peasant", "besieger", "0919"), **FAR},
        phase="move",
        horses=TEAM,
        wagons=WAGON,
    )
    state, events = act(state, "besieger", "/lead unit:p horse:team to:1219")
    moved = of(events, "moved")[0]
    trail = ["0519", "0619", "0719", "0819", *moved["path"]]
    assert of(events, "horse_moved")[0]["to"] == [trail[-2], trail[-3]]
    assert of(events, "wagon_moved")[0]["to"] == [trail[-4], trail[-5]]
    assert state["wagons"]["w"]["cells"] == [trail[-4], trail[-5]]
    # The horse's rear stays in one of the wagon's front cells.
    board = RULES.board(state)
    front, back = state["wagons"]["w"]["cells"]
    rear = state["horses"]["team"]["cells"][1]
    assert board.distance(rear, front) == 1 and board.distance(rear, back) == 2


def test_an_ox_draws_a_wagon_and_nobody_rides_it():
    state = build(
        {"p": ("peasant", "besieger", "0819"), "k": ("knight", "besieger", "0620"), **FAR},
        phase="move",
        horses={"ox": {"side": "besieger", "cells": ["0719"], "kind": "ox"}},
        wagons={"w": {"side": "besieger", "cells": ["0619", "0519"], "animal": "ox"}},
    )
    assert not legal(state, "besieger", "mount")
    state, events = act(state, "besieger", "/lead unit:p horse:ox to:1019")
    assert state["horses"]["ox"]["cells"] == [of(events, "moved")[0]["path"][-2]]
    assert of(events, "wagon_moved")


def test_a_wagon_without_a_team_does_not_move_and_harnessing_takes_the_round():
    state = build(
        {"p": ("peasant", "besieger", "0820"), **FAR},
        phase="move",
        horses=TEAM,
        wagons={"w": {"side": "besieger", "cells": ["0619", "0519"]}},
    )
    # The horse can be led away on its own, but the wagon stays.
    state2, events = act(state, "besieger", "/lead unit:p horse:team to:1020")
    assert not of(events, "wagon_moved") and state2["wagons"]["w"]["cells"] == ["0619", "0519"]
    # The whole round: no move, no melee for the figure that harnessed, though an enemy
    # stands beside him in the melee step.
    state = build(
        {"p": ("peasant", "besieger", "0820"), "far": ("peasant", "defender", "0920")},
        phase="move",
        horses=TEAM,
        wagons={"w": {"side": "besieger", "cells": ["0619", "0519"]}},
    )
    state, events = act(state, "besieger", "/harness unit:p horse:team wagon:w")
    assert of(events, "harnessed") and state["wagons"]["w"]["animal"] == "team"
    assert not [a for a in legal(state, "besieger") if a.get("unit") == "p"]
    state, _ = act(state, "besieger", "/end-phase")
    state, _ = act(state, "besieger", "/end-phase")
    assert state["phase"] == "melee" and not legal(state, "besieger", "attack")
    fresh = build(
        {"p": ("peasant", "besieger", "0820"), "far": ("peasant", "defender", "0920")},
        phase="melee",
    )
    assert legal(fresh, "besieger", "attack")


def test_a_dead_draught_animal_is_unharnessed_in_a_round_and_the_wagon_is_stuck_till_then():
    state = build(
        {"p": ("peasant", "besieger", "0820"), **FAR},
        phase="move",
        horses={"team": {"side": "besieger", "cells": ["0819", "0719"], "dead": True}},
        wagons=WAGON,
    )
    assert not legal(state, "besieger", "lead")
    state, events = act(state, "besieger", "/unharness unit:p wagon:w")
    assert (
        of(events, "unharnessed")[0]["horse"] == "team" and state["wagons"]["w"]["animal"] is None
    )


def test_a_wagon_blocks_lines_on_its_level_but_not_from_the_wall():
    figs = {
        "wall": ("bowman", "defender", "0716"),
        "ground": ("bowman", "defender", "0319"),
        "t": ("peasant", "besieger", "0720"),
    }
    open_field = build(figs, active="defender")
    assert RULES._sight(open_field, "ground", "t").possible
    state = build(
        figs, active="defender", wagons={"w": {"side": "besieger", "cells": ["0719", "0619"]}}
    )
    blocked = RULES._sight(state, "ground", "t")
    assert not blocked.possible and any("wagon w blocks" in r for r in blocked.reasons)
    over = RULES._sight(state, "wall", "t")
    assert over.possible and "0719" in over.crossed


def test_nobody_enters_a_wagons_cells():
    state = build(
        {"m": ("man-at-arms", "besieger", "0419"), **FAR},
        phase="move",
        wagons={"w": {"side": "besieger", "cells": ["0619", "0519"]}},
    )
    reach = {a["to"] for a in legal(state, "besieger", "move")}
    assert not {"0519", "0619"} & reach and "0719" in reach


def test_a_draught_animal_is_struck_as_a_mounted_figure_with_defence_one():
    state = build(
        {"m": ("man-at-arms", "defender", "0818"), "x": ("peasant", "besieger", "2220")},
        phase="melee",
        active="defender",
        horses=TEAM,
        wagons=WAGON,
    )
    state, _ = act(state, "defender", "/attack unit:m target:team")
    state, events = act(state, "defender", "/fight", dice=[10])
    fight = of(events, "melee")[0]
    # 5 against 1: 5-1 on the mounted table, d10 10 -> A.
    assert fight["defence"] == 1 and "against mounted figures" in fight["text"]
    assert fight["column"] == "5-1" and state["horses"]["team"]["dead"]


def test_a_scenario_refuses_a_team_that_does_not_stand_before_its_wagon():
    with pytest.raises(ScenarioError, match="front cells"):
        build(
            {"p": ("peasant", "besieger", "1019"), **FAR},
            horses={"team": {"side": "besieger", "cells": ["0418", "0419"]}},
            wagons=WAGON,
        )


def test_the_picture_and_header_show_the_wagon_and_its_team():
    state = build({"p": ("peasant", "besieger", "0919"), **FAR}, horses=TEAM, wagons=WAGON)
    scene = RULES.scene(state, [], None)
    titles = {p["at"]: p["title"] for p in scene["pieces"]}
    assert titles["0619"] == "wagon w" and titles["0519"] == "wagon"
    assert dict(scene["header"])["Wagons"] == "w 0619-0519 (besieger) drawn by team"


def test_los_agrees_with_the_shot_about_wagons_and_horses():
    figs = {
        "ground": ("bowman", "defender", "0319"),
        "t": ("peasant", "besieger", "0720"),
    }
    state = build(
        figs, active="defender", wagons={"w": {"side": "besieger", "cells": ["0719", "0619"]}}
    )
    text = RULES.los(state, "0319", "0720")
    assert text.startswith("No shot") and "wagon w blocks" in text
    hugo = build(
        {
            "a": ("bowman", "defender", "0219"),
            "t": ("peasant", "besieger", "0619"),
            "hugo": ("knight", "besieger", "0418"),
        },
        active="defender",
        horses={"h": {"side": "besieger", "cells": ["0418", "0419"], "rider": "hugo"}},
    )
    assert not RULES._sight(hugo, "a", "t").possible
    assert RULES.los(hugo, "0219", "0619").startswith("No shot")


def test_on_the_camp_a_wagon_keeps_out_of_trenches_tents_and_trees():
    # 5.11: draught animals "haben die gleichen Einschränkungen zu beachten" as riderless
    # horses: no stop in a trench (3.1), no tent or tree (3.32); the wagon goes where they go.
    camp = {"map": "camp"}
    far = {"far": ("peasant", "defender", "0101")}
    for cells in (["1318", "1317"], ["1312", "1311"], ["1709", "1708"]):  # trench, tent, tree
        with pytest.raises(ScenarioError, match="a wagon stands only where a horse could"):
            build(
                {"p": ("peasant", "besieger", "1520"), **far},
                wagons={"w": {"side": "besieger", "cells": cells}},
                **camp,
            )
    state = build(
        {"p": ("peasant", "besieger", "1215"), **far},
        phase="move",
        horses={"team": {"side": "besieger", "cells": ["1216", "1217"]}},
        wagons={"w": {"side": "besieger", "cells": ["1218", "1219"], "animal": "team"}},
        **camp,
    )
    board = RULES.board(state)
    leads = legal(state, "besieger", "lead")
    assert leads
    for a in leads:
        plan = riders.lead_options(RULES, state, "besieger", "p")[("team", a["to"])]
        kinds = {board.cell(c).kind for c in plan["horse_cells"] + plan["wagon_cells"]}
        assert not kinds & {"trench", "tent", "tree"}
