"""Siege engines and the siege sheet: the ballista (3.4), onager and catapult bombarding the
walls before the assault (4.1, 4.2), breaches made by destruction (4.14)."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError, ScenarioError

from .helpers import RULES, act, build, legal, of

FAR = {"x": ("peasant", "defender", "2201")}
ONAGER = {"o1": {"kind": "onager", "side": "besieger"}}
CATAPULT = {"c1": {"kind": "catapult", "side": "besieger"}}
PARAPET, TOWER_SLIT, GATE_TOWER = "0816", "0404", "1216"


def next_day(state: dict) -> dict:
    """What siege-days does at a day's end (coord.md contract): the day counter goes up and the
    besieger's ``prepare`` step opens again. Here by hand, until that branch is merged."""
    return {
        **state,
        "day": state.get("day", 1) + 1,
        "phase": "prepare",
        "active": "besieger",
        "awaiting": ["besieger"],
    }


def aims(state, engine=None):
    return {a["at"] for a in legal(state, "besieger", "aim") if engine in (None, a["engine"])}


# ----- 4.1-4.2: bombarding walls -----------------------------------------------------------
def test_an_onager_bombards_a_wall_before_the_assault_and_d_breaks_off_one_step():
    state = build({"m": ("man-at-arms", "besieger", "0818"), **FAR}, engines=ONAGER)
    assert (state["phase"], state["active"]) == ("prepare", "besieger")
    assert PARAPET in aims(state, "o1") and "1109" not in aims(state)  # the keep's inside: no face
    state, events = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    assert of(events, "engine_aimed")
    assert "o1 onager off the map: 3/3 points; laid on 0816" in RULES.header(state)["Engines"]
    state, events = act(state, "besieger", f"/bombard at:{PARAPET}", dice=[8])
    shot = of(events, "bombarded")[0]
    assert (shot["points"], shot["roll"], shot["letter"]) == (3, 8, "D")
    assert of(events, "wall_damaged")[0]["name"] == "lightly damaged"
    assert "0816 lightly damaged" in RULES.header(state)["Walls"]
    assert "bombarded 0816 today, next on day 2" in RULES.header(state)["Engines"]
    # Nothing left to do with the engines: the assault begins.
    assert state["phase"] == "fire1" and of(events, "phase_started")
    # 4.13: a damaged wall keeps all its effects until destroyed.
    assert RULES.board(state).cell(PARAPET).kind == "parapet"


def test_engines_on_one_cell_add_their_points_for_one_roll():
    alone = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=ONAGER | CATAPULT)
    alone, _ = act(alone, "besieger", f"/aim engine:o1 at:{PARAPET}")
    alone, events = act(alone, "besieger", f"/bombard at:{PARAPET}", dice=[7])
    assert (of(events, "bombarded")[0]["points"], of(events, "bombarded")[0]["letter"]) == (3, "-")
    both = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=ONAGER | CATAPULT)
    both, _ = act(both, "besieger", f"/aim engine:o1 at:{PARAPET}")
    both, _ = act(both, "besieger", f"/aim engine:c1 at:{PARAPET}")
    both, events = act(both, "besieger", f"/bombard at:{PARAPET}", dice=[7])
    shot = of(events, "bombarded")[0]
    assert (shot["points"], shot["engines"], shot["letter"]) == (4, ["c1", "o1"], "D")


def test_one_cell_per_engine_and_at_most_one_ranged_step_per_cell_a_day():
    state = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=ONAGER | CATAPULT)
    state, _ = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    assert not aims(state, "o1")  # the onager is laid for the day
    state, _ = act(state, "besieger", f"/bombard at:{PARAPET}", dice=[10])
    # The wall took its step today: no engine may add another.
    assert PARAPET not in aims(state, "c1") and "0916" in aims(state, "c1")
    with pytest.raises(RuleError, match="bombarded today already"):
        act(state, "besieger", f"/aim engine:c1 at:{PARAPET}")
    state = next_day(state)
    assert PARAPET in aims(state, "o1") and PARAPET in aims(state, "c1")


def test_round_walls_take_one_off_the_die_the_gate_walls_count_as_parapets():
    rolls = {}
    for cell in (PARAPET, TOWER_SLIT, GATE_TOWER):
        state = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=ONAGER)
        state, _ = act(state, "besieger", f"/aim engine:o1 at:{cell}")
        state, events = act(state, "besieger", f"/bombard at:{cell}", dice=[8])
        shot = of(events, "bombarded")[0]
        rolls[cell] = (shot["modifier"], shot["letter"])
    assert rolls == {PARAPET: (0, "D"), TOWER_SLIT: (-1, "-"), GATE_TOWER: (0, "D")}


def test_the_fourth_step_lays_a_breach_and_wounds_the_figure_on_the_wall():
    figs = {"m": ("man-at-arms", "besieger", "0818"), "d": ("archer", "defender", PARAPET)}
    state = build(figs, engines=ONAGER, walls={PARAPET: 3})
    assert RULES.board(state).cell(PARAPET).kind == "parapet"  # badly damaged still stands
    state, _ = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    state, events = act(state, "besieger", f"/bombard at:{PARAPET}", dice=[9])
    assert of(events, "wall_damaged")[0]["name"] == "destroyed"
    assert [PARAPET, "breach"] in state["counters"]
    assert RULES.board(state).cell(PARAPET).kind == "breach"
    hit = of(events, "figure_hit")[0]
    assert (hit["unit"], hit["outcome"]) == ("d", "wounded")
    # Broken walls are not bombarded again.
    later = next_day(state)
    assert PARAPET not in aims(later)


def test_a_keep_wall_is_destroyed_only_after_a_neighbouring_keep_cell_is_damaged():
    figs = {"m": ("man-at-arms", "besieger", "0818"), **FAR}
    alone = build(figs, engines=ONAGER, walls={"1008": 3})
    assert "1008" not in aims(alone) and "1308" in aims(alone)
    beside = build(figs, engines=ONAGER, walls={"1008": 3, "1009": 1})
    assert "1008" in aims(beside)
    beside, _ = act(beside, "besieger", "/aim engine:o1 at:1008")
    beside, events = act(beside, "besieger", "/bombard at:1008", dice=[10])
    assert of(events, "wall_damaged")[0]["name"] == "destroyed"


def test_result_c_damages_the_engines_the_owner_shares_the_loss_and_a_day_repairs_them():
    state = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=ONAGER | CATAPULT)
    state, _ = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    state, _ = act(state, "besieger", f"/aim engine:c1 at:{PARAPET}")
    state, events = act(state, "besieger", f"/bombard at:{PARAPET}", dice=[1])
    assert of(events, "bombarded")[0]["letter"] == "C"
    assert of(events, "choose_engine_damage")[0]["among"] == ["c1", "o1"]
    assert {a["type"] for a in legal(state, "besieger")} == {"damage"}
    state, events = act(state, "besieger", "/damage engine:o1")
    assert of(events, "engine_damaged")[0] == {
        "type": "engine_damaged",
        "engine": "o1",
        "points_left": 2,
        "by": "C",
    }
    assert "o1 onager off the map: 2/3 points, damaged" in RULES.header(state)["Engines"]
    # Next day: a damaged engine still throws its remaining points, or the day goes to repair.
    state = next_day(state)
    state, events = act(state, "besieger", "/repair")
    assert of(events, "engines_repairing")[0]["engines"] == ["o1"]
    assert not aims(state, "o1") and aims(state, "c1")  # repairing engines do not shoot
    state = next_day(state)
    state, _ = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    state, events = act(state, "besieger", f"/bombard at:{PARAPET}", dice=[8])
    assert of(events, "bombarded")[0]["points"] == 3
    # Repaired is whole: a later result C damages it afresh.
    state = next_day(state)
    state, _ = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    state, events = act(state, "besieger", f"/bombard at:{PARAPET}", dice=[1])
    assert of(events, "engine_damaged")[0]["points_left"] == 2


def test_a_single_engine_takes_result_c_itself_and_a_catapult_at_nought_is_out():
    state = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=CATAPULT)
    state, _ = act(state, "besieger", f"/aim engine:c1 at:{PARAPET}")
    state, events = act(state, "besieger", f"/bombard at:{PARAPET}", dice=[1])
    assert of(events, "engine_damaged")[0]["points_left"] == 0
    assert not aims(next_day(state))


def test_end_phase_fires_the_engines_still_laid_and_an_engine_burnt_meanwhile_is_gone():
    state = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=ONAGER | CATAPULT)
    state, _ = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    state, _ = act(state, "besieger", f"/aim engine:c1 at:{PARAPET}")
    # siege-fire removes an engine destroyed by fire from the dict (coord.md).
    state = {**state, "engines": {k: v for k, v in state["engines"].items() if k != "c1"}}
    state, events = act(state, "besieger", "/end-phase", dice=[8])
    assert of(events, "bombarded")[0]["points"] == 3 and state["phase"] == "fire1"


def test_scenario_engines_and_walls_are_checked():
    figs = {"m": ("man-at-arms", "besieger", "0818"), **FAR}
    with pytest.raises(ScenarioError, match="walls"):
        build(figs, walls={"1109": 1})  # the keep's inside has no face to hit
    with pytest.raises(ScenarioError, match="engines.b.at"):
        build(figs, engines={"b": {"kind": "ballista", "side": "besieger"}})
    with pytest.raises(ScenarioError, match="figure stands there"):
        build(figs, engines={"b": {"kind": "ballista", "side": "besieger", "at": "0818"}})
    with pytest.raises(ScenarioError, match="engines.o.lost"):
        build(figs, engines={"o": {"kind": "onager", "side": "besieger", "lost": 4}})


# ----- 3.4: the ballista ---------------------------------------------------------------------
BALLISTA = {"b1": {"kind": "ballista", "side": "besieger", "at": "0519"}}
CREW = {
    "t": ("technician", "besieger", "0619"),
    "p": ("peasant", "besieger", "0520"),
    "d": ("man-at-arms", "defender", "0119"),
}


def _end_steps(state, count):
    for _ in range(count):
        state, _ = act(state, state["active"], "/end-phase")
    return state


def test_a_manned_ballista_shoots_on_the_fire_table_then_every_third_round():
    state = build(CREW, engines=BALLISTA, phase="fire1")
    assert {a["target"] for a in legal(state, "besieger", "bolt")} == {"d"}
    # /los from the ballista's cell judges its own line and range bands, as /bolt will.
    los = RULES.los(state, "0519", "0119")
    assert los.startswith("Shot possible from 0519 to 0119: range 4 (short)")
    assert "the ballista b1's range bands" in los
    state, events = act(state, "besieger", "/bolt engine:b1 target:d", dice=[5])
    shot = of(events, "shot")[0]
    assert (shot["band"], shot["cover"], shot["modifier"], shot["modified"]) == (
        "short",
        "none",
        2,
        7,
    )
    assert (shot["letter"], shot["outcome"]) == ("B", "wounded")
    assert "shoots after 3 more manned round(s)" in RULES.header(state)["Engines"]
    seen = []
    for _round in (2, 3, 4):
        state = _end_steps(state, 8)  # to the besieger's next step 1
        assert (state["turn"], state["phase"], state["active"]) == (_round, "fire1", "besieger")
        seen.append(bool(legal(state, "besieger", "bolt")))
    assert seen == [False, False, True]


def test_the_ballista_needs_two_adjacent_figures_one_a_technician_throughout():
    no_tech = {**CREW, "t": ("peasant", "besieger", "0619")}
    assert not legal(build(no_tech, engines=BALLISTA, phase="fire1"), "besieger", "bolt")
    alone = {k: v for k, v in CREW.items() if k != "p"}
    assert not legal(build(alone, engines=BALLISTA, phase="fire1"), "besieger", "bolt")
    # E2: a stunned figure does not work the ballista.
    dazed = {**CREW, "p": ("peasant", "besieger", "0520", "stunned")}
    assert not legal(build(dazed, engines=BALLISTA, phase="fire1"), "besieger", "bolt")
    # A crew member walking off loses the round markers at the end of the phase.
    state = build(CREW, engines=BALLISTA, phase="move")
    state, _ = act(state, "besieger", "/move unit:p to:0420")
    state = _end_steps(state, 3)
    assert state["engines"]["b1"]["markers"] == 0
    with pytest.raises(RuleError, match="Ballista b1 lacks its crew"):
        act(_end_steps(state, 4), "besieger", "/bolt engine:b1 target:d", dice=[9])


def test_no_shot_through_a_ballista_and_no_figure_enters_its_cell():
    figs = {
        "a": ("archer", "besieger", "0719"),
        "t": ("technician", "besieger", "0619"),
        "d": ("man-at-arms", "defender", "0319"),
    }
    state = build(figs, engines=BALLISTA, phase="fire1")
    seen = RULES._sight(state, "a", "d")
    assert not seen.possible and "0519: the ballista stands there" in seen.reasons[-1]
    assert "no shot through it (3.42)" in RULES.los(state, "0719", "0319")
    moving = build(figs, engines=BALLISTA, phase="move")
    reach = {a["to"] for a in legal(moving, "besieger", "move") if a["unit"] == "t"}
    assert "0519" not in reach and "0518" in reach
    why = _refused(moving, "/move unit:t to:0519")
    assert "No figure may enter 0519: the ballista b1 stands there (3.43)" in why


def test_the_besieger_sets_up_a_ballista_before_the_assault_and_it_stays_fixed():
    state = build(CREW, engines=BALLISTA, prepare={"engines": ["b1"]})
    assert state["phase"] == "prepare"
    spots = {a["at"] for a in legal(state, "besieger", "emplace")}
    assert "0818" in spots and "0619" not in spots and "0817" not in spots  # no figure, no moat
    state, events = act(state, "besieger", "/emplace engine:b1 at:0818")
    assert of(events, "engine_placed") and state["engines"]["b1"]["cells"] == ["0818"]
    assert state["phase"] == "fire1" and not legal(state, "besieger", "emplace")
    # 3.43: before each new day's assault it may be set up anew, once.
    state = next_day(state)
    state, _ = act(state, "besieger", "/emplace engine:b1 at:0519")
    assert state["engines"]["b1"]["cells"] == ["0519"] and not legal(state, "besieger", "emplace")
    assert "only before the day's assault" in _refused(state, "/emplace engine:b1 at:0818")
    # A ballista the scenario set on the map stays where it is on day 1, prepare step or not.
    fixed = build(CREW, engines=BALLISTA | ONAGER)
    assert fixed["phase"] == "prepare"
    assert "b1 stands fixed once on the map (3.43)" in _refused(fixed, "/emplace engine:b1 at:0818")


def test_an_onager_on_the_map_blocks_shots_and_cells_like_the_ballista():
    figs = {
        "a": ("archer", "besieger", "0719"),
        "t": ("technician", "besieger", "0619"),
        "d": ("man-at-arms", "defender", "0319"),
    }
    onager = {"o1": {"kind": "onager", "side": "besieger", "at": "0519"}}
    state = build(figs, engines=onager, phase="fire1")
    assert "0519: the onager stands there" in RULES._sight(state, "a", "d").reasons[-1]
    moving = build(figs, engines=onager, phase="move")
    assert "0519" not in {a["to"] for a in legal(moving, "besieger", "move") if a["unit"] == "t"}


def test_the_picture_and_header_show_engines_and_wall_damage():
    state = build(CREW, engines=BALLISTA | ONAGER, walls={PARAPET: 2}, phase="fire1")
    header = RULES.header(state)
    assert "b1 ballista 0519: 3/3 markers, ready to shoot; crew P, T" in header["Engines"]
    assert "o1 onager off the map: 3/3 points" in header["Engines"]
    assert header["Walls"] == "0816 damaged"
    scene = RULES.scene(state, [], None)
    piece = next(p for p in scene["pieces"] if p["id"] == "engine-b1")
    assert (piece["at"], piece["title"], piece["values"]) == ("0519", "ballista", "3/3")
    assert {"at": PARAPET, "kind": "breach", "text": "2"} in scene["markers"]


# ----- 4.3: the ram -------------------------------------------------------------------------
RAM = {
    "r1": {"kind": "ram", "side": "besieger", "cells": ["0818", "0819", "0820"], "towards": "0817"}
}
RAM_CREW = {
    "a": ("peasant", "besieger", "0818"),
    "b": ("peasant", "besieger", "0819"),
    "c": ("peasant", "besieger", "0820"),
    "x": ("peasant", "defender", "2201"),
}


def _at_the_wall(phase="melee", **extra):
    """The ram rolled onto the filled moat, its front against the parapet 0816."""
    ram = {"r1": {**RAM["r1"], "cells": ["0817", "0818", "0819"], "towards": "0816"}}
    figs = {
        **RAM_CREW,
        "a": ("peasant", "besieger", "0817"),
        "b": ("peasant", "besieger", "0818"),
        "c": ("peasant", "besieger", "0819"),
    }
    figs.update(extra.pop("figs", {}))
    return build(figs, engines=ram, filled_moat=["0817"], phase=phase, **extra)


def test_three_figures_under_the_ram_push_it_straight_like_the_siege_tower():
    state = build(RAM_CREW, engines=RAM, filled_moat=["0817"], phase="move")
    assert {a["to"] for a in legal(state, "besieger", "drive")} == {"0817"}  # back: off the map
    state, events = act(state, "besieger", "/drive engine:r1 to:0817")
    assert of(events, "ram_driven")[0]["cost"] == 2  # the filled moat costs the ram 2 (2.41)
    assert state["engines"]["r1"]["cells"] == ["0817", "0818", "0819"]
    assert state["engines"]["r1"]["towards"] == "0816"
    assert [state["figures"][f]["at"] for f in "abc"] == ["0817", "0818", "0819"]
    assert not legal(state, "besieger", "drive")  # once a round, its crew has used its move
    two = build({**RAM_CREW, "c": ("peasant", "besieger", "0720")}, engines=RAM, phase="move")
    assert not legal(two, "besieger", "drive")


def test_the_ram_at_a_wall_rolls_nine_points_every_second_round_ignoring_c():
    state = _at_the_wall()
    assert (
        "r1 ram 0817-0818-0819 facing 0816: may batter 0816 in the melee step"
        in (RULES.header(state)["Engines"])
    )
    away = build(RAM_CREW, engines=RAM, filled_moat=["0817"], phase="melee")
    assert (
        "facing 0817: its front touches no wall it may batter (4.32)"
        in (RULES.header(away)["Engines"])
    )
    state, events = act(state, "besieger", "/batter engine:r1", dice=[5])
    shot = of(events, "bombarded")[0]
    assert (shot["points"], shot["modifier"], shot["letter"]) == (9, 0, "D")
    assert of(events, "wall_damaged")[0]["step"] == 1
    assert "next roll in round 3" in RULES.header(state)["Engines"]
    state = _end_steps(state, 5)  # the defender's phase, then the besieger's round 2
    assert (state["turn"], state["active"]) == (2, "besieger")
    state = _end_steps(state, 3)
    assert state["phase"] == "melee" and not legal(state, "besieger", "batter")
    state = _end_steps(state, 8)
    assert (state["turn"], state["phase"]) == (3, "melee")
    # 4.32: an already damaged wall takes 1 off the die; result C is ignored.
    state, events = act(state, "besieger", "/batter engine:r1", dice=[1])
    shot = of(events, "bombarded")[0]
    assert (shot["modifier"], shot["letter"]) == (-1, "-") and not of(events, "engine_damaged")


def test_the_ram_stops_while_a_crew_member_fights_or_is_stunned():
    stunned = _at_the_wall(figs={"c": ("peasant", "besieger", "0819", "stunned")})
    assert not legal(stunned, "besieger", "batter")
    state = _at_the_wall(figs={"d": ("peasant", "defender", "0719")})
    assert legal(state, "besieger", "batter")
    state, _ = act(state, "besieger", "/attack unit:c target:d")
    # d10 4 on 1-1: no effect, so c stays under the ram, able, and no retreat is pending.
    state, events = act(state, "besieger", "/fight", dice=[4])
    assert of(events, "melee")[0]["letter"] == "-" and not state.get("retreat")
    assert not legal(state, "besieger", "batter")
    assert "one of its crew fought this round (4.34)" in _refused(state, "/batter engine:r1")


def test_the_ram_treats_the_gate_walls_as_parapets_and_towers_as_round():
    figs = {
        **RAM_CREW,
        "a": ("peasant", "besieger", "1217"),
        "b": ("peasant", "besieger", "1218"),
        "c": ("peasant", "besieger", "1219"),
    }
    ram = {
        "r1": {
            "kind": "ram",
            "side": "besieger",
            "cells": ["1217", "1218", "1219"],
            "towards": "1216",
        }
    }
    state = build(figs, engines=ram, filled_moat=["1217"], phase="melee")
    state, events = act(state, "besieger", "/batter engine:r1", dice=[5])
    assert of(events, "bombarded")[0]["modifier"] == 0
    corner = {
        **RAM_CREW,
        "a": ("peasant", "besieger", "0417"),
        "b": ("peasant", "besieger", "0418"),
        "c": ("peasant", "besieger", "0419"),
    }
    ram = {
        "r1": {
            "kind": "ram",
            "side": "besieger",
            "cells": ["0417", "0418", "0419"],
            "towards": "0416",
        }
    }
    state = build(corner, engines=ram, filled_moat=["0417"], phase="melee")
    assert RULES.board(state).cell("0416").kind == "tower-slit"
    state, events = act(state, "besieger", "/batter engine:r1", dice=[5])
    assert of(events, "bombarded")[0]["modifier"] == -1


def test_the_ram_blocks_lines_on_its_level_gives_total_cover_and_no_shots_from_under_it():
    figs = {
        "s": ("archer", "besieger", "1018"),
        "t": ("archer", "defender", "0618"),
        "w": ("archer", "defender", "0816"),
        "a": ("peasant", "besieger", "0819"),
        "u": ("peasant", "besieger", "0920"),
    }
    state = build(figs, engines=RAM, phase="fire1")
    across = RULES._sight(state, "s", "t")  # over the empty ram cell 0818
    assert not across.possible
    assert "0818: the ram stands there: no shot through it (4.33)" in across.reasons[-1]
    under = RULES._sight(state, "w", "a")
    assert not under.possible and "total cover under the ram (4.33)" in under.reasons[-1]
    assert "figures under a ram do not shoot (4.33)" in RULES.los(state, "0819", "0816")
    # From the wall (level 2) a line over the ram (level 1) is not blocked by it.
    over = RULES._sight(state, "w", "u")
    assert over.possible and "0818" in over.crossed


def test_figures_enter_a_ram_of_their_side_for_two_points_and_fight_from_under_it():
    figs = {**RAM_CREW, "c": ("peasant", "besieger", "1020"), "d": ("peasant", "defender", "0719")}
    state = build(figs, engines=RAM, phase="move")
    state, events = act(state, "besieger", "/move unit:c to:0820")
    assert of(events, "moved")[0]["cost"] == 1 + 2  # 0921 -> 0920, then under the ram
    theirs = build(figs, engines=RAM, phase="move", active="defender")
    reach = {a["to"] for a in legal(theirs, "defender", "move") if a["unit"] == "d"}
    assert "0820" not in reach and "0720" in reach
    melee = build(figs, engines=RAM, phase="melee")
    assert {"type": "attack", "side": "besieger", "unit": "b", "target": "d"} in legal(
        melee, "besieger", "attack"
    )


def test_engines_on_the_local_table_by_typed_commands(tmp_path):
    """The same commands typed on the local table, with a scenario file of one's own."""
    import io
    import json

    from service import table

    from .test_engines_discord import SCENARIO

    path = tmp_path / "engines.json"
    path.write_text(json.dumps(SCENARIO))
    script = tmp_path / "script.txt"
    script.write_text(
        "\n".join(
            [
                "besieger /aim engine:o1 at:0916",
                "besieger /bombard at:0916",
                "besieger /bolt engine:b1 target:d",
                "besieger /end-phase",
                "besieger /drive engine:r1 to:0817",
                "besieger /state",
            ]
        )
        + "\n"
    )
    out, err = io.StringIO(), io.StringIO()
    argv = ["--game", "siege", "--scenario", str(path), "--seed", "4"]
    code = table.main(
        [*argv, "--db", str(tmp_path / "t.db"), "--script", str(script)], stdout=out, stderr=err
    )
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    assert code == 0 and all(obj["ok"] for obj in lines), (err.getvalue(), lines)
    state = lines[-1]["state"]
    assert state["engines"]["r1"]["cells"] == ["0817", "0818", "0819"]
    assert (
        state["engines"]["b1"]["markers"] == 0 and state["siege_sheet"]["0916"]["rolled_day"] == 1
    )


def test_a_figure_falling_from_a_ladder_never_lands_in_an_engine():
    figs = {
        "c": ("man-at-arms", "besieger", "0817"),
        "t": ("technician", "besieger", "0919"),
        "d": ("man-at-arms", "defender", "0816"),
    }
    ladder = {"l1": {"at": "0817", "faces": "0816", "raised": True}}
    ballista = {"b1": {"kind": "ballista", "side": "besieger", "at": "0818"}}
    state = build(figs, ladders=ladder, engines=ballista, phase="melee", active="defender")
    state, events = act(state, "defender", "/push unit:d ladder:l1", dice=[1])
    options = of(events, "choose_landing")[0]["options"]
    assert "0818" not in options and "0717" in options


# ----- refusals say why --------------------------------------------------------------------
def _refused(state, command):
    with pytest.raises(RuleError) as caught:
        act(state, state["active"], command)
    return str(caught.value)


def test_refused_engine_commands_say_which_rule_stopped_them():
    alone = {k: v for k, v in CREW.items() if k != "p"}
    why = _refused(build(alone, engines=BALLISTA, phase="fire1"), "/bolt engine:b1 target:d")
    assert "Ballista b1 lacks its crew" in why and "one a technician (3.41)" in why
    state = build(CREW, engines=BALLISTA, phase="fire1")
    state, _ = act(state, "besieger", "/bolt engine:b1 target:d", dice=[1])
    why = _refused(_end_steps(state, 8), "/bolt engine:b1 target:d")
    assert "it has 1/3 round markers and shoots after 2 more round(s)" in why
    rested = _at_the_wall()
    rested, _ = act(rested, "besieger", "/batter engine:r1", dice=[1])
    why = _refused(_end_steps(rested, 8), "/batter engine:r1")
    assert "Ram r1 rolled in round 1: one roll every second round, the next in round 3" in why
    short = _at_the_wall(figs={"c": ("peasant", "besieger", "0819", "stunned")})
    assert "Ram r1 needs 3 able figures of its side under it" in _refused(
        short, "/batter engine:r1"
    )
    far = build(RAM_CREW, engines=RAM, filled_moat=["0817"], phase="melee")
    assert "Ram r1's front faces 0817: no wall" in _refused(far, "/batter engine:r1")
    state = build(FAR | {"m": ("man-at-arms", "besieger", "0818")}, engines=ONAGER)
    state, _ = act(state, "besieger", f"/aim engine:o1 at:{PARAPET}")
    why = _refused(state, "/aim engine:o1 at:0916")
    assert f"o1 is already laid on {PARAPET} today: one wall cell per engine a day" in why
    assert "No engine is laid on 0916 today" in _refused(state, "/bombard at:0916")
    # A decision waiting (here c's retreat) is named before any engine rule.
    waiting = _at_the_wall(figs={"d": ("peasant", "defender", "0719")})
    waiting, _ = act(waiting, "besieger", "/attack unit:c target:d")
    waiting, _ = act(waiting, "besieger", "/fight", dice=[1])  # E: attackers retreat
    assert "Legal: /retreat" in _refused(waiting, "/batter engine:r1")


def test_from_the_top_of_a_siege_tower_one_shoots_over_a_ballista_but_not_from_a_parapet():
    figs = {
        "a": ("man-at-arms", "besieger", "0619"),
        "top": ("archer", "besieger", "0719", "healthy", "top"),
        "d": ("archer", "defender", "0716"),
    }
    tower_field = {"t": {"side": "besieger", "cells": ["0619", "0719", "0819"], "towards": "0618"}}
    state = build(figs, towers=tower_field, engines={"b1": {**BALLISTA["b1"], "at": "0718"}})
    over = RULES._sight(state, "top", "d")
    assert over.possible and "0718" in over.crossed
    assert any("0718: the ballista is lower than the siege tower's top" in r for r in over.reasons)
    # 3.42 stands for everyone else: the archer on the parapet cannot shoot back through it.
    back = RULES._sight(state, "d", "top")
    assert not back.possible and "0718: the ballista stands there" in back.reasons[-1]


def test_a_crew_member_attacked_in_the_enemy_phase_stops_the_ram_in_the_next_melee_step():
    # 4.34 "in einen Kampf verwickelt": defending counts; E15: the enemy phase before this one.
    quiet = _at_the_wall(figs={"d": ("man-at-arms", "defender", "0719")}, active="defender")
    quiet = _end_steps(quiet, 4)
    assert (quiet["active"], quiet["phase"]) == ("besieger", "melee")
    assert legal(quiet, "besieger", "batter")
    state = _at_the_wall(figs={"d": ("man-at-arms", "defender", "0719")}, active="defender")
    state, _ = act(state, "defender", "/attack unit:d target:c")
    state, events = act(state, "defender", "/fight", dice=[3])  # no effect: c stays, able
    assert of(events, "melee")[0]["letter"] == "-" and not state.get("retreat")
    state = _end_steps(state, 4)
    assert (state["active"], state["phase"]) == ("besieger", "melee")
    assert not legal(state, "besieger", "batter")
    assert "one of its crew fought this round (4.34)" in _refused(state, "/batter engine:r1")


def test_a_ram_whose_crew_fought_last_round_does_not_move():
    # 4.31 "genauso wie ein Belagerungsturm": 2.41's rule (G14) holds for the ram too.
    figs = {**RAM_CREW, "d": ("man-at-arms", "defender", "0720")}
    quiet = build(figs, engines=RAM, filled_moat=["0817"], phase="melee", active="defender")
    quiet = _end_steps(quiet, 2)
    assert (quiet["active"], quiet["phase"]) == ("besieger", "move")
    assert legal(quiet, "besieger", "drive")
    state = build(figs, engines=RAM, filled_moat=["0817"], phase="melee", active="defender")
    state, _ = act(state, "defender", "/attack unit:d target:c")
    state, events = act(state, "defender", "/fight", dice=[3])  # no effect: c stays, able
    assert of(events, "melee")[0]["letter"] == "-" and not state.get("retreat")
    state = _end_steps(state, 2)
    assert (state["active"], state["phase"]) == ("besieger", "move")
    assert not legal(state, "besieger", "drive")
    assert "one of its crew fought last round" in _refused(state, "/drive engine:r1 to:0817")
