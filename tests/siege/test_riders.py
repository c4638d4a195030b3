"""Mounted figures and horses (3.3) on the castle map: two-cell counters, cover, melee,
mounting, leading and dead horses."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from engine.core.errors import RuleError, ScenarioError
from engine.siege import data, riders
from renderer import render_png
from tests.discord.conftest import clock, db_path, dice, german, reply_text, table  # noqa: F401

from .helpers import RULES, act, build, legal, of

FAR = {"far": ("peasant", "defender", "2201")}


def _horse(front, back, rider=None, side="besieger", **extra):
    return {"side": side, "cells": [front, back], **({"rider": rider} if rider else {}), **extra}


def _reach(state, fid):
    side = state["figures"][fid]["side"]
    return {a["to"] for a in legal(state, side, "move") if a["unit"] == fid}


def test_a_rider_moves_with_his_horse_the_back_following_the_front():
    state = build(
        {"k": ("knight", "besieger", "0519"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419", "k")},
    )
    reach = _reach(state, "k")
    # The mounted counter's movement (8, horses.json), not the knight's on foot (5).
    assert "1319" in reach and "1419" not in reach
    state, events = act(state, "besieger", "/move unit:k to:1319")
    moved = of(events, "moved")[0]
    assert moved["cost"] == 8
    # The back takes the cell the front passed last.
    assert of(events, "horse_moved")[0]["to"] == ["1319", moved["path"][-2]]
    assert state["horses"]["h"]["cells"] == ["1319", moved["path"][-2]]
    assert state["figures"]["k"]["at"] == "1319"


def test_horses_never_enter_the_moat_filled_or_not_nor_parapets_or_breaches():
    state = build(
        {"k": ("knight", "besieger", "0702"), **FAR},
        phase="move",
        filled_moat=["0703", "0803"],
        horses={"h": _horse("0702", "0701", "k")},
    )
    board = RULES.board(state)
    reach = _reach(state, "k")
    assert reach
    kinds = {board.cell(c).kind for c in reach}
    assert not kinds & {"moat", "filled-moat", "parapet", "breach"}
    # A man on foot crosses the same filled moat.
    foot = build(
        {"m": ("man-at-arms", "besieger", "0702"), **FAR}, filled_moat=["0703"], phase="move"
    )
    assert "0703" in _reach(foot, "m")


def test_no_horse_rides_onto_doors_stairs_or_into_towers_from_the_courtyard():
    state = build(
        {"k": ("knight", "defender", "0706"), "e": ("peasant", "besieger", "2201")},
        phase="move",
        active="defender",
        horses={"h": _horse("0706", "0806", "k", side="defender")},
    )
    board = RULES.board(state)
    kinds = {board.cell(c).kind for c in _reach(state, "k")}
    assert "courtyard" in kinds
    assert not kinds & {"stairs", "tower-door", "keep-door", "parapet", "tower"}


def test_a_scenario_refuses_a_horse_on_the_moat_and_a_rider_off_its_front_cell():
    with pytest.raises(ScenarioError, match="horses cannot stand on moat"):
        build(
            {"k": ("knight", "besieger", "0702"), **FAR}, horses={"h": _horse("0702", "0703", "k")}
        )
    with pytest.raises(ScenarioError, match="front cell"):
        build(
            {"k": ("knight", "besieger", "0701"), **FAR}, horses={"h": _horse("0702", "0701", "k")}
        )
    with pytest.raises(ScenarioError, match="only knight, sergeant ride"):
        build(
            {"p": ("peasant", "besieger", "0702"), **FAR}, horses={"h": _horse("0702", "0701", "p")}
        )


def test_the_rider_takes_the_better_cover_of_his_two_cells():
    figs = {"a": ("bowman", "defender", "0119"), "x": ("peasant", "defender", "0619")}
    on_foot = build({**figs, "k": ("knight", "besieger", "1119")}, active="defender")
    state, events = act(on_foot, "defender", "/shoot unit:a target:k", dice=[1])
    assert of(events, "shot")[0]["cover"] == "none"
    # Mounted, his horse's back on 1219, whose line passes over x at medium range: light cover.
    mounted = build(
        {**figs, "k": ("knight", "besieger", "1119")},
        active="defender",
        horses={"h": _horse("1119", "1219", "k")},
    )
    state, events = act(mounted, "defender", "/shoot unit:a target:k", dice=[1])
    shot = of(events, "shot")[0]
    assert shot["cover"] == "light" and shot["band"] == "medium"


def test_a_horses_back_cell_is_occupied_for_enemies_and_blocks_a_short_shot():
    figs = {
        "hugo": ("knight", "besieger", "0418"),
        "a": ("bowman", "defender", "0219"),
        "t": ("peasant", "besieger", "0619"),
    }
    clear = build(figs, active="defender")
    assert RULES._sight(clear, "a", "t").possible
    state = build(
        figs, phase="move", active="defender", horses={"h": _horse("0418", "0419", "hugo")}
    )
    los = RULES._sight(state, "a", "t")
    assert not los.possible and any("0419" in r and "Hugo" in r for r in los.reasons)
    walker = build(
        {"m": ("man-at-arms", "defender", "0320"), "hugo": ("knight", "besieger", "0418")},
        phase="move",
        active="defender",
        horses={"h": _horse("0418", "0419", "hugo")},
    )
    assert "0419" not in _reach(walker, "m") and "0420" in _reach(walker, "m")


def test_melee_against_a_rider_uses_the_mounted_table_without_the_several_attackers_shift():
    figs = {
        "a": ("man-at-arms", "defender", "0618"),
        "b": ("man-at-arms", "defender", "0620"),
        "k": ("knight", "besieger", "0619"),
    }
    mounted = build(
        figs, phase="melee", active="defender", horses={"h": _horse("0619", "0519", "k")}
    )
    state, _ = act(mounted, "defender", "/attack unit:a target:k")
    state, _ = act(state, "defender", "/attack unit:b target:k")
    state, events = act(state, "defender", "/fight", dice=[10])
    fight = of(events, "melee")[0]
    # 10 attack against the mounted knight's 8: 1-1, no shift for two attackers against a rider.
    assert fight["column"] == "1-1" and not any("several" in why for _, why in fight["shifts"])
    assert "against mounted figures" in fight["text"]
    # The mounted table's 1-1 row ends in C, the foot table's in B.
    assert fight["letter"] == "C"


def test_an_enemy_beside_the_horses_back_fights_the_rider():
    state = build(
        {"k": ("knight", "besieger", "0519"), "m": ("man-at-arms", "defender", "0320")},
        phase="melee",
        horses={"h": _horse("0519", "0419", "k")},
    )
    assert {"type": "attack", "side": "besieger", "unit": "k", "target": "m"} in legal(
        state, "besieger", "attack"
    )


def test_mounting_takes_the_whole_round_next_to_the_horse():
    figs = {"k": ("knight", "besieger", "0619"), "m": ("man-at-arms", "defender", "0320")}
    state = build(figs, phase="move", horses={"h": _horse("0519", "0419")})
    state, events = act(state, "besieger", "/mount unit:k horse:h")
    assert of(events, "mounted")[0]["to"] == "0519"
    assert state["figures"]["k"]["at"] == "0519" and state["horses"]["h"]["rider"] == "k"
    state, _ = act(state, "besieger", "/end-phase")
    state, _ = act(state, "besieger", "/end-phase")
    # Melee step: the knight, busy mounting, does not fight this round, though m stands
    # beside his horse's back; a knight who sat in the saddle already would.
    assert state["phase"] == "melee"
    assert not [a for a in legal(state, "besieger", "attack") if a["unit"] == "k"]
    seated = build(
        {**figs, "k": ("knight", "besieger", "0519")},
        phase="melee",
        horses={"h": _horse("0519", "0419", "k")},
    )
    assert [
        a for a in legal(seated, "besieger", "attack") if a["unit"] == "k" and a["target"] == "m"
    ]


def test_a_figure_away_from_the_horse_cannot_mount_and_says_why():
    state = build(
        {"k": ("knight", "besieger", "0919"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419")},
    )
    with pytest.raises(RuleError):
        act(state, "besieger", "/mount unit:k horse:h")


def test_only_knights_mount_captured_horses():
    horses = {"h": _horse("0519", "0419", side="defender")}
    sergeant = build({"s": ("sergeant", "besieger", "0619"), **FAR}, phase="move", horses=horses)
    assert not legal(sergeant, "besieger", "mount")
    knight = build({"k": ("knight", "besieger", "0619"), **FAR}, phase="move", horses=horses)
    state, events = act(knight, "besieger", "/mount unit:k horse:h")
    assert of(events, "mounted")[0].get("captured") and state["horses"]["h"]["side"] == "besieger"


def test_a_wounded_knight_can_neither_mount_nor_dismount():
    near = build(
        {"k": ("knight", "besieger", "0619", "wounded"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419")},
    )
    assert not legal(near, "besieger", "mount")
    riding = build(
        {"k": ("knight", "besieger", "0519", "wounded"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419", "k")},
    )
    assert not legal(riding, "besieger", "dismount")


def test_dismounting_puts_the_rider_beside_the_horse_which_stays():
    state = build(
        {"k": ("knight", "besieger", "0519"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419", "k")},
    )
    spots = {a["to"] for a in legal(state, "besieger", "dismount")}
    assert "0619" in spots and "0519" not in spots and "0419" not in spots
    state, events = act(state, "besieger", "/dismount unit:k to:0619")
    assert of(events, "dismounted")
    assert state["figures"]["k"]["at"] == "0619" and "horse" not in state["figures"]["k"]
    assert state["horses"]["h"] == {
        "side": "besieger",
        "cells": ["0519", "0419"],
        "rider": None,
        "dead": False,
    }
    # Back on foot: the knight's own factors.
    assert not [a for a in legal(state, "besieger", "move") if a["unit"] == "k"]


def test_a_riderless_horse_stands_until_a_figure_beside_it_leads_it():
    state = build(
        {"p": ("peasant", "besieger", "0619", "wounded"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419")},
    )
    # Nobody moves it by /move; the peasant, wounded even, leads it (3.34).
    state2, events = act(state, "besieger", "/lead unit:p horse:h to:0819")
    assert of(events, "moved")[0]["to"] == "0819"
    # The horse follows as an extension of the leader's counter: nearer cell in front.
    assert state2["horses"]["h"]["cells"] == ["0719", "0619"]
    alone = build(
        {"p": ("peasant", "besieger", "1519"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419")},
    )
    assert not legal(alone, "besieger", "lead")
    with pytest.raises(RuleError, match="P cannot get beside horse h and lead it on this move"):
        act(alone, "besieger", "/lead unit:p horse:h to:1319")
    # Beside the horse's back, a figure leads it too: the back turns into the front.
    behind = build(
        {"p": ("peasant", "besieger", "0320"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419")},
    )
    state3, events = act(behind, "besieger", "/lead unit:p horse:h to:0120")
    path = of(events, "moved")[0]["path"]
    assert state3["horses"]["h"]["cells"] == [path[-2], path[-3]]


def test_dead_horses_cost_movement_one_extra_two_impassable():
    one = build(
        {"m": ("man-at-arms", "besieger", "0419"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0619", dead=True)},
    )
    state, events = act(one, "besieger", "/move unit:m to:0519")
    assert of(events, "moved")[0]["cost"] == 2
    two = build(
        {"m": ("man-at-arms", "besieger", "0419"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0619", dead=True), "g": _horse("0519", "0520", dead=True)},
    )
    assert "0519" not in _reach(two, "m")
    figures_and_horse = build(
        {
            "m": ("man-at-arms", "besieger", "0419"),
            **{f"d{i}": ("peasant", "defender", "0519", "dead") for i in range(3)},
            **FAR,
        },
        phase="move",
        horses={"h": _horse("0519", "0619", dead=True)},
    )
    assert "0519" not in _reach(figures_and_horse, "m")


def test_a_rider_hit_by_a_shot_is_thrown_beside_his_horse_by_his_owner():
    state = build(
        {
            "a": ("bowman", "defender", "0119"),
            "k": ("knight", "besieger", "0519"),
            "x": ("peasant", "besieger", "2220"),
        },
        active="defender",
        horses={"h": _horse("0519", "0619", "k")},
    )
    # Short range, no cover: a 10 on the fire table wounds at least.
    state, events = act(state, "defender", "/shoot unit:a target:k", dice=[10])
    choose = of(events, "choose_landing")[0]
    assert choose["side"] == "besieger" and choose["thrown"]
    assert "0419" in choose["options"] and "0519" not in choose["options"]
    assert state["horses"]["h"]["rider"] is None
    state, events = act(state, "besieger", "/land unit:k to:0419")
    thrown = of(events, "thrown")[0]
    assert thrown["to"] == "0419" and not of(events, "fell")
    assert state["figures"]["k"]["at"] == "0419" and "horse" not in state["figures"]["k"]
    # The horse stays where it was, riderless.
    assert state["horses"]["h"]["cells"] == ["0519", "0619"]


def test_a_rider_with_no_free_cell_beside_his_horse_stays_in_the_saddle():
    # R5: the owner lays a thrown rider "auf ein Feld neben dem Pferd"; with every such cell
    # taken there is nowhere to lay him, and he stays on his horse in the state the result left.
    crowd = {
        f"p{i}": ("peasant", "besieger", c)
        for i, c in enumerate(["0618", "0518", "0418", "0419", "0520", "0719", "0620"])
    }
    state = build(
        {**crowd, "a": ("knight", "defender", "0720"), "k": ("knight", "besieger", "0519")},
        phase="melee",
        active="defender",
        horses={"h": _horse("0519", "0619", "k")},
    )
    state, _ = act(state, "defender", "/attack unit:a target:k")
    state, events = act(state, "defender", "/fight", dice=[10])
    assert of(events, "melee")[0]["letter"] == "C"  # 8 against 8, mounted 1-1: stunned
    assert not of(events, "choose_landing") and not of(events, "thrown")
    k = state["figures"]["k"]
    assert k["stunned"] and k["horse"] == "h" and k["at"] == "0519"
    assert state["horses"]["h"]["rider"] == "k"


def test_a_rider_who_loses_a_melee_is_thrown_and_the_winner_does_not_ride_into_the_horse():
    state = build(
        {
            "a": ("knight", "defender", "0419"),
            "s": ("sergeant", "besieger", "0519", "wounded"),
            "x": ("peasant", "besieger", "2220"),
        },
        phase="melee",
        active="defender",
        horses={"h": _horse("0519", "0619", "s")},
    )
    state, _ = act(state, "defender", "/attack unit:a target:s")
    # 10 vs the wounded sergeant's mounted 4: 2-1 on the mounted table, d10 10 -> B.
    state, events = act(state, "defender", "/fight", dice=[10])
    assert of(events, "melee")[0]["letter"] == "B"
    assert state["figures"]["s"]["dead"]
    assert of(events, "choose_landing")[0]["side"] == "besieger"
    assert state["horses"]["h"] == {
        "side": "besieger",
        "cells": ["0519", "0619"],
        "rider": None,
        "dead": False,
    }
    assert not of(events, "may_advance")  # the horse still stands on the rider's cell
    state, events = act(state, "besieger", "/land unit:s to:0520")
    assert of(events, "thrown")[0]["outcome"] == "dead"
    assert state["figures"]["s"]["at"] == "0520" and state["awaiting"] == ["defender"]


def test_a_rider_who_must_retreat_moves_his_horse_one_cell():
    state = build(
        {"a": ("knight", "defender", "0719"), "s": ("sergeant", "besieger", "0619")},
        phase="melee",
        active="defender",
        horses={"h": _horse("0619", "0519", "s")},
    )
    state, _ = act(state, "defender", "/attack unit:a target:s")
    # 10 vs 7: 1-1 on the mounted table, d10 8 -> D: the defender retreats.
    state, events = act(state, "defender", "/fight", dice=[8])
    assert of(events, "melee")[0]["letter"] == "D"
    # 0618 and 0720 are free too, but beside the attacker (1.72: next to no enemy if possible).
    assert of(events, "choose_retreat")[0]["options"] == ["0520", "0620"]
    if state.get("retreat"):
        option = of(events, "choose_retreat")[0]["options"][0]
        state, events = act(state, "besieger", f"/retreat unit:s to:{option}")
    moved = of(events, "horse_moved")[0]
    assert moved["from"] == ["0619", "0519"] and moved["to"][1] == "0619"
    assert state["figures"]["s"]["at"] == moved["to"][0]


def test_the_picture_shows_ridden_riderless_and_dead_horses_and_the_header_names_them():
    state = build(
        {"hugo": ("knight", "besieger", "0519"), "d": ("man-at-arms", "defender", "0719")},
        horses={
            "h1": _horse("0519", "0419", "hugo"),
            "h2": _horse("0918", "0919", side="defender"),
            "h3": _horse("0619", "0620", dead=True),
        },
    )
    scene = RULES.scene(state, [], None)
    at = {}
    for p in scene["pieces"]:
        at.setdefault(p["at"], []).append(p)
    # The rider's counter carries the mounted factors; his horse's back cell is its own counter.
    assert at["0519"][0]["values"] == "10-8-8"
    assert at["0419"][0]["title"] == "horse" and "Hugo" in at["0419"][0]["values"]
    assert at["0918"][0]["values"] == "no rider" and at["0919"][0]["values"] == "no rider"
    assert all(p["title"] == "+horse" for c in ("0619", "0620") for p in at[c])
    horses = dict(scene["header"])["Horses"]
    assert "ridden by Hugo" in horses and "h2 0918-0919 riderless" in horses and "h3 dead" in horses
    image = Image.open(io.BytesIO(render_png(scene))).convert("RGB")
    counts = image.getcolors(1 << 20)

    def pixels_near(rgb):
        return sum(n for n, c in counts if all(abs(a - b) <= 3 for a, b in zip(c, rgb)))

    assert pixels_near((0xD9, 0xC8, 0xF5)) > 300  # the riderless horse's pale counters


def test_a_riderless_horse_is_struck_on_the_mounted_table_with_defence_one():
    state = build(
        {"m": ("man-at-arms", "besieger", "0619"), **FAR},
        phase="melee",
        horses={"h": _horse("0519", "0419", side="defender")},
    )
    state, _ = act(state, "besieger", "/attack unit:m target:h")
    state, events = act(state, "besieger", "/fight", dice=[10])
    fight = of(events, "melee")[0]
    # 5 against 1: 5-1 on the table against mounted figures, d10 10 -> A: the horse dies.
    assert fight["defence"] == 1 and fight["column"] == "5-1" and fight["letter"] == "A"
    assert "against mounted figures" in fight["text"]
    assert of(events, "horse_killed") and state["horses"]["h"]["dead"]
    # Its two cells now hold a dead horse: one extra point to cross.
    assert RULES._dead_count(state)["0519"] == 3


def test_striking_a_ridden_horse_ignores_results_that_would_hurt_the_rider():
    state = build(
        {
            "m": ("man-at-arms", "besieger", "0619"),
            "k": ("knight", "defender", "0519"),
            "x": ("peasant", "besieger", "2220"),
        },
        phase="melee",
        horses={"h": _horse("0519", "0419", "k", side="defender")},
    )
    state, _ = act(state, "besieger", "/attack unit:m target:h")
    # 5 against the mounted knight's 8: below 1-1, no fight; a second attacker makes 10-8.
    assert not legal(state, "besieger", "fight")
    state = build(
        {
            "m": ("man-at-arms", "besieger", "0619"),
            "n": ("man-at-arms", "besieger", "0520"),
            "k": ("knight", "defender", "0519"),
        },
        phase="melee",
        horses={"h": _horse("0519", "0419", "k", side="defender")},
    )
    state, _ = act(state, "besieger", "/attack unit:m target:h")
    state, _ = act(state, "besieger", "/attack unit:n target:h")
    # Nobody else joins a melee against a horse.
    assert not [a for a in legal(state, "besieger", "attack") if a["target"] == "k"]
    state, events = act(state, "besieger", "/fight", dice=[10])
    fight = of(events, "melee")[0]
    assert fight["column"] == "1-1" and fight["letter"] == "C"  # mounted 1-1, d10 10: stunned
    assert of(events, "horse_unharmed")
    assert not state["figures"]["k"]["stunned"] and state["horses"]["h"]["rider"] == "k"


def test_a_wounding_result_against_a_ridden_horse_is_ignored_too():
    # 3.35 "wobei Ergebnisse, die eine Verwundung des Reiters nach sich ziehen, ignoriert
    # werden": B (wounded) leaves horse and rider as they were.
    state = build(
        {
            "a": ("knight", "besieger", "0619"),
            "b": ("man-at-arms", "besieger", "0520"),
            "c": ("man-at-arms", "besieger", "0418"),
            "k": ("knight", "defender", "0519"),
        },
        phase="melee",
        horses={"h": _horse("0519", "0419", "k", side="defender")},
    )
    for fid in "abc":
        state, _ = act(state, "besieger", f"/attack unit:{fid} target:h")
    state, events = act(state, "besieger", "/fight", dice=[10])
    fight = of(events, "melee")[0]
    assert fight["column"] == "2-1" and fight["letter"] == "B"  # 18 against 8, mounted table
    assert of(events, "horse_unharmed")[0]["letter"] == "B"
    assert not state["horses"]["h"]["dead"] and state["horses"]["h"]["rider"] == "k"
    assert not state["figures"]["k"]["wounded"]


def test_a_killed_horse_throws_its_rider_unhurt():
    state = build(
        {
            "m": ("knight", "besieger", "0619"),
            "n": ("knight", "besieger", "0520"),
            "s": ("sergeant", "defender", "0519", "wounded"),
        },
        phase="melee",
        horses={"h": _horse("0519", "0419", "s", side="defender")},
    )
    state, _ = act(state, "besieger", "/attack unit:m target:h")
    state, _ = act(state, "besieger", "/attack unit:n target:h")
    # 16 against the wounded sergeant's mounted 4: 4-1, d10 10 -> A.
    state, events = act(state, "besieger", "/fight", dice=[10])
    assert of(events, "melee")[0]["letter"] == "A" and state["horses"]["h"]["dead"]
    choose = of(events, "choose_landing")[0]
    assert choose["side"] == "defender" and choose["thrown"]
    state, events = act(state, "defender", f"/land unit:s to:{choose['options'][0]}")
    assert of(events, "thrown")[0]["outcome"] == "wounded"
    assert not state["figures"]["s"]["dead"]


def test_no_horse_enters_a_siege_towers_cells_which_men_on_foot_enter():
    tower = {"t": {"side": "besieger", "cells": ["0819", "0919", "1019"], "towards": "0818"}}
    state = build(
        {"k": ("knight", "besieger", "0619"), "m": ("man-at-arms", "besieger", "0719"), **FAR},
        phase="move",
        towers=tower,
        horses={"h": _horse("0619", "0519", "k")},
    )
    assert not {"0819", "0919", "1019"} & _reach(state, "k")
    assert "0819" in _reach(state, "m")


def test_a_winning_rider_advances_with_his_horse_into_the_freed_cell():
    state = build(
        {"k": ("knight", "besieger", "0619"), "p": ("peasant", "defender", "0719"), **FAR},
        phase="melee",
        horses={"h": _horse("0619", "0519", "k")},
    )
    state, _ = act(state, "besieger", "/attack unit:k target:p")
    # 10 against 2: 5-1 on the foot table, d10 10 -> A: the peasant dies, 0719 is freed.
    state, events = act(state, "besieger", "/fight", dice=[10])
    assert of(events, "may_advance")
    state, events = act(state, "besieger", "/advance unit:k to:0719")
    assert (
        state["horses"]["h"]["cells"] == ["0719", "0619"] and state["figures"]["k"]["at"] == "0719"
    )


CAVALRY = {
    "name": "cavalry",
    "last_turn": 6,
    "figures": {
        "hugo": {"type": "knight", "side": "besieger", "at": "0519"},
        "otto": {"type": "sergeant", "side": "besieger", "at": "0819"},
        "page": {"type": "peasant", "side": "besieger", "at": "0719"},
        "arch": {"type": "archer", "side": "besieger", "at": "0219"},
        "wolf": {"type": "knight", "side": "defender", "at": "1119"},
        "gerd": {"type": "sergeant", "side": "defender", "at": "1318"},
        "man": {"type": "man-at-arms", "side": "defender", "at": "1220"},
        "bow": {"type": "bowman", "side": "defender", "at": "1419"},
        "pea": {"type": "peasant", "side": "defender", "at": "1420"},
    },
    "horses": {
        "h1": {"side": "besieger", "cells": ["0519", "0419"], "rider": "hugo"},
        "h2": {"side": "besieger", "cells": ["0918", "0818"]},
        "h3": {"side": "defender", "cells": ["1119", "1019"], "rider": "wolf"},
        "h4": {"side": "defender", "cells": ["1418", "1518"]},
        "team": {"side": "besieger", "cells": ["0720", "0620"]},
        "ox": {"side": "defender", "cells": ["1720"], "kind": "ox"},
    },
    "wagons": {
        "w1": {"side": "besieger", "cells": ["0520", "0420"], "animal": "team"},
        "w2": {"side": "defender", "cells": ["1620", "1520"], "animal": "ox"},
    },
}


@pytest.mark.parametrize("seed", [2, 3, 7])
def test_random_play_with_riders_horses_and_wagons_finishes_consistent_and_replays(seed):
    from engine.core.game import autoplay, replay
    from engine.core.state import state_hash
    from engine.siege.scenarios import normalise

    scenario = normalise(CAVALRY, "cavalry", "cavalry")
    state, actions = autoplay(RULES, scenario, seed)
    assert state["result"]["winner"] in ("besieger", "defender")
    assert {"lead", "attack"} <= {a["type"] for a in actions}
    for hid, h in state["horses"].items():
        if h["rider"]:
            assert state["figures"][h["rider"]]["at"] == h["cells"][0]
    for fid, f in state["figures"].items():
        if f.get("horse"):
            assert state["horses"][f["horse"]]["rider"] == fid
    replayed, _ = replay(RULES, scenario, seed, actions)
    assert state_hash(replayed) == state_hash(state)


def test_next_to_a_siege_tower_a_riderless_horse_still_stands_in_the_way():
    tower = {"t": {"side": "besieger", "cells": ["0819", "0919", "1019"], "towards": "0818"}}
    state = build(
        {"m": ("man-at-arms", "defender", "0719"), "x": ("peasant", "besieger", "2220")},
        phase="move",
        active="defender",
        towers=tower,
        horses={"h": _horse("0619", "0519")},
    )
    reach = _reach(state, "m")
    assert "0819" in reach and not {"0619", "0519"} & reach


def test_a_led_horse_never_ends_on_another_horse_and_riders_carry_no_ladders():
    state = build(
        {
            "p": ("peasant", "besieger", "0619"),
            "k": ("knight", "besieger", "0819"),
            **FAR,
        },
        phase="move",
        horses={"h": _horse("0519", "0419"), "r": _horse("0819", "0919", "k")},
        ladders={"l": {"at": "0719", "raised": False}},
    )
    leads = legal(state, "besieger", "lead")
    assert leads
    for a in leads:
        after, _ = act(state, "besieger", f"/lead unit:p horse:h to:{a['to']}")
        assert not set(after["horses"]["h"]["cells"]) & {"0819", "0919"}
    assert not [a for a in legal(state, "besieger", "carry") if "k" in (a["unit"], a["with"])]


def test_a_horse_is_shot_like_its_rider_and_only_a_killing_result_counts():
    figs = {
        "a": ("bowman", "defender", "0119"),
        "x": ("peasant", "defender", "0619"),
        "p": ("peasant", "besieger", "2220"),
    }
    horses = {"h": _horse("1119", "1219")}
    state = build(figs, active="defender", horses=horses)
    assert {"type": "shoot", "side": "defender", "unit": "a", "target": "h"} in legal(
        state, "defender", "shoot"
    )
    # Medium range; its back cell's line passes over x: light cover, as a rider would have.
    hit, events = act(state, "defender", "/shoot unit:a target:h", dice=[10])
    shot = of(events, "shot")[0]
    assert shot["cover"] == "light" and shot["letter"] != "A"
    assert of(events, "horse_unharmed") and not hit["horses"]["h"]["dead"]
    near = build(
        {"a": ("bowman", "defender", "0419"), "p": ("peasant", "besieger", "2220")},
        active="defender",
        horses={"h": _horse("0619", "0719")},
    )
    killed, events = act(near, "defender", "/shoot unit:a target:h", dice=[10])
    assert of(events, "shot")[0]["letter"] == "A" and of(events, "horse_killed")
    assert killed["horses"]["h"]["dead"]


def test_the_horses_table_validates_and_a_broken_one_names_its_entry(tmp_path):
    import json

    from engine.siege import data, riders

    assert riders.spec()["riderless_defence"] == 1
    raw = json.loads((data.DATA_DIR / "horses.json").read_text(encoding="utf-8"))
    raw["mounted"]["knight"]["wounded"]["defence"] = 0
    path = tmp_path / "horses.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"mounted\.knight\.wounded"):
        riders.load_spec(path, "horses.json")
    raw["mounted"] = {"dragon": raw["mounted"]["knight"]}
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"mounted\.dragon"):
        riders.load_spec(path, "horses.json")
    # The camp's kinds say in terrain.json what horses may do there; this file may not
    # contradict it (a trench is crossed, not closed).
    good = json.loads((data.DATA_DIR / "horses.json").read_text(encoding="utf-8"))
    for wrong, why in (
        ("trench", "'trench' is cross-only for horses in terrain.json"),
        ("lava", "'lava' is not a terrain kind"),
    ):
        path.write_text(
            json.dumps({**good, "impassable": [*good["impassable"], wrong]}), encoding="utf-8"
        )
        with pytest.raises(ScenarioError, match=why):
            riders.load_spec(path, "horses.json")


def test_the_picture_draws_a_strike_at_a_horse_and_the_melee_header_names_it():
    state = build(
        {"m": ("man-at-arms", "besieger", "0619"), **FAR},
        phase="melee",
        horses={"h": _horse("0519", "0419", side="defender")},
    )
    state, _ = act(state, "besieger", "/attack unit:m target:h")
    assert dict(RULES.scene(state, [], None)["header"])["Melee"] == "M vs horse h"
    state, events = act(state, "besieger", "/fight", dice=[10])
    scene = RULES.scene(state, events, None)
    strikes = [a for a in scene["arrows"] if a["kind"] == "attack"]
    assert strikes[0]["path"] == ["0619", "0519"] and strikes[0]["text"].endswith("A")
    assert render_png(scene)[:8] == b"\x89PNG\r\n\x1a\n"


# ----- on the camp map (3.1-3.3 together) ----------------------------------------------------


def _camp(figs: dict, **extra) -> dict:
    return build({**figs, "far": ("peasant", "defender", "0101")}, map="camp", **extra)


def test_a_rider_crosses_a_trench_past_a_figure_in_it_but_never_stops_on_one():
    # 3.32: "können Reiter diese wohl überqueren, selbst wenn sich eine Figur auf dem Feld
    # befindet"; the 3.1 chart: "Pferde können den Graben überqueren, aber nicht anhalten".
    figs = {"k": ("knight", "besieger", "1418"), "x": ("crossbowman", "defender", "1417")}
    state = _camp(figs, phase="move", horses={"h": _horse("1418", "1419", "k")})
    board = RULES.board(state)
    plans = RULES._move_plans(state, "besieger", "k")["k"]
    assert plans["1415"]["path"] == ["1418", "1417", "1416", "1415"]
    assert not [
        end
        for end, p in plans.items()
        if any(board.cell(c).kind == "trench" for c in p["horse_cells"])
    ]
    state, events = act(state, "besieger", "/move unit:k to:1415")
    assert of(events, "moved")[0]["path"] == ["1418", "1417", "1416", "1415"]
    assert state["horses"]["h"]["cells"] == ["1415", "1416"]
    assert state["figures"]["x"]["at"] == "1417" and not state["figures"]["x"]["wounded"]
    with pytest.raises(RuleError):
        act(
            _camp(figs, phase="move", horses={"h": _horse("1418", "1419", "k")}),
            "besieger",
            "/move unit:k to:1417",
        )
    # On foot the same knight may not pass the crossbowman (1.61): he goes round him.
    walker = _camp(figs, phase="move")
    assert "1417" not in RULES._move_plans(walker, "besieger", "k")["k"]["1416"]["path"]
    # Nor does a scenario park a horse in a trench.
    with pytest.raises(ScenarioError, match="1417: horses cross a trench but never stop on one"):
        _camp({"k": ("knight", "besieger", "1418")}, horses={"h": _horse("1418", "1417", "k")})


def test_trees_and_tents_are_closed_to_horses_but_not_to_men_on_foot():
    # 3.32: "Bäume und Zelte" are "für Pferde und deren Reiter unpassierbar".
    figs = {"k": ("knight", "besieger", "1210"), "m": ("man-at-arms", "besieger", "1709")}
    state = _camp(figs, phase="move", horses={"h": _horse("1210", "1110", "k")})
    board = RULES.board(state)
    kinds = {board.cell(c).kind for c in _reach(state, "k")}
    assert "open" in kinds and not kinds & {"tree", "tent"}
    with pytest.raises(ScenarioError, match="horses cannot stand on tent"):
        _camp({"k": ("knight", "besieger", "1210")}, horses={"h": _horse("1210", "1311", "k")})
    foot = _reach(state, "m")
    assert "1708" in foot  # the tree beside him
    assert "1311" in _reach(_camp({"m": ("man-at-arms", "besieger", "1210")}, phase="move"), "m")
    # A burnt tent is flat ground again; a horse crosses it.
    burnt = _camp(
        figs, phase="move", burnt_tents=["1311"], horses={"h": _horse("1210", "1110", "k")}
    )
    assert "1311" in _reach(burnt, "k")


def test_a_rider_in_an_open_and_a_thicket_cell_has_light_cover_as_in_the_example():
    # 3.31 "Beispiel: Eine Figur zu Pferd befindet sich in einem 'Ebenefeld' und in einem
    # 'Dickichtfeld'. Sie besitzt folglich leichte Deckung."
    figs = {"a": ("archer", "defender", "0705"), "k": ("knight", "besieger", "0711")}
    on_foot = _camp(figs, active="defender")
    _, events = act(on_foot, "defender", "/shoot unit:a target:k", dice=[1])
    assert of(events, "shot")[0]["cover"] == "none"
    mounted = _camp(figs, active="defender", horses={"h": _horse("0711", "0712", "k")})
    _, events = act(mounted, "defender", "/shoot unit:a target:k", dice=[1])
    assert of(events, "shot")[0]["cover"] == "light"


def test_horses_and_engines_never_share_a_cell():
    # 3.32: "alle Felder, in denen sich Belagerungsmaschinen befinden" are closed to horses; so
    # no ram rolls onto a horse either, nor does a scenario set an engine on one.
    ram = {
        "r1": {
            "kind": "ram",
            "side": "besieger",
            "cells": ["0817", "0818", "0819"],
            "towards": "0816",
        }
    }
    crew = {
        "a": ("peasant", "besieger", "0817"),
        "b": ("peasant", "besieger", "0818"),
        "c": ("peasant", "besieger", "0819"),
        **FAR,
    }
    free = build(crew, engines=ram, filled_moat=["0817"], phase="move")
    assert [a["to"] for a in legal(free, "besieger", "drive")] == ["0818"]  # rolled back
    blocked = build(
        crew,
        engines=ram,
        filled_moat=["0817"],
        phase="move",
        horses={"h": _horse("0920", "0820", side="defender")},
    )
    assert not legal(blocked, "besieger", "drive")
    with pytest.raises(RuleError):
        act(blocked, "besieger", "/drive engine:r1 to:0818")
    with pytest.raises(
        ScenarioError, match="a siege tower, ladder, engine, horse or wagon stands there"
    ):
        build(
            {"a": ("peasant", "besieger", "0817"), **FAR},
            engines=ram,
            filled_moat=["0817"],
            horses={"h": _horse("0920", "0819", side="defender")},
        )
    # On the camp a rider passes the ballista but never rides onto it.
    ballista = {"b1": {"kind": "ballista", "side": "besieger", "at": "1115"}}
    state = _camp(
        {"k": ("knight", "defender", "1116"), "g": ("peasant", "besieger", "2401")},
        engines=ballista,
        phase="move",
        first="defender",
        horses={"h": _horse("1116", "1117", "k", side="defender")},
    )
    reach = _reach(state, "k")
    assert "1114" in reach and "1115" not in reach
    with pytest.raises(ScenarioError, match="b1.at"):
        _camp(
            {"k": ("knight", "defender", "1116"), "g": ("peasant", "besieger", "2401")},
            engines={"b1": {"kind": "ballista", "side": "besieger", "at": "1117"}},
            horses={"h": _horse("1116", "1117", "k", side="defender")},
        )


def test_no_horse_is_ridden_or_led_into_a_burning_cell():
    # A fire outlives its engine until the round ends (an engine smashed while it burns); men
    # on foot keep out of it (3.54), and so do horses, ridden or led.
    figs = {"k": ("knight", "besieger", "1116"), "m": ("man-at-arms", "besieger", "1012")}
    horses = {"h": _horse("1116", "1117", "k"), "g": _horse("1013", "1014")}
    state = _camp(figs, phase="move", horses=horses)

    def led_onto(state, cells):
        return [
            a["to"]
            for a in legal(state, "besieger", "lead")
            if cells
            & set(riders.lead_options(RULES, state, "besieger", "m")[("g", a["to"])]["horse_cells"])
        ]

    assert "1115" in _reach(state, "k") and led_onto(state, {"1115"})
    state["fires"] = {"1115": {"age": 1, "by": "defender"}}
    reach = _reach(state, "k")
    assert reach and "1115" not in reach
    assert not [
        e for e, p in RULES._move_plans(state, "besieger", "k")["k"].items() if "1115" in p["path"]
    ]
    assert legal(state, "besieger", "lead") and not led_onto(state, {"1115"})


def test_a_rider_pays_for_a_dead_horse_and_is_stopped_by_one_beside_three_dead_figures():
    # 1.61 (4) "drei tote Figuren oder ein totes Pferd": one point more; (5) "drei tote Figuren
    # und ein totes Pferd": impassable; for riders as for men on foot (R7).
    rider = {"k": ("knight", "besieger", "1216")}
    horses = {"h": _horse("1216", "1217", "k"), "dead": _horse("1215", "1315", dead=True)}
    clear = _camp(rider, phase="move", horses={"h": horses["h"]})
    _, events = act(clear, "besieger", "/move unit:k to:1214")
    assert of(events, "moved")[0]["cost"] == 2
    one = _camp(rider, phase="move", horses=horses)
    plans = RULES._move_plans(one, "besieger", "k")["k"]
    assert plans["1215"]["cost"] == 2 and plans["1214"]["cost"] == 3
    dead = {f"d{i}": ("peasant", "defender", "1215", "dead") for i in range(3)}
    blocked = _camp({**rider, **dead}, phase="move", horses=horses)
    assert not [
        e
        for e, p in RULES._move_plans(blocked, "besieger", "k")["k"].items()
        if "1215" in p["path"]
    ]
    assert "1214" in _reach(blocked, "k")  # round about


def test_a_rider_in_melee_stands_on_the_worse_of_his_two_cells(monkeypatch):
    # 3.35 "Wichtig: Figuren zu Pferd, die in einen Nahkampf verwickelt sind, befinden sich auf
    # dem Gelände ..., das für sie am wenigsten vorteilhaft ist." Every kind a horse may stand
    # on is "0" in our terrain table (slopes and thickets too, C2), so on the packaged maps the
    # clause changes nothing yet; here one cell of the horse gets "-", as an edit of the table
    # could give it, and the melee reads it from whichever cell it is.
    kinds = data.terrain()["kinds"]
    open_to_horses = {
        k
        for k, v in kinds.items()
        if k not in riders.horse_kinds()[0] | riders.horse_kinds()[1]
        and v["cost"] is not None
        and not v.get("building")
    }
    assert "thicket" in open_to_horses and {kinds[k]["melee"] for k in open_to_horses} == {"0"}
    figs = {"k": ("sergeant", "besieger", "0711", "wounded"), "m": ("knight", "defender", "0710")}
    for back in ("0712", "0611"):
        state = _camp(
            figs, phase="melee", active="defender", horses={"h": _horse("0711", back, "k")}
        )
        board = RULES.board(state)
        monkeypatch.setitem(board.cells, back, dataclasses.replace(board.cell(back), melee="-"))
        state, _ = act(state, "defender", "/attack unit:m target:k")
        _, events = act(state, "defender", "/fight", dice=[5])
        fight = of(events, "melee")[0]
        assert f"{back}" in fight["text"] and "the rider's worse cell, 3.35" in fight["text"]
        assert any(shift == 1 for shift, _ in fight["shifts"])
        monkeypatch.undo()
    # Attacking, the rider fights from his worse cell too (1.72: the attackers' worst terrain).
    figs = {"k": ("knight", "besieger", "0711"), "m": ("man-at-arms", "defender", "0710")}
    state = _camp(figs, phase="melee", horses={"h": _horse("0711", "0712", "k")})
    board = RULES.board(state)
    monkeypatch.setitem(board.cells, "0712", dataclasses.replace(board.cell("0712"), melee="-"))
    state, _ = act(state, "besieger", "/attack unit:k target:m")
    _, events = act(state, "besieger", "/fight", dice=[5])
    fight = of(events, "melee")[0]
    assert "the rider's worse cell, 3.35" in fight["text"] and any(
        s == -1 for s, _ in fight["shifts"]
    )


def test_camp_raid_on_the_table_refuses_riders_with_the_horse_rule_and_changes_nothing(tmp_path):
    """Konrad and Dietrich ride in scenario 3 (camp-raid), typed as a stranger would: a trench,
    the ballista, a tent, a cell too far, a second move and a man-at-arms mounting are refused
    with their reason, and nothing moves; Dietrich's ride across the trench goes through."""
    import json

    from service import table as local_table

    script = tmp_path / "script.txt"
    typed = [
        "/end-phase",
        "/move unit:Konrad to:1017",
        "/move unit:Konrad to:1115",
        "/move unit:Konrad to:1308",
        "/move unit:Konrad to:2010",
        "/mount unit:Ulrich horse:konrads-horse",
        "/move unit:Dietrich to:1416",
        "/move unit:Dietrich to:1316",
        "/state",
    ]
    script.write_text("\n".join(typed) + "\n")
    out = io.StringIO()
    argv = [
        "--game",
        "siege",
        "--scenario",
        "camp-raid",
        "--seed",
        "1",
        "--db",
        str(tmp_path / "c.db"),
    ]
    assert local_table.main([*argv, "--script", str(script)], stdout=out, stderr=io.StringIO()) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    _, trench, ballista, tent, far, footman, across, again, final = lines
    assert "Konrad's horse may cross the trench at 1017 but not stop on it" in trench["error"]
    assert "no horse enters 1115 (a ballista; 3.32)" in ballista["error"]
    assert "no horse enters 1308 (tent; 3.32)" in tent["error"]
    assert "Konrad's horse cannot reach 2010 this move: it has 8 movement points" in far["error"]
    assert "Ulrich cannot mount: only knights and sergeants ride" in footman["error"]
    assert across["ok"] and "Dietrich has already had his turn this phase." in again["error"]
    state = final["state"]
    assert state["horses"]["konrads-horse"]["cells"] == ["1120", "1020"]
    assert state["horses"]["dietrichs-horse"]["cells"][0] == "1416"
    assert state["figures"]["guilhem"]["at"] == "1417"


async def test_a_german_player_hears_the_horse_rule_in_german(table, german):  # noqa: F811
    """Under SimCord with a German client: Konrad (camp-raid) typed onto a trench and a tent is
    refused in German, naming the rule, and nothing moves."""
    created = await table.alice.slash(
        table.channel, "game new", ruleset="siege", scenario="camp-raid"
    )
    assert "eröffnet" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    await table.alice.slash(table.thread, "game start")
    await table.bob.slash(table.thread, "act", action="/end-phase")
    trench = reply_text(
        await table.bob.slash(table.thread, "act", action="/move unit:Konrad to:1017")
    )
    assert (
        "Das Pferd von Konrad darf den Schützengraben bei 1017 überqueren, aber dort nicht anhalten"
        in trench
    )
    tent = reply_text(
        await table.bob.slash(table.thread, "act", action="/move unit:Konrad to:1308")
    )
    assert "Konrad reitet, und kein Pferd betritt 1308 (Zelt; 3.32)" in tent
    footman = reply_text(
        await table.bob.slash(table.thread, "act", action="/mount unit:Ulrich horse:konrads-horse")
    )
    assert (
        "Ulrich kann nicht aufsitzen: nur Ritter und Sergeanten reiten (3.33; ein Waffenknecht"
        in footman
    )
    state = (await table.game()).state
    assert (
        state["horses"]["konrads-horse"]["cells"] == ["1120", "1020"] and state["phase"] == "move"
    )


def test_a_led_horse_never_stops_in_a_trench_and_the_refusal_says_so():
    # 3.34 with 3.1: the horse follows its leader "als wäre es eine Erweiterung des
    # Spielsteins", and a horse may cross a trench but not stop in one; the leader himself may.
    state = _camp(
        {"p": ("peasant", "besieger", "1418")}, phase="move", horses={"g": _horse("1419", "1519")}
    )
    state2, _ = act(state, "besieger", "/lead unit:p horse:g to:1417")
    assert state2["figures"]["p"]["at"] == "1417" and state2["horses"]["g"]["cells"] == [
        "1418",
        "1419",
    ]
    with pytest.raises(RuleError, match="P may walk to 1416, but horse g cannot follow him there"):
        act(state, "besieger", "/lead unit:p horse:g to:1416")


def test_a_knight_who_has_moved_cannot_mount_and_is_told_why():
    state = build(
        {"k": ("knight", "besieger", "0819"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419")},
    )
    state, _ = act(state, "besieger", "/move unit:k to:0619")
    with pytest.raises(
        RuleError,
        match="K has already acted this round; mounting and dismounting take a whole round",
    ):
        act(state, "besieger", "/mount unit:k horse:h")


def test_a_rider_whose_horse_stands_half_behind_a_tree_cannot_be_shot():
    # R2 on the camp: the rider is in the cell of his horse with more cover (3.31), and a cell
    # behind a tree (3.22: "Bäume ... blockieren") has the most of all: no shot at him.
    figs = {"a": ("archer", "defender", "1101"), "k": ("knight", "besieger", "1005")}
    on_foot = _camp(figs, active="defender")
    assert [x for x in legal(on_foot, "defender", "shoot") if x["target"] == "k"]
    mounted = _camp(figs, active="defender", horses={"h": _horse("1005", "1105", "k")})
    assert not [x for x in legal(mounted, "defender", "shoot") if x["target"] in ("k", "h")]
    with pytest.raises(RuleError, match="1104: a tree stands between shooter and target"):
        act(mounted, "defender", "/shoot unit:a target:k", dice=[9])


def test_a_rider_takes_up_no_siege_shield():
    # Our reading (R8): a rider's hands hold the reins; he carries no ladder, shield or pot.
    rider = build(
        {"k": ("knight", "besieger", "0619"), **FAR},
        phase="move",
        shields={"s": {"at": "0619"}},
        horses={"h": _horse("0619", "0519", "k")},
    )
    assert not legal(rider, "besieger", "lift")
    walker = build(
        {"k": ("knight", "besieger", "0619"), **FAR}, phase="move", shields={"s": {"at": "0619"}}
    )
    assert legal(walker, "besieger", "lift") == [
        {"type": "lift", "side": "besieger", "unit": "k", "item": "s"}
    ]


def test_dismounting_onto_a_cell_away_from_the_horse_is_refused_with_the_free_cells():
    state = build(
        {"k": ("knight", "besieger", "0519"), "m": ("man-at-arms", "besieger", "0618"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419", "k")},
    )
    offered = sorted(a["to"] for a in legal(state, "besieger", "dismount"))
    assert "0618" not in offered and "0819" not in offered
    for to in ("0819", "0618"):  # too far; taken by m
        with pytest.raises(
            RuleError,
            match=rf"K gets off onto a free cell beside his horse \({', '.join(offered)}\), not {to}",
        ):
            act(state, "besieger", f"/dismount unit:k to:{to}")


def test_a_figure_walks_up_to_a_riderless_horse_and_leads_it_on_in_the_same_move():
    # 3.34: "reicht es schon, eine beliebige Figur ... angrenzend zu dem Pferd zu bringen. Die
    # Figur kann ihre Bewegung beenden, wobei das Pferd ihr folgt".
    state = build(
        {"p": ("peasant", "besieger", "0919"), **FAR},
        phase="move",
        horses={"h": _horse("0519", "0419")},
    )
    state, events = act(state, "besieger", "/lead unit:p horse:h to:0418")
    moved = of(events, "moved")[0]
    assert moved["path"][0] == "0919" and moved["path"][-1] == "0418" and moved["cost"] <= 5
    # The horse stood until p came beside it; then it followed him as part of his counter.
    assert not {"0519", "0419"} & set(moved["path"][:-2])
    assert state["horses"]["h"]["cells"][0] == moved["path"][-2]
    assert state["figures"]["p"]["at"] == "0418"
