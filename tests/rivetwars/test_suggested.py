"""Mission 1 suggests a first deployment (issue 15): each side takes it with one command,
/suggested, in its deployment phase of round 1, each deployment checked by the rules; the game
then plays on. Later deployment phases answer a position no file foresees: nothing is offered."""

from __future__ import annotations

import random

import pytest

from engine.core.dice import seeded
from engine.core.errors import RuleError, ScenarioError
from engine.core.game import apply_action, new_game
from engine.registry import get_ruleset

RULES = get_ruleset("rivet-wars")


def suggested(state, side, step=0):
    return apply_action(RULES, state, {"type": "suggested", "side": side}, seeded(5, step))


def end_phase(state, step):
    side = state["active"]
    return apply_action(RULES, state, {"type": "end-phase", "side": side}, seeded(5, step))[0]


def play_until_deploy_of(state, side, step=100):
    while not (state["phase"] == "deploy" and state["active"] == side):
        state = end_phase(state, step)
        step += 1
    return state


def test_each_side_takes_its_first_deployment_in_one_command_and_the_game_plays_on():
    state, _ = new_game(RULES, RULES.load_scenario("mission-1"), 5)
    first = state["active"]
    second = "bismark" if first == "allies" else "allies"
    assert state["phase"] == "deploy" and state["turn"] == 1
    state, events = suggested(state, first)
    deployed = [e for e in events if e["type"] == "deployed"]
    assert len(deployed) == 3 and state["points"][first] == 0
    state = end_phase(state, 1)
    state = play_until_deploy_of(state, second)
    assert state["turn"] == 1
    state, events = suggested(state, second, 2)
    assert len([e for e in events if e["type"] == "deployed"]) == 3
    where = {uid: (u["side"], u["type"], u["at"]) for uid, u in state["units"].items()}
    # the mission's suggestion: a fast unit and a rifleman in the middle segment, one flank
    assert ("allies", "rocket-bike", "I11") in where.values()
    assert ("bismark", "dragoon", "I1") in where.values()
    assert len(where) == 6
    rng = random.Random(5)
    for step in range(200):
        if RULES.result(state):
            break
        side = RULES.awaiting(state)[0]
        state, _ = apply_action(
            RULES, state, rng.choice(RULES.legal_actions(state, side)), seeded(5, 1000 + step)
        )
    assert state["turn"] > 1


def test_nothing_is_suggested_after_deploying_by_hand_or_in_later_rounds():
    state, _ = new_game(RULES, RULES.load_scenario("mission-1"), 5)
    side = state["active"]
    state, _ = apply_action(
        RULES,
        state,
        {
            "type": "deploy",
            "side": side,
            "unit": RULES.suggested_actions(state, side)[0]["unit"],
            "to": RULES.suggested_actions(state, side)[0]["to"],
        },
        seeded(5, 0),
    )
    assert RULES.suggested_actions(state, side) == []
    with pytest.raises(RuleError, match="/suggested is not possible"):
        suggested(state, side)


def test_a_suggestion_outside_the_deployment_segments_is_refused_on_load():
    with pytest.raises(ScenarioError, match="suggested.allies.0"):
        RULES.build_scenario(
            {"mission": "mission-1", "suggested": {"allies": [["rifleman", "A5"]]}}
        )
    with pytest.raises(ScenarioError, match="suggested.bismark.0"):
        RULES.build_scenario(
            {"mission": "mission-1", "suggested": {"bismark": [["rifleman", "I1"]]}}
        )
