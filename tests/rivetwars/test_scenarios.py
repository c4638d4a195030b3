import json
import re
from pathlib import Path

import pytest

from engine.core.dice import seeded
from engine.core.errors import ScenarioError
from engine.rivetwars import data
from tests.rivetwars.util import RS, act, make, unit

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "rivet-wars.md"


@pytest.mark.parametrize("name", [f"mission-{n}" for n in range(1, 11)])
def test_every_mission_loads_and_sets_up(name):
    scenario = RS.load_scenario(name)
    state, events = RS.setup(scenario, seeded(1, 0))
    assert state["scenario"] == name and state["turn"] == 1
    assert state["phase"] in ("card", "deploy") and state["awaiting"]
    assert len(scenario["terrain"]["objective"]) >= 1
    json.dumps(state)


def test_packaged_scenarios_are_listed_with_default_first_mission():
    names = [s.name for s in RS.scenarios()]
    assert names == [f"mission-{n}" for n in range(1, 11)] and RS.default_scenario == "mission-1"


def _error(raw):
    with pytest.raises(ScenarioError) as info:
        RS.build_scenario(raw)
    return info.value


def test_scenario_errors_name_file_entry_and_problem():
    base = {"mission": "mission-1"}
    err = _error({**base, "units": [{"type": "tiger", "at": "C4"}]})
    assert err.entry == "units[0]" and "unknown unit type" in err.problem
    err = _error({**base, "units": [{"type": "rifleman", "at": "Z40"}]})
    assert "not a square of this 18x12 map" in err.problem
    assert _error({**base, "phase": "lunch"}).entry == "phase"
    assert _error({**base, "colour": "red"}).entry == "colour"
    assert (
        "only 6 tokens"
        in _error({**base, "terrain": {"wire": ["A1", "C1", "E1", "G1", "I1", "K1", "M1"]}}).problem
    )
    assert (
        "not in allies territory"
        in _error({**base, "deploy": {"allies": ["A1"], "bismark": ["C1"]}}).problem
    )
    assert "not a segment" in _error({**base, "terrain": {"bunker": ["B2"]}}).problem
    assert (
        _error({**base, "hands": {"allies": ["ac01", "ac02", "ac03", "ac04"]}}).entry
        == "hands.allies"
    )
    assert (
        _error(
            {**base, "units": [{"type": "rifleman", "at": "C4"}, {"type": "rifleman", "at": "C4"}]}
        ).entry
        == "units[1]"
    )
    assert (
        "socket"
        in _error(
            {**base, "units": [{"type": "rifleman", "at": "C4", "plugins": ["patston"]}]}
        ).problem
    )
    with pytest.raises(ScenarioError) as info:
        RS.load_scenario("mission-99")
    assert "known: mission-1" in str(info.value)
    with pytest.raises(ScenarioError) as info:
        RS.load_path("/nonexistent/file.json")
    assert info.value.problem == "not found"


def test_a_scenario_file_sets_up_any_position(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(
        json.dumps(
            {
                "name": "mine",
                "mission": "mission-4",
                "phase": "move",
                "active": "bismark",
                "turn": 5,
                "units": [
                    {
                        "type": "sturmpanzer",
                        "at": "I9",
                        "damage": 2,
                        "plugins": ["cyclops"],
                        "id": "tank",
                    },
                    {"type": "rifleman", "at": "C15"},
                ],
                "hands": {"allies": ["ac01"], "bismark": ["ac02", "ac03"]},
                "secrets": {"allies": ["sm01"]},
                "vp": {"allies": 4, "bismark": 7},
                "rivets": {"bismark": 3},
                "flags": {"I7": "allies"},
                "clouds": [{"at": "E5", "owner": "bismark", "dice": [3, 2, 1, 0, 0], "placed": 4}],
            }
        )
    )
    state, _ = RS.setup(RS.load_path(str(path)), seeded(1, 0))
    assert (state["phase"], state["active"], state["turn"], state["awaiting"]) == (
        "move",
        "bismark",
        5,
        ["bismark"],
    )
    assert state["units"]["tank"] == {
        "type": "sturmpanzer",
        "side": "bismark",
        "at": "I9",
        "damage": 2,
        "plugins": ["cyclops"],
    }
    assert "rifleman-1" in state["units"]
    assert state["hands"]["bismark"] == ["ac02", "ac03"] and state["secrets"]["allies"] == ["sm01"]
    assert state["vp"] == {"allies": 4, "bismark": 7} and state["rivets"]["bismark"] == 3
    assert state["flags"] == {"I7": "allies"} and state["clouds"][0]["at"] == "E5"
    # the cards in hands are not in the shuffled draw piles
    assert "ac01" not in state["decks"]["action"] and len(state["decks"]["action"]) == 21


def test_examples_in_the_scenario_docs_load_and_start():
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 3
    for block in blocks:
        scenario = RS.build_scenario(json.loads(block))
        state, _ = RS.setup(scenario, seeded(2, 0))
        assert RS.legal_actions(state, state["awaiting"][0])


def test_roster_has_every_unit_of_the_box_with_its_count():
    roster = data.base_roster()
    expected = {
        "rifleman": 9,
        "rocket-bike": 3,
        "hammer": 2,
        "wolverine": 1,
        "ostrich": 1,
        "parman": 1,
        "patston": 1,
        "hacksaw": 1,
        "panzerfaust": 9,
        "koenig": 1,
        "romler": 1,
        "cyclops": 1,
        "tanken": 1,
        "mg08": 2,
        "dragoon": 3,
        "sturmpanzer": 1,
    }
    assert {k: v["count"] for k, v in roster.items()} == expected
    assert len(data.cards()["action"]) == 24 and len(data.cards()["secret"]) == 10


def test_a_scenario_can_mark_units_already_activated():
    state = make(
        phase="move",
        units=[unit("rifleman", "A9", id="r1"), unit("parman", "C9", id="p")],
        spent=["r1"],
        no_move=["p"],
    )
    assert not [a for a in RS.legal_actions(state, "allies") if a["type"] == "move"]
    with pytest.raises(ScenarioError, match="not the id of a unit"):
        RS.build_scenario({"mission": "mission-1", "spent": ["ghost"]})


def test_a_scenario_without_phase_starts_the_active_sides_turn_with_its_start_of_turn_steps():
    from engine.core.dice import fixed

    raw = {
        "mission": "mission-3",
        "terrain": {"objective": ["I5"]},
        "active": "bismark",
        "turn": 3,
        "units": [{"type": "rifleman", "at": "E7", "id": "r"}, {"type": "panzerfaust", "at": "I5"}],
        "clouds": [{"at": "E5", "owner": "bismark", "dice": [3, 2, 1, 0, 0], "placed": 2}],
        "decks": {"action": ["ac01", "ac02"], "secret": ["sm01", "sm02"]},
    }
    dice = fixed([5, 1, 1])  # the gas attack on the rifleman the cloud drifts onto
    state, events = RS.setup(RS.build_scenario(raw), dice)
    # ac01 shows F; seen from the Bismark (facing south) the cloud drifts E5 -> E7
    assert [e["to"] for e in events if e["type"] == "gas_drift"] == ["E7"] and "r" not in state[
        "units"
    ]
    assert state["flags"] == {"I5": "bismark"}
    assert (
        state["turn"] == 3
        and state["active"] == "bismark"
        and state["order"] == ["bismark", "allies"]
    )
    assert state["hands"]["bismark"] == [
        "ac02"
    ]  # not the game's first turn: an action card is drawn
    assert dice.source.remaining == 0


def test_captain_parman_matches_the_card_printed_in_the_rulebook():
    # The rulebook's example card: ground range 1, air range 0, Advantage: Quick Advance (3),
    # one attack rolling 3 2 1 0 0 dice against the five armour classes.
    parman = data.base_roster()["parman"]
    assert parman["hero"] and parman["class"] == "infantry"
    assert parman["abilities"] == [{"name": "quick_advance", "x": 3, "advantage": True}]
    (pistol,) = parman["weapons"]
    assert (pistol["ground"], pistol["air"], pistol["attacks"], pistol["dice"]) == (
        1,
        0,
        1,
        [3, 2, 1, 0, 0],
    )


def test_both_bismark_plug_ins_fit_on_the_sturmpanzer():
    res = {"allies": {"points": 4, "rivets": 0}, "bismark": {"points": 9, "rivets": 3}}
    state = make(
        phase="deploy", active="bismark", resources=res, units=[unit("sturmpanzer", "E1", id="t")]
    )
    state, _ = act(state, "deploy", unit="cyclops", to="t")
    state, _ = act(state, "deploy", unit="romler", to="t")
    assert state["units"]["t"]["plugins"] == ["cyclops", "romler"]
