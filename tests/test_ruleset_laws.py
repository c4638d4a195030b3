"""Laws every ruleset must obey, checked for every registered game (and the fixture game).

- every action ``legal_actions`` offers applies; actions it does not offer are refused with a
  RuleError and leave the state untouched (the agreement law that autocomplete relies on);
- ``apply`` never mutates its input;
- the action log replays to the identical state (same seed, same actions);
- views, scenes, events and states are plain JSON; hidden events name their owner.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core.dice import seeded
from engine.core.errors import RuleError
from engine.core.game import apply_action, new_game, replay
from engine.core.state import canonical_json, freeze, state_hash

registry.register("skirmish", "tests.fixtures.skirmish:Skirmish")
GAMES = ["skirmish"] + [name for name in registry.RULESETS if name != "skirmish"]
STEPS = 80  # actions played per example
CHECKS = 6  # legal and illegal probes per step


def _ruleset_or_skip(name):
    try:
        return registry.get_ruleset(name)
    except ImportError as exc:  # a game whose module does not exist yet is not offered anywhere
        pytest.skip(f"{name} is not available: {exc}")


def _mutations(state, action, rng):
    """Plausible wrong actions: another cell, another unit, another type, missing option."""
    cells = set()
    for value in _walk_strings(state):
        if len(value) == 4 and value.isdigit():
            cells.add(value)
    out = []
    for key, value in action.items():
        if key in ("type", "side"):
            continue
        if cells:
            out.append({**action, key: rng.choice(sorted(cells))})
        out.append({**action, key: value + "x"})
        trimmed = dict(action)
        trimmed.pop(key)
        out.append(trimmed)
    out.append({**action, "type": action["type"] + "-nope"})
    out.append({**action, "bogus": "1"})
    return out


def _walk_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _walk_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk_strings(v)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**9))
def test_legal_actions_agree_with_apply(game, seed):
    ruleset = _ruleset_or_skip(game)
    rng = random.Random(seed)
    scenario = ruleset.load_scenario(ruleset.default_scenario)
    state, events = new_game(ruleset, scenario, seed)
    json.dumps(events)
    log = []
    for step in range(1, STEPS + 1):
        if ruleset.result(state):
            break
        side = ruleset.awaiting(state)[0]
        legal = ruleset.legal_actions(state, side)
        assert legal, f"{game}: {side} has no legal action in {state.get('phase')}"
        frozen = canonical_json(state)
        for probe in rng.sample(legal, min(CHECKS, len(legal))):
            apply_action(ruleset, state, probe, seeded(seed, step))
            assert canonical_json(state) == frozen, "apply mutated its input"
        for bad in rng.sample(legal, min(2, len(legal))):
            for wrong in _mutations(state, bad, rng)[:CHECKS]:
                if wrong in legal:
                    continue
                with pytest.raises(RuleError):
                    apply_action(ruleset, state, wrong, seeded(seed, step))
                assert canonical_json(state) == frozen
        for other in ruleset.sides:
            if other not in ruleset.awaiting(state):
                assert ruleset.legal_actions(state, other) == []
        action = rng.choice(legal)
        state, events = apply_action(ruleset, state, action, seeded(seed, step))
        json.dumps(events)
        for event in events:
            assert isinstance(event.get("type"), str)
            if "private" in event:
                assert event["private"] in ruleset.sides
        log.append(action)
    replayed, _ = replay(ruleset, scenario, seed, log)
    assert state_hash(replayed) == state_hash(state)


@pytest.mark.parametrize("game", GAMES)
def test_views_and_scenes_are_plain_data(game):
    ruleset = _ruleset_or_skip(game)
    state, events = new_game(ruleset, ruleset.load_scenario(ruleset.default_scenario), 1)
    for viewer in (None, *ruleset.sides):
        json.dumps(ruleset.view(state, viewer))
        scene = ruleset.scene(state, events, viewer)
        json.dumps(scene)
        assert scene["map_key"] and scene["grid"]["kind"] in ("hex", "square")
    header = ruleset.header(state)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in header.items())
    assert ruleset.rules_summary("en").strip() and ruleset.rules_summary("de").strip()
    assert ruleset.scenarios() and ruleset.default_scenario in {s.name for s in ruleset.scenarios()}


@pytest.mark.parametrize("game", GAMES)
def test_a_view_leaves_the_state_as_it_was_and_reads_a_read_only_state_alike(game):
    """The service keeps one read-only (frozen) state per game version and asks the ruleset
    for views of it; a view may share the state's parts, so it must never change them."""
    ruleset = _ruleset_or_skip(game)
    state, _ = new_game(ruleset, ruleset.load_scenario(ruleset.default_scenario), 5)
    rng = random.Random(5)
    for step in range(40):
        if ruleset.result(state):
            break
        legal = ruleset.legal_actions(state, ruleset.awaiting(state)[0])
        state, _ = apply_action(ruleset, state, rng.choice(legal), seeded(5, step))
    before = canonical_json(state)
    shared = freeze(state)
    for viewer in (None, *ruleset.sides):
        shown = ruleset.view(state, viewer)
        assert canonical_json(ruleset.view(shared, viewer)) == canonical_json(shown)
    assert canonical_json(state) == before
