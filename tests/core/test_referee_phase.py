"""``ref-phase`` only sets a phase the game has, for every registered game (issue 8)."""
from __future__ import annotations

import pytest

from engine import registry
from engine.core.dice import fixed
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
GAMES = ["skirmish"] + [name for name in registry.RULESETS if name != "skirmish"]


def _started(name):
    try:
        ruleset = registry.get_ruleset(name)
    except ImportError as exc:  # a game still being written is not offered anywhere
        pytest.skip(f"{name} is not available: {exc}")
    state, _ = new_game(ruleset, ruleset.load_scenario(ruleset.default_scenario), "seed")
    return ruleset, state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("phase", [None, "", "bogus", " move"])
def test_unknown_or_missing_phase_is_refused_with_the_phases_listed(name, phase):
    ruleset, state = _started(name)
    action = {"type": "ref-phase", "side": "referee"}
    if phase is not None:
        action["phase"] = phase
    before = repr(state)
    with pytest.raises(RuleError) as refused:
        apply_action(ruleset, state, action, fixed([]))
    assert repr(state) == before
    if not ruleset.phases:      # a game that declares none refuses every phase change
        assert "no phases a referee can set" in str(refused.value)
        return
    assert refused.value.legal == list(ruleset.phases)
    for known in ruleset.phases:
        assert known in str(refused.value)
    assert repr(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_every_declared_phase_can_be_set(name):
    ruleset, state = _started(name)
    if not ruleset.phases:
        pytest.skip(f"{name} declares no phases a referee may set (it refuses them all)")
    for phase in ruleset.phases:
        after, events = apply_action(ruleset, state, {"type": "ref-phase", "side": "referee",
                                                      "phase": phase}, fixed([]))
        assert after["phase"] == phase
        assert any(e.get("type") == "referee" for e in events)
