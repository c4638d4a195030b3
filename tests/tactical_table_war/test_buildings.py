"""Neutral buildings: supply, building, occupying, conquest, quarry and lumber camp, forges."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.tactical_table_war.units import stats

from .helpers import RS, end_phases, of, play, position


def _settler_state(tiles=None, treasury=2, **kw):
    return position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0806")],
        phase="building",
        tiles=tiles,
        treasury={"red": treasury, "blue": 0},
        **kw,
    )


def test_quarry_needs_an_adjacent_hill_and_costs_two_treasure_dice():
    state = _settler_state()
    with pytest.raises(RuleError, match="adjacent hill"):
        play(state, "red", "/build unit:r1 kind:quarry")
    state = _settler_state(tiles={"0304": "hill"}, treasury=1)
    with pytest.raises(RuleError, match="costs 2 treasure"):
        play(state, "red", "/build unit:r1 kind:quarry")
    state = _settler_state(tiles={"0304": "hill"})
    state, events = play(state, "red", "/build unit:r1 kind:quarry")
    assert state["buildings"]["0303"]["occupant"] == "r1" and state["treasury"]["red"] == 0
    assert of(events, "built")[0]["kind"] == "quarry"


def test_lumber_camp_needs_an_adjacent_forest():
    state = _settler_state(tiles={"0304": "hill"})
    assert {
        "type": "build",
        "side": "red",
        "unit": "r1",
        "kind": "lumber-camp",
    } not in RS.legal_actions(state, "red")
    state = _settler_state(tiles={"0304": "forest"})
    state, _ = play(state, "red", "/build unit:r1 kind:lumber-camp")
    assert state["buildings"]["0303"]["kind"] == "lumber-camp"


def test_a_double_sided_tile_built_as_one_side_is_gone_for_the_other():
    state = _settler_state(tiles={"0304": "forest"}, treasury=2)
    free = lambda s, k: sum(1 for t in s["supply"] if t["at"] is None and k in t["pair"])
    before = free(state, "quarry")
    state, _ = play(state, "red", "/build unit:r1 kind:lumber-camp")
    assert free(state, "quarry") == before - 1


def test_first_come_first_served_until_a_building_is_destroyed():
    five = [{"kind": "quarry", "at": lab} for lab in ("0501", "0601", "0701", "0502", "0602")]
    state = _settler_state(tiles={"0304": "hill"}, prebuilt=five)
    with pytest.raises(RuleError, match="Every quarry tile of the supply is built"):
        play(state, "red", "/build unit:r1 kind:quarry")
    # Destroy one: its tile goes back to the supply.
    units = [
        ("r1", "red", "settler", "0303"),
        ("r2", "red", "sword", "0401"),
        ("b1", "blue", "sword", "0806"),
    ]
    state = position(
        units,
        phase="attack",
        prebuilt=[{**five[0], "damage": 6}] + five[1:],
        tiles={"0304": "hill"},
    )
    state, events = play(state, "red", "/attack unit:r2 target:0501")
    assert of(events, "building_attacked")[0]["destroyed"] and "0501" not in state["buildings"]
    assert any(t["at"] is None and "quarry" in t["pair"] for t in state["supply"])


def test_buildings_withstand_six_attacks():
    units = [("r1", "red", "sword", "0401"), ("b1", "blue", "sword", "0806")]
    state = position(units, prebuilt=[{"kind": "forge", "at": "0501", "damage": 5}])
    state, events = play(state, "red", "/attack unit:r1 target:0501")
    assert (
        not of(events, "building_attacked")[0]["destroyed"]
        and state["buildings"]["0501"]["damage"] == 6
    )
    state = position(units, prebuilt=[{"kind": "forge", "at": "0501", "damage": 6}])
    state, events = play(state, "red", "/attack unit:r1 target:0501")
    assert of(events, "building_attacked")[0]["destroyed"]


def test_attack_routes_end_in_but_never_pass_a_neutral_building():
    # A bow two hexes away: the straight route runs through the forge; the side routes stay open.
    state = position(
        [
            ("r1", "red", "bow", "0303"),
            ("b1", "blue", "sword", "0503"),
            ("b2", "blue", "sword", "0403"),
        ],
        prebuilt=[{"kind": "forge", "at": "0403"}],
    )
    route = RS._route(state, "r1", "0503", 2)
    assert route and "0403" not in route
    # Ending in the building is fine: its occupant can be attacked.
    assert {"type": "attack", "side": "red", "unit": "r1", "target": "b2"} in RS.legal_actions(
        state, "red"
    )
    # Walled in by buildings, no route passes.
    ring = [
        {"kind": k, "at": lab}
        for k, lab in zip(
            ["forge", "forge", "forge", "quarry", "quarry", "quarry"],
            ["0402", "0403", "0404", "0202", "0302", "0304"],
        )
    ]
    ring = [b for b in ring if b["at"] not in ("0202",)]
    state = position(
        [("r1", "red", "bow", "0303"), ("b1", "blue", "sword", "0503")],
        prebuilt=ring + [{"kind": "quarry", "at": "0203"}, {"kind": "quarry", "at": "0204"}],
    )
    assert RS._route(state, "r1", "0503", 3) is None


def test_units_pass_through_neutral_buildings_unless_enemy_held():
    own = position(
        [
            ("r1", "red", "shoe", "0303"),
            ("r2", "red", "settler", "0403"),
            ("b1", "blue", "sword", "0806"),
        ],
        phase="movement",
        prebuilt=[{"kind": "quarry", "at": "0403"}],
    )
    assert "0503" in {a["to"] for a in RS.legal_actions(own, "red") if a.get("unit") == "r1"}
    empty = position(
        [("r1", "red", "shoe", "0303"), ("b1", "blue", "sword", "0806")],
        phase="movement",
        prebuilt=[{"kind": "quarry", "at": "0403"}],
    )
    assert "0503" in {a["to"] for a in RS.legal_actions(empty, "red") if a.get("unit") == "r1"}
    enemy = position(
        [
            ("r1", "red", "shoe", "0303"),
            ("b1", "blue", "settler", "0403"),
            ("b2", "blue", "sword", "0806"),
        ],
        phase="movement",
        prebuilt=[{"kind": "quarry", "at": "0403"}],
        tiles={"0402": "lake", "0404": "lake", "0302": "lake", "0304": "lake"},
    )
    targets = {a["to"] for a in RS.legal_actions(enemy, "red") if a.get("unit") == "r1"}
    assert "0503" not in targets and "0403" in targets  # only a direct conquest of it


def test_occupants_of_neutral_buildings_cannot_attack_but_defend():
    state = position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0403")],
        prebuilt=[{"kind": "quarry", "at": "0303"}],
    )
    with pytest.raises(RuleError, match="works in the quarry"):
        play(state, "red", "/attack unit:r1 target:b1")
    state = position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0403")],
        prebuilt=[{"kind": "quarry", "at": "0303"}],
        active="blue",
    )
    state, events = play(state, "blue", "/attack unit:b1 target:r1", [1, 6, 1, 6])
    assert [e["kind"] for e in of(events, "combat")] == ["attack", "counter"]


def test_direct_conquest_has_no_terrain_advantage_and_the_winner_occupies_at_once():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "settler", "0403")],
        phase="movement",
        prebuilt=[{"kind": "quarry", "at": "0403"}],
        tiles={"0403": "hill"},
    )
    state, events = play(state, "red", "/move unit:r1 to:0403", [2, 5])  # 7 vs 1+0+5
    combat = of(events, "combat")[0]
    assert combat["terrain_advantage"] == 0 and combat["kind"] == "conquest"
    assert "b1" not in state["units"]
    assert state["units"]["r1"]["at"] == "0403" and state["buildings"]["0403"]["occupant"] == "r1"


def test_direct_conquest_lost_kills_the_attacker_and_the_defender_keeps_the_building():
    state = position(
        [("r1", "red", "settler", "0203"), ("b1", "blue", "sword", "0403")],
        phase="movement",
        prebuilt=[{"kind": "quarry", "at": "0403"}],
    )
    state, _ = play(state, "red", "/move unit:r1 to:0403", [1, 6, 6, 1])
    assert "r1" not in state["units"] and state["buildings"]["0403"]["occupant"] == "b1"


def test_indirect_conquest_leaves_the_building_empty_for_a_later_fitting_unit():
    state = position(
        [
            ("r1", "red", "bow", "0203"),
            ("b1", "blue", "settler", "0403"),
            ("b2", "blue", "sword", "0806"),
        ],
        prebuilt=[{"kind": "quarry", "at": "0403", "counter": 3}],
        tiles={"0403": "hill"},
    )
    state, events = play(
        state, "red", "/attack unit:r1 target:b1", [1, 1]
    )  # 4 vs 1+0+1: no terrain
    assert of(events, "combat")[0]["terrain_advantage"] == 0
    assert state["buildings"]["0403"]["occupant"] is None
    assert state["buildings"]["0403"]["counter"] == 3  # the counter die stays
    state, _ = end_phases(state, "red", 1)
    state, _ = end_phases(state, "blue", 4)  # blue's turn passes
    state, events = play(state, "red", "/move unit:r1 to:0403")
    assert state["buildings"]["0403"]["occupant"] == "r1" and of(events, "occupied")


def test_quarry_counter_placed_raised_by_adjacent_hills_and_paid_at_six():
    hills = {"0304": "hill", "0302": "hill"}
    state = position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0806")],
        phase="attack",
        active="blue",
        prebuilt=[{"kind": "quarry", "at": "0303"}],
        tiles=hills,
    )
    state, _ = play(state, "blue", "/end-phase")  # red's preparation: counter placed
    assert state["buildings"]["0303"]["counter"] == 1
    base = state["treasury"]["red"]
    for expected in (3, 5):
        state, _ = end_phases(state, "red", 4)
        state, _ = end_phases(state, "blue", 4)
        assert state["buildings"]["0303"]["counter"] == expected
    state, _ = end_phases(state, "red", 4)
    state, _ = end_phases(state, "blue", 4)  # 5 + 2 reaches 6: paid, new counter
    assert state["buildings"]["0303"]["counter"] == 1
    assert state["treasury"]["red"] == base + 3 * 2 + 1  # castle each round + the quarry die


def test_quarry_with_six_adjacent_hills_yields_a_die_every_round():
    from engine.tactical_table_war.board import neighbour_labels

    hills = {lab: "hill" for lab in neighbour_labels("0404")}
    state = position(
        [("r1", "red", "settler", "0404"), ("b1", "blue", "sword", "0806")],
        phase="attack",
        active="blue",
        prebuilt=[{"kind": "quarry", "at": "0404"}],
        tiles=hills,
    )
    state, events = play(state, "blue", "/end-phase")
    assert state["buildings"]["0404"]["counter"] is None
    assert of(events, "treasure")[0]["dice"] == 3


def test_an_unoccupied_quarry_does_not_work():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0806")],
        phase="attack",
        active="blue",
        prebuilt=[{"kind": "quarry", "at": "0303"}],
        tiles={"0304": "hill"},
    )
    state, _ = play(state, "blue", "/end-phase")
    assert state["buildings"]["0303"]["counter"] is None and state["treasury"]["red"] == 2


def test_forges_give_their_bonus_by_the_simple_unit_occupying_them():
    units = [
        ("r1", "red", "bow", "0303"),
        ("r2", "red", "sword", "0503"),
        ("r3", "red", "shoe", "0603"),
        ("r4", "red", "bow", "0202"),
        ("b1", "blue", "sword", "0806"),
    ]
    plain = position(units)
    forged = position(units, prebuilt=[{"kind": "forge", "at": "0303"}])
    assert stats(RS.cat, forged, "r4")["range"] == stats(RS.cat, plain, "r4")["range"] + 1
    units[0] = ("r1", "red", "sword", "0303")
    forged = position(units, prebuilt=[{"kind": "forge", "at": "0303"}])
    assert stats(RS.cat, forged, "r2")["strength"] == stats(RS.cat, plain, "r2")["strength"] + 2
    units[0] = ("r1", "red", "shoe", "0303")
    forged = position(units, prebuilt=[{"kind": "forge", "at": "0303"}])
    assert stats(RS.cat, forged, "r3")["speed"] == stats(RS.cat, plain, "r3")["speed"] + 1
    # Only for the occupant's side.
    assert stats(RS.cat, forged, "b1") == stats(RS.cat, plain, "b1")


def test_only_simply_trained_units_may_occupy_a_forge():
    units = [
        {"id": "r1", "side": "red", "type": "bow", "level": "advanced", "at": "0203"},
        {"id": "r2", "side": "red", "type": "recruit", "at": "0205"},
        ("r3", "red", "sword", "0202"),
        ("b1", "blue", "sword", "0806"),
    ]
    state = position(units, phase="movement", prebuilt=[{"kind": "forge", "at": "0303"}])
    entering = {a["unit"] for a in RS.legal_actions(state, "red") if a.get("to") == "0303"}
    assert entering == {"r3"}


def test_a_settler_builds_a_forge_and_occupies_it():
    state = _settler_state()
    state, _ = play(state, "red", "/build unit:r1 kind:forge")
    assert state["buildings"]["0303"] == {
        "kind": "forge",
        "tile": state["buildings"]["0303"]["tile"],
        "occupant": "r1",
        "damage": 0,
        "counter": None,
    }


def test_a_conquest_that_nobody_wins_leaves_the_attacker_on_a_free_hex_next_to_the_building():
    # From 0203 the nearest hexes next to the quarry are 0303 (a friend stands there) and 0304.
    state = position(
        [
            ("r1", "red", "sword", "0203"),
            ("r2", "red", "bow", "0303"),
            ("b1", "blue", "sword", "0403"),
            ("b2", "blue", "sword", "0806"),
        ],
        phase="movement",
        prebuilt=[{"kind": "quarry", "at": "0403"}],
    )
    state, _ = play(state, "red", "/move unit:r1 to:0403", [1, 6, 1, 6])  # neither falls
    assert state["units"]["r1"]["at"] == "0304" and state["buildings"]["0403"]["occupant"] == "b1"
    assert len({u["at"] for u in state["units"].values()}) == len(state["units"])
