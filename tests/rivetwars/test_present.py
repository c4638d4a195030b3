"""What players see: labels, event lines, header, scene and the picture."""

import io

import pytest

from tests.rivetwars.util import RS, act, make, unit


def test_describe_names_units_types_cards_and_segments():
    state = make(
        terrain={"bunker": ["C9"]},
        units=[unit("wolverine", "E5", id="w", damage=1, plugins=["patston"])],
    )
    assert (
        RS.describe(state, "unit", "w") == "Allies M2 Wolverine+General G. Patston w in E5 (4/5 hp)"
    )
    assert RS.describe(state, "unit", "hammer") == "Hammer 65-pounder (3 points + 1 rivet)"
    assert RS.describe(state, "card", "ac01") == "Reinforcements (ac01)"
    assert RS.describe(state, "to", "C9") == "C9 (bunker)"


def test_event_lines_show_the_dice():
    state = make(units=[unit("rifleman", "E9", id="r"), unit("panzerfaust", "E5", id="p")])
    state, events = act(state, "attack", dice=[5, 2], unit="r", to="E5")
    lines = [RS.describe_event(state, e) for e in events]
    assert "Rifleman attacks p (single): dice [5 2] -> hit, 1 damage." in lines
    assert "Panzerfaust (p) is eliminated." in lines


def test_narration_names_units_as_the_board_does_and_a_square_once():
    # Issue 15: "panzerfaust-2 zieht nach G3 (G3)" named the unit by its id and the cell twice.
    state = make(
        units=[
            unit("rifleman", "E9", id="r"),
            unit("panzerfaust", "E5", id="panzerfaust-1"),
            unit("panzerfaust", "G5", id="panzerfaust-2"),
        ]
    )
    moved = {"type": "moved", "unit": "panzerfaust-2", "segment": "G3", "to": "G3"}
    assert RS.narrate(state, moved, "en") == "Panzerfaust (PzF 2) moves to G3."
    assert RS.narrate(state, moved, "de") == "Panzerfaust (PzF 2) zieht nach G3."
    aside = {**moved, "to": "H4"}
    assert RS.narrate(state, aside, "de") == "Panzerfaust (PzF 2) zieht nach G3 (H4)."
    assert RS.narrate(state, {**moved, "unit": "r"}, "de") == "Schütze zieht nach G3."
    # The counter's name in the narration is one a player can type.
    assert "PzF 2" in RS.scene(state, [], None)["pieces"][1]["title"]


def test_header_shows_round_phase_active_and_victory_points():
    state = make(vp={"allies": 2, "bismark": 1})
    header = RS.header(state)
    assert header["Round"] == "1" and header["Phase"] == "Combat" and header["Active"] == "Allies"
    assert header["VP"] == "Allies 2/6 / Bismark 1/6"


def test_scene_draws_squares_segments_units_flags_and_gas():
    state = make(
        terrain={"objective": ["E5"]},
        flags={"E5": "bismark"},
        units=[unit("rifleman", "A9", id="r", damage=0), unit("wolverine", "C9", id="w", damage=3)],
        clouds=[{"at": "I5", "owner": "bismark", "dice": [3, 2, 1, 0, 0], "placed": 1}],
    )
    scene = RS.scene(state, [], None)
    assert scene["grid"] == {"kind": "square", "columns": 18, "rows": 12}
    assert len(scene["cells"]) == 18 * 12
    pieces = {p["id"]: p for p in scene["pieces"]}
    assert pieces["w"]["at"] == "C9" and pieces["w"]["badge"] == "3" and "badge" not in pieces["r"]
    assert {m["at"] for m in scene["markers"] if m["kind"] == "gas"} == {"I5", "J5", "I6", "J6"}
    assert {"at": "E5", "kind": "flag", "color": "#b0322b"} in scene["markers"]
    borders = {(e["at"], e["to"]) for e in scene["edges"]}
    assert ("B1", "C1") in borders and ("A2", "A3") in borders and ("A1", "B1") not in borders


def test_the_picture_shows_units_in_their_squares():
    renderer = pytest.importorskip("renderer")
    from PIL import Image

    state = make(units=[unit("rifleman", "E5", id="r"), unit("panzerfaust", "I1", id="p")])
    scene = RS.scene(state, [], None)
    image = Image.open(io.BytesIO(renderer.render_png(scene))).convert("RGB")

    def near(colour, label):
        x, y = renderer.cell_center(scene["grid"], label)
        cell = renderer.layout_for(scene["grid"]).cell
        target = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
        for dx in range(-cell // 3, cell // 3 + 1, 3):
            for dy in range(-cell // 3, cell // 3 + 1, 3):
                px = image.getpixel((int(x + dx), int(y + dy)))
                if sum(abs(a - b) for a, b in zip(px, target)) < 40:
                    return True
        return False

    assert near("#2e6fb5", "E5") and near("#b0322b", "I1")
    assert not near("#2e6fb5", "C5") and not near("#b0322b", "C5")


def test_rules_summary_in_english_and_german():
    assert "segment" in RS.rules_summary("en") and "Segment" in RS.rules_summary("de")


def test_rules_summary_says_one_damage_per_attack_however_many_fives_and_sixes():
    # "Unabhängig von der Menge der Fünfen und Sechsen, die gewürfelt werden, verursacht ein
    # erfolgreicher Angriff genau 1 Punkt Schaden." A summary saying each 5+ deals a damage
    # ("jede 5+ macht genau 1 Schaden") would teach players the reading the engine rejects.
    en, de = RS.rules_summary("en"), RS.rules_summary("de")
    assert "jede 5+" not in de and "each 5+" not in en and "any 5+ deals" not in en
    assert (
        "ein Angriff mit mindestens einer 5+ macht genau 1 Schaden, egal wie viele Fünfen und Sechsen"
        in de
    )
    assert "an attack with at least one 5+ deals exactly 1 damage, however many 5s and 6s" in en


def test_the_rules_document_names_only_existing_tests():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "rules" / "rivet-wars.md").read_text()
    refs = set(re.findall(r"`(test_\w+\.py)::(test_\w+)`", doc))
    assert len(refs) > 80
    for file, name in refs:
        assert f"def {name}(" in (root / "tests" / "rivetwars" / file).read_text(), (file, name)


def test_only_the_owners_picture_names_their_hand_and_both_show_what_everyone_holds():
    renderer = pytest.importorskip("renderer")
    from PIL import Image, ImageChops

    from engine.rivetwars import data

    card = min(data.cards()["action"])
    name = data.cards()["action"][card]["name"]
    state = make(mission="mission-3", terrain={}, hands={"allies": [card]})
    own, public = RS.scene(state, [], "allies"), RS.scene(state, [], None)
    assert any(name in n for n in own["notes"]) and not any(name in n for n in public["notes"])
    held = [n for n in public["notes"] if n.startswith("Held:")]
    assert held == ["Held: Allies 1 card(s), 0 mission(s) · Bismark 0 card(s), 0 mission(s)"]
    # The header band has room for both notes, so the owner's picture really differs there.
    lay = renderer.layout_for(own["grid"])
    pictures = [
        Image.open(io.BytesIO(renderer.render_png(s))).convert("RGB") for s in (own, public)
    ]
    band = (0, 0, lay.width, lay.header_height)
    assert (
        ImageChops.difference(pictures[0].crop(band), pictures[1].crop(band)).getbbox() is not None
    )
    # Everything but the notes is the same picture for both.
    assert {k: v for k, v in own.items() if k != "notes"} == {
        k: v for k, v in public.items() if k != "notes"
    }


def test_german_verbs_agree_with_a_plural_side_name():
    # Issue 15: "Alliierte ist am Zug." / "Alliierte hat 4 Aufstellungspunkte" (a plural side
    # with a singular verb); Bismark stays singular.
    state = make()
    say = lambda e: RS.narrate(state, e, "de")  # noqa: E731
    assert say({"type": "side_started", "side": "allies"}) == "Alliierte sind am Zug."
    assert say({"type": "side_started", "side": "bismark"}) == "Bismark ist am Zug."
    resources = {"type": "resources", "side": "allies", "points": 4, "rivets": 2}
    assert say(resources) == "Alliierte haben 4 Aufstellungspunkte und 2 Nieten."
    assert say({**resources, "side": "bismark"}).startswith("Bismark hat 4 Aufstellungspunkte")
    rolls = {
        "type": "initiative",
        "rolls": {"allies": 5, "bismark": 2},
        "order": ["allies", "bismark"],
    }
    assert say(rolls) == "Initiative: Alliierte würfeln 5, Bismark würfelt 2; Alliierte beginnen."
    over = {"type": "game_over", "winner": "allies", "reason": "reached 6 victory points"}
    assert say(over).startswith("Partie vorbei: Alliierte gewinnen (")


def test_english_verbs_agree_with_the_plural_allies():
    state = make()
    say = lambda e: RS.describe_event(state, e)  # noqa: E731
    resources = {"type": "resources", "side": "allies", "points": 4, "rivets": 2}
    assert say(resources) == "Allies have 4 deployment points and 2 rivets."
    assert say({**resources, "side": "bismark"}).startswith("Bismark has 4 deployment points")
    rolls = {
        "type": "initiative",
        "rolls": {"allies": 5, "bismark": 2},
        "order": ["allies", "bismark"],
    }
    assert say(rolls) == "Initiative: Allies rolled 5, Bismark rolled 2; Allies go first."
    assert say({"type": "passed", "side": "allies"}) == "Allies play no reaction card."


def test_german_messages_about_a_side_read_right_for_the_plural_allies():
    # The bot's own German lines put side names into sentences too: none may follow a side
    # with a singular verb ("Alliierte ist nicht am Zug", "Alliierte hat die Phase beendet").
    import re

    from cogs.i18n import MESSAGES, RULE_MESSAGES, rule_text, t

    # ("Die Uhr von {side} ist abgelaufen": the verb is the clock's)
    singular = re.compile(
        r"(?<!von )(?<!für )\{(side|waiting|first|winner)\} (ist|hat|muss|verliert|darf|kann)\b"
    )
    for catalog in (MESSAGES["de"], RULE_MESSAGES["de"], RS.translations["de"]):
        bad = [key for key, text in catalog.items() if singular.search(str(text))]
        assert not bad, bad
    refused = rule_text(RS.not_your_turn("allies", ["bismark"]), "de")
    assert refused == "Nicht am Zug: Alliierte; die Partie wartet auf Bismark."
    assert t("de", "flow_ended", side="Alliierte") == "Alliierte: Phase beendet"
