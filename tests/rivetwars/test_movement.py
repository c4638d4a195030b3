from engine.core import squaregrid
from engine.rivetwars.rules import board
from tests.rivetwars.util import act, legal, make, of, unit


def moves(state, uid):
    return {a["to"] for a in legal(state, "move") if a["unit"] == uid}


def test_a_unit_moves_one_segment_per_movement_point():
    state = make(phase="move", units=[unit("rifleman", "A9", id="r")])  # A9 is mud: 1 point
    assert moves(state, "r") == {"A7", "C7", "C9", "A11", "C11"}
    state, _ = act(state, "move", unit="r", to="A7")
    assert moves(state, "r") == set()


def test_only_one_diagonal_step_per_activation():
    state = make(phase="move", units=[unit("ostrich", "E5", id="d")])  # move 2
    state, _ = act(state, "move", unit="d", to="G7")
    assert moves(state, "d") == {"G5", "E7", "I7", "G9"}


def test_never_into_a_segment_with_enemy_units():
    state = make(
        phase="move", units=[unit("rifleman", "C7", id="r"), unit("panzerfaust", "C5", id="p")]
    )
    assert "C5" not in moves(state, "r")


def test_diagonal_slip_between_two_blocked_segments():
    state = make(
        phase="move",
        terrain={"wire": ["C5"]},
        units=[unit("rifleman", "C7", id="r"), unit("panzerfaust", "E7", id="p")],
    )
    assert "E5" in moves(
        state, "r"
    )  # C5 (wire) and E7 (enemy) block, the diagonal between them is open


def test_regroup_within_a_segment_swaps_squares():
    state = make(
        phase="move", units=[unit("rifleman", "A9", id="r1"), unit("rifleman", "B9", id="r2")]
    )
    assert {a["to"] for a in legal(state, "regroup") if a["unit"] == "r1"} == {"B9", "A10", "B10"}
    state, _ = act(state, "regroup", unit="r1", to="B9")
    assert state["units"]["r1"]["at"] == "B9" and state["units"]["r2"]["at"] == "A9"
    assert not [a for a in legal(state, "regroup") if a["unit"] == "r1"]  # once per movement phase


def test_barbed_wire_stops_infantry_and_other_units_flatten_it():
    state = make(
        phase="move",
        terrain={"wire": ["E7"]},
        units=[unit("rifleman", "C7", id="r"), unit("rocket-bike", "G7", id="b")],
    )
    assert "E7" not in moves(state, "r") and "E7" in moves(state, "b")
    state, events = act(state, "move", unit="b", to="E7")
    assert of(events, "wire_destroyed") and "wire" not in state["terrain"].get("E7", [])


def test_tank_traps_bunkers_and_objectives_are_for_infantry_only():
    state = make(
        phase="move",
        terrain={"tanktrap": ["E5"], "bunker": ["E7"], "objective": ["E9"]},
        units=[unit("rifleman", "C7", id="r"), unit("rocket-bike", "C5", id="b")],
    )
    assert {"E5", "E7"} <= moves(state, "r")
    state, _ = act(state, "move", unit="r", to="E7")
    assert not {"E5", "E7"} & moves(state, "b")
    far = make(
        phase="move", terrain={"objective": ["E9"]}, units=[unit("rocket-bike", "C9", id="b")]
    )
    assert "E9" not in moves(far, "b")


def test_a_minefield_attacks_non_infantry_entering_with_two_dice():
    state = make(
        phase="move",
        terrain={"minefield": ["E7"]},
        units=[unit("rifleman", "C7", id="r"), unit("rocket-bike", "C9", id="b")],
    )
    state, events = act(state, "move", unit="r", to="E7")  # infantry: no dice
    assert not of(events, "attack")
    state, events = act(state, "move", unit="b", to="E7", dice=[5, 2])
    assert of(events, "attack")[0]["kind"] == "mine" and state["units"]["b"]["damage"] == 1


def test_runner_gets_extra_movement_on_a_walkway_square():
    b = board(make())
    assert squaregrid.parse_label("D9") in b.walkways
    state = make(phase="move", units=[unit("rifleman", "D9", id="r")])
    state, _ = act(state, "move", unit="r", to="C7")
    assert moves(state, "r")  # second point from Runner (+1)


def test_movement_bonus_adds_movement_points():
    state = make(phase="move", units=[unit("rocket-bike", "A9", id="b")])  # move 1, bonus +1
    state, _ = act(state, "move", unit="b", to="A7")
    state, _ = act(state, "move", unit="b", to="A5")
    assert moves(state, "b") == set()


def test_movement_activates_segment_by_segment():
    state = make(
        phase="move",
        units=[
            unit("rifleman", "A9", id="r1"),
            unit("rifleman", "B9", id="r2"),
            unit("rifleman", "E9", id="r3"),
        ],
    )
    state, _ = act(state, "move", unit="r1", to="A7")
    state, _ = act(state, "move", unit="r3", to="E7")
    assert moves(state, "r2") == set()


def test_a_segment_holds_at_most_four_units():
    units = [unit("rifleman", sq) for sq in ("C7", "D7", "C8", "D8")] + [
        unit("rifleman", "A7", id="r")
    ]
    state = make(phase="move", units=units)
    assert "C7" not in moves(state, "r")


def test_bunkers_and_objectives_count_as_walkways_for_runners():
    for kind in ("bunker", "objective"):
        state = make(
            phase="move", terrain={kind: ["A9"]}, units=[unit("rifleman", "A9", id="r")]
        )  # A9 is mud
        state, _ = act(state, "move", unit="r", to="A7")
        assert moves(state, "r")


def test_refusals_say_why_and_change_nothing():
    import copy

    import pytest

    from engine.core.errors import RuleError

    state = make(
        phase="move",
        terrain={"wire": ["C7"]},
        units=[unit("rifleman", "A9", id="r"), unit("panzerfaust", "A7", id="p")],
    )
    before = copy.deepcopy(state)
    for to, words in (
        ("A7", "enemy units there"),
        ("C7", "barbed wire"),
        ("E9", "not next to"),
        ("B9", "not a segment"),
    ):
        with pytest.raises(RuleError, match=words):
            act(state, "move", unit="r", to=to)
    with pytest.raises(RuleError, match="not one of your units"):
        act(state, "move", unit="p", to="A5")
    with pytest.raises(RuleError, match="combat phase"):
        act(state, "attack", unit="r", to="A7")
    assert state == before


def test_reinforced_defence_also_reduces_the_minefields_dice():
    # Baron Tanken (cavalry) carries Reinforced Defence (-1) as an advantage: he and the dragoon
    # activated with him roll against the mines with one die instead of two.
    state = make(
        phase="move",
        active="bismark",
        terrain={"minefield": ["E7", "G7"]},
        units=[unit("tanken", "E5", id="baron"), unit("dragoon", "F5", id="d")],
    )
    state, events = act(state, "move", unit="baron", to="E7", dice=[6])
    assert len(of(events, "attack")[0]["dice"]) == 1 and state["units"]["baron"]["damage"] == 1
    state, events = act(
        state, "move", unit="d", to="G7", dice=[2]
    )  # left Tanken's segment: still -1
    assert len(of(events, "attack")[0]["dice"]) == 1


def test_runner_counts_the_square_held_when_the_segment_was_activated():
    # D9 is a walkway, C10 is mud. The segment is activated by r_b's move while r_a stands in mud;
    # regrouping r_a onto the walkway afterwards gives it no Runner bonus.
    state = make(
        phase="move", units=[unit("rifleman", "C10", id="r_a"), unit("rifleman", "D9", id="r_b")]
    )
    state, _ = act(state, "move", unit="r_b", to="C7")
    state, _ = act(state, "regroup", unit="r_a", to="D9")
    state, _ = act(state, "move", unit="r_a", to="E9")
    assert moves(state, "r_a") == set()
