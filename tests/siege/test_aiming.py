"""The optional rule "aiming" (Richtig zielen): a miss beside a friend rolls on the miss table;
archers' skills are added to their rolls."""

from __future__ import annotations

import pytest

from engine.core.errors import ScenarioError
from engine.siege.scenarios import normalise

from .helpers import RULES, act, build, legal, of

# Short range, no cover, modifier 0 (test_shooting.py): d10 4 is a miss ("-").
FIGS = {
    "arch": ("archer", "besieger", "0119"),
    "tom": ("man-at-arms", "defender", "0519"),
    "pal": ("man-at-arms", "besieger", "0520"),
}
AIMING = {"options": {"aiming": True}}


def test_without_the_rule_a_miss_beside_a_friend_is_only_a_miss():
    state = build(FIGS)
    assert state["options"]["aiming"] is False
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[4])
    assert not of(events, "miss_roll") and not state["figures"]["pal"]["wounded"]


@pytest.mark.parametrize("miss_roll,wounded", [(7, False), (8, True), (10, True)])
def test_a_miss_beside_a_friend_rolls_on_the_miss_table(miss_roll, wounded):
    state = build(FIGS, **AIMING)
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[4, miss_roll])
    miss = of(events, "miss_roll")[0]
    assert miss["beside"] == ["pal"] and (miss["hit"] == "pal") is wounded
    assert state["figures"]["pal"]["wounded"] is wounded
    assert not state["figures"]["tom"]["wounded"]
    line = RULES.describe_event(state, miss)
    assert f"miss roll d10 {miss_roll}+0={miss_roll}" in line
    assert ("Pal wounded" in line) is wounded


def test_a_hit_beside_a_friend_needs_no_miss_roll():
    state = build(FIGS, **AIMING)
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[7])
    assert state["figures"]["tom"]["wounded"] and not of(events, "miss_roll")


def test_the_miss_roll_is_modified_like_the_shot():
    # 11 cells: medium range, longbow modifier -1: a miss roll of 8 reads 7, nothing happens.
    figs = {
        **FIGS,
        "tom": ("man-at-arms", "defender", "1219"),
        "pal": ("peasant", "besieger", "1319"),
    }
    state = build(figs, **AIMING)
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[4, 8])
    miss = of(events, "miss_roll")[0]
    assert (miss["modified"], miss["hit"]) == (7, None)


def test_among_several_friends_the_one_hit_is_chosen_by_lot():
    figs = {**FIGS, "ann": ("peasant", "besieger", "0518")}
    state = build(figs, **AIMING)
    assert RULES.board(state).distance("0518", "0519") == 1
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[4, 9, 2])
    miss = of(events, "miss_roll")[0]
    assert miss["beside"] == ["ann", "pal"] and miss["hit"] == "pal"
    assert state["figures"]["pal"]["wounded"] and not state["figures"]["ann"]["wounded"]
    lot = [e for e in of(events, "roll") if e["purpose"].startswith("lot")][0]
    assert lot["sides"] == 2 and lot["among"] == ["ann", "pal"]


def test_a_friend_the_shooters_line_cannot_reach_is_not_hit():
    # Behind the target at short range: Tom himself blocks the line to Pal (1.42).
    figs = {**FIGS, "pal": ("man-at-arms", "besieger", "0619")}
    state = build(figs, **AIMING)
    assert RULES.board(state).distance("0619", "0519") == 1
    assert not RULES._sight(state, "arch", "pal").possible
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[4])
    assert not of(events, "miss_roll") and not state["figures"]["pal"]["wounded"]


def test_from_the_siege_tower_a_target_beside_a_friend_may_be_shot():
    field = {"t": {"side": "besieger", "cells": ["0619", "0719", "0819"], "towards": "0618"}}
    figs = {
        "s": ("archer", "besieger", "0619", "healthy", "top"),
        "t": ("peasant", "defender", "1219"),
        "f": ("peasant", "besieger", "1319"),
    }
    assert not RULES._sight(build(figs, towers=field), "s", "t").possible  # 2.43
    state = build(figs, towers=field, **AIMING)
    assert {"type": "shoot", "side": "besieger", "unit": "s", "target": "t"} in legal(
        state, "besieger", "shoot"
    )
    assert "a friend of the shooter" not in RULES.los(state, "0619", "1219")


def test_skills_are_added_to_every_roll_of_the_shooter_the_miss_roll_too():
    figs = {**FIGS, "bob": ("archer", "besieger", "0120")}
    state = build(figs, skills={"arch": 2, "bob": -2}, **AIMING)
    # d10 5 +2 = 7: B, wounded (without the skill 5 would be C, stunned).
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[5])
    shot = of(events, "shot")[0]
    assert (shot["skill"], shot["modified"], shot["letter"]) == (2, 7, "B")
    assert "d10 5+0+2 skill=7" in shot["text"]
    # Bob (-2) misses with 6 (6-2=4) and his miss roll 9 reads 7: nothing.
    state = build(figs, skills={"arch": 2, "bob": -2}, **AIMING)
    state, events = act(state, "besieger", "/shoot unit:bob target:tom", dice=[6, 9])
    assert of(events, "miss_roll")[0]["modified"] == 7 and not state["figures"]["pal"]["wounded"]


def test_skills_count_only_with_the_rule_on():
    figs = {**FIGS, "bob": ("archer", "besieger", "0120")}
    state = build(figs, skills={"arch": 2, "bob": -2})
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[5])
    assert of(events, "shot")[0]["modified"] == 5 and "skill" not in of(events, "shot")[0]


@pytest.mark.parametrize(
    "skills,entry,words",
    [
        ({"arch": 2}, "skills", "must sum to 0 (they sum to +2)"),
        ({"arch": 4, "bob": -4}, "skills.arch", "from -3 to +3"),
        ({"tom": 0}, "skills.tom", "only archers and crossbowmen"),
        ({"nobody": 1}, "skills.nobody", "no such figure"),
        # Long and short bows together, crossbows apart: a crossbow cannot balance a bow.
        ({"arch": 1, "xb": -1}, "skills", "bows must sum to 0"),
    ],
)
def test_skills_are_checked_when_the_scenario_loads(skills, entry, words):
    spec = {
        "figures": {
            "arch": {"type": "archer", "side": "besieger", "at": "0119"},
            "bob": {"type": "archer", "side": "besieger", "at": "0120"},
            "xb": {"type": "crossbowman", "side": "besieger", "at": "0219"},
            "tom": {"type": "man-at-arms", "side": "defender", "at": "0519"},
        },
        "skills": skills,
    }
    with pytest.raises(ScenarioError) as err:
        normalise(spec, "skills.json", "skills")
    assert err.value.entry == entry and words in err.value.problem


def test_an_unknown_optional_rule_in_a_scenario_is_refused():
    spec = {
        "figures": {
            "a": {"type": "knight", "side": "besieger", "at": "0119"},
            "d": {"type": "peasant", "side": "defender", "at": "2201"},
        },
        "options": {"aimnig": True},
    }
    with pytest.raises(ScenarioError) as err:
        normalise(spec, "o.json", "o")
    assert err.value.entry == "options.aimnig" and "aiming" in err.value.problem


@pytest.mark.parametrize("friend_at,rolls", [("0517", True), ("0318", False)])
def test_only_a_friend_on_the_targets_level_can_be_hit(friend_at, rolls):
    # Tom stands in the moat (level 0); a friend in the moat beside him can be hit, a friend on
    # the ground (level 1) beside him cannot, though the archer sees both.
    figs = {
        "arch": ("archer", "besieger", "0518"),
        "tom": ("man-at-arms", "defender", "0417"),
        "pal": ("peasant", "besieger", friend_at),
    }
    state = build(figs, **AIMING)
    assert RULES._sight(state, "arch", "pal").possible
    state, events = act(
        state, "besieger", "/shoot unit:arch target:tom", dice=[1, 9] if rolls else [1]
    )
    assert bool(of(events, "miss_roll")) is rolls and state["figures"]["pal"]["wounded"] is rolls


def test_a_friend_on_horseback_beside_the_target_with_his_horses_back_is_beside_it():
    """A rider takes both cells of his horse (3.3): Pal's horse stands with its back beside
    Tom, its front two cells off, and a miss at Tom may still wound him."""
    figs = {**FIGS, "pal": ("knight", "besieger", "0318")}
    horses = {"h": {"side": "besieger", "cells": ["0318", "0418"], "rider": "pal"}}
    state = build(figs, horses=horses, **AIMING)
    board = RULES.board(state)
    assert board.distance("0318", "0519") == 2 and board.distance("0418", "0519") == 1
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[4, 9])
    miss = of(events, "miss_roll")[0]
    assert miss["beside"] == ["pal"] and miss["hit"] == "pal"
