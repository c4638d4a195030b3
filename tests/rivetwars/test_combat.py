from tests.rivetwars.util import act, legal, make, of, unit


def test_attack_only_a_segment_in_range_without_friendly_units():
    state = make(
        units=[
            unit("rifleman", "E5", id="r1"),
            unit("rifleman", "E1", id="r2"),
            unit("panzerfaust", "F1", id="p1"),
            unit("panzerfaust", "I5", id="p2"),
            unit("panzerfaust", "Q1", id="p3"),
        ]
    )
    # E1 holds an Allied rifleman too; Q1 is out of range; I5 is free of friends and in range
    assert {a["to"] for a in legal(state, "attack") if a["unit"] == "r1"} == {"I5"}


def test_target_priority_takes_the_first_square_of_the_defenders_chart():
    # the Bismark chart takes the south-east square first, then south-west, north-east, north-west
    state = make(
        units=[
            unit("rifleman", "E5", id="r1"),
            unit("panzerfaust", "E1", id="front"),
            unit("dragoon", "F2", id="back"),
        ]
    )
    state, events = act(state, "attack", dice=[5], unit="r1", to="E1")  # 1 die against armour 2
    assert of(events, "attack")[0]["target"] == "back" and state["units"]["back"]["damage"] == 1
    assert state["units"]["front"]["damage"] == 0


def test_armour_against_the_attack_chart_gives_the_dice_and_zero_dice_cannot_attack():
    state = make(
        units=[
            unit("rifleman", "E5", id="r1"),
            unit("sturmpanzer", "F2", id="tank"),
            unit("panzerfaust", "E1", id="inf"),
        ]
    )
    assert not legal(
        state, "attack"
    )  # the tank is first in priority and riflemen roll 0 dice against armour 4
    state = make(units=[unit("wolverine", "E5", id="w"), unit("sturmpanzer", "F2", id="tank")])
    state, events = act(
        state, "attack", dice=[1, 2], unit="w", to="E1"
    )  # cannon: 2 dice against armour 4
    assert len(of(events, "attack")[0]["dice"]) == 2


def test_any_five_or_six_deals_exactly_one_damage():
    # "Unabhängig von der Menge der Fünfen und Sechsen ... genau 1 Punkt Schaden": two 5+ dice, one damage
    state = make(units=[unit("wolverine", "E5", id="w"), unit("sturmpanzer", "F2", id="tank")])
    state, events = act(state, "attack", dice=[6, 5], unit="w", to="E1")
    assert state["units"]["tank"]["damage"] == 1 and len(of(events, "damage")) == 1


def test_a_unit_with_several_attacks_makes_each_of_them():
    state = make(
        units=[
            unit("wolverine", "E5", id="w"),
            unit("sturmpanzer", "F2", id="tank"),
            unit("panzerfaust", "I5", id="inf"),
        ]
    )
    state, _ = act(state, "attack", dice=[1, 1], unit="w", to="E1")
    state, _ = act(
        state, "attack", dice=[1, 1], unit="w", to="I5"
    )  # second attack, another segment
    assert not [a for a in legal(state, "attack") if a["unit"] == "w"]


def test_weapons_of_a_plug_in_attack_separately():
    state = make(
        units=[
            unit("wolverine", "E5", id="w", plugins=["hacksaw"]),
            unit("panzerfaust", "E1", id="p"),
            unit("panzerfaust", "I5", id="q"),
        ]
    )
    choices = {(a["choice"], a["to"]) for a in legal(state, "attack")}
    assert choices == {("cannon", "E1"), ("cannon", "I5"), ("hacksaw", "E1"), ("hacksaw", "I5")}
    state, _ = act(state, "attack", dice=[1, 1], unit="w", to="E1", choice="cannon")
    state, _ = act(state, "attack", dice=[1, 1, 1], unit="w", to="I5", choice="hacksaw")
    state, _ = act(state, "attack", dice=[1, 1], unit="w", to="E1", choice="cannon")
    assert not legal(state, "attack")


def test_units_activate_segment_by_segment_each_once():
    state = make(
        units=[
            unit("rifleman", "A9", id="r1"),
            unit("rifleman", "B9", id="r2"),
            unit("rifleman", "E9", id="r3"),
            unit("panzerfaust", "C7", id="p"),
        ]
    )
    state, events = act(state, "attack", dice=[1, 1], unit="r1", to="C7")
    assert of(events, "activated")[0]["units"] == ["r1", "r2"]
    state, _ = act(state, "attack", dice=[1, 1], unit="r3", to="C7")  # activates E9: A9 is done
    assert {a["unit"] for a in legal(state, "attack")} == set()
    assert "r2" in state["spent"]


def test_advantages_are_shared_in_the_segment_and_kept_until_the_activation_ends():
    # Parman (Quick Advance 3) and a Wolverine carrying General Patston (ground range +1) share
    # their advantages with the rifleman in their segment; it keeps them after leaving.
    state = make(
        units=[
            unit("parman", "A9", id="parman"),
            unit("wolverine", "B9", id="w", plugins=["patston"]),
            unit("rifleman", "A10", id="r"),
            unit("panzerfaust", "G5", id="p"),
        ]
    )
    assert not [a for a in legal(state, "attack") if a["unit"] == "r"]  # G5 is 4 away
    state, _ = act(state, "advance", unit="r", to="A7")
    state, _ = act(state, "advance", unit="r", to="A5")
    assert {"type": "attack", "side": "allies", "unit": "r", "to": "G5"} in legal(
        state, "attack"
    )  # range 2 + 1
    state, events = act(state, "attack", dice=[6, 1], unit="r", to="G5")
    assert "p" not in state["units"]


def test_loot_scores_victory_points_for_the_eliminating_player():
    state = make(units=[unit("wolverine", "E5", id="w"), unit("dragoon", "F2", id="d", damage=1)])
    state, events = act(state, "attack", dice=[5, 1], unit="w", to="E1")
    assert "d" not in state["units"] and state["vp"]["allies"] == 1  # dragoon loot 1
    assert of(events, "vp")[0]["why"] == "loot d"
