"""Fortress, trebuchet, catapult and ballista: built by a settler on a simple unit, and how they fight."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.tactical_table_war.units import stats

from .helpers import RS, end_phases, of, play, position


def _build(crew_type: str, kind: str, **kw):
    state = position(
        [
            ("r1", "red", "settler", "0203"),
            ("r2", "red", crew_type, "0303"),
            ("b1", "blue", "bow", "0603"),
        ],
        phase="movement",
        **kw,
    )
    state, events = play(state, "red", f"/move unit:r1 to:0303 build:{kind}")
    return state, events


def test_a_settler_moving_onto_a_simple_bow_unit_starts_a_fortress():
    state, events = _build("bow", "fortress")
    assert of(events, "construction_started")[0]["kind"] == "fortress"
    assert state["constructions"]["0303"]["settler"] == "r1"


def test_only_simple_units_of_the_fitting_symbol_carry_a_building():
    state = position(
        [
            ("r1", "red", "settler", "0203"),
            {"id": "r2", "side": "red", "type": "bow", "level": "advanced", "at": "0303"},
            ("r3", "red", "sword", "0202"),
            ("b1", "blue", "bow", "0603"),
        ],
        phase="movement",
    )
    builds = {(a["to"], a["build"]) for a in RS.legal_actions(state, "red") if a.get("build")}
    assert builds == {("0202", "trebuchet")}
    with pytest.raises(RuleError):
        play(state, "red", "/move unit:r1 to:0303 build:fortress")


def test_the_fortress_is_finished_in_the_builders_next_preparation_and_the_settler_leaves_play():
    state, _ = _build("bow", "fortress")
    state, _ = end_phases(state, "red", 4)
    assert "0303" not in state["buildings"]
    state, events = end_phases(state, "blue", 4)
    assert (
        state["buildings"]["0303"]["kind"] == "fortress"
        and state["buildings"]["0303"]["occupant"] == "r2"
    )
    assert "r1" not in state["units"] and "r1" not in state["eliminated"]
    assert of(events, "built")[0]["settler_used"] == "r1"


def test_enemies_must_attack_the_settler_first():
    state, _ = _build("bow", "fortress")
    state, _ = end_phases(state, "red", 4)
    state, _ = end_phases(state, "blue", 3)  # blue's attack phase
    targets = {a["target"] for a in RS.legal_actions(state, "blue") if a["type"] == "attack"}
    assert "r1" in targets and "r2" not in targets
    with pytest.raises(RuleError, match="attack the settler first"):
        play(state, "blue", "/attack unit:b1 target:r2")
    state, events = play(state, "blue", "/attack unit:b1 target:r1", [6, 1])
    assert "r1" not in state["units"] and "0303" not in state["constructions"]
    assert of(events, "construction_abandoned")


def test_builders_cannot_attack_but_defend():
    state, _ = _build("bow", "fortress")
    state, _ = end_phases(state, "red", 3)  # red's attack phase
    assert not [a for a in RS.legal_actions(state, "red") if a["type"] == "attack"]
    with pytest.raises(RuleError, match="is building"):
        play(state, "red", "/attack unit:r2 target:b1")


def test_the_fortress_occupant_fights_with_the_fortress_values():
    state = position(
        [("r1", "red", "bow", "0303"), ("b1", "blue", "sword", "0503")],
        prebuilt=[{"kind": "fortress", "at": "0303"}],
    )
    assert stats(RS.cat, state, "r1") == {"range": 5, "speed": 0, "strength": 10}
    # The FAQ: attacking the fortress's unit meets the fortress's value.
    state = position(
        [("r1", "red", "bow", "0303"), ("b1", "blue", "sword", "0403")],
        prebuilt=[{"kind": "fortress", "at": "0303"}],
        active="blue",
    )
    state, events = play(state, "blue", "/attack unit:b1 target:r1", [6, 1, 1, 1])
    assert of(events, "combat")[0]["defender_strength"] == 10


def test_fortress_values_set_before_the_game():
    state, _ = _build("bow", "fortress", fortress_values={"red": {"range": 7, "strength": 8}})
    state, _ = end_phases(state, "red", 4)
    state, _ = end_phases(state, "blue", 4)
    assert stats(RS.cat, state, "r2") == {"range": 7, "speed": 0, "strength": 8}
    from engine.core.errors import ScenarioError

    from .helpers import scenario

    with pytest.raises(ScenarioError, match="15 points"):
        RS.scenario_from_data(
            scenario(
                [("r1", "red", "bow", "0303")],
                fortress_values={"red": {"range": 6, "strength": 10}},
            ),
            "t",
        )
    with pytest.raises(ScenarioError, match="maximum range"):
        RS.scenario_from_data(
            scenario(
                [("r1", "red", "bow", "0303")], fortress_values={"red": {"range": 8, "strength": 7}}
            ),
            "t",
        )


def test_the_fortress_counters_when_the_building_itself_is_attacked():
    state = position(
        [("r1", "red", "bow", "0303"), ("b1", "blue", "sword", "0403")],
        prebuilt=[{"kind": "fortress", "at": "0303"}],
        active="blue",
    )
    state, events = play(state, "blue", "/attack unit:b1 target:0303", [6, 1])
    assert state["buildings"]["0303"]["damage"] == 1
    assert of(events, "combat")[0]["kind"] == "fortress-counter" and "b1" not in state["units"]


def test_an_empty_fortress_does_not_counter():
    state = position(
        [("r1", "red", "bow", "0101"), ("b1", "blue", "sword", "0403")],
        prebuilt=[{"kind": "fortress", "at": "0303"}],
        active="blue",
    )
    state, events = play(state, "blue", "/attack unit:b1 target:0303")
    assert not of(events, "combat") and state["buildings"]["0303"]["damage"] == 1


def test_a_fortress_taken_directly_by_a_unit_without_the_bow_loses_its_function():
    state = position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0503")],
        phase="movement",
        active="blue",
        prebuilt=[{"kind": "fortress", "at": "0303"}],
    )
    state, _ = play(state, "blue", "/move unit:b1 to:0303", [6, 1])
    assert state["buildings"]["0303"]["occupant"] == "b1"
    assert stats(RS.cat, state, "b1")["strength"] == RS.cat.types["sword"]["strength"]


def test_only_bow_units_move_into_an_empty_fortress():
    state = position(
        [
            ("r1", "red", "sword", "0203"),
            ("r2", "red", "bow", "0302"),
            ("b1", "blue", "bow", "0806"),
        ],
        phase="movement",
        prebuilt=[{"kind": "fortress", "at": "0303"}],
    )
    entering = {a["unit"] for a in RS.legal_actions(state, "red") if a.get("to") == "0303"}
    assert entering == {"r2"}


def test_the_trebuchet_is_built_on_a_simple_sword_unit_and_damages_buildings_by_two():
    state, _ = _build("sword", "trebuchet")
    state, _ = end_phases(state, "red", 4)
    state, _ = end_phases(state, "blue", 4)
    assert state["buildings"]["0303"]["kind"] == "trebuchet"
    assert stats(RS.cat, state, "r2")["range"] == 10 and stats(RS.cat, state, "r2")["speed"] == 0
    assert stats(RS.cat, state, "r2")["strength"] == RS.cat.types["sword"]["strength"]
    state = position(
        [("r1", "red", "sword", "0101"), ("b1", "blue", "settler", "0907")],
        prebuilt=[{"kind": "trebuchet", "at": "0101"}, {"kind": "quarry", "at": "0907"}],
    )
    state, events = play(state, "red", "/attack unit:r1 target:0907")
    assert (
        state["buildings"]["0907"]["damage"] == 2
        and of(events, "building_attacked")[0]["damage"] == 2
    )


def test_catapult_or_ballista_is_chosen_when_a_settler_joins_a_simple_rider():
    state = position(
        [
            ("r1", "red", "settler", "0203"),
            ("r2", "red", "shoe", "0303"),
            ("b1", "blue", "bow", "0603"),
        ],
        phase="movement",
    )
    builds = {a["build"] for a in RS.legal_actions(state, "red") if a.get("build")}
    assert builds == {"catapult", "ballista"}
    state, _ = play(state, "red", "/move unit:r1 to:0303 build:ballista")
    state, _ = end_phases(state, "red", 4)
    state, _ = end_phases(state, "blue", 4)
    assert state["buildings"]["0303"]["kind"] == "ballista"
    assert stats(RS.cat, state, "r2") == {
        "range": 5,
        "speed": 2,
        "strength": RS.cat.types["shoe"]["strength"],
    }


def test_the_crew_moves_the_engine_with_it():
    state = position(
        [("r1", "red", "shoe", "0303"), ("b1", "blue", "bow", "0806")],
        phase="movement",
        prebuilt=[{"kind": "catapult", "at": "0303"}],
    )
    reach = {a["to"] for a in RS.legal_actions(state, "red") if a.get("unit") == "r1"}
    assert "0503" in reach and "0603" not in reach  # speed 2, not the rider's 4
    state, _ = play(state, "red", "/move unit:r1 to:0503")
    assert "0303" not in state["buildings"] and state["buildings"]["0503"]["occupant"] == "r1"


def test_the_ballista_lays_three_weakening_dice_on_one_target():
    state = position(
        [("r1", "red", "shoe", "0303"), ("b1", "blue", "sword", "0703")],
        prebuilt=[{"kind": "ballista", "at": "0303"}],
    )
    state, events = play(state, "red", "/attack unit:r1 target:b1", [2, 3, 4])
    assert state["units"]["b1"]["weak"] == [2, 3, 4] and not of(events, "combat")


def test_engines_withstand_three_direct_attacks():
    state = position(
        [("r1", "red", "shoe", "0303"), ("b1", "blue", "sword", "0403")],
        active="blue",
        prebuilt=[{"kind": "catapult", "at": "0303", "damage": 3}],
    )
    state, events = play(state, "blue", "/attack unit:b1 target:0303")
    assert (
        of(events, "building_attacked")[0]["destroyed"] and state["engine_supply"][0]["at"] is None
    )


def _ladder_position(tool_forge: bool = True, **kw):
    # Blue's castle is 0904; a red ladder man stands next to it on 0804, a red sword behind him.
    units = [
        ("r1", "red", "settler", "0202"),
        ("r2", "red", "settler", "0804"),
        ("r3", "red", "sword", "0704"),
        ("b1", "blue", "bow", "0101"),
    ]
    prebuilt = [{"kind": "forge", "at": "0202"}] if tool_forge else []
    return position(units, phase="movement", prebuilt=prebuilt, **kw)


def test_a_settler_in_a_forge_makes_the_second_settler_a_ladder_man_over_whom_units_reach_the_wall():
    state = _ladder_position()
    assert {"type": "move", "side": "red", "unit": "r3", "to": "0904"} in RS.legal_actions(
        state, "red"
    )
    # The ladder man himself does not climb.
    assert not [
        a for a in RS.legal_actions(state, "red") if a.get("unit") == "r2" and a.get("to") == "0904"
    ]
    state, events = play(state, "red", "/move unit:r3 to:0904")
    assert state["units"]["r3"]["at"] == "0904" and of(events, "moved")[0]["path"] == [
        "0704",
        "0804",
        "0904",
    ]


def test_without_a_tool_forge_there_are_no_ladder_men():
    state = _ladder_position(tool_forge=False)
    assert not [a for a in RS.legal_actions(state, "red") if a.get("to") == "0904"]
    with pytest.raises(RuleError):
        play(state, "red", "/move unit:r3 to:0904")


def test_only_units_on_the_wall_attack_the_castle_and_its_fall_ends_the_game():
    units = [
        ("r3", "red", "sword", "0904"),
        ("r4", "red", "bow", "0804"),
        ("b1", "blue", "bow", "0101"),
    ]
    state = position(units, castle_damage={"blue": 6})
    castle_attacks = [a for a in RS.legal_actions(state, "red") if a.get("target") == "0904"]
    assert castle_attacks == [{"type": "attack", "side": "red", "unit": "r3", "target": "0904"}]
    with pytest.raises(RuleError):
        play(state, "red", "/attack unit:r4 target:0904")
    state, _ = play(state, "red", "/attack unit:r3 target:0904")
    assert state["result"] == {"winner": "red", "reason": "Blue's castle is destroyed"}
    state = position(units, castle_damage={"blue": 2})
    state, _ = play(state, "red", "/attack unit:r3 target:0904")
    assert state["castle_damage"]["blue"] == 3 and not state["result"]


def _catapult(units=None, **kw):
    units = units or [
        ("r1", "red", "shoe", "0303"),
        ("b1", "blue", "sword", "0603"),
        ("b2", "blue", "bow", "0604"),
        ("b3", "blue", "sword", "0803"),
    ]
    return position(units, prebuilt=[{"kind": "catapult", "at": "0303"}], **kw)


def test_catapult_scatter_attack_lays_three_weakening_dice_in_the_area_then_strikes_one_weakened_unit():
    state = _catapult()
    assert {"type": "scatter", "side": "red", "unit": "r1", "at": "0603"} in RS.legal_actions(
        state, "red"
    )
    state, events = play(state, "red", "/scatter unit:r1 at:0603", [5, 2, 2])
    assert of(events, "scatter")[0]["area"] == ["b1", "b2"]  # b3 is two hexes off
    assert {a["target"] for a in RS.legal_actions(state, "red")} == {"b1", "b2"}
    assert [a["type"] for a in RS.legal_actions(state, "red")] == [
        "weaken"
    ] * 4  # two faces x two units
    state, _ = play(state, "red", "/weaken die:5 target:b1")
    with pytest.raises(RuleError):
        play(state, "red", "/weaken die:5 target:b2")  # the 5 is used
    state, _ = play(state, "red", "/weaken die:2 target:b1")
    state, _ = play(state, "red", "/weaken die:2 target:b1")
    assert state["units"]["b1"]["weak"] == [5, 2, 2]
    # Only a unit weakened by this attack can be struck.
    assert RS.legal_actions(state, "red") == [{"type": "strike", "side": "red", "target": "b1"}]
    state, events = play(state, "red", "/strike target:b1", [1, 6])  # 4+1=5 vs 5+6-9=2
    assert "b1" not in state["units"] and not state.get("scatter")
    assert of(events, "combat")[0]["kind"] == "catapult"


def test_the_catapults_attack_die_does_not_become_a_weakening_die_and_the_struck_unit_may_hit_the_catapult():
    state = _catapult([("r1", "red", "shoe", "0303"), ("b1", "blue", "bow", "0503")])
    state, _ = play(state, "red", "/scatter unit:r1 at:0503", [1, 1, 1])
    for _ in range(3):
        state, _ = play(state, "red", "/weaken die:1 target:b1")
    state, _ = play(state, "red", "/strike target:b1", [1, 6])  # 5 vs 3+6-3=6: held
    assert state["units"]["b1"]["weak"] == [1, 1, 1]
    assert state["awaiting"] == ["blue"]
    choices = {a["target"] for a in RS.legal_actions(state, "blue")}
    assert choices == {"none", "r1", "0303"}
    state, events = play(state, "blue", "/counter target:0303")
    assert state["buildings"]["0303"]["damage"] == 1 and of(events, "building_attacked")
    assert state["awaiting"] == ["red"] and not state.get("scatter")


def test_a_scatter_attack_spares_a_crew_while_its_settler_lives():
    state = position(
        [
            ("r1", "red", "shoe", "0303"),
            ("b1", "blue", "settler", "0603"),
            ("b2", "blue", "bow", "0503"),
            ("b3", "blue", "sword", "0504"),
        ],
        prebuilt=[{"kind": "catapult", "at": "0303"}],
        phase="movement",
        active="blue",
    )
    state, _ = play(state, "blue", "/move unit:b1 to:0503 build:fortress")
    state, _ = end_phases(state, "blue", 4)
    state, _ = end_phases(state, "red", 3)
    state, events = play(state, "red", "/scatter unit:r1 at:0503", [3, 3, 3])
    assert of(events, "scatter")[0]["area"] == ["b1", "b3"]
