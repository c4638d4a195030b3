"""Combat of our base: strength + die, terrain advantage, weakening dice, counter-attacks, routes."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError

from .helpers import BLUE_CASTLE, of, play, position

# sword strength 5 range 1; bow strength 3 range 3 (data/tactical-table-war/units.json)


def test_attack_at_least_defence_kills():
    state = position([("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0303")])
    state, events = play(state, "red", "/attack unit:r1 target:b1", [4, 3])  # 9 vs 8
    assert "b1" not in state["units"] and of(events, "combat")[0]["outcome"] == "killed"


def test_failed_attack_leaves_its_die_as_weakening_die_and_the_defender_counters():
    state = position([("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0303")])
    state, events = play(
        state, "red", "/attack unit:r1 target:b1", [2, 5, 1, 6]
    )  # 7 vs 10, counter 6 vs 11
    assert state["units"]["b1"]["weak"] == [2]
    kinds = [e["kind"] for e in of(events, "combat")]
    assert kinds == ["attack", "counter"] and state["units"]["r1"]["weak"] == [1]


def test_weakening_dice_lower_the_defence():
    state = position(
        [
            ("r1", "red", "sword", "0203"),
            {"id": "b1", "side": "blue", "type": "sword", "at": "0303", "weakening": [4]},
        ]
    )
    state, events = play(state, "red", "/attack unit:r1 target:b1", [1, 3])  # 6 vs 5+3-4=4
    assert of(events, "combat")[0]["defence"] == 4 and "b1" not in state["units"]


def test_terrain_advantage_is_added_for_the_defender():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0303")], tiles={"0303": "hill"}
    )
    state, events = play(state, "red", "/attack unit:r1 target:b1", [4, 3, 1, 6])  # 9 vs 5+2+3=10
    combat = of(events, "combat")[0]
    assert combat["terrain_advantage"] == 2 and combat["outcome"] == "held"


def test_on_a_tie_the_defender_strikes_back_and_then_dies():
    state = position([("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0303")])
    state, events = play(
        state, "red", "/attack unit:r1 target:b1", [3, 3, 6, 1]
    )  # 8 vs 8; counter 11 vs 6
    assert [e["outcome"] for e in of(events, "combat")] == ["tie", "killed"]
    assert "b1" not in state["units"] and "r1" not in state["units"]


def test_no_counter_attack_when_the_defenders_range_does_not_reach():
    state = position([("r1", "red", "bow", "0203"), ("b1", "blue", "sword", "0503")])
    state, events = play(state, "red", "/attack unit:r1 target:b1", [1, 6])
    assert [e["kind"] for e in of(events, "combat")] == ["attack"]


def test_attack_needs_a_route_within_range():
    state = position([("r1", "red", "bow", "0203"), ("b1", "blue", "sword", "0703")])
    with pytest.raises(RuleError, match="No attack route"):
        play(state, "red", "/attack unit:r1 target:b1")


def test_each_unit_attacks_once_per_phase():
    state = position(
        [
            ("r1", "red", "bow", "0203"),
            ("b1", "blue", "sword", "0503"),
            ("b2", "blue", "sword", "0403"),
        ]
    )
    state, _ = play(state, "red", "/attack unit:r1 target:b1", [1, 6])
    with pytest.raises(RuleError, match="already attacked"):
        play(state, "red", "/attack unit:r1 target:b2")


def test_attack_routes_may_not_cross_the_enemy_castle_wall():
    from .helpers import RS

    # A quarry on 0804 leaves the castle hex 0904 as the only short way from 0903 to 0905.
    quarry = [{"kind": "quarry", "at": "0804"}]
    state = position(
        [
            ("r1", "red", "bow", "0903"),
            ("b1", "blue", "sword", "0905"),
            ("b2", "blue", "sword", "0101"),
        ],
        prebuilt=quarry,
    )
    assert not [a for a in RS.legal_actions(state, "red") if a.get("target") == "b1"]
    with pytest.raises(RuleError, match="No attack route"):
        play(state, "red", "/attack unit:r1 target:b1")
    # The same route is fine for the castle's owner.
    state = position(
        [("b1", "blue", "bow", "0903"), ("r1", "red", "sword", "0905")],
        prebuilt=quarry,
        active="blue",
    )
    assert {"type": "attack", "side": "blue", "unit": "b1", "target": "r1"} in RS.legal_actions(
        state, "blue"
    )


def test_movement_within_speed_through_friends_never_through_enemies_or_lakes():
    from .helpers import RS

    state = position(
        [
            ("r1", "red", "sword", "0203"),
            ("r2", "red", "sword", "0303"),
            ("b1", "blue", "sword", "0302"),
        ],
        phase="movement",
        tiles={"0204": "lake"},
    )
    targets = {a["to"] for a in RS.legal_actions(state, "red") if a.get("unit") == "r1"}
    assert "0403" in targets  # through the friend at 0303
    assert "0204" not in targets  # lakes cannot be entered
    assert "0303" not in targets and "0302" not in targets
    with pytest.raises(RuleError):
        play(state, "red", "/move unit:r1 to:0503")  # speed 2


def test_units_cannot_enter_the_enemy_castle():
    from .helpers import RS

    state = position(
        [("r1", "red", "shoe", "0704"), ("b1", "blue", "sword", "0701")], phase="movement"
    )
    targets = {a["to"] for a in RS.legal_actions(state, "red") if a.get("unit") == "r1"}
    assert BLUE_CASTLE not in targets and "0804" in targets


def test_refusals_name_the_real_problem():
    state = position([("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0303")])
    with pytest.raises(RuleError, match="has no option 'bogus'"):
        play(state, "red", "/attack unit:r1 target:b1 bogus:1")
    with pytest.raises(RuleError, match="not one of your units"):
        play(state, "red", "/attack unit:b1 target:r1")


def test_a_refused_move_says_why_and_where_the_unit_can_go():
    state = position(
        [("r1", "red", "sword", "0303"), ("b1", "blue", "sword", "0806")],
        phase="movement",
        tiles={"0403": "lake"},
    )
    with pytest.raises(RuleError) as refused:
        play(state, "red", "/move unit:r1 to:0703")
    assert "r1 needs 4 steps to reach 0703 and has speed 2." in str(refused.value)
    assert "0304" in refused.value.legal
    assert "0403" not in refused.value.legal
    moved, _ = play(state, "red", "/move unit:r1 to:0304")
    with pytest.raises(RuleError, match="already moved"):
        play(moved, "red", "/move unit:r1 to:0305")
    with pytest.raises(RuleError, match="not an explored hex"):
        play(state, "red", "/move unit:r1 to:2020")
