"""Scene -> picture. The static layer of each map is drawn once and cached; every picture
copies it and draws the dynamic layer (header, objectives, arrows, counters, markers) on top.

Speed (see docs/rendering.md): outlines are drawn with ``line`` (``polygon(width>1)`` builds a
full-image mask per call), counters and markers are cached sprites that are only pasted, and
the PNG is quantised to 256 colours (smaller and faster than an RGB PNG of flat-coloured maps)
and written by :mod:`renderer.png` (zlib-ng's deflate).
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import product

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from engine.core import hexgrid, squaregrid

from . import closeup, fonts, png, sprites
from .cache import LruCache, image_bytes
from .icons import COLOURED, ICONS
from .layout import SQRT3, Layout, SceneError, layout_for
from .scene import REQUIRED_KEYS

BACKGROUND = (236, 231, 218)
HEADER_BG = (31, 36, 48)
DEFAULT_FILL = (216, 211, 196)
GRID_INK = (60, 60, 60)
PNG_COMPRESS_LEVEL = (
    png.STDLIB_LEVEL
)  # Pillow's writer, for pictures renderer/png.py does not write
STATIC_LIMIT = 48  # cached map layers at most, and at most STATIC_BYTES of them
# A kept map layer is already in the pictures' colours, one byte a pixel (an RGB picture is four
# in Pillow): Tenochtitlan's map layer is 3 MB, a Tactical Table War map under 1 MB, a Pocket
# Tactics map under 0.5 MB. Kept as RGB, 40 MB held three to six maps per picture worker and
# the rest of a worker's memory was fragments of the layers it dropped.
STATIC_BYTES = 24 << 20
# A close-up's window moves with the turn's action, so its layer is seldom drawn twice: in a mix
# of the five games a picture worker reused one for 1 picture in 300 (keeping the last one).
# None is kept: the close-up is drawn straight onto its new layer, without a copy (a kept
# layer and its copy were up to 2 x 8 MB of a worker's memory).
CLOSE_UP_LIMIT = 0


def _layer_bytes(lay: Layout, indexed: bool = False) -> int:
    """What the map layer drawn for ``lay`` will take: an RGB picture of the layout's size, or
    a kept layer in its palette's colours."""
    return lay.width * lay.height * (1 if indexed else 4)


# ----- the static-layer cache ----------------------------------------------------------------

# Static layers keyed by (map_key, grid, cell size); drawn once even when renders race.
STATIC = LruCache(STATIC_LIMIT, build_once=True, max_bytes=STATIC_BYTES, size_of=image_bytes)
# The close-ups' layers (a window of a map at a large cell size) apart: the window moves with
# the turn's action, and each new window must not push a whole map's layer out.
CLOSE_UPS = LruCache(CLOSE_UP_LIMIT)


def cache_info() -> dict:
    """Counters for tests and benchmarks: how often layers and sprites were drawn or reused."""
    return {
        "static_builds": STATIC.builds,
        "static_hits": STATIC.hits,
        "static_cached": len(STATIC),
        "static_bytes": STATIC.bytes,
        "close_up_builds": CLOSE_UPS.builds,
        "palette_builds": PALETTES.builds,
        "palette_tables_built": _TABLED_PALETTES.builds,
        "sprite_builds": sprites.SPRITES.builds,
        "sprite_hits": sprites.SPRITES.hits,
        "sprite_bytes": sprites.SPRITES.bytes,
    }


def clear_cache() -> None:
    STATIC.clear()
    CLOSE_UPS.clear()
    PALETTES.clear()
    _TABLED_PALETTES.clear()
    sprites.SPRITES.clear()
    sprites.FACES.clear()
    _WORDLESS.clear()
    closeup._WINDOW_CELLS.clear()


# ----- helpers -----------------------------------------------------------------------------


def _items(scene: dict, key: str) -> list:
    value = scene.get(key) or []
    if not isinstance(value, list):
        raise SceneError(f"{key}: expected a list, got {type(value).__name__}.")
    for i, item in enumerate(value):
        if key not in ("header", "notes") and not isinstance(item, dict):
            raise SceneError(f"{key}[{i}]: expected an object, got {item!r}.")
    return value


def _scaled(width, cell: int, default: float) -> int:
    """Widths in scenes are pixels at a 40 px cell; scale them to the picture's cell size."""
    try:
        w = float(width if width is not None else default)
    except (TypeError, ValueError):
        raise SceneError(f"width: {width!r} is not a number.") from None
    return max(1, round(w * cell / 40))


def _halo_text(
    draw, xy, text, size, fill=(20, 20, 20), halo=(255, 255, 255), bold=True, anchor="mm"
):
    draw.text(
        xy,
        text,
        font=fonts.font(size, bold),
        fill=fill,
        anchor=anchor,
        stroke_width=max(1, size // 7),
        stroke_fill=halo,
    )


def _dot(draw, xy, width, colour):
    r = width / 2
    if r >= 1.5:
        draw.ellipse(
            (xy[0] - r + 0.5, xy[1] - r + 0.5, xy[0] + r - 0.5, xy[1] + r - 0.5), fill=colour
        )


def check(scene) -> None:
    if not isinstance(scene, dict):
        raise SceneError("scene: expected a dict (see renderer/scene.py).")
    for key in REQUIRED_KEYS:
        if key not in scene:
            raise SceneError(f"scene: the key {key!r} is required (see renderer/scene.py).")
    if not isinstance(scene["map_key"], str) or not scene["map_key"]:
        raise SceneError("map_key: expected a non-empty string naming the map.")


# ----- static layer ------------------------------------------------------------------------


def _build_static(scene: dict, lay: Layout) -> Image.Image:
    img = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, lay.width, lay.header_height - 1), fill=HEADER_BG)
    cell = lay.cell
    cells = (
        _items(scene, "cells")
        if "cells" in scene
        else [{"at": label} for label in _all_labels(lay)]
    )
    parsed = []
    outlines = []
    # a map fills and outlines every cell: Pillow's core draws them as ImageDraw's polygon and
    # line do (same calls, same pixels) without converting the colour again for each cell
    core_draw = draw.draw
    inks: dict = {}
    for i, c in enumerate(cells):
        at, colour = c.get("at"), c.get("fill")
        try:
            h = lay.parse(at)
            fill = sprites.rgb(colour) if colour else DEFAULT_FILL
        except SceneError:
            # read again to say which entry is wrong (worded only for a bad one)
            where = f"cells[{i}]"
            h = lay.parse(at, where)
            fill = sprites.rgb(colour, where + ".fill")
        parsed.append((h, c, fill))
        pts = lay.corners_of(h)
        ink = inks.get(fill)
        if ink is None:
            ink = inks[fill] = core_draw.draw_ink(fill)
        core_draw.draw_polygon(pts, ink, 1)
        pts.append(pts[0])
        outlines.append(pts)
    # square boards carry thick segment borders as regions/edges, so their grid stays faint
    outline = max(1, round(cell / 22)) if lay.kind == "hex" else max(1, round(cell / 60))
    ink = core_draw.draw_ink(GRID_INK if lay.kind == "hex" else (105, 105, 95))
    for pts in outlines:
        core_draw.draw_lines(pts, ink, outline)

    # roads, edges and region borders: hundreds of lines and round ends on a big map, drawn
    # as ImageDraw's line and _dot draw them (the same core calls), each colour converted once
    def ink_of(colour):
        found = inks.get(colour)
        if found is None:
            found = inks[colour] = core_draw.draw_ink(colour)
        return found

    def line(points, colour, width):
        core_draw.draw_lines(points, ink_of(colour), width)

    def dot(p, width, colour):
        r = width / 2
        if r >= 1.5:
            box = (p[0] - r + 0.5, p[1] - r + 0.5, p[0] + r - 0.5, p[1] + r - 0.5)
            core_draw.draw_ellipse(box, ink_of(colour), 1)

    for i, ln in enumerate(_items(scene, "lines")):
        where = f"lines[{i}]"
        a, b = lay.center(ln.get("from"), where + ".from"), lay.center(ln.get("to"), where + ".to")
        colour = sprites.rgb(ln.get("color") or ("#c2a878"), where + ".color")
        w = _scaled(ln.get("width"), cell, 6)
        kind = ln.get("kind", "road")
        if kind in ("causeway", "bridge", "walkway"):
            border = max(2, w // 3) if kind != "bridge" else max(3, w // 2)
            line([a, b], (45, 40, 35), w + 2 * border)
            for p in (a, b):
                dot(p, w + 2 * border, (45, 40, 35))
        line([a, b], colour, w)
        for p in (a, b):
            dot(p, w, colour)
        if kind == "aqueduct":
            line([a, b], (90, 160, 220), max(1, w // 3))

    for i, e in enumerate(_items(scene, "edges")):
        where = f"edges[{i}]"
        ha, hb = lay.parse(e.get("at"), where + ".at"), lay.parse(e.get("to"), where + ".to")
        side = lay.shared_side(ha, hb)
        if side is None:
            raise SceneError(
                f"{where}: {e.get('at')} and {e.get('to')} share no side; an edge joins "
                f"two cells next to each other."
            )
        w = _scaled(e.get("width"), cell, 5)
        colour = sprites.rgb(e.get("color") or ("#333333"), where + ".color")
        line(list(side), colour, w)
        for p in side:
            dot(p, w, colour)

    for i, rg in enumerate(_items(scene, "regions")):
        where = f"regions[{i}]"
        members = {lay.parse(lab, f"{where}.cells") for lab in rg.get("cells") or []}
        if not members:
            raise SceneError(f"{where}: a region needs at least one cell.")
        colour = sprites.rgb(rg.get("outline") or ("#000000"), where + ".outline")
        w = _scaled(rg.get("width"), cell, 3)
        for h in members:
            corners = lay.corners_of(h)
            for j, n in enumerate(lay.neighbours_of(h)):
                if n not in members:
                    p, q = corners[j], corners[(j + 1) % len(corners)]
                    line([p, q], colour, w)
                    dot(p, w, colour)
                    dot(q, w, colour)

    icon_r = cell * (0.36 if lay.kind == "hex" else 0.13)
    for i, (h, c, fill) in enumerate(parsed):
        cx, cy = lay.center_of(h)
        icon = c.get("icon")
        if icon:
            if icon not in ICONS:
                raise SceneError(
                    f"cells[{i}].icon: {icon!r} is not an icon; known: {', '.join(ICONS)}."
                )
            # squares: the icon gets the top-right corner, beside the label and above the
            # counter, so deployment zones and bunkers stay visible under a unit
            ix, iy = (cx, cy) if lay.kind == "hex" else (cx + cell * 0.3, cy - cell * 0.32)
            colour = c.get("icon_color")
            if colour and icon in COLOURED:
                ICONS[icon](draw, ix, iy, icon_r, sprites.rgb(colour, f"cells[{i}].icon_color"))
            else:
                ICONS[icon](draw, ix, iy, icon_r)
    for entry in _place_names(scene, lay):
        _paste_name(img, entry)
    # kept: pictures paste some labels again
    kept = _map_cells(scene, lay, frozenset(h for h, _, _ in parsed))
    paste = img.im.paste
    for h, _, _ in parsed:
        for solid, box, mask in kept.label_ops(lay, h):
            paste(solid, box, mask)

    for text, size, colour, xy, _ in _region_labels(scene, lay):
        _halo_text(draw, xy, text, size, fill=colour, anchor="lt")
    # the rulers' numbers repeat on every map of a size: masks kept, as for the cell labels
    # (pasting ink through the glyph's mask is what drawing the text does)
    _paste_ops(img, _RULER_OPS.get(lay, lambda: _ruler_ops(lay)))
    return img


RULER_INK = (25, 25, 25)


_RULER_MARKS = LruCache(64)
_RULER_OPS = LruCache(64)


def _ruler_ops(lay: Layout) -> tuple:
    """The pastes of the rulers' numbers (see :func:`_label_ops`): the same on every map of a
    layout."""
    ops = []
    for _, text, (x0, y0, _, _), (dx, dy) in _ruler_marks(lay):
        _, _, left, top = _label_part(text, "lt", lay.ruler_size, True)
        _, ink = _label_stamps(text, "lt", lay.ruler_size, True, RULER_INK)
        if ink is not None:
            x, y = x0 - dx + left, y0 - dy + top
            ink_left, ink_top, ink_right, ink_bottom, solid, mask = ink
            ops.append((solid, (x + ink_left, y + ink_top, x + ink_right, y + ink_bottom), mask))
    return tuple(ops)


def _ruler_marks(lay: Layout) -> list[tuple]:
    """The coordinate rulers of ``lay`` (see :func:`_measure_ruler_marks`), kept per layout."""
    return _RULER_MARKS.get(lay, lambda: _measure_ruler_marks(lay))


def _measure_ruler_marks(lay: Layout) -> list[tuple]:
    """The coordinate rulers: each column's part of the cell label above and below the map,
    each row's part left and right of it, as (edge, text, ink box, ink offset from the text's
    top-left) each. On hex maps odd and even columns take two staggered lines, as the columns
    do; the left ruler follows the first column's rows and the right one the last column's
    (even columns sit half a hex lower), so a row number sits level with its cells."""
    if not lay.ruler_size:
        return []
    font = fonts.font(lay.ruler_size, True)
    left, top, right, bottom = lay.frame
    size = lay.ruler_size
    first, last = lay.first_column, lay.first_column + lay.columns - 1
    marks = []

    def mark(edge, text, cx, cy):
        x0, y0, x1, y1 = font.getbbox(text, anchor="lt")
        w, h = x1 - x0, y1 - y0
        box = (round(cx - w / 2), round(cy - h / 2))
        marks.append((edge, text, (box[0], box[1], box[0] + w, box[1] + h), (x0, y0)))

    def cell_of(c, r):
        return hexgrid.from_offset(c, r) if lay.kind == "hex" else (c, r)

    band = lay.ruler_band
    for c in range(first, last + 1):
        text = _label(lay, cell_of(c, lay.first_row))
        text = text[:2] if lay.kind == "hex" else text[0]
        x = lay.center_of(cell_of(c, lay.first_row))[0]
        lower = lay.kind == "hex" and c % 2 == 1
        # line centres inside the band: one line on squares, two staggered lines on hexes
        shift = (size * 1.45 if lower else size * 0.55) if lay.kind == "hex" else band / 2
        mark("top", text, x, top - band + shift)
        mark("bottom", text, x, bottom + shift)
    side = lay.ruler_side
    for r in range(lay.first_row, lay.first_row + lay.rows):
        text = _label(lay, cell_of(first, r))
        text = text[2:] if lay.kind == "hex" else text[1:]
        mark("left", text, left - side / 2, lay.center_of(cell_of(first, r))[1])
        text = _label(lay, cell_of(last, r))
        text = text[2:] if lay.kind == "hex" else text[1:]
        mark("right", text, right + side / 2, lay.center_of(cell_of(last, r))[1])
    return marks


def _region_labels(scene: dict, lay: Layout) -> list[tuple]:
    """Region names near the region's top-left, moved down or right until they cover no cell
    label: (text, size, colour, top-left, box) each."""
    out = []
    cell = lay.cell
    for rg in _items(scene, "regions"):
        if not rg.get("label"):
            continue
        text = fonts.safe_text(str(rg["label"]))
        size = max(11, round(cell * 0.3))
        stroke = max(1, size // 7)
        w, h = fonts.text_width(text, size, True) + 2 * stroke, size * 1.2 + 2 * stroke
        corners = [
            p for lab in rg.get("cells") or [] for p in lay.corners_of(lay.parse(lab, "regions"))
        ]
        x = min(p[0] for p in corners) + cell * 0.25
        y = min(p[1] for p in corners) + cell * (0.3 if lay.kind == "hex" else 0.22)
        labels = _labels_near(lay, x + w / 2, y, w + 2 * cell)
        spot = (x, y)
        for k in range(16):
            for dx in (0.0, 0.5 * cell, cell):
                box = (
                    x + dx - stroke,
                    y + k * 0.12 * cell - stroke,
                    x + dx + w,
                    y + k * 0.12 * cell + h,
                )
                if not any(_overlap(box, b) > 0 for b in labels):
                    spot = (x + dx, y + k * 0.12 * cell)
                    break
            else:
                continue
            break
        colour = sprites.rgb(rg.get("outline") or ("#000000"))
        box = (spot[0] - stroke, spot[1] - stroke, spot[0] + w, spot[1] + h)
        out.append((text, size, colour, spot, box))
    return out


def _label(lay: Layout, h) -> str:
    return hexgrid.label(h) if lay.kind == "hex" else squaregrid.label(h)


LABEL_INK = (25, 25, 25)
LABEL_HALO = (250, 250, 244)
_LABEL_PARTS = LruCache(4096)


def _label_part(text: str, anchor: str, size: int, bold: bool):
    """Ink and halo masks of a label (or half a hex label; the halves repeat across a map)."""

    def build():
        f = fonts.font(size, bold)
        stroke = max(1, round(size / 7))
        left, top, right, bottom = f.getbbox(text, anchor=anchor, stroke_width=stroke)
        w, h = max(1, right - left), max(1, bottom - top)
        ink, halo = Image.new("L", (w, h), 0), Image.new("L", (w, h), 0)
        ImageDraw.Draw(halo).text(
            (-left, -top),
            text,
            font=f,
            fill=255,
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=255,
        )
        ImageDraw.Draw(ink).text((-left, -top), text, font=f, fill=255, anchor=anchor)
        return ink, halo, left, top

    return _LABEL_PARTS.get((text, anchor, size, bold), build)


# Pillow pastes a colour through a mask channel by channel with a check of the picture's mode
# at every pixel; an image of that colour through the same mask blends the same way (the same
# BLEND of the same values) at half the cost, and the masks' empty borders (a stroke wide
# around the ink) cost as much as their ink. Labels are most of a map layer's pastes.
_SOLIDS = LruCache(512)


def _solid(colour: tuple, size: tuple[int, int]):
    """Pillow's core of an RGB image of ``colour`` and ``size`` (kept: sizes repeat)."""
    return _SOLIDS.get((colour, size), lambda: Image.new("RGB", size, colour).im)


def _stamp(mask: Image.Image, colour: tuple):
    """How to paste ``colour`` through ``mask`` cheaply, with the same pixels: (left, top,
    right, bottom) of the mask's ink relative to the mask, the colour's image and the mask cut
    to that box; None when the mask is empty."""
    box = mask.getbbox()
    if box is None:
        return None
    size = (box[2] - box[0], box[3] - box[1])
    part = mask if box == (0, 0, mask.width, mask.height) else mask.crop(box)
    return (*box, _solid(colour, size), part.im)


_LABEL_STAMPS = LruCache(4096)


def _label_stamps(text: str, anchor: str, size: int, bold: bool, ink_colour=LABEL_INK):
    """The halo's and the ink's :func:`_stamp` of a :func:`_label_part`."""

    def build():
        ink, halo, _, _ = _label_part(text, anchor, size, bold)
        return _stamp(halo, LABEL_HALO), _stamp(ink, ink_colour)

    return _LABEL_STAMPS.get((text, anchor, size, bold, ink_colour), build)


def _pastes_bytes(pastes: tuple) -> int:
    """The memory of a label part's blended colour image (the masks are the stamps')."""
    if len(pastes) != 1:
        return 0
    width, height = pastes[0][4].size
    return width * height * 4


# 2.2 MB after the 90 positions of bench_render.py --mix (548 parts, 476 of them blended); the
# label pastes kept per layout (_LAYOUT_LABELS) hold on to those they use
_LABEL_PASTES = LruCache(4096, max_bytes=4 << 20, size_of=_pastes_bytes)


def _label_pastes(text: str, anchor: str, size: int, bold: bool) -> tuple:
    """The stamps a cell label's part is pasted with (see :func:`_label_ops`). Halo then ink:
    two pastes. Where the ink lies wholly on the halo's opaque pixels (almost every part of
    13 px and more; few of 10 px, whose ink's soft edge reaches the halo's), one paste gives
    the same pixels: the halo's mask with the halo's colour where the ink is not and the ink
    already blended in where it is (a paste through a mask at 255 puts the colour, at 0 leaves
    the picture, so where the halo is opaque the picture under it no longer counts). Labels
    are most of a map layer's pastes."""

    def build():
        halo_stamp, ink_stamp = _label_stamps(text, anchor, size, bold)
        if halo_stamp is None or ink_stamp is None:
            return (halo_stamp, ink_stamp)
        ink, halo, _, _ = _label_part(text, anchor, size, bold)
        # ink where the halo is not opaque: the smaller of the ink and the halo's gap is not 0
        if ImageChops.darker(ink, ImageChops.invert(halo)).getbbox() is not None:
            return (halo_stamp, ink_stamp)
        left, top, right, bottom, _, halo_mask = halo_stamp
        ink_left, ink_top, ink_right, ink_bottom, ink_solid, ink_mask = ink_stamp
        blended = Image.new("RGB", (right - left, bottom - top), LABEL_HALO)
        # the ink pasted as the two pastes paste it
        blended.im.paste(
            ink_solid,
            (ink_left - left, ink_top - top, ink_right - left, ink_bottom - top),
            ink_mask,
        )
        return ((left, top, right, bottom, blended.im, halo_mask),)

    return _LABEL_PASTES.get((text, anchor, size, bold), build)


def _label_pieces(lay: Layout, h, strong: bool = False):
    """(mask pair, paste position, :func:`_label_pastes`) of each part of the cell label of
    ``h``: hex labels centred at the top of the hex, square labels in the top-left corner."""
    cx, cy = lay.center_of(h)
    size = round(lay.label_size * (1.15 if strong else 1))
    top = cy + lay.label_top
    text = _label(lay, h)
    parts: list[tuple[str, str, float]]
    if lay.kind == "hex":
        parts = [(text[:2], "rt", cx), (text[2:], "lt", cx)]
    else:
        parts = [(text, "lt", cx - lay.cell * 0.46)]
    out = []
    bold = strong or lay.kind == "hex"
    for part, anchor, x in parts:
        ink, halo, dx, dy = _label_part(part, anchor, size, bold)
        stamps = _label_pastes(part, anchor, size, bold)
        out.append((ink, halo, (round(x + dx), round(top + dy)), stamps))
    return out


_LABEL_BOXES = LruCache(8192)


def label_box(lay: Layout, h, strong: bool = False) -> tuple[float, float, float, float]:
    """The box a cell's label (with its halo) covers in the picture."""
    cx, cy = lay.center_of(h)
    # the box around the centre depends on the text only (hex labels: DejaVu digits share a width)
    shared = lay.kind == "hex" and fonts.has_dejavu()

    def build():
        boxes = [
            (x - cx, y - cy, x - cx + ink.width, y - cy + ink.height)
            for ink, _, (x, y), _ in _label_pieces(lay, h, strong)
        ]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    text = "0000" if shared else _label(lay, h)
    # the pasted label snaps to whole pixels, so its box depends on the centre's fractions
    # too (a few per layout): with them in the key, the box is exact and never depends on
    # which cell happened to be asked first
    key = (lay, text, strong, cx % 1, cy % 1)
    dx0, dy0, dx1, dy1 = _LABEL_BOXES.get(key, build)
    return (cx + dx0, cy + dy0, cx + dx1, cy + dy1)


def _paste_label(img, lay: Layout, h, strong: bool = False) -> None:
    _paste_ops(img, _label_ops(_label_pieces(lay, h, strong)))


def _label_ops(pieces) -> tuple:
    """A label's pastes, part by part, halo before ink: (colour image, box, mask) each, in
    Pillow's core, as :func:`_stamp` says (the pixels of ``Image.paste`` of the colour through
    the whole mask, in about half the time). A map layer pastes over a thousand labels."""
    ops = []
    for _, _, (x, y), stamps in pieces:
        for stamp in stamps:
            if stamp is not None:
                left, top, right, bottom, solid, mask = stamp
                ops.append((solid, (x + left, y + top, x + right, y + bottom), mask))
    return tuple(ops)


def _paste_ops(img, ops) -> None:
    paste = img.im.paste
    for solid, box, mask in ops:
        paste(solid, box, mask)


def _wrap_name(text: str, size: int, width: float) -> tuple[list[str], int]:
    """A place name in at most two lines of at most ``width`` pixels: split at the space
    nearest the middle, then shrunk (never cut) until both lines fit."""
    words = text.split()
    lines = [text]
    if len(words) > 1 and fonts.text_width(text, size, True) > width:
        best = min(
            range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(text) / 2)
        )
        lines = [" ".join(words[:best]), " ".join(words[best:])]
    widest = max(lines, key=lambda line: fonts.text_width(line, size, True))
    return lines, fonts.fit_size(widest, size, width, True, smallest=max(7, round(size * 0.6)))


def _place_names(scene: dict, lay: Layout) -> list[tuple]:
    """Place names (``cells[].text``, else ``objectives[].name``) in the band under the
    counter: (cell, lines, size, centre, box) each."""
    cell = lay.cell
    names: dict = {}
    for c in scene.get("cells") or []:
        if isinstance(c, dict) and c.get("text"):
            names[lay.parse(str(c.get("at")), "cells")] = str(c["text"])
    out = []
    base = max(9, round(cell * (0.24 if lay.kind == "hex" else 0.17)))
    width = cell * (1.9 if lay.kind == "hex" else 0.96)
    for h, name in names.items():
        text = fonts.safe_text(name)
        lines, size = _wrap_name(text, base, width)
        cx, cy = lay.center_of(h)
        if len(lines) == 2:
            # two lines fill the band between the counter and the next cell's label
            size = min(size, max(7, round(cell * (0.19 if lay.kind == "hex" else 0.13))))
            y = cy + cell * (0.43 if lay.kind == "hex" else 0.28) + max(1, size // 7) + size * 0.5
        else:
            y = cy + lay.name_y
        stroke = max(1, size // 7)
        boxes = []
        for k, line in enumerate(lines):
            w = fonts.text_width(line, size, True) + 2 * stroke
            ly = y + k * size * 1.02
            boxes.append(
                (cx - w / 2, ly - size * 0.5 - stroke, cx + w / 2, ly + size * 0.5 + stroke)
            )
        box = (min(b[0] for b in boxes), boxes[0][1], max(b[2] for b in boxes), boxes[-1][3])
        out.append((h, lines, size, (cx, y), box))
    return out


def _paste_name(img, entry) -> None:
    _, lines, size, (cx, y), _ = entry
    for k, line in enumerate(lines):
        sprites.paste_text(
            img,
            (cx, y + k * size * 1.02),
            line,
            size,
            (20, 20, 20),
            True,
            "mm",
            max(1, size // 7),
            (255, 255, 255),
        )


def _all_labels(lay: Layout) -> list[str]:
    if lay.kind == "hex":
        return [
            hexgrid.label(hexgrid.from_offset(c, r))
            for c in range(lay.first_column, lay.first_column + lay.columns)
            for r in range(lay.first_row, lay.first_row + lay.rows)
        ]
    return [squaregrid.label((c, r)) for r in range(lay.rows) for c in range(lay.columns)]


# ----- dynamic layer -----------------------------------------------------------------------


def _words_to_lines(words, room: float, size: int):
    """Greedy flow of words into lines no wider than ``room``. A word is a list of (text,
    bold, colour) segments (a pair's label sticks to its value's first word) with the gap
    before it; only a word wider than a whole line is cut, with an ellipsis."""
    lines: list[list] = [[]]
    width = 0.0
    for segments, gap, new_line in words:
        w = sum(fonts.text_width(t, size, b) for t, b, _ in segments)
        if lines[-1] and (new_line or width + gap + w > room):
            lines.append([])
            width = 0.0
        if w > room:
            t, b, c = segments[-1]
            rest = room - (w - fonts.text_width(t, size, b))
            segments = segments[:-1] + [(fonts.fit(t, size, max(rest, 0), b), b, c)]
        x = width + (gap if lines[-1] else 0)
        for t, b, c in segments:
            lines[-1].append((t, b, c, x))
            x += fonts.text_width(t, size, b)
        width = x
    return lines


def _header_words(scene: dict, ts: int):
    out = []
    space = fonts.text_width(" ", ts)
    for i, pair in enumerate(_items(scene, "header")):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise SceneError(f"header[{i}]: expected a [label, value] pair, got {pair!r}.")
        key, value = fonts.safe_text(str(pair[0])), fonts.safe_text(str(pair[1]))
        words = value.split() or ["–"]
        out.append(
            (
                [(f"{key} ", False, (175, 185, 200)), (words[0], True, (255, 255, 255))],
                ts * 1.1,
                False,
            )
        )
        for word in words[1:]:
            out.append(([(word, True, (255, 255, 255))], space, False))
    for note in _items(scene, "notes"):
        for k, word in enumerate(fonts.safe_text(str(note)).split()):
            out.append(([(word, False, (215, 215, 200))], space, k == 0))
    return out


def _header(img, draw, scene: dict, lay: Layout, drawn: Drawn | None = None) -> None:
    pad = round(lay.title_size * 0.5)
    room = lay.width - 2 * pad
    legend = _items(scene, "legend")
    entries = []
    for i, entry in enumerate(legend):
        text = fonts.safe_text(str(entry.get("text", "")))
        colour = sprites.rgb(entry.get("color") or ("#888888"), f"legend[{i}].color")
        entries.append((text, colour))
    # every side stays in the legend: its text shrinks first, then it takes a line of its own
    lts = lay.text_size

    def legend_width(size):
        return sum(fonts.text_width(t, size, True) + size * 2.0 for t, _ in entries)

    while lts > lay.text_size * 0.7 and legend_width(lts) > room * 0.55:
        lts -= 1
    own_line = legend_width(lts) > room * 0.55
    if own_line:
        lts = fonts.fit_size("x", lay.text_size, room) if not entries else lay.text_size
        while lts > 9 and legend_width(lts) > room:
            lts -= 1
    title = fonts.safe_text(str(scene.get("title") or ""))
    title_room = room - (0 if own_line else legend_width(lts) + lay.text_size)
    title_size = (
        fonts.fit_size(
            title, lay.title_size, title_room, True, smallest=round(lay.title_size * 0.6)
        )
        if title
        else lay.title_size
    )
    if title:
        shown = fonts.fit(title, title_size, title_room, True)
        sprites.paste_text(
            img,
            (pad, pad + (lay.title_size - title_size) * 0.5),
            shown,
            title_size,
            (255, 255, 255),
            True,
            "la",
        )
        if drawn is not None:
            w = fonts.text_width(shown, title_size, True)
            drawn.texts.append(("title", shown, (pad, pad, pad + w, pad + title_size * 1.2)))
    band_top = pad + lay.title_size * 1.4
    band = lay.header_height - band_top - pad * 0.4
    legend_y = pad + lay.title_size * 0.55
    if own_line:
        legend_y = band_top + lts * 0.6
        band_top += lts * 1.35
        band -= lts * 1.35
    x = lay.width - pad if not own_line else pad + legend_width(lts)
    for text, colour in reversed(entries):
        tw = fonts.text_width(text, lts, True)
        sprites.paste_text(img, (x, legend_y), text, lts, (240, 240, 240), True, "rm")
        if drawn is not None:
            drawn.legend.append(text)
            drawn.texts.append(
                ("legend", text, (x - tw, legend_y - lts * 0.6, x, legend_y + lts * 0.6))
            )
        x -= tw + lts * 0.4
        draw.rectangle(
            (x - lts, legend_y - lts / 2, x, legend_y + lts / 2),
            fill=colour,
            outline=(255, 255, 255),
        )
        x -= lts * 1.6

    # header pairs and notes wrap at spaces; when they need more lines than the band holds,
    # the text gets smaller instead of being cut
    ts = lay.text_size
    while True:
        lines = _words_to_lines(_header_words(scene, ts), room, ts)
        if len(lines) * ts * 1.3 <= band + 1 or ts <= 9:
            break
        ts -= 1
    fitting = max(1, int((band + 1) // (ts * 1.3)))
    if len(lines) > fitting:
        lines = lines[:fitting]
        last = lines[-1][-1]
        lines[-1].append(
            ("…", True, (255, 255, 255), last[3] + fonts.text_width(last[0] + " ", ts, last[1]))
        )
    y = band_top
    for line in lines:
        for text, bold, colour, x in line:
            if text:
                sprites.paste_text(img, (pad + x, y), text, ts, colour, bold, "la")
                if drawn is not None:
                    w = fonts.text_width(text, ts, bold)
                    drawn.texts.append(("header", text, (pad + x, y, pad + x + w, y + ts * 1.2)))
        y += ts * 1.3


def _objectives(img, draw, scene: dict, lay: Layout, names: list, drawn: Drawn | None) -> list:
    """Inset outlines in the controller's colour; the cell's label and name are pasted again
    over the outline so it never hides them. Returns the names it added (objectives named
    only in ``objectives[].name``)."""
    named = {entry[0]: entry for entry in names}
    added = []
    cells = _map_cells(scene, lay)  # the map's labels, strong ones too, kept per map
    for i, ob in enumerate(_items(scene, "objectives")):
        where = f"objectives[{i}]"
        h = lay.parse(ob.get("at"), where + ".at")
        colour = sprites.rgb(ob["color"], where + ".color") if ob.get("color") else (255, 255, 255)
        pts, w = _outline(lay, h)
        draw.line(pts, fill=(20, 20, 20), width=w + 4, joint="curve")
        draw.line(pts, fill=colour, width=w, joint="curve")
        cells.paste_label(img, lay, h)
        entry = named.get(h)
        # a name that only repeats the cell's label (Rivet Wars names objectives by segment)
        # would print the same thing twice
        if entry is None and ob.get("name") and str(ob["name"]).upper() != _label(lay, h):
            entry = _place_names({"cells": [{"at": ob["at"], "text": ob["name"]}]}, lay)[0]
            added.append(entry)
            if drawn is not None:
                drawn.texts.append(("name", " ".join(entry[1]), entry[4]))
        if entry is not None:
            _paste_name(img, entry)
    return added


def _outline(lay: Layout, h) -> tuple[list, int]:
    """The closed path of an objective's inset outline in cell ``h`` and its width."""
    cx, cy = lay.center_of(h)
    inset = 0.84 if lay.kind == "hex" else 0.86
    w = max(3, round(lay.cell * (0.12 if lay.kind == "hex" else 0.09)))
    pts = [(cx + (x - cx) * inset, cy + (y - cy) * inset) for x, y in lay.corners_of(h)]
    return pts + [pts[0]], w


def outline_boxes(lay: Layout, h) -> list[tuple[float, float, float, float]]:
    """Boxes around each side of the objective outline of cell ``h`` (with its dark rim):
    what a dice label must not hide, so the side holding the place stays visible."""
    pts, w = _outline(lay, h)
    r = (w + 4) / 2
    return [
        (min(p[0], q[0]) - r, min(p[1], q[1]) - r, max(p[0], q[0]) + r, max(p[1], q[1]) + r)
        for p, q in zip(pts, pts[1:])
    ]


_MAP_CELLS = LruCache(16)


class _MapCells:
    """Per map layer: the cells the map has (holes have no label), those with strong labels,
    and, filled as pictures need them, each cell's label box and label masks with their
    places. Re-pasting labels under arrows asks for the same cells picture after picture."""

    def __init__(self, present: frozenset, strong: frozenset, ops: dict):
        self.present, self.strong = present, strong
        self._boxes: dict = {}
        self._ops = ops  # shared by the maps of a layout: (cell, strong) -> label_ops

    def label_box(self, lay: Layout, h) -> tuple:
        box = self._boxes.get(h)
        if box is None:
            box = self._boxes[h] = label_box(lay, h, h in self.strong)
        return box

    def label_ops(self, lay: Layout, h) -> tuple:
        """The :func:`_label_ops` of the label of ``h``."""
        key = (h, h in self.strong)
        ops = self._ops.get(key)
        if ops is None:
            ops = self._ops[key] = _label_ops(_label_pieces(lay, h, key[1]))
        return ops

    def paste_label(self, img, lay: Layout, h) -> None:
        _paste_ops(img, self.label_ops(lay, h))


# A cell's label pastes depend on the layout only; Tactical Table War's and Pocket Tactics'
# maps change as tiles are laid, and each new map would place every label again
_LAYOUT_LABELS = LruCache(32)


def _map_cells(scene: dict, lay: Layout, present: frozenset | None = None) -> _MapCells:
    """The :class:`_MapCells` of the scene's map at ``lay`` (``present``: its cells, when the
    caller has parsed them already)."""

    def build():
        cells = (
            _items(scene, "cells")
            if "cells" in scene
            else [{"at": lab} for lab in _all_labels(lay)]
        )
        return _MapCells(
            present
            if present is not None
            else frozenset(lay.parse(str(c.get("at")), "cells") for c in cells),
            frozenset(_strong_labels(scene, lay)),
            _LAYOUT_LABELS.get(lay, dict),
        )

    return _MAP_CELLS.get(static_key(scene, lay), build)


def _cells_along(lay: Layout, a, b) -> set:
    """Grid cells whose centre may lie near the segment a-b: those around points half a cell
    apart along it (a long arrow across a big map passes few of the map's cells)."""
    steps = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / (lay.cell * 0.5)))
    cell = lay.cell
    if lay.kind == "hex":
        col_step, row_step = 1.5 * cell, SQRT3 * cell
    else:
        col_step = row_step = cell
    first_col, first_row = lay.first_column, lay.first_row
    end_col, end_row = first_col + lay.columns, first_row + lay.rows
    spots: set[tuple[int, int]] = set()
    seen = None
    for k in range(steps + 1):
        x = a[0] + (b[0] - a[0]) * k / steps
        y = a[1] + (b[1] - a[1]) * k / steps
        # a generous square of cells around the point
        col0 = (x - lay.origin_x) / col_step + first_col
        row0 = (y - lay.origin_y) / row_step + first_row
        square = (
            max(first_col, int(col0 - 1.5)),
            min(end_col, int(col0 + 1.5) + 1),
            max(first_row, int(row0 - 1.5)),
            min(end_row, int(row0 + 1.5) + 1),
        )
        if square == seen:  # points half a cell apart often share their square
            continue
        seen = square
        # the cells in the same order as two nested loops, without their Python steps
        spots.update(product(range(square[0], square[1]), range(square[2], square[3])))
    if lay.kind == "hex":
        # hexgrid.from_offset, inlined (a thousand cells a picture)
        return {(col, row - (col - (col & 1)) // 2) for col, row in spots}
    return spots


def _repaste_labels_under(img, scene: dict, lay: Layout, segments, width: float, keep=()) -> None:
    """Paste again the label of every cell that one of ``segments`` (lines ``width`` wide,
    with their halo) crosses, except labels under a box of ``keep`` (dice labels)."""
    cells = _map_cells(scene, lay)
    present = cells.present
    pad = width * 2.2 + 2  # arrow heads are wider than their shafts
    for a, b in segments:
        left, right = min(a[0], b[0]) - pad, max(a[0], b[0]) + pad
        top, bottom = min(a[1], b[1]) - pad, max(a[1], b[1]) + pad
        for h in _cells_along(lay, a, b):
            if h not in present:
                continue
            x0, y0, x1, y1 = cells.label_box(lay, h)
            if x1 < left or x0 > right or y1 < top or y0 > bottom:
                continue  # beside the segment's box: it cannot cross the label
            if _segment_crosses_box(a, b, (x0 - pad, y0 - pad, x1 + pad, y1 + pad)) and not any(
                _overlap((x0, y0, x1, y1), k) > 0 for k in keep
            ):
                cells.paste_label(img, lay, h)


def _repaste_names_under(img, names: list, segments, width: float) -> None:
    """Paste again every place name that one of ``segments`` (lines ``width`` wide, with their
    halo and head) crosses: an arrow through a town must not hide its name."""
    pad = width * 2.2 + 2
    for entry in names:
        x0, y0, x1, y1 = entry[4]
        grown = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        if any(_segment_crosses_box(a, b, grown) for a, b in segments):
            _paste_name(img, entry)


def _segment_crosses_box(p, q, box) -> bool:
    """Whether the segment p-q passes through ``box``, exactly (clipped Liang-Barsky style)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for delta, low, high, start in ((dx, box[0], box[2], p[0]), (dy, box[1], box[3], p[1])):
        if delta == 0:
            if not low <= start <= high:
                return False
            continue
        a, b = (low - start) / delta, (high - start) / delta
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
        if t0 > t1:
            return False
    return True


def _strong_labels(scene: dict, lay: Layout) -> set:
    out = set()
    for c in scene.get("cells") or []:
        if isinstance(c, dict) and c.get("strong_label"):
            out.add(lay.parse(str(c.get("at")), "cells"))
    return out


def _shorten(pts, start: float, end: float):
    pts = [tuple(p) for p in pts]
    if len(pts) < 2:
        return pts

    def move(p, q, d):
        dx, dy = q[0] - p[0], q[1] - p[1]
        length = math.hypot(dx, dy) or 1.0
        d = min(d, length * 0.45)
        return p[0] + dx / length * d, p[1] + dy / length * d

    pts[0] = move(pts[0], pts[1], start)
    pts[-1] = move(pts[-1], pts[-2], end)
    return pts


def _arrow(draw, pts, colour, width: int, halo=(255, 255, 255)) -> None:
    head_len, head_half = width * 2.6, width * 1.6
    (px, py), (tx, ty) = pts[-2], pts[-1]
    dx, dy = tx - px, ty - py
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    base = (tx - ux * head_len, ty - uy * head_len)
    body = pts[:-1] + [base]
    head = [
        (tx, ty),
        (base[0] - uy * head_half, base[1] + ux * head_half),
        (base[0] + uy * head_half, base[1] - ux * head_half),
    ]
    hw = max(2, width // 3)
    if halo is not None:
        draw.line(body, fill=halo, width=width + 2 * hw, joint="curve")
        _dot(draw, body[0], width + 2 * hw, halo)
        big = [
            (tx + ux * hw * 1.8, ty + uy * hw * 1.8),
            (
                base[0] - uy * (head_half + hw * 1.6) - ux * hw,
                base[1] + ux * (head_half + hw * 1.6) - uy * hw,
            ),
            (
                base[0] + uy * (head_half + hw * 1.6) - ux * hw,
                base[1] - ux * (head_half + hw * 1.6) - uy * hw,
            ),
        ]
        draw.polygon(big, fill=halo)
    draw.line(body, fill=colour, width=width, joint="curve")
    _dot(draw, body[0], width, colour)
    draw.polygon(head, fill=colour)


def _arrow_points(lay: Layout, arrow: dict, where: str):
    path = arrow.get("path") or []
    if not isinstance(path, list) or len(path) < 2:
        raise SceneError(f"{where}.path: an arrow needs a list of at least two cells.")
    return [lay.center(lab, f"{where}.path") for lab in path]


def _pieces(
    img, scene: dict, lay: Layout, drawn: Drawn | None = None
) -> list[tuple[float, float, float, float]]:
    """Paste the counters between each cell's label and name bands; returns their boxes
    (attack labels avoid them)."""
    cell = lay.cell
    boxes = []
    by_cell: dict = {}
    for i, p in enumerate(_items(scene, "pieces")):
        h = lay.parse(p.get("at"), f"pieces[{i}].at")
        by_cell.setdefault(h, []).append((i, p))
    full = lay.counter_side
    quarter = round(full * 0.5)
    offset = full * 0.255
    ox, oy = lay.counter_offset
    slots = ((-1, -1), (1, -1), (-1, 1), (1, 1))
    draw = None
    for h, group in by_cell.items():
        cx, cy = lay.center_of(h)
        cx, cy = cx + ox, cy + oy
        if len(group) == 1:
            placed = [(group[0][0], group[0][1], cx, cy, full)]
            hidden = 0
        else:
            taken: dict[int, tuple] = {}
            loose = []
            for i, p in group:
                slot = p.get("slot")
                if isinstance(slot, int) and 0 <= slot <= 3 and slot not in taken:
                    taken[slot] = (i, p)
                else:
                    loose.append((i, p))
            for i, p in loose:
                free = next((s for s in range(4) if s not in taken), None)
                if free is None:
                    break
                taken[free] = (i, p)
            placed = [
                (i, p, cx + slots[s][0] * offset, cy + slots[s][1] * offset, quarter)
                for s, (i, p) in sorted(taken.items())
            ]
            hidden = len(group) - len(placed)
        for i, p, x, y, side in placed:
            compact = side != full
            where = f"pieces[{i}]"
            colour = sprites.rgb(p.get("color") or ("#777777"), where + ".color")
            text_colour = (
                sprites.rgb(p["text_color"], where + ".text_color")
                if p.get("text_color")
                else sprites.contrast_text(colour)
            )
            sprite = sprites.counter(
                side,
                colour,
                text_colour,
                fonts.safe_text(str(p.get("title") or "")),
                fonts.safe_text(str(p.get("values") or "")),
                bool(p.get("flipped")),
                str(p["badge"]) if p.get("badge") not in (None, "") else "",
                p.get("symbol"),
                compact,
                sprites.rgb(p["badge_color"], where + ".badge_color")
                if p.get("badge_color")
                else (214, 39, 40),
                fonts.safe_text(str(p.get("subtitle") or "")),
            )
            m = sprites.counter_margin(side)
            sprites.paste(img, sprite, round(x - side / 2 - m), round(y - side / 2 - m))
            boxes.append((x - side / 2, y - side / 2, x + side / 2, y + side / 2))
            if drawn is not None:
                drawn.counters.append((str(p.get("id") or i), boxes[-1]))
                if p.get("values"):
                    size = sprites.factor_size(
                        side,
                        fonts.safe_text(str(p.get("title") or "")),
                        fonts.safe_text(str(p["values"])),
                        p.get("symbol"),
                        bool(p.get("flipped")),
                        fonts.safe_text(str(p.get("subtitle") or "")),
                        compact,
                    )
                    drawn.factors.append((str(p.get("id") or i), size, boxes[-1]))
        if len(group) > 1 and hidden > 0:
            draw = draw or ImageDraw.Draw(img)
            _halo_text(draw, (cx, cy), f"+{hidden}", max(10, round(cell * 0.4)), fill=(200, 0, 0))
    return boxes


def _markers(img, draw, scene: dict, lay: Layout, under: bool) -> tuple[list, int]:
    """Clouds (gas, smoke) go ``under`` the counters so these stay readable and the cloud shows
    around them; every other marker goes over them. Returns the sides of the highlights drawn
    and their width."""
    cell = lay.cell
    # beside the counter, clear of the label and name bands
    if lay.kind == "hex":
        corners = ((0.73, -0.05), (-0.73, -0.05), (0.62, -0.42), (-0.62, -0.42))
    else:
        corners = ((-0.36, 0.02), (-0.36, 0.3), (-0.36, 0.02), (-0.36, 0.3))
    used: dict = {}
    late = []
    outlined: list = []
    w = max(3, round(cell * 0.12))
    for i, mk in enumerate(_items(scene, "markers")):
        where = f"markers[{i}]"
        kind = mk.get("kind")
        if kind not in sprites.MARKER_KINDS:
            raise SceneError(
                f"{where}.kind: {kind!r} is not a marker kind; known: "
                f"{', '.join(sprites.MARKER_KINDS)}."
            )
        h = lay.parse(mk.get("at"), where + ".at")
        if under != (kind in ("gas", "smoke")):
            continue
        cx, cy = lay.center_of(h)
        colour = sprites.rgb(
            mk.get("color") or sprites.MARKER_DEFAULT_COLORS[kind], where + ".color"
        )
        text = fonts.safe_text(str(mk.get("text") or ""))
        if kind == "highlight":
            pts = lay.corners_of(h)
            draw.line(pts + [pts[0]], fill=colour, width=w, joint="curve")
            outlined.extend(zip(pts, pts[1:] + pts[:1]))
            # a cell offered for a move or a tile gets its label even where no tile lies yet,
            # so the command can be typed without counting
            _paste_label(img, lay, h)
            continue
        if kind in ("gas", "smoke", "flare"):
            size = round(cell * (1.9 if lay.kind == "hex" else 1.15))
            x, y = cx, cy
            if kind == "flare":
                late.append((kind, size, colour, text, x, y))
                continue
        else:
            n = used.get(h, 0)
            used[h] = n + 1
            # a flag says who holds a place: big enough to see without zooming
            size = round(
                cell * (0.42 if lay.kind == "hex" else 0.26) * (1.3 if kind == "flag" else 1)
            )
            dx, dy = corners[n % 4]
            x, y = cx + dx * cell, cy + dy * cell
        sprite = sprites.marker(kind, size, colour, text)
        sprites.paste(img, sprite, round(x - size / 2), round(y - size / 2))
    for kind, size, colour, text, x, y in late:
        sprite = sprites.marker(kind, size, colour, text)
        sprites.paste(img, sprite, round(x - size / 2), round(y - size / 2))
    return outlined, w


def _joined_counters(img, draw, scene: dict, lay: Layout) -> None:
    """A counter lying across a hexside (``pieces[].joined``: the other cell it covers, e.g. a
    horse) is drawn as one: a bar in its colour joins its two cells under the counters, wide
    enough to show at a phone's width. A join to a cell outside the grid (the close-up's
    window holds one of the cells) is left out."""
    ox, oy = lay.counter_offset
    width = round(lay.counter_side * 0.6)
    segments = []
    for i, p in enumerate(_items(scene, "pieces")):
        other = p.get("joined")
        if not other:
            continue
        try:
            a, b = lay.center(p.get("at")), lay.center(other)
        except SceneError:
            continue
        colour = sprites.rgb(p.get("color") or "#777777", f"pieces[{i}].color")
        line = [(a[0] + ox, a[1] + oy), (b[0] + ox, b[1] + oy)]
        draw.line(line, fill=colour, width=width)
        segments.append(tuple(line))
    if segments:
        # the bar crosses the hexside and, between cells of one column, the lower cell's label
        _repaste_labels_under(img, scene, lay, segments, width)


def _leader_start(point, anchor, counters) -> tuple[float, float]:
    """Where a label's leader line starts: at ``point``, or where the line leaves the counter
    standing on it, so the line never strikes through that counter's factors."""
    x, y = point
    for box in counters:
        if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            dx, dy = anchor[0] - x, anchor[1] - y
            # the smallest step along the line that reaches one of the box's sides
            steps = [
                (side - c) / d
                for side_a, side_b, c, d in ((box[0], box[2], x, dx), (box[1], box[3], y, dy))
                if d
                for side in (side_a, side_b)
                if (side - c) / d > 0
            ]
            t = min(min(steps, default=0.0), 1.0)
            return (x + dx * t, y + dy * t)
    return point


def _corner_marker_boxes(scene: dict, lay: Layout) -> list[tuple]:
    """Boxes of the markers :func:`_markers` puts at a cell's corners (a fire and its age, a
    flag): a text label placed over one would hide what it marks. Same spots as there."""
    if lay.kind == "hex":
        corners = ((0.73, -0.05), (-0.73, -0.05), (0.62, -0.42), (-0.62, -0.42))
        size = lay.cell * 0.42
    else:
        corners = ((-0.36, 0.02), (-0.36, 0.3), (-0.36, 0.02), (-0.36, 0.3))
        size = lay.cell * 0.26
    used: dict = {}
    boxes = []
    for mk in _items(scene, "markers"):
        if mk.get("kind") in ("highlight", "gas", "smoke", "flare"):
            continue
        h = lay.parse(mk.get("at"))
        n = used.get(h, 0)
        used[h] = n + 1
        # a margin of a third around the sprite: its age or count and dark outline reach out
        half = size * (1.3 if mk.get("kind") == "flag" else 1) * 0.66
        cx, cy = lay.center_of(h)
        dx, dy = corners[n % 4]
        x, y = cx + dx * lay.cell, cy + dy * lay.cell
        boxes.append((x - half, y - half, x + half, y + half))
    return boxes


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _segment_hits_box(p, q, box) -> bool:
    """Whether the segment p-q passes through ``box`` (sampled: leaders are short)."""
    if (
        max(p[0], q[0]) < box[0]
        or min(p[0], q[0]) > box[2]
        or max(p[1], q[1]) < box[1]
        or min(p[1], q[1]) > box[3]
    ):
        return False
    for k in range(11):
        t = k / 10
        x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            return True
    return False


def _labels_near(lay: Layout, x: float, y: float, reach: float) -> list:
    """Boxes of the cell labels within ``reach`` of a point (cells of the grid's window; a
    label of a cell the map lacks is avoided too, which costs nothing)."""
    cell = lay.cell
    if lay.kind == "hex":
        col0 = (x - lay.origin_x) / (1.5 * cell) + lay.first_column
        row0 = (y - lay.origin_y) / (SQRT3 * cell) + lay.first_row
        span_c, span_r = reach / (1.5 * cell) + 2, reach / (SQRT3 * cell) + 2
    else:
        col0 = (x - lay.origin_x) / cell + lay.first_column
        row0 = (y - lay.origin_y) / cell + lay.first_row
        span_c = span_r = reach / cell + 2
    columns = range(
        max(lay.first_column, int(col0 - span_c)),
        min(lay.first_column + lay.columns, int(col0 + span_c) + 1),
    )
    rows = range(
        max(lay.first_row, int(row0 - span_r)),
        min(lay.first_row + lay.rows, int(row0 + span_r) + 1),
    )
    if lay.kind == "hex":  # hexgrid.from_offset, inlined (hundreds of cells per dice label)
        cells = [(col, row - (col - (col & 1)) // 2) for col in columns for row in rows]
    else:
        cells = [(col, row) for col in columns for row in rows]
    if not (lay.kind == "hex" and fonts.has_dejavu()):
        return [label_box(lay, h) for h in cells]
    if not cells:
        return []
    # every hex label has the same box around its centre (digits share a width): the first
    # cell's label box gives it
    center_of = lay.center_of
    cx, cy = center_of(cells[0])
    b = label_box(lay, cells[0])
    dx0, dy0, dx1, dy1 = b[0] - cx, b[1] - cy, b[2] - cx, b[3] - cy
    out = []
    for h in cells:
        cx, cy = center_of(h)
        out.append((cx + dx0, cy + dy0, cx + dx1, cy + dy1))
    return out


class _Boxes:
    """The areas a candidate label box would hide, read from a half-resolution mask around the
    label: counters (never, 255), over names and objective outlines (only when nothing else is
    free, 2), over cell labels (rather not, 1). Pillow counts the pixels in C; summing box
    overlaps in Python was most of a big map's picture."""

    SCALE = 2

    def __init__(self, must, should, rather, around):
        self.x0, self.y0 = around[0], around[1]
        k = self.SCALE
        size = (
            max(1, math.ceil((around[2] - around[0]) / k)),
            max(1, math.ceil((around[3] - around[1]) / k)),
        )
        self.mask = Image.new("L", size, 0)
        # filled through Pillow's core: hundreds of boxes per label, and ImageDraw's checks
        # per box cost more than the filling (the same pixels as ``rectangle``)
        paste = self.mask.im.paste
        floor, ceil, ox, oy = math.floor, math.ceil, self.x0, self.y0
        for boxes, value in ((rather, 1), (should, 2), (must, 255)):
            for b0, b1, b2, b3 in boxes:
                # rounded outwards: a near miss counts as hiding, never the reverse
                x0 = floor((b0 - ox) / k)
                y0 = floor((b1 - oy) / k)
                x1 = ceil((b2 - ox) / k)
                y1 = ceil((b3 - oy) / k)
                if x1 > x0 and y1 > y0:
                    paste(value, (x0, y0, x1, y1))

    def hidden(self, box, limit: float | None = None) -> tuple[float, float, float] | None:
        """(area of counters, of names and outlines, of cell labels) under ``box``; None when
        ``limit`` is given and hiding a counter (a name or an outline) is under ``box``, whose
        cost alone, 1e9 (1e7) in :func:`_best_spot`, is at least ``limit``."""
        k = self.SCALE
        # Pillow's core crop, extrema and histogram: what Image.crop, getextrema and
        # histogram call, without their checks (a hundred candidates per label)
        part = self.mask.im.crop(
            (
                math.floor((box[0] - self.x0) / k),
                math.floor((box[1] - self.y0) / k),
                math.ceil((box[2] - self.x0) / k),
                math.ceil((box[3] - self.y0) / k),
            )
        )
        top = part.getextrema()[1]
        if top == 0:
            return 0.0, 0.0, 0.0
        # the mask's highest value tells the dearest thing hidden, in a tenth of the time of
        # counting them (the histogram): a spot over a counter (a name) costs more than 1e9
        # (1e7), so once a spot found costs no more than that, it cannot win
        if limit is not None and (top == 255 and limit <= 1e9 or top == 2 and limit <= 1e7):
            return None
        counts = part.histogram()
        return counts[255] * k * k, counts[2] * k * k, counts[1] * k * k


def _best_spot(candidates, spot, lay: Layout, placed, leaders, hide: _Boxes):
    """The cheapest free box for a label of size (w, h) anchored at (x, y): (cost, box, leader
    end, area of counters, names and outlines hidden, area of cell labels hidden), or None when
    every candidate touches a placed label or leader. Counters are hidden only when nothing
    else is possible, then names and objective outlines, cell labels as little as possible.
    Candidates come nearest first, so the first that hides nothing wins."""
    x, y, w, h = spot
    best = None
    left, top, right, bottom = lay.frame
    for i, (dx, dy) in enumerate(candidates):
        # a candidate costs at least its distance and its place in the order, both growing
        # along the candidates (nearest first), and only a cheaper one replaces the best: once
        # that floor reaches the best, no later candidate can win (the same floats as below)
        if best is not None and best[0] <= math.hypot(dx, dy) * lay.cell * 0.3 + i * 0.01:
            break
        # inside the map's frame: the rulers around it stay readable
        x0 = min(max(x + dx - w / 2, left), right - w)
        y0 = min(max(y + dy - h / 2, top), bottom - h)
        box = (x0, y0, x0 + w, y0 + h)
        # (the first label of a picture has nothing placed to avoid: no generators to set up
        # for each of its candidates)
        if placed and any(_overlap(box, b) > 0 for b in placed):
            continue
        anchor = (min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3]))
        # a leader must not cross another label, except one already lying over the arrow's
        # middle (an attack and its answer share one line): from under it is the only way out
        if (leaders and any(_segment_hits_box(p, q, box) for p, q in leaders)) or (
            placed
            and any(
                _segment_hits_box((x, y), anchor, b)
                for b in placed
                if not (b[0] <= x <= b[2] and b[1] <= y <= b[3])
            )
        ):
            continue
        # (a spot whose counters or names alone cost as much as the best found cannot win:
        # its cost adds at least 3 px² per pixel hidden to 1e9 or 1e7, far beyond rounding)
        found = hide.hidden(box, None if best is None else best[0])
        if found is None:
            continue
        counters, hidden, covered = found
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
        if counters == 0 and hidden == 0 and covered == 0:
            break
    return best


@functools.lru_cache(maxsize=64)
def _label_spots(cell: float) -> tuple[tuple, tuple]:
    """Where a dice label may go around its arrow's middle, nearest first: rings of twelve
    spots (coarse), and a fine grid for when every ring spot hides something (the same for
    every label at a cell size; sorting the 555 grid spots was a fifth of a millisecond per
    picture)."""
    offsets = [(0.0, 0.0)]
    for k in range(1, 7):
        d = k * 0.45 * cell
        offsets += [
            (0, -d),
            (0, d),
            (-d, 0),
            (d, 0),
            (-d, -d),
            (d, -d),
            (-d, d),
            (d, d),
            (-d / 2, -d),
            (d / 2, -d),
            (-d / 2, d),
            (d / 2, d),
        ]
    offsets.sort(key=lambda d: math.hypot(*d))
    step_x, step_y = cell * 0.4, cell * 0.12
    dense = sorted(
        ((i * step_x, j * step_y) for i in range(-7, 8) for j in range(-18, 19)),
        key=lambda d: math.hypot(*d),
    )
    return tuple(offsets), tuple(dense)


def _attack_labels(
    img, draw, labels, lay: Layout, counters, avoid, drawn: Drawn | None, repaste=None
) -> None:
    """One label per attack near its arrow's middle, at the candidate spot that overlaps no
    other label and hides the fewest counters and cell labels; a leader line joins a moved
    label to its arrow without crossing another label."""
    if not labels:
        return
    ts = max(11, min(lay.text_size, round(lay.cell * 0.38)))
    placed: list[tuple[float, float, float, float]] = []
    leaders: list[tuple[tuple, tuple]] = []
    boxes: list = []
    offsets, dense = _label_spots(lay.cell)
    for (x, y), text, colour, segment in labels:
        w = fonts.text_width(text, ts, True) + ts * 0.8
        h = ts * 1.45
        reach = 3.2 * lay.cell + w
        nearby = [c for c in counters if abs(c[0] - x) < reach and abs(c[1] - y) < reach]
        near_avoid = [c for c in avoid if abs(c[0] - x) < reach and abs(c[1] - y) < reach]
        spot = (x, y, w, h)
        around = (x - reach, y - reach, x + reach, y + reach)
        hide = _Boxes(nearby, near_avoid, _labels_near(lay, x, y, reach), around)
        best = _best_spot(offsets, spot, lay, placed, leaders, hide)
        if best is None or best[3] > 0 or (best[4] > 0 and lay.kind == "square"):
            # nothing free on the coarse rings: try a fine grid (the labels of a square board
            # leave free strips narrower than the rings' steps; on a hex map the rows of
            # labels are too close for a free strip, so only a spot that would hide a counter,
            # a name or an outline is worth the time)
            fine = _best_spot(dense, spot, lay, placed, leaders, hide)
            if fine is not None and (best is None or fine[0] < best[0]):
                best = fine
        if best is None:
            best = (0, (x - w / 2, y - h / 2, x + w / 2, y + h / 2), (x, y), 0, 0)
        box, anchor = best[1], best[2]
        placed.append(box)
        if (x, y) != anchor and math.hypot(anchor[0] - x, anchor[1] - y) > 2:
            start = _leader_start((x, y), anchor, nearby)
            draw.line([start, anchor], fill=colour, width=max(2, ts // 8))
            leaders.append((start, anchor))
        boxes.append((box, text, colour))
        if drawn is not None:
            drawn.texts.append(("attack", text, box))
            drawn.leaders.append(((x, y), anchor))
    if leaders and repaste is not None:
        # leader lines cross cell labels: those not under a dice label go back on top
        repaste(leaders, max(2, ts // 8), placed)
    for box, text, colour in boxes:
        draw.rounded_rectangle(
            box, ts * 0.3, fill=(255, 255, 255), outline=colour, width=max(2, ts // 8)
        )
        sprites.paste_text(
            img, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, ts, (20, 20, 20), True, "mm"
        )


@dataclass
class Drawn:
    """What a picture shows and where (picture pixels), for tests and tools that check the
    picture's layout rather than guess it from pixels. Boxes are (left, top, right, bottom)."""

    layout: Layout
    texts: list = field(default_factory=list)  # (kind, text, box): title, legend, header,
    # name, attack, key, lost (a side's losses line), loss (a lost unit's chip)
    counters: list = field(default_factory=list)  # (piece id, box)
    cell_labels: dict = field(default_factory=dict)  # cell label -> box of the label and halo
    legend: list = field(default_factory=list)  # legend texts drawn
    losses: list = field(default_factory=list)  # (side text, unit text) drawn in the footer
    leaders: list = field(default_factory=list)  # (arrow point, label point) of attack labels
    rulers: list = field(default_factory=list)  # (edge, text, ink box): top, bottom, left, right
    factors: list = field(default_factory=list)  # (piece id, font size of its factors, box)
    # the close-up of the turn's action under the map (renderer/closeup.py), when drawn:
    # {"box": its place in the picture, "grid": its window, "drawn": its own Drawn, moved there}
    close_up: dict | None = None


def _key_rows(scene: dict, lay: Layout) -> list[list[int]]:
    """The terrain key's entries (indexes) by line: as many as fit the picture's width at the
    header's text size, so a long key wraps rather than shrinking below reading size at a
    phone's width (Tenochtitlan's eleven fills were 5 px tall there on one line)."""
    size = lay.text_size
    room = lay.width - 2 * round(lay.title_size * 0.5)
    rows: list[list[int]] = []
    used = room
    for i, k in enumerate(_items(scene, "terrain_key")):
        text = fonts.safe_text(str(k.get("text", "")))
        need = size * 1.5 + fonts.text_width(text, size) + size * 0.7
        if rows and used + need <= room:
            rows[-1].append(i)
            used += need
        else:
            rows.append([i])
            used = need
    return rows


def footer_lines(scene: dict, size_hint: int | None = None) -> int:
    """Lines under the map: the terrain key's (one, or more when it wraps), one per side's
    losses. The picture's width does not depend on them."""
    key = 0
    if scene.get("terrain_key"):
        key = len(_key_rows(scene, layout_for(scene["grid"], size_hint)))
    return key + len(_items(scene, "losses"))


def static_key(scene: dict, lay: Layout) -> tuple:
    """The cache key of a scene's static layer at a layout."""
    key = (
        scene["map_key"],
        # place names and region labels are words of the static layer
        str(scene.get("lang") or "en"),
        lay.kind,
        lay.columns,
        lay.rows,
        lay.cell,
        lay.first_column,
        lay.first_row,
        lay.footer_lines,
    )
    wordless = _WORDLESS.get(key)
    if wordless is None:
        wordless = not any(
            isinstance(c, dict) and c.get("text") for c in scene.get("cells") or []
        ) and not any(isinstance(r, dict) and r.get("label") for r in scene.get("regions") or [])
        if len(_WORDLESS) < WORDLESS_KEPT:
            _WORDLESS[key] = wordless
    # a map layer without words is the same in every language: one layer (and palette) for
    # all (a map_key names the same static parts every time: docs/rendering.md, "Caching")
    return key[:1] + ("",) + key[2:] if wordless else key


# whether the static layer of a key (with its language) has no words; a map_key names the same
# static parts every time, so this is asked once per map, layout and language
_WORDLESS: dict = {}
WORDLESS_KEPT = 4096


def _footer(img, draw, scene: dict, lay: Layout, drawn: Drawn | None) -> None:
    """The terrain key and, per side, the units it lost (small counters in its colour)."""
    ts = lay.text_size
    pad = round(lay.title_size * 0.5)
    y = lay.height - lay.footer_height + ts * 0.3
    key = _items(scene, "terrain_key")
    x: float
    size = ts
    for row in _key_rows(scene, lay) if key else []:
        x = pad
        for i in row:
            k = key[i]
            text = fonts.safe_text(str(k.get("text", "")))
            # a single name wider than the picture (never in the games) shrinks to fit
            size = fonts.fit_size(text, ts, lay.width - 2 * pad - ts * 1.5, False, smallest=9)
            colour = sprites.rgb(k.get("color") or "#888888", f"terrain_key[{i}].color")
            cy = y + ts * 0.7
            draw.rectangle(
                (x, cy - size * 0.5, x + size * 1.2, cy + size * 0.5),
                fill=colour,
                outline=(60, 60, 60),
            )
            x += size * 1.5
            sprites.paste_text(img, (x, cy), text, size, (30, 30, 30), False, "lm")
            w = fonts.text_width(text, size)
            if drawn is not None:
                drawn.texts.append(("key", text, (x, cy - size * 0.6, x + w, cy + size * 0.6)))
            x += w + size * 0.7
        y += ts * 1.5
    for i, loss in enumerate(_items(scene, "losses")):
        where = f"losses[{i}]"
        colour = sprites.rgb(loss.get("color") or "#888888", where + ".color")
        ink = sprites.contrast_text(colour)
        cy = y + ts * 0.7
        label = fonts.safe_text(str(loss.get("text", "")))
        sprites.paste_text(img, (pad, cy), label, ts, (30, 30, 30), True, "lm")
        if drawn is not None:
            width = fonts.text_width(label, ts, True)
            drawn.texts.append(("lost", label, (pad, cy - ts * 0.6, pad + width, cy + ts * 0.6)))
        x = pad + fonts.text_width(label, ts, True) + ts * 0.6
        units = [fonts.safe_text(str(u)) for u in loss.get("units") or []]
        if not units:
            sprites.paste_text(img, (x, cy), "–", ts, (30, 30, 30), False, "lm")
        chip = round(ts * 0.9)
        for k, unit in enumerate(units):
            w = fonts.text_width(unit, chip, True) + chip * 0.8
            more = f"+{len(units) - k}"
            if (
                x + w > lay.width - pad - fonts.text_width(more, ts, True) - ts
                and k < len(units) - 1
            ):
                sprites.paste_text(img, (x, cy), more, ts, (30, 30, 30), True, "lm")
                break
            box = (x, cy - chip * 0.7, x + w, cy + chip * 0.7)
            draw.rounded_rectangle(
                box, chip * 0.25, fill=colour, outline=(20, 20, 20), width=max(1, chip // 10)
            )
            sprites.paste_text(img, ((box[0] + box[2]) / 2, cy), unit, chip, ink, True, "mm")
            if drawn is not None:
                drawn.losses.append((label, unit))
                drawn.texts.append(("loss", unit, box))
            x += w + chip * 0.4
        y += ts * 1.5


def render_image(scene: dict, size_hint: int | None = None) -> Image.Image:
    """The picture of ``scene`` as an RGB image (before encoding)."""
    return _render(scene, size_hint, None)


def render_with_layout(scene: dict, size_hint: int | None = None) -> tuple[Image.Image, Drawn]:
    """The picture and a :class:`Drawn` record of where its texts, counters and labels went."""
    check(scene)
    lay = layout_for(scene["grid"], size_hint, footer_lines(scene, size_hint))
    drawn = Drawn(lay)
    img = _render(scene, size_hint, drawn)
    _record_map(scene, lay, drawn)
    return img, drawn


def _record_map(scene: dict, lay: Layout, drawn: Drawn) -> None:
    """Add what the map layer holds to the record: cell labels, place and region names,
    rulers."""
    strong = _strong_labels(scene, lay)
    cells = (
        _items(scene, "cells") if "cells" in scene else [{"at": lab} for lab in _all_labels(lay)]
    )
    for c in cells:
        h = lay.parse(str(c.get("at")), "cells")
        drawn.cell_labels[_label(lay, h)] = label_box(lay, h, h in strong)
    for mk in _items(scene, "markers"):
        if mk.get("kind") == "highlight":
            h = lay.parse(mk.get("at"), "markers")
            drawn.cell_labels.setdefault(_label(lay, h), label_box(lay, h))
    for h, lines, size, centre, box in _place_names(scene, lay):
        drawn.texts.append(("name", " ".join(lines), box))
    for text, size, colour, xy, box in _region_labels(scene, lay):
        drawn.texts.append(("region", text, box))
    for edge, text, box, _ in _ruler_marks(lay):
        drawn.rulers.append((edge, text, box))
        drawn.texts.append(("ruler", text, box))


def _render(
    scene: dict, size_hint: int | None, drawn: Drawn | None, close_up: bool = True
) -> Image.Image:
    if not close_up:
        return _render_map(scene, size_hint, drawn)
    check(scene)
    lay = layout_for(scene["grid"], size_hint, footer_lines(scene, size_hint))
    planned = closeup.plan(scene, lay)
    if planned is None:
        return _render_map(scene, size_hint, drawn)
    # the map drawn straight onto a picture with room for the close-up: one copy of the map
    # layer, not a copy and then a taller copy
    img = _render_map(scene, size_hint, drawn, planned.extra)
    return closeup.add_close_up(img, scene, lay, drawn, _render_close_up, _record_map, planned)


def _render_close_up(scene: dict, size_hint: int | None, drawn: Drawn | None) -> Image.Image:
    return _render_map(scene, size_hint, drawn, layers=CLOSE_UPS)


def _render_map(
    scene: dict,
    size_hint: int | None,
    drawn: Drawn | None,
    extra_rows: int = 0,
    layers: LruCache = STATIC,
) -> Image.Image:
    """The map of ``scene`` (no close-up), on a picture ``extra_rows`` taller than the map
    (those rows black, for the caller to fill); its static layer kept in ``layers``."""
    check(scene)
    lay = layout_for(scene["grid"], size_hint, footer_lines(scene, size_hint))
    if layers.limit:
        base = _kept_layer(layers, scene, lay)
        # a kept layer is in its palette's colours: the picture is drawn in RGB on a copy (the
        # rows beyond the map are index 0, black, for the caller to fill)
        img = base.crop((0, 0, base.width, base.height + extra_rows)) if extra_rows else base
        img = img.convert("RGB")
    else:
        # a layer that is not kept is nobody else's: drawn on
        img = layers.get(static_key(scene, lay), lambda: _build_static(scene, lay))
        if extra_rows:
            img = img.crop((0, 0, img.width, img.height + extra_rows))
    draw = ImageDraw.Draw(img)
    _header(img, draw, scene, lay, drawn)
    names = (
        _place_names(scene, lay)
        if scene.get("objectives") or scene.get("arrows") or scene.get("markers")
        else []
    )
    names += _objectives(img, draw, scene, lay, names, drawn)
    cell = lay.cell
    counter_half = lay.counter_side / 2
    arrows = _items(scene, "arrows")
    attacks = []
    moved_through: list = []
    for i, ar in enumerate(arrows):
        where = f"arrows[{i}]"
        kind = ar.get("kind", "move")
        if kind not in ("move", "attack"):
            raise SceneError(
                f"{where}.kind: {kind!r} is not an arrow kind; use 'move' or 'attack'."
            )
        pts = _arrow_points(lay, ar, where)
        colour = sprites.rgb(
            ar.get("color") or ("#222222" if kind == "move" else "#c0392b"), where + ".color"
        )
        if kind == "attack":
            attacks.append((pts, colour, ar.get("text")))
            continue
        shown = _shorten(pts, cell * 0.15, counter_half * 1.1)
        _arrow(draw, shown, colour, max(3, round(cell * 0.13)))
        moved_through.extend(zip(shown, shown[1:]))
    if moved_through:
        # a move arrow runs from centre to centre across the cells' labels (its own cells' and,
        # crossing corners, its neighbours'): put them back on top
        _repaste_labels_under(img, scene, lay, moved_through, max(3, round(cell * 0.13)))
        _repaste_names_under(img, names, moved_through, max(3, round(cell * 0.13)))
    _markers(img, draw, scene, lay, under=True)
    _joined_counters(img, draw, scene, lay)
    boxes = _pieces(img, scene, lay, drawn)
    outlined, width = _markers(img, draw, scene, lay, under=False)
    # a highlight is drawn on the cell's sides, half in its neighbours: their names stay on top
    _repaste_names_under(img, names, outlined, width / 2)
    labels = []
    seen: dict = {}
    for pts, colour, text in attacks:
        a, b = pts[0], pts[-1]
        # from the attacker's edge to the target's edge: the head points at the target without
        # hiding its factors
        _arrow(
            draw,
            _shorten([a, b], counter_half * 0.9, counter_half * 0.95),
            colour,
            max(3, round(cell * 0.11)),
        )
        if text:
            text = fonts.safe_text(str(text))
            # a combined attack has one arrow per attacker and one result: label it once, at
            # the middle of its arrows
            key = (text, b)
            if key in seen:
                seen[key][0].append(a)
                continue
            seen[key] = ([a], b, colour)
            labels.append(key)
    if attacks:
        # an attack arrow runs over the counters and so across cell labels: put them back on
        # top (the arrow stays visible around them)
        _repaste_labels_under(
            img,
            scene,
            lay,
            [(pts[0], pts[-1]) for pts, _, _ in attacks],
            max(3, round(cell * 0.11)),
        )
        _repaste_names_under(
            img, names, [(pts[0], pts[-1]) for pts, _, _ in attacks], max(3, round(cell * 0.11))
        )
    placed = []
    for text, b in labels:
        starts, target, colour = seen[(text, b)]
        mx = sum((p[0] + target[0]) / 2 for p in starts) / len(starts)
        my = sum((p[1] + target[1]) / 2 for p in starts) / len(starts)
        placed.append(((mx, my), text, colour, None))
    for i, lb in enumerate(_items(scene, "labels")):
        where = f"labels[{i}]"
        if lb.get("text"):
            colour = sprites.rgb(lb.get("color") or "#222222", where + ".color")
            placed.append(
                (
                    lay.center(lb.get("at"), where + ".at"),
                    fonts.safe_text(str(lb["text"])),
                    colour,
                    None,
                )
            )
    avoid = [label_box(lay, lay.parse(o.get("at"))) for o in _items(scene, "objectives")]
    avoid += [entry[4] for entry in names]
    avoid += _corner_marker_boxes(scene, lay)
    # an objective's outline tells who holds it: a dice label never hides it
    avoid += [
        b for o in _items(scene, "objectives") for b in outline_boxes(lay, lay.parse(o.get("at")))
    ]
    _attack_labels(
        img,
        draw,
        placed,
        lay,
        boxes,
        avoid,
        drawn,
        lambda segments, width, keep: _repaste_labels_under(img, scene, lay, segments, width, keep),
    )
    if lay.footer_lines:
        _footer(img, draw, scene, lay, drawn)
    return img


def encode_png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """The PNG settings every picture uses (also the benchmark's floor): 256 colours, either
    mapped onto ``palette`` (a "P" image, see :func:`map_palette`) or, without one, chosen for
    this picture alone."""
    if palette is None:
        indexed = img.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    else:
        indexed = img.quantize(palette=palette, dither=Image.Dither.NONE)
    if png.supports(indexed):
        return png.encode_indexed(indexed)
    out = io.BytesIO()
    indexed.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


# ----- one palette per map ---------------------------------------------------------------------

# Choosing 256 colours for a picture costs more than drawing it; mapping a picture onto colours
# chosen before costs a seventh of that. A map's pictures share their colours (the map layer,
# and the sides', arrows' and markers' colours the scene names), so the colours are chosen once
# per map and set of named colours, from the map layer, and reused.
# With each map's boards sent to one worker, 64 palettes chose as few colours as 192 did in a
# mix of the five games (32: a third more).
PALETTE_LIMIT = 64
PALETTES = LruCache(PALETTE_LIMIT, build_once=True)
# Once a picture has been mapped onto a palette, Pillow keeps a 64x64x64 lookup table with it
# (0.5 MB): 64 palettes were 32 MB of each picture worker. Rebuilding a table costs about 1 ms
# of a 5-10 ms mapping, so only the palettes used last keep theirs; the others keep their
# colours only (a table-less copy is what a picture is mapped onto the first time). In a mix
# of many games' boards 16 tables saved a rebuild for only 4 pictures in 10; 4 tables, for 1
# in 8, at no CPU measured and 15-18 MB less at the two workers' peak (docs/performance.md,
# sixth pass).
PALETTE_TABLES = 4
_TABLED_PALETTES = LruCache(PALETTE_TABLES)
# Named colours are kept exactly (a side's colour must not drift towards a terrain's); the
# octree fills the rest of the 256 entries from the picture (terrain, text edges, blends).
EXACT_LIMIT = 64
_NAMED_COLOUR_KEYS = (
    "objectives",
    "pieces",
    "markers",
    "arrows",
    "legend",
    "labels",
    "terrain_key",
    "losses",
)


# Inks the dynamic layer uses whatever the scene says: text, halos, the header's key words.
_FIXED_INKS = ((255, 255, 255), (0, 0, 0), (20, 20, 20), (30, 30, 30), (175, 185, 200))
# Inks of things only some pictures show: the first picture showing one chooses the palette
# again, from a picture that has it.
_FEATURE_INKS = {"badge": (214, 39, 40), "crowded": (200, 0, 0)}


def _named_colours(scene: dict) -> frozenset:
    """What decides a picture's colours beyond its map layer: each colour the dynamic layer is
    told to use, each marker kind (markers have default colours), the flipped counters' colours
    (a counter's back is a washed-out shade of its side's colour), damage badges and crowded
    cells (their inks are the renderer's own)."""
    found = set()
    for key in _NAMED_COLOUR_KEYS:
        for item in _items(scene, key):
            for name in ("color", "text_color", "badge_color", "icon_color"):
                value = item.get(name)
                if isinstance(value, str):
                    found.add((name, value.lower()))
            if key == "markers":
                kind = str(item.get("kind"))
                found.add(("color", sprites.MARKER_DEFAULT_COLORS.get(kind, "#000000")))
            if key == "pieces":
                if item.get("flipped"):
                    found.add(("flipped", str(item.get("color")).lower()))
                if item.get("badge") and not item.get("badge_color"):
                    found.add(("feature", "badge"))
    cells = [str(p.get("at")) for p in _items(scene, "pieces")]
    if len(cells) - len(set(cells)) >= 4 and any(cells.count(c) > 4 for c in set(cells)):
        found.add(("feature", "crowded"))
    return frozenset(found)


def _exact_colours(named: frozenset) -> list[tuple[int, int, int]]:
    colours: list[tuple[int, int, int]] = [*_FIXED_INKS, HEADER_BG, BACKGROUND, LABEL_HALO]
    for name, value in sorted(named):
        if name == "feature":
            colours.append(_FEATURE_INKS[value])
            continue
        try:
            colour = sprites.rgb(value)
        except SceneError:
            continue
        colours.append(sprites.washed(colour) if name == "flipped" else colour)
    return list(dict.fromkeys(colours))[:EXACT_LIMIT]


def _picture_palette(layer: Image.Image, named: frozenset) -> Image.Image:
    """The colours ``named`` exactly, then the kept ``layer``'s own (all of them while the named
    colours fit in its NAMED_ROOM; beyond that the last the octree chose give way)."""
    exact = _exact_colours(named)
    named_set = set(exact)
    colours = exact + [c for c in _colours_of(layer) if c not in named_set]
    entries = [c for colour in colours[:256] for c in colour]
    entries += entries[:3] * (256 - len(entries) // 3)
    palette = Image.new("P", (1, 1))
    palette.putpalette(entries[: 3 * 256])
    return palette


# A kept map layer is mapped onto colours of its own: the inks every picture uses exactly (black
# first: the rows a crop adds beyond the layer are index 0), then colours the octree chooses
# from the layer, leaving NAMED_ROOM entries of 256 for the colours a scene names (sides,
# arrows, markers: 4-14 in the five games' pictures). A picture's palette is these colours plus
# the named ones, so the map's pixels keep their colour in every picture of the map (but where
# Pillow's approximate palette lookup takes a neighbouring entry: under 1% of them, a few levels).
NAMED_ROOM = 24


def _layer_palette(img: Image.Image) -> Image.Image:
    fixed = list(dict.fromkeys([(0, 0, 0), *_FIXED_INKS, HEADER_BG, BACKGROUND, LABEL_HALO]))
    # Every other pixel of every other row: the octree counts colours, and a map's colours
    # come in areas and lines wider than a pixel; a quarter of the pixels costs a quarter.
    sample = img.resize((max(1, img.width // 2), max(1, img.height // 2)), Image.Resampling.NEAREST)
    chosen = sample.quantize(
        colors=256 - NAMED_ROOM - len(fixed),
        method=Image.Quantize.FASTOCTREE,
        dither=Image.Dither.NONE,
    )
    entries = [c for colour in fixed for c in colour]
    entries += (chosen.getpalette() or [])[: 3 * (256 - NAMED_ROOM - len(fixed))]
    palette = Image.new("P", (1, 1))
    palette.putpalette(entries)
    return palette


def _indexed_layer(img: Image.Image) -> Image.Image:
    """A map layer drawn in RGB, kept in 256 colours of its own (:func:`_layer_palette`)."""
    return img.quantize(palette=_layer_palette(img), dither=Image.Dither.NONE)


def _kept_layer(layers: LruCache, scene: dict, lay: Layout) -> Image.Image:
    return layers.get(
        static_key(scene, lay),
        lambda: _indexed_layer(_build_static(scene, lay)),
        _layer_bytes(lay, indexed=True),
    )


def _colours_of(img: Image.Image) -> list[tuple[int, int, int]]:
    entries = img.getpalette() or []
    return [(entries[i], entries[i + 1], entries[i + 2]) for i in range(0, len(entries) - 2, 3)]


def map_palette(scene: dict, img: Image.Image, size_hint: int | None = None) -> Image.Image:
    """The palette for ``img``, the picture of ``scene``: the colours ``scene`` names, kept
    exactly, and the rest chosen from its map layer. It depends on the map and the named
    colours only, never on which pictures came before, so one scene always encodes to the
    same bytes (a posted board equals the board drawn again)."""
    lay = layout_for(scene["grid"], size_hint, footer_lines(scene))
    key = static_key(scene, lay)
    named = _named_colours(scene)

    def build() -> Image.Image:
        base = STATIC.peek(key) or _kept_layer(STATIC, scene, lay)
        return _picture_palette(base, named)

    colours = PALETTES.get((key, named), build)
    return _TABLED_PALETTES.get((key, named), colours.copy)


def render_png(scene: dict, *, size_hint: int | None = None) -> bytes:
    """Draw ``scene`` (format: :mod:`renderer.scene`) and return PNG bytes. ``size_hint`` is the
    cell size in pixels; by default it follows the grid's size. Thread-safe."""
    img = render_image(scene, size_hint)
    return encode_png(img, map_palette(scene, img, size_hint))


def render_animation(
    scenes: Iterable[dict],
    *,
    duration_ms: int = 900,
    size_hint: int | None = None,
    max_width: int = 800,
    max_bytes: int | None = None,
) -> bytes:
    """An animated GIF, one frame per scene (a game's replay, one frame per turn).

    Written frame by frame: only the frame being drawn and the one before it are in memory,
    whatever the number of scenes (``scenes`` may be a generator). Frames are shrunk to at
    most ``max_width`` pixels and share the first frame's palette, so each frame stores only
    the box that changed; a frame identical to the one before lengthens it instead. The last
    frame stays up three times as long.

    ``max_bytes``: the GIF never grows past this; a frame that would not fit is left out (the
    next one then shows both changes), and room for the last frame, the game's end, is kept.
    """
    out = io.BytesIO()
    canvas_size: tuple[int, int] | None = None
    scale = 1.0
    palette: Image.Image | None = None
    previous: Image.Image | None = None  # the last frame written (or waiting to be)
    pending: list | None = None  # [encoded chunks, duration] of that frame
    skipped: list | None = None  # the newest frame left out for lack of room
    reserve = 0
    clear: int | None = None  # a palette index no colour uses: transparency

    def flush(frame: list, last: bool) -> None:
        data = b"".join(frame[0])
        out.write(_with_duration(data, frame[1] * (3 if last else 1)))

    def size_of(frame: list | None) -> int:
        return sum(len(c) for c in frame[0]) if frame else 0

    for scene in scenes:
        # a replay shows the whole board turn by turn: no close-ups (frames keep one size)
        image = _render(scene, size_hint, None, close_up=False)
        if canvas_size is None:
            scale = min(1.0, max_width / image.width)
            canvas_size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        frame = _fit(image, scale, canvas_size)
        del image
        if palette is None:
            palette = frame.quantize(
                colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )
            header, _ = GifImagePlugin.getheader(palette, None, {"loop": 0})
            for chunk in header:
                out.write(chunk)
            pending = [
                GifImagePlugin.getdata(palette, (0, 0), duration=duration_ms, disposal=1),
                duration_ms,
            ]
            previous = palette
            # A later frame may replace the whole picture: keep room for one such frame, so
            # the game's last frame always fits.
            reserve = size_of(pending) + 16
            clear = _free_index(palette)
            continue
        assert pending is not None and previous is not None
        indexed = frame.quantize(palette=palette, dither=Image.Dither.NONE)
        del frame
        delta = ImageChops.subtract_modulo(indexed, previous)
        box = delta.getbbox(alpha_only=False)
        if box is None:
            pending[1] += duration_ms
            skipped = None
            continue
        changed = indexed.crop(box)
        extra = {}
        if clear is not None:
            # Pixels that did not change become transparent (the frame before shows through),
            # which compresses far better than repeating them.
            changed.paste(clear, mask=delta.crop(box).point([255] + [0] * 255, "1"))
            extra["transparency"] = clear
        del delta
        chunks = GifImagePlugin.getdata(changed, box[:2], duration=duration_ms, disposal=1, **extra)
        size = sum(len(c) for c in chunks)
        if max_bytes is not None and out.tell() + size_of(pending) + size + reserve + 1 > max_bytes:
            # Left out: the next frame is compared with the last one kept, so it shows both
            # changes; the time this one would have shown goes to the frame before.
            pending[1] += duration_ms
            skipped = [chunks, duration_ms]
            continue
        flush(pending, last=False)
        pending, previous, skipped = [chunks, duration_ms], indexed, None
    if pending is None:
        raise SceneError("render_animation: no scenes to animate.")
    if skipped is not None:
        # The game's end was left out for room: it goes in, in the room kept for it.
        pending[1] -= skipped[1]
        flush(pending, last=False)
        pending = skipped
    flush(pending, last=True)
    out.write(b";")
    return out.getvalue()


def _free_index(image: Image.Image) -> int | None:
    """A palette index no pixel can take (the quantiser used fewer colours), still inside the
    GIF's colour table (whose size is the next power of two), or None."""
    used = len(image.getpalette() or []) // 3
    table = 2
    while table < used:
        table *= 2
    return used if used < table else None


def _fit(image: Image.Image, scale: float, size: tuple[int, int]) -> Image.Image:
    """``image`` scaled by ``scale`` and placed top-centre on a canvas of ``size`` (frames of
    one game are normally the same size; a larger one is shrunk to fit)."""
    if scale < 1.0:
        image = image.resize(
            (max(1, round(image.width * scale)), max(1, round(image.height * scale))),
            Image.Resampling.LANCZOS,
        )
    if image.size == size:
        return image.convert("RGB")
    if image.width > size[0] or image.height > size[1]:
        image = image.copy()
        image.thumbnail(size, Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", size, BACKGROUND)
    canvas.paste(image.convert("RGB"), ((size[0] - image.width) // 2, 0))
    return canvas


def _with_duration(data: bytes, duration_ms: int) -> bytes:
    """A frame written by ``GifImagePlugin.getdata`` with its delay set to ``duration_ms``
    (the graphic control extension 21 F9 04 <flags> <delay, 1/100 s, little endian>)."""
    if data[:3] != b"\x21\xf9\x04":
        return data
    delay = max(0, min(65535, round(duration_ms / 10)))
    return data[:4] + delay.to_bytes(2, "little") + data[6:]
