"""Section 2 counters: filled moat (2.1, 2.2) and broken walls (2.31-2.33), laid by the
besieger before the assault or set by the scenario."""

from __future__ import annotations

from .helpers import RULES, act, build, legal, of

FAR = {"x": ("peasant", "defender", "2201")}


def _reach(state, fid):
    return {
        a["to"] for a in legal(state, state["figures"][fid]["side"], "move") if a["unit"] == fid
    }


def test_filled_moat_costs_two_on_foot_instead_of_four():
    state = build(
        {"m": ("man-at-arms", "besieger", "0818"), **FAR}, phase="move", filled_moat=["0817"]
    )
    state, events = act(state, "besieger", "/move unit:m to:0817")
    assert of(events, "moved")[0]["cost"] == 2
    assert RULES.board(state).cell("0817").kind == "filled-moat"
    plain = build({"m": ("man-at-arms", "besieger", "0818"), **FAR}, phase="move")
    plain, events = act(plain, "besieger", "/move unit:m to:0817")
    assert of(events, "moved")[0]["cost"] == 4


def test_a_breach_opens_the_wall_and_leads_onto_the_parapet_for_three():
    figs = {"m": ("man-at-arms", "besieger", "0817"), **FAR}
    assert "0815" not in _reach(build(figs, phase="move"), "m")
    state = build(figs, phase="move", breaches=["0816"])
    reach = _reach(state, "m")
    assert {"0816", "0815"} <= reach  # into the breach (2), on inside (1)
    state, events = act(state, "besieger", "/move unit:m to:0716")
    assert of(events, "moved")[0]["path"] == ["0817", "0816", "0716"]
    assert of(events, "moved")[0]["cost"] == 2 + 3


def test_breach_gives_medium_cover_and_lets_shots_into_the_castle_with_the_bridge_up():
    figs = {
        "a": ("archer", "besieger", "0819"),
        "t": ("man-at-arms", "defender", "0816"),
        "in": ("man-at-arms", "defender", "0814"),
    }
    state = build(figs, breaches=["0816"], bridge_up=True)
    shot = RULES._sight(state, "a", "t")
    assert shot.possible and shot.cover == "medium"
    state = build(
        {**figs, "t": ("man-at-arms", "defender", "2001")}, breaches=["0816"], bridge_up=True
    )
    inside = RULES._sight(state, "a", "in")
    assert inside.possible and any("breach lets the shot" in r for r in inside.reasons)
    closed = build({**figs, "t": ("man-at-arms", "defender", "2001")}, bridge_up=True)
    assert not RULES._sight(closed, "a", "in").possible


def test_the_besieger_lays_the_scenarios_counters_before_the_assault():
    state = build(
        {"m": ("man-at-arms", "besieger", "0818"), **FAR}, prepare={"filled_moat": 1, "breaches": 1}
    )
    assert (state["phase"], state["active"]) == ("prepare", "besieger")
    assert {a["type"] for a in legal(state, "besieger")} == {"fill", "breach", "end-phase"}
    assert not [a for a in legal(state, "besieger", "fill") if a["at"] == "1117"]  # not the bridge
    state, _ = act(state, "besieger", "/fill at:0817")
    assert {a["type"] for a in legal(state, "besieger")} == {"breach", "end-phase"}
    key_before = RULES.scene(state, [], None)["map_key"]
    state, events = act(state, "besieger", "/breach at:0816")
    assert state["phase"] == "fire1" and of(events, "phase_started")
    assert RULES.scene(state, [], None)["map_key"] != key_before
    assert sorted(map(tuple, state["counters"])) == [("0816", "breach"), ("0817", "filled-moat")]
