"""Scene -> picture. The static layer of each map is drawn once and cached; every picture
copies it and draws the dynamic layer (header, objectives, arrows, counters, markers) on top.

Speed (see docs/rendering.md): outlines are drawn with ``line`` (``polygon(width>1)`` builds a
full-image mask per call), counters and markers are cached sprites that are only pasted, and
the PNG is quantised to 256 colours then written with ``compress_level`` 3: smaller and faster
than an RGB PNG of flat-coloured maps.
"""
from __future__ import annotations

import io
import math
from collections.abc import Iterable

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from . import fonts, sprites
from .cache import LruCache
from .icons import ICONS
from .layout import Layout, SceneError, layout_for
from .scene import REQUIRED_KEYS

BACKGROUND = (236, 231, 218)
HEADER_BG = (31, 36, 48)
DEFAULT_FILL = (216, 211, 196)
GRID_INK = (60, 60, 60)
PNG_COMPRESS_LEVEL = 3
STATIC_LIMIT = 6           # cached map layers (a 40x30 hex map layer is ~10 MB)


# ----- the static-layer cache ----------------------------------------------------------------

# Static layers keyed by (map_key, grid, cell size); drawn once even when renders race.
STATIC = LruCache(STATIC_LIMIT, build_once=True)


def cache_info() -> dict:
    """Counters for tests and benchmarks: how often layers and sprites were drawn or reused."""
    return {"static_builds": STATIC.builds, "static_hits": STATIC.hits, "static_cached": len(STATIC),
            "sprite_builds": sprites.SPRITES.builds, "sprite_hits": sprites.SPRITES.hits}


def clear_cache() -> None:
    STATIC.clear()
    sprites.SPRITES.clear()


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


def _halo_text(draw, xy, text, size, fill=(20, 20, 20), halo=(255, 255, 255), bold=True, anchor="mm"):
    draw.text(xy, text, font=fonts.font(size, bold), fill=fill, anchor=anchor,
              stroke_width=max(1, size // 7), stroke_fill=halo)


def _dot(draw, xy, width, colour):
    r = width / 2
    if r >= 1.5:
        draw.ellipse((xy[0] - r + 0.5, xy[1] - r + 0.5, xy[0] + r - 0.5, xy[1] + r - 0.5), fill=colour)


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
    cells = _items(scene, "cells") if "cells" in scene else [
        {"at": label} for label in _all_labels(lay)]
    fills: dict = {}
    parsed = []
    for i, c in enumerate(cells):
        where = f"cells[{i}]"
        h = lay.parse(c.get("at"), where)
        fill = sprites.rgb(c["fill"], where + ".fill") if c.get("fill") else DEFAULT_FILL
        fills[h] = fill
        parsed.append((h, c, fill))
        draw.polygon(lay.corners_of(h), fill=fill)
    # square boards carry thick segment borders as regions/edges, so their grid stays faint
    outline = max(1, round(cell / 22)) if lay.kind == "hex" else max(1, round(cell / 60))
    ink = GRID_INK if lay.kind == "hex" else (105, 105, 95)
    for h, _, _ in parsed:
        pts = lay.corners_of(h)
        draw.line(pts + [pts[0]], fill=ink, width=outline)

    for i, ln in enumerate(_items(scene, "lines")):
        where = f"lines[{i}]"
        a, b = lay.center(ln.get("from"), where + ".from"), lay.center(ln.get("to"), where + ".to")
        colour = sprites.rgb(ln.get("color") or ("#c2a878"), where + ".color")
        w = _scaled(ln.get("width"), cell, 6)
        kind = ln.get("kind", "road")
        if kind in ("causeway", "bridge", "walkway"):
            border = max(2, w // 3) if kind != "bridge" else max(3, w // 2)
            draw.line([a, b], fill=(45, 40, 35), width=w + 2 * border)
            for p in (a, b):
                _dot(draw, p, w + 2 * border, (45, 40, 35))
        draw.line([a, b], fill=colour, width=w)
        for p in (a, b):
            _dot(draw, p, w, colour)
        if kind == "aqueduct":
            draw.line([a, b], fill=(90, 160, 220), width=max(1, w // 3))

    for i, e in enumerate(_items(scene, "edges")):
        where = f"edges[{i}]"
        ha, hb = lay.parse(e.get("at"), where + ".at"), lay.parse(e.get("to"), where + ".to")
        side = lay.shared_side(ha, hb)
        if side is None:
            raise SceneError(f"{where}: {e.get('at')} and {e.get('to')} share no side; an edge joins "
                             f"two cells next to each other.")
        w = _scaled(e.get("width"), cell, 5)
        colour = sprites.rgb(e.get("color") or ("#333333"), where + ".color")
        draw.line(list(side), fill=colour, width=w)
        for p in side:
            _dot(draw, p, w, colour)

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
                    draw.line([p, q], fill=colour, width=w)
                    _dot(draw, p, w, colour)
                    _dot(draw, q, w, colour)

    icon_r = cell * (0.36 if lay.kind == "hex" else 0.3)
    label_size = max(8, round(cell * (0.2 if lay.kind == "hex" else 0.18)))
    text_size = max(9, round(cell * (0.27 if lay.kind == "hex" else 0.2)))
    for i, (h, c, fill) in enumerate(parsed):
        cx, cy = lay.center_of(h)
        icon = c.get("icon")
        if icon:
            if icon not in ICONS:
                raise SceneError(f"cells[{i}].icon: {icon!r} is not an icon; known: {', '.join(ICONS)}.")
            ICONS[icon](draw, cx, cy, icon_r)
        if c.get("text"):
            ty = cy + (cell * 0.58 if lay.kind == "hex" else cell * 0.34)
            _halo_text(draw, (cx, ty), fonts.safe_text(str(c["text"])), text_size)
    masks: dict = {}

    def glyphs(text: str, anchor: str):
        # a hex label is two 2-digit halves; their masks repeat across the map, rasterising
        # 1200 labels one by one was most of a big map's first picture
        found = masks.get((text, anchor))
        if found is None:
            f = fonts.font(label_size)
            left, top, right, bottom = f.getbbox(text, anchor=anchor)
            mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
            ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
            found = masks[(text, anchor)] = (mask, left, top)
        return found

    for h, c, fill in parsed:
        cx, cy = lay.center_of(h)
        ink = sprites.mix(sprites.contrast_text(fill), fill, 0.3)
        if lay.kind == "hex":
            text = _label(lay, h)
            for part, anchor in ((text[:2], "rt"), (text[2:], "lt")):
                mask, dx, dy = glyphs(part, anchor)
                img.paste(ink, (round(cx + dx), round(cy - cell * 0.845 + dy)), mask)
        else:
            draw.text((cx - cell * 0.46, cy - cell * 0.46), _label(lay, h), font=fonts.font(label_size),
                      fill=ink, anchor="lt")

    for i, rg in enumerate(_items(scene, "regions")):
        if rg.get("label"):
            # top-left inside the region: out of the way of what sits in its middle
            corners = [p for lab in rg["cells"] for p in lay.corners_of(lay.parse(lab))]
            x = min(p[0] for p in corners) + cell * 0.25
            y = min(p[1] for p in corners) + cell * (0.3 if lay.kind == "hex" else 0.22)
            colour = sprites.rgb(rg.get("outline") or ("#000000"))
            _halo_text(draw, (x, y), fonts.safe_text(str(rg["label"])), max(11, round(cell * 0.3)), fill=colour,
                       anchor="lt")
    return img


def _label(lay: Layout, h) -> str:
    from engine.core import hexgrid, squaregrid
    return hexgrid.label(h) if lay.kind == "hex" else squaregrid.label(h)


def _all_labels(lay: Layout) -> list[str]:
    from engine.core import hexgrid, squaregrid
    if lay.kind == "hex":
        return [hexgrid.label(hexgrid.from_offset(c, r))
                for c in range(lay.first_column, lay.first_column + lay.columns)
                for r in range(lay.first_row, lay.first_row + lay.rows)]
    return [squaregrid.label((c, r)) for r in range(lay.rows) for c in range(lay.columns)]


# ----- dynamic layer -----------------------------------------------------------------------

def _header(img, draw, scene: dict, lay: Layout) -> None:
    pad = round(lay.title_size * 0.5)
    right = lay.width - pad
    legend = _items(scene, "legend")
    ts = lay.text_size
    x = right
    for i, entry in enumerate(reversed(legend)):
        text = fonts.safe_text(str(entry.get("text", "")))
        colour = sprites.rgb(entry.get("color") or ("#888888"), f"legend[{len(legend) - 1 - i}].color")
        tw = fonts.text_width(text, ts, True)
        if x - tw - ts * 1.4 < lay.width * 0.45:
            break            # the title keeps at least half the band
        sprites.paste_text(img, (x, pad + lay.title_size * 0.55), text, ts, (240, 240, 240), True, "rm")
        x -= tw + ts * 0.4
        draw.rectangle((x - ts, pad + lay.title_size * 0.55 - ts / 2, x, pad + lay.title_size * 0.55 + ts / 2),
                       fill=colour, outline=(255, 255, 255))
        x -= ts * 1.6
    title = fonts.safe_text(str(scene.get("title") or ""))
    if title:
        sprites.paste_text(img, (pad, pad), fonts.fit(title, lay.title_size, x - pad - ts, True),
                           lay.title_size, (255, 255, 255), True, "la")

    # header pairs flow across lines, notes each start a line; overflow ends with an ellipsis
    lines: list[list[tuple[str, bool, tuple]]] = [[]]
    widths = [0.0]
    room = lay.width - 2 * pad
    gap = ts * 1.1
    for i, pair in enumerate(_items(scene, "header")):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise SceneError(f"header[{i}]: expected a [label, value] pair, got {pair!r}.")
        key, value = fonts.safe_text(str(pair[0])), fonts.safe_text(str(pair[1]))
        kw = fonts.text_width(key + " ", ts)
        vw = fonts.text_width(value, ts, True)
        need = kw + vw + (gap if lines[-1] else 0)
        if lines[-1] and widths[-1] + need > room:
            lines.append([])
            widths.append(0.0)
            need = kw + vw
        if kw + vw > room:
            value = fonts.fit(value, ts, room - kw, True)
            vw = fonts.text_width(value, ts, True)
        if lines[-1]:
            lines[-1].append(("", False, (0, 0, 0), gap))
        lines[-1] += [(key + " ", False, (175, 185, 200), kw), (value, True, (255, 255, 255), vw)]
        widths[-1] += need
    for note in _items(scene, "notes"):
        text = fonts.safe_text(str(note))
        if lines[-1]:
            lines.append([])
            widths.append(0.0)
        text = fonts.fit(text, ts, room)
        lines[-1].append((text, False, (215, 215, 200), fonts.text_width(text, ts)))
    if len(lines) > lay.header_lines:
        lines = lines[:lay.header_lines]
        lines[-1].append(("  …", True, (255, 255, 255), 0))
    y = pad + lay.title_size * 1.4
    for line in lines:
        x = pad
        for text, bold, colour, w in line:
            if text:
                sprites.paste_text(img, (x, y), text, ts, colour, bold, "la")
            x += w
        y += ts * 1.3


def _objectives(img, draw, scene: dict, lay: Layout, static_text: dict) -> None:
    cell = lay.cell
    for i, ob in enumerate(_items(scene, "objectives")):
        where = f"objectives[{i}]"
        h = lay.parse(ob.get("at"), where + ".at")
        cx, cy = lay.center_of(h)
        colour = sprites.rgb(ob["color"], where + ".color") if ob.get("color") else (255, 255, 255)
        # an inset outline of the cell: counters never cover it and cell names stay inside it
        inset = 0.84 if lay.kind == "hex" else 0.86
        w = max(3, round(cell * (0.12 if lay.kind == "hex" else 0.09)))
        pts = [(cx + (x - cx) * inset, cy + (y - cy) * inset) for x, y in lay.corners_of(h)]
        pts.append(pts[0])
        draw.line(pts, fill=(20, 20, 20), width=w + 4, joint="curve")
        draw.line(pts, fill=colour, width=w, joint="curve")
        name = static_text.get(h) or ob.get("name")
        if name:      # over the outline, so the place's name stays readable
            ty = cy + (cell * 0.58 if lay.kind == "hex" else cell * 0.34)
            size = max(9, round(cell * (0.27 if lay.kind == "hex" else 0.2)))
            sprites.paste_text(img, (cx, ty), fonts.safe_text(str(name)), size, (20, 20, 20), True, "mm",
                               max(1, size // 7), (255, 255, 255))


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
    head = [(tx, ty), (base[0] - uy * head_half, base[1] + ux * head_half),
            (base[0] + uy * head_half, base[1] - ux * head_half)]
    hw = max(2, width // 3)
    if halo is not None:
        draw.line(body, fill=halo, width=width + 2 * hw, joint="curve")
        _dot(draw, body[0], width + 2 * hw, halo)
        big = [(tx + ux * hw * 1.8, ty + uy * hw * 1.8),
               (base[0] - uy * (head_half + hw * 1.6) - ux * hw, base[1] + ux * (head_half + hw * 1.6) - uy * hw),
               (base[0] + uy * (head_half + hw * 1.6) - ux * hw, base[1] - ux * (head_half + hw * 1.6) - uy * hw)]
        draw.polygon(big, fill=halo)
    draw.line(body, fill=colour, width=width, joint="curve")
    _dot(draw, body[0], width, colour)
    draw.polygon(head, fill=colour)


def _arrow_points(lay: Layout, arrow: dict, where: str):
    path = arrow.get("path") or []
    if not isinstance(path, list) or len(path) < 2:
        raise SceneError(f"{where}.path: an arrow needs a list of at least two cells.")
    return [lay.center(lab, f"{where}.path") for lab in path]


def _pieces(img, scene: dict, lay: Layout) -> list[tuple[float, float, float, float]]:
    """Paste the counters; returns their boxes (attack labels avoid them)."""
    cell = lay.cell
    boxes = []
    by_cell: dict = {}
    for i, p in enumerate(_items(scene, "pieces")):
        h = lay.parse(p.get("at"), f"pieces[{i}].at")
        by_cell.setdefault(h, []).append((i, p))
    full = round(cell * (1.12 if lay.kind == "hex" else 0.74))
    quarter = round(cell * (0.64 if lay.kind == "hex" else 0.44))
    offset = cell * (0.335 if lay.kind == "hex" else 0.24)
    slots = ((-1, -1), (1, -1), (-1, 1), (1, 1))
    draw = None
    for h, group in by_cell.items():
        cx, cy = lay.center_of(h)
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
            placed = [(i, p, cx + slots[s][0] * offset, cy + slots[s][1] * offset, quarter)
                      for s, (i, p) in sorted(taken.items())]
            hidden = len(group) - len(placed)
        for i, p, x, y, side in placed:
            compact = side != full
            where = f"pieces[{i}]"
            colour = sprites.rgb(p.get("color") or ("#777777"), where + ".color")
            text_colour = (sprites.rgb(p["text_color"], where + ".text_color") if p.get("text_color")
                           else sprites.contrast_text(colour))
            sprite = sprites.counter(side, colour, text_colour, fonts.safe_text(str(p.get("title") or "")),
                                     fonts.safe_text(str(p.get("values") or "")), bool(p.get("flipped")),
                                     str(p["badge"]) if p.get("badge") not in (None, "") else "",
                                     p.get("symbol"), compact)
            m = sprites.counter_margin(side)
            img.paste(sprite, (round(x - side / 2 - m), round(y - side / 2 - m)), sprite)
            boxes.append((x - side / 2, y - side / 2, x + side / 2, y + side / 2))
        if len(group) > 1 and hidden > 0:
            draw = draw or ImageDraw.Draw(img)
            _halo_text(draw, (cx, cy), f"+{hidden}", max(10, round(cell * 0.4)), fill=(200, 0, 0))
    return boxes


def _markers(img, draw, scene: dict, lay: Layout, under: bool) -> None:
    """Clouds (gas, smoke) go ``under`` the counters so these stay readable and the cloud shows
    around them; every other marker goes over them."""
    cell = lay.cell
    corner = cell * (0.47 if lay.kind == "hex" else 0.3)
    corner_y = cell * (0.52 if lay.kind == "hex" else 0.3)
    corners = ((1, -1), (1, 1), (-1, 1), (-1, -1))
    used: dict = {}
    late = []
    for i, mk in enumerate(_items(scene, "markers")):
        where = f"markers[{i}]"
        kind = mk.get("kind")
        if kind not in sprites.MARKER_KINDS:
            raise SceneError(f"{where}.kind: {kind!r} is not a marker kind; known: "
                             f"{', '.join(sprites.MARKER_KINDS)}.")
        h = lay.parse(mk.get("at"), where + ".at")
        if under != (kind in ("gas", "smoke")):
            continue
        cx, cy = lay.center_of(h)
        colour = sprites.rgb(mk.get("color") or sprites.MARKER_DEFAULT_COLORS[kind], where + ".color")
        text = fonts.safe_text(str(mk.get("text") or ""))
        if kind == "highlight":
            pts = lay.corners_of(h)
            w = max(3, round(cell * 0.12))
            draw.line(pts + [pts[0]], fill=colour, width=w, joint="curve")
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
            size = round(cell * (0.44 if lay.kind == "hex" else 0.34))
            dx, dy = corners[n % 4]
            x, y = cx + dx * corner, cy + dy * corner_y
        sprite = sprites.marker(kind, size, colour, text)
        img.paste(sprite, (round(x - size / 2), round(y - size / 2)), sprite)
    for kind, size, colour, text, x, y in late:
        sprite = sprites.marker(kind, size, colour, text)
        img.paste(sprite, (round(x - size / 2), round(y - size / 2)), sprite)


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _attack_labels(img, draw, labels, lay: Layout, counters) -> None:
    """Dice labels near their arrow's middle, moved up or down to where they hide the fewest
    counters and no other label; a thin leader joins a moved label to its arrow."""
    ts = max(11, min(lay.text_size, round(lay.cell * 0.38)))
    f = fonts.font(ts, True)
    placed: list[tuple[float, float, float, float]] = []
    steps = [0.0]
    for k in range(1, 6):
        steps += [-k * 0.85 * lay.cell, k * 0.85 * lay.cell]
    for (x, y), text, colour in labels:
        w = f.getlength(text) + ts * 0.8
        h = ts * 1.45
        reach = 6 * lay.cell + w
        nearby = [c for c in counters if abs(c[0] - x) < reach and abs(c[1] - y) < reach]
        best = None
        for i, dy in enumerate(steps):
            x0 = min(max(x - w / 2, 2), lay.width - w - 2)
            y0 = min(max(y + dy - h / 2, lay.header_height + 2), lay.height - h - 2)
            box = (x0, y0, x0 + w, y0 + h)
            cost = sum(_overlap(box, c) for c in nearby) + sum(_overlap(box, b) * 50 for b in placed)
            cost += i * lay.cell * 0.5      # prefer staying close to the arrow
            if best is None or cost < best[0]:
                best = (cost, box)
        box = best[1]
        placed.append(box)
        if not (box[1] <= y <= box[3]):
            edge = box[3] if box[3] < y else box[1]
            draw.line([(x, y), ((box[0] + box[2]) / 2, edge)], fill=colour, width=max(2, ts // 8))
        draw.rounded_rectangle(box, ts * 0.3, fill=(255, 255, 255), outline=colour, width=max(2, ts // 8))
        sprites.paste_text(img, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, ts, (20, 20, 20), True, "mm")


def static_key(scene: dict, lay: Layout) -> tuple:
    """The cache key of a scene's static layer at a layout."""
    return (scene["map_key"], lay.kind, lay.columns, lay.rows, lay.cell, lay.first_column, lay.first_row)


def _static_text_cells(scene: dict, lay: Layout) -> dict:
    out = {}
    for c in scene.get("cells") or []:
        if isinstance(c, dict) and c.get("text"):
            try:
                out[lay.parse(c.get("at"))] = c["text"]
            except SceneError:
                pass
    return out


def render_image(scene: dict, size_hint: int | None = None) -> Image.Image:
    """The picture of ``scene`` as an RGB image (before encoding)."""
    check(scene)
    lay = layout_for(scene["grid"], size_hint)
    base = STATIC.get(static_key(scene, lay), lambda: _build_static(scene, lay))
    img = base.copy()
    draw = ImageDraw.Draw(img)
    _header(img, draw, scene, lay)
    _objectives(img, draw, scene, lay, _static_text_cells(scene, lay) if scene.get("objectives") else {})
    cell = lay.cell
    counter_half = cell * (0.6 if lay.kind == "hex" else 0.4)
    arrows = _items(scene, "arrows")
    attacks = []
    for i, ar in enumerate(arrows):
        where = f"arrows[{i}]"
        kind = ar.get("kind", "move")
        if kind not in ("move", "attack"):
            raise SceneError(f"{where}.kind: {kind!r} is not an arrow kind; use 'move' or 'attack'.")
        pts = _arrow_points(lay, ar, where)
        colour = sprites.rgb(ar.get("color") or ("#222222" if kind == "move" else "#c0392b"), where + ".color")
        if kind == "attack":
            attacks.append((pts, colour, ar.get("text")))
            continue
        _arrow(draw, _shorten(pts, cell * 0.15, counter_half), colour, max(3, round(cell * 0.13)))
    _markers(img, draw, scene, lay, under=True)
    boxes = _pieces(img, scene, lay)
    _markers(img, draw, scene, lay, under=False)
    labels = []
    for pts, colour, text in attacks:
        a, b = pts[0], pts[-1]
        # from the attacker's edge to the target's edge: the head points at the target without
        # hiding its factors
        _arrow(draw, _shorten([a, b], counter_half * 0.8, counter_half * 0.85), colour, max(3, round(cell * 0.11)))
        if text:
            labels.append((((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), fonts.safe_text(str(text)), colour))
    _attack_labels(img, draw, labels, lay, boxes)
    return img


def encode_png(img: Image.Image) -> bytes:
    """The PNG settings every picture uses (also the benchmark's floor)."""
    quantised = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantised.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def render_png(scene: dict, *, size_hint: int | None = None) -> bytes:
    """Draw ``scene`` (format: :mod:`renderer.scene`) and return PNG bytes. ``size_hint`` is the
    cell size in pixels; by default it follows the grid's size. Thread-safe."""
    return encode_png(render_image(scene, size_hint))


def render_animation(scenes: Iterable[dict], *, duration_ms: int = 900,
                     size_hint: int | None = None, max_width: int = 800,
                     max_bytes: int | None = None) -> bytes:
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
    previous: Image.Image | None = None     # the last frame written (or waiting to be)
    pending: list | None = None             # [encoded chunks, duration] of that frame
    skipped: list | None = None             # the newest frame left out for lack of room
    reserve = 0
    clear: int | None = None                # a palette index no colour uses: transparency

    def flush(frame: list, last: bool) -> None:
        data = b"".join(frame[0])
        out.write(_with_duration(data, frame[1] * (3 if last else 1)))

    def size_of(frame: list | None) -> int:
        return sum(len(c) for c in frame[0]) if frame else 0

    for scene in scenes:
        image = render_image(scene, size_hint)
        if canvas_size is None:
            scale = min(1.0, max_width / image.width)
            canvas_size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        frame = _fit(image, scale, canvas_size)
        del image
        if palette is None:
            palette = frame.quantize(colors=255, method=Image.Quantize.FASTOCTREE,
                                     dither=Image.Dither.NONE)
            header, _ = GifImagePlugin.getheader(palette, None, {"loop": 0})
            for chunk in header:
                out.write(chunk)
            pending = [GifImagePlugin.getdata(palette, (0, 0), duration=duration_ms, disposal=1),
                       duration_ms]
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
        chunks = GifImagePlugin.getdata(changed, box[:2], duration=duration_ms, disposal=1,
                                        **extra)
        size = sum(len(c) for c in chunks)
        if max_bytes is not None and \
                out.tell() + size_of(pending) + size + reserve + 1 > max_bytes:
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
        image = image.resize((max(1, round(image.width * scale)),
                              max(1, round(image.height * scale))), Image.Resampling.LANCZOS)
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
