"""Turn sequence, rally, control of hexes, victory conditions and the turn limit."""

import pytest

from engine.core.errors import RuleError

from .helpers import RULES, act, build, grid_map, legal, of_type

OPEN = ["........"] * 8


def u(kind, at, **kw):
    return {"type": kind, "at": at, **kw}


def test_phase_order_of_a_player_turn_and_sides_alternate():
    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "rally",
            "active": "aztec",
            "turn": 1,
            "card": "az-drums",
            "units": {
                "w": u("az-warriors", "0101", disorganised=True),
                "i": u("sp-infantry", "0808"),
            },
        }
    )
    seen = []
    for _ in range(12):
        side = state["awaiting"][0]
        state, events = act(state, side, "/end-phase")
        seen += [(e["phase"], e["side"]) for e in events if e["type"] == "phase_started"]
    assert seen[:10] == [
        ("draw", "spanish"),
        ("movement", "spanish"),
        ("defensive-fire", "spanish"),
        ("combat", "spanish"),
        ("rally", "spanish"),
        ("draw", "aztec"),
        ("movement", "aztec"),
        ("defensive-fire", "aztec"),
        ("combat", "aztec"),
        ("rally", "aztec"),
    ]
    assert state["turn"] >= 2


def test_rally_only_outside_enemy_zoc():
    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "rally",
            "card": "sp-caution",
            "units": {
                "a": u("sp-infantry", "0101", disorganised=True),
                "b": u("sp-infantry", "0404", disorganised=True),
                "w": u("az-warriors", "0405"),
            },
        }
    )
    assert [a["unit"] for a in legal(state, "spanish", "rally")] == ["a"]
    with pytest.raises(RuleError, match="zone of control"):
        act(state, "spanish", "/rally unit:b")
    state, events = act(state, "spanish", "/rally unit:a")
    assert not state["units"]["a"]["disorganised"] and of_type(events, "rallied")
    assert state["units"]["b"]["disorganised"]  # only the named unit


STANDARD_OBJECTIVES = ["1208", "1205", "1214", "1407", "0312"]
NORTH = ["1204", "1203", "1202", "1201"]


def test_control_by_occupying_and_by_being_last_to_occupy():
    state = build(
        {
            "units": {
                "i": u("sp-infantry", "1119"),
                "w": u("az-warriors", "0808"),
                "c": u("sp-cavalry", "1120"),
            }
        }
    )
    assert state["control"]["1218"] == "aztec"  # Iztapalapa starts Aztec
    state, events = act(state, "spanish", "/move unit:i to:1218")
    assert state["control"]["1218"] == "spanish" and of_type(events, "control")
    state, _ = act(state, "spanish", "/move unit:c to:1119")
    assert state["control"]["1218"] == "spanish"


def test_passing_through_a_hex_does_not_take_control():
    # From the causeway hex 1217 the only way ashore to 1319 leads through Iztapalapa (1218).
    state = build({"units": {"c": u("sp-cavalry", "1217"), "w": u("az-warriors", "0808")}})
    state, events = act(state, "spanish", "/move unit:c to:1319")
    (moved,) = of_type(events, "moved")
    assert "1218" in moved["path"][1:-1]
    assert state["control"]["1218"] == "aztec" and not of_type(events, "control")


def test_leaving_keeps_control_until_the_enemy_occupies():
    state = build(
        {
            "units": {
                "i": u("sp-infantry", "1218"),
                "w": u("az-warriors", "1020"),
                "x": u("sp-infantry", "0101"),
            },
            "card": "sp-caution",
        }
    )
    state, _ = act(state, "spanish", "/move unit:i to:1319")
    assert state["control"]["1218"] == "spanish"
    state = build(
        {
            "units": {"w": u("az-warriors", "1119"), "x": u("sp-infantry", "0101")},
            "active": "aztec",
            "card": "az-drums",
            "control": {"1218": "spanish"},
        }
    )
    state, _ = act(state, "aztec", "/move unit:w to:1218")
    assert state["control"]["1218"] == "aztec"


def test_spanish_win_with_all_objectives_and_a_causeway_with_its_village():
    control = {lab: "spanish" for lab in STANDARD_OBJECTIVES + NORTH if lab != "1202"}
    state = build(
        {
            "units": {"i": u("sp-infantry", "1201"), "w": u("az-warriors", "0808")},
            "control": control,
        }
    )
    assert state["result"] is None
    ok, missing = RULES.spanish_goal(state)
    assert not ok and missing == ["a causeway and its village"]
    state, events = act(state, "spanish", "/move unit:i to:1202")
    assert state["result"]["winner"] == "spanish" and of_type(events, "game_over")


def test_spanish_need_the_village_at_the_end_of_their_causeway():
    control = {
        lab: "spanish" for lab in STANDARD_OBJECTIVES + NORTH if lab != "1201"
    }  # not Tepeyac
    state = build(
        {
            "units": {"i": u("sp-infantry", "1101"), "w": u("az-warriors", "0808")},
            "control": control,
        }
    )
    assert state["result"] is None
    assert RULES.spanish_goal(state)[1] == ["a causeway and its village"]
    state, _ = act(state, "spanish", "/move unit:i to:1201")
    assert state["result"]["winner"] == "spanish"


def test_spanish_need_every_objective():
    control = {lab: "spanish" for lab in STANDARD_OBJECTIVES[1:] + NORTH if lab != "1202"}
    state = build(
        {
            "units": {"i": u("sp-infantry", "1201"), "w": u("az-warriors", "0808")},
            "control": control,
        }
    )
    state, _ = act(state, "spanish", "/move unit:i to:1202")
    assert state["result"] is None
    assert RULES.spanish_goal(state)[1] == ["Sacred Precinct"]


def test_aztecs_win_when_six_or_fewer_spanish_remain_tlaxcalans_not_counted():
    units = {f"s{n}": u("sp-infantry", f"01{n:02d}") for n in range(1, 8)}  # 7 Spanish
    units.update({f"t{n}": u("tlaxcalan", f"03{n:02d}") for n in range(1, 5)})  # 4 Tlaxcalans
    units["w"] = u("az-eagle", "0206")
    units["v"] = u("az-eagle", "0605")
    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "combat",
            "active": "aztec",
            "card": "az-cuauhtemoc",
            "units": units,
            "aztec_wins_at": 6,
        }
    )
    assert state["result"] is None
    state, events = act(state, "aztec", "/attack unit:w target:s6", dice=[6])  # 3+6 = 9 >= 6+2
    assert state["result"] == {
        "winner": "aztec",
        "reason": "only 6 Spanish units (without Tlaxcalans) remain on the map",
    }
    units.pop("s7")
    at_once = build({"map": grid_map(*OPEN), "units": units, "aztec_wins_at": 6})
    assert at_once["result"]["winner"] == "aztec"


def test_game_ends_after_turn_24():
    spec = {
        "map": grid_map(*OPEN),
        "phase": "rally",
        "active": "aztec",
        "card": "az-drums",
        "units": {"w": u("az-warriors", "0101", disorganised=True), "i": u("sp-infantry", "0808")},
    }
    state = build({**spec, "turn": 24})
    state, events = act(state, "aztec", "/end-phase")
    assert state["result"]["winner"] == "aztec" and "turn 24" in state["result"]["reason"]
    assert RULES.legal_actions(state, "spanish") == [] and RULES.awaiting(state) == []
    state = build({**spec, "turn": 23})
    state, _ = act(state, "aztec", "/end-phase")
    assert state["result"] is None and state["turn"] == 24


def test_referee_edits_are_checked_and_resynchronised():
    from engine.core.dice import fixed
    from engine.core.game import apply_action

    state = build(
        {
            "map": grid_map(*OPEN),
            "phase": "combat",
            "eliminated": {"t": "tlaxcalan"},
            "units": {"i": u("sp-infantry", "0404"), "w": u("az-warriors", "0405")},
        }
    )
    ref = {"side": "referee"}
    with pytest.raises(RuleError):
        apply_action(
            RULES, state, {**ref, "type": "ref-place", "unit": "i", "to": "0405"}, fixed([])
        )
    state, events = apply_action(
        RULES, state, {**ref, "type": "ref-place", "unit": "t", "to": "0101"}, fixed([])
    )
    assert state["units"]["t"]["at"] == "0101" and "t" not in state["eliminated"]
    state, _ = apply_action(RULES, state, {**ref, "type": "ref-remove", "unit": "w"}, fixed([]))
    assert "w" in state["eliminated"]
    state, _ = apply_action(
        RULES, state, {**ref, "type": "ref-phase", "phase": "defensive-fire"}, fixed([])
    )
    assert state["awaiting"] == ["aztec"]  # the reactive side acts in that phase


def test_spanish_win_in_play_on_turn_24_by_taking_the_last_objective():
    # Everything but the Sacred Precinct is already Spanish; its defender is attacked, eliminated,
    # and the advance into the precinct wins at once, before the turn limit can end the game.
    control = {lab: "spanish" for lab in STANDARD_OBJECTIVES[1:] + NORTH}
    state = build(
        {
            "turn": 24,
            "card": "sp-caution",
            "control": control,
            "aztec_wins_at": 6,
            "units": {
                "i": u("sp-infantry", "1308"),
                "j": u("sp-infantry", "1207"),
                "w": u("az-warriors", "1208"),
                "b": u("az-bowmen", "0601"),
                **{
                    f"s{n}": u("sp-crossbowmen" if n % 2 else "sp-arquebusiers", f"{n + 10:02d}19")
                    for n in range(1, 8)
                },
            },
        }
    )
    state, events = act(state, "spanish", "/end-phase")
    assert state["phase"] == "combat" and state["result"] is None
    state, events = act(
        state, "spanish", "/attack unit:i target:w with:j", dice=[6]
    )  # 3+1+6 = 10 >= 4+2+2
    assert (
        "w" in state["eliminated"]
        and state["pending"]["kind"] == "advance"
        and state["result"] is None
    )
    state, events = act(state, "spanish", "/advance unit:i to:1208")
    assert state["result"] == {
        "winner": "spanish",
        "reason": "the Spanish control every objective and a causeway with its village",
    }
    assert of_type(events, "game_over") and RULES.awaiting(state) == [] and state["turn"] == 24
