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
from .cache import LruCache
from .layout import DIGIT_HEIGHT, Layout, _cell_of, layout_for

PHONE_WIDTH = 420  # how wide Discord shows a picture on a phone, before a tap
FACTOR_PHONE_PX = 7.0  # height of a factor's digits there that reads without zooming
# Rows of cells in the close-up (each adds height to the picture): a row of squares is lower
# than a row of hexes, and four squares are two whole 2x2 segments.
MAX_ROWS = {"hex": 3, "square": 4}
MIN_COLUMNS = 4
CAPTION = {"en": "Close-up of this turn", "de": "Ausschnitt dieses Zuges"}
CLOSE_UP_BG = (222, 216, 200)  # a shade darker than the map's background: a panel of its own
# keys of a scene whose entries sit at one cell ("at") or join cells
_AT_KEYS = ("cells", "objectives", "pieces", "markers", "labels")
# (map_key, language, window, cell size) -> the map's cells inside the window (a few dozen)
_WINDOW_CELLS = LruCache(64)


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


def _action_cells(scene: dict, lay: Layout) -> dict[tuple[int, int], float]:
    """What the turn did, as weights by offset coordinates: both ends of an attack and a dice
    label's cell most, where a move ended (a counter stands there now) more than where it began.
    A close-up shows the window with the most of it."""
    weights: dict[tuple[int, int], float] = {}

    def add(label, weight: float) -> None:
        spot = _offset(lay, label)
        if spot is not None:
            weights[spot] = weights.get(spot, 0.0) + weight

    for arrow in scene.get("arrows") or []:
        path = arrow.get("path") or []
        if not path:
            continue
        attack = arrow.get("kind") == "attack"
        add(path[0], 3.0 if attack else 1.0)
        add(path[-1], 3.0 if attack else 2.0)
    for label in scene.get("labels") or []:
        add(label.get("at"), 3.0)
    return weights


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


def _window(lay: Layout, action: dict, pieces: list, cell: int) -> dict:
    """The grid window of the close-up: as many columns as fit the picture's width and at most
    MAX_ROWS rows (fewer when the action is smaller), placed where it holds the most of the
    turn's action, then the most counters."""
    room = lay.width - 2 * max(8, cell // 3)
    if lay.kind == "hex":
        fit_columns = max(1, math.floor((room / cell - 0.5) / 1.5))
    else:
        fit_columns = max(1, math.floor(room / cell))
    first_col, first_row = lay.first_column, lay.first_row
    last_col, last_row = first_col + lay.columns - 1, first_row + lay.rows - 1
    cols = [c for c, _ in action]
    rows = [r for _, r in action]
    # the action and a ring around it, within what fits; at least a few columns
    width = min(fit_columns, lay.columns, max(MIN_COLUMNS, max(cols) - min(cols) + 3))
    height = min(MAX_ROWS[lay.kind], lay.rows, max(2, max(rows) - min(rows) + 3))
    step = 1
    if lay.kind == "square":
        # whole pairs of columns and rows from the board's corner: a 2x2 segment is not cut
        step = 2
        width = max(2, min(width + width % 2, fit_columns // 2 * 2, lay.columns // 2 * 2))
        height = max(2, min(height + height % 2, MAX_ROWS["square"], lay.rows // 2 * 2))
    counters: dict[tuple[int, int], int] = {}
    for p in pieces:
        spot = _offset(lay, p.get("at"))
        if spot is not None:
            counters[spot] = counters.get(spot, 0) + 1
    # Sums over every window position from tables of sums (a 40x30 map has about a thousand
    # positions; summing the action and the counters anew for each was a third of a warm
    # picture). The weights are whole numbers, so the sums are exact and the scores, and the
    # window chosen, are those of summing each window.
    columns, rows_n = last_col - first_col + 1, last_row - first_row + 1
    weight_sums = _table(action, first_col, first_row, columns, rows_n)
    counter_sums = _table(counters, first_col, first_row, columns, rows_n)
    best, best_score = (first_col, first_row), -1.0
    starts = range(first_row, max(first_row, last_row - height + 1) + 1, step)
    spans = [(r0 - first_row, min(r0 - first_row + height, rows_n)) for r0 in starts]
    for c0 in range(first_col, max(first_col, last_col - width + 1) + 1, step):
        i0 = c0 - first_col
        i1 = min(i0 + width, columns)
        w0, w1 = weight_sums[i0], weight_sums[i1]
        n0, n1 = counter_sums[i0], counter_sums[i1]
        # a ring of map around the action rather than the action at the window's rim: the
        # window's first and last columns, unless they are the map's
        rims = [
            (weight_sums[c - first_col], weight_sums[c - first_col + 1])
            for c in dict.fromkeys((c0, c0 + width - 1))
            if first_col < c < last_col
        ]
        # each row's score in one comprehension (a thousand positions on a 40x30 map), with
        # the arithmetic of adding the rims one by one to 0.0
        if not rims:
            scores = [
                w1[j1] - w0[j1] - w1[j0] + w0[j0] + 0.01 * (n1[j1] - n0[j1] - n1[j0] + n0[j0])
                for j0, j1 in spans
            ]
        elif len(rims) == 1:
            ((a, b),) = rims
            scores = [
                w1[j1]
                - w0[j1]
                - w1[j0]
                + w0[j0]
                + 0.01 * (n1[j1] - n0[j1] - n1[j0] + n0[j0])
                - 0.001 * (0.0 + (b[j1] - a[j1] - b[j0] + a[j0]))
                for j0, j1 in spans
            ]
        else:
            (a, b), (c, d) = rims
            scores = [
                w1[j1]
                - w0[j1]
                - w1[j0]
                + w0[j0]
                + 0.01 * (n1[j1] - n0[j1] - n1[j0] + n0[j0])
                - 0.001 * (0.0 + (b[j1] - a[j1] - b[j0] + a[j0]) + (d[j1] - c[j1] - d[j0] + c[j0]))
                for j0, j1 in spans
            ]
        # the first best position wins, as when comparing one position after another
        top = max(scores, default=best_score)
        if top > best_score:
            best, best_score = (c0, starts[scores.index(top)]), top
    c0, r0 = best
    return {
        "kind": lay.kind,
        "first_column": c0 + 1,
        "first_row": r0 + 1,
        "columns": min(width, last_col - c0 + 1),
        "rows": min(height, last_row - r0 + 1),
        "rulers": False,
    }


def _table(values: dict, first_col: int, first_row: int, columns: int, rows: int) -> list:
    """Sums of ``values`` (by offset coordinates) over every rectangle from the grid's corner:
    ``table[i][j]`` holds the columns before ``i`` and rows before ``j``. Spots off the grid
    count nowhere (no window holds them)."""
    grid = [[0.0] * rows for _ in range(columns)]
    for (c, r), value in values.items():
        if 0 <= c - first_col < columns and 0 <= r - first_row < rows:
            grid[c - first_col][r - first_row] += value
    table = [[0.0] * (rows + 1) for _ in range(columns + 1)]
    for i in range(columns):
        above, row_sum = table[i], 0.0
        below = table[i + 1]
        for j in range(rows):
            row_sum += grid[i][j]
            below[j + 1] = above[j + 1] + row_sum
    return table


def _inside(window_lay: Layout, label) -> bool:
    try:
        window_lay.parse(str(label))
    except ValueError:
        return False
    return True


def sub_scene(scene: dict, window: dict, cell: int) -> dict:
    """The scene's map things inside ``window`` (the header, legend and footer stay out)."""
    lay = layout_for(window, cell)
    c0, r0 = lay.first_column, lay.first_row
    c1, r1 = c0 + lay.columns, r0 + lay.rows

    def inside(label) -> bool:
        # a map's labels repeat picture after picture: their offsets are kept (layout._cell_of)
        if not isinstance(label, str):
            return _inside(lay, label)
        try:
            _, col, row = _cell_of(lay.kind, label)
        except (ValueError, TypeError):
            return False
        return c0 <= col < c1 and r0 <= row < r1

    out = {"map_key": scene["map_key"], "grid": window, "lang": scene.get("lang", "en")}
    for key in _AT_KEYS:
        if key == "cells" and key in scene:
            # a map_key names the same cells every time (as for its map layer), and the
            # window's part of a big map's thousand cells is the same turn after turn
            out[key] = _WINDOW_CELLS.get(
                (scene["map_key"], str(scene.get("lang") or "en"), tuple(window.items()), cell),
                lambda: [e for e in scene.get("cells") or [] if inside(e.get("at"))],
            )
        elif key in scene:
            out[key] = [e for e in scene.get(key) or [] if inside(e.get("at"))]
    if "lines" in scene:
        out["lines"] = [
            e for e in scene["lines"] or [] if inside(e.get("from")) and inside(e.get("to"))
        ]
    if "edges" in scene:
        out["edges"] = [
            e for e in scene["edges"] or [] if inside(e.get("at")) and inside(e.get("to"))
        ]
    if "regions" in scene:
        regions = []
        for region in scene["regions"] or []:
            cells = [c for c in region.get("cells") or [] if inside(c)]
            if cells:
                regions.append({**region, "cells": cells, "label": ""})
        out["regions"] = regions
    arrows = []
    for arrow in scene.get("arrows") or []:
        path = list(arrow.get("path") or [])
        if all(inside(c) for c in path):
            arrows.append(arrow)
        elif arrow.get("kind", "move") == "move":
            # the part of a move inside the window, where it ends if it ends there
            run: list = []
            for c in path + [None]:
                if c is not None and inside(c):
                    run.append(c)
                    continue
                if len(run) > 1:
                    arrows.append({**arrow, "path": run})
                run = []
    out["arrows"] = arrows
    return out


class Plan:
    """Where a picture's close-up goes and what it shows, known before anything is drawn: the
    whole map can then be drawn straight onto a picture tall enough for both."""

    def __init__(self, scene: dict, lay: Layout, cell: int, window: dict):
        self.cell, self.window = cell, window
        self.scene = sub_scene(scene, window, cell)
        self.lay = layout_for(window, cell)
        self.caption_height = round(lay.text_size * 1.7)
        # the close-up's own (empty) header band is not shown
        self.extra = self.caption_height + self.lay.height - self.lay.header_height


def plan(scene: dict, lay: Layout) -> Plan | None:
    """The close-up of ``scene`` drawn at ``lay``, or None when the map's factors read at a
    phone's width or the turn has no action."""
    pieces = [p for p in scene.get("pieces") or [] if isinstance(p, dict)]
    cell = _cell_size(lay, pieces)
    if cell is None:
        return None
    action = _action_cells(scene, lay)
    if not action:
        return None
    return Plan(scene, lay, cell, _window(lay, action, pieces, cell))


def add_close_up(
    img: Image.Image, scene: dict, lay: Layout, drawn, render_map, record_map, planned=None
) -> Image.Image:
    """``img`` with the close-up inserted above the band under the map, when the map's factors
    do not read at a phone's width and the turn has any action; else ``img`` itself.
    ``render_map(scene, size_hint, drawn)`` draws a scene without a close-up and
    ``record_map(scene, layout, drawn)`` adds its cell labels and names to the record.
    With ``planned`` (:func:`plan`), ``img`` is the map already drawn on a picture
    ``planned.extra`` rows taller than the map (the rows below it are drawn over here)."""
    if planned is None:
        planned = plan(scene, lay)
        if planned is None:
            return img
        img = img.crop((0, 0, img.width, img.height + planned.extra))
    cell, window, part_scene, part_lay = planned.cell, planned.window, planned.scene, planned.lay
    part_drawn = type(drawn)(part_lay) if drawn is not None else None
    part = render_map(part_scene, cell, part_drawn)
    hh = part_lay.header_height
    ts = lay.text_size
    caption_height = planned.caption_height
    footer_top = lay.height - lay.footer_height
    extra = planned.extra
    left = (img.width - part.width) // 2
    top = footer_top + caption_height
    # The picture is already tall enough (the new rows start black): the close-up pasted
    # whole, its header band over the map's bottom, which is then put back (cheaper than
    # cropping the close-up); the band under the map moved down.
    out = img
    under_header = out.crop((left, top - hh, left + part.width, footer_top))
    band = out.crop((0, footer_top, out.width, lay.height))
    draw = ImageDraw.Draw(out)
    # the background shows beside the close-up only (the caption's band is filled below):
    # filling the whole band first and pasting the close-up over it wrote 7 MB twice
    bottom = footer_top + extra - 1
    if left > 0:
        draw.rectangle((0, top, left - 1, bottom), fill=CLOSE_UP_BG)
    if left + part.width < out.width:
        draw.rectangle((left + part.width, top, out.width, bottom), fill=CLOSE_UP_BG)
    out.paste(part, (left, top - hh))
    out.paste(under_header, (left, top - hh))
    out.paste(band, (0, footer_top + extra))
    draw.rectangle((0, footer_top, out.width, top - 1), fill=CLOSE_UP_BG)
    draw.line((0, footer_top, out.width, footer_top), fill=(60, 60, 60), width=2)
    caption = CAPTION.get(str(scene.get("lang") or "en"), CAPTION["en"])
    pad = ts
    sprites.paste_text(
        out, (pad, footer_top + caption_height / 2), caption, ts, (30, 30, 30), True, "lm"
    )
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
                (
                    pad,
                    footer_top + caption_height / 2 - ts * 0.6,
                    pad + fonts.text_width(caption, ts, True),
                    footer_top + caption_height / 2 + ts * 0.6,
                ),
            )
        )
        record_map(part_scene, part_lay, part_drawn)
        _move_record(part_drawn, left, top - hh)
        drawn.close_up = {
            "box": (left, top, left + part.width, top + part.height - hh),
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
    drawn.leaders = [((a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy)) for a, b in drawn.leaders]
