"""Data files and scenario files: everything validates on load, errors name file, entry, problem."""

import json

import pytest

from engine.core.errors import ScenarioError
from engine.tenochtitlan import data
from engine.tenochtitlan.scenarios import normalise

from .helpers import RULES, build, grid_map


def test_packaged_data_loads_with_our_approximation_comment():
    for name in (
        "terrain.json",
        "units.json",
        "cards.json",
        "map-standard.json",
        "scenarios/standard.json",
        "scenarios/historical.json",
    ):
        content = json.loads((data.DATA_DIR / name).read_text())
        assert "approximation" in content["_comment"]
    board = data.packaged_map("standard")
    assert (board.columns, board.rows) == (24, 20)
    assert set(board.objectives) == {
        "Sacred Precinct",
        "Tlatelolco Market",
        "Xoloc",
        "Dock Area",
        "Chapultepec Springs",
    }
    assert len(board.causeways) == 3 and len(board.villages) >= 6
    assert board.fort[board.objectives["Xoloc"]]
    assert board.aqueduct[0] == board.objectives["Chapultepec Springs"]
    assert {s.name for s in RULES.scenarios()} == {"standard", "historical"}


@pytest.mark.parametrize(
    "spec,entry",
    [
        ({"units": {"x": {"type": "sp-infantry", "at": "0505"}}}, "units.x.at"),  # lake
        ({"units": {"x": {"type": "nope", "at": "0101"}}}, "units.x.type"),
        (
            {
                "units": {
                    "x": {"type": "sp-infantry", "at": "0101"},
                    "y": {"type": "sp-cavalry", "at": "0101"},
                }
            },
            "units.y.at",
        ),
        ({"units": {"x": {"type": "sp-infantry", "at": "9999"}}}, "units.x.at"),
        ({"units": {"x": {"type": "sp-infantry", "at": "0101", "hp": 3}}}, "units.x.hp"),
        ({"phase": "combat", "card": "az-drums", "units": {}}, "card"),
        ({"phase": "combat", "units": {}}, "card"),
        ({"phase": "brawl"}, "phase"),
        ({"turn": 30, "phase": "draw"}, "turn"),
        ({"bogus": 1}, "bogus"),
        ({"decks": {"spanish": ["sp-night", "sp-night"]}}, "decks.spanish[1]"),
        ({"control": {"0101": "martians"}}, "control.0101"),
    ],
)
def test_bad_scenarios_are_refused_naming_the_entry(spec, entry):
    with pytest.raises(ScenarioError) as error:
        normalise(spec, "bad.json")
    assert error.value.file == "bad.json" and error.value.entry == entry and error.value.problem


@pytest.mark.parametrize(
    "spec,entry",
    [
        ({"columns": 3, "rows": 2, "terrain": ["...", ".x."]}, "terrain[1][1]"),
        ({"columns": 3, "rows": 2, "terrain": ["...", ".."]}, "terrain[1]"),
        ({"columns": 3, "rows": 2, "terrain": ["L=L", "L=L"]}, "causeways"),
        (
            {"columns": 3, "rows": 2, "terrain": ["...", "..."], "roads": [["0101", "0302"]]},
            "roads[0][1]",
        ),
        (
            {"columns": 3, "rows": 2, "terrain": ["...", "..."], "villages": {"V": "0909"}},
            "villages.V",
        ),
        (
            {
                "columns": 3,
                "rows": 2,
                "terrain": ["L=L", "L=L"],
                "causeways": {"c": {"hexes": ["0201", "0202"], "village": "Nowhere"}},
            },
            "causeways.c.village",
        ),
    ],
)
def test_bad_maps_are_refused_naming_the_entry(spec, entry):
    with pytest.raises(ScenarioError) as error:
        normalise({"map": spec}, "map.json")
    assert error.value.entry == entry


def test_scenario_files_load_by_path(tmp_path):
    path = tmp_path / "ambush.json"
    path.write_text(
        json.dumps(
            {
                "name": "ambush",
                "phase": "combat",
                "active": "aztec",
                "card": "az-drums",
                "turn": 5,
                "units": {
                    "w": {"type": "az-warriors", "at": "1208"},
                    "i": {"type": "sp-infantry", "at": "1207", "disorganised": True},
                },
                "eliminated": {"sp-cavalry-1": "sp-cavalry"},
            }
        )
    )
    scenario = RULES.load_path(str(path))
    state, _ = RULES.setup(
        scenario, __import__("engine.core.dice", fromlist=["fixed"]).fixed([1] * 40)
    )
    assert (state["turn"], state["phase"], state["active"], state["card"]) == (
        5,
        "combat",
        "aztec",
        "az-drums",
    )
    assert state["units"]["i"]["disorganised"] and state["eliminated"] == ["sp-cavalry-1"]
    with pytest.raises(ScenarioError):
        RULES.load_path(str(tmp_path / "missing.json"))
    with pytest.raises(ScenarioError, match="unknown scenario"):
        RULES.load_scenario("no-such-scenario")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        RULES.load_path(str(broken))


def test_data_files_are_validated(tmp_path, monkeypatch):
    for name in ("terrain.json", "units.json", "cards.json"):
        (tmp_path / name).write_text((data.DATA_DIR / name).read_text())
    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    units = json.loads((tmp_path / "units.json").read_text())
    units["types"]["sp-infantry"]["class"] = "wizard"
    (tmp_path / "units.json").write_text(json.dumps(units))
    with pytest.raises(ScenarioError) as error:
        data.unit_types.__wrapped__()
    assert error.value.entry == "/types/sp-infantry/class"
    cards = json.loads((tmp_path / "cards.json").read_text())
    cards["spanish"][0]["special"] = {"kind": "teleport"}
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    with pytest.raises(ScenarioError, match="must be one of: attack_bonus, movement_bonus"):
        data.card_decks.__wrapped__()
    terrain = json.loads((tmp_path / "terrain.json").read_text())
    terrain["types"]["hills"]["cost"] = 0
    (tmp_path / "terrain.json").write_text(json.dumps(terrain))
    with pytest.raises(ScenarioError) as error:
        data.terrain_chart.__wrapped__()
    assert error.value.entry == "/types/hills/cost"


def test_a_scenario_can_set_up_any_position():
    state = build(
        {
            "map": grid_map("....", "...."),
            "phase": "combat",
            "active": "aztec",
            "turn": 9,
            "card": "az-flower",
            "attacks_used": 1,
            "units": {
                "w": {"type": "az-warriors", "at": "0101", "attacked": True},
                "e": {"type": "az-eagle", "at": "0201", "moved": True},
                "i": {"type": "sp-infantry", "at": "0202", "disorganised": True},
            },
            "eliminated": {"t": "tlaxcalan"},
            "decks": {"aztec": ["az-hunger"], "spanish": ["sp-night", "sp-council"]},
            "discards": {"spanish": ["sp-caution"]},
            "control": {"0101": "spanish"},
        }
    )
    assert state["turn"] == 9 and state["attacked"] == ["w"] and state["moved"] == ["e"]
    assert state["decks"]["spanish"] == ["sp-night", "sp-council"] and state["eliminated"] == ["t"]
    # A unit standing on a hex controls it, whatever the file said about that hex.
    assert state["control"] == {"0101": "aztec"}


def test_documented_scenario_examples_load():
    import re
    from pathlib import Path

    from engine.core.dice import fixed

    text = (
        Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "tenochtitlan.md"
    ).read_text()
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    for block in blocks:
        state, _ = RULES.setup(normalise(json.loads(block), "doc"), fixed([1] * 60))
        assert state["units"] and state["result"] is None
    python = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(python[0], "doc", "exec"), {})
