"""Strategic objectives, victory, and the special rules of missions 1-10."""

from engine.core.dice import seeded
from engine.rivetwars import data
from tests.rivetwars.util import RS, act, legal, make, of, unit

ACTION = sorted(data.cards()["action"])
OBJ = {"mission": "mission-1", "terrain": {"objective": ["E5", "I5"]}}


def end_turn(state, dice=()):
    """End-phase through deployment, combat and movement of the active side."""
    side = state["active"]
    while state["active"] == side and not state.get("result"):
        last = state["phase"] == "move"
        state, events = act(state, "end-phase", dice=dice if last else ())
    return state


def test_an_objective_with_your_unit_at_the_end_of_your_turn_scores():
    state = make(**OBJ, phase="move", order=["allies", "bismark"], units=[unit("rifleman", "E5")])
    state, events = act(state, "end-phase")
    assert of(events, "captured")[0]["at"] == "E5" and state["vp"]["allies"] == 1
    assert "E5" not in state["flags"]  # control only comes at the start of a turn


def test_a_unit_on_an_objective_at_the_start_of_your_turn_plants_your_flag():
    state = make(
        **OBJ,
        phase="move",
        active="bismark",
        order=["bismark", "allies"],
        units=[unit("rifleman", "E5")],
    )
    state, events = act(state, "end-phase")
    assert (
        state["active"] == "allies"
        and state["flags"] == {"E5": "allies"}
        and of(events, "flag_placed")
    )


def test_a_controlled_objective_scores_without_a_unit_on_it():
    state = make(**OBJ, phase="move", order=["allies", "bismark"], flags={"E5": "allies"})
    state, _ = act(state, "end-phase")
    assert state["vp"]["allies"] == 1


def test_an_enemy_unit_at_the_end_of_its_turn_takes_down_the_flag_and_scores():
    state = make(
        **OBJ,
        phase="move",
        active="bismark",
        order=["bismark", "allies"],
        flags={"E5": "allies"},
        units=[unit("panzerfaust", "E5")],
    )
    state, events = act(state, "end-phase")
    assert "E5" not in state["flags"] and of(events, "flag_removed") and state["vp"]["bismark"] == 1


def test_reaching_the_target_finishes_the_round_before_winning():
    state = make(
        **OBJ,
        phase="move",
        order=["allies", "bismark"],
        vp={"allies": 5, "bismark": 0},
        units=[unit("rifleman", "E5")],
    )
    state, _ = act(state, "end-phase")
    assert state["vp"]["allies"] == 6 and not state["result"] and state["active"] == "bismark"
    state = end_turn(state)
    assert state["result"] == {"winner": "allies", "reason": "reached 6 victory points"}


def test_a_tie_at_the_target_plays_on_until_a_round_ends_with_a_leader():
    state = make(
        **OBJ,
        phase="move",
        order=["allies", "bismark"],
        vp={"allies": 5, "bismark": 5},
        units=[unit("rifleman", "E5", id="r"), unit("panzerfaust", "I5", id="p")],
    )
    state, _ = act(state, "end-phase")
    state = end_turn(state, dice=[6, 1])  # both at 6: round ends tied, initiative for round 2
    assert not state["result"] and state["overtime"] and state["turn"] == 2
    state = end_turn(state)  # Allies 7
    state = end_turn(state, dice=[6, 1])  # Bismark 7: tied again, round 3
    assert not state["result"]
    state = make(
        **OBJ,
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        vp={"allies": 8, "bismark": 7},
        units=[unit("rifleman", "I7")],
    )
    state["overtime"] = True
    state, _ = act(state, "end-phase")
    assert state["result"]["winner"] == "allies" and "ahead" in state["result"]["reason"]


def test_packaged_missions_have_no_round_limit_and_a_tie_plays_on():
    # "Wer als erster die Siegbedingungen erfüllt, gewinnt" and nothing about a last round: a
    # packaged mission goes on past round 20, whoever leads, until a side reaches its target
    assert all("round_limit" not in RS.load_scenario(f"mission-{n}") for n in range(1, 11))
    state = make(
        **OBJ,
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        turn=20,
        vp={"allies": 3, "bismark": 2},
    )
    state, _ = act(state, "end-phase", dice=[4, 2])  # the next round's initiative
    assert not state["result"] and state["turn"] == 21
    state = make(
        **OBJ,
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        turn=40,
        vp={"allies": 2, "bismark": 2},
    )
    state, _ = act(state, "end-phase", dice=[4, 2])
    assert not state["result"] and state["turn"] == 41


def test_round_limit_is_a_house_rule_a_scenario_switches_on():
    state = make(
        **OBJ,
        round_limit=20,
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        turn=20,
        vp={"allies": 3, "bismark": 2},
    )
    state, _ = act(state, "end-phase")
    assert state["result"] == {"winner": "allies", "reason": "round limit 20: more victory points"}
    state = make(
        **OBJ, round_limit=20, phase="move", active="bismark", order=["allies", "bismark"], turn=20
    )
    state, _ = act(state, "end-phase")
    assert state["result"]["winner"] is None


def test_mission_1_resources_and_target():
    scn = RS.load_scenario("mission-1")
    assert scn["resources"]["allies"] == {"points": 4, "rivets": 0} and scn["victory"] == {
        "allies": 6,
        "bismark": 6,
    }
    assert (
        scn["cards"] == {"action": False, "secret": False} and scn["tiles"] == "5A 3B 2B / 9A 8A 7A"
    )


def test_missions_2_and_6_start_with_allied_riflemen_on_objectives_and_allies_first():
    for name in ("mission-2", "mission-6"):
        scn = RS.load_scenario(name)
        state, events = RS.setup(scn, seeded(3, 0))
        on_obj = sorted(u["at"] for u in state["units"].values() if u["type"] == "rifleman")
        assert len(on_obj) == len(scn["terrain"]["objective"]) and state["order"][0] == "allies"
        assert not of(events, "roll") or all(
            e["purpose"].startswith("shuffle") for e in of(events, "roll")
        )
    assert RS.load_scenario("mission-2")["cards"] == {"action": True, "secret": False}


def test_mission_6_allies_score_each_round_and_only_the_bismark_score_objectives():
    base = {"mission": "mission-6", "terrain": {"objective": ["C7"]}}
    state = make(**base, phase="move", order=["allies", "bismark"], units=[unit("rifleman", "C7")])
    state, _ = act(state, "end-phase")
    assert state["vp"]["allies"] == 0  # holding an objective gives the Allies nothing
    state = make(
        **base,
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        units=[unit("panzerfaust", "C7")],
    )
    state, events = act(state, "end-phase", dice=[6, 1])
    assert state["vp"] == {"allies": 1, "bismark": 1}  # Bismark objective, Allies' round point
    assert RS.load_scenario("mission-6")["victory"] == {"allies": 8, "bismark": 10}


def test_mission_8_extra_points_only_for_infantry_without_heroes():
    res = {"allies": {"points": 0, "rivets": 1}, "bismark": {"points": 0, "rivets": 1}}
    state = make(
        mission="mission-8", terrain={}, phase="deploy", resources=res, rivets={"allies": 5}
    )
    assert state["infantry_points"]["allies"] == 2
    assert {a["unit"] for a in legal(state, "deploy")} == {"rifleman"}
    state = make(mission="mission-8", terrain={}, phase="deploy")
    state, events = act(state, "deploy", unit="rifleman", to="C17")
    assert (state["infantry_points"]["allies"], state["points"]["allies"]) == (1, 4)
    state, _ = act(state, "deploy", unit="rocket-bike", to="C17")
    assert (state["infantry_points"]["allies"], state["points"]["allies"]) == (1, 2)


def test_mission_9_paratroopers_land_by_deviation_cards():
    # ac01 F, ac03 L, ac02 BR, seen from the Allies (facing north)
    state = make(
        mission="mission-9",
        terrain={"wire": ["K9"]},
        phase="move",
        active="bismark",
        order=["bismark", "allies"],
        units=[unit("panzerfaust", "G13")],
        decks={
            "action": ["ac01", "ac03", "ac02", "ac04", "ac05", "ac10"],
            "secret": ["sm01", "sm02"],
        },
    )
    state, events = act(state, "end-phase")
    assert (
        state["awaiting"] == ["allies"]
        and legal(state)
        and all(a["type"] == "place" for a in legal(state))
    )
    state, events = act(state, "place", to="I11")
    # F: I11 -> I9; L: I11 -> G11; BR: I11 -> K13
    landed = sorted(e["segment"] for e in of(events, "deployed"))
    assert landed == ["G11", "I9", "K13"]
    assert state["phase"] == "deploy" and state["active"] == "allies"


def test_mission_9_paratroopers_redraw_from_forbidden_segments_and_are_lost_off_the_map():
    # ac04 FR: I9 -> K7, which holds wire (no infantry): draw again from K7, ac05 B -> K9.
    # The second paratrooper: ac01 F: I9 -> I7.
    state = make(
        mission="mission-9",
        terrain={"wire": ["K7"]},
        phase="move",
        active="bismark",
        order=["bismark", "allies"],
        paratroopers={"side": "allies", "unit": "rifleman", "count": 2},
        decks={"action": ["ac04", "ac05", "ac01", "ac09"], "secret": []},
    )
    state, _ = act(state, "end-phase")
    state, events = act(state, "place", to="I9")
    assert [e["to"] for e in of(events, "deviation")] == ["K7", "K9", "I7"]
    assert [e["segment"] for e in of(events, "deployed")] == ["K9", "I7"]
    # ac01 F from A1 leaves the map northwards: that paratrooper is lost
    lost = make(
        mission="mission-9",
        terrain={},
        phase="move",
        active="bismark",
        order=["bismark", "allies"],
        paratroopers={"side": "allies", "unit": "rifleman", "count": 1},
        decks={"action": ["ac01", "ac09"], "secret": []},
    )
    lost, _ = act(lost, "end-phase")
    lost, events = act(lost, "place", to="A1")
    assert of(events, "paradrop_lost") and not of(events, "deployed")


def test_mission_10_escalation_gives_exactly_the_bonus_of_the_score():
    def deploy_state(vp):
        return make(mission="mission-10", terrain={}, phase="deploy", escalation_vp={"allies": vp})

    assert deploy_state(0)["points"]["allies"] == 4
    assert deploy_state(2)["points"]["allies"] == 5
    assert deploy_state(4)["rivets"]["allies"] == 2
    assert deploy_state(6)["points"]["allies"] == 7
    free = deploy_state(8)
    assert free["free_units"]["allies"] == 3 and free["points"]["allies"] == 4
    assert deploy_state(9)["points"]["allies"] == 4 and deploy_state(9)["rivets"]["allies"] == 1
    free, _ = act(free, "deploy", unit="rifleman", to="C17")
    assert free["points"]["allies"] == 4 and free["free_units"]["allies"] == 2


def test_mission_10_scores_are_taken_at_the_end_of_each_round():
    state = make(
        mission="mission-10",
        terrain={},
        phase="move",
        active="bismark",
        order=["allies", "bismark"],
        vp={"allies": 3, "bismark": 7},
    )
    state, events = act(state, "end-phase", dice=[1, 6])
    assert state["escalation_vp"] == {"allies": 3, "bismark": 7}
    assert (
        state["active"] == "bismark"
        and state["phase"] == "deploy"
        and state["free_units"]["bismark"] == 3
    )


def test_mission_9_a_paratrooper_that_cannot_land_anywhere_is_reported_lost():
    # No action card left to draw: the drop stays on the wire segment, which riflemen may not enter.
    state = make(
        mission="mission-9",
        terrain={"wire": ["I9"]},
        phase="move",
        active="bismark",
        order=["bismark", "allies"],
        paratroopers={"side": "allies", "unit": "rifleman", "count": 1},
        decks={"action": [], "secret": []},
    )
    state, _ = act(state, "end-phase")
    state, events = act(state, "place", to="I9")
    assert "no segment it may enter" in of(events, "paradrop_lost")[0]["why"] and not of(
        events, "deployed"
    )
