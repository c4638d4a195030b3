"""The renderer, checked by opening its pictures and looking at pixels where things should be."""

from __future__ import annotations

import io
import threading

import pytest
from PIL import Image

import renderer
from engine.core.dice import fixed
from renderer import SceneError, cell_center, layout_for
from tests.fixtures.skirmish import Skirmish

from . import scenes

RED = (192, 57, 43)
BLUE = (46, 134, 193)
FIELD = "#a9c47f"


def png_image(scene, **kw) -> Image.Image:
    data = renderer.render_png(scene, **kw)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(a, b, tol=24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def hex_scene(key="t/hex", **extra) -> dict:
    scene = {
        "map_key": key,
        "grid": {"kind": "hex", "columns": 8, "rows": 6},
        "cells": [{"at": lab, "fill": FIELD} for lab in scenes.hex_labels(8, 6)],
    }
    scene.update(extra)
    return scene


def piece(at, colour="#c0392b", **kw):
    return {
        "at": at,
        "id": at,
        "color": colour,
        "text_color": "#ffffff",
        "title": "Cav",
        "values": "3-2-4",
        **kw,
    }


def pixels(img, box) -> list:
    part = img.crop(tuple(round(v) for v in box))
    flat = getattr(part, "get_flattened_data", None)  # Pillow >= 12.1; getdata before
    return list(flat() if flat else part.getdata())


def test_piece_side_colour_at_its_hex_centre():
    scene = hex_scene(pieces=[piece("0304"), piece("0605", "#2e86c1")])
    img = png_image(scene)
    lay = layout_for(scene["grid"])
    for label, colour in (("0304", RED), ("0605", BLUE)):
        x, y = cell_center(scene["grid"], label)
        # between the title and the factors the counter shows its bare side colour
        assert close(
            img.getpixel((round(x - lay.cell * 0.4), round(y - lay.cell * 0.12))), colour
        ), label
    x, y = cell_center(scene["grid"], "0505")
    assert close(img.getpixel((round(x), round(y))), (169, 196, 127))  # empty hex: terrain


def test_even_columns_sit_half_a_hex_lower():
    grid = {"kind": "hex", "columns": 4, "rows": 4}
    (x1, y1), (x2, y2) = cell_center(grid, "0101"), cell_center(grid, "0201")
    cell = layout_for(grid).cell
    assert x2 > x1 and y2 - y1 == pytest.approx(cell * 3**0.5 / 2)


def test_flipped_counter_looks_different_from_its_front():
    front = png_image(hex_scene("t/flip", pieces=[piece("0303")]))
    back = png_image(hex_scene("t/flip", pieces=[piece("0303", flipped=True)]))
    scene = hex_scene()
    lay = layout_for(scene["grid"])
    x, y = cell_center(scene["grid"], "0303")
    half = lay.cell * 0.5
    box = (x - half, y - half, x + half, y + half)
    a, b = list(pixels(front, box)), list(pixels(back, box))
    changed = sum(1 for p, q in zip(a, b) if not close(p, q, 40))
    assert changed > len(a) * 0.4
    # the back is washed out: far fewer strongly red pixels
    red_front = sum(1 for p in a if close(p, RED, 30))
    red_back = sum(1 for p in b if close(p, RED, 30))
    assert red_back < red_front * 0.2
    # and carries a white diagonal band
    assert sum(1 for p in b if min(p) > 235) > len(b) * 0.1


def test_move_arrow_pixels_lie_between_its_ends():
    arrow = {"path": ["0202", "0203", "0204", "0205"], "color": "#ff00ff", "kind": "move"}
    img = png_image(hex_scene(arrows=[arrow]))
    grid = {"kind": "hex", "columns": 8, "rows": 6}
    (x0, y0), (x1, y1) = cell_center(grid, "0202"), cell_center(grid, "0205")
    hits = 0
    for t in (0.25, 0.4, 0.5, 0.6, 0.75):
        px, py = round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)
        hits += close(img.getpixel((px, py)), (255, 0, 255), 30)
    assert hits == 5
    magenta = [
        (x, y)
        for x in range(img.width)
        for y in range(0, img.height, 2)
        if close(img.getpixel((x, y)), (255, 0, 255), 30)
    ]
    assert magenta and all(abs(x - x0) < 25 and y0 - 25 < y < y1 + 25 for x, y in magenta)


def test_attack_arrow_is_straight_and_labelled_with_the_dice():
    attack = {"path": ["0202", "0605"], "color": "#00c000", "kind": "attack", "text": "3+⚄5=8 vs 4"}
    plain = png_image(hex_scene("t/att"))
    img = png_image(hex_scene("t/att", arrows=[attack]))
    grid = {"kind": "hex", "columns": 8, "rows": 6}
    (x0, y0), (x1, y1) = cell_center(grid, "0202"), cell_center(grid, "0605")
    green = [
        (x, y)
        for x in range(img.width)
        for y in range(img.height)
        if close(img.getpixel((x, y)), (0, 192, 0), 30)
    ]
    assert green
    # every green pixel sits near the straight line between the two hexes (or the label's frame)
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    near = [p for p in green if abs(dy * (p[0] - x0) - dx * (p[1] - y0)) / length < 30]
    assert len(near) > len(green) * 0.6
    # the label is a white box with dark text near the arrow's middle
    _, drawn = renderer.render_with_layout(hex_scene("t/att", arrows=[attack]))
    [box] = [b for kind, text, b in drawn.texts if kind == "attack" and text == "3+⚄5=8 vs 4"]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    cell = layout_for(grid).cell
    assert abs((box[0] + box[2]) / 2 - mx) < 3 * cell and abs((box[1] + box[3]) / 2 - my) < 3 * cell
    inside = pixels(img, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3))
    assert sum(1 for p in inside if min(p) > 240) > len(inside) * 0.4
    assert sum(1 for p in inside if max(p) < 60) > 30
    assert pixels(plain, box) != inside


def test_header_band_shows_the_header_text():
    scene = hex_scene(
        "t/head",
        title="Test game",
        header=[["Turn", "3 / 24"], ["Phase", "Combat"], ["Active", "Red"], ["Card", "Rain"]],
    )
    with_text = png_image(scene)
    without = png_image(hex_scene("t/head"))
    lay = layout_for(scene["grid"])
    band = (0, 0, lay.width, lay.header_height)
    bright = lambda im: sum(1 for p in pixels(im, band) if min(p) > 200)
    assert bright(without) == 0
    assert bright(with_text) > 300
    # the map starts below the band
    x, y = cell_center(scene["grid"], "0101")
    assert y - lay.cell > lay.header_height


def test_hex_label_is_printed_small_at_the_top_of_each_hex():
    scene = hex_scene("t/labels")
    img = png_image(scene)
    lay = layout_for(scene["grid"])
    x, y = cell_center(scene["grid"], "0403")
    top = (x - lay.cell * 0.45, y - lay.cell * 0.86, x + lay.cell * 0.45, y - lay.cell * 0.55)
    ink = [p for p in pixels(img, top) if max(p) < 120]
    assert len(ink) > 15
    middle = (x - lay.cell * 0.3, y - lay.cell * 0.2, x + lay.cell * 0.3, y + lay.cell * 0.2)
    assert not [p for p in pixels(img, middle) if max(p) < 120]


def test_objectives_are_outlined_in_their_controller_colour():
    scene = hex_scene(
        "t/obj",
        objectives=[
            {"at": "0303", "name": "Town", "owner": "red", "color": "#c0392b"},
            {"at": "0603", "name": "Hill"},
        ],
        pieces=[piece("0303", "#2e86c1")],
    )
    img = png_image(scene)
    lay = layout_for(scene["grid"])
    for label, colour in (("0303", RED), ("0603", (255, 255, 255))):
        x, y = cell_center(scene["grid"], label)
        # on the inset outline, left of the centre, beside any counter on the hex
        side = (x - lay.cell * 0.84, y - 3, x - lay.cell * 0.6, y + 3)
        assert any(close(p, colour, 30) for p in pixels(img, side)), label


def square_scene(**extra) -> dict:
    scene = {
        "map_key": "t/square",
        "grid": {"kind": "square", "columns": 8, "rows": 6},
        "cells": [{"at": f"{c}{r}", "fill": "#b3c28f"} for c in "ABCDEFGH" for r in range(1, 7)],
        "regions": [{"cells": ["A1", "B1", "A2", "B2"], "outline": "#000000", "width": 5}],
    }
    scene.update(extra)
    return scene


def test_square_cells_are_where_their_labels_say():
    grid = {"kind": "square", "columns": 8, "rows": 6}
    lay = layout_for(grid)
    (ax, ay), (bx, by), (cx, cy) = (
        cell_center(grid, "A1"),
        cell_center(grid, "B1"),
        cell_center(grid, "A2"),
    )
    assert bx - ax == pytest.approx(lay.cell) and by == ay
    assert cy - ay == pytest.approx(lay.cell) and cx == ax
    img = png_image(square_scene(pieces=[piece("C4", "#2e86c1")]))
    x, y = cell_center(grid, "C4")
    # the counter sits right of and below the square's label
    assert close(img.getpixel((round(x - lay.cell * 0.14), round(y + lay.cell * 0.06))), BLUE)
    x, y = cell_center(grid, "D4")
    assert close(img.getpixel((round(x), round(y))), (179, 194, 143))


def test_segment_border_is_thicker_than_the_square_grid():
    img = png_image(square_scene())
    grid = {"kind": "square", "columns": 8, "rows": 6}
    lay = layout_for(grid)

    def dark_run(x, y0):  # dark pixels along a vertical cut at x
        return sum(
            1
            for y in range(round(y0 - lay.cell * 0.3), round(y0 + lay.cell * 0.3))
            for dx in range(-8, 9)
            if max(img.getpixel((round(x) + dx, y))) < 80
        )

    ax, ay = cell_center(grid, "A1")
    segment_side = ax + lay.cell * 1.5  # right side of the 2x2 segment A1:B2
    plain_side = ax + lay.cell * 2.5  # between C1 and D1
    assert dark_run(segment_side, ay) > 3 * max(1, dark_run(plain_side, ay))


def test_static_layer_is_drawn_once_per_map_key():
    renderer.clear_cache()
    scene = hex_scene("t/cache-once", pieces=[piece("0101")])
    renderer.render_png(scene)
    first = renderer.cache_info()["static_builds"]
    moved = hex_scene("t/cache-once", pieces=[piece("0202")])
    renderer.render_png(moved)
    renderer.render_png(moved)
    info = renderer.cache_info()
    assert first == 1 and info["static_builds"] == 1 and info["static_hits"] == 2
    renderer.render_png(hex_scene("t/cache-other"))
    assert renderer.cache_info()["static_builds"] == 2


def test_the_close_ups_of_many_turns_do_not_push_the_map_layer_out():
    # Each turn's close-up shows another window of the map, drawn as a layer of its own; a
    # turn later the whole map's layer must still be there (it is far dearer to draw).
    renderer.clear_cache()
    scene = scenes.large_hex_scene(map_key="t/closeups")
    cells = [c["at"] for c in scene["cells"]]
    for turn in range(8):
        at, to = cells[turn * 131], cells[turn * 131 + 1]
        attack = {"path": [at, to], "kind": "attack", "text": f"{turn + 1} hit"}
        _, drawn = renderer.render_with_layout(dict(scene, arrows=[attack]))
        assert drawn.close_up is not None
    info = renderer.cache_info()
    assert info["static_builds"] == 1 and info["static_hits"] >= 7
    assert info["close_up_builds"] == 8


def test_a_close_up_is_drawn_on_a_layer_of_its_own_each_time_and_the_picture_stays_the_same():
    # close-up layers are not kept (their window moves every turn): each picture draws its
    # own and draws on it, so a board drawn again must still come out byte for byte the same
    renderer.clear_cache()
    scene = scenes.large_hex_scene(map_key="t/closeup-again")
    cells = [c["at"] for c in scene["cells"]]
    board = dict(scene, arrows=[{"path": [cells[262], cells[263]], "kind": "attack"}])
    assert renderer.render_with_layout(board)[1].close_up is not None
    first = renderer.render_png(board)
    assert renderer.render_png(board) == first == _fresh_png(board)
    renderer.render_png(board)
    assert renderer.cache_info()["close_up_builds"] == 2  # since the cache was emptied: both drawn


def test_map_layers_are_kept_within_a_byte_budget(monkeypatch):
    from renderer import render as core

    renderer.clear_cache()
    monkeypatch.setattr(core, "STATIC_BYTES", 10 << 20)
    monkeypatch.setattr(core.STATIC, "max_bytes", core.STATIC_BYTES)
    for k in range(5):  # 40x30 hexes: about 3 MB a kept layer
        renderer.render_png(scenes.large_hex_scene(map_key=f"t/budget-{k}"))
        assert 0 < renderer.cache_info()["static_bytes"] <= core.STATIC_BYTES
    small = hex_scene("t/budget-small")
    renderer.render_png(small)
    renderer.render_png(small)
    info = renderer.cache_info()
    assert info["static_builds"] == 6 and info["static_bytes"] <= core.STATIC_BYTES
    assert info["static_cached"] >= 2  # the small map's layer beside the newest big ones


def test_the_layers_a_new_map_layer_pushes_out_are_dropped_before_it_is_drawn(monkeypatch):
    # a worker should never hold the whole budget of layers and a new big layer at once
    from renderer import render as core

    renderer.clear_cache()
    budget = 10 << 20
    monkeypatch.setattr(core.STATIC, "max_bytes", budget)
    held = []
    kept_alone = core._indexed_layer

    def indexed_layer(img):  # only a map layer that is kept comes here, not a close-up's
        held.append(core.STATIC.bytes)  # what the cache still holds while it is drawn
        return kept_alone(img)

    monkeypatch.setattr(core, "_indexed_layer", indexed_layer)
    for k in range(5):  # 40x30 hexes: about 3 MB a kept layer, three fit in 10 MB
        renderer.render_png(scenes.large_hex_scene(map_key=f"t/room-{k}"))
    layer = core.STATIC.bytes // len(core.STATIC)
    assert len(held) == 5 and held[:3] == [0, layer, 2 * layer]
    assert all(before + layer <= budget for before in held)
    assert renderer.cache_info()["static_cached"] == budget // layer == 3


def test_concurrent_renders_build_the_layer_once_and_agree():
    renderer.clear_cache()
    scene = hex_scene("t/threads", pieces=[piece("0303")])
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(renderer.render_png(scene)))
        for _ in range(6)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 6 and len(set(results)) == 1
    assert renderer.cache_info()["static_builds"] == 1


def test_several_pieces_share_a_cell_in_its_quarters():
    scene = hex_scene("t/stack", pieces=[piece("0303", slot=0), piece("0303", "#2e86c1", slot=3)])
    img = png_image(scene)
    lay = layout_for(scene["grid"])
    x, y = cell_center(scene["grid"], "0303")
    off = lay.cell * 0.335
    tl = pixels(img, (x - off - 8, y - off - 8, x - off + 8, y - off + 8))
    br = pixels(img, (x + off - 8, y + off - 8, x + off + 8, y + off + 8))
    assert any(close(p, RED) for p in tl) and not any(close(p, BLUE) for p in tl)
    assert any(close(p, BLUE) for p in br) and not any(close(p, RED) for p in br)


def test_markers_and_damage_badge_are_drawn():
    base = hex_scene("t/mark", pieces=[piece("0303")])
    plain = png_image(base)
    marked = png_image(
        dict(
            base,
            markers=[
                {"at": "0303", "kind": "flag", "color": "#00ff00"},
                {"at": "0505", "kind": "gas"},
                {"at": "0606", "kind": "highlight", "color": "#ffd400"},
            ],
        )
    )
    lay = layout_for(base["grid"])
    x, y = cell_center(base["grid"], "0303")
    # beside the counter, clear of the label above it
    corner = (x + lay.cell * 0.5, y - lay.cell * 0.3, x + lay.cell * 0.95, y + lay.cell * 0.2)
    assert any(close(p, (0, 255, 0), 40) for p in pixels(marked, corner))
    x, y = cell_center(base["grid"], "0606")
    edge = (x - lay.cell - 4, y - 4, x - lay.cell * 0.8, y + 4)
    assert any(close(p, (255, 212, 0), 40) for p in pixels(marked, edge))
    x, y = cell_center(base["grid"], "0505")
    gas_box = (x - lay.cell * 0.6, y - lay.cell * 0.6, x + lay.cell * 0.6, y + lay.cell * 0.6)
    assert list(pixels(marked, gas_box)) != list(pixels(plain, gas_box))
    damaged = png_image(hex_scene("t/mark", pieces=[piece("0303", badge="2")]))
    x, y = cell_center(base["grid"], "0303")
    badge = (x + lay.cell * 0.2, y - lay.cell * 0.62, x + lay.cell * 0.62, y - lay.cell * 0.2)
    assert sum(1 for p in pixels(damaged, badge) if close(p, (214, 39, 40), 30)) > 20


def test_bad_scenes_are_refused_with_a_clear_message():
    with pytest.raises(SceneError, match="map_key"):
        renderer.render_png({"grid": {"kind": "hex", "columns": 2, "rows": 2}})
    with pytest.raises(SceneError, match="outside"):
        renderer.render_png(hex_scene("t/bad", pieces=[piece("0909")]))
    with pytest.raises(SceneError, match="pieces\\[0\\]"):
        renderer.render_png(hex_scene("t/bad", pieces=[piece("77")]))
    with pytest.raises(SceneError, match="marker kind"):
        renderer.render_png(hex_scene("t/bad", markers=[{"at": "0101", "kind": "laser"}]))
    with pytest.raises(SceneError, match="share no side"):
        renderer.render_png(hex_scene("t/bad2", edges=[{"at": "0101", "to": "0303"}]))
    with pytest.raises(SceneError, match="icon"):
        renderer.render_png(hex_scene("t/bad3", cells=[{"at": "0101", "icon": "dragon"}]))


def test_animation_has_one_frame_per_scene():
    frames = [hex_scene("t/anim", pieces=[piece(f"0{c}03")]) for c in range(1, 6)]
    data = renderer.render_animation(frames, duration_ms=500)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == 5
    gif.seek(0)
    assert gif.info["duration"] == 500


def test_fixture_game_scene_renders_with_pieces_at_their_hexes():
    rules = Skirmish()
    state, _ = rules.setup(rules.load_scenario("standard"), fixed([]))
    scene = rules.scene(state, [{"type": "moved", "from": "0103", "to": "0102"}], None)
    img = png_image(scene)
    lay = layout_for(scene["grid"])
    for unit in state["units"].values():
        x, y = cell_center(scene["grid"], unit["at"])
        colour = RED if unit["side"] == "red" else BLUE
        assert close(img.getpixel((round(x - lay.cell * 0.4), round(y - lay.cell * 0.12))), colour)


def test_large_map_png_stays_small():
    data = renderer.render_png(scenes.large_hex_scene())
    assert len(data) < 400 * 1024


def test_a_crowded_cell_shows_four_counters_and_how_many_more():
    crowded = [piece("0303", title=f"U{i}", values=f"{i}-1") for i in range(6)]
    img = png_image(hex_scene("t/crowd", pieces=crowded))
    grid = {"kind": "hex", "columns": 8, "rows": 6}
    lay = layout_for(grid)
    x, y = cell_center(grid, "0303")
    off = lay.cell * 0.335
    for sx, sy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        assert any(
            close(p, RED)
            for p in pixels(
                img, (x + sx * off - 6, y + sy * off - 6, x + sx * off + 6, y + sy * off + 6)
            )
        )
    # the two that do not fit are announced with a red "+2" in the middle
    assert any(close(p, (200, 0, 0), 40) for p in pixels(img, (x - 10, y - 10, x + 10, y + 10)))


def test_cells_omitted_draws_the_whole_grid_plain():
    img = png_image({"map_key": "t/plain", "grid": {"kind": "square", "columns": 3, "rows": 2}})
    for label in ("A1", "C2"):
        x, y = cell_center({"kind": "square", "columns": 3, "rows": 2}, label)
        assert close(img.getpixel((round(x), round(y))), (216, 211, 196), 6)


def test_without_dejavu_the_builtin_font_draws_everything(monkeypatch):
    from renderer import fonts

    monkeypatch.setattr(fonts, "_path", lambda bold: None)
    monkeypatch.setattr(fonts, "_local", threading.local())
    renderer.clear_cache()
    try:
        assert fonts.safe_text("3+⚄5") == "3+d55"
        scene = hex_scene(
            "t/nofont",
            title="Fallback",
            header=[["Turn", "1"]],
            pieces=[piece("0202")],
            arrows=[{"path": ["0202", "0303"], "kind": "attack", "text": "⚄5"}],
        )
        img = png_image(scene)
        x, y = cell_center(scene["grid"], "0202")
        lay = layout_for(scene["grid"])
        assert close(img.getpixel((round(x - lay.cell * 0.4), round(y - lay.cell * 0.12))), RED)
    finally:
        renderer.clear_cache()


def test_a_window_draws_only_part_of_a_large_label_space_at_the_same_size():
    # A map that grew around 0808 in a 15x15 label space: only the window is drawn, so the
    # picture is no larger than a map of the window's size and the cells fill it.
    labels = ["0707", "0708", "0807", "0808", "0809", "0908", "0909"]
    windowed = {
        "map_key": "t/window",
        "title": "Window",
        "grid": {"kind": "hex", "first_column": 7, "first_row": 7, "columns": 3, "rows": 3},
        "cells": [{"at": lab, "fill": FIELD} for lab in labels],
        "pieces": [piece("0808")],
    }
    small = layout_for({"kind": "hex", "columns": 3, "rows": 3})
    lay = layout_for(windowed["grid"])
    assert (lay.width, lay.height) == (small.width, small.height)
    img = png_image(windowed)
    assert img.size == (lay.width, lay.height)
    for label in labels:
        x, y = cell_center(windowed["grid"], label)
        assert 0 < x < lay.width and lay.header_height < y < lay.height, label
    # Absolute parity: column 08 (even) still sits half a hex lower than column 07.
    assert cell_center(windowed["grid"], "0807")[1] > cell_center(windowed["grid"], "0707")[1]
    x, y = cell_center(windowed["grid"], "0808")
    assert close(img.getpixel((round(x - lay.cell * 0.4), round(y - lay.cell * 0.12))), RED)
    with pytest.raises(SceneError, match="outside"):
        renderer.render_png({**windowed, "pieces": [piece("0101")]})


# ----- readable at a glance (issue 14) ------------------------------------------------------


def texts_of(record, kind):
    return [(text, box) for k, text, box in record.texts if k == kind]


def test_header_wraps_a_long_card_text_instead_of_cutting_it():
    card = (
        "Santiago!: move 4, attack 3; +1 to attacks with cavalry and a long tail of special rules"
    )
    scene = hex_scene(
        "t/wrap",
        title="A title",
        header=[["Turn", "3 / 24"], ["Card", card]],
        notes=["Decks: Spanish 3, Aztec 4", "Counters: attack-defence-movement"],
    )
    _, rec = renderer.render_with_layout(scene)
    words = [text for text, _ in texts_of(rec, "header")]
    assert "…" not in words
    assert (
        " ".join(words).split()
        == (
            "Turn 3 / 24 Card " + card + " Decks: Spanish 3, Aztec 4 "
            "Counters: attack-defence-movement"
        ).split()
    )
    lay = rec.layout
    assert all(box[3] <= lay.header_height for _, box in texts_of(rec, "header"))


def test_every_side_stays_in_the_legend_on_a_narrow_picture():
    legend = [
        {"color": "#a3241c", "text": "Spanish conquistadors"},
        {"color": "#d68910", "text": "Tlaxcalan allies"},
        {"color": "#17405a", "text": "Aztec"},
    ]
    scene = {
        "map_key": "t/narrow",
        "grid": {"kind": "hex", "columns": 3, "rows": 3},
        "title": "Siege of Tenochtitlan, the long title",
        "legend": legend,
        "header": [["Turn", "1"]],
    }
    img, rec = renderer.render_with_layout(scene)
    assert img.width == 480
    assert rec.legend and sorted(rec.legend) == sorted(e["text"] for e in legend)
    boxes = [box for kind, _, box in rec.texts if kind in ("legend", "title", "header")]
    for i, a in enumerate(boxes):
        assert 0 <= a[0] and a[2] <= img.width
        for b in boxes[i + 1 :]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])


def test_a_combined_attack_gets_one_label():
    text = "3+1+⚄5=9 vs 6: eliminated"
    arrows = [
        {"path": ["0202", "0404"], "kind": "attack", "text": text},
        {"path": ["0505", "0404"], "kind": "attack", "text": text},
    ]
    _, rec = renderer.render_with_layout(hex_scene("t/comb", arrows=arrows))
    assert [t for t, _ in texts_of(rec, "attack")] == [text]


def test_dice_labels_avoid_counters_and_each_other():
    pieces = [piece(lab) for lab in ("0303", "0304", "0403", "0404", "0503")]
    arrows = [
        {"path": ["0303", "0503"], "kind": "attack", "text": "rifle: 5 2 hit"},
        {"path": ["0304", "0404"], "kind": "attack", "text": "rockets: 4 4 6 miss"},
        {"path": ["0403", "0404"], "kind": "attack", "text": "mg: 1 1 miss"},
    ]
    _, rec = renderer.render_with_layout(hex_scene("t/dice", pieces=pieces, arrows=arrows))
    labels = texts_of(rec, "attack")
    assert len(labels) == 3
    for i, (_, a) in enumerate(labels):
        for _, c in rec.counters:
            assert min(a[2], c[2]) <= max(a[0], c[0]) or min(a[3], c[3]) <= max(a[1], c[1])
        for _, b in labels[i + 1 :]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])


def test_a_highlighted_place_without_a_tile_shows_its_label():
    scene = {
        "map_key": "t/grow",
        "grid": {"kind": "hex", "first_column": 7, "first_row": 7, "columns": 3, "rows": 3},
        "cells": [{"at": "0808", "fill": FIELD}],
        "markers": [{"at": "0807", "kind": "highlight", "color": "#ffff66"}],
    }
    img, rec = renderer.render_with_layout(scene)
    assert set(rec.cell_labels) == {"0808", "0807"}
    png = png_image(scene)
    ink = [p for p in pixels(png, rec.cell_labels["0807"]) if max(p) < 90]
    assert len(ink) > 10


def test_losses_and_the_terrain_key_go_under_the_map_without_moving_it():
    plain = hex_scene("t/foot", pieces=[piece("0303")])
    extra = dict(
        plain,
        terrain_key=[{"color": FIELD, "text": "Field"}, {"color": "#79addc", "text": "Lake"}],
        losses=[
            {"color": "#c0392b", "text": "Red lost:", "units": ["Cav 1", "Inf 2"]},
            {"color": "#2e86c1", "text": "Blue lost:", "units": []},
        ],
    )
    a, rec_a = renderer.render_with_layout(plain)
    b, rec_b = renderer.render_with_layout(extra)
    assert b.height > a.height and b.width == a.width
    assert rec_a.counters == rec_b.counters  # the map did not move
    assert rec_b.losses == [("Red lost:", "Cav 1"), ("Red lost:", "Inf 2")]
    assert [t for t, _ in texts_of(rec_b, "key")] == ["Field", "Lake"]
    png = Image.open(io.BytesIO(renderer.render_png(extra))).convert("RGB")
    for _, box in texts_of(rec_b, "loss"):
        assert box[1] > rec_b.layout.origin_y + rec_b.layout.map_height
        assert sum(1 for p in pixels(png, box) if close(p, RED, 20)) > 20


def test_deployment_icons_take_their_side_colour_and_stay_beside_the_counter():
    scene = square_scene(
        cells=[
            {"at": "C3", "fill": "#b3c28f", "icon": "deploy", "icon_color": "#c0392b"},
            {"at": "D3", "fill": "#b3c28f", "icon": "deploy", "icon_color": "#2e86c1"},
        ],
        pieces=[piece("C3", "#777777"), piece("D3", "#777777")],
    )
    img = png_image(scene)
    lay = layout_for(scene["grid"])
    for label, colour in (("C3", RED), ("D3", BLUE)):
        x, y = cell_center(scene["grid"], label)
        corner = (x + lay.cell * 0.15, y - lay.cell * 0.47, x + lay.cell * 0.47, y - lay.cell * 0.2)
        assert sum(1 for p in pixels(img, corner) if close(p, colour, 30)) > 5, label


def indexed_png(scene) -> Image.Image:
    return Image.open(io.BytesIO(renderer.render_png(scene)))


def counter_colour_at(img, scene, label) -> tuple:
    """The side colour between a lone counter's title and factors (as drawn: the counter is
    shrunk from a larger sprite, so within a few levels of the scene's colour)."""
    lay = layout_for(scene["grid"])
    x, y = cell_center(scene["grid"], label)
    return img.convert("RGB").getpixel((round(x - lay.cell * 0.4), round(y - lay.cell * 0.12)))


def test_pictures_of_one_map_share_its_palette_and_show_each_side_in_its_colour():
    renderer.clear_cache()
    few = hex_scene("t/palette", pieces=[piece("0304"), piece("0605", "#2e86c1")])
    labels = scenes.hex_labels(8, 6)
    # many more red counters: a palette chosen for this picture alone would differ
    many = hex_scene(
        "t/palette",
        pieces=[piece(lab) for lab in labels[:20]] + [piece("0605", "#2e86c1")],
    )
    first, second = indexed_png(few), indexed_png(many)
    assert first.mode == second.mode == "P"
    assert first.getpalette() == second.getpalette()
    for img, scene in ((first, few), (second, many)):
        assert close(counter_colour_at(img, scene, "0304"), RED, 6)
        assert close(counter_colour_at(img, scene, "0605"), BLUE, 6)


def test_a_colour_the_map_has_not_shown_before_is_drawn_in_that_colour():
    renderer.clear_cache()
    plain = hex_scene("t/palette-new", pieces=[piece("0304")])
    first = indexed_png(plain)
    green = dict(plain, pieces=[piece("0304"), piece("0605", "#1e8449")])
    second = indexed_png(green)
    assert close(counter_colour_at(second, green, "0605"), (0x1E, 0x84, 0x49), 6)
    assert close(counter_colour_at(second, green, "0304"), RED, 6)
    assert first.getpalette() != second.getpalette()
    # and the picture before it encodes as it did: a scene's bytes never depend on which
    # pictures came before (a posted board equals the same board drawn again)
    again = indexed_png(plain)
    assert again.getpalette() == first.getpalette()
    renderer.render_png(green)  # another set of colours in between
    assert renderer.render_png(plain) == _fresh_png(plain)
    assert close(counter_colour_at(again, plain, "0304"), RED, 6)


def test_a_palette_kept_without_its_lookup_table_maps_pictures_to_the_same_bytes(monkeypatch):
    # only the palettes used last keep Pillow's lookup table (memory); the others keep their
    # colours, and a picture mapped onto them must not change
    from renderer import render as core

    renderer.clear_cache()
    monkeypatch.setattr(core._TABLED_PALETTES, "limit", 2)
    boards = [
        hex_scene(f"t/tables-{n}", pieces=[piece("0304"), piece("0605", colour)])
        for n, colour in enumerate(("#2e86c1", "#1e8449", "#8e44ad", "#d35400", "#16a085"))
    ]
    first = [renderer.render_png(board) for board in boards]
    assert len(core._TABLED_PALETTES) == 2
    assert [renderer.render_png(board) for board in boards] == first
    info = renderer.cache_info()
    assert info["palette_builds"] == 5  # the colours were chosen once per map
    assert info["palette_tables_built"] == 10  # the tables twice: dropped in between
    assert renderer.render_png(boards[-1]) == first[-1] == _fresh_png(boards[-1])


def _fresh_png(scene: dict) -> bytes:
    renderer.clear_cache()
    return renderer.render_png(scene)


def test_labels_pasted_as_stamps_have_the_pixels_of_their_colour_pasted_through_the_mask():
    # map layers paste labels through cut masks and colour images (cheaper); the pixels must
    # be those of Image.paste of the label's colours through the whole masks, whatever lies
    # under them (roads, icons and names run under labels)
    import random

    from renderer import render as core

    rng = random.Random(13)
    for text, anchor, size, bold in (
        ("07", "rt", 11, True),
        ("12", "lt", 30, True),
        ("C4", "lt", 14, False),
        ("Ab", "lt", 47, True),
    ):
        ink, halo, _, _ = core._label_part(text, anchor, size, bold)
        stamps = core._label_stamps(text, anchor, size, bold)
        noise = Image.frombytes(
            "RGB",
            (ink.width + 6, ink.height + 6),
            rng.randbytes((ink.width + 6) * (ink.height + 6) * 3),
        )
        expected, drawn = noise.copy(), noise.copy()
        box = (3, 3, 3 + ink.width, 3 + ink.height)
        expected.paste(core.LABEL_HALO, box, halo)
        expected.paste(core.LABEL_INK, box, ink)
        core._paste_ops(drawn, core._label_ops([(ink, halo, (3, 3), stamps)]))
        assert drawn.tobytes() == expected.tobytes(), text
        assert drawn.tobytes() != noise.tobytes()


def test_a_map_layer_without_words_is_drawn_once_for_every_language():
    # place names are words of the map layer, so layers are kept per language; a map without
    # any is the same in every language and is drawn once (Rivet Wars' maps, most of Pocket
    # Tactics'), with the same pixels as drawn for that language alone
    wordless = hex_scene("t/wordless", pieces=[piece("0202")])
    renderer.clear_cache()
    english = renderer.render_image({**wordless, "lang": "en"})
    german = renderer.render_image({**wordless, "lang": "de"})
    assert renderer.cache_info()["static_builds"] == 1
    renderer.clear_cache()
    assert german.tobytes() == renderer.render_image({**wordless, "lang": "de"}).tobytes()
    assert english.tobytes() == german.tobytes()

    named = hex_scene("t/named", pieces=[piece("0202")])
    named["cells"][0] = {**named["cells"][0], "text": "Brücke"}
    renderer.clear_cache()
    renderer.render_image({**named, "lang": "en"})
    renderer.render_image({**named, "lang": "de"})
    assert renderer.cache_info()["static_builds"] == 2
    renderer.clear_cache()


def _cheapest_spot(candidates, spot, lay, placed, leaders, hide):
    """The rule _best_spot applies, without its shortcuts: every candidate clear of placed
    labels and leaders is costed from the full counts of what it hides; the first cheapest
    wins."""
    import math

    from renderer import render as core

    x, y, w, h = spot
    left, top, right, bottom = lay.frame
    best = None
    for i, (dx, dy) in enumerate(candidates):
        x0 = min(max(x + dx - w / 2, left), right - w)
        y0 = min(max(y + dy - h / 2, top), bottom - h)
        box = (x0, y0, x0 + w, y0 + h)
        if any(core._overlap(box, b) > 0 for b in placed):
            continue
        anchor = (min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3]))
        if any(core._segment_hits_box(p, q, box) for p, q in leaders) or any(
            core._segment_hits_box((x, y), anchor, b)
            for b in placed
            if not (b[0] <= x <= b[2] and b[1] <= y <= b[3])
        ):
            continue
        counters, hidden, covered = core._Boxes.hidden(hide, box)
        cost = (
            (1e9 if counters else 0.0)
            + (1e7 if hidden else 0.0)
            + 3 * counters
            + 3 * hidden
            + covered
            + math.hypot(dx, dy) * lay.cell * 0.3
            + i * 0.01
        )
        if best is None or cost < best[0]:
            best = (cost, box, anchor, counters + hidden, covered)
    return best


def test_a_dice_label_takes_the_cheapest_spot_whatever_its_shortcuts_skip():
    # the search stops early and passes over spots over counters and names without counting
    # them; on crowded random boards it must still pick the spot the full costing picks
    import random

    from renderer import render as core

    rng = random.Random(21)
    hex_lay = layout_for({"kind": "hex", "columns": 20, "rows": 15}, 40, 0)
    square_lay = layout_for({"kind": "square", "columns": 16, "rows": 16}, 40, 0)
    shortcuts_taken = 0
    for case in range(300):
        lay = hex_lay if case % 2 else square_lay
        left, top, right, bottom = lay.frame
        x, y = rng.uniform(left + 60, right - 60), rng.uniform(top + 60, bottom - 60)
        w, h = rng.uniform(30, 90), rng.uniform(14, 24)
        reach = 3.2 * lay.cell + w

        def boxes(n, size, x=x, y=y, reach=reach):
            out = []
            for _ in range(n):
                bx, by = x + rng.uniform(-reach, reach), y + rng.uniform(-reach, reach)
                out.append((bx, by, bx + rng.uniform(4, size), by + rng.uniform(4, size)))
            return out

        counters = boxes(rng.randrange(0, 30), 40)
        names = boxes(rng.randrange(0, 8), 60)
        labels = boxes(rng.randrange(0, 60), 30)
        placed = boxes(rng.randrange(0, 3), 50)
        leaders = [
            ((x + rng.uniform(-80, 80), y), (x, y + rng.uniform(-80, 80)))
            for _ in range(rng.randrange(0, 2))
        ]
        hide = core._Boxes(counters, names, labels, (x - reach, y - reach, x + reach, y + reach))
        offsets = [(0.0, 0.0)] + [
            (rng.uniform(-reach / 2, reach / 2), rng.uniform(-reach / 2, reach / 2))
            for _ in range(70)
        ]
        offsets.sort(key=lambda d: (d[0] ** 2 + d[1] ** 2) ** 0.5)
        skipped = []
        counted = core._Boxes.hidden

        def spy(self, box, limit=None, counted=counted, skipped=skipped):
            found = counted(self, box, limit)
            skipped.append(found is None)
            return found

        hide.hidden = spy.__get__(hide)
        chosen = core._best_spot(offsets, (x, y, w, h), lay, placed, leaders, hide)
        assert chosen == _cheapest_spot(offsets, (x, y, w, h), lay, placed, leaders, hide), case
        shortcuts_taken += sum(skipped)
    assert shortcuts_taken > 100  # the boards are crowded enough to exercise the shortcut


def test_cells_along_a_segment_are_those_of_the_squares_around_its_points():
    # arrows put back the labels of the cells near them; those cells are the ones within a
    # square of 1.5 cells around points half a cell apart along the arrow
    import math
    import random

    from engine.core import hexgrid
    from renderer import render as core

    def plainly(lay, a, b):
        steps = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / (lay.cell * 0.5)))
        col_step, row_step = (
            (1.5 * lay.cell, 3**0.5 * lay.cell) if lay.kind == "hex" else (lay.cell, lay.cell)
        )
        spots = set()
        for k in range(steps + 1):
            x = a[0] + (b[0] - a[0]) * k / steps
            y = a[1] + (b[1] - a[1]) * k / steps
            col0 = (x - lay.origin_x) / col_step + lay.first_column
            row0 = (y - lay.origin_y) / row_step + lay.first_row
            columns = range(
                max(lay.first_column, int(col0 - 1.5)),
                min(lay.first_column + lay.columns, int(col0 + 1.5) + 1),
            )
            rows = range(
                max(lay.first_row, int(row0 - 1.5)),
                min(lay.first_row + lay.rows, int(row0 + 1.5) + 1),
            )
            for col in columns:
                for row in rows:
                    spots.add((col, row))
        if lay.kind == "hex":
            return list({hexgrid.from_offset(c, r) for c, r in spots})
        return list(spots)

    rng = random.Random(5)
    for kind in ("hex", "square"):
        lay = layout_for({"kind": kind, "columns": 24, "rows": 20}, 30, 0)
        left, top, right, bottom = lay.frame
        for _ in range(200):
            a = (rng.uniform(left - 40, right + 40), rng.uniform(top - 40, bottom + 40))
            b = (rng.uniform(left - 40, right + 40), rng.uniform(top - 40, bottom + 40))
            # the same cells in the same order: labels are pasted in this order
            assert list(core._cells_along(lay, a, b)) == plainly(lay, a, b)


def test_the_close_up_window_holds_the_most_action_then_counters_with_a_ring_around_it():
    # the window is scored over every position (sums kept in tables, scores per column in one
    # go); it must be the position the plain rule picks: most action, then most counters,
    # least action on its inner edge columns, the first such position in column order
    import random

    from engine.core import hexgrid
    from renderer import closeup
    from renderer import render as core

    def plainly(lay, action, counters, width, height, step):
        first_col, first_row = lay.first_column, lay.first_row
        last_col, last_row = first_col + lay.columns - 1, first_row + lay.rows - 1
        best, best_score = (first_col, first_row), -1.0
        for c0 in range(first_col, max(first_col, last_col - width + 1) + 1, step):
            inner = [c for c in dict.fromkeys((c0, c0 + width - 1)) if first_col < c < last_col]
            for r0 in range(first_row, max(first_row, last_row - height + 1) + 1, step):
                rows = range(r0, min(r0 + height, last_row + 1))
                cols = range(c0, min(c0 + width, last_col + 1))
                score = sum(action.get((c, r), 0) for c in cols for r in rows)
                score += 0.01 * sum(counters.get((c, r), 0) for c in cols for r in rows)
                rim = 0.0
                for c in inner:
                    rim += sum(action.get((c, r), 0) for r in rows)
                score -= 0.001 * rim
                if score > best_score:
                    best, best_score = (c0, r0), score
        return best

    rng = random.Random(8)
    for case in range(150):
        kind = "hex" if case % 3 else "square"
        columns, rows = rng.randrange(6, 26), rng.randrange(4, 30)
        lay = layout_for({"kind": kind, "columns": columns, "rows": rows}, 20, 0)
        action = {
            (rng.randrange(columns), rng.randrange(rows)): float(rng.choice((1, 2, 3, 6)))
            for _ in range(rng.randrange(1, 8))
        }
        pieces = []
        for _ in range(rng.randrange(0, 40)):
            col, row = rng.randrange(columns), rng.randrange(rows)
            h = hexgrid.from_offset(col, row) if kind == "hex" else (col, row)
            pieces.append({"at": core._label(lay, h)})
        cell = rng.choice((40, 60, 90))
        window = closeup._window(lay, action, pieces, cell)
        counters: dict = {}
        for p in pieces:
            spot = closeup._offset(lay, p["at"])
            counters[spot] = counters.get(spot, 0) + 1
        width, height = window["columns"], window["rows"]
        step = 2 if kind == "square" else 1
        first = plainly(lay, action, counters, width, height, step)
        assert (window["first_column"] - 1, window["first_row"] - 1) == first, case


def test_the_panel_beside_a_close_up_is_the_panel_colour():
    # the panel's colour is filled only beside the close-up (not under it first); the rows the
    # close-up takes start black in the taller picture, so a strip left unfilled would show
    from renderer import closeup
    from renderer import render as core

    renderer.clear_cache()
    img, drawn = core.render_with_layout(scenes.large_hex_scene(map_key="t/close-up-panel"))
    x0, y0, x1, y1 = (round(v) for v in drawn.close_up["box"])
    assert 0 < x0 and x1 < img.width  # the close-up is narrower than the picture
    for strip in ((0, y0, x0, y1), (x1, y0, img.width, y1)):
        assert img.crop(strip).getcolors() == [
            ((strip[2] - strip[0]) * (strip[3] - strip[1]), closeup.CLOSE_UP_BG)
        ]


def test_a_close_up_shows_the_cells_of_its_window_whichever_board_of_the_map_came_before():
    # the map's cells inside a close-up's window are kept per map_key and window: a board of
    # the same map with other counters gets the same cells as when drawn first
    from renderer import closeup

    first = scenes.large_hex_scene(pieces=60, seed=3, map_key="t/window-cells")
    second = scenes.large_hex_scene(pieces=70, seed=3, map_key="t/window-cells")
    window = {"kind": "hex", "first_column": 5, "first_row": 4, "columns": 9, "rows": 3}
    elsewhere = {**window, "first_column": 20, "first_row": 11}
    renderer.clear_cache()
    closeup.sub_scene(first, elsewhere, 60)
    closeup.sub_scene(first, window, 90)
    closeup.sub_scene(first, window, 60)
    kept = closeup.sub_scene(second, window, 60)
    renderer.clear_cache()
    fresh = closeup.sub_scene(second, window, 60)
    assert kept["cells"] == fresh["cells"]
    assert 0 < len(fresh["cells"]) < len(second["cells"])
    labels = {c["at"] for c in fresh["cells"]}
    assert labels == {
        lab for lab in scenes.hex_labels(40, 30) if 5 <= int(lab[:2]) < 14 and 4 <= int(lab[2:]) < 7
    }


def test_a_kept_map_layer_takes_a_byte_a_pixel_and_its_pixels_keep_their_colour_in_pictures():
    from PIL import ImageChops

    from renderer import render as core

    renderer.clear_cache()
    large = scenes.large_hex_scene(map_key="t/indexed")
    scene = dict(large, arrows=[], labels=[], objectives=[], markers=[])
    picture = Image.open(io.BytesIO(renderer.render_png(scene))).convert("RGB")
    (key,) = list(core.STATIC._items)
    layer = core.STATIC.peek(key)
    assert layer.mode == "P" and core.STATIC.bytes == layer.width * layer.height
    # below the header, wherever no counter went, the picture shows the layer's own colours:
    # exactly but where Pillow's palette lookup (approximate, as for every picture) takes a
    # neighbouring entry a few levels away
    drawn = renderer.render_with_layout(scene)[1]
    untouched = Image.new("L", layer.size, 255)
    for _, box in drawn.counters:
        x0, y0, x1, y1 = (round(v) for v in box)
        untouched.paste(0, (x0 - 6, y0 - 6, x1 + 6, y1 + 6))
    body = (0, drawn.layout.header_height, layer.width, layer.height)
    changed = ImageChops.difference(picture.crop((0, 0, *layer.size)), layer.convert("RGB"))
    kept = ImageChops.multiply(changed, untouched.convert("RGB")).crop(body)
    assert max(high for _, high in kept.getextrema()) <= 8
    off = kept.convert("L").point(lambda v: 1 if v else 0).histogram()[1]
    assert off < 0.01 * kept.width * kept.height
    assert changed.crop(body).getbbox() is not None  # the counters are there
    # the sides' colours are exact
    colours = {c for _, c in picture.getcolors(1 << 16)}
    assert {core.sprites.rgb(p["color"]) for p in scene["pieces"]} <= colours
