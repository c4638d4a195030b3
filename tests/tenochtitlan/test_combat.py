"""Combat: thresholds, combined attacks, limits, range and LOS, ZOC, retreats, advances,
retreat before combat, artillery, card bonuses, terrain and forts."""

import pytest

from engine.core import hexgrid
from engine.core.errors import NotYourTurn, RuleError

from .helpers import act, build, grid_map, legal, of_type

OPEN = ["........"] * 8


def fight(units, *, terrain=OPEN, card="sp-caution", **extra):
    return build(
        {
            "map": grid_map(*terrain, **extra.pop("map_extra", {})),
            "phase": "combat",
            "card": card,
            "units": units,
            **extra,
        }
    )


def u(kind, at, **kw):
    return {"type": kind, "at": at, **kw}


def attack_event(events):
    (event,) = of_type(events, "attack")
    return event


# ----- thresholds ---------------------------------------------------------------------------------


@pytest.mark.parametrize("roll,result", [(1, "none"), (2, "retreat"), (3, "eliminated")])
def test_result_thresholds(roll, result):
    # Infantry attack 3 vs warriors defence 4: 3+1=4 < 5 nothing; 3+2=5 >= 4+1 retreat; 6 >= 4+2 eliminated.
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "x": u("sp-infantry", "0101"),
        }
    )
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[roll])
    event = attack_event(events)
    assert (event["total"], event["defence"], event["result"]) == (3 + roll, 4, result)
    assert [e["purpose"] for e in of_type(events, "roll")] == ["attack on w"]
    if result == "none":
        assert state["units"]["w"]["at"] == "0405" and not state["units"]["w"]["disorganised"]
    elif result == "retreat":
        assert state["units"]["w"]["disorganised"] and state["pending"]["kind"] == "retreat"
    else:
        assert "w" not in state["units"] and "w" in state["eliminated"]


def test_combined_attack_adds_one_for_the_second_unit():
    state = fight(
        {"i": u("sp-infantry", "0404"), "j": u("sp-cavalry", "0305"), "w": u("az-warriors", "0405")}
    )
    state, events = act(state, "spanish", "/attack unit:i target:w with:j", dice=[1])
    event = attack_event(events)
    assert (event["base"], event["combined"], event["total"], event["result"]) == (
        3,
        1,
        5,
        "retreat",
    )
    assert set(state["attacked"]) == {"i", "j"} and state["attacks_used"] == 2


def test_card_attack_limit_counts_each_unit_of_a_combined_attack():
    units = {
        "i": u("sp-infantry", "0404"),
        "j": u("sp-infantry", "0305"),
        "e": u("az-eagle", "0405"),
        "v": u("az-warriors", "0406"),
    }
    one = fight(units, card="sp-council")  # attack limit 1
    assert not [a for a in legal(one, "spanish", "attack") if "with" in a]
    with pytest.raises(RuleError, match="allows 1 attacking unit"):
        act(one, "spanish", "/attack unit:i target:e with:j")
    two = fight(units, card="sp-caution")  # attack limit 2
    state, events = act(two, "spanish", "/attack unit:i target:e with:j", dice=[1])
    assert attack_event(events)["result"] == "none"
    # Both units counted: the limit of two is used up and the combat phase is over.
    assert legal(state, "spanish", "attack") == []
    assert any(e["type"] == "phase_skipped" or e["type"] == "phase_started" for e in events)


def test_each_unit_attacks_once_per_turn():
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "v": u("az-warriors", "0403"),
            "x": u("sp-infantry", "0402"),
        },
        card="sp-santiago",
    )
    state, _ = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    with pytest.raises(RuleError, match="already attacked"):
        act(state, "spanish", "/attack unit:i target:v", dice=[1])


def test_disorganised_units_cannot_attack():
    state = fight(
        {
            "i": u("sp-infantry", "0404", disorganised=True),
            "x": u("sp-infantry", "0402"),
            "w": u("az-warriors", "0403"),
        }
    )
    assert {a["unit"] for a in legal(state, "spanish", "attack")} == {"x"}
    with pytest.raises(RuleError, match="disorganised"):
        act(state, "spanish", "/attack unit:i target:w", dice=[6])


# ----- range, line of sight, moved units, ZOC ----------------------------------------------------


def test_range_counts_hexes_to_the_target():
    state = fight(
        {
            "a": u("sp-arquebusiers", "0401"),
            "w": u("az-warriors", "0404"),
            "v": u("az-warriors", "0405"),
        }
    )
    targets = {x["target"] for x in legal(state, "spanish", "attack") if x["unit"] == "a"}
    assert targets == {"w"}  # 3 hexes yes, 4 no
    with pytest.raises(RuleError, match="its range is 3"):
        act(state, "spanish", "/attack unit:a target:v", dice=[1])


def test_blocking_terrain_and_units_block_ranged_fire_but_artillery_fires_over_units():
    hills = list(OPEN)
    hills[1] = "...h...."  # hills at 0402
    blocked = fight(
        {"a": u("sp-arquebusiers", "0401"), "w": u("az-warriors", "0403")}, terrain=hills
    )
    assert not legal(blocked, "spanish", "attack")
    screen = {
        "a": u("sp-arquebusiers", "0401"),
        "s": u("sp-artillery", "0101"),
        "f": u("sp-infantry", "0402", disorganised=True),
        "w": u("az-warriors", "0403"),
    }
    state = fight(screen)
    shooters = {x["unit"] for x in legal(state, "spanish", "attack") if x["target"] == "w"}
    assert "a" not in shooters  # the friend in 0402 blocks the musket
    art = fight(
        {
            "s": u("sp-artillery", "0401"),
            "f": u("sp-infantry", "0402", disorganised=True),
            "w": u("az-warriors", "0403"),
        }
    )
    assert {x["unit"] for x in legal(art, "spanish", "attack")} == {"s"}
    art_hills = fight(
        {"s": u("sp-artillery", "0401"), "w": u("az-warriors", "0403")}, terrain=hills
    )
    assert not legal(art_hills, "spanish", "attack")  # but not over hills


def test_a_unit_on_blocking_terrain_may_itself_be_targeted():
    hills = list(OPEN)
    hills[2] = "...h...."  # hills at 0403, the target's hex
    state = fight({"a": u("sp-arquebusiers", "0401"), "w": u("az-warriors", "0403")}, terrain=hills)
    assert legal(state, "spanish", "attack")


def _edge_pair():
    a = hexgrid.parse_label("0404")
    for b in hexgrid.within(a, 2):
        line = hexgrid.sight_line(a, b)
        if hexgrid.distance(a, b) == 2 and line.edges:
            return hexgrid.label(b), [hexgrid.label(h) for h in line.edges[0]]
    raise AssertionError("no hexside line found")


def test_line_of_sight_along_a_hexside_is_blocked_only_if_both_sides_block():
    target, (left, right) = _edge_pair()

    def terrain(*hill_labels):
        rows = [list(r) for r in OPEN]
        for lab in hill_labels:
            rows[int(lab[2:]) - 1][int(lab[:2]) - 1] = "h"
        return ["".join(r) for r in rows]

    units = {"a": u("sp-arquebusiers", "0404"), "w": u("az-warriors", target)}
    assert legal(fight(units, terrain=terrain(left)), "spanish", "attack")
    assert legal(fight(units, terrain=terrain(right)), "spanish", "attack")
    assert not legal(fight(units, terrain=terrain(left, right)), "spanish", "attack")


def test_units_that_moved_attack_only_adjacent_enemies_but_brigantines_fire_after_moving():
    state = fight(
        {
            "a": u("sp-arquebusiers", "0401", moved=True),
            "w": u("az-warriors", "0403"),
            "v": u("az-warriors", "0302"),
        }
    )
    assert {x["target"] for x in legal(state, "spanish", "attack") if x["unit"] == "a"} == {"v"}
    with pytest.raises(RuleError, match="moved"):
        act(state, "spanish", "/attack unit:a target:w", dice=[1])
    # With no enemy next to it (so no ZOC restriction), the moved unit still may not fire at range.
    keep_open = {
        "x": u("sp-infantry", "0707"),
        "y": u("az-warriors", "0708"),
    }  # so combat is not skipped
    alone = fight(
        {"a": u("sp-arquebusiers", "0401", moved=True), "w": u("az-warriors", "0403"), **keep_open}
    )
    assert not [x for x in legal(alone, "spanish", "attack") if x["unit"] == "a"]
    with pytest.raises(RuleError, match="moved this turn and may only attack an adjacent"):
        act(alone, "spanish", "/attack unit:a target:w", dice=[1])
    still = fight({"a": u("sp-arquebusiers", "0401"), "w": u("az-warriors", "0403"), **keep_open})
    assert [x for x in legal(still, "spanish", "attack") if x["unit"] == "a"]
    lake = ["LLLLLLLL"] * 4 + ["........"] * 4
    brig = fight(
        {"b": u("sp-brigantine", "0402", moved=True), "w": u("az-warriors", "0405")}, terrain=lake
    )
    assert {x["target"] for x in legal(brig, "spanish", "attack")} == {"w"}


def test_unit_in_enemy_zoc_may_only_attack_units_exerting_it():
    state = fight(
        {
            "a": u("sp-arquebusiers", "0404"),
            "w": u("az-warriors", "0405"),
            "v": u("az-warriors", "0402"),
        }
    )
    assert {x["target"] for x in legal(state, "spanish", "attack")} == {"w"}
    with pytest.raises(RuleError, match="zone of control"):
        act(state, "spanish", "/attack unit:a target:v", dice=[1])


def test_land_and_water_units_attack_each_other_when_adjacent():
    shore = ["LLLLLLLL"] * 4 + ["........"] * 4
    state = fight({"i": u("sp-infantry", "0405"), "c": u("az-canoe", "0404")}, terrain=shore)
    assert legal(state, "spanish", "attack") == [
        {"type": "attack", "side": "spanish", "unit": "i", "target": "c"}
    ]
    aztec = fight(
        {"i": u("sp-infantry", "0405"), "c": u("az-canoe", "0404")},
        terrain=shore,
        active="aztec",
        card="az-drums",
    )
    assert legal(aztec, "aztec", "attack") == [
        {"type": "attack", "side": "aztec", "unit": "c", "target": "i"}
    ]


# ----- retreats ---------------------------------------------------------------------------------


def test_retreat_is_chosen_by_the_defender_two_hexes_away_not_into_zoc():
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "z": u("sp-infantry", "0707", disorganised=True),
            "y": u("sp-cavalry", "0208"),
        }
    )
    state, _ = act(state, "spanish", "/attack unit:i target:w", dice=[2])
    pending = state["pending"]
    assert pending["kind"] == "retreat" and state["awaiting"] == ["aztec"]
    here = hexgrid.parse_label("0405")
    for lab in pending["options"]:
        h = hexgrid.parse_label(lab)
        assert hexgrid.distance(here, h) == 2
        assert hexgrid.distance(h, hexgrid.parse_label("0404")) > 1
        assert hexgrid.distance(h, hexgrid.parse_label("0208")) > 1  # not in the cavalry's ZOC
    assert "0406" not in pending["options"]  # only one hex away
    with pytest.raises(NotYourTurn):
        act(state, "spanish", "/retreat unit:w to:" + pending["options"][0])
    with pytest.raises(RuleError):
        act(state, "aztec", "/retreat unit:w to:0406")
    target = pending["options"][0]
    state, events = act(state, "aztec", f"/retreat unit:w to:{target}")
    assert state["units"]["w"]["at"] == target and state["units"]["w"]["disorganised"]
    assert of_type(events, "retreated")


STRIP = ["L.L"] * 8


def test_retreat_passes_through_friends():
    state = fight(
        {
            "i": u("sp-infantry", "0201"),
            "w": u("az-warriors", "0202"),
            "f": u("az-warriors", "0203"),
        },
        terrain=STRIP,
    )
    state, _ = act(state, "spanish", "/attack unit:i target:w", dice=[2])
    assert state["pending"]["options"] == ["0204"]


def test_unit_that_cannot_retreat_is_eliminated():
    blocked = fight(
        {
            "i": u("sp-infantry", "0201"),
            "w": u("az-warriors", "0202"),
            "e": u("sp-infantry", "0203", disorganised=True),
        },
        terrain=STRIP,
    )
    state, events = act(blocked, "spanish", "/attack unit:i target:w", dice=[2])
    assert (
        "w" in state["eliminated"]
        and of_type(events, "eliminated")[0]["reason"] == "no retreat possible"
    )
    # A brigantine's ZOC over 0204 closes the only retreat hex.
    zoc = fight(
        {
            "i": u("sp-infantry", "0201"),
            "w": u("az-warriors", "0202"),
            "b": u("sp-brigantine", "0305"),
        },
        terrain=STRIP,
    )
    state, _ = act(zoc, "spanish", "/attack unit:i target:w", dice=[2])
    assert "w" in state["eliminated"]


def test_disorganised_unit_forced_to_retreat_is_eliminated():
    state = fight({"i": u("sp-infantry", "0404"), "w": u("az-warriors", "0405", disorganised=True)})
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[2])
    assert "w" in state["eliminated"]
    assert "disorganised" in of_type(events, "eliminated")[0]["reason"]


# ----- advance after combat ----------------------------------------------------------------------


def test_infantry_and_cavalry_may_advance_into_the_vacated_hex():
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "a": u("sp-arquebusiers", "0505"),
            "w": u("az-warriors", "0405"),
        }
    )
    state, _ = act(state, "spanish", "/attack unit:i target:w with:a", dice=[3])
    assert state["pending"] == {
        "kind": "advance",
        "side": "spanish",
        "units": ["i"],
        "to": "0405",
        "evaded": False,
    }
    with pytest.raises(RuleError):
        act(state, "spanish", "/advance unit:a to:0405")
    state, events = act(state, "spanish", "/advance unit:i to:0405")
    assert state["units"]["i"]["at"] == "0405" and of_type(events, "advanced")


def test_no_advance_for_a_unit_in_enemy_zoc():
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "v": u("az-warriors", "0403"),
        }
    )
    state, _ = act(state, "spanish", "/attack unit:i target:w", dice=[3])
    assert state.get("pending") is None and "w" in state["eliminated"]


def test_advance_may_be_declined():
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "x": u("sp-infantry", "0101"),
        }
    )
    state, _ = act(state, "spanish", "/attack unit:i target:w", dice=[3])
    state, events = act(state, "spanish", "/pass")
    assert state["units"]["i"]["at"] == "0404" and of_type(events, "no_advance")


# ----- retreat before combat -------------------------------------------------------------------


def test_faster_defender_may_retreat_before_melee_and_it_counts_as_an_attack():
    state = fight(
        {"i": u("sp-infantry", "0404"), "j": u("az-jaguar", "0405"), "x": u("sp-infantry", "0101")}
    )
    state, events = act(state, "spanish", "/attack unit:i target:j")
    assert not of_type(events, "roll") and state["pending"]["kind"] == "evade"
    assert (
        state["awaiting"] == ["aztec"] and state["attacks_used"] == 1 and "i" in state["attacked"]
    )
    option = state["pending"]["options"][0]
    state, events = act(state, "aztec", f"/retreat unit:j to:{option}")
    assert state["units"]["j"]["at"] == option and state["units"]["j"]["disorganised"]
    assert state["pending"]["kind"] == "advance"


def test_defender_may_stand_instead_and_the_attack_is_rolled():
    state = fight(
        {"i": u("sp-infantry", "0404"), "j": u("az-jaguar", "0405"), "x": u("sp-infantry", "0101")}
    )
    state, _ = act(state, "spanish", "/attack unit:i target:j")
    state, events = act(state, "aztec", "/pass", dice=[1])
    assert attack_event(events)["result"] == "none"


def test_no_retreat_before_combat_from_an_equally_fast_attacker_or_ranged_fire():
    cav = fight({"c": u("sp-cavalry", "0404"), "j": u("az-jaguar", "0405")})
    state, events = act(cav, "spanish", "/attack unit:c target:j", dice=[1])
    assert of_type(events, "attack")
    ranged = fight({"a": u("sp-arquebusiers", "0402"), "j": u("az-jaguar", "0405")})
    state, events = act(ranged, "spanish", "/attack unit:a target:j", dice=[1])
    assert of_type(events, "attack")


def test_advancing_unit_after_a_retreat_before_combat_may_melee_again_within_card_limits():
    units = {
        "i": u("sp-infantry", "0404"),
        "j": u("az-jaguar", "0405"),
        "w": u("az-warriors", "0506"),
        "x": u("sp-infantry", "0101"),
    }
    state = fight(units, card="sp-caution")  # attack limit 2
    state, _ = act(state, "spanish", "/attack unit:i target:j")
    state, _ = act(
        state, "aztec", "/retreat unit:j to:" + [o for o in state["pending"]["options"]][0]
    )
    state, events = act(state, "spanish", "/advance unit:i to:0405")
    assert state["extra_melee"] == "i" and of_type(events, "extra_melee")
    assert {(a["unit"], a["target"]) for a in legal(state, "spanish", "attack")} >= {("i", "w")}
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    assert attack_event(events)["attackers"] == ["i"]
    assert legal(state, "spanish", "attack") == []  # limit of 2 reached
    # Advancing onto terrain that forbids attacking on entry (marsh) ends that chance.
    marsh = list(OPEN)
    marsh[4] = "...w...."  # marsh at 0405
    bog = fight(units, card="sp-caution", terrain=marsh)
    bog, _ = act(bog, "spanish", "/attack unit:i target:j")
    bog, _ = act(bog, "aztec", "/retreat unit:j to:" + bog["pending"]["options"][0])
    bog, _ = act(bog, "spanish", "/advance unit:i to:0405")
    assert not [a for a in legal(bog, "spanish", "attack") if a["unit"] == "i"]


def test_card_attack_limit_counts_units_so_the_extra_melee_is_not_charged_again():
    # "Diese Begrenzung bezieht sich auf die Anzahl der Einheiten, die angreifen dürfen, nicht auf
    # die Anzahl der Angriffe": with a one-unit card the advancing unit melees again.
    units = {
        "i": u("sp-infantry", "0404"),
        "j": u("az-jaguar", "0405"),
        "w": u("az-warriors", "0506"),
        "x": u("sp-infantry", "0507"),
    }
    state = fight(units, card="sp-council")  # attack limit 1
    state, _ = act(state, "spanish", "/attack unit:i target:j")
    state, _ = act(state, "aztec", "/retreat unit:j to:" + state["pending"]["options"][0])
    state, events = act(state, "spanish", "/advance unit:i to:0405")
    assert not of_type(events, "phase_skipped") and not of_type(events, "phase_ended")
    assert (state["phase"], state["awaiting"], state["attacks_used"]) == ("combat", ["spanish"], 1)
    # Only the unit already counted may attack; x (a second unit) would exceed the card.
    assert {(a["unit"], a["target"]) for a in legal(state, "spanish", "attack")} == {("i", "w")}
    with pytest.raises(RuleError, match="allows 1 attacking units and 1 have attacked"):
        act(state, "spanish", "/attack unit:x target:w")
    with pytest.raises(RuleError, match="allows 1 attacking units"):
        act(state, "spanish", "/attack unit:i target:w with:x")
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    assert attack_event(events)["attackers"] == ["i"] and attack_event(events)["result"] == "none"


# ----- artillery, cards, terrain, forts -----------------------------------------------------------


def test_ranged_artillery_cannot_eliminate_a_unit_in_good_order():
    state = fight({"s": u("sp-artillery", "0401"), "w": u("az-warriors", "0404")})
    state, events = act(state, "spanish", "/attack unit:s target:w", dice=[6])
    event = attack_event(events)
    assert event["total"] == 10 and event["result"] == "retreat" and "note" in event
    assert "w" in state["units"]
    state = fight(
        {"s": u("sp-artillery", "0401"), "w": u("az-warriors", "0404", disorganised=True)}
    )
    state, events = act(state, "spanish", "/attack unit:s target:w", dice=[6])
    assert attack_event(events)["result"] == "eliminated"


def test_artillery_combined_with_another_kind_of_unit_may_eliminate_at_range():
    too_far = fight(
        {
            "s": u("sp-artillery", "0401"),
            "a": u("sp-arquebusiers", "0601"),
            "w": u("az-warriors", "0404"),
        }
    )
    with pytest.raises(RuleError, match="Arquebusiers a cannot join: .* 4 hexes .* range is 3"):
        act(too_far, "spanish", "/attack unit:s target:w with:a", dice=[6])
    state = fight(
        {
            "s": u("sp-artillery", "0401"),
            "a": u("sp-arquebusiers", "0602"),
            "w": u("az-warriors", "0404"),
        }
    )
    state, events = act(state, "spanish", "/attack unit:s target:w with:a", dice=[6])
    event = attack_event(events)
    assert event["ranged"] and event["result"] == "eliminated" and "w" in state["eliminated"]


def test_card_bonus_applies_once_per_attack():
    state = fight(
        {
            "s": u("sp-artillery", "0401"),
            "t": u("sp-artillery", "0601"),
            "w": u("az-warriors", "0504"),
        },
        card="sp-cannonade",
    )
    state, events = act(state, "spanish", "/attack unit:s target:w with:t", dice=[1])
    event = attack_event(events)
    assert (event["base"], event["combined"], event["bonus"], event["total"]) == (4, 1, 1, 7)


def test_only_the_highest_terrain_defence_bonus_counts():
    city = list(OPEN)
    city[4] = "...c...."  # city (+1) at 0405 with a fort (+2)
    state = fight(
        {"i": u("sp-infantry", "0404"), "w": u("az-warriors", "0405")},
        terrain=city,
        map_extra={"forts": {"Gate": "0405"}},
    )
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    event = attack_event(events)
    assert (event["terrain"], event["defence"]) == (2, 6)


def test_fort_defender_is_disorganised_but_does_not_retreat():
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "x": u("sp-infantry", "0101"),
        },
        map_extra={"forts": {"Fort": "0405"}},
    )
    state, events = act(
        state, "spanish", "/attack unit:i target:w", dice=[5]
    )  # 8 = 6+2 but... see below
    event = attack_event(events)
    assert event["defence"] == 6
    assert event["result"] == "eliminated"
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "x": u("sp-infantry", "0101"),
        },
        map_extra={"forts": {"Fort": "0405"}},
    )
    hit, events = act(
        state, "spanish", "/attack unit:i target:w", dice=[4]
    )  # 7 = 6+1: retreat result
    assert hit["units"]["w"]["disorganised"] and hit["units"]["w"]["at"] == "0405"
    # It need not retreat: its owner holds the fort (/pass) or may still choose to retreat.
    assert hit["pending"]["kind"] == "retreat" and hit["awaiting"] == ["aztec"]
    assert {a["type"] for a in legal(hit, "aztec")} == {"retreat", "pass"}
    held, events = act(hit, "aztec", "/pass")
    assert (
        held["units"]["w"]["at"] == "0405"
        and of_type(events, "held_fort")
        and held["pending"] is None
    )
    gone, _ = act(hit, "aztec", "/retreat unit:w to:" + hit["pending"]["options"][0])
    assert gone["units"]["w"]["at"] != "0405"
    # Already disorganised and hit again: not forced to retreat in the fort, so not eliminated.
    again = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405", disorganised=True),
            "x": u("sp-infantry", "0101"),
        },
        map_extra={"forts": {"Fort": "0405"}},
    )
    again, events = act(again, "spanish", "/attack unit:i target:w", dice=[4])
    assert "w" in again["units"] and not of_type(events, "eliminated")
    again, events = act(again, "aztec", "/pass")
    assert again["units"]["w"]["at"] == "0405" and again["units"]["w"]["disorganised"]


def test_forts_help_only_the_unit_defending_in_them():
    state = fight(
        {"i": u("sp-infantry", "0404"), "w": u("az-warriors", "0405")},
        map_extra={"forts": {"Fort": "0404"}},
    )  # the attacker stands in the fort
    state, events = act(state, "spanish", "/attack unit:i target:w", dice=[1])
    event = attack_event(events)
    assert (event["base"], event["total"], event["defence"]) == (3, 4, 4)


def test_a_disorganised_defender_cannot_retreat_before_combat():
    state = fight({"i": u("sp-infantry", "0404"), "j": u("az-jaguar", "0405", disorganised=True)})
    state, events = act(state, "spanish", "/attack unit:i target:j", dice=[1])
    assert not of_type(events, "evade_offered") and of_type(events, "attack")


def test_no_retreat_before_combat_when_no_hex_is_free():
    state = fight(
        {
            "i": u("sp-infantry", "0201"),
            "j": u("az-jaguar", "0202"),
            "e": u("sp-infantry", "0203", disorganised=True),
        },
        terrain=STRIP,
    )
    state, events = act(state, "spanish", "/attack unit:i target:j", dice=[1])
    assert not of_type(events, "evade_offered") and of_type(events, "attack")


def test_brigantines_count_as_artillery_in_combat():
    lake = ["LLLLLLLL"] * 4 + ["........"] * 4
    state = fight(
        {
            "b": u("sp-brigantine", "0404"),
            "f": u("sp-infantry", "0405", disorganised=True),
            "w": u("az-warriors", "0406"),
        },
        terrain=lake,
    )
    # Fires over the friendly unit in 0405 like artillery ...
    assert {x["target"] for x in legal(state, "spanish", "attack")} == {"w"}
    # ... and at range cannot eliminate a unit in good order.
    state, events = act(state, "spanish", "/attack unit:b target:w", dice=[6])
    assert attack_event(events)["result"] == "retreat" and "w" in state["units"]


def test_retreat_ends_two_hexes_farther_from_every_attacker():
    # Read "2 hexes away from the attacker" as: each of the two steps takes the unit farther from
    # every attacker, so it ends two hexes farther off than it stood.
    state = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "x": u("sp-infantry", "0101"),
        }
    )
    state, _ = act(state, "spanish", "/attack unit:i target:w", dice=[2])
    here, attacker = hexgrid.parse_label("0405"), hexgrid.parse_label("0404")
    expected = {
        hexgrid.label(h)
        for h in hexgrid.within(here, 2)
        if hexgrid.distance(h, here) == 2 and hexgrid.distance(h, attacker) == 3
    }
    assert set(state["pending"]["options"]) == expected and len(expected) == 5
    sideways = next(
        hexgrid.label(h)
        for h in hexgrid.within(here, 2)
        if hexgrid.distance(h, here) == 2 and hexgrid.distance(h, attacker) == 2
    )
    with pytest.raises(RuleError, match="each step farther from the attackers"):
        act(state, "aztec", f"/retreat unit:w to:{sideways}")
    helper = fight(
        {
            "i": u("sp-infantry", "0404"),
            "w": u("az-warriors", "0405"),
            "v": u("az-warriors", "0808"),
        }
    )
    helper, _ = act(helper, "spanish", "/attack unit:i target:w", dice=[2])
    with pytest.raises(RuleError, match="Only Aztec Warriors w retreats now"):
        act(helper, "aztec", "/retreat unit:v to:0807")
    # Attacked from two opposite sides, no hex lies farther from both: the unit is eliminated.
    pincer = fight(
        {
            "i": u("sp-infantry", "0404"),
            "j": u("sp-infantry", "0406"),
            "w": u("az-warriors", "0405"),
        }
    )
    state, events = act(pincer, "spanish", "/attack unit:i target:w with:j", dice=[1])
    assert (
        "w" in state["eliminated"]
        and of_type(events, "eliminated")[0]["reason"] == "no retreat possible"
    )
