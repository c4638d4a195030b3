"""Melee by odds (1.7): rounding, the 1-1 floor, column shifts, several figures, results,
retreats, advancing, and the arithmetic on every result line."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError

from .helpers import RULES, act, build, legal, of


def test_odds_round_down_in_the_defenders_favour_and_the_line_shows_the_arithmetic():
    state = build(
        {"k": ("knight", "besieger", "0119"), "b": ("bowman", "defender", "0219")}, phase="melee"
    )
    state, _ = act(state, "besieger", "/attack unit:k target:b")
    state, events = act(state, "besieger", "/fight", dice=[4])
    line = of(events, "melee")[0]
    assert (line["attack"], line["defence"], line["odds"], line["column"]) == (8, 3, 2, "2-1")
    assert "attack K 8 = 8 vs defence B 3 = 3: 8/3 -> 2-1" in line["text"]
    assert "d10 4" in line["text"] and "column 2-1" in line["text"]


def test_odds_below_one_to_one_are_not_allowed():
    state = build(
        {"p": ("peasant", "besieger", "0119"), "k": ("knight", "defender", "0219")}, phase="melee"
    )
    state, _ = act(state, "besieger", "/attack unit:p target:k")
    assert not legal(state, "besieger", "fight")
    with pytest.raises(RuleError):
        act(state, "besieger", "/fight", dice=[5])


def test_rulebook_example_two_attackers_on_plus_and_minus_against_plus_defender():
    # 1.72: 4-1, defender on '+', attackers' worst terrain '-' -> 2-1, several attackers -> 3-1.
    figs = {
        "m": ("man-at-arms", "besieger", "0704"),  # parapet (+)
        "b": ("bowman", "besieger", "0705"),  # stairs (-)
        "p": ("peasant", "defender", "0804"),
    }  # parapet (+)
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:m target:p")
    state, _ = act(state, "besieger", "/attack unit:b target:p")
    state, events = act(state, "besieger", "/fight", dice=[1])
    line = of(events, "melee")[0]
    assert line["base_column"] == "4-1" and line["column"] == "3-1"
    assert [s for s, _ in line["shifts"]] == [-1, -1, 1]
    assert "several attackers" in line["text"] and "stairs" in line["text"]


def test_attacker_outside_the_keep_against_its_entrance_fights_on_unfavourable_terrain():
    figs = {"k": ("knight", "besieger", "1112"), "g": ("man-at-arms", "defender", "1111")}
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:g")
    state, events = act(state, "besieger", "/fight", dice=[4])
    line = of(events, "melee")[0]
    assert line["base_column"] == "1-1" and line["column"] == "1-2"
    assert "keep entrance" in line["text"]


def test_no_attack_into_a_cell_the_attacker_could_not_enter():
    # A figure in the moat cannot climb onto the parapet above it, so it cannot fight there.
    figs = {"m": ("man-at-arms", "besieger", "0703"), "p": ("peasant", "defender", "0704")}
    state = build(figs, phase="melee")
    assert not legal(state, "besieger", "attack")
    state = build(figs, phase="melee", active="defender")
    assert not legal(state, "defender", "attack")


def test_one_attacker_against_several_defenders_adds_their_defence_and_their_owner_chooses():
    figs = {
        "k": ("knight", "besieger", "0808"),
        "x": ("peasant", "defender", "0708"),
        "y": ("peasant", "defender", "0807"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:x")
    state, _ = act(state, "besieger", "/attack unit:k target:y")
    state, events = act(state, "besieger", "/fight", dice=[10])  # 8 vs 4: 2-1, 10: A killed
    assert of(events, "melee")[0]["defence"] == 4
    assert state["awaiting"] == ["defender"]
    assert {a["unit"] for a in legal(state, "defender")} == {"x", "y"}
    assert legal(state, "besieger") == []
    state, events = act(state, "defender", "/take unit:y")
    assert state["figures"]["y"]["dead"] and not state["figures"]["x"]["dead"]
    # The winner may then advance into the dead figure's cell.
    assert {(a["unit"], a["to"]) for a in legal(state, "besieger", "advance")} == {("k", "0807")}


def test_several_attackers_only_against_one_defender_and_one_melee_at_a_time():
    figs = {
        "a": ("knight", "besieger", "0808"),
        "b": ("knight", "besieger", "0909"),
        "x": ("peasant", "defender", "0908"),
        "y": ("peasant", "defender", "0807"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:a target:x")
    state, _ = act(state, "besieger", "/attack unit:b target:x")
    offered = {(x["unit"], x["target"]) for x in legal(state, "besieger", "attack")}
    assert ("a", "y") not in offered  # would make it several against several
    assert not legal(state, "besieger", "end-phase")


def test_retreat_hits_every_defender_and_winner_advances_into_the_freed_cell():
    figs = {
        "k": ("knight", "besieger", "0808"),
        "x": ("peasant", "defender", "0708"),
        "y": ("peasant", "defender", "0807"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:x")
    state, _ = act(state, "besieger", "/attack unit:k target:y")
    state, _ = act(state, "besieger", "/fight", dice=[6])  # 2-1, 6: D defenders retreat
    # The defenders' owner moves each one a cell away, next to no enemy where possible.
    for _ in range(2):
        assert state["awaiting"] == ["defender"] and legal(state, "besieger") == []
        choice = legal(state, "defender")
        assert {a["type"] for a in choice} == {"retreat"} and len(choice) > 1
        assert all(RULES.board(state).distance(a["to"], "0808") > 1 for a in choice)
        state, _ = act(
            state, "defender", f"/retreat unit:{choice[-1]['unit']} to:{choice[-1]['to']}"
        )
    assert state["figures"]["x"]["at"] != "0708" and state["figures"]["y"]["at"] != "0807"
    options = {a["to"] for a in legal(state, "besieger", "advance")}
    assert options == {"0708", "0807"}
    state, _ = act(state, "besieger", "/advance unit:k to:0708")
    assert state["figures"]["k"]["at"] == "0708" and state["awaiting"] == ["besieger"]


def test_attackers_retreat_and_the_defender_may_advance_or_stay():
    figs = {"k": ("knight", "besieger", "0808"), "s": ("sergeant", "defender", "0708")}
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:s")
    state, events = act(
        state, "besieger", "/fight", dice=[1]
    )  # 8 vs 6: 1-1, 1: E attackers retreat
    assert of(events, "choose_retreat")[0]["unit"] == "k" and state["awaiting"] == ["besieger"]
    state, events = act(state, "besieger", "/retreat unit:k to:0909")
    assert of(events, "retreated")[0]["to"] == "0909"
    assert state["awaiting"] == ["defender"]
    state, events = act(state, "defender", "/stay")
    assert state["awaiting"] == ["besieger"] and state["figures"]["s"]["at"] == "0708"


def test_a_figure_that_cannot_retreat_is_stunned_instead():
    # The defender stands in a dead-end: the tower's slit, reachable only from inside.
    figs = {
        "k": ("knight", "besieger", "0505"),
        "p": ("peasant", "defender", "0404"),
        "q": ("peasant", "defender", "0405"),
        "r": ("peasant", "defender", "0504"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:p")
    state, events = act(
        state, "besieger", "/fight", dice=[8]
    )  # 8 vs 2: 4-1, slit (+) -> 3-1, 8: B wounded
    assert state["figures"]["p"]["wounded"]
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:p")
    state, events = act(state, "besieger", "/fight", dice=[5])  # 3-1, 5: D defenders retreat
    assert of(events, "cannot_retreat") and state["figures"]["p"]["stunned"]
    assert state["figures"]["p"]["at"] == "0404"


def test_advance_uses_half_movement_through_the_freed_cell_unless_it_touches_an_enemy():
    figs = {
        "k": ("knight", "besieger", "0808"),
        "p": ("peasant", "defender", "0708"),
        "far": ("peasant", "defender", "1813"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:p")
    state, events = act(state, "besieger", "/fight", dice=[10])  # 8 vs 2: 4-1, 10: A killed
    assert state["figures"]["p"]["dead"]
    targets = {a["to"] for a in legal(state, "besieger", "advance")}
    assert (
        "0708" in targets and "0608" in targets and "0808" not in targets
    )  # knight: 5 // 2 = 2 points
    assert all(a["unit"] == "k" for a in legal(state, "besieger", "advance"))
    state, events = act(state, "besieger", "/advance unit:k to:0608")
    assert of(events, "advanced")[0]["path"] == ["0808", "0708", "0608"]
    figs["near"] = ("peasant", "defender", "0607")
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:k target:p")
    state, events = act(state, "besieger", "/fight", dice=[10])
    assert {a["to"] for a in legal(state, "besieger", "advance")} == {"0708"}


def test_a_defender_inside_a_tower_or_the_keep_stands_on_favourable_terrain():
    # 1.1 terrain chart, row "Innere eines [Turms] | 1 | gemäß der Position des Schützen | +":
    # inside a building a figure fights on '+'. Man-at-arms 5 against a peasant 2: 2-1 base,
    # one column left for the defender inside.
    for door, inside, where in (
        ("0506", "0505", "inside of a tower"),
        ("1111", "1110", "inside of the keep"),
    ):
        figs = {"m": ("man-at-arms", "besieger", door), "p": ("peasant", "defender", inside)}
        state = build(figs, phase="melee")
        state, _ = act(state, "besieger", "/attack unit:m target:p")
        state, events = act(state, "besieger", "/fight", dice=[4])
        line = of(events, "melee")[0]
        assert line["base_column"] == "2-1" and line["column"] == "1-1", (where, line["text"])
        assert f"defender on {inside} {where} (+)" in line["text"]
