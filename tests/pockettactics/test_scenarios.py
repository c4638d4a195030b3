"""Scenario files: the packaged ones load, any position can be set up, bad files are named."""

import json

import pytest

from engine.core.errors import ScenarioError

from .helpers import RS, scenario


def test_packaged_scenarios_load_and_set_up():
    names = [s.name for s in RS.scenarios()]
    assert {"standard", "big-battle", "river-crossing", "skirmish"} <= set(names)
    from engine.core.dice import seeded

    phases = {}
    for name in names:
        state, _ = RS.setup(RS.load_scenario(name), seeded("x", 0))
        phases[name] = state["phase"]
    assert phases["standard"] == "faction" and phases["skirmish"] == "play"
    assert RS.load_scenario("big-battle")["points"] == 80
    assert RS.load_scenario("")["name"] == "standard"


def test_core_sets_field_all_six_units_without_recruiting():
    from engine.core.dice import seeded

    state, _ = RS.setup(RS.load_scenario("core-sets"), seeded("core", 0))
    assert state["phase"] == "tiles"  # roll-off done, no army building
    for side in ("north", "south"):
        assert (
            sum(
                1 for u in state["units"].values() if u["side"] == side and u["status"] == "reserve"
            )
            == 6
        )


def test_scenario_file_by_path(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(
        json.dumps(scenario({"spearman": "0808", "goblin": "0810", "troll": "captured"}))
    )
    sc = RS.load_path(str(path))
    from engine.core.dice import fixed

    state, _ = RS.setup(sc, fixed([]))
    assert (
        state["units"]["troll"]["status"] == "captured" and state["units"]["troll"]["by"] == "north"
    )
    assert state["phase"] == "play" and state["awaiting"] == ["north"]


@pytest.mark.parametrize(
    "change, entry, problem",
    [
        ({"factions": {"north": "elves", "south": "horde"}}, "factions.north", "unknown faction"),
        ({"factions": {"north": "horde", "south": "horde"}}, "factions", "different factions"),
        (
            {"units": {"spearman": {"at": "0808"}, "goblin": {"at": "0808"}}},
            "units.goblin.at",
            "one unit per tile",
        ),
        ({"units": {"spearman": {"at": "1212"}}}, "units.spearman.at", "not a tile of the map"),
        ({"units": {"spearman": {"at": "x"}}}, "units.spearman.at", "hex label"),
        (
            {"units": {"dragon": {"at": "0808"}}},
            "units.dragon",
            "not a unit of the chosen factions",
        ),
        ({"phase": "lunch"}, "phase", "unknown phase"),
        ({"homes": {"north": "0806"}}, "homes.north", "not a feature tile"),
        ({"map": {"0808": {"terrain": "ice"}}}, "map.0808", "needs a terrain"),
        ({"points": 0}, "points", "whole number"),
        (
            {
                "armies": {
                    "north": ["spearman", "champion", "archer", "rider", "druid", "eagle"],
                    "south": [],
                }
            },
            "armies.north",
            "more than the 50 allowed",
        ),
        ({"phase": "bonus"}, "combat", "needs the pending combat"),
        (
            {
                "phase": "bonus",
                "combat": {
                    "attacker": "spearman",
                    "defender": "goblin",
                    "kind": "magic",
                    "dice": {"attacker": {"off": [1]}, "defender": {"def": [1]}},
                },
            },
            "combat.kind",
            "spearman does not know magic attacks",
        ),
        (
            {
                "phase": "bonus",
                "combat": {
                    "attacker": "spearman",
                    "defender": "goblin",
                    "kind": "ranged",
                    "dice": {"attacker": {"off": [1]}, "defender": {"def": [1]}},
                },
            },
            "combat.kind",
            "spearman has no ranged attack",
        ),
        ({"colour": "red"}, "colour", "unknown key"),
        (
            {"phase": "map", "map": None, "homes": None, "units": None},
            "bag",
            "needs the tiles still in the bag",
        ),
        ({"phase": "home", "map": None, "homes": None, "units": None}, "map", "needs the map"),
        ({"phase": "start", "homes": {"north": "0805"}}, "homes", "own feature"),
        (
            {"factions": {"north": "clans"}, "units": None, "phase": "army"},
            "factions",
            "needs both factions",
        ),
    ],
)
def test_bad_scenarios_name_file_entry_and_problem(change, entry, problem):
    data = scenario({"spearman": "0808", "goblin": "0810"})
    data.update(change)
    with pytest.raises(ScenarioError) as info:
        RS.scenario_from_data(data, "bad.json")
    assert (
        info.value.file == "bad.json"
        and info.value.entry == entry
        and problem in info.value.problem
    )


def test_unknown_scenario_and_broken_json(tmp_path):
    with pytest.raises(ScenarioError, match="no such scenario"):
        RS.load_scenario("nope")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        RS.load_path(str(bad))


def test_position_mid_map_building():
    from engine.core.dice import fixed

    data = {
        "factions": {"north": "clans", "south": "horde"},
        "order": ["north", "south"],
        "armies": {"north": ["spearman"], "south": ["goblin"]},
        "phase": "map",
        "map": {"0808": {"terrain": "grass", "feature": "village"}, "0809": "water"},
        "bag": ["sand"],
        "drawn": "marsh",
        "central": "village",
        "own_features": {"north": "forest", "south": "city"},
        "tile_choices": {"north": ["grass", "water"], "south": ["sand", "marsh"]},
        "tiles_per_player": 2,
    }
    state, _ = RS.setup(RS.scenario_from_data(data), fixed([]))
    assert state["phase"] == "map" and state["awaiting"] == ["south"] and state["drawn"] == "marsh"


def test_examples_in_the_scenario_docs_load():
    import re
    from pathlib import Path

    from engine.core.dice import fixed

    text = (
        Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "pocket-tactics.md"
    ).read_text()
    blocks = [b for b in re.findall(r"```json\n(.*?)```", text, re.S) if b.lstrip().startswith("{")]
    assert len(blocks) == 2
    for block in blocks:
        state, _ = RS.setup(RS.scenario_from_data(json.loads(block), "docs"), fixed([]))
        assert state["awaiting"]


def test_data_files_are_validated(tmp_path):
    import shutil

    from engine.pockettactics.data import DATA_DIR, Catalogue

    cat = Catalogue.load()
    assert len(cat.factions) >= 2 and all(len(f["units"]) == 6 for f in cat.factions.values())
    for name in ("factions.json", "terrain.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    factions = json.loads((tmp_path / "factions.json").read_text())
    factions["factions"]["clans"]["units"]["spearman"]["off"] = 4
    (tmp_path / "factions.json").write_text(json.dumps(factions))
    with pytest.raises(ScenarioError) as info:
        Catalogue.load(tmp_path)
    assert (
        info.value.entry == "/factions/clans/units/spearman/off"
        and "at most 3" in info.value.problem
    )
    factions["factions"]["clans"]["units"]["spearman"]["off"] = 2
    factions["factions"]["clans"]["units"]["spearman"]["preferred"] = ["volcano"]
    (tmp_path / "factions.json").write_text(json.dumps(factions))
    with pytest.raises(ScenarioError, match="preferred"):
        Catalogue.load(tmp_path)
    del factions["factions"]["clans"]["units"]["spearman"]
    (tmp_path / "factions.json").write_text(json.dumps(factions))
    with pytest.raises(ScenarioError, match="at least 6 entries"):
        Catalogue.load(tmp_path)
    terrain = json.loads((tmp_path / "terrain.json").read_text())
    terrain["terrains"]["water"]["hazard"] = "sharks"
    (tmp_path / "terrain.json").write_text(json.dumps(terrain))
    shutil.copy(DATA_DIR / "factions.json", tmp_path / "factions.json")
    with pytest.raises(ScenarioError) as info:
        Catalogue.load(tmp_path)
    assert info.value.entry == "/terrains/water/hazard"


def test_attack_types_in_the_data_are_validated(tmp_path):
    import shutil

    from engine.pockettactics.data import DATA_DIR, Catalogue

    for name in ("factions.json", "terrain.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    factions = json.loads((tmp_path / "factions.json").read_text())
    druid = factions["factions"]["clans"]["units"]["druid"]
    druid["attacks"] = ["melee", "lightning"]
    (tmp_path / "factions.json").write_text(json.dumps(factions))
    with pytest.raises(ScenarioError) as info:
        Catalogue.load(tmp_path)
    assert info.value.entry == "/factions/clans/units/druid/attacks/1"
    druid["attacks"] = ["magic"]
    druid["bonus"] = [{"kind": "off", "value": 1, "attack": ["psionic"]}]
    (tmp_path / "factions.json").write_text(json.dumps(factions))
    with pytest.raises(ScenarioError, match="must be one of: melee, magic, ranged") as info:
        Catalogue.load(tmp_path)
    assert info.value.entry == "/factions/clans/units/druid/bonus/0/attack/0"
    druid["bonus"] = [{"kind": "off", "value": 1, "only_kind": "yes"}]
    (tmp_path / "factions.json").write_text(json.dumps(factions))
    with pytest.raises(ScenarioError, match="must be true or false") as info:
        Catalogue.load(tmp_path)
    assert info.value.entry == "/factions/clans/units/druid/bonus/0/only_kind"
