"""What players read and see: event lines with dice, header, view, scene, rules summary."""

import pytest

from engine.core.dice import fixed

from .helpers import RS, act, position


def test_combat_events_show_the_dice():
    state = position({"spearman": "0808", "slinger": "0809"})
    after, events = act(state, "/attack unit:spearman target:slinger", dice=[6, 1, 3, 1, 3, 4, 2])
    lines = [RS.describe_event(after, e) for e in events]
    assert "🎲 spearman OFF: 6" in lines
    assert (
        "Clan Spearman vs Goblin Slinger: attack 6,1 vs 4,2 hit (6 beats 4); "
        "counter 3 vs 3,1 miss (3 ties 3; DEF 1 left over)"
    ) in lines
    assert "Goblin Slinger is defeated and captured by North." in lines


def test_describe_options():
    state = position({"spearman": "0808", "slinger": "0809"})
    assert RS.describe(state, "unit", "spearman") == "Clan Spearman (North, 0808)"
    assert RS.describe(state, "to", "0805") == "0805 (Village on Grassland)"
    assert (
        RS.describe_action(
            state, {"type": "move", "side": "north", "unit": "spearman", "to": "0809"}
        )
        == "/move unit:Clan Spearman (North, 0808) to:0809 (Grassland)"
    )
    assert RS.describe(state, "as", "magic") == "magic attack"


def test_header_and_view():
    state = position({"spearman": "0808", "slinger": "0809"})
    header = RS.header(state)
    assert header["Turn"] == "1" and header["Active"] == "North" and header["Phase"] == "Play"
    data = {
        "factions": {"north": "clans", "south": "horde"},
        "order": ["north", "south"],
        "armies": {"north": ["spearman"], "south": ["goblin"]},
        "phase": "map",
        "map": {"0808": {"terrain": "grass", "feature": "village"}},
        "bag": ["water", "grass", "sand"],
        "central": "village",
        "own_features": {"north": "forest", "south": "city"},
        "tile_choices": {"north": ["grass", "water"], "south": ["sand", "marsh"]},
        "tiles_per_player": 2,
    }
    state, _ = RS.setup(RS.scenario_from_data(data), fixed([]))
    assert state["bag"] == ["grass", "sand"]  # water was drawn
    assert (
        RS.view(state, "north")["bag"] == ["grass", "sand"]
        and RS.header(state)["Tile in hand"] == "Water"
    )
    hidden = dict(state, bag=["sand", "grass"])
    assert RS.view(hidden, None)["bag"] == ["grass", "sand"]  # the order is not shown


def test_scene_has_cells_pieces_flags_and_attack_arrow_with_dice():
    state = position(
        {"spearman": "0808", "slinger": "0809", "archer": "reserve"},
        tiles={"0807": "water", "0806": {"terrain": "grass", "feature": "forest"}},
    )
    after, events = act(state, "/attack unit:spearman target:slinger", dice=[6, 1, 3, 1, 3, 4, 2])
    scene = RS.scene(after, events, None)
    # Only the part of the 15x15 label space the map occupies, with a ring around it for the
    # places a tile could still go, is drawn.
    grid = scene["grid"]
    assert grid["kind"] == "hex" and grid["columns"] < 15 and grid["rows"] < 15
    for lab in after["tiles"]:
        col, row = int(lab[:2]), int(lab[2:])
        assert grid["first_column"] < col < grid["first_column"] + grid["columns"] - 1, lab
        assert grid["first_row"] < row < grid["first_row"] + grid["rows"] - 1, lab
    cells = {c["at"]: c for c in scene["cells"]}
    assert cells["0807"]["fill"] == RS.cat.terrains["water"]["fill"]
    assert cells["0806"]["icon"] == "forest" and cells["0805"]["icon"] == "village"
    piece = next(p for p in scene["pieces"] if p["id"] == "spearman")
    assert piece["at"] == "0809" and piece["color"] == RS.cat.factions["clans"]["color"]
    assert piece["title"] == "Spear" and piece["values"] == "2/2"
    flags = {m["at"]: m["color"] for m in scene["markers"] if m["kind"] == "flag"}
    assert flags == {
        "0805": RS.cat.factions["clans"]["color"],
        "0811": RS.cat.factions["horde"]["color"],
    }
    attack = next(a for a in scene["arrows"] if a["kind"] == "attack")
    assert attack["path"] == ["0808", "0809"] and "6,1 vs 4,2 hit" in attack["text"]
    move = next(a for a in scene["arrows"] if a["kind"] == "move")
    assert move["path"] == ["0808", "0809"]
    assert "Reserve N: Archer" in scene["notes"][0]
    # the slinger North captured is South's loss, shown under the map
    assert {e["text"]: e["units"] for e in scene["losses"]} == {
        "North lost:": [],
        "South lost:": ["Sling"],
    }
    assert [e["text"] for e in scene["legend"]] == ["N Highland Clans", "S Marsh Horde"]
    # the static layer's key changes with the map only
    assert RS.scene(state, [], None)["map_key"] == scene["map_key"]
    other = position({"spearman": "0808", "slinger": "0809"})
    assert RS.scene(other, [], None)["map_key"] != scene["map_key"]


def test_scene_renders_terrain_and_pieces_where_they_are():
    import importlib
    import io

    try:
        renderer = importlib.import_module("renderer")
        render_png = renderer.render_png
        from renderer.layout import cell_center
    except (ImportError, AttributeError):
        import pytest

        pytest.skip("renderer.render_png not built yet")
    from PIL import Image

    state = position(
        {"spearman": "0808", "slinger": "0809"}, tiles={"0707": "water", "0909": "lava"}
    )
    scene = RS.scene(state, [], None)
    image = Image.open(io.BytesIO(render_png(scene))).convert("RGB")

    def near(label, colour, dx=0.0):
        # most pixels of a small box around the point (text and outlines aside) show the colour
        x, y = cell_center(scene["grid"], label)
        box = [
            image.getpixel((int(x + dx + i), int(y + j)))
            for i in range(-6, 7, 3)
            for j in range(-6, 7, 3)
        ]
        hits = sum(all(abs(a - b) <= 8 for a, b in zip(p, colour)) for p in box)
        return hits >= len(box) // 3

    hexrgb = lambda h: tuple(int(h[i : i + 2], 16) for i in (1, 3, 5))  # noqa: E731
    assert near("0707", hexrgb(RS.cat.terrains["water"]["fill"]), dx=-25)
    assert near("0909", hexrgb(RS.cat.terrains["lava"]["fill"]), dx=-25)
    assert near("0808", hexrgb(RS.cat.factions["clans"]["color"]))  # the spearman's counter
    assert near("0809", hexrgb(RS.cat.factions["horde"]["color"]))


def test_rules_summary_in_english_and_german():
    en, de = RS.rules_summary("en"), RS.rules_summary("de")
    assert "Pocket Tactics" in en and "/bonus" in en and "bonus moves" in en
    assert "Würfel" in de and "Merkmal" in de and de != en


def test_every_test_named_in_the_rules_doc_exists():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "rules" / "pocket-tactics.md").read_text()
    refs = set(re.findall(r"((?:tests/[a-z_]+/)?)(test_\w+\.py)::(test_\w+)", text))
    assert len(refs) > 40
    for folder, file, name in refs:
        # A citation naming its folder (a shared test in tests/core/) is looked up there.
        source = (root / (folder or "tests/pockettactics/") / file).read_text()
        assert f"def {name}(" in source, f"{file}::{name} named in the docs does not exist"


def test_every_event_of_whole_games_has_a_line():
    from engine.core.game import autoplay

    missing = set()
    for seed in range(4):
        autoplay(
            RS,
            RS.load_scenario("standard"),
            f"lines-{seed}",
            on_action=lambda i, s, a, events, st: missing.update(
                e["type"] for e in events if RS.describe_event(st, e) is None
            ),
        )
    assert missing == set()


def test_before_the_first_tile_the_picture_marks_where_the_map_starts():
    state, _ = RS.setup(RS.load_scenario("standard"), fixed([]))
    assert not state.get("tiles")
    scene = RS.scene(state, [], None)
    assert {"at": "0808", "kind": "highlight", "color": "#ffff66"} in scene["markers"]
    assert (
        scene["grid"]["first_column"]
        <= 8
        < scene["grid"]["first_column"] + scene["grid"]["columns"]
    )


def test_the_header_shows_each_sides_rerolls_left_during_a_combat_in_english_and_german():
    state = position(
        {
            "spearman": "0808",
            "archer": "0807",
            "rider": "0708",
            "slinger": "0809",
            "goblin": "0910",
            "troll": "0810",
        }
    )
    assert "Re-rolls left" not in RS.header(state)
    state, _ = act(state, "/attack unit:spearman target:slinger", dice=[1, 1, 1, 1, 3, 4, 2])
    assert RS.header(state)["Re-rolls left"] == "North 2 / South 2"
    state, _ = act(state, "/pass")
    state, _ = act(state, "/reroll die:def2", dice=[5])
    assert RS.header(state)["Re-rolls left"] == "North 2 / South 1"
    german = RS.localised_header(state, "de")
    assert german["Neuwürfe übrig"] == "Nord 2 / Süd 1"
    assert german["Kampf"] == "Clan Spearman gegen Goblin Slinger"
    assert german["Phase"] == "Neuwürfe" and german["Aktive Seite"] == "Nord"
    assert RS.header(state)["Phase"] == "Re-rolls"


@pytest.mark.parametrize(
    "purpose, english, german",
    [
        ("roll-off: south", "roll-off: South", "Auswurf: Süd"),
        (
            "roll-off (map building): north",
            "roll-off (map building): North",
            "Auswurf (Kartenbau): Nord",
        ),
        ("slinger re-roll off1", "Goblin Slinger re-roll OFF 1", "Goblin Slinger Neuwurf OFF 1"),
        (
            "spearman DEF 5+ test (hazard at 0807)",
            "Clan Spearman DEF 5+ test (hazard at 0807)",
            "Clan Spearman DEF-5+-Test (Gefahr auf 0807)",
        ),
    ],
)
def test_dice_lines_name_the_unit_and_side_in_the_readers_words(purpose, english, german):
    # Issue 15: "🎲 slinger re-roll off1: 2", "🎲 roll-off: south: 6" for a German reader.
    state = position({"spearman": "0808", "slinger": "0809"})
    event = {"type": "roll", "purpose": purpose, "value": 2}
    assert RS.roll_purpose(state, event, "en") == english
    assert RS.roll_purpose(state, event, "de") == german


def test_bonus_and_re_roll_lines_name_the_die_as_players_read_it():
    state = position({"spearman": "0808", "slinger": "0809"})
    reroll = {"type": "reroll", "unit": "slinger", "die": "off1", "from": 6, "to": 5}
    assert RS.narrate(state, reroll, "en") == "Goblin Slinger re-rolls OFF 1: 6 → 5."
    assert RS.narrate(state, reroll, "de") == "Goblin Slinger würfelt OFF 1 neu: 6 → 5."
