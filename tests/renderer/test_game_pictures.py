"""Pictures of real games, read the way a player on a phone reads them.

Each ruleset autoplays a seeded game; positions a third, two thirds and nine tenths of the way
in are drawn with that turn's events. The checks use the renderer's own record of where it put
each text, counter and cell label (``render_with_layout``) and the pixels of the PNG.
"""

from __future__ import annotations

import functools
import io

import pytest
from PIL import Image

import renderer
from engine import registry
from engine.core.game import autoplay
from renderer import closeup, colours
from renderer.layout import PREVIEW_WIDTH
from renderer.render import outline_boxes

# every packaged game (fixture games registered by other tests are not players' pictures)
RULESETS = sorted(
    name for name in registry.available() if registry.RULESETS[name].startswith("engine.")
)
# games whose scenes carry a terrain key and losses (a new game adds them and joins the list)
WITH_KEY_AND_LOSSES = [
    name
    for name in ("pocket-tactics", "rivet-wars", "tactical-table-war", "tenochtitlan")
    if name in RULESETS
]
SEED = 4
# The losses test needs games that lost units at the sampled points; seed 4's Pocket Tactics
# game loses none there.
LOSSES_SEED = 2
# Smallest cell label in the picture itself (read after a tap to zoom).
MIN_LABEL_PICTURE = 12
# Smallest digit, in pixels of the phone preview (the PNG shrunk to PREVIEW_WIDTH), that tells
# a player a cell's label: the cell labels themselves on small maps, the coordinate rulers
# around the map where a hex is too small for a readable label (14 px wide on Tenochtitlan).
MIN_DIGIT_PREVIEW = 9
# On hex maps a dice label may hide at most this many cell labels (see below).
MAX_LABELS_UNDER_DICE = 2
# CIE76 distance between every terrain fill and every side colour, also as seen with
# protanopia, deuteranopia and tritanopia (Machado et al. 2009, full severity).
MIN_TERRAIN_SIDE_DISTANCE = 20
# Smallest font size of a terrain key name at a phone's width (420 px): the header's facts
# are 8-11 px there; the key was 5 px on Tenochtitlan's one line of eleven fills.
MIN_KEY_PHONE_PX = 7.5


def _overlap(a, b, slack: float = 1.0) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0]) - slack
    h = min(a[3], b[3]) - max(a[1], b[1]) - slack
    return w * h if w > 0 and h > 0 else 0.0


@functools.cache
def _frames(name: str, seed: int) -> tuple:
    rules = registry.get_ruleset(name)
    scenario = rules.load_scenario(rules.default_scenario)
    frames: list = []
    autoplay(
        rules,
        scenario,
        seed,
        on_action=lambda i, side, action, events, state: frames.append((state, events)),
    )
    return tuple(frames)


@functools.cache
def positions(name: str, seed: int = SEED, lang: str = "en") -> tuple:
    """(label, scene) of positions through a seeded autoplayed game, each with its turn's
    events, its words in ``lang``."""
    rules = registry.get_ruleset(name)
    frames = _frames(name, seed)
    out = []
    for share in (3, 6, 9):
        index = len(frames) * share // 10
        state = frames[index][0]
        events = [
            e
            for st, ev in frames[: index + 1]
            if st.get("turn") == state.get("turn") and st.get("active") == state.get("active")
            for e in ev
        ]
        scene = rules.scene(state, events, None, lang=lang)
        out.append((f"{name}@{index}" + ("" if lang == "en" else f"/{lang}"), scene))
    return tuple(out)


def drawn(scene):
    img, record = renderer.render_with_layout(scene)
    data = renderer.encode_png(img)
    return Image.open(io.BytesIO(data)).convert("RGB"), record


def crop(img, box):
    part = img.crop(tuple(round(v) for v in box))
    flat = getattr(part, "get_flattened_data", None)
    return list(flat() if flat else part.getdata())


# games whose pictures are drawn in German for German readers, with losses in the footer
IN_GERMAN = [name for name in WITH_KEY_AND_LOSSES if name != "siege"]
# SIEGE draws German too (tests/siege/test_picture.py), without a losses footer
CASES = [(name, k, "en") for name in RULESETS for k in range(3)] + [
    (name, k, "de") for name in IN_GERMAN + ["siege"] for k in range(3)
]


@pytest.mark.parametrize("name,k,lang", CASES)
def test_no_two_texts_overlap_and_no_cell_label_is_covered(name, k, lang):
    where, scene = positions(name, SEED, lang)[k]
    img, rec = drawn(scene)
    texts = rec.texts
    for i, (kind_a, text_a, a) in enumerate(texts):
        for kind_b, text_b, b in texts[i + 1 :]:
            assert not _overlap(a, b), f"{where}: {kind_a} {text_a!r} overlaps {kind_b} {text_b!r}"
    assert rec.cell_labels, where
    readable = [t for t in texts if t[0] in ("name", "attack")]
    for kind, text, box in readable:
        for pid, counter in rec.counters:
            assert not _overlap(box, counter), f"{where}: {kind} {text!r} and counter {pid} overlap"
    # who holds an objective is its outline's colour: no dice label hides a side of it
    lay = rec.layout
    for objective in scene.get("objectives", []):
        sides = outline_boxes(lay, lay.parse(objective["at"]))
        for kind, text, box in texts:
            if kind == "attack":
                assert not any(_overlap(box, side) for side in sides), (
                    f"{where}: {text!r} hides the outline of the objective at {objective['at']}"
                )
    covered: dict = {}
    regions = [t for t in texts if t[0] == "region"]
    for label, box in rec.cell_labels.items():
        for pid, counter in rec.counters:
            assert not _overlap(box, counter), f"{where}: counter {pid} covers the label {label}"
        for kind, text, other in regions:
            assert not _overlap(box, other), (
                f"{where}: the region name {text!r} covers the label {label}"
            )
        for kind, text, other in readable:
            if _overlap(box, other):
                # On a hex map the rows of labels are closer than a dice label is high, so a
                # dice label near its arrow may hide a label or two; names never hide
                # labels, and on a square board nothing does.
                assert kind == "attack" and scene["grid"]["kind"] == "hex", (
                    f"{where}: {kind} {text!r} covers the label {label}"
                )
                covered.setdefault(text, []).append(label)
    assert all(len(labels) <= MAX_LABELS_UNDER_DICE for labels in covered.values()), (
        f"{where}: {covered}"
    )
    hidden = {label for labels in covered.values() for label in labels}
    # the map alone (no counters, outlines, arrows or markers): how every label looks uncovered
    bare, _ = drawn(
        {
            key: scene[key]
            for key in (
                "map_key",
                "grid",
                "cells",
                "lines",
                "edges",
                "regions",
                "terrain_key",
                "losses",
            )
            if key in scene
        }
    )
    # no arrow, highlight or marker runs over a place name (a dice label may only hide what
    # the checks above allow)
    dice = [box for kind, _, box in texts if kind == "attack"]
    assert_names_uncovered(
        where, scene, img, [t for t in texts if not any(_overlap(t[2], d) for d in dice)]
    )
    for label, box in rec.cell_labels.items():
        if label in hidden:
            continue
        # and the PNG shows it: dark ink on its light halo, as on the bare map
        pixels = crop(img, box)
        assert sum(1 for p in pixels if max(p) < 90) >= 4, f"{where}: label {label} has no ink"
        assert sum(1 for p in pixels if min(p) > 215) >= 4, f"{where}: label {label} has no halo"
        # the glyphs and the halo between them, inside the halo's rim (which meets grid lines)
        rim = rec.layout.label_size / 7 + 1
        core = (box[0] + rim, box[1] + rim, box[2] - rim, box[3] - rim)
        pixels, alone = crop(img, core), crop(bare, core)
        ink = [p for p, q in zip(pixels, alone) if max(q) < 70]
        halo = [p for p, q in zip(pixels, alone) if min(q) > 235]
        if ink and halo:  # a highlighted place the bare map has no cell for is drawn later
            # (brightness, not exact colours: the 256-colour palette differs between pictures)
            assert sum(1 for p in ink if sum(p) < 360) >= 0.85 * len(ink), (
                f"{where}: label {label} is covered"
            )
            assert sum(1 for p in halo if sum(p) > 600) >= 0.85 * len(halo), (
                f"{where}: label {label} is covered"
            )


def assert_names_uncovered(where, scene, img, texts) -> None:
    """Every place name among ``texts`` (of a cell or an objective) reads in ``img`` as in the
    same picture without the turn's arrows, dice labels and markers: its ink and the halo
    around it are where that picture and one without names differ."""
    plain = {**scene, "arrows": [], "labels": [], "markers": []}
    still, _ = drawn(plain)
    nameless, _ = drawn(
        {
            **plain,
            "map_key": f"{scene['map_key']}/without names",  # its own cached map layer
            "cells": [{k: v for k, v in c.items() if k != "text"} for c in scene.get("cells", [])],
            "objectives": [
                {k: v for k, v in o.items() if k != "name"} for o in scene.get("objectives", [])
            ],
        }
    )
    for kind, text, box in texts:
        if kind != "name":
            continue
        now, named, bare_cell = crop(img, box), crop(still, box), crop(nameless, box)
        ink = [p for p, q, r in zip(now, named, bare_cell) if max(q) < 70 and max(r) >= 110]
        halo = [p for p, q, r in zip(now, named, bare_cell) if min(q) > 235 and min(r) <= 200]
        assert ink, f"{where}: the name {text!r} is not drawn"
        # (brightness, not exact colours: the 256-colour palette differs between pictures)
        assert sum(1 for p in ink if max(p) < 110) >= 0.98 * len(ink), (
            f"{where}: the name {text!r} is covered"
        )
        assert sum(1 for p in halo if min(p) > 200) >= 0.98 * len(halo), (
            f"{where}: the name {text!r} is covered"
        )


def test_pocket_tactics_candidate_cells_are_labelled_and_leave_names_readable():
    """While the map is built, every cell a tile may go to is outlined and carries its label
    (`/place to:` without counting); the outlines, drawn on the cells' sides, never cut the
    name of the tile next to them (seed 4: Hochland between six candidates)."""
    rules = registry.get_ruleset("pocket-tactics")
    checked = 0
    for index, (state, events) in enumerate(_frames("pocket-tactics", SEED)):
        if state["phase"] != "map" or not any(
            c.get("text") for c in rules.scene(state, events, None)["cells"]
        ):
            continue
        for lang in ("en", "de"):
            scene = rules.scene(state, events, None, lang=lang)
            offered = [m["at"] for m in scene["markers"] if m["kind"] == "highlight"]
            assert offered, index
            img, rec = drawn(scene)
            assert set(offered) <= set(rec.cell_labels), index
            assert_names_uncovered(f"pocket-tactics@{index}/{lang}", scene, img, rec.texts)
            checked += 1
        if checked >= 4:
            break
    assert checked


@pytest.mark.parametrize("name", RULESETS)
def test_cell_labels_are_at_least_the_chosen_size(name):
    for where, scene in positions(name):
        lay = renderer.layout_for(scene["grid"])
        assert lay.label_size >= MIN_LABEL_PICTURE, where
        # the label's glyphs really are that big: the box of "0808"/"A1" in the record
        _, rec = renderer.render_with_layout(scene)
        heights = [box[3] - box[1] for box in rec.cell_labels.values()]
        assert min(heights) >= lay.label_size * 0.7, where


def ink_rows(preview, box, scale: float) -> int:
    """Rows of dark ink inside ``box`` (picture pixels) of the shrunk picture."""
    x0, y0, x1, y1 = (v * scale for v in box)
    part = preview.crop((int(x0) - 1, int(y0) - 1, int(x1) + 2, int(y1) + 2))
    return sum(
        1
        for y in range(part.height)
        if any(max(part.getpixel((x, y))) < 110 for x in range(part.width))
    )


@pytest.mark.parametrize("name", RULESETS)
def test_every_cell_label_reads_at_the_preview_width(name):
    for where, scene in positions(name):
        img, rec = drawn(scene)
        lay = rec.layout
        scale = PREVIEW_WIDTH / img.width
        preview = img.resize((PREVIEW_WIDTH, round(img.height * scale)), Image.Resampling.LANCZOS)
        hexes = lay.kind == "hex"
        if not rec.rulers:
            # a small map: its cell labels are big enough themselves
            assert lay.label_preview_px >= MIN_DIGIT_PREVIEW, where
            for label, box in rec.cell_labels.items():
                assert ink_rows(preview, box, scale) >= MIN_DIGIT_PREVIEW, f"{where}: label {label}"
            continue
        marks: dict = {}
        for edge, text, box in rec.rulers:
            marks.setdefault(edge, {})[text] = box
            assert ink_rows(preview, box, scale) >= MIN_DIGIT_PREVIEW, (
                f"{where}: {edge} ruler {text}"
            )
        # every cell's label is its column's mark above and below the map, level with its
        # column, and its row's mark on both sides, level with the rows of the first and last
        # column
        for label in rec.cell_labels:
            column, row = (label[:2], label[2:]) if hexes else (label[0], label[1:])
            x, y = renderer.cell_center(scene["grid"], label)
            for edge in ("top", "bottom"):
                box = marks[edge][column]
                assert abs((box[0] + box[2]) / 2 - x) < lay.cell * 0.3, f"{where}: {edge} {column}"
            assert row in marks["left"] and row in marks["right"], f"{where}: row {row}"
        first, last = lay.first_column + 1, lay.first_column + lay.columns
        edge_columns = {
            "left": f"{first:02d}" if hexes else chr(64 + first),
            "right": f"{last:02d}" if hexes else chr(64 + last),
        }
        for edge, column in edge_columns.items():
            assert len(marks[edge]) == lay.rows, f"{where}: {edge}"
            for row, box in marks[edge].items():
                y = renderer.cell_center(scene["grid"], column + row)[1]
                assert abs((box[1] + box[3]) / 2 - y) < lay.cell * 0.3, f"{where}: {edge} row {row}"


@pytest.mark.parametrize("name", RULESETS)
def test_every_side_is_in_the_legend(name):
    rules = registry.get_ruleset(name)
    for where, scene in positions(name):
        img, rec = drawn(scene)
        assert len(rec.legend) == len(scene["legend"]) >= len(rules.sides), where
        assert sorted(rec.legend) == sorted(entry["text"] for entry in scene["legend"]), where
        # and the PNG shows each: light letters on the dark header, its colour's swatch beside
        for entry in scene["legend"]:
            [box] = [b for kind, t, b in rec.texts if kind == "legend" and t == entry["text"]]
            letters = crop(img, box)
            assert sum(1 for p in letters if min(p) > 200) >= 3 * len(entry["text"]), where
            height = box[3] - box[1]
            swatch = crop(img, (box[0] - 2.2 * height, box[1], box[0], box[3]))
            colour = _colour(entry["color"])
            assert any(max(abs(a - b) for a, b in zip(p, colour)) < 30 for p in swatch), where


@pytest.mark.parametrize("name", WITH_KEY_AND_LOSSES)
def test_lost_units_are_drawn_per_side_in_their_colour(name):
    rules = registry.get_ruleset(name)
    lost = [
        (where, scene)
        for where, scene in positions(name, LOSSES_SEED)
        if any(entry["units"] for entry in scene.get("losses", []))
    ]
    assert lost, f"{name}: the seeded game lost no unit; pick another seed"
    where, scene = lost[-1]
    assert len(scene["losses"]) == len(rules.sides)
    img, rec = drawn(scene)
    for entry in scene["losses"]:
        shown = [unit for side, unit in rec.losses if side == entry["text"]]
        assert shown == entry["units"], where
    colour = tuple(int(scene["losses"][0]["color"][i : i + 2], 16) for i in (1, 3, 5))
    chips = [box for kind, text, box in rec.texts if kind == "loss"]
    assert chips
    for box in chips:
        pixels = crop(img, box)
        side_coloured = sum(1 for p in pixels if max(abs(a - b) for a, b in zip(p, colour)) < 30)
        others = [tuple(int(e["color"][i : i + 2], 16) for i in (1, 3, 5)) for e in scene["losses"]]
        assert side_coloured or any(
            sum(1 for p in pixels if max(abs(a - b) for a, b in zip(p, c)) < 30) for c in others
        ), where


def _side_colours(name, scene) -> dict:
    found = {entry["text"]: entry["color"] for entry in scene["legend"]}
    found.update({f"counter {p['id']}": p["color"] for p in scene.get("pieces", [])})
    if name == "pocket-tactics":
        rules = registry.get_ruleset(name)
        found.update({f"faction {k}": f["color"] for k, f in rules.cat.factions.items()})
    return found


@pytest.mark.parametrize("name", RULESETS)
def test_terrain_and_side_colours_stay_apart_also_with_colour_blindness(name):
    terrain, sides = {}, {}
    for where, scene in positions(name):
        terrain.update(
            {
                f"{c.get('at')} {c.get('fill')}": c["fill"]
                for c in scene.get("cells", [])
                if c.get("fill")
            }
        )
        terrain.update({k["text"]: k["color"] for k in scene.get("terrain_key", [])})
        sides.update(_side_colours(name, scene))
    terrain = {fill: fill for fill in terrain.values()}
    sides = {
        colour: colour for colour in sides.values() if colour.lower() not in ("#555555", "#999999")
    }
    assert terrain and len(sides) >= 2
    closest = colours.closest_pairs(terrain, sides)[0]
    assert closest[0] >= MIN_TERRAIN_SIDE_DISTANCE, (
        f"{name}: terrain {closest[1]} and side {closest[2]} "
        f"are only {closest[0]:.1f} apart with {closest[3]} vision"
    )


@pytest.mark.parametrize("name", WITH_KEY_AND_LOSSES)
def test_the_terrain_key_names_the_map_s_fills(name):
    where, scene = positions(name)[-1]
    key = scene.get("terrain_key") or []
    assert key, where
    keyed = {k["color"].lower() for k in key}
    fills = {c["fill"].lower() for c in scene.get("cells", []) if c.get("fill")}
    features = {
        c["fill"].lower() for c in scene.get("cells", []) if c.get("icon") and c.get("text")
    }
    assert fills - features <= keyed, (
        f"{where}: fills without a key entry: {sorted(fills - features - keyed)}"
    )
    img, rec = drawn(scene)
    shown = [(t, box) for kind, t, box in rec.texts if kind == "key"]
    assert [t for t, _ in shown] == [k["text"] for k in key]
    # a long key wraps instead of shrinking: every name reads at a phone's width, inside the
    # picture, none over another, and the PNG shows it (dark letters on the light footer)
    for text, box in shown:
        assert (box[3] - box[1]) / 1.2 >= MIN_KEY_PHONE_PX * img.width / closeup.PHONE_WIDTH, (
            f"{where}: the key's {text!r} is too small"
        )
        assert 0 <= box[0] and box[2] <= img.width, f"{where}: {text!r} leaves the picture"
        assert sum(1 for p in crop(img, box) if max(p) < 90) >= 2 * len(text), text
    for i, (text, box) in enumerate(shown):
        for other, other_box in shown[i + 1 :]:
            assert not _overlap(box, other_box), f"{where}: {text!r} and {other!r}"


def test_colour_blindness_simulation_matches_known_values():
    # pure red looks dark olive with protanopia and pure blue stays blue-ish with deuteranopia;
    # greys are unchanged (the matrices' rows sum to 1)
    r, g, b = colours.simulate("#ff0000", "protanopia")
    assert r < 120 and g < 120 and b < 20
    assert colours.simulate("#808080", "deuteranopia") == pytest.approx((128, 128, 128), abs=1)
    assert colours.simulate("#0000ff", "deuteranopia")[2] > 200
    assert colours.delta_e("#ffffff", "#000000") == pytest.approx(100, abs=0.1)
    # the complaint of the issue: South's red and the old lava fill were 5.5 apart for deuteranopes
    assert colours.delta_e("#b5412e", "#c0563b", "deuteranopia") < 8


def test_rivet_wars_dice_are_separate_values_gas_dice_sit_at_the_cloud_and_losses_are_kept():
    from tests.rivetwars.util import RS, act, make, unit

    state = make(units=[unit("rifleman", "E9", id="r"), unit("panzerfaust", "E5", id="p")])
    state, events = act(state, "attack", dice=[5, 2], unit="r", to="E5")
    scene = RS.scene(state, events, None)
    [arrow] = [a for a in scene["arrows"] if a["kind"] == "attack"]
    assert arrow["text"].endswith(": 5 2 hit")  # never "52"
    lost = {entry["text"]: entry["units"] for entry in scene["losses"]}
    assert lost["Allies lost:"] == [] and len(lost["Bismark lost:"]) == 1
    cloud = {
        "type": "attack",
        "by": "gas cloud at C3",
        "target": "r",
        "dice": [6, 1],
        "precision": 0,
        "hit": False,
        "kind": "gas",
    }
    with_gas = RS.scene(state, [*events, cloud], None)
    assert [a["text"] for a in with_gas["arrows"] if a["kind"] == "attack"] == [arrow["text"]]
    assert with_gas["labels"] == [{"at": "C3", "text": "gas: 6 1 miss", "color": "#5b7f12"}]
    _, rec = renderer.render_with_layout(with_gas)
    assert "gas: 6 1 miss" in [text for kind, text, _ in rec.texts if kind == "attack"]


def test_rivet_wars_plug_ins_get_a_line_of_their_own_on_the_counter():
    from tests.rivetwars.util import RS, make, unit

    state = make(
        units=[
            unit("wolverine", "E5", id="w", plugins=["patston"]),
            unit("wolverine", "I5", id="v"),
        ]
    )
    scene = RS.scene(state, [], None)
    pieces = {p["id"]: p for p in scene["pieces"]}
    # Same counter label, told apart by a number (issue 15); the plug-in goes on its own line.
    assert pieces["w"]["title"] != pieces["v"]["title"]
    assert pieces["w"]["title"].rsplit(" ", 1)[0] == pieces["v"]["title"].rsplit(" ", 1)[0]
    assert "subtitle" not in pieces["v"]
    assert pieces["w"]["subtitle"].startswith("+") and "…" not in pieces["w"]["subtitle"]
    img, rec = drawn(scene)
    boxes = dict(rec.counters)

    def white_in_middle(box):
        height = box[3] - box[1]
        band = (box[0] + 4, box[1] + height * 0.38, box[2] - 4, box[1] + height * 0.54)
        return sum(1 for p in crop(img, band) if min(p) > 200)

    assert (
        white_in_middle(boxes["w"]) > 10
        and white_in_middle(boxes["v"]) < white_in_middle(boxes["w"]) / 3
    )


def test_tenochtitlan_ranged_counters_show_their_range_in_a_white_corner_disc():
    from tests.tenochtitlan.helpers import RULES, build

    state = build(
        {
            "units": {
                "a": {"type": "sp-artillery", "at": "1119"},
                "i": {"type": "sp-infantry", "at": "0305"},
            }
        }
    )
    scene = RULES.scene(state, [], None)
    pieces = {p["id"]: p for p in scene["pieces"]}
    assert pieces["a"]["badge"] == "5" and pieces["a"]["badge_color"] == "#ffffff"
    assert "badge" not in pieces["i"]  # range 1: nothing to read
    img, rec = drawn(scene)
    boxes = dict(rec.counters)

    def corner(pid):
        x0, y0, x1, y1 = boxes[pid]
        k = x1 - x0
        return crop(img, (x1 - 0.22 * k, y0 + 0.06 * k, x1 - 0.06 * k, y0 + 0.22 * k))

    disc = corner("a")
    assert sum(1 for p in disc if min(p) > 220) >= len(disc) * 0.3, "no white disc"
    assert sum(1 for p in disc if max(p) < 90) >= 2, "no range digit on the disc"
    plain = corner("i")
    assert sum(1 for p in plain if min(p) > 220) < len(plain) * 0.1


# Words a German reader must find in each game's picture (header fields, sides, terrain key,
# the losses lines), and English picture words that must be gone.
GERMAN_WORDS = {
    "tenochtitlan": [
        "Spielzug",
        "Spanier",
        "Azteken",
        "verloren:",
        "Gelände",
        "Nachziehstapel",
        "Tlacopan-Tor",
    ],
    "rivet-wars": ["Runde", "Alliierte", "Niemandsland", "Laufrost", "verloren:", "Siegpunkte"],
    "pocket-tactics": ["Zug", "Nord", "Süd", "verloren:", "Reserve"],
    "tactical-table-war": ["Runde", "Rot", "Blau", "Schatzkammer", "Ebene", "verloren:"],
}
ENGLISH_PICTURE_WORDS = frozenset(
    "Turn Round Active Card Used Waiting Treasury lost: Decks Held Supply Plain Clear Walkway "
    "Spanish Aztec Allies North South Red Blue hit miss eliminated retreat killed held tie "
    "destroyed Gate Market Precinct Springs Dock".split()
)


def _outcomes(scene) -> set:
    texts = [a.get("text", "") for a in scene.get("arrows", [])]
    texts += [label.get("text", "") for label in scene.get("labels", [])]
    return {w.strip(":,") for text in texts for w in text.split()}


@pytest.mark.parametrize("name", IN_GERMAN)
def test_a_german_reader_s_picture_is_drawn_in_german(name):
    english = positions(name)
    for k, (where, scene) in enumerate(positions(name, SEED, "de")):
        img, rec = drawn(scene)
        shown = [text for kind, text, box in rec.texts]
        words = {w for text in shown for w in text.split()}
        missing = [w for w in GERMAN_WORDS[name] if w not in words and w not in " ".join(shown)]
        assert not missing, f"{where}: not drawn: {missing}"
        left = sorted(words & ENGLISH_PICTURE_WORDS)
        assert not left, f"{where}: English words drawn: {left}"
        assert not _outcomes(scene) & ENGLISH_PICTURE_WORDS, where
        # the same position in English draws the English words: the language is the only change
        en_shown = " ".join(t for _, t, _ in drawn(english[k][1])[1].texts)
        assert "lost:" in en_shown and "verloren:" not in en_shown, english[k][0]
        # and the PNG carries them: the losses line's words are dark ink on the light footer
        for kind, text, box in rec.texts:
            if kind == "lost":
                assert text.endswith("verloren:"), where
                ink = crop(img, box)
                assert sum(1 for p in ink if max(p) < 90) >= len(text) * 3, f"{where}: {text}"


GERMAN_OUTCOMES = {
    "tenochtitlan": {"keine Wirkung", "Rückzug", "eliminiert"},
    "rivet-wars": {"Treffer", "kein Treffer"},
    "pocket-tactics": {"Treffer", "kein Treffer", "Kampf läuft", "Angriff gescheitert"},
    "tactical-table-war": {"besiegt", "Gleichstand", "hält stand", "zerstört"},
}


@pytest.mark.parametrize("name", IN_GERMAN)
def test_attack_labels_are_german_for_a_german_reader(name):
    """Every attack label of the seeded game's turns, drawn for a German reader, says what
    happened in German (and its dice stay separate numbers)."""
    rules = registry.get_ruleset(name)
    frames = _frames(name, SEED)
    checked = 0
    for index in range(0, len(frames), 3):
        state, events = frames[index]
        scene = rules.scene(state, events, None, lang="de")
        texts = [a["text"] for a in scene.get("arrows", []) if a.get("text")]
        texts += [label["text"] for label in scene.get("labels", [])]
        for text in texts:
            assert not _outcomes({"labels": [{"text": text}]}) & ENGLISH_PICTURE_WORDS, text
            if any(word in text for word in GERMAN_OUTCOMES[name]):
                checked += 1
        if checked >= 3:
            break
    assert checked, f"{name}: no attack label in the seeded game"


def test_the_map_layer_is_cached_per_language():
    """Place names are part of the cached map layer: a German picture of a map drawn in English
    before must not reuse the English names (Tenochtitlan's Texcoco-See, Heiliger Bezirk)."""
    renderer.clear_cache()
    quiet = lambda scene: {k: v for k, v in scene.items() if k != "arrows"}  # noqa: E731
    where, scene = positions("tenochtitlan")[0]
    _, english = renderer.render_with_layout(quiet(scene))
    _, german = renderer.render_with_layout(quiet(positions("tenochtitlan", SEED, "de")[0][1]))
    assert english.close_up is None and german.close_up is None  # no turn's action: no close-up
    names_en = {t for kind, t, _ in english.texts if kind == "name"}
    names_de = {t for kind, t, _ in german.texts if kind == "name"}
    assert "Chapultepec Springs" in names_en and "Chapultepec-Quellen" in names_de, where
    assert renderer.cache_info()["static_builds"] == 2, "one map layer per language"


def _colour(hex_colour: str) -> tuple:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("name", RULESETS)
def test_counter_factors_read_at_a_phone_s_width(name):
    """Every lone counter's factors are at least FACTOR_PHONE_PX tall when the picture is
    shown PHONE_WIDTH wide: on the map itself, or, where the map is too large for that, in
    the close-up of the turn's action under it."""
    closed = 0
    for where, scene in positions(name):
        img, rec = drawn(scene)
        need = closeup.FACTOR_PHONE_PX
        lone = rec.layout.counter_side * 0.9
        on_map = {
            pid: closeup.phone_px(size, img.width)
            for pid, size, box in rec.factors
            if box[2] - box[0] >= lone
        }
        if all(px >= need for px in on_map.values()):
            assert rec.close_up is None, f"{where}: a close-up the map does not need"
            continue
        action = [a for a in scene.get("arrows", []) if a.get("path")]
        if not action and not scene.get("labels"):
            assert rec.close_up is None, where
            continue
        assert rec.close_up is not None, (
            f"{where}: factors {min(on_map.values()):.1f} px, no close-up"
        )
        closed += 1
        part = rec.close_up["drawn"]
        # lone counters; two to four in a cell are quarter-size there too (see rendering.md)
        lone = part.layout.counter_side * 0.9
        shown = {
            pid: closeup.phone_px(size, img.width)
            for pid, size, box in part.factors
            if box[2] - box[0] >= lone
        }
        assert shown, f"{where}: the close-up shows no counter"
        small = {pid: round(px, 1) for pid, px in shown.items() if px < need}
        assert not small, f"{where}: factors too small in the close-up: {small}"
        # nothing a player reads in it lies under something else
        readable = [(k, t, b) for k, t, b in part.texts if k in ("name", "attack")]
        for i, (kind, text, box) in enumerate(readable):
            for pid, counter in part.counters:
                assert not _overlap(box, counter), f"{where}: close-up {text!r} under {pid}"
            for other in readable[i + 1 :]:
                assert not _overlap(box, other[2]), f"{where}: close-up {text!r}, {other[1]!r}"
        for label, box in part.cell_labels.items():
            for pid, counter in part.counters:
                assert not _overlap(box, counter), f"{where}: close-up {pid} covers {label}"
        # it lies under the whole map, inside the picture, above the terrain key and losses
        left, top, right, bottom = rec.close_up["box"]
        lay = rec.layout
        assert 0 <= left and right <= img.width and bottom <= img.height, where
        assert top >= lay.origin_y + lay.map_height, where
        for kind, text, box in rec.texts:
            if kind in ("key", "lost", "loss"):
                assert box[1] >= bottom, f"{where}: {kind} {text!r} is not under the close-up"
        # beside it the panel is plain: nothing of the band that moved down is left there
        for side in ((0, top, left, bottom), (right, top, img.width, bottom)):
            if side[2] - side[0] >= 1:
                plain = crop(img, side)
                off = [
                    p for p in plain if max(abs(a - b) for a, b in zip(p, closeup.CLOSE_UP_BG)) > 12
                ]
                assert not off, f"{where}: {len(off)} stray pixels beside the close-up"
        # and the PNG shows its counters: their colour fills their box
        pieces = {str(p.get("id")): p for p in rec.close_up["scene"]["pieces"]}
        for pid, box in part.counters:
            colour = _colour(pieces[pid]["color"])
            pixels = crop(img, box)
            near = sum(1 for p in pixels if max(abs(a - b) for a, b in zip(p, colour)) < 40)
            assert near >= len(pixels) * 0.25, f"{where}: counter {pid} is not in the close-up"
    if name in ("tenochtitlan", "siege"):
        assert closed, f"{name}: the largest maps' pictures got no close-up"


def test_the_close_up_holds_the_turn_s_attack_and_speaks_the_scene_s_language():
    def piece(at, pid, colour):
        return {"at": at, "id": pid, "color": colour, "title": pid, "values": "2-4-3"}

    scene = {
        "map_key": "test/close-up",
        "grid": {"kind": "hex", "columns": 24, "rows": 20},
        "pieces": [
            piece("1010", "Inf 1", "#a3241c"),
            piece("1111", "War 2", "#17405a"),
            piece("2002", "Cav 3", "#a3241c"),
        ],
        "arrows": [
            {"path": ["1110", "1111"], "kind": "attack", "text": "3+⚃4=7 vs 5: retreat"},
            {"path": ["0808", "0909", "1009", "1010"], "kind": "move"},
        ],
    }
    img, rec = drawn(scene)
    assert rec.close_up is not None
    part = rec.close_up["drawn"]
    assert {"1010", "1111", "1110"} <= set(part.cell_labels)
    assert "2002" not in part.cell_labels
    assert [t for k, t, _ in part.texts if k == "attack"] == ["3+⚃4=7 vs 5: retreat"]
    # the move that began outside the window is drawn from where it enters it
    moves = [a["path"] for a in rec.close_up["scene"]["arrows"] if a.get("kind") == "move"]
    assert moves and moves[0][-1] == "1010" and all(c in part.cell_labels for c in moves[0])
    assert ("caption", closeup.CAPTION["en"]) in [(k, t) for k, t, _ in rec.texts]
    _, german = drawn({**scene, "lang": "de"})
    assert ("caption", "Ausschnitt dieses Zuges") in [(k, t) for k, t, _ in german.texts]
    # without any action there is nothing to show close up
    assert drawn({**scene, "arrows": []})[1].close_up is None


def test_an_attack_and_the_answer_along_the_same_line_get_labels_apart():
    """Tactical Table War, seed 2: 1001 attacks 1101 and 1101 strikes back along the same line.
    Both results are read, neither label covers the other or a counter."""
    rules = registry.get_ruleset("tactical-table-war")
    state, events = _frames("tactical-table-war", LOSSES_SEED)[140]
    scene = rules.scene(state, events, None)
    texts = {a["text"] for a in scene["arrows"] if a.get("kind") == "attack"}
    assert texts == {"4 vs 10: held", "7 vs 5: killed"}
    img, rec = drawn(scene)
    for part in (rec, rec.close_up["drawn"]):
        boxes = [(text, box) for kind, text, box in part.texts if kind == "attack"]
        assert sorted(text for text, _ in boxes) == sorted(texts)
        assert not _overlap(boxes[0][1], boxes[1][1]), boxes
        for text, box in boxes:
            for pid, counter in part.counters:
                assert not _overlap(box, counter), f"{text!r} covers counter {pid}"
    # and the PNG shows both: dark words on white boxes
    for text, box in [(t, b) for k, t, b in rec.texts if k == "attack"]:
        pixels = crop(img, box)
        assert sum(1 for p in pixels if max(p) < 90) >= len(text) * 6, text


def test_a_dice_label_in_a_crowded_corner_finds_a_free_spot():
    """Tactical Table War, seed 4: a shot from 0202 to 0106 lands among counters, castle and
    outpost outlines and their names. Its label goes where it hides none of them (before, it
    sat on a counter), joined to its arrow by a leader line."""
    rules = registry.get_ruleset("tactical-table-war")
    state, events = _frames("tactical-table-war", SEED)[295]
    scene = rules.scene(state, events, None)
    assert [a["path"] for a in scene["arrows"] if a.get("kind") == "attack"] == [["0202", "0106"]]
    img, rec = drawn(scene)
    [(text, box)] = [(t, b) for k, t, b in rec.texts if k == "attack"]
    lay = rec.layout
    for pid, counter in rec.counters:
        assert not _overlap(box, counter), f"{text!r} covers counter {pid}"
    for kind, other, where in rec.texts:
        assert kind == "attack" or not _overlap(box, where), f"{text!r} covers {kind} {other!r}"
    for objective in scene["objectives"]:
        for side in outline_boxes(lay, lay.parse(objective["at"])):
            assert not _overlap(box, side), f"{text!r} hides the outline at {objective['at']}"
    [(start, end)] = rec.leaders
    assert start != end  # moved off the arrow, so a leader line shows where it belongs
    assert sum(1 for p in crop(img, box) if max(p) < 90) >= len(text) * 6


def test_tenochtitlan_s_german_summary_names_the_places_as_the_german_picture_does():
    """A German player reads the goals in the summary and looks for them on the picture: the
    objectives' names must be the ones drawn there (not "Sacred Precinct", "Dock Area")."""
    rules = registry.get_ruleset("tenochtitlan")
    where, scene = positions("tenochtitlan", SEED, "de")[0]
    _, rec = drawn(scene)
    names = {text for kind, text, _ in rec.texts if kind == "name"}
    goals = [o["name"] for o in scene["objectives"]]
    assert {"Heiliger Bezirk", "Hafen"} <= set(goals)
    summary = rules.rules_summary("de")
    for goal in goals:
        assert goal in names, f"{where}: {goal} is not drawn"
        assert goal in summary, f"the German summary does not name {goal}"
