"""The order of a side's phase (1.21) and the stunned figures' recovery."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError

from .helpers import RULES, act, build, legal, of

FIELD = {
    "arch": ("archer", "besieger", "0119"),
    "xbow": ("crossbowman", "besieger", "0219"),
    "foe": ("man-at-arms", "defender", "0519"),
    "foe2": ("man-at-arms", "defender", "0619"),
}


def test_steps_of_a_phase_and_sides_alternate():
    state = build(FIELD)
    seen = []
    for _ in range(9):
        seen.append((state["turn"], state["active"], state["phase"]))
        state, _ = act(state, state["active"], "/end-phase")
    assert seen == [
        (1, "besieger", "fire1"),
        (1, "besieger", "move"),
        (1, "besieger", "fire2"),
        (1, "besieger", "melee"),
        (1, "defender", "fire1"),
        (1, "defender", "move"),
        (1, "defender", "fire2"),
        (1, "defender", "melee"),
        (2, "besieger", "fire1"),
    ]


def test_crossbowman_who_shot_does_not_move_and_crossbows_do_not_shoot_again():
    state = build(FIELD)
    state, _ = act(state, "besieger", "/shoot unit:xbow target:foe", dice=[1])
    state, _ = act(state, "besieger", "/end-phase")
    movers = {a["unit"] for a in legal(state, "besieger", "move")}
    assert "xbow" not in movers and "arch" in movers
    with pytest.raises(RuleError):
        act(state, "besieger", "/move unit:xbow to:0218")
    state, _ = act(state, "besieger", "/end-phase")
    shooters = {a["unit"] for a in legal(state, "besieger", "shoot")}
    assert shooters == {"arch"}


def test_bows_shoot_in_both_steps_once_each():
    state = build(FIELD)
    state, _ = act(state, "besieger", "/shoot unit:arch target:foe", dice=[1])
    assert "arch" not in {a["unit"] for a in legal(state, "besieger", "shoot")}
    state, _ = act(state, "besieger", "/end-phase")
    state, _ = act(state, "besieger", "/end-phase")
    state, events = act(state, "besieger", "/shoot unit:arch target:foe", dice=[1])
    assert of(events, "shot")


def test_figures_in_melee_last_round_do_not_shoot_first_but_bows_do_second():
    figs = {
        "arch": ("archer", "besieger", "0119"),
        "foe": ("peasant", "defender", "0219"),
        "far": ("man-at-arms", "defender", "0619"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:arch target:foe")
    state, _ = act(state, "besieger", "/fight", dice=[4])  # 3 vs 2: 1-1, roll 4: no effect
    for _ in range(5):  # defender's phase, then fire1
        state, _ = act(state, state["active"], "/end-phase")
    assert (state["active"], state["phase"]) == ("besieger", "fire1")
    assert not legal(state, "besieger", "shoot")
    state, _ = act(state, "besieger", "/end-phase")
    state, _ = act(state, "besieger", "/end-phase")
    assert {a["unit"] for a in legal(state, "besieger", "shoot")} == {"arch"}


def test_stunned_figures_recover_at_the_end_of_their_own_next_phase():
    figs = {
        "a": ("man-at-arms", "besieger", "0119", "stunned"),
        "d": ("man-at-arms", "defender", "0619"),
    }
    state = build(figs, phase="melee")
    assert not legal(state, "besieger", "move")
    state, events = act(state, "besieger", "/end-phase")
    assert of(events, "recovered") and not state["figures"]["a"]["stunned"]


def test_figure_stunned_in_its_own_phase_stays_stunned_through_the_enemy_phase():
    figs = {"a": ("knight", "besieger", "0119"), "d": ("archer", "defender", "0219")}
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:a target:d")
    state, events = act(state, "besieger", "/fight", dice=[2])  # 2-1, roll 2: F attacker stunned
    assert state["figures"]["a"]["stunned"]
    state, events = act(state, "besieger", "/end-phase")
    assert not of(events, "recovered") and state["figures"]["a"]["stunned"]
    for _ in range(4):
        state, events = act(state, state["active"], "/end-phase")
    assert state["figures"]["a"]["stunned"]  # defender's whole phase
    for _ in range(4):
        state, events = act(state, state["active"], "/end-phase")
    assert not state["figures"]["a"]["stunned"] and of(events, "recovered")


def test_the_garrison_wins_by_holding_out_and_the_besiegers_by_the_keep():
    figs = {"a": ("knight", "besieger", "1110"), "d": ("peasant", "defender", "0105")}
    state = build(figs, phase="move")
    state, events = act(state, "besieger", "/move unit:a to:1109")
    assert state["result"] == {"winner": "besieger", "reason": "A stands in the keep"}
    state = build(
        {"a": ("knight", "besieger", "0119"), "d": ("peasant", "defender", "1213")},
        turn=2,
        last_turn=2,
        active="defender",
        phase="melee",
    )
    state, events = act(state, "defender", "/end-phase")
    assert state["result"]["winner"] == "defender" and of(events, "game_over")


def test_killing_every_enemy_wins():
    figs = {"arch": ("archer", "besieger", "0119"), "foe": ("peasant", "defender", "0319")}
    state = build(figs)
    state, events = act(state, "besieger", "/shoot unit:arch target:foe", dice=[10])
    assert state["figures"]["foe"]["dead"] and of(events, "game_over")
    assert state["result"] == {"winner": "besieger", "reason": "every defender figure is dead"}
    assert RULES.awaiting(state) == []
