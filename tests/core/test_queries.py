"""Rulesets' read-only queries (``/los``): declared like commands, checked against the
declaration before the ruleset answers, and no query changes the state."""

from __future__ import annotations

import pytest

from engine import registry
from engine.core.errors import RuleError
from engine.core.game import new_game
from engine.core.state import clone
from engine.siege.rules import Siege


def test_a_game_declares_no_queries_by_default_and_refuses_any():
    ruleset = registry.get_ruleset("tenochtitlan")
    assert ruleset.queries == ()
    state, _ = new_game(ruleset, ruleset.load_packaged(""), 1)
    with pytest.raises(RuleError, match="has no /los"):
        ruleset.query(state, None, "los", {"from": "0101", "to": "0102"})


def test_query_options_are_checked_against_the_declaration():
    siege = Siege()
    state, _ = new_game(siege, siege.load_scenario("open-gate"), 1)
    with pytest.raises(RuleError, match="needs to:"):
        siege.query(state, None, "los", {"from": "0816"})
    with pytest.raises(RuleError, match="no option 'unit'"):
        siege.query(state, None, "los", {"from": "0816", "to": "0819", "unit": "x"})
    with pytest.raises(RuleError, match="has no /peek"):
        siege.query(state, None, "peek", {})


def test_los_answers_with_text_and_a_scene_and_changes_nothing():
    siege = Siege()
    state, _ = new_game(siege, siege.load_scenario("open-gate"), 1)
    before = clone(state)
    answer = siege.query(state, "defender", "los", {"from": "0816", "to": " 0819 "})
    assert answer.text.startswith("Shot possible from 0816 to 0819")
    assert answer.scene["arrows"][0]["path"] == ["0816", "0819"]
    assert state == before
