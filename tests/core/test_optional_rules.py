"""The generic optional-rules mechanism: a ruleset declares its optional rules; names given by
a group are read, checked and capped; switched-on rules live in the stored scenario, so a game
set up again from it (replay, verify) has the same rules."""

from __future__ import annotations

import json

import pytest

from engine import registry
from engine.core.errors import OptionalRuleError
from engine.core.game import new_game
from engine.core.ruleset import MAX_OPTIONAL_RULES_TEXT
from engine.core.state import state_hash


def test_a_game_declares_no_optional_rules_by_default_and_refuses_any():
    rules = registry.get_ruleset("tenochtitlan")
    assert rules.optional_rules == () and rules.optional_rule_names("") == []
    with pytest.raises(OptionalRuleError) as err:
        rules.optional_rule_names("aiming")
    assert err.value.known == [] and "this game has: none" in str(err.value)


def test_names_are_read_from_a_list_and_checked_against_the_declared_ones():
    rules = registry.get_ruleset("siege")
    assert "aiming" in [r.name for r in rules.optional_rules]
    assert all(not r.default for r in rules.optional_rules)  # house rules are off by default
    assert rules.optional_rule_names(" Aiming,aiming ") == ["aiming"]
    with pytest.raises(OptionalRuleError) as err:
        rules.optional_rule_names("aiming, ../../etc/passwd")
    assert err.value.name == "../../etc/passwd" and not err.value.too_long
    assert "aiming" in err.value.known


def test_a_list_longer_than_the_cap_is_refused_before_it_is_read():
    rules = registry.get_ruleset("siege")
    with pytest.raises(OptionalRuleError) as err:
        rules.optional_rule_names("aiming " * (MAX_OPTIONAL_RULES_TEXT // 7 + 1))
    assert err.value.too_long and "Too many optional rules named" in str(err.value)


def test_switched_on_rules_are_stored_in_the_scenario_and_replay_the_same_game():
    rules = registry.get_ruleset("siege")
    plain = rules.load_packaged("open-gate")
    state, _ = new_game(rules, plain, "seed-1")
    assert state["options"]["aiming"] is False
    chosen = rules.with_optional_rules(plain, ["aiming"])
    assert plain["options"]["aiming"] is False  # the loaded scenario is not changed
    state, _ = new_game(rules, chosen, "seed-1")
    assert state["options"]["aiming"] is True
    assert [r.name for r in rules.optional_rules_on(state)] == ["aiming"]
    stored = json.loads(json.dumps(chosen))  # as the service keeps it (scenario_json)
    again, _ = new_game(rules, stored, "seed-1")
    assert state_hash(again) == state_hash(state)
    with pytest.raises(OptionalRuleError):
        rules.with_optional_rules(plain, ["panik"])


def test_a_rule_the_scenario_plays_with_can_be_switched_off_by_no_and_its_name():
    """Scenario 5 plays with aiming; a group may leave it out ("switchable per game in the
    scenario or at /game new"), and a misspelt off-switch is refused like any unknown name."""
    rules = registry.get_ruleset("siege")
    normans = rules.load_packaged("normans-gauls")
    assert normans["options"]["aiming"] is True
    names = rules.optional_rule_names("no-aiming, panic")
    assert names == ["no-aiming", "panic"]
    state, _ = new_game(rules, rules.with_optional_rules(normans, names), "seed-1")
    assert state["options"] == {"panic": True, "aiming": False}
    with pytest.raises(OptionalRuleError) as err:
        rules.optional_rule_names("no-aimnig")
    assert err.value.name == "no-aimnig"
    with pytest.raises(OptionalRuleError):
        rules.with_optional_rules(normans, ["no-panik"])
