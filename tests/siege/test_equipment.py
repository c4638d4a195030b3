"""Special equipment of section 1: the drawbridge and its winch (1.8)."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError

from .helpers import act, build, legal, of

WINCH, BRIDGE, GATE = "1016", "1117", "1116"


def _to_round_end(state):
    """End steps until the round changes; returns the state and the events of the last step."""
    turn = state["turn"]
    events = []
    while state["turn"] == turn and not state.get("result"):
        state, events = act(state, state["active"], "/end-phase")
    return state, events


def test_a_figure_on_the_winch_raises_the_bridge_at_the_end_of_the_round_and_figures_on_it_fall():
    figs = {
        "w": ("man-at-arms", "defender", WINCH),
        "b": ("knight", "besieger", BRIDGE),
        "c": ("peasant", "besieger", "1118", "wounded"),
    }
    state = build(figs, active="defender", phase="move")
    state, events = act(state, "defender", "/winch unit:w")
    assert of(events, "winch_manned") and not state["bridge_up"]
    state, events = _to_round_end(state)
    assert state["bridge_up"] and of(events, "bridge_raised")
    # 1.8: the falling figure's owner chooses the moat cell.
    assert of(events, "choose_landing")[0]["options"] == ["1017", "1217"]
    assert state["awaiting"] == ["besieger"] and {a["type"] for a in legal(state, "besieger")} == {
        "land"
    }
    state, events = act(state, "besieger", "/land unit:b to:1217")
    fell = of(events, "fell")[0]
    assert fell["unit"] == "b" and fell["to"] == "1217" and fell["outcome"] == "stunned healthy"
    assert state["figures"]["b"]["at"] == "1217" and state["awaiting"] == [state["active"]]


def test_a_stunned_or_wounded_figure_on_the_rising_bridge_dies():
    figs = {"w": ("man-at-arms", "defender", WINCH), "b": ("knight", "besieger", BRIDGE, "wounded")}
    state = build(figs, active="defender", phase="move")
    state, _ = act(state, "defender", "/winch unit:w")
    state, events = _to_round_end(state)
    state, events = act(state, "besieger", "/land unit:b to:1017")
    assert of(events, "fell")[0]["outcome"] == "dead" and state["figures"]["b"]["dead"]


def test_the_winch_figure_does_nothing_else_that_round():
    figs = {"w": ("crossbowman", "defender", WINCH), "b": ("knight", "besieger", "1118")}
    state = build(figs, active="defender", phase="move")
    state, _ = act(state, "defender", "/winch unit:w")
    assert not legal(state, "defender", "move")
    with pytest.raises(RuleError):
        act(state, "defender", "/move unit:w to:1015")


def test_a_figure_that_already_acted_this_phase_cannot_work_the_winch():
    figs = {"w": ("archer", "defender", WINCH), "b": ("knight", "besieger", "1118")}
    state = build(figs, active="defender")
    state, _ = act(state, "defender", "/end-phase")
    assert legal(state, "defender", "winch")
    state = build(figs, active="defender", phase="move")
    state, _ = act(state, "defender", "/move unit:w to:1015")
    assert not legal(state, "defender", "winch")


def test_the_bridge_stays_when_the_winch_figure_is_stunned_before_the_round_ends():
    # The besiegers play first, so their winch work spans the defenders' phase.
    figs = {
        "w": ("man-at-arms", "besieger", WINCH, "wounded"),
        "k": ("knight", "defender", "1015"),
        "x": ("peasant", "besieger", "0101"),
    }
    state = build(figs, phase="move", bridge_up=True)
    state, _ = act(state, "besieger", "/winch unit:w")
    for _ in range(6):
        state, _ = act(state, state["active"], "/end-phase")
    assert (state["active"], state["phase"]) == ("defender", "melee")
    state, _ = act(state, "defender", "/attack unit:k target:w")
    state, _ = act(state, "defender", "/fight", dice=[8])  # 8 vs 3: 2-1, 8: C stunned
    assert state["figures"]["w"]["stunned"]
    state, events = act(state, "defender", "/end-phase")
    assert state["bridge_up"] and of(events, "winch_failed")
