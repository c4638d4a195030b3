"""Scenario files cannot crash the bot (issue 8): random mutations of every packaged scenario
(types changed, keys deleted, junk added, values swapped, deep nesting, truncation) either
load, set up, play a bounded number of random legal actions and render a picture without an
exception, or are refused with a ScenarioError. Nothing else."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core.dice import seeded
from engine.core.errors import RuleError, ScenarioError
from engine.core.game import apply_action, new_game
from renderer import render_png

DATA = Path(__file__).resolve().parents[1] / "data"
PACKAGED = {
    "rivet-wars": sorted((DATA / "rivet-wars" / "missions").glob("*.json")),
    "pocket-tactics": sorted((DATA / "pocket-tactics" / "scenarios").glob("*.json")),
    "tenochtitlan": sorted((DATA / "tenochtitlan" / "scenarios").glob("*.json")),
    "tactical-table-war": sorted((DATA / "tactical-table-war" / "scenarios").glob("*.json")),
    "siege": sorted((DATA / "siege" / "scenarios").glob("*.json")),
}
ACTIONS = 25
DEEP = "\u0000deep\u0000"

JUNK = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    7,
    1.5,
    -3.25,
    10**30,
    "",
    "x",
    "A1",
    "0808",
    "mission-1",
    "standard",
    "allies",
    "north",
    "spanish",
    "phase",
    "card",
    "combat",
    "play",
    [],
    [1],
    ["x"],
    {},
    {"x": 1},
    {"allies": 1},
    [[]],
    "\u00df\u2603",
    "0" * 200,
]


def paths(value):
    """Every (path, value) inside a JSON value, the root included (not below 40 levels)."""
    out, todo = [], [((), value)]
    while todo:
        prefix, item = todo.pop()
        out.append((prefix, item))
        if len(prefix) >= 40:
            continue
        if isinstance(item, dict):
            todo += [(prefix + (key,), child) for key, child in item.items()]
        elif isinstance(item, list):
            todo += [(prefix + (i,), child) for i, child in enumerate(item)]
    return out


def put(doc, path, value):
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


def delete(doc, path):
    if not path:
        return doc
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    return doc


def mutate(doc, rng: random.Random, steps: int):
    for _ in range(steps):
        places = paths(doc)
        path, value = rng.choice(places)
        kind = rng.choice(
            [
                "type",
                "type",
                "delete",
                "junk-key",
                "swap",
                "nest",
                "duplicate",
                "number",
                "other-value",
            ]
        )
        if kind == "type":
            doc = put(doc, path, json.loads(json.dumps(rng.choice(JUNK))))
        elif kind == "delete" and path:
            doc = delete(doc, path)
        elif kind == "junk-key" and isinstance(value, dict):
            value[rng.choice(["x", "units", "phase", "name", "_", "map", "0808", "allies"])] = (
                rng.choice(JUNK)
            )
        elif kind == "swap":
            other_path, other_value = rng.choice(places)
            if path[: len(other_path)] != other_path and other_path[: len(path)] != path:
                doc = put(doc, path, json.loads(json.dumps(other_value)))
                doc = put(doc, other_path, json.loads(json.dumps(value)))
        elif kind == "nest":
            deep = value
            if rng.random() < 0.3:
                deep = DEEP  # thousands of levels, written into the text by to_bytes
            else:
                for _ in range(rng.choice([1, 3, 30])):
                    deep = [deep] if rng.random() < 0.5 else {"x": deep}
            doc = put(doc, path, deep)
        elif kind == "duplicate" and isinstance(value, list) and value:
            value.append(json.loads(json.dumps(rng.choice(value))))
        elif kind == "number" and isinstance(value, int) and not isinstance(value, bool):
            doc = put(
                doc, path, rng.choice([value + 1, value - 1, -value, value * 100, 0, float(value)])
            )
        elif kind == "other-value":
            _, other_value = rng.choice(places)
            doc = put(doc, path, json.loads(json.dumps(other_value)))
    return doc


def to_bytes(doc, rng: random.Random, truncate: bool) -> bytes:
    data = json.dumps(doc).encode()
    deep = b"[" * 5000 + b"{" + b'"x": 1' + b"}" + b"]" * 5000
    data = data.replace(json.dumps(DEEP).encode(), deep)
    if truncate:
        data = data[: rng.randrange(len(data) + 1)]
    return data


def play_and_render(ruleset, scenario, seed: int) -> None:
    state, events = new_game(ruleset, scenario, seed)
    render_png(ruleset.scene(state, events, None))
    rng = random.Random(seed)
    for n in range(1, ACTIONS + 1):
        if ruleset.result(state):
            break
        waiting = ruleset.awaiting(state)
        assert waiting, "a game that is not over waits for somebody"
        side = waiting[0]
        legal = ruleset.legal_actions(state, side)
        assert legal, f"{side} has no legal action in phase {state.get('phase')}: the game is stuck"
        action = rng.choice(legal)
        try:
            state, events = apply_action(ruleset, state, action, seeded(seed, n))
        except RuleError as error:  # the agreement law: a listed action always applies
            pytest.fail(f"legal action {action} refused: {error}")
    for viewer in (None, *ruleset.sides[:1]):
        png = render_png(ruleset.scene(state, events, viewer))
        assert png.startswith(b"\x89PNG")


@pytest.mark.parametrize("game", sorted(PACKAGED))
@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_a_mutated_scenario_either_plays_and_renders_or_is_refused_cleanly(game, data):
    ruleset = registry.get_ruleset(game)
    source = data.draw(st.sampled_from(PACKAGED[game]), label="scenario")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    steps = data.draw(st.integers(1, 4), label="mutations")
    truncate = data.draw(st.integers(0, 9), label="truncate") == 0
    rng = random.Random(seed)
    doc = mutate(json.loads(source.read_text(encoding="utf-8")), rng, steps)
    document = to_bytes(doc, rng, truncate)
    try:
        scenario = ruleset.load_document(document, "fuzz.json")
    except ScenarioError as error:
        assert "fuzz.json" in str(error)
        return
    play_and_render(ruleset, scenario, seed)


@pytest.mark.parametrize(
    "game, document",
    [
        ("rivet-wars", {"name": "t", "mission": "mission-1", "objective_vp": True}),
        ("rivet-wars", {"name": "t", "mission": "mission-1", "deploy": {"navy": 1.5}}),
        (
            "rivet-wars",
            {"name": "t", "mission": "mission-1", "units": [{"type": ["x"], "at": "C4"}]},
        ),
        ("rivet-wars", {"name": "t", "mission": "mission-1", "terrain": []}),
        ("tenochtitlan", {"units": {"a": {"type": ["x"], "at": "1208"}}}),
        ("tenochtitlan", {"map": "../../../etc/passwd"}),
        ("pocket-tactics", {"factions": {"north": ["x"], "south": "horde"}}),
        ("pocket-tactics", {"map": []}),
    ],
)
def test_the_crash_shapes_found_by_fuzzing_are_refused(game, document):
    with pytest.raises(ScenarioError) as info:
        registry.get_ruleset(game).load_document(json.dumps(document).encode(), "shape.json")
    assert info.value.file == "shape.json" and info.value.entry.startswith("/")
