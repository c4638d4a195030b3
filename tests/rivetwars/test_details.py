"""Interpretations promised in docs/rules/rivet-wars.md, each checked through actions."""

from engine.core.dice import fixed
from tests.rivetwars.util import RS, act, legal, make, of, unit

GAS = [3, 2, 1, 0, 0]
M3 = {"mission": "mission-3", "terrain": {}}


def test_an_attack_deviating_off_the_map_is_lost():
    # ac01 shows F: seen from the Allies the shell aimed at E1 (northern edge) flies off the map
    state = make(
        units=[unit("hammer", "E9", id="h"), unit("panzerfaust", "E1", id="p")],
        decks={"action": ["ac01"], "secret": []},
    )
    state, events = act(state, "attack", unit="h", to="E1")
    assert of(events, "attack_lost")[0]["why"] == "deviated off the map" and not of(
        events, "attack"
    )


def test_an_empty_action_deck_is_refilled_by_shuffling_the_discards():
    state = make(**M3, phase="card", hands={"allies": ["ac01"]}, decks={"action": [], "secret": []})
    state["decks"]["action_discard"] = ["ac05", "ac06"]
    state, events = act(state, "end-phase", dice=[1])  # one hidden shuffle draw for two cards
    assert of(events, "shuffle") and state["hands"]["allies"] == ["ac01", "ac06"]
    assert state["decks"]["action"] == ["ac05"] and state["decks"]["action_discard"] == []


def test_a_chain_attack_skips_units_it_cannot_harm():
    # MG08 rolls 0 dice against heavy armour: the Wolverine between the riflemen is passed over
    state = make(
        active="bismark",
        units=[
            unit("mg08", "E1", id="mg"),
            unit("rifleman", "E5", id="r1"),
            unit("wolverine", "F5", id="w"),
            unit("rifleman", "E6", id="r3"),
        ],
    )
    state, events = act(state, "attack", dice=[5, 1, 1, 6, 1, 1], unit="mg", to="E5")
    assert [e["target"] for e in of(events, "attack")] == ["r1", "r3"]
    assert (
        "r1" not in state["units"]
        and "r3" not in state["units"]
        and state["units"]["w"]["damage"] == 0
    )


def test_mines_score_no_loot_but_a_shocked_unit_with_nowhere_to_go_does():
    state = make(
        phase="move",
        terrain={"minefield": ["E7"]},
        units=[unit("rocket-bike", "C7", id="b", damage=1)],
    )
    state, events = act(state, "move", unit="b", to="E7", dice=[5, 1])
    assert "b" not in state["units"] and state["vp"] == {"allies": 0, "bismark": 0}
    # Captain Parman (loot 2) is shocked in a corner with no way out: the Bismark take his loot
    state = make(
        phase="move",
        active="bismark",
        units=[
            unit("sturmpanzer", "C1", id="tank"),
            unit("parman", "A1", id="cpt"),
            unit("panzerfaust", "A3"),
            unit("panzerfaust", "C3"),
        ],
    )
    state, events = act(state, "move", unit="tank", to="A1", dice=[1, 1])
    assert of(events, "no_retreat") and state["vp"]["bismark"] == 2


def test_reinforced_defence_reduces_the_tank_shock_dice():
    roster = {"rifleman": {"abilities": [{"name": "reinforced_defence", "x": 1}]}}
    state = make(
        phase="move",
        active="bismark",
        roster=roster,
        units=[unit("sturmpanzer", "E3", id="tank"), unit("rifleman", "E5", id="r")],
    )
    state, events = act(state, "move", unit="tank", to="E5", dice=[1])  # 2 dice - 1
    assert len(of(events, "attack")[0]["dice"]) == 1


def test_a_gas_cloud_drifting_off_the_map_is_gone():
    # ac05 shows B (back); seen from the Bismark, back is north: E1 -> off the map
    state, events = RS.setup(
        RS.build_scenario(
            {
                **M3,
                "active": "bismark",
                "turn": 2,
                "clouds": [{"at": "E1", "owner": "bismark", "dice": GAS, "placed": 1}],
                "decks": {"action": ["ac05", "ac06"], "secret": []},
            }
        ),
        fixed([]),
    )
    assert [e["to"] for e in events if e["type"] == "gas_drift"] == [None] and state["clouds"] == []


def test_a_unit_reached_by_a_drifting_cloud_is_not_gassed_again_in_the_same_moment():
    # the E5 cloud drifts onto E7 (ac01 F, seen from the Bismark: south), where a young cloud lies
    scenario = RS.build_scenario(
        {
            **M3,
            "active": "bismark",
            "turn": 3,
            "units": [{"type": "rifleman", "at": "E7", "id": "r"}],
            "clouds": [
                {"at": "E5", "owner": "bismark", "dice": GAS, "placed": 2},
                {"at": "E7", "owner": "bismark", "dice": GAS, "placed": 3},
            ],
            "decks": {"action": ["ac01", "ac02"], "secret": []},
        }
    )
    dice = fixed([1, 1, 1])  # three dice: one gas attack only
    state, events = RS.setup(scenario, dice)
    assert len([e for e in events if e["type"] == "attack"]) == 1 and dice.source.remaining == 0


def test_deploying_is_not_a_move_so_mines_do_not_fire():
    state = make(phase="deploy", terrain={"minefield": ["C11"]})
    state, events = act(state, "deploy", unit="rocket-bike", to="C11")
    assert not of(events, "attack") and "minefield" in state["terrain"]["C11"]


def test_box_counts_limit_deployment_and_eliminated_units_return_to_the_box():
    squares = ["A1", "B1", "A2", "B2", "E1", "F1", "E2", "F2", "I1"]
    full = make(phase="deploy", units=[unit("rifleman", sq) for sq in squares])
    assert "rifleman" not in {a["unit"] for a in legal(full, "deploy")}
    eight = make(phase="deploy", units=[unit("rifleman", sq) for sq in squares[:8]])
    assert "rifleman" in {a["unit"] for a in legal(eight, "deploy")}


def test_free_escalation_infantry_lapses_with_the_deployment_phase():
    state = make(mission="mission-10", terrain={}, phase="deploy", escalation_vp={"allies": 7})
    assert state["free_units"]["allies"] == 3
    state, _ = act(state, "end-phase")
    assert state["free_units"]["allies"] == 0 and state["phase"] == "combat"


def test_regrouping_activates_nothing():
    state = make(
        phase="move", units=[unit("rifleman", "A9", id="r1"), unit("rifleman", "E9", id="r3")]
    )
    state, _ = act(state, "regroup", unit="r1", to="B10")
    state, _ = act(state, "move", unit="r3", to="E7")
    assert "A7" in {a["to"] for a in legal(state, "move") if a["unit"] == "r1"}
