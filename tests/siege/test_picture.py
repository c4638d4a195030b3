"""SIEGE's picture with everything part 2 adds on one map, read as a player on a phone reads it:
each packaged scenario's first picture and mid-game positions (damaged walls, a burning engine
and siege tower, a ram at the wall, riders, a burning tent, panic and rout), drawn to a PNG and
opened. Layout checks use the renderer's own record of where it put each text and counter."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import renderer
from engine.core.dice import fixed
from engine.siege import engines, fire
from renderer.closeup import PHONE_WIDTH
from tests.siege.helpers import RULES

SCENARIOS = ("breach", "open-gate", "camp-raid", "long-siege", "normans-gauls")


def first(name: str) -> dict:
    state, _ = RULES.setup(RULES.load_scenario(name), fixed([]))
    return state


def long_siege_mid_game() -> dict:
    """Day 2 of the long siege: two walls damaged, a catapult on the map and burning, the ram's
    front against the west wall."""
    state = first("long-siege")
    state["siege_sheet"] = {"0816": {"step": 2}, "1416": {"step": 3}}
    state["engines"]["iron-ram"].update(cells=["0617", "0618", "0619"], towards="0616")
    state["engines"]["west-catapult"]["cells"] = ["1020"]
    state["fires"] = {"1020": {"age": 2, "by": "defender"}}
    state["day"], state["turn"] = 2, 7
    return state


def burning_tower() -> dict:
    """The siege tower left empty on open ground, its front cell alight: nothing but the fire
    marker keeps its label from the cell."""
    state = first("long-siege")
    state["towers"]["belfry"].update(cells=["1219", "1319", "1419"], towards="1218")
    gone = {"1620", "1720", "1820", "1219", "1319", "1419"}  # its crew and who stood there
    state["figures"] = {fid: f for fid, f in state["figures"].items() if f["at"] not in gone}
    state["fires"] = {"1219": {"age": 1, "by": "defender"}}
    return state


def camp_raid_mid_game() -> dict:
    state = first("camp-raid")
    state["fires"] = {"0408": {"age": 2, "by": "defender"}}  # a tent of the camp
    return state


def normans_gauls_panic() -> dict:
    state = first("normans-gauls")
    state["figures"]["walther" if "walther" in state["figures"] else _defenders(state)[0]][
        "panic"
    ] = "panic"
    state["figures"][_defenders(state)[1]]["panic"] = "rout"
    return state


def _defenders(state: dict) -> list[str]:
    return sorted(f for f, v in state["figures"].items() if v["side"] == "defender")


POSITIONS = {
    **{f"{name}@start": (lambda name=name: first(name)) for name in SCENARIOS},
    "long-siege@day2": long_siege_mid_game,
    "long-siege@tower-burning": burning_tower,
    "camp-raid@tent-burning": camp_raid_mid_game,
    "normans-gauls@panic": normans_gauls_panic,
}


def drawn(scene: dict):
    img, record = renderer.render_with_layout(scene)
    return Image.open(io.BytesIO(renderer.encode_png(img))).convert("RGB"), record


def phone(img: Image.Image) -> Image.Image:
    return img.resize((PHONE_WIDTH, round(img.height * PHONE_WIDTH / img.width)), Image.LANCZOS)


def _overlap(a, b, slack: float = 1.0) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0]) - slack
    h = min(a[3], b[3]) - max(a[1], b[1]) - slack
    return w * h if w > 0 and h > 0 else 0.0


def _near(rgb, want, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, want))


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _count(img: Image.Image, colour: str, box=None, tolerance=40) -> int:
    part = img.crop(tuple(round(v) for v in box)) if box else img
    want = _hex(colour)
    return sum(n for n, c in part.getcolors(1 << 22) if _near(c, want, tolerance))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("where", sorted(POSITIONS))
def test_no_text_overlaps_another_or_a_counter_and_no_counter_covers_a_cell_label(where, lang):
    scene = RULES.scene(POSITIONS[where](), [], None, lang=lang)
    _, rec = drawn(scene)
    texts = rec.texts
    for i, (kind_a, text_a, a) in enumerate(texts):
        for kind_b, text_b, b in texts[i + 1 :]:
            assert not _overlap(a, b), f"{where}: {kind_a} {text_a!r} overlaps {kind_b} {text_b!r}"
    for kind, text, box in texts:
        if kind in ("name", "attack"):
            for pid, counter in rec.counters:
                assert not _overlap(box, counter), f"{where}: {text!r} covers counter {pid}"
    for label, box in rec.cell_labels.items():
        for pid, counter in rec.counters:
            assert not _overlap(box, counter), f"{where}: counter {pid} covers the label {label}"


def test_damaged_walls_are_ringed_in_magenta_which_shows_at_a_phone_s_width():
    state = long_siege_mid_game()
    img, rec = drawn(RULES.scene(state, [], None))
    small = phone(img)
    scale = PHONE_WIDTH / img.width
    for cell in ("0816", "1416"):
        x, y = rec.layout.center(cell)
        r = rec.layout.cell * scale
        box = (x * scale - r, y * scale - r, x * scale + r, y * scale + r)
        assert _count(small, engines.WALL_DAMAGE_RING, box) >= 15, cell
    undamaged = first("long-siege")
    assert _count(phone(drawn(RULES.scene(undamaged, [], None))[0]), engines.WALL_DAMAGE_RING) == 0
    header = dict(RULES.scene(state, [], None)["header"])
    assert header["Walls"] == "0816 damaged, 1416 badly damaged"


def test_a_burning_cell_is_ringed_in_red_and_a_siege_tower_s_label_leaves_its_flame_in_sight():
    state = burning_tower()
    scene = RULES.scene(state, [], None)
    burning = "1219"
    img, rec = drawn(scene)
    x, y = rec.layout.center(burning)
    r = rec.layout.cell
    around = (x - 1.2 * r, y - 1.2 * r, x + 1.2 * r, y + 1.2 * r)
    assert _count(img, fire.FIRE_RING, around, tolerance=20) > 0
    # The flame and its age as drawn with the labels far away in the map's corner: the tower's
    # label must not hide a pixel of them.
    bare = drawn({**scene, "labels": [{**lb, "at": "0101"} for lb in scene["labels"]]})[0]
    right_corner = [round(v) for v in (x + 0.5 * r, y - 0.6 * r, x + 1.2 * r, y + 0.6 * r)]
    flame = [
        (i, j)
        for i in range(right_corner[0], right_corner[2])
        for j in range(right_corner[1], right_corner[3])
        if any(_near(bare.getpixel((i, j)), _hex(c), 25) for c in ("#f06a1d", "#ffd700"))
    ]
    assert len(flame) > 40
    seen = (min(p[0] for p in flame), min(p[1] for p in flame), max(p[0] for p in flame) + 1,
            max(p[1] for p in flame) + 1)  # fmt: skip
    for kind, text, box in rec.texts:
        assert not _overlap(box, seen, slack=0), f"{kind} {text!r} covers the flame at {burning}"
    assert any(kind == "attack" and text.startswith("siege tower") for kind, text, _ in rec.texts)


def test_a_horse_is_one_counter_across_the_hexside_at_a_phone_s_width():
    state = first("camp-raid")
    img, rec = drawn(RULES.scene(state, [], None))
    small = phone(img)
    scale = PHONE_WIDTH / img.width
    defenders = (31, 95, 153)
    for hid in ("konrads-horse", "dietrichs-horse"):
        (ax, ay), (bx, by) = (rec.layout.center(c) for c in state["horses"][hid]["cells"])
        # on the hexside between the two counters, where the map alone shows terrain and grid
        mid = (round((ax + bx) / 2 * scale), round((ay + by) / 2 * scale))
        assert _near(small.getpixel(mid), defenders, 30), hid
    # figures in neighbouring cells are two counters with the map between them
    foot = first("camp-raid")
    foot["horses"] = {}
    img, rec = drawn(RULES.scene(foot, [], None))
    (ax, ay), (bx, by) = (rec.layout.center(c) for c in ("1120", "1020"))
    assert not _near(
        phone(img).getpixel((round((ax + bx) / 2 * scale), round((ay + by) / 2 * scale))),
        defenders,
        30,
    )


def test_the_picture_s_engines_line_is_short_and_names_every_engine():
    state = long_siege_mid_game()
    line = dict(RULES.scene(state, [], None)["header"])["Engines"]
    assert line == (
        "east-catapult off the map 1/1, great-onager off the map 3/3, iron-ram 0617, "
        "west-catapult 1020 1/1"
    )
    assert "may bombard before the assault" in RULES.header(state)["Engines"]  # the text keeps all


def test_a_german_reader_s_siege_picture_is_in_german():
    state = long_siege_mid_game()
    shot = {
        "type": "shot",
        "from": "0816",
        "to": "0618",
        "band": "short",
        "cover": "none",
        "roll": 7,
        "modifier": 0,
        "letter": "B",
    }
    scene = RULES.scene(state, [shot], None, lang="de")
    header = dict(scene["header"])
    assert header["Tag"] == "2 von 3, Runde 2 von 5"
    assert header["Schritt"] == "vor dem Sturm" and header["Am Zug"] == "Belagerer"
    assert header["Mauern"] == "0816 beschädigt, 1416 schwer beschädigt"
    assert header["Maschinen"].startswith("east-catapult außerhalb 1/1, great-onager außerhalb 3/3")
    assert header["Zugbrücke"] == "hoch"
    assert [e["text"] for e in scene["legend"]] == ["Belagerer", "Verteidiger"]
    assert any(n.startswith("Höhen: Graben 0") for n in scene["notes"])
    assert any(n.startswith("Magentaroter Ring") for n in scene["notes"])
    assert any(n.startswith("Roter Ring und Flamme") for n in scene["notes"])
    assert "Widder iron-ram" in [lb["text"] for lb in scene["labels"]]
    assert scene["terrain_key"][0]["text"] == "Graben 0"
    img, rec = drawn(scene)
    words = [t for _, t, _ in rec.texts]
    assert "Belagerer" in words and "Zugbrücke" in " ".join(words)
    assert rec.close_up is not None  # the castle's counters are too small on a phone
    assert ("caption", "Ausschnitt dieses Zuges") in [(k, t) for k, t, _ in rec.texts]
    # the shot's cells are in the close-up, drawn big
    assert {"0816", "0618"} <= set(rec.close_up["drawn"].cell_labels)


def test_a_german_reader_sees_panic_and_rout_in_german_on_the_camp_and_castle():
    state = normans_gauls_panic()
    scene = RULES.scene(state, [], None, lang="de")
    assert {lb["text"] for lb in scene["labels"]} >= {"PANIK", "FLUCHT"}
    assert "Zeichen P: Panik, R: Flucht (flieht)." in scene["notes"]
    badges = {p.get("badge") for p in scene["pieces"]}
    assert {"P", "R"} <= badges
    camp = RULES.scene(camp_raid_mid_game(), [], None, lang="de")
    horses = dict(camp["header"])["Pferde"]
    assert "geritten von Konrad" in horses
    assert camp["terrain_key"][0]["text"] == "offenes Gelände 1 P., keine Deckung"
    assert Image.open(io.BytesIO(renderer.render_png(camp))).format == "PNG"


def test_a_german_reader_s_shot_and_forming_melee_are_in_german():
    state = long_siege_mid_game()
    state["pending"] = {"attackers": ["raimund"], "defenders": ["walther"]}
    shot = {
        "type": "shot", "from": "0816", "to": "0618", "band": "short", "cover": "heavy",
        "roll": 7, "modifier": -1, "letter": "B",
    }  # fmt: skip
    scene = RULES.scene(state, [shot], None, lang="de")
    assert [a["text"] for a in scene["arrows"] if a["kind"] == "attack"] == ["kurz schwere: 7-1 B"]
    assert dict(scene["header"])["Nahkampf"] == "Raimund gegen Walther"
    assert "Nahkampf wird gebildet: Raimund gegen Walther" in scene["notes"]
