"""The close-up: the area of the turn's action, drawn big under the whole map.

On the largest maps a counter is about 20 px wide once Discord shrinks the picture to a phone's
width, and its factors ("2-4-3") are two pixels tall: no font choice makes them readable there.
So when the map's factors would be smaller than :data:`FACTOR_PHONE_PX` at
:data:`PHONE_WIDTH`, the cells around the turn's arrows and dice labels are drawn again under
the map at a cell size where they reach it. The whole map keeps its place (``cell_center``
needs only the grid); the band under the map (terrain key, losses) moves down.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.core import hexgrid

from . import fonts, sprites
from .layout import Layout, layout_for

PHONE_WIDTH = 420  # how wide Discord shows a picture on a phone, before a tap
FACTOR_PHONE_PX = 7.0  # height of a factor's digits there that reads without zooming
DIGIT_HEIGHT = 0.73  # a bold digit's height per pixel of font size (DejaVu Sans Bold)
# rows of cells in the close-up (it adds height to the picture); square boards take two more
# rows' worth of height less per row, and pairs of rows keep 2x2 segments whole
MAX_ROWS = {"hex": 3, "square": 4}
MIN_COLUMNS = 4
CAPTION = {
    "en": "Close-up of this turn (counters: factors readable on a phone)",
    "de": "Ausschnitt dieses Zuges (Zählsteine: Werte auf dem Handy lesbar)",
}
# keys of a scene whose entries sit at one cell ("at") or join cells
_AT_KEYS = ("cells", "objectives", "pieces", "markers", "labels")


def phone_px(font_size: float, picture_width: int) -> float:
    """How tall digits of ``font_size`` are when the picture is shown PHONE_WIDTH wide."""
    return font_size * DIGIT_HEIGHT * PHONE_WIDTH / picture_width


def _faces(pieces: list) -> list[tuple]:
    """The different counter faces among ``pieces`` (what sizes their factors)."""
    return sorted(
        {
            (
                fonts.safe_text(str(p.get("title") or "")),
                fonts.safe_text(str(p["values"])),
                p.get("symbol"),
                bool(p.get("flipped")),
                fonts.safe_text(str(p.get("subtitle") or "")),
            )
            for p in pieces
            if p.get("values")
        },
        key=str,
    )


def _factor_px(faces: list[tuple], side: int) -> float:
    """The smallest factor font size among counter ``faces`` drawn alone at ``side`` px."""
    return min((sprites.factor_size(side, *face) for face in faces), default=0.0)


def _offset(lay: Layout, label: str) -> tuple[int, int] | None:
    try:
        h = lay.parse(str(label))
    except ValueError:
        return None
    return hexgrid.to_offset(h) if lay.kind == "hex" else h


def _action_cells(scene: dict, lay: Layout) -> list[tuple[int, int]]:
    """Offset coordinates of the cells the turn's arrows and dice labels touch, the latest
    attack's target last."""
    cells = []
    for arrow in scene.get("arrows") or []:
        for label in arrow.get("path") or []:
            cells.append(_offset(lay, label))
    attacks = [a for a in scene.get("arrows") or [] if a.get("kind") == "attack" and a.get("path")]
    for label in scene.get("labels") or []:
        cells.append(_offset(lay, label.get("at")))
    if attacks:
        cells.append(_offset(lay, attacks[-1]["path"][-1]))
    return [c for c in cells if c is not None]


def _cell_size(lay: Layout, pieces: list) -> int | None:
    """The smallest cell size at which every factor reaches FACTOR_PHONE_PX in a picture as
    wide as ``lay``'s, or None when the map's own counters already read."""
    faces = _faces(pieces)
    if not faces or phone_px(_factor_px(faces, lay.counter_side), lay.width) >= FACTOR_PHONE_PX:
        return None
    share = 0.92 if lay.kind == "hex" else 0.66  # Layout.counter_side
    reads = lambda cell: (  # noqa: E731
        phone_px(_factor_px(faces, round(cell * share)), lay.width) >= FACTOR_PHONE_PX
    )
    low, high = lay.cell, 200  # the factors grow with the cell: the first that reads
    if not reads(high):
        return high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if reads(middle) else (middle, high)
    return high


def _window(lay: Layout, action: list, cell: int) -> dict:
    """The grid window of the close-up: the action's cells and a ring around them, as many
    columns as fit the picture's width and at most MAX_ROWS rows, centred on the latest
    attack (or the last cell touched) when the action is wider."""
    room = lay.width - 2 * max(8, cell // 3)
    if lay.kind == "hex":
        fit_columns = max(1, math.floor((room / cell - 0.5) / 1.5))
    else:
        fit_columns = max(1, math.floor(room / cell))
    first_col, first_row = lay.first_column, lay.first_row
    last_col, last_row = first_col + lay.columns - 1, first_row + lay.rows - 1

    def span(values, lowest, highest, most):
        low, high = max(lowest, min(values) - 1), min(highest, max(values) + 1)
        if high - low + 1 > most:
            # too wide: centre on the focus (the last cell) instead
            centre = values[-1]
            low = max(lowest, min(centre - most // 2, highest - most + 1))
            high = min(highest, low + most - 1)
        return low, high

    cols = [c for c, _ in action]
    rows = [r for _, r in action]
    c0, c1 = span(cols, first_col, last_col, fit_columns)
    r0, r1 = span(rows, first_row, last_row, MAX_ROWS[lay.kind])
    if lay.kind == "square":
        # whole pairs of columns and rows from the board's corner: a 2x2 segment is not cut
        c0, r0 = max(first_col, c0 - (c0 - first_col) % 2), max(first_row, r0 - (r0 - first_row) % 2)
        c1 = min(last_col, c0 + max(2, (c1 - c0 + 2) // 2 * 2, 2) - 1, c0 + fit_columns // 2 * 2 - 1)
        r1 = min(last_row, r0 + max(2, (r1 - r0 + 2) // 2 * 2) - 1, r0 + MAX_ROWS["square"] - 1)
    # at least a few columns, so a single counter is not a lone hex in a wide strip
    while c1 - c0 + 1 < min(MIN_COLUMNS, fit_columns, lay.columns):
        if c0 > first_col:
            c0 -= 1
        if c1 - c0 + 1 < min(MIN_COLUMNS, fit_columns, lay.columns) and c1 < last_col:
            c1 += 1
    return {
        "kind": lay.kind,
        "first_column": c0 + 1,
        "first_row": r0 + 1,
        "columns": c1 - c0 + 1,
        "rows": r1 - r0 + 1,
        "rulers": False,
    }


def _inside(window_lay: Layout, label) -> bool:
    try:
        window_lay.parse(str(label))
    except ValueError:
        return False
    return True


def sub_scene(scene: dict, window: dict, cell: int) -> dict:
    """The scene's map things inside ``window`` (the header, legend and footer stay out)."""
    lay = layout_for(window, cell)
    inside = lambda label: _inside(lay, label)  # noqa: E731
    out = {"map_key": scene["map_key"], "grid": window, "lang": scene.get("lang", "en")}
    for key in _AT_KEYS:
        if key in scene:
            out[key] = [e for e in scene.get(key) or [] if inside(e.get("at"))]
    if "lines" in scene:
        out["lines"] = [
            e for e in scene["lines"] or [] if inside(e.get("from")) and inside(e.get("to"))
        ]
    if "edges" in scene:
        out["edges"] = [e for e in scene["edges"] or [] if inside(e.get("at")) and inside(e.get("to"))]
    if "regions" in scene:
        regions = []
        for region in scene["regions"] or []:
            cells = [c for c in region.get("cells") or [] if inside(c)]
            if cells:
                regions.append({**region, "cells": cells, "label": ""})
        out["regions"] = regions
    out["arrows"] = [
        a for a in scene.get("arrows") or [] if all(inside(c) for c in a.get("path") or [])
    ]
    return out


def add_close_up(
    img: Image.Image, scene: dict, lay: Layout, drawn, render_map, record_map
) -> Image.Image:
    """``img`` with the close-up inserted above the band under the map, when the map's factors
    do not read at a phone's width and the turn has any action; else ``img`` itself.
    ``render_map(scene, size_hint, drawn)`` draws a scene without a close-up and
    ``record_map(scene, layout, drawn)`` adds its cell labels and names to the record."""
    pieces = [p for p in scene.get("pieces") or [] if isinstance(p, dict)]
    cell = _cell_size(lay, pieces)
    if cell is None:
        return img
    action = _action_cells(scene, lay)
    if not action:
        return img
    window = _window(lay, action, cell)
    part_scene = sub_scene(scene, window, cell)
    part_drawn = type(drawn)(layout_for(window, cell)) if drawn is not None else None
    part = render_map(part_scene, cell, part_drawn)
    part_lay = layout_for(window, cell)
    part = part.crop((0, part_lay.header_height, part_lay.width, part_lay.height))
    ts = lay.text_size
    caption_height = round(ts * 1.7)
    footer_top = lay.height - lay.footer_height
    extra = caption_height + part.height
    # one copy of the picture, taller (the new rows start black), then the footer moved down
    out = img.crop((0, 0, img.width, img.height + extra))
    out.paste(img.crop((0, footer_top, img.width, img.height)), (0, footer_top + extra))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, footer_top, img.width, footer_top + extra - 1), fill=(222, 216, 200))
    draw.line((0, footer_top, img.width, footer_top), fill=(60, 60, 60), width=2)
    caption = CAPTION.get(str(scene.get("lang") or "en"), CAPTION["en"])
    pad = ts
    sprites.paste_text(out, (pad, footer_top + caption_height / 2), caption, ts, (30, 30, 30), True, "lm")
    left = (img.width - part.width) // 2
    top = footer_top + caption_height
    out.paste(part, (left, top))
    if drawn is not None:
        # the band under the map moved down; the close-up's own record moves to its place
        drawn.texts[:] = [
            (kind, text, _moved(box, 0, extra) if kind in ("key", "lost", "loss") else box)
            for kind, text, box in drawn.texts
        ]
        drawn.texts.append(
            (
                "caption",
                caption,
                (pad, footer_top + caption_height / 2 - ts * 0.6,
                 pad + fonts.text_width(caption, ts, True), footer_top + caption_height / 2 + ts * 0.6),
            )
        )
        record_map(part_scene, part_lay, part_drawn)
        _move_record(part_drawn, left, top - part_lay.header_height)
        drawn.close_up = {
            "box": (left, top, left + part.width, top + part.height),
            "grid": window,
            "drawn": part_drawn,
            "scene": part_scene,
        }
    return out


def _moved(box, dx: float, dy: float):
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _move_record(drawn, dx: float, dy: float) -> None:
    drawn.cell_labels = {k: _moved(b, dx, dy) for k, b in drawn.cell_labels.items()}
    drawn.rulers = [(e, t, _moved(b, dx, dy)) for e, t, b in drawn.rulers]
    drawn.texts = [(k, t, _moved(b, dx, dy)) for k, t, b in drawn.texts]
    drawn.counters = [(i, _moved(b, dx, dy)) for i, b in drawn.counters]
    drawn.factors = [(i, s, _moved(b, dx, dy)) for i, s, b in drawn.factors]
    drawn.leaders = [
        ((a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy)) for a, b in drawn.leaders
    ]

