"""Sieges of several days (5.4): the day as state, the night between two days (filled moat
laid anew, healing rolls), victory across days."""

from __future__ import annotations

import pytest

from engine.core.errors import ScenarioError
from engine.siege.scenarios import normalise

from .helpers import RULES, act, build, legal, of

# An archer who can wound a man-at-arms four cells away (d10 7: B, see test_shooting.py) and a
# figure far from everything so neither side runs out of figures.
FIGS = {
    "arch": ("archer", "besieger", "0119"),
    "tom": ("man-at-arms", "defender", "0519"),
    "old": ("peasant", "defender", "2201", "wounded"),
}


def _end_round(state, dice_at_day_end=()):
    """Both sides end all four steps; dice are only rolled when the round closes a day."""
    events: list[dict] = []
    for step in range(8):
        last = step == 7
        state, more = act(
            state, state["active"], "/end-phase", dice=dice_at_day_end if last else ()
        )
        events += more
    return state, events


def test_a_day_ends_after_its_rounds_and_the_header_names_day_and_round():
    state = build(FIGS, days=2, rounds_per_day=2, filled_moat=["0817", "1317"])
    assert (state["day"], state["last_turn"]) == (1, 4)
    assert RULES.header(state)["Day"] == "1 of 2, round 1 of 2"
    state, events = _end_round(state)
    assert RULES.header(state)["Day"] == "1 of 2, round 2 of 2"
    assert not of(events, "day_ended")
    state, events = _end_round(state)
    assert state["day"] == 2 and of(events, "day_ended") and of(events, "day_started")
    # 2.2: the counters are taken off, and the besieger lays as many anew before the assault.
    assert [c for c in state["counters"] if c[1] == "filled-moat"] == []
    assert (state["phase"], RULES.awaiting(state)) == ("prepare", ["besieger"])
    assert {a["type"] for a in legal(state, "besieger")} == {"fill", "end-phase"}
    lines = [RULES.describe_event(state, e) for e in events]
    assert any("0817, 1317 are taken off; the besiegers lay 2 anew" in (x or "") for x in lines)
    assert any("Day 2 of 2 begins." in (x or "") for x in lines)
    state, _ = act(state, "besieger", "/fill at:0917")
    state, events = act(state, "besieger", "/fill at:1017")
    assert (state["phase"], state["active"]) == ("fire1", "besieger")
    assert sorted(c for c, k in state["counters"] if k == "filled-moat") == ["0917", "1017"]
    assert RULES.header(state)["Day"] == "2 of 2, round 1 of 2"
    assert ["Day", "2 of 2, round 1 of 2"] in RULES.scene(state, events, None)["header"]


def test_a_day_without_filled_moat_goes_straight_into_the_next_assault():
    state = build(FIGS, days=2, rounds_per_day=1)
    state, events = _end_round(state)
    assert state["day"] == 2 and state["phase"] == "fire1" and of(events, "day_started")


def test_newly_wounded_figures_roll_for_healing_and_heal_on_the_morning_it_names():
    state = build(FIGS, days=3, rounds_per_day=1)
    state, _ = act(state, "besieger", "/shoot unit:arch target:tom", dice=[7])
    assert state["figures"]["tom"]["wounded"]
    # Only Tom was wounded today: "old" came wounded and does not roll (one die only).
    # Healing table: 3 -> healed in two days, i.e. on the morning of day 3.
    state, events = _end_round(state, dice_at_day_end=[3])
    ended = of(events, "day_ended")[0]
    assert [(r["unit"], r["roll"], r["healed_on"]) for r in ended["healing"]] == [("tom", 3, 3)]
    assert state["day"] == 2 and state["figures"]["tom"]["wounded"]
    line = RULES.describe_event(state, ended)
    assert "Tom rolls 3 for healing: healed in two days." in line
    assert "Still wounded: Old, Tom." in line
    # Day 2's end: Tom was wounded at dawn, so nobody rolls again.
    state, events = _end_round(state)
    assert state["day"] == 3 and not state["figures"]["tom"]["wounded"]
    assert of(events, "day_started")[0]["healed"] == ["tom"]
    assert "Healed overnight: Tom." in RULES.describe_event(state, of(events, "day_started")[0])


@pytest.mark.parametrize("roll,healthy_on_day_2", [(1, True), (9, False)])
def test_the_healing_table_next_morning_or_not_during_the_siege(roll, healthy_on_day_2):
    state = build(FIGS, days=3, rounds_per_day=1)
    state, _ = act(state, "besieger", "/shoot unit:arch target:tom", dice=[7])
    state, _ = _end_round(state, dice_at_day_end=[roll])
    assert state["figures"]["tom"]["wounded"] is not healthy_on_day_2
    state, _ = _end_round(state)
    assert state["figures"]["tom"]["wounded"] is not healthy_on_day_2


def test_a_figure_wounded_and_killed_the_same_day_does_not_roll():
    state = build(FIGS, days=2, rounds_per_day=1)
    state, _ = act(state, "besieger", "/shoot unit:arch target:tom", dice=[7])
    state, _ = act(state, "besieger", "/end-phase")
    state, _ = act(state, "besieger", "/end-phase")
    state, _ = act(state, "besieger", "/shoot unit:arch target:tom", dice=[7])
    assert state["figures"]["tom"]["dead"]
    state, events = _end_round_from(state, "fire2")
    assert of(events, "day_ended")[0]["healing"] == [] and state["figures"]["tom"]["dead"]


def _end_round_from(state, phase):
    """End the rest of the round from ``phase`` of the first side."""
    steps = ("fire1", "move", "fire2", "melee")
    events: list[dict] = []
    for _ in range(len(steps) - steps.index(phase) + 4):
        state, more = act(state, state["active"], "/end-phase")
        events += more
    return state, events


def test_the_garrison_wins_by_holding_out_every_day():
    state = build(FIGS, days=2, rounds_per_day=1)
    state, _ = _end_round(state)
    assert state["result"] is None and state["day"] == 2
    state, events = _end_round(state)
    assert state["result"] == {"winner": "defender", "reason": "held out for 2 days (2 rounds)"}
    assert of(events, "game_over")
    assert not of(events, "day_ended")  # the siege is over: no night follows


@pytest.mark.parametrize(
    "extra,entry",
    [
        ({"days": 2}, "rounds_per_day"),
        ({"rounds_per_day": 4}, "days"),
        ({"days": 2, "rounds_per_day": 4, "last_turn": 12}, "last_turn"),
        ({"days": 0, "rounds_per_day": 4}, "days"),
        ({"days": 20, "rounds_per_day": 20}, "last_turn"),
    ],
)
def test_a_bad_day_structure_names_its_entry(extra, entry):
    spec = {
        "figures": {
            "a": {"type": "knight", "side": "besieger", "at": "0119"},
            "d": {"type": "peasant", "side": "defender", "at": "2201"},
        },
        **extra,
    }
    with pytest.raises(ScenarioError) as err:
        normalise(spec, "long.json", "long")
    assert err.value.entry == entry


def test_a_long_siege_with_both_optional_rules_autoplays_and_replays():
    import json

    from engine.core.game import autoplay, replay
    from engine.core.state import state_hash
    from engine.siege import data

    raw = json.loads((data.DATA_DIR / "scenarios" / "breach.json").read_text(encoding="utf-8"))
    raw.update(days=3, rounds_per_day=4, options={"panic": True, "aiming": True})
    raw.pop("last_turn")
    scenario = normalise(raw, "long-breach.json", "long-breach")
    for seed in (3, 7):
        state, actions = autoplay(RULES, scenario, seed)
        assert state["result"]["winner"] in ("besieger", "defender")
        assert state["day"] == (state["turn"] - 1) // 4 + 1
        if seed == 3:
            replayed, _ = replay(RULES, scenario, seed, actions)
            assert state_hash(replayed) == state_hash(state)


def test_each_morning_the_besieger_may_set_up_a_ballista_anew_once_and_is_told_so():
    """3.43 and 5.4: engines are set up anew between days. The morning opens the besieger's
    step before the assault for the engine alone (no filled moat to lay), says so, and the
    header does not speak of counters; one set-up a day, again the next morning."""
    figs = {
        "t": ("technician", "besieger", "0619"),
        "p": ("peasant", "besieger", "0520"),
        "d": ("man-at-arms", "defender", "0119"),
        "x": ("peasant", "defender", "2201"),
    }
    ballista = {"b1": {"kind": "ballista", "side": "besieger", "at": "0519"}}
    state = build(figs, engines=ballista, prepare={"engines": ["b1"]}, days=3, rounds_per_day=1)
    state, _ = act(state, "besieger", "/emplace engine:b1 at:0818")
    for day, cell in ((2, "0820"), (3, "0519")):
        state, events = _end_round(state)
        assert (state["day"], state["phase"], state["active"]) == (day, "prepare", "besieger")
        morning = RULES.describe_event(state, of(events, "day_started")[0])
        assert "Before the assault the besiegers may work their engines (/emplace)" in morning
        assert "filled-moat" not in morning
        assert RULES.header(state)["Step"] == "before the assault"
        state, _ = act(state, "besieger", f"/emplace engine:b1 at:{cell}")
        assert state["engines"]["b1"]["cells"] == [cell] and state["phase"] == "fire1"
        assert not legal(state, "besieger", "emplace")


def test_the_one_ranged_step_a_day_starts_afresh_after_a_real_night():
    """4.13 across 5.4's night (not a hand-made day change): the wall that took its step on
    day 1 may take another on day 2, once, and the onager is laid anew each morning."""
    figs = {"m": ("man-at-arms", "besieger", "0818"), "x": ("peasant", "defender", "2201")}
    engines = {
        "o1": {"kind": "onager", "side": "besieger"},
        "c1": {"kind": "catapult", "side": "besieger"},
    }
    state = build(figs, engines=engines, days=2, rounds_per_day=1)
    state, _ = act(state, "besieger", "/aim engine:o1 at:0816")
    state, _ = act(state, "besieger", "/bombard at:0816", dice=[10])
    assert state["siege_sheet"]["0816"]["rolled_day"] == 1
    state, _ = act(state, "besieger", "/end-phase")  # the catapult stays idle today
    state, events = _end_round(state)
    morning = RULES.describe_event(state, of(events, "day_started")[0])
    assert "work their engines (/aim)" in morning and state["phase"] == "prepare"
    aims = {(a["engine"], a["at"]) for a in legal(state, "besieger", "aim")}
    assert {("o1", "0816"), ("c1", "0816")} <= aims
    state, _ = act(state, "besieger", "/aim engine:o1 at:0816")
    state, events = act(state, "besieger", "/bombard at:0816", dice=[10])
    assert of(events, "bombarded") and state["siege_sheet"]["0816"]["rolled_day"] == 2
    assert ("c1", "0816") not in {(a["engine"], a["at"]) for a in legal(state, "besieger", "aim")}


def test_the_filled_moat_under_a_ram_at_the_wall_stays_overnight():
    """D2: the counters are taken off at the day's end, but not from under a siege tower or an
    engine standing on them; a ram driven up to the wall is not left standing in the moat."""
    figs = {
        "j": ("peasant", "besieger", "0617"),
        "k": ("peasant", "besieger", "0618"),
        "l": ("peasant", "besieger", "0619"),
        "x": ("peasant", "defender", "2201"),
    }
    ram = {
        "r": {
            "kind": "ram",
            "side": "besieger",
            "cells": ["0617", "0618", "0619"],
            "towards": "0616",
        }
    }
    state = build(figs, engines=ram, filled_moat=["0617", "0817"], days=2, rounds_per_day=1)
    state, _ = act(state, "besieger", "/end-phase")  # nothing to prepare on the first morning
    state, events = _end_round(state)
    assert of(events, "day_ended")[0]["moat_removed"] == ["0817"]
    assert ["0617", "filled-moat"] in state["counters"]
    assert state["to_place"]["filled_moat"] == 1
