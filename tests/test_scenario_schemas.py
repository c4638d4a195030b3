"""The JSON Schemas of scenario and data files (issue 8): one source of truth in
``data/schemas/`` that the loaders use, published unchanged in ``docs/scenarios/`` for authors'
editors; every packaged file and every example in the docs passes them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from engine import registry
from engine.core import scenario_io
from engine.core.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = sorted((ROOT / "data" / "schemas").glob("*.schema.json"))
FILES = {
    "rivet-wars": sorted((ROOT / "data" / "rivet-wars" / "missions").glob("*.json")),
    "rivet-wars-cards": [ROOT / "data" / "rivet-wars" / "cards.json"],
    "rivet-wars-roster": [ROOT / "data" / "rivet-wars" / "roster.json"],
    "rivet-wars-tiles": [ROOT / "data" / "rivet-wars" / "tiles.json"],
    "pocket-tactics": sorted((ROOT / "data" / "pocket-tactics" / "scenarios").glob("*.json")),
    "pocket-tactics-factions": [ROOT / "data" / "pocket-tactics" / "factions.json"],
    "pocket-tactics-terrain": [ROOT / "data" / "pocket-tactics" / "terrain.json"],
    "tenochtitlan": sorted((ROOT / "data" / "tenochtitlan" / "scenarios").glob("*.json")),
    "siege": sorted((ROOT / "data" / "siege" / "scenarios").glob("*.json")),
    "tenochtitlan-cards": [ROOT / "data" / "tenochtitlan" / "cards.json"],
    "tenochtitlan-map": sorted((ROOT / "data" / "tenochtitlan").glob("map-*.json")),
    "tenochtitlan-terrain": [ROOT / "data" / "tenochtitlan" / "terrain.json"],
    "tenochtitlan-units": [ROOT / "data" / "tenochtitlan" / "units.json"],
    "tactical-table-war": sorted(
        (ROOT / "data" / "tactical-table-war" / "scenarios").glob("*.json")
    ),
}


def test_the_published_schemas_are_the_ones_the_loaders_use():
    published = sorted((ROOT / "docs" / "scenarios").glob("*.schema.json"))
    assert [p.name for p in published] == [p.name for p in SCHEMAS]
    for used, shown in zip(SCHEMAS, published):
        assert used.read_bytes() == shown.read_bytes(), f"copy {used} to {shown}"


def test_every_packaged_file_has_a_schema_and_passes_it():
    assert sorted(FILES) == sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS)
    for name, files in FILES.items():
        Draft202012Validator.check_schema(
            json.loads((ROOT / "data" / "schemas" / f"{name}.schema.json").read_text())
        )
        assert files, name
        for path in files:
            scenario_io.check_schema(json.loads(path.read_text(encoding="utf-8")), name, str(path))


@pytest.mark.parametrize(
    "game, count",
    [("rivet-wars", 3), ("pocket-tactics", 2), ("tenochtitlan", 2), ("tactical-table-war", 1)],
)
def test_the_examples_in_the_docs_load_as_attached_files(game, count):
    text = (ROOT / "docs" / "scenarios" / f"{game}.md").read_text(encoding="utf-8")
    blocks = [
        b for b in re.findall(r"```json\n(.*?)```", text, re.DOTALL) if b.lstrip().startswith("{")
    ]
    assert len(blocks) == count
    ruleset = registry.get_ruleset(game)
    for block in blocks:
        assert ruleset.load_document(block.encode(), "example.json")


def test_integers_are_strict_and_refusals_quote_only_the_schema():
    ruleset = registry.get_ruleset("rivet-wars")
    for value in ("1.0", "true", '"3"'):
        with pytest.raises(ScenarioError) as info:
            ruleset.load_document(f'{{"mission": "mission-1", "turn": {value}}}'.encode(), "n.json")
        assert (info.value.entry, info.value.problem) == ("/turn", "must be a whole number")
    with pytest.raises(ScenarioError) as info:
        ruleset.load_document(b'{"mission": "mission-1", "phase": "secret-value-42"}', "p.json")
    assert info.value.problem == "must be one of: card, deploy, combat, move"
    assert "secret-value-42" not in str(info.value)
    with pytest.raises(ScenarioError) as info:
        ruleset.load_document(
            b'{"mission": "mission-1", "resources": {"allies": {"points": 1}}}', "r.json"
        )
    assert str(info.value) in (
        "r.json: /resources: needs the entry 'bismark'",
        "r.json: /resources/allies: needs the entry 'rivets'",
    )
    long_key = "k" * 5000
    with pytest.raises(ScenarioError) as info:
        ruleset.load_document(json.dumps({"mission": "mission-1", long_key: 1}).encode(), "k.json")
    assert info.value.problem.startswith("unknown entry; known:") and len(info.value.entry) <= 120


def test_each_schema_knows_exactly_the_entries_its_loader_knows():
    """A new scenario entry must be added to the schema too (else files using it are refused)."""
    from engine.pockettactics import scenario as pocket
    from engine.rivetwars import data as rivet
    from engine.tenochtitlan import scenarios as teno

    def entries(name):
        return set(
            json.loads((ROOT / "data" / "schemas" / f"{name}.schema.json").read_text())[
                "properties"
            ]
        )

    assert entries("rivet-wars") == {
        *rivet.MISSION_KEYS,
        *rivet.POSITION_KEYS,
        "name",
        "roster",
        "mission",
        "_comment",
    }
    assert entries("pocket-tactics") == set(pocket.KNOWN_KEYS)
    assert entries("tenochtitlan") == set(teno.KNOWN_KEYS)
    # Tactical Table War's keys are listed for authors in its rules document.
    text = (ROOT / "docs" / "rules" / "tactical-table-war.md").read_text(encoding="utf-8")
    keys_table = text.split("## Scenario files", 1)[1]
    documented = {
        key
        for row in keys_table.splitlines()
        if row.startswith("| `")
        for key in re.findall(r"`([a-z_]+)`", row.split("|")[1])
    }
    assert entries("tactical-table-war") - {"_comment"} == documented


def test_an_inline_map_named_standard_never_shares_the_packaged_maps_picture_cache():
    from engine.tenochtitlan import data as teno_data

    packaged = json.loads((ROOT / "data" / "tenochtitlan" / "map-standard.json").read_text())
    packaged["terrain"] = ["." * packaged["columns"]] * packaged["rows"]  # a different map
    for key in ("causeways", "roads", "aqueduct", "forts", "objectives"):
        packaged.pop(key, None)
    board = teno_data.board_for(packaged, "mine.json")
    assert board.name == "standard"
    assert board.key != teno_data.packaged_map("standard").key


@pytest.mark.parametrize(
    "game, document, marker",
    [
        ("rivet-wars", {"mission": "mission-1", "deploy": {"allies": ["Y77"]}}, "Y77"),
        (
            "rivet-wars",
            {"mission": "mission-1", "units": [{"type": "zzmarker", "at": "C4"}]},
            "zzmarker",
        ),
        (
            "rivet-wars",
            {"mission": "mission-1", "units": [{"type": "rifleman", "at": "Y77"}]},
            "Y77",
        ),
        ("rivet-wars", {"mission": "mission-1", "hands": {"allies": ["zzmarker"]}}, "zzmarker"),
        ("pocket-tactics", {"factions": {"north": "zzmarker", "south": "horde"}}, "zzmarker"),
        (
            "pocket-tactics",
            {
                "factions": {"north": "clans", "south": "horde"},
                "units": {"spearman": {"at": "1499"}},
            },
            "1499",
        ),
        ("tenochtitlan", {"units": {"a": {"type": "zzmarker", "at": "1208"}}}, "zzmarker"),
        ("tenochtitlan", {"card": "zzmarker"}, "zzmarker"),
        ("tenochtitlan", {"map": "zzmarker"}, "zzmarker"),
        (
            "tactical-table-war",
            {
                **json.loads(
                    (
                        ROOT / "data" / "tactical-table-war" / "scenarios" / "free-play.json"
                    ).read_text()
                ),
                "castles": {"red": "1919", "blue": "1305"},
            },
            "1919",
        ),
        ("tenochtitlan", {"units": {"a": {"type": "az-warriors", "at": "9999"}}}, "9999"),
    ],
)
def test_a_meaning_refusal_names_the_entry_but_never_quotes_the_value(game, document, marker):
    with pytest.raises(ScenarioError) as info:
        registry.get_ruleset(game).load_document(json.dumps(document).encode(), "mine.json")
    assert info.value.file == "mine.json" and info.value.entry not in ("", "file")
    assert marker not in f"{info.value.entry}: {info.value.problem}", str(info.value)
