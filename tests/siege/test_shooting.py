"""Shots (1.3): modifier by range band and shooter state, the d10 against the target's cover,
results and state changes, the arithmetic in every shot line."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.siege import figures

from .helpers import RULES, act, build, legal, of

FAR = {"far": ("peasant", "defender", "2201")}


def _shot(events):
    return of(events, "shot")[0]


@pytest.mark.parametrize(
    "roll,letter,outcome",
    [(9, "A", "dead"), (7, "B", "wounded"), (5, "C", "stunned healthy"), (4, "-", "no effect")],
)
def test_short_range_no_cover_results(roll, letter, outcome):
    state = build(
        {"a": ("archer", "besieger", "0119"), "t": ("man-at-arms", "defender", "0519"), **FAR}
    )
    state, events = act(state, "besieger", "/shoot unit:a target:t", dice=[roll])
    shot = _shot(events)
    assert (shot["band"], shot["modifier"], shot["cover"], shot["letter"]) == (
        "short",
        0,
        "none",
        letter,
    )
    assert shot["outcome"] == outcome
    assert f"d10 {roll}+0={roll}" in shot["text"] and "range 4 short" in shot["text"]


def test_wounded_shooter_at_medium_range_has_a_worse_modifier():
    state = build(
        {
            "a": ("archer", "besieger", "0101", "wounded"),
            "t": ("man-at-arms", "defender", "0113"),
            **FAR,
        }
    )
    state, events = act(state, "besieger", "/shoot unit:a target:t", dice=[10])
    shot = _shot(events)
    assert (shot["band"], shot["modifier"], shot["modified"], shot["letter"]) == (
        "medium",
        -3,
        7,
        "B",
    )


def test_crossbow_bonus_at_short_range():
    state = build(
        {"x": ("crossbowman", "besieger", "0119"), "t": ("man-at-arms", "defender", "0519"), **FAR}
    )
    state, events = act(state, "besieger", "/shoot unit:x target:t", dice=[8])
    assert _shot(events)["modified"] == 9 and _shot(events)["letter"] == "A"


def test_heavy_cover_on_a_parapet_from_outside():
    state = build(
        {"a": ("archer", "besieger", "0701"), "t": ("man-at-arms", "defender", "0704"), **FAR}
    )
    state, events = act(state, "besieger", "/shoot unit:a target:t", dice=[9])
    shot = _shot(events)
    assert shot["cover"] == "heavy" and shot["letter"] == "C"


def test_no_shot_without_a_sight_line_and_no_shot_out_of_range():
    state = build({"a": ("archer", "besieger", "1112"), "t": ("man-at-arms", "defender", "1106")})
    assert not legal(state, "besieger", "shoot")  # the keep stands between
    with pytest.raises(RuleError):
        act(state, "besieger", "/shoot unit:a target:t", dice=[9])
    state = build({"a": ("bowman", "besieger", "0101"), "t": ("man-at-arms", "defender", "0120")})
    assert not legal(state, "besieger", "shoot")  # 19 cells: beyond the bowman's 18


def test_figures_without_a_bow_do_not_shoot_and_stunned_archers_neither():
    state = build(
        {
            "k": ("knight", "besieger", "0119"),
            "s": ("archer", "besieger", "0120", "stunned"),
            "t": ("man-at-arms", "defender", "0519"),
        }
    )
    assert not legal(state, "besieger", "shoot")


def _fig(state_word):
    return {
        "wounded": "wounded" in state_word,
        "stunned": "stunned" in state_word,
        "dead": state_word == "dead",
        "stunned_half": 0,
    }


@pytest.mark.parametrize(
    "start,effect,after",
    [
        ("healthy", "stun", "stunned healthy"),
        ("stunned healthy", "stun", "stunned wounded"),
        ("stunned wounded", "stun", "dead"),
        ("wounded", "stun", "stunned wounded"),
        ("healthy", "wound", "wounded"),
        ("wounded", "wound", "dead"),
        ("healthy", "kill", "dead"),
        ("healthy", "fall", "stunned healthy"),
        ("stunned healthy", "fall", "dead"),
        ("wounded", "fall", "dead"),
    ],
)
def test_state_changes(start, effect, after):
    fig = _fig(start)
    assert figures.apply_effect(fig, effect, 3) == after


def test_a_doorway_covers_one_way_and_the_owner_declares_which():
    figs = {
        "in": ("archer", "besieger", "0505"),
        "out": ("archer", "besieger", "0807"),
        "d": ("man-at-arms", "defender", "0506"),
    }
    state = build(figs, phase="move", active="defender")
    assert RULES._sight(state, "out", "d").cover == "medium"  # covered outward by default
    from_inside = RULES._sight(state, "in", "d")
    assert (
        from_inside.possible and from_inside.cover == "none" and "(1.53)" in from_inside.reasons[-2]
    )
    assert legal(state, "defender", "face") == [
        {"type": "face", "side": "defender", "unit": "d", "toward": "in"}
    ]
    state, events = act(state, "defender", "/face unit:d toward:in")
    assert of(events, "faced") and RULES._sight(state, "in", "d").cover == "medium"
    assert RULES._sight(state, "out", "d").cover == "none"
