"""Refusals that teach (issue 15): a command that exists but is not legal as typed names the
value that no legal action takes and the values it could take, never "That /recruit is not
legal now" alone."""

from __future__ import annotations

import pytest

from cogs.i18n import rule_text
from engine.core.dice import fixed, seeded
from engine.core.errors import RuleError
from engine.registry import get_ruleset


def tactical_table_war_recruiting():
    ruleset = get_ruleset("tactical-table-war")
    state, _ = ruleset.setup(ruleset.load_scenario(ruleset.default_scenario), seeded("t", 0))
    side = ruleset.awaiting(state)[0]
    state, _ = ruleset.apply(state, {"type": "end-phase", "side": side}, fixed([]))
    assert state["phase"] == "recruitment"
    return ruleset, state, side


def test_the_value_no_legal_action_takes_is_named_with_the_ones_it_could_take():
    ruleset, state, side = tactical_table_war_recruiting()
    legal = ruleset.legal_actions(state, side)
    cells = [a["at"] for a in legal if a["type"] == "recruit"]
    taken = next(u["at"] for u in state["units"].values() if u["side"] == side)
    assert cells and taken not in cells
    with pytest.raises(RuleError) as refused:
        ruleset.apply(state, {"type": "recruit", "side": side, "at": taken}, fixed([]))
    error = refused.value
    assert error.message.startswith(f"/recruit cannot take at:{taken} now; possible: {cells[0]}")
    assert "not legal now" not in str(error)
    german = rule_text(error, "de")
    assert german.startswith(f"/recruit geht jetzt nicht mit at:{taken}; möglich: {cells[0]}")


def test_the_option_after_a_fitting_one_is_checked_against_what_fits():
    ruleset, state, side = tactical_table_war_recruiting()
    train = next(a for a in ruleset.legal_actions(state, side) if a["type"] == "train")
    wrong = {**train, "as": "no-such-training"}
    with pytest.raises(RuleError) as refused:
        ruleset.apply(state, wrong, fixed([]))
    assert f"/train cannot take as:no-such-training now; possible: {train['as']}" in str(
        refused.value
    )


def test_a_command_named_like_a_phase_stays_the_command_in_german():
    """Issue 15 audit: Rivet Wars' "/deploy" typed in the combat phase read "/Aufstellung
    gehört in die Phase Aufstellung" (the command's name was translated as the phase's)."""
    ruleset = get_ruleset("rivet-wars")
    state, _ = ruleset.setup(ruleset.load_scenario(ruleset.default_scenario), seeded("r", 0))
    side = ruleset.awaiting(state)[0]
    state, _ = ruleset.apply(state, {"type": "end-phase", "side": side}, fixed([]))
    assert state["phase"] == "combat"
    with pytest.raises(RuleError) as refused:
        ruleset.apply(
            state, {"type": "deploy", "side": side, "unit": "rifleman", "to": "I11"}, fixed([])
        )
    german = rule_text(refused.value, "de")
    assert german.startswith("/deploy gehört in die Phase Aufstellung"), german
