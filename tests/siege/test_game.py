"""SIEGE against the ruleset contract: the laws every game obeys, autoplay to the end, replay,
data validation, the picture and the /los explanation."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from engine import registry
from engine.core.errors import RuleError, ScenarioError
from engine.core.game import autoplay, new_game, replay
from engine.core.state import state_hash
from engine.siege import data
from engine.siege.scenarios import normalise
from renderer import render_png

from .helpers import RULES, act, build, of


@pytest.fixture
def siege_registered():
    """SIEGE as the registry offers it to players."""
    assert "siege" in registry.available()
    return registry.get_ruleset("siege")


def test_siege_obeys_the_ruleset_laws(siege_registered):
    from tests import test_ruleset_laws as laws

    laws.test_legal_actions_agree_with_apply("siege")
    laws.test_views_and_scenes_are_plain_data("siege")


def test_siege_is_offered_with_every_scenario_and_scenario_1_by_default():
    assert "siege" in registry.available()
    ruleset = registry.get_ruleset("siege")
    assert {s.name for s in ruleset.scenarios()} == {
        "open-gate",
        "breach",
        "camp-raid",
        "long-siege",
        "normans-gauls",
    }
    assert ruleset.default_scenario == "open-gate" and ruleset.phases == (
        "fire1",
        "move",
        "fire2",
        "melee",
    )


# Scenarios 3-5 are longer games (engines, more figures): fewer seeds keep the suite fast.
@pytest.mark.parametrize(
    "name, seeds",
    [
        ("open-gate", (3, 11, 1, 2, 5, 6)),
        ("breach", (3, 11, 1, 2, 5, 6)),
        ("camp-raid", (3, 11, 1, 2)),
        ("long-siege", (3, 1, 2)),
        ("normans-gauls", (3, 1, 2)),
    ],
)
def test_autoplay_finishes_and_replays(name, seeds):
    scenario = RULES.load_scenario(name)
    winners = set()
    for seed in seeds:
        state, actions = autoplay(RULES, scenario, seed)
        assert state["result"]["winner"] in ("besieger", "defender")
        winners.add(state["result"]["winner"])
        if seed in (3, 11):
            replayed, _ = replay(RULES, scenario, seed, actions)
            assert state_hash(replayed) == state_hash(state)
    if name == "open-gate":  # random play can take the keep: both sides can win scenario 1
        assert winners == {"besieger", "defender"}


def test_scene_renders_figures_states_and_the_last_shot():
    state = build(
        {
            "a": ("archer", "besieger", "0119"),
            "t": ("man-at-arms", "defender", "0519"),
            "s": ("peasant", "defender", "0619", "stunned wounded"),
            "d": ("peasant", "defender", "0719", "dead"),
        }
    )
    state, events = act(state, "besieger", "/shoot unit:a target:t", dice=[7])
    scene = RULES.scene(state, events, None)
    pieces = {p["id"]: p for p in scene["pieces"]}
    assert (
        pieces["s"]["badge"] == "SW" and pieces["t"]["badge"] == "W" and "badge" not in pieces["a"]
    )
    assert pieces["d"]["title"].startswith("+")
    assert [a for a in scene["arrows"] if a["kind"] == "attack" and a["path"] == ["0119", "0519"]]
    assert any(e["color"] == "#2b2b2b" for e in scene["edges"])  # battlements drawn
    image = Image.open(io.BytesIO(render_png(scene)))
    assert image.size[0] > 400 and image.size[1] > 400


def test_los_explains_each_deciding_cell():
    state, _ = new_game(RULES, RULES.load_scenario("open-gate"), 1)
    text = RULES.los(state, "0816", "0819")
    assert text.splitlines()[0].startswith("Shot possible from 0816 to 0819")
    assert "battlement" in text
    blocked = RULES.los(state, "1112", "1106")
    assert blocked.startswith("No shot") and "1.41" in blocked
    with pytest.raises(RuleError):
        RULES.los(state, "9999", "0101")


def test_event_lines_and_header_and_summaries():
    state = build(
        {"k": ("knight", "besieger", "0119"), "b": ("bowman", "defender", "0219")}, phase="melee"
    )
    state, _ = act(state, "besieger", "/attack unit:k target:b")
    assert RULES.header(state)["Melee"] == "K vs B"
    state, events = act(state, "besieger", "/fight", dice=[4])
    lines = [RULES.describe_event(state, e) for e in events]
    assert any(line and "8/3 -> 2-1" in line for line in lines)
    assert "Ergebnisse" in RULES.rules_summary("de") and "Results" in RULES.rules_summary("en")


def test_data_files_validate_and_bad_scenarios_name_the_entry():
    assert (
        data.terrain() and data.figure_types() and data.fire() and data.melee() and data.results()
    )
    with pytest.raises(ScenarioError, match="figures.x.type"):
        normalise(
            {"figures": {"x": {"type": "dragon", "side": "besieger", "at": "0101"}}}, "f.json", "f"
        )
    with pytest.raises(ScenarioError, match="is not a cell|must be a cell"):
        normalise(
            {"figures": {"x": {"type": "knight", "side": "besieger", "at": "9999"}}}, "f.json", "f"
        )


def test_a_map_with_an_unknown_terrain_character_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rows": ["..?.."]}), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"rows\[0\]\[2\]"):
        data.load_board(path, "bad.json")


def test_every_packaged_scenario_loads_and_starts():
    for scenario in RULES.scenarios():
        state, events = new_game(RULES, RULES.load_scenario(scenario.name), 1)
        assert state["figures"] and of(events, "scenario")


def test_los_picture_draws_the_line_and_its_cells():
    state, _ = new_game(RULES, RULES.load_scenario("open-gate"), 1)
    scene = RULES.los_scene(state, "1112", "1106")
    assert scene["arrows"][0]["text"] == "no shot" and scene["notes"]
    assert {m["at"] for m in scene["markers"] if m["kind"] == "highlight"} == {
        "1111"
    }  # stopped there
    assert "1111" in scene["notes"][0]
    image = Image.open(io.BytesIO(render_png(scene)))
    assert image.size[0] > 400


def test_the_rules_summary_names_every_command_in_both_languages():
    # A newcomer learns the game from /rules: every command and query the game declares is
    # named there, in English and in German.
    names = [c.name for c in RULES.commands] + [q.name for q in RULES.queries]
    for locale in ("en", "de"):
        summary = RULES.rules_summary(locale)
        assert [n for n in names if f"`/{n}" not in summary] == [], locale
        assert len(summary) < 2000  # one Discord message
