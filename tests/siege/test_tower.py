"""The siege tower (rulebook 2.4): pushing it, moving in and on it, shooting from and at it,
fighting from its top, and figures on two layers of one cell."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core.errors import RuleError, ScenarioError
from renderer import render_png

from .helpers import RULES, act, build, legal, of

# A tower in the field south of the castle, its first cell 0619, forward = north.
FIELD = {"t": {"side": "besieger", "cells": ["0619", "0719", "0819"], "towards": "0618"}}
CREW = {
    "a": ("man-at-arms", "besieger", "0619"),
    "b": ("man-at-arms", "besieger", "0719"),
    "c": ("man-at-arms", "besieger", "0819"),
}
FAR = {"z": ("peasant", "defender", "1208")}
# A tower pushed onto filled moat against the south wall: its cells touch the parapets 0616-0816.
WALL = {"t": {"side": "besieger", "cells": ["0617", "0717", "0817"], "towards": "0616"}}
FILLED = ["0617", "0717", "0817"]


def _moves(state, fid):
    side = state["figures"][fid]["side"]
    return {(a["to"], a.get("level")) for a in legal(state, side, "move") if a["unit"] == fid}


def test_three_figures_inside_push_the_tower_straight_two_points_a_round():
    state = build(
        {**CREW, "top": ("archer", "besieger", "0719", "healthy", "top"), **FAR},
        phase="move",
        towers=FIELD,
    )
    # Forward one cell onto open ground (1 point each); two would reach the unfilled moat; back one
    # cell, then the map edge.
    assert {a["to"] for a in legal(state, "besieger", "roll")} == {"0618", "0620"}
    state, events = act(state, "besieger", "/roll tower:t to:0618")
    rolled = of(events, "tower_rolled")[0]
    assert rolled["to"] == ["0618", "0718", "0818"] and rolled["cost"] == 1
    assert [state["figures"][f]["at"] for f in "abc"] == ["0618", "0718", "0818"]
    assert state["figures"]["top"]["at"] == "0718"  # everyone inside rides along
    assert not legal(state, "besieger", "roll")  # once a round
    assert not _moves(state, "a")  # the crew has used its move


def test_the_tower_moves_only_with_three_able_figures_inside_and_over_flat_or_filled_ground():
    short = build({"a": CREW["a"], "b": CREW["b"], **FAR}, phase="move", towers=FIELD)
    assert not legal(short, "besieger", "roll")
    stunned = build(
        {**CREW, "c": ("man-at-arms", "besieger", "0819", "stunned"), **FAR},
        phase="move",
        towers=FIELD,
    )
    assert not legal(stunned, "besieger", "roll")
    near = {"t": {"side": "besieger", "cells": ["0618", "0718", "0818"], "towards": "0617"}}
    crew = {k: (v[0], v[1], v[2][:2] + "18") for k, v in CREW.items()}
    filled = build({**crew, **FAR}, phase="move", towers=near, filled_moat=FILLED)
    # A filled-moat step costs the tower 2: forward one cell only; back over open ground two.
    assert {a["to"] for a in legal(filled, "besieger", "roll")} == {"0617", "0619", "0620"}
    unfilled = build({**crew, **FAR}, phase="move", towers=near)
    assert {a["to"] for a in legal(unfilled, "besieger", "roll")} == {"0619", "0620"}


def test_the_tower_does_not_move_the_round_after_one_of_its_crew_fought():
    state = build(
        {**CREW, "e": ("peasant", "defender", "0520"), **FAR}, phase="melee", towers=FIELD
    )
    assert {a["target"] for a in legal(state, "besieger", "attack") if a["unit"] == "a"} == {"e"}
    state, _ = act(state, "besieger", "/attack unit:a target:e")
    state, events = act(state, "besieger", "/fight", dice=[10])
    for _ in range(6):  # the enemy phase, to our next move step
        state, _ = act(state, state["active"], "/end-phase")
    assert state["phase"] == "move" and state["active"] == "besieger"
    assert not legal(state, "besieger", "roll")
    for _ in range(8):  # a round later it may roll again
        state, _ = act(state, state["active"], "/end-phase")
    assert state["phase"] == "move" and state["active"] == "besieger"
    assert legal(state, "besieger", "roll")


def test_entering_costs_two_climbing_two_more_and_one_between_cells_of_a_level():
    state = build({"x": ("archer", "besieger", "0620"), **FAR}, phase="move", towers=FIELD)
    reach = _moves(state, "x")
    assert ("0619", None) in reach and ("0619", "top") in reach and ("0719", "top") in reach
    _, events = act(state, "besieger", "/move unit:x to:0619")
    assert of(events, "moved")[0]["cost"] == 2
    moved_state, events = act(state, "besieger", "/move unit:x to:0619 level:top")
    assert of(events, "moved")[0]["cost"] == 4 and moved_state["figures"]["x"]["layer"] == "top"
    _, events = act(state, "besieger", "/move unit:x to:0719 level:top")
    assert of(events, "moved")[0]["cost"] == 5  # in 2, along 1, up 2
    with pytest.raises(RuleError):
        act(state, "besieger", "/move unit:x to:0620 level:top")  # no platform outside a tower


def test_a_tower_cell_holds_one_figure_inside_and_one_on_top():
    state = build(
        {
            "a": CREW["a"],
            "up": ("archer", "besieger", "0619", "healthy", "top"),
            "x": ("archer", "besieger", "0620"),
            **FAR,
        },
        phase="move",
        towers=FIELD,
    )
    assert state["figures"]["up"]["layer"] == "top" and "layer" not in state["figures"]["a"]
    reach = _moves(state, "x")
    assert ("0619", None) not in reach and ("0619", "top") not in reach  # both layers taken
    assert ("0719", "top") in reach
    with pytest.raises(ScenarioError, match="one inside and one on top"):
        build({"a": CREW["a"], "b": ("man-at-arms", "besieger", "0619"), **FAR}, towers=FIELD)


def test_scenarios_put_figures_on_top_only_on_a_tower():
    spec = {
        "t": {"type": "archer", "side": "besieger", "at": "0619", "name": "T", "layer": "top"},
        "a": {"type": "man-at-arms", "side": "besieger", "at": "0619", "name": "A"},
        "z": {"type": "peasant", "side": "defender", "at": "1208", "name": "Z"},
    }
    from engine.siege.scenarios import normalise

    out = normalise({"figures": spec, "towers": FIELD}, "t.json", "t")
    assert out["figures"]["t"]["layer"] == "top" and "layer" not in out["figures"]["a"]
    with pytest.raises(ScenarioError, match="layer"):
        normalise(
            {"figures": {**spec, "t": {**spec["t"], "at": "0620"}}, "towers": FIELD}, "t.json", "t"
        )
    with pytest.raises(ScenarioError, match="stands only on"):
        normalise(
            {
                "figures": spec,
                "towers": {
                    "t": {**FIELD["t"], "cells": ["0617", "0717", "0817"], "towards": "0616"}
                },
            },
            "t.json",
            "t",
        )


def test_from_the_top_onto_an_adjacent_free_parapet_for_two_points_and_back():
    figs = {
        "u": ("man-at-arms", "besieger", "0717", "healthy", "top"),
        "z": ("peasant", "defender", "1208"),
    }
    state = build(figs, phase="move", towers=WALL, filled_moat=FILLED)
    reach = _moves(state, "u")
    assert ("0716", None) in reach
    state, events = act(state, "besieger", "/move unit:u to:0716")
    moved = of(events, "moved")[0]
    assert moved["path"][:2] == ["0717", "0716"] and moved["cost"] == 2
    assert "layer" not in state["figures"]["u"]
    back = build(
        {"p": ("man-at-arms", "defender", "0716"), "k": ("knight", "besieger", "1220")},
        phase="move",
        active="defender",
        towers=WALL,
        filled_moat=FILLED,
    )
    _, events = act(back, "defender", "/move unit:p to:0717 level:top")
    assert of(events, "moved")[0]["cost"] == 2
    blocked = build(
        {
            "u": ("man-at-arms", "besieger", "0717", "healthy", "top"),
            "p": ("man-at-arms", "defender", "0716"),
        },
        phase="move",
        towers=WALL,
        filled_moat=FILLED,
    )
    assert ("0716", None) not in _moves(blocked, "u")  # never onto an enemy


def test_top_fights_the_parapet_inside_fights_the_ground_never_across_the_levels():
    figs = {
        "u": ("knight", "besieger", "0717", "healthy", "top"),
        "i": ("man-at-arms", "besieger", "0817"),
        "p": ("peasant", "defender", "0716"),
        "g": ("peasant", "defender", "0918"),
        "q": ("peasant", "defender", "0617", "healthy", "top"),
    }
    state = build(figs, phase="melee", towers=WALL, filled_moat=FILLED)
    targets = {(a["unit"], a["target"]) for a in legal(state, "besieger", "attack")}
    assert ("u", "p") in targets and ("u", "q") in targets  # top-parapet, on the platform
    assert ("i", "g") in targets  # inside against the ground
    assert ("i", "q") not in targets and ("u", "g") not in targets  # never across the two levels
    state, _ = act(state, "besieger", "/attack unit:u target:p")
    state, events = act(state, "besieger", "/fight", dice=[1])
    text = of(events, "melee")[0]["text"]
    assert "0717 in a siege tower (2.4) (-)" in text and "defender on 0716 parapet (+)" in text


def test_advancing_from_the_top_onto_the_freed_parapet():
    figs = {
        "u": ("knight", "besieger", "0717", "healthy", "top"),
        "p": ("peasant", "defender", "0716", "stunned wounded"),
        "z": ("peasant", "defender", "1208"),
    }
    state = build(figs, phase="melee", towers=WALL, filled_moat=FILLED)
    state, _ = act(state, "besieger", "/attack unit:u target:p")
    state, events = act(state, "besieger", "/fight", dice=[10])
    assert state["figures"]["p"]["dead"] and of(events, "may_advance")
    state, events = act(state, "besieger", "/advance unit:u to:0716")
    assert state["figures"]["u"]["at"] == "0716" and "layer" not in state["figures"]["u"]


def test_shooting_from_the_top_over_lower_figures_within_ten_cells():
    figs = {
        "s": ("archer", "besieger", "0719", "healthy", "top"),
        "f": ("peasant", "besieger", "0718"),
        "t": ("peasant", "defender", "0713"),
        "near": ("peasant", "defender", "0715"),
    }
    state = build(figs, towers=FIELD)
    seen = RULES._sight(state, "s", "t")
    assert seen.possible, seen.reasons
    assert any("do not hinder the shot (2.43)" in r and "0718" in r for r in seen.reasons)
    # Over the parapet only at a target at least as far from the wall as the shooter (2.43).
    close = RULES._sight(state, "s", "near")
    assert not close.possible and "(1.45)" in close.reasons[-1]
    inside = build({**figs, "s": ("archer", "besieger", "0719")}, towers=FIELD)
    assert not RULES._sight(inside, "s", "t").possible
    # With the bridge up the courtyard is shut to shots from outside, not to the tower's top.
    shut = build({**figs, "s": ("archer", "besieger", "0720")}, bridge_up=True)
    assert not RULES._sight(shut, "s", "t").possible
    assert RULES._sight(build(figs, towers=FIELD, bridge_up=True), "s", "t").possible


def test_no_shot_from_the_top_at_a_target_with_a_friend_beside_it_on_its_level():
    figs = {
        "s": ("archer", "besieger", "0619", "healthy", "top"),
        "t": ("peasant", "defender", "1219"),
    }
    state = build(figs, towers=FIELD)
    assert RULES._sight(state, "s", "t").possible
    state = build({**figs, "f": ("peasant", "besieger", "1319")}, towers=FIELD)
    seen = RULES._sight(state, "s", "t")
    assert not seen.possible and "a friend of the shooter" in seen.reasons[-1]


def test_inside_total_cover_and_no_shooting_on_top_light_cover_never_through_the_tower():
    figs = {
        "in": ("archer", "besieger", "0619"),
        "top": ("man-at-arms", "besieger", "0719"),
        "d": ("archer", "defender", "0716"),
        "e": ("archer", "defender", "0519"),
    }
    state = build(figs, towers=FIELD, filled_moat=["0717"])
    state["figures"]["top"]["layer"] = "top"
    besieger_targets = {a["target"] for a in legal(state, "besieger", "shoot")}
    assert not besieger_targets  # from inside nobody shoots
    inside = RULES._sight(state, "d", "in")
    assert not inside.possible and "total cover" in inside.reasons[-1]
    on_top = RULES._sight(state, "d", "top")
    assert on_top.possible and on_top.cover in ("light", "medium", "heavy")
    assert "on top of a siege tower" in " ".join(on_top.reasons)
    through = RULES.los(state, "0520", "0920")
    assert "never through it (2.44)" in through


def test_a_falling_figure_may_land_on_another_figure_and_stuns_it():
    figs = {
        "k": ("knight", "besieger", "0703"),
        "p": ("peasant", "defender", "0704"),
        "m": ("man-at-arms", "besieger", "0702"),
    }
    state = build(
        figs, phase="melee", active="defender", ladders={"l1": {"at": "0703", "faces": "0704"}}
    )
    state, events = act(state, "defender", "/push unit:p ladder:l1", dice=[3])
    assert "0702" in of(events, "choose_landing")[0]["options"]  # on the friend below
    state, events = act(state, "besieger", "/land unit:k to:0702")
    assert state["figures"]["k"]["at"] == state["figures"]["m"]["at"] == "0702"
    assert state["figures"]["k"]["stunned"] and state["figures"]["m"]["stunned"]
    hit = of(events, "figure_hit")[0]
    assert hit["unit"] == "m" and hit["effect"] == "stun"


def test_a_figure_killed_by_its_fall_does_not_stun_the_one_below():
    figs = {
        "k": ("knight", "besieger", "0703", "wounded"),
        "p": ("peasant", "defender", "0704"),
        "m": ("man-at-arms", "besieger", "0702"),
    }
    state = build(
        figs, phase="melee", active="defender", ladders={"l1": {"at": "0703", "faces": "0704"}}
    )
    state, _ = act(state, "defender", "/push unit:p ladder:l1", dice=[3])
    state, events = act(state, "besieger", "/land unit:k to:0702")
    assert state["figures"]["k"]["dead"] and not state["figures"]["m"]["stunned"]
    assert not of(events, "figure_hit")


def test_the_picture_outlines_the_tower_and_stacks_its_two_levels():
    figs = {
        "u": ("knight", "besieger", "0717", "healthy", "top"),
        "i": ("man-at-arms", "besieger", "0717"),
        "j": ("man-at-arms", "besieger", "0617", "stunned"),
        "p": ("peasant", "defender", "0716"),
    }
    state = build(figs, towers=WALL, filled_moat=FILLED)
    scene = RULES.scene(state, [], None)
    pieces = {p["id"]: p for p in scene["pieces"]}
    assert pieces["u"]["slot"] == 0 and pieces["i"]["slot"] == 2  # top above, inside below
    assert pieces["j"]["color"] != pieces["i"]["color"]  # stunned: light counter
    outlined = {m["at"] for m in scene["markers"] if m["kind"] == "highlight"}
    assert outlined == set(FILLED)
    assert "on top of the siege tower" in RULES.describe(state, "unit", "u")
    image = Image.open(io.BytesIO(render_png(scene))).convert("RGB")
    counts = image.getcolors(1 << 20)

    def pixels_near(rgb):
        return sum(n for n, c in counts if all(abs(a - b) <= 3 for a, b in zip(c, rgb)))

    assert pixels_near((0x6E, 0x2C, 0x00)) > 500  # the tower's outline
    assert pixels_near((0xFF, 0xB0, 0x00)) > 200  # the stunned counter's tint


def test_a_figure_in_the_tower_retreats_along_its_level_of_the_tower():
    figs = {
        "p": ("knight", "defender", "0716"),
        "u": ("peasant", "besieger", "0717", "healthy", "top"),
        "i": ("peasant", "besieger", "0817"),
    }

    def beaten(state):
        state, _ = act(state, "defender", "/attack unit:p target:u")
        return act(state, "defender", "/fight", dice=[2])  # D: defenders retreat

    state, events = beaten(
        build(figs, phase="melee", active="defender", towers=WALL, filled_moat=FILLED)
    )
    assert of(events, "choose_retreat")[0]["options"] == [
        "0617",
        "0817",
    ]  # the platform's free cells
    state, _ = act(state, "besieger", "/retreat unit:u to:0817")
    assert state["figures"]["u"]["at"] == "0817" and state["figures"]["u"]["layer"] == "top"
    crowded = build(
        {
            **figs,
            "a": ("peasant", "besieger", "0617", "healthy", "top"),
            "b": ("peasant", "besieger", "0817", "healthy", "top"),
        },
        phase="melee",
        active="defender",
        towers=WALL,
        filled_moat=FILLED,
    )
    state, events = beaten(crowded)
    assert of(events, "cannot_retreat")[0]["unit"] == "u" and state["figures"]["u"]["stunned"]


def test_before_the_assault_the_besieger_puts_the_tower_at_any_map_edge_facing_as_he_wishes():
    state = build(
        {**CREW, "top": ("archer", "besieger", "0719", "healthy", "top"), **FAR},
        towers=FIELD,
        prepare={"towers": ["t"]},
    )
    assert state["phase"] == "prepare"
    places = {(a["at"], a["towards"]) for a in legal(state, "besieger", "place")}
    assert ("0620", "0619") in places and (
        "0619",
        "0618",
    ) not in places  # at the edge, not a row in
    assert ("2202", "2103") in places  # the eastern edge, facing west
    assert not any(at == "1110" for at, _ in places)  # never in the middle of the map
    state, events = act(state, "besieger", "/place tower:t at:2202 towards:2103")
    cells = of(events, "tower_placed")[0]["at"]
    assert cells[0] == "2202" and all(RULES.board(state).distance("2202", c) <= 2 for c in cells)
    assert [state["figures"][f]["at"] for f in ("a", "b", "c")] == cells  # the crew comes along
    assert state["figures"]["top"]["at"] == cells[1] and state["figures"]["top"]["layer"] == "top"
    assert state["phase"] == "fire1"  # then the assault begins
    # Forward is now west: the tower rolls along its new heading.
    state, _ = act(state, "besieger", "/end-phase")
    assert state["phase"] == "move"
    assert {a["to"] for a in legal(state, "besieger", "roll")} >= {"2103"}


def test_no_ladder_is_raised_in_a_siege_towers_cells():
    figs = {
        "a": ("man-at-arms", "besieger", "0618"),
        "b": ("man-at-arms", "besieger", "0718"),
        **FAR,
    }
    lying = {"l": {"at": "0618", "raised": False}}
    state = build(figs, phase="move", towers=WALL, filled_moat=FILLED, ladders=lying)
    state, _ = act(state, "besieger", "/carry unit:a with:b ladder:l")
    feet = {a["at"] for a in legal(state, "besieger", "raise")}
    assert feet and not feet & set(FILLED)  # the tower's cells are taken
    with pytest.raises(ScenarioError, match="siege tower stands there"):
        build(figs, towers=WALL, filled_moat=FILLED, ladders={"l": {"at": "0717", "faces": "0716"}})


@pytest.mark.parametrize(
    "entry",
    [
        {"towers": {"t": {**FIELD["t"], "towards": ["0618"]}}},
        {"towers": {"t": {**FIELD["t"], "cells": [["0619"], "0719", "0819"]}}},
        {"towers": {"t": {**FIELD["t"], "side": ["besieger"]}}},
        {"towers": FIELD, "prepare": {"towers": [["t"]]}},
        {"towers": FIELD, "prepare": {"towers": "t"}},
        {"towers": ["t"]},
        {"towers": {"t": "0619"}},
        {"towers": {"t": {**FIELD["t"], "cells": ["0619", "0720", "1010"]}}},
    ],
)
def test_malformed_siege_towers_in_a_scenario_are_refused_naming_the_entry(entry):
    from engine.siege.scenarios import normalise

    figs = {
        "a": {"type": "archer", "side": "besieger", "at": "0619"},
        "z": {"type": "peasant", "side": "defender", "at": "1208"},
    }
    with pytest.raises(ScenarioError, match=r"f\.json: (towers|prepare)"):
        normalise({"figures": figs, **entry}, "f.json", "f")


def test_los_from_the_top_agrees_with_the_shot_about_a_friend_beside_the_target():
    # /los judges with the same rules as /shoot (players must never argue about a line): from
    # the tower's top the shooter is the figure on the platform, and 2.43's friend rule holds.
    figs = {
        "s": ("archer", "besieger", "0619", "healthy", "top"),
        "t": ("peasant", "defender", "1219"),
    }
    free = RULES.los(build(figs, towers=FIELD), "0619", "1219")
    assert free.startswith("Shot possible") and ("(short)" in free or "(medium)" in free)
    state = build({**figs, "f": ("peasant", "besieger", "1319")}, towers=FIELD)
    answer = RULES.los(state, "0619", "1219")
    assert answer.startswith("No shot") and "a friend of the shooter" in answer
    assert not RULES._sight(state, "s", "t").possible
    assert RULES.los_scene(state, "0619", "1219")["arrows"][0]["text"] == "no shot"


def test_a_tower_pushed_to_the_maps_edge_can_be_pushed_back_the_next_round():
    """Found by the German refusal probe: a tower rolled forward onto the map's first row faces
    a cell off the map ("0600"), and every later list of legal actions crashed on it."""
    edge = {"t": {"side": "besieger", "cells": ["0602", "0702", "0802"], "towards": "0601"}}
    crew = {
        "a": ("man-at-arms", "besieger", "0602"),
        "b": ("man-at-arms", "besieger", "0702"),
        "c": ("man-at-arms", "besieger", "0802"),
        **FAR,
    }
    state = build(crew, phase="move", towers=edge)
    state, _ = act(state, "besieger", "/roll tower:t to:0601")
    assert state["towers"]["t"]["cells"] == ["0601", "0701", "0801"]
    state, _ = act(state, "besieger", "/end-phase")
    while not (state["active"] == "besieger" and state["phase"] == "move"):
        state, _ = act(state, state["active"], "/end-phase")
    assert state["turn"] == 2
    assert {a["to"] for a in legal(state, "besieger", "roll")} == {"0602"}
