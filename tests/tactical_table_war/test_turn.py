"""The five-phase turn, the preparation phase, treasury, recruiting and training."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError

from .helpers import BLUE_CASTLE, RED_CASTLE, RS, end_phases, of, play, position


def test_five_phases_in_the_expansions_order():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0803")], phase="movement"
    )
    seen = [state["phase"]]
    for _ in range(3):
        state, _ = play(state, "red", "/end-phase")
        seen.append(state["phase"])
    state, events = play(state, "red", "/end-phase")
    started = [e["phase"] for e in of(events, "phase_started")]
    assert seen == ["movement", "recruitment", "building", "attack"]
    # Blue's preparation runs by itself, then Blue moves.
    assert started == ["preparation", "movement"] and state["active"] == "blue"
    assert state["phase"] == "movement"


def test_preparation_removes_only_own_weakening_dice():
    state = position(
        [
            {"id": "r1", "side": "red", "type": "sword", "at": "0203", "weakening": [3]},
            {"id": "b1", "side": "blue", "type": "sword", "at": "0803", "weakening": [2, 4]},
        ],
        phase="attack",
    )
    state, events = play(state, "red", "/end-phase")
    assert state["units"]["b1"]["weak"] == [] and state["units"]["r1"]["weak"] == [3]
    assert [e["unit"] for e in of(events, "weakening_removed")] == ["b1"]


def test_castle_yields_treasure_in_preparation():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "sword", "0803")], phase="attack"
    )
    state, events = play(state, "red", "/end-phase")
    assert state["treasury"]["blue"] == 2 and state["treasury"]["red"] == 0
    assert of(events, "treasure")[0]["sources"] == ["castle 2"]


def test_recruit_costs_a_treasure_die_and_appears_at_the_castle():
    state = position(
        [("r1", "red", "sword", "0303"), ("b1", "blue", "sword", "0803")],
        phase="recruitment",
        treasury={"red": 1, "blue": 0},
    )
    state, events = play(state, "red", f"/recruit at:{RED_CASTLE}")
    new = of(events, "recruited")[0]["unit"]
    assert state["units"][new]["type"] == "recruit" and state["units"][new]["at"] == RED_CASTLE
    assert state["treasury"]["red"] == 0
    with pytest.raises(RuleError, match="costs 1 treasure"):
        play(state, "red", "/recruit at:0103")


def test_a_recruit_is_narrated_by_its_name_not_its_id_alone():
    # Issue 15: "Rot rekrutiert red-7 auf 0106" gave the id only.
    state = position(
        [("r1", "red", "sword", "0303"), ("b1", "blue", "sword", "0803")],
        phase="recruitment",
        treasury={"red": 1, "blue": 0},
    )
    state, events = play(state, "red", f"/recruit at:{RED_CASTLE}")
    event = of(events, "recruited")[0]
    uid = event["unit"]
    assert RS.narrate(state, event, "de") == f"Rot rekrutiert Rekrut {uid} auf {RED_CASTLE}"
    assert RS.narrate(state, event, "en") == f"Red recruits Recruit {uid} at {RED_CASTLE}"


def test_training_finishes_in_the_next_own_preparation():
    state = position(
        [
            {"id": "r1", "side": "red", "type": "recruit", "at": "0204"},
            ("b1", "blue", "sword", "0803"),
        ],
        phase="recruitment",
        treasury={"red": 1, "blue": 0},
    )
    state, _ = play(state, "red", "/train unit:r1 as:bow")
    assert state["units"]["r1"]["type"] == "recruit" and state["treasury"]["red"] == 0
    state, _ = end_phases(state, "red", 3)  # through building, attack -> blue
    assert state["units"]["r1"]["type"] == "recruit"
    state, _ = end_phases(state, "blue", 4)  # blue's turn -> red's preparation
    assert state["units"]["r1"]["type"] == "bow" and state["units"]["r1"]["level"] == "simple"


def test_advanced_training_raises_the_trained_value():
    state = position(
        [("r1", "red", "bow", "0204"), ("b1", "blue", "sword", "0803")],
        phase="recruitment",
        treasury={"red": 2, "blue": 0},
    )
    state, _ = play(state, "red", "/train unit:r1 as:advanced")
    state, _ = end_phases(state, "red", 3)
    state, _ = end_phases(state, "blue", 4)
    assert state["units"]["r1"]["level"] == "advanced"
    assert RS.scene(state, [], None)  # still drawable
    from engine.tactical_table_war.units import stats

    assert stats(RS.cat, state, "r1")["range"] == RS.cat.types["bow"]["range"] + 1


def test_training_only_next_to_own_castle():
    state = position(
        [
            {"id": "r1", "side": "red", "type": "recruit", "at": "0504"},
            ("b1", "blue", "sword", BLUE_CASTLE),
        ],
        phase="recruitment",
        treasury={"red": 3, "blue": 0},
    )
    with pytest.raises(RuleError):
        play(state, "red", "/train unit:r1 as:sword")


def test_turn_limit_scores_treasury_units_and_capture_points():
    state = position(
        [
            ("r1", "red", "sword", "0203"),
            ("r2", "red", "sword", "0303"),
            ("b1", "blue", "sword", "0803"),
        ],
        phase="attack",
        active="blue",
        last_turn=1,
        treasury={"red": 1, "blue": 1},
    )
    state, events = play(state, "blue", "/end-phase")
    assert state["result"]["winner"] == "red" and of(events, "game_over")[0]["scores"] == {
        "red": 3,
        "blue": 2,
    }
    assert RS.legal_actions(state, "red") == []


def test_a_side_without_units_or_treasure_loses():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "settler", "0303")], phase="attack"
    )
    state, _ = play(state, "red", "/attack unit:r1 target:b1", [6, 1])
    assert state["result"] == {
        "winner": "red",
        "reason": "Blue has no unit left and cannot recruit",
    }


def test_a_settler_builds_an_outpost_that_yields_treasure_unless_an_enemy_stands_on_it():
    state = position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0806")],
        phase="building",
        treasury={"red": 1, "blue": 0},
    )
    state, _ = play(state, "red", "/build unit:r1 kind:outpost")
    assert (
        state["outposts"] == {"0303": {"side": "red", "damage": 0}}
        and state["treasury"]["red"] == 0
    )
    state, _ = end_phases(state, "red", 2)
    state, events = end_phases(state, "blue", 4)
    assert of(events, "treasure")[0]["sources"] == ["castle 2", "outpost 0303"]
    held = position(
        [("r1", "red", "settler", "0202"), ("b1", "blue", "sword", "0303")],
        phase="attack",
        active="blue",
        outposts=[{"side": "red", "at": "0303"}],
    )
    held, events = play(held, "blue", "/end-phase")
    assert of(events, "treasure")[0]["sources"] == ["castle 2"]


def test_outposts_are_limited_per_side_and_can_be_destroyed():
    outposts = [{"side": "red", "at": "0501"}, {"side": "red", "at": "0601"}]
    state = position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0806")],
        phase="building",
        treasury={"red": 5, "blue": 0},
        outposts=outposts,
    )
    with pytest.raises(RuleError):
        play(state, "red", "/build unit:r1 kind:outpost")
    state = position(
        [("r1", "red", "settler", "0303"), ("b1", "blue", "sword", "0502")],
        active="blue",
        outposts=[{"side": "red", "at": "0501", "damage": 6}],
    )
    state, events = play(state, "blue", "/attack unit:b1 target:0501")
    assert of(events, "building_attacked")[0]["destroyed"] and state["outposts"] == {}


def test_every_sixth_enemy_killed_pays_a_treasure_die_from_the_looting_die():
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "settler", "0303")],
        looting={"red": 5},
        treasury={"red": 0, "blue": 3},
    )
    state, events = play(state, "red", "/attack unit:r1 target:b1", [6, 1])
    assert of(events, "looted") and state["treasury"]["red"] == 1 and state["looting"]["red"] == 0
    state = position(
        [("r1", "red", "sword", "0203"), ("b1", "blue", "settler", "0303")],
        treasury={"red": 0, "blue": 3},
    )
    state, _ = play(state, "red", "/attack unit:r1 target:b1", [6, 1])
    assert state["looting"]["red"] == 1 and state["treasury"]["red"] == 0


def test_a_recruit_neither_moves_nor_attacks_before_its_sides_next_turn():
    state = position(
        [("r1", "red", "sword", "0303"), ("b1", "blue", "sword", "0204")],
        phase="recruitment",
        treasury={"red": 1, "blue": 0},
    )
    state, events = play(state, "red", f"/recruit at:{RED_CASTLE}")
    new = of(events, "recruited")[0]["unit"]
    state, _ = end_phases(state, "red", 2)  # to the attack phase; b1 is adjacent
    assert not [a for a in RS.legal_actions(state, "red") if a.get("unit") == new]
    state, _ = end_phases(state, "red", 1)
    state, _ = end_phases(state, "blue", 4)  # red's next movement phase
    assert [a for a in RS.legal_actions(state, "red") if a.get("unit") == new]
