"""Special abilities (rulebook p. 32) and terrain effects on combat."""

from tests.rivetwars.util import act, legal, make, of, unit

GAS = [3, 2, 1, 0, 0]


def test_gas_attack_lays_a_cloud_and_attacks_every_unit_in_the_segment():
    state = make(
        active="bismark",
        units=[
            unit("sturmpanzer", "E1", id="tank", plugins=["cyclops"]),
            unit("rifleman", "E5", id="r1"),
            unit("rifleman", "F5", id="r2"),
        ],
    )
    assert {a["choice"] for a in legal(state, "attack")} == {"cannon", "gas-projector"}
    state, events = act(
        state, "attack", dice=[1, 1, 1, 5, 1, 1], unit="tank", to="E5", choice="gas-projector"
    )
    assert state["clouds"][0]["at"] == "E5" and state["clouds"][0]["owner"] == "bismark"
    assert [e["target"] for e in of(events, "attack")] == ["r1", "r2"] and "r2" not in state[
        "units"
    ]


def test_gas_drifts_by_a_deviation_card_at_the_start_of_the_owners_turn():
    # ac01 shows F (forward); seen from the Bismark, forward is south: E5 -> E7
    state = make(
        phase="move",
        active="allies",
        order=["allies", "bismark"],
        turn=2,
        units=[unit("rifleman", "E7", id="r")],
        decks={"action": ["ac01", "ac02"], "secret": []},
        clouds=[{"at": "E5", "owner": "bismark", "dice": GAS, "placed": 1}],
    )
    state, events = act(state, "end-phase", dice=[5, 1, 1])
    assert of(events, "gas_drift")[0]["to"] == "E7" and state["clouds"][0]["at"] == "E7"
    assert "r" not in state["units"] and state["decks"]["action_discard"] == ["ac01"]


def test_units_in_gas_at_the_start_of_a_turn_are_attacked():
    state = make(
        phase="move",
        active="bismark",
        order=["bismark", "allies"],
        units=[unit("rifleman", "E5", id="r")],
        clouds=[{"at": "E5", "owner": "bismark", "dice": GAS, "placed": 1}],
    )
    state, events = act(state, "end-phase", dice=[1, 2, 3])  # the Allies' turn starts in the cloud
    assert of(events, "attack")[0]["kind"] == "gas" and len(of(events, "attack")[0]["dice"]) == 3


def test_a_gas_cloud_lasts_two_rounds_and_goes_at_the_owners_combat_phase():
    young = make(
        phase="deploy",
        active="bismark",
        turn=3,
        clouds=[{"at": "E5", "owner": "bismark", "dice": GAS, "placed": 2}],
    )
    young, events = act(young, "end-phase")
    assert young["clouds"] and not of(events, "gas_removed")
    old = make(
        phase="deploy",
        active="bismark",
        turn=3,
        clouds=[{"at": "E5", "owner": "bismark", "dice": GAS, "placed": 1}],
    )
    old, events = act(old, "end-phase")
    assert not old["clouds"] and of(events, "gas_removed")


def test_moving_into_gas_is_a_gas_attack_and_gas_immune_units_ignore_it():
    state = make(
        phase="move",
        units=[unit("rocket-bike", "C5", id="b")],
        clouds=[{"at": "E5", "owner": "bismark", "dice": GAS, "placed": 1}],
    )
    state, events = act(state, "move", unit="b", to="E5", dice=[5, 1])  # 2 dice against armour 2
    assert state["units"]["b"]["damage"] == 1
    immune = make(
        phase="move",
        units=[unit("wolverine", "C5", id="w")],
        clouds=[{"at": "E5", "owner": "bismark", "dice": GAS, "placed": 1}],
    )
    immune, events = act(immune, "move", unit="w", to="E5")
    assert not of(events, "attack") and immune["units"]["w"]["damage"] == 0


def test_tank_shock_attacks_infantry_and_the_defender_pushes_survivors_away():
    state = make(
        phase="move",
        active="bismark",
        units=[
            unit("sturmpanzer", "E3", id="tank"),
            unit("rifleman", "E5", id="r1"),
            unit("rifleman", "F5", id="r2"),
        ],
    )
    assert "E5" in {a["to"] for a in legal(state, "move")}
    state, events = act(state, "move", unit="tank", to="E5", dice=[5, 1, 1, 2])
    assert "r1" not in state["units"] and state["awaiting"] == ["allies"]
    options = {a["to"] for a in legal(state, "retreat", side="allies")}
    assert "E7" in options and "E3" not in options  # not back into the tank's side
    state, events = act(state, "retreat", side="allies", unit="r2", to="E7")
    assert state["units"]["r2"]["at"] == "E7" and state["units"]["tank"]["at"] == "E5"
    assert state["awaiting"] == ["bismark"]


def test_tank_shock_only_into_segments_held_by_infantry_alone():
    state = make(
        phase="move",
        active="bismark",
        units=[
            unit("sturmpanzer", "E3", id="tank"),
            unit("rifleman", "E5"),
            unit("rocket-bike", "F5"),
        ],
    )
    assert "E5" not in {a["to"] for a in legal(state, "move")}


def test_precision_adds_to_each_die():
    state = make(
        active="bismark", units=[unit("koenig", "E1", id="k"), unit("rifleman", "E5", id="r")]
    )
    state, events = act(state, "attack", dice=[4, 1], unit="k", target="r")
    assert of(events, "attack")[0]["hit"] and "r" not in state["units"]


def test_sniper_ignores_target_priority():
    state = make(
        active="bismark",
        units=[
            unit("koenig", "E1", id="k"),
            unit("rifleman", "E5", id="front"),
            unit("rifleman", "F6", id="back"),
        ],
    )
    assert {a["target"] for a in legal(state, "attack")} == {"front", "back"}
    state, events = act(state, "attack", dice=[6, 1], unit="k", target="back")
    assert "back" not in state["units"] and "front" in state["units"]


def test_rush_is_an_action_instead_of_an_attack():
    state = make(
        active="bismark", units=[unit("dragoon", "E1", id="d"), unit("rifleman", "E3", id="r")]
    )
    assert legal(state, "attack") and "C1" in {a["to"] for a in legal(state, "rush")}
    state, _ = act(state, "rush", unit="d", to="C1")
    assert not legal(state, "attack") and not legal(state, "rush")  # rush 1 used, no attack after


def test_quick_advance_moves_before_attacking_and_forbids_moving_later():
    state = make(units=[unit("parman", "A9", id="p"), unit("panzerfaust", "A3", id="pz")])
    assert not legal(state, "attack")
    state, _ = act(state, "advance", unit="p", to="A7")
    state, _ = act(state, "advance", unit="p", to="A5")
    state, events = act(state, "attack", dice=[1, 1, 1], unit="p", to="A3")
    assert not legal(state, "advance")
    state, _ = act(state, "end-phase")
    assert state["phase"] == "move" and not [a for a in legal(state, "move") if a["unit"] == "p"]


def test_range_bonus_against_air_targets():
    roster = {
        "zeppelin": {
            "side": "bismark",
            "name": "Zeppelin",
            "count": 1,
            "class": "vehicle",
            "cost": 4,
            "rivets": 1,
            "move": 2,
            "armour": 5,
            "hp": 3,
            "loot": 2,
            "sockets": 0,
            "weapons": [],
            "abilities": [],
        }
    }
    state = make(
        roster=roster,
        units=[
            unit("ostrich", "E9", id="o"),
            unit("rifleman", "F9", id="r"),
            unit("zeppelin", "E5", id="z"),
        ],
    )
    attackers = {a["unit"] for a in legal(state, "attack")}
    assert attackers == {"o"}  # ostrich air range 1 + 1; rifleman air range 1 only


def test_segment_area_attack_hits_every_unit_after_deviation():
    # ac01 shows F; seen from the Allies (facing north) the shell lands one segment north: E5 -> E3
    state = make(
        units=[
            unit("hammer", "E11", id="h"),
            unit("panzerfaust", "E5", id="aim"),
            unit("panzerfaust", "E3", id="a"),
            unit("dragoon", "F4", id="b"),
        ],
        decks={"action": ["ac01"], "secret": []},
    )
    state, events = act(state, "attack", dice=[5, 1, 6, 6], unit="h", to="E5")
    assert of(events, "deviation")[0]["to"] == "E3"
    assert (
        "a" not in state["units"] and state["units"]["b"]["damage"] == 1 and "aim" in state["units"]
    )


def test_chain_attack_goes_on_after_each_hit_until_a_miss():
    state = make(
        active="bismark",
        units=[
            unit("mg08", "E1", id="mg"),
            unit("rifleman", "E5", id="r1"),
            unit("rifleman", "F5", id="r2"),
            unit("rifleman", "E6", id="r3"),
        ],
    )
    state, events = act(state, "attack", dice=[5, 1, 1, 1, 1, 1], unit="mg", to="E5")
    assert [e["target"] for e in of(events, "attack")] == ["r1", "r2"]
    assert "r1" not in state["units"] and "r2" in state["units"] and "r3" in state["units"]


def test_reinforced_defence_removes_dice_down_to_one():
    # Bunker: Reinforced Defence (-1) for infantry inside. Panzerfaust rolls 2 dice against armour 1.
    state = make(
        active="bismark",
        terrain={"bunker": ["E5"]},
        units=[unit("panzerfaust", "E3", id="p"), unit("rifleman", "E5", id="r")],
    )
    state, events = act(state, "attack", dice=[1], unit="p", to="E5")
    assert len(of(events, "attack")[0]["dice"]) == 1
    # Baron Tanken's advantage: the dragoon beside him is attacked with 1 die, never fewer
    state = make(
        units=[
            unit("rifleman", "E9", id="r"),
            unit("tanken", "E5", id="baron"),
            unit("dragoon", "F6", id="d"),
        ]
    )
    state, events = act(state, "attack", dice=[6], unit="r", to="E5")
    assert of(events, "attack")[0]["target"] == "d" and len(of(events, "attack")[0]["dice"]) == 1


def test_a_deviated_attack_can_hit_friendly_units():
    state = make(
        units=[
            unit("hammer", "E11", id="h"),
            unit("panzerfaust", "E5", id="aim"),
            unit("rifleman", "E3", id="own"),
        ],
        decks={"action": ["ac01"], "secret": []},
    )
    state, events = act(state, "attack", dice=[5, 1], unit="h", to="E5")
    assert "own" not in state["units"] and state["vp"] == {"allies": 0, "bismark": 0}


def test_a_shocked_unit_with_nowhere_to_go_is_lost():
    state = make(
        phase="move",
        active="bismark",
        units=[
            unit("sturmpanzer", "C1", id="tank"),
            unit("rifleman", "A1", id="r"),
            unit("panzerfaust", "A3"),
            unit("panzerfaust", "C3"),
        ],
    )
    state, events = act(state, "move", unit="tank", to="A1", dice=[1, 1])
    assert of(events, "no_retreat") and "r" not in state["units"]
    assert state["units"]["tank"]["at"] == "A1" and state["awaiting"] == ["bismark"]


def test_a_deviated_attack_lands_even_beyond_the_weapons_range():
    # Hammer ground range 4: E11 -> E3 is 4 away; card ac01 (F) moves the shell on to E1, 5 away.
    # The rulebook resolves the action against the new segment "as if it had been the target".
    state = make(
        units=[
            unit("hammer", "E11", id="h"),
            unit("panzerfaust", "E3", id="aim"),
            unit("panzerfaust", "E1", id="far"),
        ],
        decks={"action": ["ac01"], "secret": []},
    )
    state, events = act(state, "attack", dice=[5, 1], unit="h", to="E3")
    assert of(events, "deviation")[0]["to"] == "E1"
    assert [e["target"] for e in of(events, "attack")] == ["far"] and "far" not in state["units"]


def test_no_gas_attack_while_all_five_gas_markers_are_on_the_board():
    import pytest

    from engine.core.errors import RuleError

    clouds = [
        {"at": at, "owner": "bismark", "dice": GAS, "placed": 1}
        for at in ("A1", "C1", "G1", "I1", "K1")
    ]
    state = make(
        active="bismark",
        clouds=clouds,
        units=[
            unit("sturmpanzer", "E1", id="tank", plugins=["cyclops"]),
            unit("rifleman", "E5", id="r"),
        ],
    )
    assert {a["choice"] for a in legal(state, "attack")} == {"cannon"}
    with pytest.raises(RuleError, match="All 5 gas markers"):
        act(state, "attack", unit="tank", to="E5", choice="gas-projector")
    with pytest.raises(Exception, match="only 5 gas markers"):
        make(clouds=clouds + [{"at": "M1", "owner": "bismark", "dice": GAS, "placed": 1}])
