"""Defensive fire: the reactive side acts, up to three units of the listed kinds, no movement."""

import pytest

from engine.core.errors import NotYourTurn, RuleError

from .helpers import act, build, grid_map, legal, of_type

OPEN = ["........"] * 8


def position(units, *, card="sp-caution", active="spanish", phase="defensive-fire"):
    return build(
        {"map": grid_map(*OPEN), "phase": phase, "active": active, "card": card, "units": units}
    )


def u(kind, at, **kw):
    return {"type": kind, "at": at, **kw}


def test_reactive_side_fires_and_only_it_may_act():
    state = position(
        {
            "b": u("az-bowmen", "0401"),
            "i": u("sp-infantry", "0403"),
            "w": u("az-warriors", "0806"),
            "c": u("sp-cavalry", "0805"),
        }
    )
    assert state["awaiting"] == ["aztec"]
    assert legal(state, "spanish") == []
    with pytest.raises(NotYourTurn):
        act(state, "spanish", "/attack unit:c target:w", dice=[1])
    state, events = act(state, "aztec", "/fire unit:b target:i", dice=[1])
    event = of_type(events, "attack")[0]
    assert event["defensive"] and event["attackers"] == ["b"] and event["total"] == 3


def test_no_movement_during_defensive_fire():
    state = position(
        {"b": u("az-bowmen", "0401"), "i": u("sp-infantry", "0403"), "w": u("az-warriors", "0806")}
    )
    assert {a["type"] for a in legal(state, "aztec")} == {"fire", "end-phase"}
    with pytest.raises(RuleError, match="not possible during the defensive-fire phase"):
        act(state, "aztec", "/move unit:w to:0805")


def test_at_most_three_units_give_defensive_fire():
    units = {f"b{n}": u("az-bowmen", f"0{2 * n - 1}01") for n in range(1, 5)}
    units.update({f"i{n}": u("sp-infantry", f"0{2 * n - 1}03") for n in range(1, 5)})
    units.update({"w": u("az-warriors", "0806"), "c": u("sp-cavalry", "0805")})  # keeps combat open
    state = position(units)
    for n in range(1, 4):
        state, _ = act(state, "aztec", f"/fire unit:b{n} target:i{n}", dice=[1])
    assert legal(state, "aztec") == []
    assert (state["phase"], state["awaiting"]) == ("combat", ["spanish"])


def test_only_bowmen_artillery_arquebusiers_crossbowmen_and_brigantines_fire():
    aztec = position(
        {"w": u("az-warriors", "0402"), "b": u("az-bowmen", "0503"), "i": u("sp-infantry", "0403")}
    )
    assert {a["unit"] for a in legal(aztec, "aztec", "fire")} == {"b"}
    with pytest.raises(RuleError, match="Only Aztec Bowmen"):
        act(aztec, "aztec", "/fire unit:w target:i", dice=[1])
    lake = ["LLLLLLLL"] + ["........"] * 7
    spanish_units = {
        "inf": u("sp-infantry", "0303"),
        "cav": u("sp-cavalry", "0504"),
        "tlx": u("tlaxcalan", "0404"),
        "arq": u("sp-arquebusiers", "0204"),
        "xb": u("sp-crossbowmen", "0502"),
        "art": u("sp-artillery", "0706"),
        "brig": u("sp-brigantine", "0401"),
        "w": u("az-warriors", "0403"),
    }
    spanish = build(
        {
            "map": grid_map(*lake),
            "phase": "defensive-fire",
            "active": "aztec",
            "card": "az-drums",
            "units": spanish_units,
        }
    )
    assert {a["unit"] for a in legal(spanish, "spanish", "fire")} == {"arq", "xb", "art", "brig"}


def test_disorganised_units_give_no_defensive_fire():
    state = position(
        {
            "b": u("az-bowmen", "0401", disorganised=True),
            "d": u("az-bowmen", "0601"),
            "i": u("sp-infantry", "0403"),
            "j": u("sp-infantry", "0603"),
        }
    )
    assert {a["unit"] for a in legal(state, "aztec", "fire")} == {"d"}


def test_card_without_defensive_fire_skips_the_phase():
    units = {
        "b": u("az-bowmen", "0401"),
        "i": u("sp-infantry", "0404"),
        "w": u("az-warriors", "0806"),
        "c": u("sp-cavalry", "0801"),
    }
    normal = position(units, phase="movement")
    normal, _ = act(normal, "spanish", "/move unit:i to:0403")
    normal, _ = act(normal, "spanish", "/end-phase")
    assert (normal["phase"], normal["awaiting"]) == ("defensive-fire", ["aztec"])
    night = position(units, phase="movement", card="sp-night")
    night, events = act(night, "spanish", "/move unit:i to:0403")
    night, events = act(night, "spanish", "/end-phase")
    assert night["phase"] != "defensive-fire"
    assert {"type": "phase_skipped", "phase": "defensive-fire", "side": "aztec"} in events


def test_retreat_after_defensive_fire_is_decided_by_the_moving_side():
    state = position(
        {
            "b": u("az-bowmen", "0401"),
            "d": u("az-bowmen", "0601"),
            "i": u("sp-infantry", "0403"),
            "j": u("sp-infantry", "0603"),
        }
    )
    state, _ = act(state, "aztec", "/fire unit:b target:i", dice=[5])  # 2+5 = 7 = 6+1
    assert state["pending"]["kind"] == "retreat" and state["awaiting"] == ["spanish"]
    with pytest.raises(NotYourTurn):
        act(state, "aztec", "/fire unit:d target:j", dice=[1])
    state, _ = act(state, "spanish", "/retreat unit:i to:" + state["pending"]["options"][0])
    assert state["awaiting"] == ["aztec"] and state["phase"] == "defensive-fire"


def test_defensive_fire_does_not_use_up_the_units_next_turn():
    state = position(
        {"b": u("az-bowmen", "0401"), "i": u("sp-infantry", "0403"), "c": u("sp-cavalry", "0806")},
        phase="defensive-fire",
    )
    state, _ = act(state, "aztec", "/fire unit:b target:i", dice=[1])
    # The Spanish turn ends (nothing left to do); in the Aztec turn the bowman acts freely.
    assert state["active"] == "aztec" and state["fired"] == []
    assert [a for a in legal(state, "aztec", "move") if a["unit"] == "b"]


def test_a_faster_unit_may_retreat_before_defensive_melee_but_not_before_defensive_ranged_fire():
    state = position(
        {
            "b": u("az-bowmen", "0402"),
            "c": u("sp-cavalry", "0403"),
            "w": u("az-warriors", "0808"),
            "x": u("sp-infantry", "0101"),
        }
    )
    state, events = act(state, "aztec", "/fire unit:b target:c")  # adjacent: melee
    assert of_type(events, "evade_offered") and not of_type(events, "roll")
    assert state["awaiting"] == ["spanish"] and state["pending"]["kind"] == "evade"
    option = state["pending"]["options"][0]
    state, events = act(state, "spanish", f"/retreat unit:c to:{option}")
    assert state["units"]["c"]["at"] == option and state["units"]["c"]["disorganised"]
    assert "b" in state["fired"] and not of_type(events, "advance_offered")
    ranged = position(
        {
            "b": u("az-bowmen", "0401"),
            "c": u("sp-cavalry", "0403"),
            "w": u("az-warriors", "0808"),
            "x": u("sp-infantry", "0101"),
        }
    )
    state, events = act(ranged, "aztec", "/fire unit:b target:c", dice=[1])  # 2 hexes: ranged
    assert not of_type(events, "evade_offered") and of_type(events, "attack")
