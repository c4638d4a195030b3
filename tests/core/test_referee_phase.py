"""``ref-phase`` only sets a phase the game has, for every registered game (issue 8)."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.core.dice import fixed, seeded
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
    if not ruleset.phases:  # a game that declares none refuses every phase change
        assert "no phases a referee can set" in str(refused.value)
        return
    assert refused.value.legal == list(ruleset.phases)
    for known in ruleset.phases:
        assert known in str(refused.value)
    assert repr(state) == before


def _moments(ruleset, state, seed="seed", every=7, count=6):
    """States along a random game (the start included), to set phases from."""
    rng = random.Random(seed)
    out = [state]
    for n in range(1, every * count + 1):
        if ruleset.result(state):
            break
        side = ruleset.awaiting(state)[0]
        state, _ = apply_action(
            ruleset, state, rng.choice(ruleset.legal_actions(state, side)), seeded(seed, n)
        )
        if n % every == 0:
            out.append(state)
    return out


def _goes_on(ruleset, state, seed="after", actions=30):
    """The game can be played on: every awaited side has a legal action, and they apply."""
    rng = random.Random(seed)
    for n in range(1, actions + 1):
        if ruleset.result(state):
            return
        waiting = ruleset.awaiting(state)
        assert waiting, "a game that is not over waits for somebody"
        for side in waiting:
            assert ruleset.legal_actions(state, side), (
                f"{side} has no legal action in {state['phase']}"
            )
        state, _ = apply_action(
            ruleset, state, rng.choice(ruleset.legal_actions(state, waiting[0])), seeded(seed, n)
        )


@pytest.mark.parametrize("name", GAMES)
def test_a_phase_change_is_refused_or_leaves_a_game_that_goes_on(name):
    """A declared phase can still be wrong for the moment (Pocket Tactics' dice steps outside a
    combat, a setup step whose bag is not built yet): then it is refused and nothing changes;
    an accepted change always leaves a game that plays on."""
    ruleset, state = _started(name)
    if not ruleset.phases:
        pytest.skip(f"{name} declares no phases a referee may set (it refuses them all)")
    settable = set()
    for moment in _moments(ruleset, state):
        for phase in ruleset.phases:
            for side in (None, *ruleset.sides):
                action = {"type": "ref-phase", "side": "referee", "phase": phase}
                if side:
                    action["value"] = side
                before = repr(moment)
                try:
                    after, events = apply_action(ruleset, moment, action, fixed([]))
                except RuleError:
                    assert repr(moment) == before
                    continue
                settable.add(phase)
                assert after["phase"] == phase
                assert any(e.get("type") == "referee" for e in events)
                _goes_on(ruleset, after)
    assert settable == set(ruleset.phases), "every declared phase can be set at some moment"


def test_a_phase_with_nothing_to_do_is_refused_naming_the_phases_that_work_now():
    from tests.fixtures.skirmish import Skirmish

    class Broken(Skirmish):
        """A game whose fire phase, set by hand, offers nothing (nor can it be listed)."""

        def legal_actions(self, state, side):
            if state["phase"] == "fire":
                raise KeyError("combat")
            return super().legal_actions(state, side)

    ruleset = Broken()
    state, _ = new_game(ruleset, ruleset.load_scenario("standard"), "seed")
    with pytest.raises(RuleError) as refused:
        apply_action(
            ruleset, state, {"type": "ref-phase", "side": "referee", "phase": "fire"}, fixed([])
        )
    assert "cannot be set now" in str(refused.value) and refused.value.legal == ["move"]


def test_pocket_tactics_refuses_phase_jumps_in_the_setup_and_inside_a_combat():
    ruleset, state = _started("pocket-tactics")
    assert state["phase"] == "faction"
    with pytest.raises(RuleError) as refused:
        apply_action(
            ruleset, state, {"type": "ref-phase", "side": "referee", "phase": "play"}, fixed([])
        )
    assert "setup" in str(refused.value)
    for phase in ("bonus", "features", "army"):
        with pytest.raises(RuleError) as refused:
            apply_action(
                ruleset, state, {"type": "ref-phase", "side": "referee", "phase": phase}, fixed([])
            )
        assert refused.value.legal == ["play"]
