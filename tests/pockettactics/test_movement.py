"""Moving: adjacent steps, one jump over an ally, bonus moves, features, hazards, water."""

import pytest

from engine.core.errors import RuleError

from .helpers import act, legal, of, position


def moves(state, unit):
    return sorted(c.split("to:")[1] for c in legal(state) if c.startswith(f"/move unit:{unit} "))


def within(centre, n, radius_map):
    from engine.core import hexgrid

    c = hexgrid.parse_label(centre)
    return sorted(
        hexgrid.label(h)
        for h in hexgrid.within(c, n)
        if h != c and hexgrid.distance(h, hexgrid.parse_label("0808")) <= radius_map
    )


def test_move_to_any_free_adjacent_tile():
    state = position({"spearman": "0808", "goblin": "0807"})
    assert moves(state, "spearman") == ["0708", "0709", "0809", "0908", "0909"]
    state, events = act(state, "/move unit:spearman to:0809")
    assert state["units"]["spearman"]["at"] == "0809" and state["active"] == "south"
    assert of(events, "moved")[0]["path"] == ["0808", "0809"]


def test_jump_over_one_ally_but_not_two():
    # a line of allies 0807, 0806 north of the spearman: it can land next to 0807 only
    state = position({"spearman": "0808", "archer": "0807", "rider": "0806", "troll": "reserve"})
    dests = moves(state, "spearman")
    assert "0707" in dests and "0907" in dests  # next to the jumped archer
    assert "0805" not in dests  # would need a second jump
    # a fast rider in a corridor 0803-0808: one jump over the archer, but not a second over the spearman
    from engine.core import hexgrid

    corridor = {"0803", "0804", "0805", "0806", "0807", "0808", "0809", "0810", "0811"}
    gaps = {
        hexgrid.label(h): None
        for h in hexgrid.within(hexgrid.parse_label("0808"), 5)
        if hexgrid.label(h) not in corridor
    }
    state = position(
        {"rider": "0808", "archer": "0807", "spearman": "0805", "goblin": "0811"},
        radius=5,
        tiles=gaps,
    )
    assert moves(state, "rider") == ["0806", "0809", "0810"]


def test_no_jump_over_enemies_for_walkers_but_flyers_may():
    state = position({"spearman": "0808", "goblin": "0807"})
    assert "0806" not in moves(state, "spearman")
    # flyers: see test_flying_units_get_bonus_moves_over_enemies_and_features (a 4-tile reach needs a jump)


def test_empty_spaces_cannot_be_entered():
    state = position({"spearman": "0808", "troll": "reserve"}, tiles={"0809": None})
    assert "0809" not in moves(state, "spearman")
    with pytest.raises(RuleError, match="not a tile of the map"):
        act(state, "/move unit:spearman to:0809")
    with pytest.raises(RuleError, match="occupied"):
        act(
            position({"spearman": "0808", "archer": "0809", "troll": "reserve"}),
            "/move unit:spearman to:0809",
        )


def test_fast_units_get_bonus_moves():
    state = position({"rider": "0808", "troll": "reserve"}, radius=4)  # fast 2: up to three steps
    assert moves(state, "rider") == within("0808", 3, 4)
    goblin = position(
        {"goblin": "0808", "spearman": "reserve"}, active="south"
    )  # fast 1: up to two steps
    assert moves(goblin, "goblin") == within("0808", 2, 3)


def test_a_flyer_takes_its_bonus_moves_when_activated_to_attack():
    # flyers take bonus moves "wenn sie aktiviert werden", fast units only "wenn sie zum Bewegen
    # aktiviert werden": the eagle (flying 2) flies 0806 -> 0808 and then attacks the goblin at 0809
    state = position({"eagle": "0806", "goblin": "0809"})
    assert "/attack unit:eagle target:goblin" not in legal(state)  # 3 tiles away
    assert "/attack unit:eagle target:goblin to:0808" in legal(state)
    won, events = act(state, "/attack unit:eagle target:goblin to:0808", dice=[6, 1, 1, 1])
    assert of(events, "moved")[0]["path"][0] == "0806" and of(events, "moved")[0]["to"] == "0808"
    assert of(events, "combat")[0]["from"] == "0808" and of(events, "combat")[0]["attack"]["hit"]
    assert won["units"]["eagle"]["at"] == "0809" and won["units"]["goblin"]["status"] == "captured"
    with pytest.raises(RuleError, match="cannot fly to 0811 with its 2 bonus moves"):
        act(state, "/attack unit:eagle target:goblin to:0811")
    # the fast rider and a walker attack from where they stand
    fast = position({"rider": "0806", "goblin": "0809"})
    assert not [c for c in legal(fast) if c.startswith("/attack")]
    with pytest.raises(RuleError, match="Only flying units take bonus moves before they attack"):
        act(fast, "/attack unit:rider target:goblin to:0808")
    # landing is entering: water drowns the eagle on 1-3 and the attack never happens
    wet = position({"eagle": "0806", "goblin": "0809"}, tiles={"0808": "water"})
    wet, events = act(wet, "/attack unit:eagle target:goblin to:0808", dice=[2])
    assert wet["units"]["eagle"]["status"] == "captured" and not of(events, "combat")
    assert wet["result"]["winner"] == "south"  # north has no unit left


def test_a_flying_shooter_may_fly_before_it_fires():
    # the wyvern (flying 2, ranged 1: reaches 2) flies 0811 -> 0809 and fires at the spearman at 0807
    state = position({"wyvern": "0811", "spearman": "0807"}, active="south")
    assert not [c for c in legal(state) if c.startswith("/fire") and "to:" not in c]
    assert "/fire unit:wyvern target:spearman to:0809" in legal(state)
    # wyvern OFF 6,6 DEF 6 (nothing left to raise), spearman DEF 1,1 and no OFF: out of its range
    state, events = act(state, "/fire unit:wyvern target:spearman to:0809", dice=[6, 6, 6, 1, 1])
    assert of(events, "combat")[0]["from"] == "0809" and of(events, "no_counter")
    assert (
        state["units"]["wyvern"]["at"] == "0809"
        and state["units"]["spearman"]["status"] == "captured"
    )


def test_flying_units_get_bonus_moves_over_enemies_and_features():
    forest = {"terrain": "grass", "feature": "forest"}
    state = position(
        {"eagle": "0808", "goblin": "0809", "slinger": "0709", "lizard": "0909"},
        radius=4,
        tiles={"0810": forest, "0708": forest, "0908": forest},
    )
    expected = [lab for lab in within("0808", 3, 4) if lab not in ("0809", "0709", "0909")]
    dests = moves(state, "eagle")
    assert set(expected) <= set(dests)  # three steps through anything
    # the one jump (over an enemy) covers two tiles, so a few tiles four away are reachable too
    from engine.core import hexgrid

    assert (
        max(hexgrid.distance(hexgrid.parse_label(d), hexgrid.parse_label("0808")) for d in dests)
        == 4
    )


def test_stopping_features_end_the_move():
    forest = {"terrain": "grass", "feature": "forest"}
    state = position(
        {"rider": "0808", "troll": "reserve"},
        tiles={
            "0809": forest,
            "0709": "sand",
            "0909": "sand",
            "0708": "sand",
            "0908": "sand",
            "0807": "sand",
        },
    )
    dests = moves(state, "rider")
    assert sorted(dests) == ["0708", "0709", "0807", "0809", "0908", "0909"]


def test_no_jump_in_features_and_flyers_only_crags():
    city = {"terrain": "grass", "feature": "city"}
    state = position(
        {"spearman": "0808", "archer": "0809", "troll": "reserve"}, tiles={"0810": city}
    )
    assert "0810" not in moves(state, "spearman")  # a jump may not land in a city
    crag = {"terrain": "grass", "feature": "crag"}
    state = position(
        {"spearman": "0808", "eagle": "0806", "troll": "reserve"}, tiles={"0809": crag}
    )
    assert "0809" not in moves(state, "spearman")
    assert "0809" in moves(state, "eagle")


def test_water_drowns_on_one_to_three():
    state = position({"spearman": "0808", "goblin": "0811"}, tiles={"0809": "water"})
    drowned, events = act(state, "/move unit:spearman to:0809", dice=[3])
    assert (
        drowned["units"]["spearman"]["status"] == "captured"
        and drowned["units"]["spearman"]["by"] == "south"
    )
    assert of(events, "captured")[0]["reason"] == "drowned"
    safe, _ = act(state, "/move unit:spearman to:0809", dice=[4])
    assert safe["units"]["spearman"]["at"] == "0809"
    flyer = position({"eagle": "0808", "goblin": "0811"}, tiles={"0809": "water"})
    drowned, _ = act(
        flyer, "/move unit:eagle to:0809", dice=[1]
    )  # no exception for flyers landing in water
    assert drowned["units"]["eagle"]["by"] == "south"


def test_preferred_terrain_ignores_the_hazard():
    state = position({"troll": "0808", "spearman": "0805"}, active="south", tiles={"0809": "water"})
    state, events = act(state, "/move unit:troll to:0809")  # no die supplied: none rolled
    assert state["units"]["troll"]["at"] == "0809" and not of(events, "roll")


def test_a_feature_cancels_the_terrain_hazard():
    state = position(
        {"spearman": "0808", "troll": "reserve"},
        tiles={"0809": {"terrain": "water", "feature": "village"}},
    )
    state, events = act(state, "/move unit:spearman to:0809")
    assert state["units"]["spearman"]["at"] == "0809" and not of(events, "roll")


def test_def_test_hazard_defeats_on_failure():
    state = position({"spearman": "0808", "troll": "reserve"}, tiles={"0809": "lava"})
    burnt, events = act(state, "/move unit:spearman to:0809", dice=[4, 3])
    assert burnt["units"]["spearman"]["status"] == "captured"
    assert of(events, "test")[0] == {
        "type": "test",
        "unit": "spearman",
        "kind": "def",
        "why": "hazard at 0809",
        "dice": [4, 3],
        "passed": False,
    }
    fine, _ = act(state, "/move unit:spearman to:0809", dice=[2, 5])
    assert fine["units"]["spearman"]["at"] == "0809"


def test_off_test_hazard_fails_the_action():
    state = position({"spearman": "0808", "troll": "reserve"}, tiles={"0809": "marsh"})
    stuck, events = act(state, "/move unit:spearman to:0809", dice=[1, 4])
    assert stuck["units"]["spearman"]["at"] == "0808" and of(events, "action_failed")
    assert stuck["active"] == "south"  # the action is spent
    through, _ = act(state, "/move unit:spearman to:0809", dice=[6, 1])
    assert through["units"]["spearman"]["at"] == "0809"


def test_hazards_end_a_walkers_move_but_flyers_pass_over():
    # the rider may not continue through the water tile 0809 to 0810 (0810 is reachable around it)
    state = position(
        {"rider": "0808", "troll": "reserve"},
        radius=2,
        tiles={"0809": "water", "0709": None, "0909": None},
    )
    assert "0810" not in moves(state, "rider")
    state = position(
        {"eagle": "0808", "troll": "reserve"},
        radius=2,
        tiles={"0809": "water", "0709": None, "0909": None},
    )
    assert "0810" in moves(state, "eagle")


def test_moving_onto_a_feature_takes_control():
    state = position({"spearman": "0810", "goblin": "0806"})
    state, events = act(state, "/move unit:spearman to:0811")
    assert state["control"]["0811"] == "north"
    assert of(events, "control")[0] == {
        "type": "control",
        "at": "0811",
        "side": "north",
        "was": "south",
    }
