"""Suggested deployments (issue 15): the standard scenario suggests the historical deployment,
which a side takes with one command, /suggested, each placement checked by the setup rules."""

from __future__ import annotations

import json

import pytest

from engine.core.dice import fixed, seeded
from engine.core.errors import RuleError, ScenarioError
from engine.core.game import apply_action, new_game, replay
from engine.core.paths import data_dir
from engine.core.state import state_hash
from engine.tenochtitlan.scenarios import normalise

from .helpers import RULES, act

HISTORICAL = json.loads(
    (data_dir("tenochtitlan") / "scenarios" / "historical.json").read_text("utf-8")
)["units"]


def standard():
    return new_game(RULES, RULES.load_scenario("standard"), 7)[0]


def suggested(state, side):
    return apply_action(RULES, state, {"type": "suggested", "side": side}, fixed([]))


def test_each_side_takes_the_historical_deployment_in_one_command():
    state = standard()
    state, events = suggested(state, "aztec")
    assert len([e for e in events if e["type"] == "placed"]) == 22
    assert state["awaiting"] == ["spanish"]
    state, _ = suggested(state, "spanish")
    assert state["phase"] == "movement" and state["turn"] == 1
    assert {uid: u["at"] for uid, u in state["units"].items()} == {
        uid: spec["at"] for uid, spec in HISTORICAL.items()
    }


def test_units_placed_by_hand_are_skipped_and_the_rest_follow_the_suggestion():
    state = standard()
    state, _ = act(state, "aztec", "/place unit:az-bowmen-1 to:0808")  # its suggested hex
    state, events = suggested(state, "aztec")
    assert "az-bowmen-1" not in {e.get("unit") for e in events}
    assert state["units"]["az-warriors-1"]["at"] == HISTORICAL["az-warriors-1"]["at"]


def test_a_suggestion_the_rules_refuse_now_changes_nothing_and_says_why():
    state = standard()
    # az-warriors-1 takes the hex suggested for az-bowmen-1: the suggestion cannot be followed
    state, _ = act(state, "aztec", "/place unit:az-warriors-1 to:0808")
    with pytest.raises(RuleError) as refused:
        suggested(state, "aztec")
    assert str(refused.value).startswith("The suggested deployment cannot be taken:")
    assert "az-bowmen-1" in state["pool"] and "az-bowmen-1" not in state["units"]


def test_suggested_is_refused_where_nothing_is_suggested_or_with_options():
    ready = new_game(RULES, RULES.load_scenario("historical"), 7)[0]
    with pytest.raises(RuleError, match="/suggested is not possible"):
        suggested(ready, "spanish")
    with pytest.raises(RuleError, match="takes no options"):
        apply_action(
            RULES, standard(), {"type": "suggested", "side": "aztec", "unit": "x"}, fixed([])
        )


def test_the_log_with_suggested_replays_to_the_same_state():
    scenario = RULES.load_scenario("standard")
    state, _ = new_game(RULES, scenario, "replay")
    log = [{"type": "suggested", "side": "aztec"}, {"type": "suggested", "side": "spanish"}]
    for n, action in enumerate(log, start=1):
        state, _ = apply_action(RULES, state, action, seeded("replay", n))
    assert state_hash(replay(RULES, scenario, "replay", log)[0]) == state_hash(state)


@pytest.mark.parametrize(
    ("suggestion", "problem"),
    [
        ({"aztec": {"nobody": "0808"}}, "is not a unit of this scenario"),
        ({"aztec": {"sp-cavalry-1": "0303"}}, "is not an aztec unit"),
        ({"aztec": {"az-bowmen-1": "9999"}}, "is not a hex of the map"),
        ({"aztec": {"az-bowmen-1": "0808", "az-bowmen-2": "0808"}}, "is suggested for"),
        ({"romans": {}}, "must be spanish or aztec"),
    ],
)
def test_a_scenario_file_with_a_broken_suggestion_is_refused(suggestion, problem):
    spec = {"map": "standard", "roster": "standard", "phase": "setup", "suggested": suggestion}
    with pytest.raises(ScenarioError, match=problem):
        normalise(spec, "test")
